// Pay once per record (demo mode): keywords and domains already bought are neither priced
// nor bought again, in the explorer and on the one-domain view; the
// records outlive a reload; "Refresh" re-buys with its price. The demo ledger proves it.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, open, research, rowIds, micros, saved, shot, shownLedger } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const ledger = async () => micros(await page.getByTestId('ledger').textContent());
const TEN = Array.from({ length: 10 }, (_, i) => `records kw ${i}`);

test('the same ten keywords plus one new one price and buy one keyword', async () => {
  await open(page, app.url, '/keywords');
  const first = await research(page, TEN);
  assert.equal(first.text, 'Run — $0.0030 for 10 keywords');
  await page.locator('[data-testid="kw-table"][data-rows="10"]').waitFor();
  assert.equal(await shownLedger(page, (m) => m === micros('$0.0030')), micros('$0.0030'));

  const eleven = [...TEN.slice(0, 3), 'records kw new', ...TEN.slice(3)];
  await page.getByTestId('kw-input').fill(eleven.join('\n'));
  const run = page.getByTestId('run');
  await page.waitForFunction(() => /already bought/.test(document.querySelector('[data-testid="run"]').textContent));
  assert.equal(await run.textContent(), 'Run — $0.0003 for 1 new keyword · 10 already bought');
  assert.equal(await run.getAttribute('data-price'), '$0.0003');
  await run.click();
  await page.locator('[data-testid="kw-table"][data-rows="11"]').waitFor();
  assert.deepEqual((await rowIds(page)).sort(), [...eleven].sort());
  assert.equal(await shownLedger(page, (m) => m === micros('$0.0033')), micros('$0.0033'), 'one more keyword charged');
  assert.equal(micros(await page.getByTestId('spend').textContent()), micros('$0.0033'));
  assert.match(await page.getByTestId('validation').textContent(), /valid/);
  await saved(page);

  // After a reload the records are still bought: a subset costs nothing and says so.
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  const subset = [TEN[7], ' RECORDS  kw 2 ', TEN[9]];
  await page.getByTestId('kw-input').fill(subset.join('\n'));
  await page.waitForFunction(() => /already bought/.test(document.querySelector('[data-testid="run"]').textContent));
  assert.equal(await run.textContent(), 'Run — no charge · all 3 keywords already bought');
  const before = await ledger();
  await run.click();
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  assert.equal(await ledger(), before, 'nothing bought');
  await shot(page, 'explorer-records-reused');

  // Refresh re-buys what is asked, at its shown price.
  const refresh = page.getByTestId('refresh');
  assert.equal(await refresh.textContent(), 'Refresh — $0.0009 for 3 keywords');
  await refresh.click();
  await page.getByTestId('refresh-again').click();
  await page.waitForFunction((b) => {
    const t = document.querySelector('[data-testid="ledger"]').textContent;
    return t !== b;
  }, await page.getByTestId('ledger').textContent());
  assert.equal(await ledger(), before + micros('$0.0009'));
  assert.deepEqual(page.errors, []);
});

test('domains bought together are not offered again on the one-domain view', async () => {
  await open(page, app.url, '/domains');
  await page.getByTestId('domains-input').fill(['records-a.example.com', 'records-b.example.org'].join('\n'));
  const run = page.getByTestId('run');
  assert.equal(await run.textContent(), 'Get stats — $0.1000 for 2 domains');
  const before = await ledger();
  await run.click();
  await page.locator('[data-testid="domain-card"]').nth(1).waitFor();
  assert.equal(await shownLedger(page, (m) => m === before + micros('$0.1000')), before + micros('$0.1000'));

  // A new page load (the demo sandbox's ledger starts again): the records are still bought.
  await open(page, app.url, '/domain?d=records-b.example.org');
  const stats = page.getByTestId('stats');
  await stats.waitFor();
  assert.equal(await stats.textContent(), 'Get domain stats — no charge · 1 domain already bought');
  const reloaded = await ledger();
  await stats.click();
  await page.getByTestId('section-stats').locator('[data-testid="domain-card"]').waitFor();
  assert.equal(await ledger(), reloaded, 'not bought again');
  assert.deepEqual(page.errors, []);
});
