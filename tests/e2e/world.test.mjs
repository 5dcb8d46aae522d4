// One world behind the demo (issue 54), as a consultant sees it in demo mode: a running site's
// backlinks tab whose totals and history agree (new minus lost referring domains never more
// than the total, no data warning), the explorer's head term with a category's volume and the
// commercial intent its bids give it, and the CSV's header on line 1 with demo in the name.
// Expected figures come from the sandbox server (the demo's generator); nothing depends on
// the date. And the compare page has one loaded state: its "Everything is loaded" only when
// every section shows its data.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, micros, parseCsv, research, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

async function sandbox(op, body) {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const r = await fetch(`${SANDBOX_URL}/v1/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, ...body }),
  });
  assert.equal(r.status, 200, `sandbox ${op}`);
  return r.json();
}

const num = (t) => Number(String(t).replace(/[^0-9.-]/g, ''));

test('the backlinks tab: totals and history tell one story, no data warning', async () => {
  for (const d of ['runnersworld.example', 'fleetfeet.example']) {
    await open(page, app.url, `/domain?d=${d}&tab=backlinks`);
    await page.getByTestId('backlinks').click();
    await page.getByTestId('backlink-overview').waitFor();
    const exp = await sandbox('backlink/overview', { domain: d });
    const refdomains = num(await page.getByTestId('bm-refdomains').locator('strong').textContent());
    const backlinks = num(await page.getByTestId('bm-backlinks').locator('strong').textContent());
    assert.equal(refdomains, exp.metrics.refdomains);
    assert.equal(backlinks, exp.metrics.backlinks);
    const heading = await page.getByRole('heading', { name: /^New and lost referring domains/ }).textContent();
    const [, newCount, lostCount] = heading.match(/\(([\d,]+) new, ([\d,]+) lost\)/).map(num);
    assert.ok(newCount - lostCount <= refdomains, `${d}: ${newCount} new − ${lostCount} lost ≤ ${refdomains}`);
    const net = exp.stats.reduce((s, x) => s + x.new - x.lost, 0);
    assert.ok(net <= backlinks, `${d}: ${net} more backlinks gained than lost ≤ ${backlinks}`);
    // The daily counts scale with the site: a day's new backlinks are a small share of all.
    const meanNew = exp.stats.reduce((s, x) => s + x.new, 0) / exp.stats.length;
    assert.ok(meanNew <= backlinks * 0.02, `${d}: ${meanNew} new a day of ${backlinks}`);
    assert.equal(await page.getByTestId('bm-history-warning').count(), 0, `${d}: no data warning`);
  }
  await shot(page, 'world-backlinks');
});

test('a head term has a category\'s volume, is commercial by its bids, and the CSV starts with its header', async () => {
  await open(page, app.url, '/keywords');
  await research(page, ['running shoes', 'how to choose running shoes']);
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  const [rec] = await sandbox('search_volume/bulk', { keywords: ['running shoes'], ccode: 'US' });
  assert.ok(rec.SEARCH_VOLUME >= 10_000 && rec.SEARCH_VOLUME < 1_000_000, `running shoes: ${rec.SEARCH_VOLUME}`);
  const intent = await page.locator('[data-testid="kw-table"] tr[data-id="running shoes"] td[data-col="intent"]').getAttribute('title');
  assert.equal(intent, 'Commercial', 'advertisers bid on it');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.match(dl.suggestedFilename(), /^demo-/, 'demo in the file name');
  const text = await readFile(await dl.path(), 'utf8');
  assert.match(text.replace(/^\ufeff/, ''), /^Keyword,Volume,CPC,Ads competition,/, 'the header is line 1');
  const csv = parseCsv(text);
  const row = csv.find((r) => r[0] === 'running shoes');
  assert.equal(Number(row[1]), rec.SEARCH_VOLUME, 'one volume in the CSV and the service');
  assert.deepEqual(page.errors, []);
});

test('compare: "Everything is loaded" only when every section shows its data', async () => {
  const ds = ['runnersworld.example', 'fleetfeet.example'];
  const all = page.getByTestId('run-all');
  const oneState = async (what) => {
    const text = await all.textContent();
    const notLoaded = await page.getByTestId('not-loaded').count();
    assert.equal(text === 'Everything is loaded', notLoaded === 0, `${what}: "${text}" beside ${notLoaded} section(s) not loaded`);
    return { text, notLoaded };
  };
  await open(page, app.url, `/domain/compare?d=${ds.join(',')}`);
  await page.getByTestId('compare-domain').nth(1).waitFor();
  await oneState('before');
  await all.click();
  await all.filter({ hasText: 'Everything is loaded' }).waitFor({ timeout: 60000 });
  await oneState('after loading');
  // The same domains in the other order: every record is bought, a section may still have to
  // be shown; the badge says so and showing it costs nothing.
  await open(page, app.url, `/domain/compare?d=${[...ds].reverse().join(',')}`);
  await page.getByTestId('compare-domain').nth(1).waitFor();
  const { notLoaded } = await oneState('reordered');
  if (notLoaded > 0) {
    const before = micros(await page.getByTestId('ledger').textContent());
    await all.click();
    await all.filter({ hasText: 'Everything is loaded' }).waitFor({ timeout: 60000 });
    assert.equal(micros(await page.getByTestId('ledger').textContent()), before, 'nothing bought twice');
  }
  await oneState('at the end');
  await shot(page, 'world-compare');
});
