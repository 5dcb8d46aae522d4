// Bring your own keywords in the explorer, demo mode: a CSV file with a
// header, a quoted keyword holding a comma, duplicates in another case and an empty row; the
// keyword column proposed and changeable; the counts; the keywords not bought yet and their
// price shown before any call (two of them were bought first); applying fills the keyword box
// and buys nothing; the explorer's Run then asks the same price. A paste and a broken file
// too, and axe-core finds no violation with the panel open.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, open, research, shot, micros } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const CSV = [
  'Keyword,Volume',
  'running shoes,100',
  '"shoes, waterproof",5',
  'Trail Running Shoes,3',
  ',1',
  'marathon plan,2',
  'MARATHON PLAN,2',
  '',
].join('\r\n');

const demoLedger = async () => micros(await page.getByTestId('ledger').textContent());

test('import a CSV: column, counts, the price of what is not bought yet, nothing bought', async () => {
  await open(page, app.url, '/keywords');
  // Two of the file's keywords are bought first.
  const bought = await research(page, ['running shoes', 'trail running shoes']);
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  const spent = await demoLedger();
  assert.equal(spent, micros(bought.price));

  await page.getByTestId('import-open').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'keywords.csv', mimeType: 'text/csv', buffer: Buffer.from('\ufeff' + CSV) });
  await page.getByTestId('import-counts').waitFor();
  assert.equal(await page.getByTestId('import-counts').textContent(), '6 rows read · 1 empty · 1 duplicate removed · 4 keywords');
  const column = page.getByTestId('import-column');
  assert.equal(await column.inputValue(), '0', 'the "Keyword" column is proposed');
  assert.deepEqual(await column.locator('option').allTextContents(), [
    'Keyword: running shoes, shoes, waterproof, Trail Running Shoes',
    'Volume: 100, 5, 3',
  ]);
  // The price of the two keywords not bought yet, as much as buying two keywords costs.
  const price = page.getByTestId('import-price');
  assert.equal(await price.getAttribute('data-new'), '2');
  assert.equal(await price.getAttribute('data-price'), bought.price);
  assert.match(await price.textContent(), /^2 not bought yet: \$[0-9.]+ to buy them \(US\) · 2 already bought\.$/);
  await expectNoAxeViolations(page, 'import');
  await shot(page, 'import');

  // Another column changes what is read; back to the keywords.
  await column.selectOption('1');
  assert.equal(await page.getByTestId('import-counts').textContent(), '6 rows read · 0 empty · 1 duplicate removed · 5 keywords');
  await column.selectOption('0');

  // Applying fills the box and buys nothing; Run then asks the same price.
  await page.getByTestId('import-apply').click();
  assert.equal(await page.getByTestId('kw-input').inputValue(), 'running shoes\nshoes, waterproof\nTrail Running Shoes\nmarathon plan');
  assert.equal(await demoLedger(), spent, 'the import bought nothing');
  const run = page.getByTestId('run');
  assert.equal(await run.getAttribute('data-price'), bought.price);
  assert.match(await run.textContent(), /for 2 new keywords · 2 already bought/);
  assert.deepEqual(page.errors, []);
});

test('a paste, and a file with a quote left open', async () => {
  await open(page, app.url, '/keywords');
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-paste').fill('hiking boots\n\nHiking  Boots\ntent');
  assert.equal(await page.getByTestId('import-counts').textContent(), '3 rows read · 0 empty · 1 duplicate removed · 2 keywords');
  await page.getByTestId('import-paste').fill('keyword,n\n"open,1\nnext,2');
  assert.match(await page.getByTestId('import-error').textContent(), /^Cannot import: a quoted cell opened on line 2 is never closed/);
  assert.ok(await page.getByTestId('import-apply').isDisabled());
  assert.deepEqual(page.errors, []);
});
