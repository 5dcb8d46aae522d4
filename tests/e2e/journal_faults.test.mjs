// The purchase journal: money the service took is never lost nor paid twice.
// A connection lost after the service charged (the sandbox's `reset` fault: charged, then a
// TCP reset before any byte) is `connection_lost`, possibly charged and not retried; a paid
// body that breaks the contract under strict validation is kept with its report, and not
// bought again. Live against the sandbox server; its ledger is what money is compared with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, spaGo, ledger, resetLedger, micros, meter, meterEqualsLedger, ledgerUntil, shot,
  SANDBOX_URL, SANDBOX_KEY,
} from './helpers.mjs';

const app = e2e();

test('a connection lost after the service charged is possibly charged and not retried', async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+reset` });
  // The app's own requests (a resend by the browser's network stack is not one).
  const sent = [];
  page.on('request', (r) => {
    if (r.url().startsWith(SANDBOX_URL) && r.method() === 'POST') sent.push(r.url());
  });
  await resetLedger();
  await spaGo(page, '/keyword?kw=lost%20connection&cc=US');
  const related = page.getByTestId('related');
  assert.equal(await related.textContent(), 'Get related keywords — $0.1500');
  await related.click();
  const err = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'connection_lost', await err.textContent());
  assert.match(await err.getByTestId('possibly-charged-note').textContent(), /may have been charged \$0\.1500/);
  await page.getByTestId('possibly-charged').waitFor();
  assert.deepEqual(await meter(page), { spend: 0, possible: micros('$0.1500') });

  // The app sent it once; the service charged once: the request was not sent again.
  assert.equal(sent.length, 1, `the app sent the request once: ${JSON.stringify(sent)}`);
  const l = await ledger();
  // (Chromium itself resends a request whose reused keep-alive connection was reset before
  // any byte of the answer, net-log HTTP_TRANSACTION_RESTART_AFTER_ERROR: the sandbox must
  // not let a `reset` request arrive on a reused connection.)
  assert.equal(l.entries.length, 1, `sent once, not retried: ${JSON.stringify(l.entries.map((e) => e.fault))}`);
  assert.equal(l.entries[0].fault, 'reset');
  assert.equal(micros('$' + l.total), micros('$0.1500'));
  await meterEqualsLedger(page, 'connection lost');

  await spaGo(page, '/history');
  const row = page.locator('[data-testid="history-row"][data-op="related"]').first();
  await row.waitFor();
  assert.match(await row.getByTestId('history-possible').textContent(), /may have been charged \$0\.1500/);
  assert.equal((await ledger()).entries.length, 1);
  await shot(page, 'journal-connection-lost');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('strict validation keeps the paid body that breaks the contract and does not buy it again', async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+break=order` });
  await page.getByTestId('validation-mode').selectOption('strict');
  await resetLedger();
  await spaGo(page, '/keyword?kw=strict%20outline&cc=US');
  const section = page.getByTestId('section-outline');
  const get = section.locator('button[data-testid="outline"]');
  assert.equal(await get.textContent(), 'Get the SEO outline — $0.5000');
  await get.click();

  // The refusal is shown, and so is what was paid for, with its validation report.
  const err = section.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'contract_violation', await err.textContent());
  const report = section.getByTestId('validation');
  await report.waitFor({ timeout: 5000 }).catch(() => {
    throw new Error('the paid body is not shown: no validation panel in the outline section');
  });
  assert.equal(await report.getAttribute('data-state'), 'errors');
  assert.match(await report.textContent(), /order/);
  assert.equal(await section.locator('ol[data-testid="outline"]').count(), 1, 'the stored outline is shown');
  const l = await ledgerUntil((l) => l.entries.length >= 1);
  assert.equal(l.entries.length, 1);
  assert.equal(micros('$' + l.total), micros('$0.5000'));
  // Charged and received: spent, not possibly charged.
  const [m] = await meterEqualsLedger(page, 'strict refusal');
  assert.deepEqual(m, { spend: micros('$0.5000'), possible: 0 });

  // The button now offers Refresh: the outline is bought.
  assert.equal(await get.count(), 0, 'no "Get the SEO outline" button once the paid body is stored');
  const refresh = section.getByTestId('refresh');
  assert.equal(await refresh.textContent(), 'Refresh — $0.5000');
  await shot(page, 'journal-strict-kept');

  // Opening it again (another page, then back) shows the stored result and buys nothing.
  await spaGo(page, '/history');
  await spaGo(page, '/keyword?kw=strict%20outline&cc=US');
  await section.getByTestId('validation').waitFor();
  assert.equal(await section.locator('ol[data-testid="outline"]').count(), 1);
  assert.equal(await get.count(), 0);
  assert.equal((await ledger()).entries.length, 1, 'not paid again');
  await meterEqualsLedger(page, 'strict reopened');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
