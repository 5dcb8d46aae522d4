// The content gap grouped by competitor URL (Ahrefs' Top pages over a gap), in demo mode: the
// rows shown (the current list, as filtered) grouped by their best competitor's ranking URL,
// with keyword count, total volume, estimated traffic, top keyword and its rank; sortable, CSV, the rule shown,
// kept in the URL across lists; axe-core finds no violation in either theme. Expected pages are
// recomputed here from the sandbox server's records by the rules the page states
// (research_gap_rules.mjs for the lists; the grouping written again below).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, parseCsv, shot, gapLoaded } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';
import { expectedGap, brandWords, branded, rankedKeywords, ctr } from './research_gap_rules.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const DOMAINS = ['example.com', 'example.org', 'example.net'];
const num = (t) => Number(String(t).replace(/[^0-9-]/g, ''));

async function csvOf(testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: dl.suggestedFilename(), rows: parseCsv(await readFile(await dl.path(), 'utf8')) };
}

/** Each competitor's best (rank, URL) per lower-cased keyword within `top`, the first URL
 * listed on a tie; brand terms left out as the gap leaves them out. */
function bestUrls(perDomain, brandText, top = 20) {
  const terms = [...new Set(brandText.split(/[,\n]/).map((t) => brandWords(t).join('')).filter((t) => [...t].length >= 2))];
  return perDomain.map((records) => {
    const best = new Map();
    for (const r of records) {
      if (!(r.rank > 0 && r.rank <= top)) continue;
      const lower = r.keyword.toLowerCase();
      if (branded(lower, terms)) continue;
      const b = best.get(lower);
      if (!b || r.rank < b.rank) best.set(lower, { rank: r.rank, url: r.url });
    }
    return best;
  });
}

/** The stated rule: the rows (in list order) grouped by the best competitor's URL (best rank,
 * the first entered on a tie); keywords, summed volume, estimated traffic (volume × the
 * click-through rate of the competitor's rank, summed), the top keyword bringing the most
 * traffic (a tie to the better rank, then the higher volume, then the first row); ordered by
 * traffic, volume, keywords, URL. */
function expectedPages(rows, urls) {
  const pages = new Map();
  for (const row of rows) {
    let best;
    for (const slot of [1, 2, 3]) {
      const p = urls[slot]?.get(row.lower);
      if (p && (!best || p.rank < best.rank)) best = p;
    }
    if (!best) continue;
    const page = pages.get(best.url) ?? { url: best.url, keywords: 0, volume: 0, traffic: 0, keyword: '', rank: Infinity, kwVolume: -1, kwTraffic: -1 };
    const volume = Math.max(0, row.volume);
    const traffic = volume * ctr(best.rank);
    page.keywords += 1;
    page.volume += volume;
    page.traffic += traffic;
    const better = traffic > page.kwTraffic
      || (traffic === page.kwTraffic && (best.rank < page.rank || (best.rank === page.rank && volume > page.kwVolume)));
    if (better) Object.assign(page, { rank: best.rank, keyword: row.keyword, kwVolume: volume, kwTraffic: traffic });
    pages.set(best.url, page);
  }
  // The app's rule: traffic is estimated to a millionth of a visit (so sums that differ only
  // in their last bits tie), then volume decides.
  const grid = (t) => Math.round(t * 1e6);
  return [...pages.values()].sort((a, b) => grid(b.traffic) - grid(a.traffic)
    || b.volume - a.volume || b.keywords - a.keywords || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

const untilPages = (n) => page.waitForFunction(
  (n) => document.querySelector('[data-testid="gp-count"]')?.textContent === `${n.toLocaleString('en-US')} pages`,
  n,
);

async function expectCsv(want, what) {
  const { name, rows } = await csvOf('gp-csv');
  assert.deepEqual(rows[0], ['URL', 'Keywords', 'Total volume', 'Est. traffic', 'Top keyword', 'Its rank']);
  // Traffic to its one decimal (compared as a number: the two roundings may differ on a tie).
  assert.deepEqual(
    rows.slice(1).map((r) => r.filter((_, i) => i !== 3)),
    want.map((p) => [p.url, String(p.keywords), String(p.volume), p.keyword, String(p.rank)]),
    what,
  );
  rows.slice(1).forEach((r, i) => assert.ok(Math.abs(Number(r[3]) - want[i].traffic) <= 0.05 + 1e-6, `${r[0]}: traffic ${r[3]} vs ${want[i].traffic}`));
  return name;
}

test('the gap grouped by competitor URL: the rows shown, as the stated rule groups them', async () => {
  await open(page, app.url, `/domain/gap?d=${DOMAINS.join(',')}&list=untapped`);
  await page.getByTestId('run-all').click();
  await gapLoaded(page);
  await page.getByTestId('gap-table').waitFor();
  const brand = await page.getByTestId('gap-brand').inputValue();
  const records = await Promise.all(DOMAINS.map(rankedKeywords));
  const lists = expectedGap(records, brand);
  const urls = bestUrls(records, brand);

  // The view is a tab of the list, kept in the URL; the keyword table gives way to the pages.
  await page.getByTestId('gap-view-pages').click();
  await page.waitForURL(/list=untapped&view=pages/);
  await page.getByTestId('gp-table').waitFor();
  assert.equal(await page.getByTestId('gap-table').count(), 0);
  assert.equal(await page.getByTestId('gap-view-pages').getAttribute('aria-current'), 'page');
  let want = expectedPages(lists.untapped, urls);
  assert.ok(want.length > 1, `several competitor pages (${want.length})`);
  assert.ok(want.some((p) => p.keywords > 1), 'some page ranks for several gap keywords');
  assert.equal(num(await page.getByTestId('gp-count').textContent()), want.length);
  const name = await expectCsv(want, 'untapped, every row');
  assert.equal(name, `demo-content-gap-pages-${DOMAINS[0]}-untapped.csv`, 'a demo CSV says so in its name');
  const rule = await page.getByTestId('gp-rule').textContent();
  assert.match(rule, /By competitor page: the keywords shown \(this list, as filtered\) grouped by the URL of their best competitor/);
  await shot(page, 'analyses-gap-pages');

  // The filters apply: only the keywords shown are grouped.
  const floor = lists.untapped[Math.floor(lists.untapped.length / 3)].volume;
  await page.getByTestId('gap-vmin').fill(String(floor));
  want = expectedPages(lists.untapped.filter((r) => r.volume >= floor), urls);
  await untilPages(want.length);
  await expectCsv(want, `untapped, volume from ${floor}`);
  await page.getByTestId('gap-vmin').fill('');
  await untilPages(expectedPages(lists.untapped, urls).length);

  // Sortable: by keyword count, most first (a numeric column's first click); the sort is the
  // view's until another list is opened.
  await page.getByTestId('vsort-keywords').click();
  const { rows: byCount } = await csvOf('gp-csv');
  const counts = byCount.slice(1).map((r) => Number(r[1]));
  assert.equal(counts.length, expectedPages(lists.untapped, urls).length);
  assert.deepEqual(counts, [...counts].sort((a, b) => b - a), 'sorted by keywords, most first');

  // Another list keeps the view; a list no competitor ranks in has no page.
  await page.getByTestId('gap-tab-missing').click();
  await page.waitForURL(/list=missing&view=pages/);
  want = expectedPages(lists.missing, urls);
  await untilPages(want.length);
  if (want.length > 0) await expectCsv(want, 'missing');
  else await page.getByTestId('gp-none').waitFor();
  await page.getByTestId('gap-tab-unique').click();
  await page.waitForURL(/list=unique&view=pages/);
  await page.getByTestId('gp-none').waitFor();
  assert.ok(lists.unique.length > 0, 'the unique list has keywords, none with a competitor page');

  // Back to the keywords.
  await page.getByTestId('gap-view-keywords').click();
  await page.waitForURL((u) => !u.searchParams.has('view'));
  await page.getByTestId('gap-tab-untapped').click();
  await page.getByTestId('gap-table').waitFor();
  assert.deepEqual(page.errors ?? [], []);
});

test('axe finds no WCAG 2 A/AA violation on the competitor pages in either theme', async () => {
  for (const theme of ['light', 'dark']) {
    await open(page, app.url, `/domain/gap?d=${DOMAINS.join(',')}&list=untapped&view=pages`);
    await page.getByTestId('theme').selectOption(theme);
    await page.getByTestId('gp-table').waitFor({ timeout: 60000 });
    await expectNoAxeViolations(page, `analyses-gap-pages-${theme}`);
  }
});
