// Each provider's figures are named for what they are, with a line on where they come from
// (issue 43, item 1, the app's part), in demo mode: no "alpha", "beta" or "stumbles" on the
// domain card or in compare; each group of the card says its source; a figure both link
// indexes give (links) names its index on every row, so compare's "best" is always within
// one index's scale; the backlink overview says its counts are its own index's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, shot, shotEl } from './helpers.mjs';

const app = e2e();
const CODE_WORDS = /\b(alpha|beta|stumbles?|SN)\b/i;

test('domain card and compare: figures named for what they are, with their source', async () => {
  const page = await app.open('/domains');
  await page.getByTestId('domains-input').fill('providers-a.example.com\nproviders-b.example.org');
  await page.getByTestId('run').click();
  const card = page.getByTestId('domain-card').first();
  await card.waitFor();
  const text = await card.innerText();
  assert.doesNotMatch(text, CODE_WORDS, text);
  const groups = await card.locator('.dgroup h4').allTextContents();
  assert.ok(groups.some((g) => g.includes('link index A')) && groups.some((g) => g.includes('link index B')), groups.join(' | '));
  const notes = await card.getByTestId('group-note').allTextContents();
  assert.equal(notes.length, 3, 'a line on the source of each group');
  assert.ok(notes.every((n) => n.length > 40), notes.join(' | '));
  await shotEl(card, 'providers-card');

  await page.getByTestId('compare-these').click();
  await page.getByTestId('run-all').click();
  await page.getByTestId('cmp-stats').waitFor();
  const rows = await page.locator('[data-testid="cmp-stats"] tbody th[scope="row"]').allTextContents();
  for (const r of rows) assert.doesNotMatch(r, CODE_WORDS, r);
  const links = rows.filter((r) => /^Links\b/.test(r));
  assert.deepEqual(links, ['Links (index A)', 'Links (index B)'], 'each link count names its index');
  // Every count both indexes report names its index.
  for (const r of rows.filter((r) => /Referring domains|Subnets|IPs/.test(r))) assert.match(r, /\(index [AB]\)/, r);
  await shot(page, 'providers-compare', false);

  await page.goto(`${app.url}/domain?d=providers-a.example.com&tab=backlinks`);
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.getByTestId('run-all').click();
  await page.getByTestId('backlink-overview').waitFor();
  assert.match(await page.getByTestId('bm-source').textContent(), /own backlink index/);
});
