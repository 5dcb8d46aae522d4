// Domain research in live mode against the sandbox HTTP server: the price on the button is
// what the server's ledger charges, a stored result is not bought again, and a budget cap
// stops a call before anything is sent.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, goLive, shot, micros, ledger, quietLedger, resetLedger, until } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  page = await app.open('/domains', { live: true });
});

test('live: domain stats and ranked keywords; price shown = ledger charge; stored results are free', async () => {
  await resetLedger();
  await page.getByTestId('nav-domains').click();
  await page.getByTestId('domains-input').fill('example.com\nexample.org');
  const run = page.getByTestId('run');
  const price = await run.getAttribute('data-price');
  assert.equal(price, '$0.1000');
  await run.click();
  await page.locator('[data-testid="domain-card"]').nth(1).waitFor();
  let l = await ledger();
  assert.equal(l.entries.length, 1);
  assert.equal(l.entries[0].operation, 'domainstats');
  assert.equal(micros('$' + l.total), micros(price));
  assert.ok(!(await page.getByTestId('result-meta').textContent()).includes('synthetic'));

  await page.getByTestId('domain-card').first().getByRole('link', { name: 'Open domain' }).click();
  await page.getByTestId('tab-keywords').click();
  const kw = page.getByTestId('keywords');
  assert.equal(await kw.getAttribute('data-price'), '$0.1000');
  await kw.click();
  await page.locator('[data-testid="rk-table"]').waitFor();
  l = await ledger();
  assert.equal(micros('$' + l.total), micros('$0.2000'));
  // The meter follows the journal's commit, which may end a frame after the table shows.
  const spend = await until(() => page.getByTestId('spend').textContent(), (t) => t === '$0.2000');
  assert.equal(spend, '$0.2000');

  // Back and forth: nothing bought again.
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('tab-keywords').click();
  await page.locator('[data-testid="rk-table"]').waitFor();
  assert.equal((await quietLedger(page)).entries.length, 2);
  await shot(page, 'domain-live-keywords', false);
});

test('live: a budget cap stops the backlink overview before it is sent', async () => {
  // This session spent $0.20 above; a $0.50 cap leaves $0.30: one $0.25 overview fits, a
  // second does not.
  await goLive(page, { budget: '0.50' });
  await resetLedger();
  await page.getByTestId('nav-domains').click();
  await page.getByTestId('subnav-domain').click();
  await page.getByTestId('domain-input').fill('https://www.Example.net/some/page');
  await page.getByTestId('open-domain').click();
  await page.waitForURL(/d=www\.example\.net/);
  await page.getByTestId('tab-backlinks').click();
  await page.getByTestId('backlinks').click();
  await page.getByTestId('backlink-overview').waitFor();
  await page.getByTestId('refresh').click();
  await page.getByTestId('refresh-again').click();
  const err = page.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'budget_exceeded');
  assert.match(await err.textContent(), /Over the budget cap/);
  const l = await quietLedger(page);
  assert.equal(l.entries.length, 1, 'the refused call was never sent');
  assert.equal(micros('$' + l.total), micros('$0.2500'));
  // The stored overview stays visible.
  assert.equal(await page.getByTestId('backlink-overview').count(), 1);
  await shot(page, 'domain-budget', false);
  await goLive(page, { budget: '' });
});
