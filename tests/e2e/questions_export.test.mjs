// Questions in the exports (issue 39: a Questions view across the explorer, related keywords
// and the content gap, in the app and its exports), demo mode. With "Questions only" ticked,
// each view's CSV holds exactly the questions shown (by the groups' rule, recomputed here),
// labelled demo on its first line. Related keywords had no export at all.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, research, parseCsv, rowIds, gapLoaded } from './helpers.mjs';
import { isQuestion } from './research_gap_rules.mjs';

const app = e2e();

const KWS = ['how to clean running shoes', 'running shoes', 'best running shoes', 'what is a good marathon time', 'can you wash running shoes', 'will smith movies', 'marathon training plan'];

async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const rows = parseCsv(await readFile(await dl.path(), 'utf8'));
  assert.match(dl.suggestedFilename(), /^demo-/, `${testid}: a demo export says so in its name`);
  return { name: dl.suggestedFilename(), rows };
}

test('questions only: the explorer, related keywords and content gap CSVs hold the questions shown', async () => {
  const page = await app.open('/keywords');

  // Explorer.
  await research(page, KWS);
  await page.locator(`[data-testid="kw-table"][data-rows="${KWS.length}"]`).waitFor();
  const asked = KWS.filter(isQuestion);
  assert.ok(asked.length >= 3 && asked.length < KWS.length);
  await page.getByTestId('f-questions').check();
  await page.locator(`[data-testid="kw-table"][data-rows="${asked.length}"]`).waitFor();
  const explorer = await download(page, 'export-csv');
  assert.deepEqual(explorer.rows.slice(1).map((r) => r[0]).sort(), [...asked].sort());
  assert.deepEqual((await rowIds(page)).sort(), [...asked].sort());

  // Related keywords of a keyword.
  await open(page, app.url, `/keyword?kw=${encodeURIComponent('running shoes')}&cc=US`);
  await page.getByTestId('related').click();
  const table = page.locator('[data-testid="related-table"] tbody tr');
  await table.first().waitFor({ timeout: 30000 });
  const all = await download(page, 'related-csv');
  assert.equal(all.name, 'demo-related-running shoes.csv');
  assert.deepEqual(all.rows[0].slice(0, 2), ['Keyword', 'Volume']);
  assert.equal(all.rows.length - 1, await table.count(), 'every related keyword shown');
  await page.getByTestId('related-questions').check();
  const shown = await page.locator('[data-testid="related-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('td a.kw')?.textContent));
  const related = await download(page, 'related-csv');
  assert.equal(related.name, 'demo-related-questions-running shoes.csv');
  const questions = related.rows.slice(1).map((r) => r[0]);
  assert.deepEqual([...questions].sort(), [...shown].sort(), 'the questions shown');
  assert.deepEqual(questions.filter((k) => !isQuestion(k)), [], 'questions only');
  assert.deepEqual(all.rows.slice(1).map((r) => r[0]).filter(isQuestion).sort(), [...questions].sort(), 'every question of the keywords');

  // Content gap.
  await open(page, app.url, '/domain/gap?d=example.com,example.org');
  await page.getByTestId('run-all').click();
  await gapLoaded(page);
  await page.getByTestId('gap-questions').check();
  const count = Number((await page.getByTestId('gap-count').textContent()).replace(/[^0-9]/g, ''));
  assert.ok(count > 0, 'the list has questions');
  const gap = await download(page, 'gap-csv');
  assert.equal(gap.rows.length - 1, count);
  assert.deepEqual(gap.rows.slice(1).map((r) => r[0]).filter((k) => !isQuestion(k)), [], 'questions only');
  assert.deepEqual(page.errors, []);
});
