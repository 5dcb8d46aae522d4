// A bundle is priced whole against what is left of the budget (issue 43, item 2), live at the
// sandbox server: with less left than "Load every section" costs, the button is disabled and
// says why (nothing is bought piecemeal); the meter shows what is left and warns at 80 % of the
// cap; with a cap that fits, the bundle is bought whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, micros, quietLedger, resetLedger, saved, shot, spaGo, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

test('load every section: disabled saying why over what is left; the meter warns at 80 %; bought whole when it fits', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY, budget: '0.50' } });
  await saved(page);
  await resetLedger();
  await spaGo(page, '/keyword?kw=budget%20bundle&cc=US');
  const left = page.getByTestId('budget-left');
  assert.equal(await left.textContent(), '$0.5000 left');

  // $0.15 spent: $0.35 left, less than the bundle.
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="budget-left"]')?.textContent === '$0.3500 left');
  const runAll = page.getByTestId('run-all');
  const bundle = await runAll.getAttribute('data-price');
  assert.ok(micros(bundle) > micros('$0.3500'), bundle);
  assert.ok(await runAll.isDisabled(), 'the bundle does not fit: disabled');
  const why = await page.getByTestId('run-all-why').textContent();
  assert.ok(why.includes(`they cost ${bundle} together and $0.3500 is left of the $0.5000 cap`), why);
  assert.equal(await left.getAttribute('data-warn'), 'false');
  await shot(page, 'budget-bundle-disabled', false);

  // $0.40 of $0.50 used: the meter warns.
  await page.getByTestId('videos').click();
  await page.locator('ul[data-testid="videos"]').waitFor();
  await page.locator('[data-testid="budget-left"][data-warn="true"]').waitFor();
  assert.equal(await left.textContent(), '$0.1000 left · 80 % of the $0.5000 cap used');
  assert.equal((await quietLedger([page])).entries.length, 2, 'only the two sections were bought');

  // A cap the bundle fits in: bought whole.
  await spaGo(page, '/settings');
  await page.getByTestId('budget').fill('5');
  await page.getByTestId('budget').press('Tab');
  await saved(page);
  await spaGo(page, '/keyword?kw=budget%20bundle&cc=US');
  const rest = await runAll.getAttribute('data-price');
  assert.ok(!(await runAll.isDisabled()));
  assert.equal(await page.getByTestId('run-all-why').count(), 0);
  await runAll.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-all"]')?.dataset.price === '$0.0000');
  const ledger = await quietLedger([page]);
  assert.equal(micros(`$${ledger.total}`), micros('$0.4000') + micros(rest), 'the rest bought whole');
  assert.equal(await page.locator('main [data-testid="error"]').count(), 0);
  assert.deepEqual(page.errors, []);
});
