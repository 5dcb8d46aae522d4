// History keeps demo and live apart (issue 43, item 3): a demo call "would have cost" and its
// price never joins what the live service charged; a call the budget cap refused is listed
// (nothing sent); filters by mode, operation and outcome; the rows shown export as CSV, the
// live charges in a column of their own that sums to the sandbox ledger.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, micros, parseCsv, quietLedger, resetLedger, saved, shot, spaGo, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

test('history: demo would have cost, live charged, budget refusals logged, filters and CSV', { timeout: 90_000 }, async () => {
  // A demo purchase first.
  const page = await app.open('/keyword?kw=history%20demo&cc=US');
  const demoPrice = await page.getByTestId('related').getAttribute('data-price');
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  await saved(page);

  // Then live, with a $0.20 cap for the period: one related call ($0.15) passes, the SEO
  // outline ($0.50) is refused before it is sent.
  await app.goto(page, '/keywords', { live: { key: SANDBOX_KEY, budget: '0.20' } });
  await resetLedger();
  await spaGo(page, '/keyword?kw=history%20live&cc=US');
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  await page.locator('button[data-testid="outline"]').click();
  const refused = page.locator('[data-testid="section-outline"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'budget_exceeded');
  const ledger = await quietLedger([page]);
  assert.equal(ledger.entries.length, 1, 'only the related call was sent');
  await saved(page);

  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-table').waitFor();
  const rows = page.getByTestId('history-row');
  await page.locator('[data-testid="history-row"][data-outcome="refused"]').waitFor();
  assert.equal(await rows.count(), 3);

  // Totals apart: nothing adds the demo's price to the live charges.
  const summary = await page.getByTestId('history-summary').textContent();
  assert.match(summary, /Live: 2 calls, \$0\.1500 charged\./, summary);
  assert.ok(summary.includes(`Demo: 1 call, would have cost ${demoPrice} (nothing charged).`), summary);
  assert.match(summary, /1 refused by the budget cap/, summary);
  assert.ok(!/\$0\.3000/.test(summary), 'demo and live never summed');
  const demoRow = page.locator('[data-testid="history-row"][data-mode="demo"]');
  assert.match(await demoRow.getByTestId('history-cost').textContent(), /^would have cost \$0\.1500$/);
  assert.doesNotMatch(await demoRow.textContent(), /charged/i, 'a demo row never says charged');
  const refusedRow = page.locator('[data-testid="history-row"][data-outcome="refused"]');
  assert.equal(await refusedRow.getAttribute('data-op'), 'outline/seo');
  assert.match(await refusedRow.textContent(), /over the budget cap/);
  assert.equal(await refusedRow.getByTestId('history-charge').textContent(), '$0.0000');
  await shot(page, 'history-apart', false);

  // Filters.
  await page.getByTestId('history-mode').selectOption('demo');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 1);
  assert.equal(await demoRow.count(), 1);
  await page.getByTestId('history-mode').selectOption('live');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 2);
  assert.match(await page.getByTestId('history-summary').textContent(), /^2 of 3 calls shown\. Live: 2 calls, \$0\.1500 charged\. 1 refused/);
  await page.getByTestId('history-outcome').selectOption('refused');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 1);
  await page.getByTestId('history-outcome').selectOption('');
  await page.getByTestId('history-op').selectOption('related');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 1);
  await page.getByTestId('history-mode').selectOption('');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 2);

  // CSV of the rows shown (related, demo and live): each amount in its mode's column; the
  // live column sums to what the sandbox charged.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('history-export').click()]);
  const csv = parseCsv(await readFile(await download.path(), 'utf8'));
  const col = (name) => csv[0].indexOf(name);
  assert.ok(col('Charged (USD, live)') > 0 && col('Would have cost (USD, demo)') > 0, csv[0].join());
  const body = csv.slice(1);
  assert.equal(body.length, 2);
  const live = body.find((r) => r[col('Mode')] === 'live');
  const demo = body.find((r) => r[col('Mode')] === 'demo');
  assert.equal(demo[col('Charged (USD, live)')], '', 'no charge for a demo call');
  assert.equal(demo[col('Would have cost (USD, demo)')], demoPrice.replace('$', ''));
  assert.equal(live[col('Would have cost (USD, demo)')], '');
  const charged = body.reduce((s, r) => s + micros(`$${r[col('Charged (USD, live)')] || '0.0000'}`), 0);
  assert.equal(charged, micros(`$${ledger.total}`), 'the live column sums to the ledger');
  assert.deepEqual(page.errors, []);
});

test('clearing History is stored: after a reload the rows and results stay gone', { timeout: 60_000 }, async () => {
  const page = await app.open('/keyword?kw=history%20clear&cc=US');
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  await saved(page);
  await spaGo(page, '/history');
  await page.locator('[data-testid="history-row"]').first().waitFor();
  await page.getByRole('button', { name: 'Clear history and stored results' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByTestId('history-empty').waitFor();
  // The stored side is this tab's money machine's commit: done once nothing is pending.
  await saved(page);
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.getByTestId('history-empty').waitFor();
  assert.equal(await page.locator('[data-testid="history-row"]').count(), 0);
  // The result went with it: the same request is priced again.
  await spaGo(page, '/keyword?kw=history%20clear&cc=US');
  await page.waitForFunction(() => document.querySelector('[data-testid="related"]')?.dataset.price === '$0.1500');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
