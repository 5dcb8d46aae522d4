// A brand-term edit typed while a competitor's ranked keywords are still loading is kept when
// they arrive (issue 39), and the box keeps the focus: the filters are drawn once, and only
// the lists around them follow the data. An edit not yet applied (applied on Enter or on
// leaving the box) survives the arrival. Live against the sandbox server, whose
// `delay` fault keeps the competitor loading while the edit is typed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, goLive, spaGo, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

test('a brand-term edit typed while a gap domain loads survives its arrival, then applies', async () => {
  const page = await app.open('/keywords');
  await goLive(page, SANDBOX_KEY);
  // hotels.com bought at once on its domain page.
  await spaGo(page, '/domain?d=hotels.com&tab=keywords');
  await page.getByTestId('keywords').click();
  await page.locator('[data-testid="rk-table"] [data-testid="vrow"]').first().waitFor({ timeout: 60000 });

  // The competitor answers slowly.
  await goLive(page, `${SANDBOX_KEY}+delay=8000`);
  await spaGo(page, '/domain/gap?d=hotels.com,nova.io');
  const brand = page.getByTestId('gap-brand');
  await brand.waitFor();
  const terms = (await brand.inputValue()).split(',').map((t) => t.trim()).filter(Boolean);
  assert.ok(terms.includes('hotels'), `the brand terms come from the names: ${terms}`);
  const warning = page.getByTestId('gap-brand-warning').filter({ hasText: /^The brand term “hotels”/ });
  await warning.waitFor();
  await page.getByTestId('run-all').click();
  await page.getByTestId('loading').waitFor();

  // Typed (not applied yet) while nova.io loads.
  const typed = terms.filter((t) => t !== 'hotels').join(', ');
  await brand.fill(typed);
  assert.ok(await page.getByTestId('gap-partial').isVisible(), 'typed while the competitor was loading');
  await page.getByTestId('gap-partial').waitFor({ state: 'detached', timeout: 60000 });
  assert.equal(await brand.inputValue(), typed, 'the edit survives the competitor arriving');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
  assert.equal(await focused(), 'gap-brand', 'the box keeps the focus when the competitor arrives');
  // Not applied yet, and the page says so.
  await warning.waitFor({ state: 'attached' });
  assert.equal(await page.getByTestId('gap-brand-pending').textContent(), 'Enter applies it');

  // Applied on Enter: "hotels" is no longer left out.
  await brand.press('Enter');
  await warning.waitFor({ state: 'detached' });
  await page.getByTestId('gap-brand-pending').waitFor({ state: 'detached' });
  assert.equal(await brand.inputValue(), typed);
  assert.equal(await focused(), 'gap-brand', 'and when the lists are computed again');
  assert.deepEqual(page.errors, []);
});
