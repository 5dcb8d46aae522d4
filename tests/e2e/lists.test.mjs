// Keyword lists survive a reload; a damaged stored entry is skipped with a message and the
// rest stays; the workspace exports (without the key) and imports.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, shot, research, saved, parseCsv } from './helpers.mjs';

const app = e2e();
let page;
before(async () => {
  page = await app.open('/keywords');
});

const names = () => page.locator('[data-testid="list"][data-name="Ideas"] [data-testid="list-keyword"]').allTextContents();

test('selected rows go to a named list that survives a reload', async () => {
  await research(page, ['seo tools', 'keyword research tool', 'backlink checker', 'rank tracker']);
  await page.locator('[data-testid="kw-table"][data-rows="4"]').waitFor();
  await page.getByLabel('Select backlink checker').check();
  await page.getByLabel('Select rank tracker').check();
  assert.equal(await page.getByTestId('add-to-list').textContent(), 'Add 2 keywords to list');
  await page.getByTestId('list-name').fill('Ideas');
  await page.getByTestId('add-to-list').click();
  assert.match(await page.getByTestId('list-status').textContent(), /Added 2 keywords to “Ideas”/);

  await page.getByTestId('nav-lists').click();
  await page.locator('[data-testid="list"][data-name="Ideas"]').waitFor();
  assert.deepEqual(await names(), ['backlink checker', 'rank tracker']);
  await saved(page);
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.locator('[data-testid="list"][data-name="Ideas"]').waitFor();
  assert.deepEqual(await names(), ['backlink checker', 'rank tracker']);
  await shot(page, 'lists');
});

test('a list shows the trends of its bought keywords, filters them and exports them', async () => {
  const ideas = page.locator('[data-testid="list"][data-name="Ideas"]');
  // Both keywords were bought by the explorer (US): their rows, no call.
  const ledger = await page.getByTestId('ledger').textContent();
  assert.match(await ideas.getByTestId('list-coverage').textContent(), /^Figures for all 2 keywords, already bought \(no charge\)\.$/);
  await ideas.locator('[data-testid="list-table"][data-rows="2"]').waitFor();
  const seasons = await ideas.locator('td[data-col="season"]').allTextContents();
  assert.equal(seasons.length, 2);
  // The season filter: each choice keeps the rows whose label it names.
  for (const [choice, keep] of [['not', ['not seasonal']], ['seasonal', ['in season', 'approaching', 'out of season']]]) {
    await ideas.getByTestId('l-season').selectOption(choice);
    const n = seasons.filter((s) => keep.includes(s)).length;
    await ideas.locator(`[data-testid="list-table"][data-rows="${n}"]`).waitFor();
  }
  await ideas.getByTestId('l-season').selectOption('');
  await ideas.locator('[data-testid="list-table"][data-rows="2"]').waitFor();

  // A list with a keyword never bought: it is listed, with no data, in the CSV.
  await page.locator('summary', { hasText: 'New list' }).click();
  await page.getByTestId('new-list-name').fill('Mixed');
  await page.locator('#new-list-kws').fill('rank tracker\nnever bought keyword');
  await page.getByTestId('create-list').click();
  const mixed = page.locator('[data-testid="list"][data-name="Mixed"]');
  assert.match(await mixed.getByTestId('list-coverage').textContent(), /^Figures for 1 of 2 keywords; 1 not bought yet\. Research in explorer buys the 1 search volume not bought yet: \$0\.\d{4}\.$/);
  await mixed.locator('[data-testid="list-table"][data-rows="1"]').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), mixed.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = parseCsv(await readFile(await download.path(), 'utf8'));
  assert.equal(csv[0][0], 'Keyword');
  assert.ok(csv[0].includes('12-month change (%)') && csv[0].includes('Season'), csv[0].join());
  assert.equal(csv.length, 3);
  const tracker = csv.find((r) => r[0] === 'rank tracker');
  assert.ok(tracker && /^\d+$/.test(tracker[1]), `volume of rank tracker: ${tracker}`);
  assert.deepEqual(csv.find((r) => r[0] === 'never bought keyword').slice(1).filter((c) => c !== ''), []);
  assert.equal(await page.getByTestId('ledger').textContent(), ledger, 'nothing bought');
  await shot(page, 'lists-trends');
  await mixed.getByTestId('delete-list').click();
  await mixed.getByTestId('confirm-delete').click();
  await mixed.waitFor({ state: 'detached' });
});

test('a damaged stored entry is skipped with a message and the rest survives', async () => {
  await page.evaluate(() => new Promise((resolve, reject) => {
    const req = indexedDB.open('serpkit');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const tx = req.result.transaction(['lists', 'history'], 'readwrite');
      tx.objectStore('lists').put('{"name": "Broken", "keywords": [1, 2', 'Broken');
      tx.objectStore('history').put(42, 'not-an-entry');
      tx.oncomplete = () => { req.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  }));
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  const notice = await page.getByTestId('notice').textContent();
  assert.match(notice, /Skipped a damaged keyword list \("Broken"\)/);
  assert.match(notice, /Skipped a damaged history entry/);
  // The page's own code may arrive after the workspace is loaded: wait for the list.
  await page.locator('[data-testid="list"][data-name="Ideas"]').waitFor();
  assert.deepEqual(await names(), ['backlink checker', 'rank tracker']);
  assert.equal(await page.locator('[data-testid="list"][data-name="Broken"]').count(), 0);
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().waitFor();
  assert.equal(await page.getByTestId('history-row').count(), 1);
});

test('the workspace exports to JSON without the key and imports elsewhere', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill('secret-key-that-must-not-leak');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-workspace').click()]);
  const text = await readFile(await download.path(), 'utf8');
  assert.ok(!text.includes('secret-key-that-must-not-leak'), 'no key in the export');
  const doc = JSON.parse(text);
  assert.equal(doc.format, 'serpkit-workspace');
  assert.ok(doc.lists.some((l) => l.name === 'Ideas'));
  assert.equal(doc.history.length, 1);
  assert.equal(doc.results.length, 1);

  // A second browser profile: import, then the list and the stored result are there.
  doc.lists.push({ name: 'Damaged', keywords: 'not a list' });
  const other = await app.open('/settings');
  await other.getByTestId('import-workspace').setInputFiles({ name: 'ws.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await other.getByTestId('import-status').filter({ hasText: 'Imported' }).waitFor();
  assert.match(await other.getByTestId('import-status').textContent(), /Imported 1 list, 1 history entry, 1 result\. Skipped 1 damaged entry\./);
  await other.getByTestId('nav-history').click();
  await other.getByTestId('history-open').click();
  await other.locator('[data-testid="kw-table"][data-rows="4"]').waitFor();
  assert.equal(await other.getByTestId('ledger').textContent(), '$0.0000');
  await other.context().close();
});
