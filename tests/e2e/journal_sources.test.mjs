// The purchase journal: what a stored result answers. A result bought in demo mode
// never answers a live call (the source is part of every stored result's key), and the forms
// of one item ("running shoes" / "Running  Shoes", example.com / www.example.com) are bought
// once. Live against the sandbox server; its ledger is what the money is compared with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, goLive, spaGo, ledger, quietLedger, resetLedger, micros, meter, meterEqualsLedger, ledgerUntil, shot,
  until, SANDBOX_KEY,
} from './helpers.mjs';

const app = e2e();

test('a result bought in demo mode never answers a live call: full price, one charge', async () => {
  const page = await app.open('/keyword?kw=demo%20then%20live&cc=US');
  assert.equal(await page.getByTestId('mode').textContent(), 'Demo · synthetic data');
  const related = page.getByTestId('related');
  assert.equal(await related.textContent(), 'Get related keywords — $0.1500');
  await related.click();
  await page.getByTestId('related-table').waitFor();
  // The demo ledger follows the worker's answer, which can land a frame after the table on a
  // loaded machine.
  const demoLedger = await until(() => page.getByTestId('ledger').textContent(), (t) => micros(t) === micros('$0.1500'));
  assert.equal(micros(demoLedger), micros('$0.1500'), 'demo ledger charged');

  await resetLedger();
  await goLive(page, SANDBOX_KEY);
  await spaGo(page, '/keyword?kw=demo%20then%20live&cc=US');
  assert.equal(await page.getByTestId('mode').textContent(), 'Live service');
  // Live money is counted apart from demo money.
  assert.deepEqual(await meter(page), { spend: 0, possible: 0 }, 'the live meter starts at zero');
  const live = page.getByTestId('related');
  await live.waitFor({ timeout: 5000 }).catch(() => {
    throw new Error('no "Get related keywords" button in live mode: the demo result answered the live page');
  });
  assert.equal(await live.textContent(), 'Get related keywords — $0.1500', 'the full price, not a stored result');
  assert.equal(await live.getAttribute('data-price'), '$0.1500');
  assert.equal(await page.locator('[data-testid="section-related"] [data-testid="not-loaded"]').count(), 1,
    'the demo result is not shown on the live page');
  assert.equal((await ledger()).entries.length, 0);

  await live.click();
  await page.getByTestId('related-table').waitFor();
  const l = await ledgerUntil((l) => l.entries.length >= 1);
  assert.equal(l.entries.length, 1, 'charged once');
  assert.equal(l.entries[0].operation, 'related');
  assert.equal(micros('$' + l.total), micros('$0.1500'));
  assert.ok(!(await page.getByTestId('result-meta').textContent()).includes('synthetic'), 'the live result is shown');
  const [m] = await meterEqualsLedger(page, 'demo then live');
  assert.deepEqual(m, { spend: micros('$0.1500'), possible: 0 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('forms of one keyword are bought once: "running shoes" then "Running  Shoes"', async () => {
  const page = await app.open('/keywords', { live: SANDBOX_KEY });
  await resetLedger();
  await spaGo(page, '/keyword?kw=running%20shoes&cc=US');
  const related = page.getByTestId('related');
  assert.equal(await related.textContent(), 'Get related keywords — $0.1500');
  await related.click();
  await page.getByTestId('related-table').waitFor();
  const bought = await ledgerUntil((l) => l.entries.length >= 1);
  assert.equal(bought.entries.length, 1);
  const rows = await page.locator('[data-testid="related-table"] tbody tr').count();

  // Another case and doubled white space: the same keyword, its stored result, no price.
  await spaGo(page, '/keyword?kw=Running%20%20Shoes&cc=US');
  await page.getByTestId('related-table').waitFor({ timeout: 5000 }).catch(() => {
    throw new Error('"Running  Shoes" shows no stored related keywords');
  });
  assert.equal(await page.locator('[data-testid="section-related"] button[data-testid="related"]').count(), 0,
    'no "Get related keywords" button: it is bought');
  assert.equal(await page.locator('[data-testid="related-table"] tbody tr').count(), rows);
  assert.equal((await ledger()).entries.length, 1, 'not bought again');
  await shot(page, 'journal-keyword-forms');
  await meterEqualsLedger(page, 'keyword forms');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('forms of one domain are bought once: example.com then www.example.com', async () => {
  const page = await app.open('/keywords', { live: SANDBOX_KEY });
  await resetLedger();
  await spaGo(page, '/domain?d=example.com&tab=overview');
  const stats = page.getByTestId('stats');
  assert.equal(await stats.textContent(), 'Get domain stats — $0.0500');
  await stats.click();
  const card = page.locator('[data-testid="section-stats"] [data-testid="domain-card"]');
  await card.waitFor();
  const l = await ledgerUntil((l) => l.entries.length >= 1);
  assert.equal(l.entries.length, 1);
  assert.equal(l.entries[0].operation, 'domainstats');

  // www. is dropped: the one-domain view of www.example.com shows the stored stats.
  await spaGo(page, '/domain?d=www.example.com&tab=overview');
  await card.waitFor({ timeout: 5000 }).catch(async () => {
    const button = await page.locator('[data-testid="section-stats"] button.price').first().textContent().catch(() => 'none');
    throw new Error(`www.example.com shows no stored domain stats (its button: ${button})`);
  });
  assert.equal(await page.locator('[data-testid="section-stats"] button[data-testid="stats"]').count(), 0,
    'no "Get domain stats" button: it is bought');

  // And the stats page prices it at nothing; running it buys nothing.
  await spaGo(page, '/domains');
  await page.getByTestId('domains-input').fill('www.example.com');
  const run = page.getByTestId('run');
  await page.waitForFunction(() => document.querySelector('[data-testid="run"]')?.dataset.price === '$0.0000', null, { timeout: 5000 })
    .catch(async () => {
      throw new Error(`/domains prices www.example.com: ${await run.textContent()}`);
    });
  await run.click();
  await page.locator('[data-testid="domain-card"]').first().waitFor();
  // Nothing on screen tells that no request left: the ledger once nothing is on its way.
  const after = await quietLedger(page);
  assert.equal(after.entries.length, 1, 'not bought again');
  const [m] = await meterEqualsLedger(page, 'domain forms');
  assert.deepEqual(m, { spend: micros('$0.0500'), possible: 0 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
