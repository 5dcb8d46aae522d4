// Calls belong to the workspace, not to the page, live mode against the
// sandbox server with its `delay` fault: leaving a page while its call runs keeps the result
// and its history row, charges once and breaks nothing; two views (or a double click) asking
// for the same request share one call: one ledger entry.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, spaGo, shot, ledger, ledgerUntil, quietLedger, resetLedger, micros, enterLines, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  page = await app.open('/keywords', { live: `${SANDBOX_KEY}+delay=3000` });
});

/** Waits until the sandbox ledger holds `n` entries, and returns it. */
const ledgerWith = (n) => ledgerUntil((l) => l.entries.length >= n);

function noErrors(what) {
  assert.deepEqual(page.errors, [], `${what}: page errors`);
  const bad = page.consoleErrors.filter((m) => /disposed|panicked|unreachable|RuntimeError/i.test(m));
  assert.deepEqual(bad, [], `${what}: console errors`);
}

test('leaving a page while its call runs: result and history row stored, charged once, no page error', async () => {
  await resetLedger();
  await spaGo(page, '/keyword?kw=trail%20shoes&cc=US');
  const button = page.getByTestId('related');
  assert.equal(await button.textContent(), 'Get related keywords — $0.1500');
  await button.click();
  // At once: History (the keyword page and its reactive scope are gone).
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-summary').waitFor();
  const l = await ledgerWith(1);
  assert.equal(l.entries.length, 1, 'the service was called once');
  // The history row (written ahead as running) is settled on the page we are on, when the
  // call ends.
  const settled = page.locator('[data-testid="history-row"][data-op="related"][data-outcome="ok"]');
  await settled.waitFor({ timeout: 10000 });
  assert.equal(await settled.getByTestId('history-charge').first().textContent(), '$0.1500');
  assert.equal(await page.getByTestId('spend').textContent(), '$0.1500');
  noErrors('after the call ended on another page');
  // Back on the keyword's page: the stored result, no offer to buy it again.
  await page.locator('[data-testid="history-row"][data-op="related"] [data-testid="history-open"]').click();
  await page.getByTestId('related-table').waitFor();
  assert.equal(await page.getByTestId('related').count(), 0, 'no "Get related keywords" button: it is bought');
  assert.equal((await ledger()).entries.length, 1, 'still one charge');
  // The app still responds: another page, then back.
  await page.getByTestId('nav-lists').click();
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-table').waitFor();
  noErrors('afterwards');
  await shot(page, 'calls-left-page');
});

test('coming back while the call runs shows it running; asking again attaches to it (one charge)', async () => {
  await resetLedger();
  await spaGo(page, '/keyword?kw=road%20shoes&cc=US');
  await page.getByTestId('related').click();
  await spaGo(page, '/history');
  await spaGo(page, '/keyword?kw=road%20shoes&cc=US');
  // The new page's view follows the running call: its button is disabled while it runs.
  const button = page.getByTestId('related');
  await button.waitFor();
  assert.ok(await button.isDisabled(), 'the running call is shown as running');
  // A forced click (as if the button were enabled) must attach, not buy again.
  await button.evaluate((b) => {
    b.disabled = false;
    b.click();
  });
  await page.getByTestId('related-table').waitFor({ timeout: 10000 });
  const l = await quietLedger(page);
  assert.equal(l.entries.length, 1, `one call for the request: ${JSON.stringify(l.entries.map((e) => e.operation))}`);
  noErrors('coming back');
});

test('two views of the same request share one call: domain stats on /domains and /domain', async () => {
  await resetLedger();
  await spaGo(page, '/domains');
  await page.getByTestId('domains-input').fill('shared.example.com');
  await page.getByTestId('run').click();
  // The one-domain view asks for the same request (domainstats of that domain) while it runs.
  await spaGo(page, '/domain?d=shared.example.com&tab=overview');
  await page.getByTestId('run-all').click();
  await page.locator('[data-testid="section-stats"] [data-testid="result-meta"], [data-testid="domain-card"]').first().waitFor({ timeout: 15000 });
  await ledgerWith(4);
  // Every call of both views answered, none on its way: a second domainstats would be here.
  const l = await quietLedger(page);
  const stats = l.entries.filter((e) => e.operation === 'domainstats');
  assert.equal(stats.length, 1, `one domainstats call: ${JSON.stringify(l.entries.map((e) => e.operation))}`);
  noErrors('two views');
});

test('a double click on Run buys once', async () => {
  await resetLedger();
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('double click one\ndouble click two');
  await page.getByTestId('run').dblclick();
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor({ timeout: 15000 });
  assert.equal((await quietLedger(page)).entries.length, 1);
  noErrors('double click');
});

test('cancelling a bulk job waits for the requests already sent and keeps what they bought', async () => {
  await resetLedger();
  await spaGo(page, '/keywords');
  const kws = Array.from({ length: 1000 }, (_, i) => `cancel probe ${i}`);
  await enterLines(page.getByTestId('kw-input'), kws);
  await page.getByTestId('run').click();
  await page.getByTestId('progress').waitFor();
  await page.getByTestId('cancel').click();
  const cancelling = page.getByTestId('cancelling');
  await cancelling.waitFor();
  assert.match(await cancelling.textContent(), /^Cancelling — waiting for 2 requests already sent$/);
  assert.ok(await page.getByTestId('cancel').isDisabled());
  await shot(page, 'bulk-cancelling', false);
  // The two chunks in flight finish and are kept: 400 keywords bought, 600 missing.
  await page.getByTestId('progress').waitFor({ state: 'detached', timeout: 15000 });
  const l = await quietLedger(page);
  assert.equal(l.entries.length, 2, 'the chunks already sent, nothing after the cancel');
  await page.locator('[data-testid="kw-table"][data-rows="400"]').waitFor();
  assert.equal(micros('$' + l.total), micros('$0.1200'));
  noErrors('cancel');
});
