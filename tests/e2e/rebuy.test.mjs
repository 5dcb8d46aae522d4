// Domain stats remembers its last result, and nothing bought is bought again without asking
// (issue 43, item 5), in demo mode (the demo ledger in the footer is what the sandbox
// charged): coming back to Domains reopens the last result instead of an empty form; its
// Refresh, and a section's Refresh on the keyword page, ask first; "Keep the saved one"
// buys nothing, "Buy again" buys at the price shown.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, micros, shot, until } from './helpers.mjs';

const app = e2e();
const DOMAINS = ['rebuy-a.example.com', 'rebuy-b.example.org', 'rebuy-c.example.net'];

const ledgerOf = async (page) => micros(await page.getByTestId('ledger').textContent());

test('domain stats reopens the last result; Refresh asks before buying again', async () => {
  const page = await app.open('/domains');
  await page.getByTestId('domains-input').fill(DOMAINS.join('\n'));
  await page.getByTestId('run').click();
  await page.locator('[data-testid="domain-card"]').nth(2).waitFor();

  // Away and back by the navigation link: the last result, not an empty form.
  await page.getByTestId('nav-keywords').click();
  await page.getByTestId('kw-input').waitFor();
  await page.getByTestId('nav-domains').click();
  await page.locator('[data-testid="domain-card"]').nth(2).waitFor();
  assert.equal(await page.getByTestId('domains-input').inputValue(), DOMAINS.join('\n'));
  assert.equal(new URL(page.url()).searchParams.get('d'), DOMAINS.join('\n'));
  assert.equal(await page.getByTestId('empty').count(), 0);
  // And after a reload of the bare page.
  await app.goto(page, '/domains');
  await page.locator('[data-testid="domain-card"]').nth(2).waitFor();
  // (A reload starts the demo sandbox's ledger again: what it shows from here on.)
  const bought = await ledgerOf(page);

  // Refresh asks first; keeping the saved result buys nothing.
  const refresh = page.getByTestId('refresh');
  const price = await refresh.getAttribute('data-price');
  assert.equal(price, '$0.1500');
  await refresh.click();
  const confirm = page.getByTestId('refresh-confirm');
  await confirm.waitFor();
  assert.match(await confirm.textContent(), /Already bought and saved\. Buy it again for \$0\.1500\?/);
  assert.equal(await ledgerOf(page), bought, 'asking bought nothing');
  await shot(page, 'rebuy-confirm', false);
  await page.getByTestId('refresh-keep').click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await ledgerOf(page), bought, 'keeping bought nothing');
  // Buying again charges the price shown.
  const shown = await page.getByTestId('ledger').textContent();
  await refresh.click();
  await page.getByTestId('refresh-again').click();
  await page.waitForFunction((b) => document.querySelector('[data-testid="ledger"]').textContent !== b, shown);
  assert.equal(await ledgerOf(page), bought + micros(price));
  assert.deepEqual(page.errors, []);
});

test('a section of the keyword page asks before buying again too', async () => {
  const page = await app.open('/keyword?kw=rebuy%20section&cc=US');
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  // The footer's demo ledger follows the purchase a frame after its table shows.
  const bought = await until(() => ledgerOf(page), (v) => v === micros('$0.1500'));
  const section = page.getByTestId('section-related');
  await section.getByTestId('refresh').click();
  await section.getByTestId('refresh-confirm').waitFor();
  const shown = await page.getByTestId('ledger').textContent();
  assert.equal(micros(shown), bought);
  await section.getByTestId('refresh-again').click();
  await page.waitForFunction((b) => document.querySelector('[data-testid="ledger"]').textContent !== b, shown);
  assert.equal(await ledgerOf(page), bought + micros('$0.1500'));
});
