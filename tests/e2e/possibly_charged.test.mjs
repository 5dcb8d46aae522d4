// A call whose outcome is unknown is counted, never repeated, in the app,
// live against the sandbox server: an answer that outlasts the client's 60 s timeout shows
// as possibly charged in the meter and the history, counts against the budget cap, and the
// sandbox's ledger equals spent + possibly charged. (Slow on purpose: the app's timeout is
// the client's default, 60 s.)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, spaGo, ledger, quietLedger, resetLedger, micros, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  // A $0.25 cap: after one possibly charged $0.15, a second $0.15 call would pass $0.25.
  page = await app.open('/keywords', { live: { key: `${SANDBOX_KEY}+delay=65000`, budget: '0.25' } });
});

test('a timed-out call is possibly charged, counted against the cap and never repeated', { timeout: 180_000 }, async () => {
  await resetLedger();
  await spaGo(page, '/keyword?kw=trail%20shoes&cc=US');
  const related = page.getByTestId('related');
  assert.equal(await related.textContent(), 'Get related keywords — $0.1500');
  await related.click();
  await page.getByTestId('possibly-charged').waitFor({ timeout: 90_000 });
  assert.equal(await page.getByTestId('possibly-charged').textContent(), '$0.1500');
  assert.equal(await page.getByTestId('spend').textContent(), '$0.0000');
  const timedOut = page.locator('[data-testid="section-related"] [data-testid="error"]');
  assert.equal(await timedOut.getAttribute('data-code'), 'timeout');
  assert.match(await timedOut.getByTestId('possibly-charged-note').textContent(), /may have been charged \$0\.1500/);

  // The service charged it: the ledger is what the app counts as spent + possibly charged.
  const l = await ledger();
  assert.equal(l.entries.length, 1, 'sent once, not retried');
  assert.equal(micros(`$${l.total}`), micros('$0.1500'));

  // The cap counts it: another $0.15 call would pass $0.25, so nothing is sent.
  const outline = page.getByTestId('videos');
  assert.equal(await outline.textContent(), 'Get videos — $0.2500');
  await outline.click();
  const refused = page.locator('[data-testid="section-videos"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'budget_exceeded');
  assert.equal((await quietLedger(page)).entries.length, 1, 'nothing sent over the cap');

  await spaGo(page, '/history');
  const row = page.locator('[data-testid="history-row"][data-op="related"]').first();
  await row.waitFor();
  assert.match(await row.getByTestId('history-possible').textContent(), /may have been charged \$0\.1500/);
  assert.deepEqual(page.errors, []);
});
