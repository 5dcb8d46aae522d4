// Files from every tool, read as a user hands them over, demo mode: the explorer's import
// panel given real bytes through the file input (Excel's "Unicode text" UTF-16 with and
// without a byte-order mark, an Excel CSV in Windows-1252 with its `sep=;` line, decimal
// commas and a formula cell, Keyword Planner's title rows above the header, a file with
// carriage returns alone, a header plus exactly 100,000 rows); the page says how each was
// read and states the rules; a CSV export starts with UTF-8's byte-order mark (Excel on
// Windows) and reads back through the import; and a list takes 50,000 keywords twice
// without freezing the tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, enterLines, parseCsv, research, shot } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';

const t = e2e();

/** UTF-16 LE bytes of `text`, with the byte-order mark unless `bom` is false. */
function utf16le(text, bom = true) {
  const body = Buffer.from(text, 'utf16le');
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

/** Windows-1252 bytes of `text` (Latin-1 letters only here: one byte each). */
function cp1252(text) {
  return Buffer.from(text, 'latin1');
}

/** Waits until the element `testid` reads `want` (then compares, so a failure shows both). */
async function reads(page, testid, want, timeout = 10000) {
  const el = page.getByTestId(testid);
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    if ((await el.count()) && (await el.textContent()) === want) return;
    await page.waitForTimeout(50);
  }
  assert.equal(await el.textContent(), want, `${testid}`);
}

/** Opens the explorer's import panel on a fresh page. */
async function importPanel() {
  const page = await t.open('/keywords');
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-file').waitFor();
  return page;
}

/** Hands `bytes` to the file input as the file `name`. */
async function importFile(page, name, bytes, mimeType = 'text/csv') {
  await page.getByTestId('import-file').setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
}

const UNICODE_TEXT = 'Keyword\tVolume\r\nmünchen café\t10\r\nSão Paulo hotels\t20\r\nMÜNCHEN CAFÉ\t3\r\n';

test('UTF-16 files (Excel "Unicode text"), with and without a byte-order mark', async () => {
  const page = await importPanel();
  await importFile(page, 'unicode.txt', utf16le(UNICODE_TEXT), 'text/plain');
  await reads(page, 'import-read', 'Read as UTF-16 LE (byte-order mark) · cells separated by tabs.');
  await reads(page, 'import-counts', '3 rows read · 0 empty · 1 duplicate removed · 2 keywords');
  assert.equal(await page.getByTestId('import-column').inputValue(), '0');
  await page.getByTestId('import-apply').click();
  assert.equal(await page.getByTestId('kw-input').inputValue(), 'münchen café\nSão Paulo hotels');

  // No mark: the zero bytes beside ASCII letters say UTF-16 (the browser would read garbage).
  await importFile(page, 'no-bom.txt', utf16le(UNICODE_TEXT, false), 'text/plain');
  await reads(page, 'import-read', 'Read as UTF-16 LE (no byte-order mark; recognised by its zero bytes) · cells separated by tabs.');
  assert.deepEqual(await page.getByTestId('import-column').locator('option').allTextContents(), [
    'Keyword: münchen café, São Paulo hotels, MÜNCHEN CAFÉ',
    'Volume: 10, 20, 3',
  ]);
  assert.deepEqual(page.errors, []);
});

test('an Excel CSV in Windows-1252 with sep=;, decimal commas and a formula cell', async () => {
  const page = await importPanel();
  const file = [
    'sep=;',
    'Keyword;CPC',
    'café au lait;0,50',
    'crème brûlée;1,20',
    '"=HYPERLINK(""http://example.com"";""shoes"")";0',
    '+1 area code;2,10',
    '',
  ].join('\r\n');
  await importFile(page, 'excel.csv', cp1252(file));
  await reads(page, 'import-read', 'Read as Windows-1252 (the file is not valid UTF-8) · cells separated by semicolons (the file\'s sep= line).');
  await reads(page, 'import-counts', '4 rows read · 0 empty · 0 duplicates removed · 1 formula skipped (not keywords) · 3 keywords');
  assert.deepEqual(await page.getByTestId('import-column').locator('option').allTextContents(), [
    'Keyword: café au lait, crème brûlée, =HYPERLINK("http://example.com";"shoes")',
    'CPC: 0,50, 1,20, 0',
  ]);
  // Only the three keywords are priced: the formula is not a keyword, "+1 area code" is one
  // (a real query; the CSV export neutralises it, research::import).
  assert.equal(await page.getByTestId('import-price').getAttribute('data-new'), '3');
  // The rules are stated where the file is read, and the panel passes axe with them open.
  await page.getByTestId('import-rules').locator('summary').click();
  const rules = await page.getByTestId('import-rules').textContent();
  for (const words of ['Windows-1252', 'sep=;', 'laufschuhe;0,50', 'OWASP', '100,000 data rows', 'title rows']) {
    assert.ok(rules.includes(words), `the rules mention ${words}: ${rules}`);
  }
  await expectNoAxeViolations(page, 'import-rules');
  await shot(page, 'import-windows-1252');
  await page.getByTestId('import-apply').click();
  assert.equal(await page.getByTestId('kw-input').inputValue(), 'café au lait\ncrème brûlée\n+1 area code');

  // A paste: a line split as well by ";" as by "," is a semicolon file with decimal commas.
  await page.getByTestId('import-paste').fill('laufschuhe;0,50\nwanderschuhe;1,20');
  await reads(page, 'import-read', 'cells separated by semicolons.');
  await reads(page, 'import-counts', '2 rows read · 0 empty · 0 duplicates removed · 2 keywords');
  await page.getByTestId('import-apply').click();
  assert.equal(await page.getByTestId('kw-input').inputValue(), 'laufschuhe\nwanderschuhe');
  assert.deepEqual(page.errors, []);
});

test('Keyword Planner title rows, a one-column file, carriage returns alone, 100,000 rows', async () => {
  const page = await importPanel();
  const planner = [
    'Keyword Stats 2024-05-01 at 10_15_00',
    'January 1, 2023 - December 31, 2023',
    'Keyword\tCurrency\tAvg. monthly searches',
    'running shoes\tEUR\t1000',
    'trail running shoes\tEUR\t100',
    '',
  ].join('\r\n');
  await importFile(page, 'Keyword Stats.csv', utf16le(planner));
  await reads(page, 'import-read', 'Read as UTF-16 LE (byte-order mark) · cells separated by tabs · 2 title rows above the header skipped.');
  await reads(page, 'import-counts', '2 rows read · 0 empty · 0 duplicates removed · 2 keywords');
  assert.equal(await page.getByTestId('import-column').inputValue(), '0');

  // One column headed "Keyword": the header is no keyword.
  await importFile(page, 'one-column.csv', 'Keyword\nhiking boots\ntent\n');
  await reads(page, 'import-read', 'Read as UTF-8 · one keyword per line (no delimiter found).');
  await reads(page, 'import-counts', '2 rows read · 0 empty · 0 duplicates removed · 2 keywords');
  assert.match(await page.locator('label[for="import-column"]').textContent(), /with a header row/);

  // Old Mac Excel: lines end in CR alone.
  await importFile(page, 'mac.csv', 'Keyword,Volume\rhiking boots,1\rtent,2\rstove,3\r');
  await reads(page, 'import-counts', '3 rows read · 0 empty · 0 duplicates removed · 3 keywords');

  // A header and exactly 100,000 rows: the limit counts data rows.
  const rows = ['Keyword,Volume', ...Array.from({ length: 100000 }, (_, i) => `keyword ${i},1`)];
  await importFile(page, 'big.csv', rows.join('\n'));
  await reads(page, 'import-counts', '100,000 rows read · 0 empty · 0 duplicates removed · 100,000 keywords', 60000);
  await importFile(page, 'too-big.csv', [...rows, 'one more,1'].join('\n'));
  await reads(page, 'import-error', 'Cannot import: the file has more than 100,000 data rows (split it).', 60000);
  assert.deepEqual(page.errors, []);
});

test('a CSV export starts with a UTF-8 byte-order mark, and reads back through the import', async () => {
  const page = await t.open('/keywords');
  await research(page, ['münchen café', 'crème brûlée']);
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const bytes = await readFile(await download.path());
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'Excel on Windows reads it as UTF-8');
  const rows = parseCsv(bytes.subarray(3).toString('utf8'));
  assert.equal(rows[0][0], 'Keyword');
  assert.deepEqual(rows.slice(1).map((r) => r[0]).sort(), ['crème brûlée', 'münchen café']);

  await page.getByTestId('import-open').click();
  await importFile(page, download.suggestedFilename(), bytes);
  // The header is line 1 (demo is in the file's name): no title row to skip.
  await reads(page, 'import-read', 'Read as UTF-8 (byte-order mark) · cells separated by commas.');
  await reads(page, 'import-counts', '2 rows read · 0 empty · 0 duplicates removed · 2 keywords');
  assert.equal(await page.getByTestId('import-column').inputValue(), '0');
  assert.deepEqual(page.errors, []);
});

test('a list takes 50,000 keywords, then 50,000 more, without freezing the tab', async () => {
  const page = await t.open('/lists');
  const add = async (keywords) => {
    await page.getByTestId('new-list-name').fill('Big');
    await enterLines(page.locator('#new-list-kws'), keywords);
    await page.getByTestId('create-list').click();
  };
  const count = page.locator('[data-testid="list"][data-name="Big"] [data-testid="list-count"]');
  await page.locator('summary', { hasText: 'New list' }).click();
  await add(Array.from({ length: 50000 }, (_, i) => `keyword ${i}`));
  await count.filter({ hasText: '50000 keywords' }).waitFor({ timeout: 60000 });
  // Half of these are in the list already (in another case).
  await add(Array.from({ length: 50000 }, (_, i) => `KEYWORD ${i + 25000}`));
  await count.filter({ hasText: '75000 keywords' }).waitFor({ timeout: 60000 });
  // The page's own timing of each add (the benchmark's goal is 100 ms; a scan per keyword
  // took seconds here). Generous: this machine runs other tests at the same time.
  const adds = await page.evaluate(() => performance.getEntriesByName('serpkit:list-add').map((e) => e.duration));
  assert.equal(adds.length, 2);
  assert.ok(adds.every((ms) => ms < 1000), `adds took ${adds.map(Math.round)} ms`);
  // 500 chips, not 75,000 buttons; the rest is said.
  const card = page.locator('[data-testid="list"][data-name="Big"]');
  assert.equal(await card.getByTestId('list-keyword').count(), 500);
  assert.match(await card.getByTestId('list-more').textContent(), /^74,500 more keywords are not shown here/);
  // Removing a chip removes that keyword only.
  await card.getByRole('button', { name: 'Remove keyword 0 from the list' }).click();
  await count.filter({ hasText: '74999 keywords' }).waitFor();
  assert.equal(await card.getByTestId('list-keyword').first().textContent(), 'keyword 1');
  assert.deepEqual(page.errors, []);
});
