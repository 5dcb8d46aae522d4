// Live mode against the sandbox HTTP server: a test key works and the price shown equals
// the server ledger's charge; a refused key (401) says what to do and keeps the results.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, shot, research, micros, ledger, quietLedger, resetLedger, SANDBOX_KEY, saved } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

test('live mode with the test key: price shown = server ledger charge', async () => {
  await app.goto(page, '/keywords', { live: SANDBOX_KEY });
  await shot(page, 'settings-live', false);
  await resetLedger();
  await page.getByTestId('nav-keywords').click();
  assert.equal(await page.getByTestId('demo-banner').count(), 0);
  assert.equal(await page.getByTestId('mode').textContent(), 'Live service');
  const kws = ['running shoes', 'trail shoes', 'marathon training'];
  const { price } = await research(page, kws);
  assert.equal(price, '$0.0009');
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  const l = await quietLedger(page);
  assert.equal(l.entries.length, 1);
  assert.equal(l.entries[0].operation, 'search_volume/bulk');
  assert.equal(micros('$' + l.total), micros(price), 'ledger charge equals the price shown');
  assert.equal(await page.getByTestId('spend').textContent(), price);
  assert.match(await page.getByTestId('result-meta').textContent(), /Bought .* for \$0\.0009/);
  assert.ok(!(await page.getByTestId('result-meta').textContent()).includes('synthetic'));

  // The key is in no URL and, without "remember", in no storage.
  assert.ok(!page.url().includes(SANDBOX_KEY));
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!stored.includes(SANDBOX_KEY));
  await shot(page, 'explorer-live');
});

test('a refused key (401) says to check the key in Settings and keeps the results', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill('wrong-key');
  await page.getByTestId('nav-keywords').click();
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  await research(page, ['seo audit', 'site speed']);
  const err = page.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-status'), '401');
  const text = await err.textContent();
  assert.match(text, /The API key was refused/);
  assert.match(text, /check the key in Settings/);
  assert.ok(!text.includes('wrong-key'), 'the key is not in the error text');
  assert.equal(await err.locator('a[href="/settings"]').count(), 1);
  // The previous results stay visible.
  assert.equal(await page.locator('[data-testid="kw-table"] tbody tr').count(), 3);
  const l = await ledger();
  assert.equal(micros('$' + l.total), micros('$0.0009'), 'a 401 is not charged');
  assert.equal(await page.getByTestId('spend').textContent(), '$0.0009');
  assert.ok(!page.logs.some((m) => m.includes('wrong-key') || m.includes(SANDBOX_KEY)), 'no key in console logs');
  await shot(page, 'explorer-401');
});

test('"remember on this device" stores the key, unticking removes it', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(SANDBOX_KEY);
  await page.getByTestId('remember-key').check();
  assert.equal(await page.evaluate(() => localStorage.getItem('serpkit.apiKey')), SANDBOX_KEY);
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  assert.equal(await page.getByTestId('api-key').inputValue(), SANDBOX_KEY);
  await page.getByTestId('remember-key').uncheck();
  assert.equal(await page.evaluate(() => localStorage.getItem('serpkit.apiKey')), null);
  await saved(page);
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  assert.equal(await page.getByTestId('api-key').inputValue(), '');
});

test('a budget cap stops a call before it is sent', async () => {
  await page.getByTestId('api-key').fill(SANDBOX_KEY);
  await page.getByTestId('budget').fill('0.001');
  await page.getByTestId('budget').press('Tab');
  await page.getByTestId('nav-keywords').click();
  const before = await ledger();
  await research(page, ['a', 'b', 'c', 'd', 'e'].map((x) => `budget test ${x}`));
  const err = page.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'budget_exceeded');
  assert.equal((await quietLedger(page)).entries.length, before.entries.length, 'nothing was sent');
});
