// Cells and buttons read as a consultant expects (issue 43, item 7), in demo mode: the domain's
// intent cells name every intent with a comma between them ("Navigational, Commercial", as the
// CSV writes them); the explorer's CSV gives the 12- and 3-month changes in percent, as the
// screen shows them; "Add … to list" is a secondary button, the page's primary one is Run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, parseCsv, research, shot } from './helpers.mjs';

const app = e2e();

async function csvOf(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return parseCsv(await readFile(await dl.path(), 'utf8'));
}

test('intent cells: every intent named, separated by a comma, as in the CSV', async () => {
  const page = await app.open('/domain?d=example.com&tab=intent');
  await page.getByTestId('run-all').click();
  await page.getByTestId('in-table').waitFor();
  const csv = await csvOf(page, 'in-csv');
  const intentOf = new Map(csv.slice(1).map((r) => [r[0], r[1]]));
  assert.ok([...intentOf.values()].some((t) => t.includes(', ')), 'some keywords have two intents');
  let multi = 0;
  // Each filter's first rows on screen: the cell reads as the CSV's intent text.
  for (const filter of ['', 'info', 'nav', 'comm', 'trans']) {
    await page.getByTestId('in-filter').selectOption(filter);
    const rows = await page.locator('[data-testid="in-table"] [data-testid="vrow"]').evaluateAll((rs) =>
      rs.map((r) => [r.querySelector('[role="cell"]').textContent, r.querySelector('[data-col="intent"]')?.textContent]));
    assert.ok(rows.length > 0, `rows with filter "${filter}"`);
    for (const [kw, cell] of rows) {
      assert.equal(cell, intentOf.get(kw), `${kw}: intent cell`);
      if (cell.includes(', ')) multi += 1;
    }
  }
  assert.ok(multi > 0, 'a row with two intents was on screen');
  await shot(page, 'intent-cells', false);
});

test('explorer CSV: changes in percent as on screen; "Add to list" is not the primary button', async () => {
  const page = await app.open('/keywords');
  await research(page, ['running shoes', 'trail running shoes', 'running shoes for men', 'hiking boots', 'winter boots', 'ski jacket']);
  await page.locator('[data-testid="kw-table"] tbody tr').nth(5).waitFor();
  const screen = await page.locator('[data-testid="kw-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => [
    tr.querySelector('a.kw').textContent,
    tr.querySelector('td[data-col="change"]').textContent,
    tr.querySelector('td[data-col="change3"]').textContent,
  ]));
  const csv = await csvOf(page, 'export-csv');
  const col12 = csv[0].indexOf('12-month change (%)');
  const col3 = csv[0].indexOf('3-month change (%)');
  assert.ok(col12 > 0 && col3 > 0, csv[0].join());
  const byKeyword = new Map(csv.slice(1).map((r) => [r[0], r]));
  let compared = 0;
  for (const [kw, ch12, ch3] of screen) {
    for (const [shown, cell] of [[ch12, byKeyword.get(kw)[col12]], [ch3, byKeyword.get(kw)[col3]]]) {
      if (shown === '–') {
        assert.equal(cell, '', `${kw}: no change, empty cell`);
        continue;
      }
      // The screen rounds the same percent to a whole number: +56% for 55.56.
      const pct = Number(cell.replace(/^'/, ''));
      const onScreen = Number(shown.replace('%', ''));
      assert.ok(Number.isFinite(pct) && Number.isFinite(onScreen), `${kw}: ${cell} vs ${shown}`);
      assert.ok(Math.abs(pct - onScreen) <= 0.5 + 1e-9, `${kw}: CSV ${cell} vs screen ${shown}`);
      compared += 1;
    }
  }
  assert.ok(compared > 0);

  // The explorer's primary button is Run; "Add … to list" looks secondary and counts keywords.
  await page.locator('[data-testid="kw-table"] tbody tr input[type="checkbox"]').first().check();
  const add = page.getByTestId('add-to-list');
  assert.equal(await add.textContent(), 'Add 1 keyword to list');
  const look = (l) => l.evaluate((b) => getComputedStyle(b).backgroundColor);
  const run = page.getByTestId('run');
  assert.notEqual(await look(add), await look(run), 'the add button is not drawn as the primary one');
  assert.match(await look(add), /rgba\(0, 0, 0, 0\)|transparent/);
  await shot(page, 'explorer-add-to-list', false);
});
