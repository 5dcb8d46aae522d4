// The content gap warns when a brand term is itself a high-volume keyword in the data
// (issue 39, item 6): hotels.com's name gives the brand term "hotels", which would silently
// leave the whole hotel category out of every list. Demo mode; the keyword's volume is read
// from the sandbox server (the same generator as the in-browser demo).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, gapLoaded, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();
const num = (t) => Number(String(t).replace(/[^0-9]/g, ''));

/** The volume of `keyword` among `domain`'s ranked keywords at the sandbox server. */
async function rankedVolume(domain, keyword) {
  const r = await fetch(`${SANDBOX_URL}/v1/ranked-keywords/domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, domain }),
  });
  assert.equal(r.status, 200);
  return (await r.json()).find((k) => k.keyword === keyword)?.search_volume;
}

test('a brand term that is a high-volume keyword (hotels.com → "hotels") is warned about', async () => {
  const page = await app.open('/domain/gap?d=hotels.com,nova.io');
  const all = page.getByTestId('run-all');
  if (!(await all.isDisabled())) await all.click();
  // Both domains bought and read (the lists re-render, filters included, as each one loads).
  await page.getByTestId('run-all').filter({ hasText: 'Everything is loaded' }).waitFor({ timeout: 60000 });
  await gapLoaded(page);
  assert.match(await page.getByTestId('gap-brand').inputValue(), /(^|, *)hotels(,|$)/, 'the brand terms come from the domains\' names');
  const volume = await rankedVolume('hotels.com', 'hotels');
  assert.ok(volume >= 10000, `"hotels" is a big keyword in the data: ${volume}`);
  const warning = page.getByTestId('gap-brand-warning').filter({ hasText: /^The brand term “hotels”/ });
  await warning.waitFor();
  const text = await warning.textContent();
  assert.match(text, /^The brand term “hotels” is itself a keyword with ([\d,]+) searches a month/);
  assert.equal(num(/with ([\d,]+) searches/.exec(text)[1]), volume);
  assert.match(text, /remove it from the brand terms/);
  await shot(page, 'brand-warning', false);

  // Removed from the brand terms: no warning, and the keyword is back in the lists.
  const rest = (await page.getByTestId('gap-brand').inputValue()).split(',').map((t) => t.trim()).filter((t) => t !== 'hotels');
  await page.getByTestId('gap-brand').fill(rest.join(', '));
  await page.getByTestId('gap-brand').press('Enter');
  await warning.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
});
