// The analyses of a domain's ranked keywords in demo mode (tabs of the domain page, one
// purchase for all): top pages, cannibalised keywords, search intent (column, filter, CSV)
// and position changes between two purchases made on different sandbox days (the demo's day
// is the page's date: the second purchase is made with the page's clock a week later).
// Expected figures are computed here from the same rows fetched from the sandbox server
// (the same generator as the demo), and axe-core checks each view in both themes.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, parseCsv, saved, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';
import { ctr } from './research_gap_rules.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const DOMAIN = 'example.com';
const num = (t) => Number(String(t).replace(/[^0-9-]/g, ''));

/** The domain's ranked keywords from the sandbox server (same generator, same day). */
async function rankedRows() {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const r = await fetch(`${SANDBOX_URL}/v1/ranked-keywords/domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, domain: DOMAIN }),
  });
  assert.equal(r.status, 200);
  return r.json();
}

async function csvOf(testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return parseCsv(await readFile(await dl.path(), 'utf8'));
}

async function tab(id) {
  await open(page, app.url, `/domain?d=${DOMAIN}&tab=${id}`);
}

test('top pages: ranked keywords grouped by URL, as computed from the same rows', async () => {
  await tab('pages');
  // Priced first: nothing is bought until the price button is pressed.
  const buy = page.getByTestId('top-pages');
  assert.match(await buy.textContent(), /^Get ranked keywords — \$/);
  await buy.click();
  await page.getByTestId('tp-table').waitFor();
  const rows = await rankedRows();
  // Each URL's keywords at their best rank (a keyword twice on one URL counts once).
  const pages = new Map();
  rows.forEach((r, i) => {
    if (r.rank <= 0) return;
    const p = pages.get(r.url) ?? { kws: new Map() };
    const k = r.keyword.toLowerCase();
    const had = p.kws.get(k);
    const v = Math.max(0, r.search_volume);
    if (!had || r.rank < had.rank || (r.rank === had.rank && v > had.volume)) p.kws.set(k, { rank: r.rank, volume: v, keyword: r.keyword, seen: had?.seen ?? i });
    pages.set(r.url, p);
  });
  assert.equal(num(await page.getByTestId('tp-count').textContent()), pages.size);
  const csv = await csvOf('tp-csv');
  assert.deepEqual(csv[0], ['URL', 'Keywords', 'Total volume', 'Est. traffic', 'Top keyword', 'Its rank']);
  assert.equal(csv.length - 1, pages.size);
  for (const [url, kws, volume, traffic, top, rank] of csv.slice(1, 20)) {
    const p = pages.get(url);
    assert.ok(p, `${url} is a ranking URL`);
    const list = [...p.kws.values()];
    assert.equal(Number(kws), list.length, `${url} keywords`);
    assert.equal(Number(volume), list.reduce((a, k) => a + k.volume, 0), `${url} volume`);
    // Estimated traffic: volume × the click-through rate of the rank, by the curve stated.
    const est = list.reduce((a, k) => a + k.volume * ctr(k.rank), 0);
    assert.ok(Math.abs(Number(traffic) - est) <= 0.05 + 1e-9, `${url} traffic ${traffic} vs ${est}`);
    // The top keyword brings the most traffic (a tie: the better rank, the higher volume, the first).
    const best = [...list].sort((a, b) => b.volume * ctr(b.rank) - a.volume * ctr(a.rank) || a.rank - b.rank || b.volume - a.volume || a.seen - b.seen)[0];
    assert.equal(Number(rank), best.rank, `${url} top keyword's rank`);
    assert.equal(top.toLowerCase(), best.keyword.toLowerCase(), `${url} top keyword`);
  }
  const traffics = csv.slice(1).map((r) => Number(r[3]));
  assert.deepEqual(traffics, [...traffics].sort((a, b) => b - a), 'by estimated traffic');
  assert.match(await page.getByTestId('tp-curve').textContent(), /SISTRIX's 2020 CTR study/);
  await page.getByTestId('tp-rule').waitFor();
  await shot(page, 'analyses-top-pages');
});

test('cannibalisation: keywords two or more URLs of the domain rank for, with URLs and ranks', async () => {
  await tab('cannibal');
  await page.getByTestId('cn').waitFor();
  const rows = await rankedRows();
  const urls = new Map();
  for (const r of rows) {
    if (r.rank <= 0) continue;
    const k = r.keyword.toLowerCase();
    const m = urls.get(k) ?? new Map();
    m.set(r.url, Math.min(m.get(r.url) ?? Infinity, r.rank));
    urls.set(k, m);
  }
  const expected = [...urls].filter(([, m]) => m.size >= 2);
  assert.equal(num(await page.getByTestId('cn-count').textContent()), expected.length);
  if (expected.length === 0) {
    // The demo data gives none (reported as such by the sandbox of this build).
    await page.getByTestId('cn-none').waitFor();
    return;
  }
  const csv = await csvOf('cn-csv');
  assert.deepEqual(csv[0], ['Keyword', 'Volume', 'URLs ranking', 'URL', 'Rank', 'Two URLs in the top 20']);
  assert.equal(csv.length - 1, expected.reduce((a, [, m]) => a + m.size, 0), 'one row per keyword and URL');
  // Triage: two URLs in the top 20 first (then by volume).
  const top = (m) => [...m.values()].filter((r) => r <= 20).length >= 2;
  for (const [kw, , n, url, rank, triage] of csv.slice(1)) {
    const m = urls.get(kw.toLowerCase());
    assert.equal(Number(n), m.size, kw);
    assert.equal(Number(rank), m.get(url), `${kw} at ${url}`);
    assert.equal(triage, top(m) ? 'yes' : 'no', `${kw}: triage`);
  }
  const flags = csv.slice(1).map((r) => r[5]);
  assert.deepEqual(flags, [...flags].sort((a, b) => (a === b ? 0 : a === 'yes' ? -1 : 1)), 'pairs in the top 20 first');
  await shot(page, 'analyses-cannibalisation');
});

test('intent: a column, a filter by intent, the rule shown, and the CSV', async () => {
  await tab('intent');
  await page.getByTestId('in-table').waitFor();
  const total = (await rankedRows()).length;
  assert.equal(await page.getByTestId('in-count').textContent(), `${total.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} keywords`);
  assert.match(await page.getByTestId('in-rule').textContent(), /transactional with buy/);
  const all = await csvOf('in-csv');
  assert.deepEqual(all[0], ['Keyword', 'Intent', 'Search volume', 'Rank', 'URL']);
  const intents = ['Informational', 'Navigational', 'Commercial', 'Transactional'];
  for (const [kw, intent] of all.slice(1)) {
    assert.ok(intent === 'unclassified' || intent.split(', ').every((i) => intents.includes(i)), `${kw}: ${intent}`);
    if (/\b(buy|cheap|price|deals?|coupons?)\b/i.test(kw)) assert.match(intent, /Transactional/, kw);
    if (/\b(best|review|vs)\b/i.test(kw)) assert.match(intent, /Commercial/, kw);
  }
  const trans = all.slice(1).filter((r) => r[1].includes('Transactional')).length;
  assert.ok(trans > 0, 'some keywords are transactional');
  assert.equal(num(/([\d,]+) keywords/.exec(await page.getByTestId('in-dist-trans').textContent())[1]), trans);
  await page.getByTestId('in-filter').selectOption('trans');
  await page.waitForFunction((n) => document.querySelector('[data-testid="in-count"]').textContent.startsWith(`${n.toLocaleString('en-US')} of`), trans);
  const filtered = await csvOf('in-csv');
  assert.equal(filtered.length - 1, trans);
  assert.ok(filtered.slice(1).every((r) => r[1].includes('Transactional')));
  await shot(page, 'analyses-intent');
});

test('position changes: the previous purchase is kept and compared with one bought a week later', async () => {
  await tab('changes');
  await page.getByTestId('ch-no-previous').waitFor();
  // A week later for the page: the demo sandbox's day follows the page's date.
  await page.addInitScript(() => {
    const Real = Date;
    const shift = 7 * 86400000;
    class Later extends Real {
      constructor(...a) {
        if (a.length === 0) super(Real.now() + shift);
        else super(...a);
      }
      static now() {
        return Real.now() + shift;
      }
    }
    globalThis.Date = Later;
  });
  await tab('changes');
  await page.getByTestId('ch-no-previous').waitFor();
  await page.getByTestId('refresh').click();
  await page.getByTestId('refresh-again').click();
  await page.getByTestId('ch-table').waitFor();
  await saved(page);
  const count = async (id) => num((await page.getByTestId(`ch-${id}`).textContent()).replace(/^\D+/, ''));
  const [up, down, fresh, lost, same] = [await count('up'), await count('down'), await count('new'), await count('lost'), await count('same')];
  assert.ok(up > 0 && down > 0, `ranks drift over a week: ${up} up, ${down} down`);
  assert.ok(same > 0, 'most keep their place');
  const csv = await csvOf('ch-csv');
  assert.deepEqual(csv[0], ['Keyword', 'Change', 'Previous rank', 'Rank', 'Places gained', 'Search volume', 'URL', 'Est. traffic change', 'URL swap']);
  assert.equal(csv.length - 1, up + down + fresh + lost + same);
  // A keyword's volume is its own on both days, so traffic follows the rank: won up, lost down.
  let [won, lostTraffic] = [0, 0];
  for (const [kw, moved, before, after, places, , , traffic, swap] of csv.slice(1)) {
    if (moved === 'Up') assert.ok(Number(after) < Number(before) && Number(places) > 0 && Number(traffic) >= 0, kw);
    if (moved === 'Down') assert.ok(Number(after) > Number(before) && Number(places) < 0 && Number(traffic) <= 0, kw);
    if (moved === 'New') assert.ok(before === '' && Number(traffic) >= 0, kw);
    if (moved === 'Lost') assert.ok(after === '' && Number(traffic) <= 0, kw);
    if (swap === 'yes') assert.ok(before !== '' && after !== '', `${kw}: a swap ranks on both sides`);
    if (Number(traffic) > 0) won += Number(traffic);
    else lostTraffic -= Number(traffic);
  }
  const summary = await page.getByTestId('ch-traffic').textContent();
  const [, shownWon, shownLost] = /won \+([\d,<]+), lost −([\d,<]+)/.exec(summary);
  assert.ok(Math.abs(num(shownWon) - won) <= 1 + csv.length * 0.05, `won ${shownWon} vs ${won}`);
  assert.ok(Math.abs(num(shownLost) - lostTraffic) <= 1 + csv.length * 0.05, `lost ${shownLost} vs ${lostTraffic}`);
  await page.getByTestId('ch-up').click();
  await page.waitForFunction((n) => document.querySelector('[data-testid="ch-count"]').textContent.startsWith(`${n.toLocaleString('en-US')} of`), up);
  // Kept across a reload: the previous purchase is stored, not only in memory.
  await tab('changes');
  await page.getByTestId('ch-table').waitFor();
  assert.equal(await count('up'), up);
  await shot(page, 'analyses-changes');
});

test('axe finds no WCAG 2 A/AA violation on the analyses in either theme', async () => {
  for (const theme of ['light', 'dark']) {
    for (const [id, ready] of [['pages', 'tp-table'], ['cannibal', 'cn'], ['intent', 'in-table'], ['changes', 'ch-table']]) {
      await tab(id);
      await page.getByTestId('theme').selectOption(theme);
      await page.getByTestId(ready).waitFor();
      await expectNoAxeViolations(page, `analyses-${id}-${theme}`);
    }
  }
});
