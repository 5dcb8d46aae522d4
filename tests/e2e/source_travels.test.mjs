// Issue 38, break 7: the demo label follows the data, not the settings. Every stored result
// and record carries its source (demo: `sandbox://demo`), and an export says demo because its
// ROWS came from demo, inside the file (a CSV's first line, an HTML report's banner) and in
// its name, whatever the settings say when it is exported, in this tab or another one.
//
// Two tabs of one profile: tab A buys in demo, tab B switches the shared settings to live;
// A's History (which keeps demo and live rows) exports demo rows as demo although the mode
// is live now, and live rows without any demo label although the mode is demo again. Before
// the change a CSV held nothing saying demo, and its name followed the settings stored by
// any tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, goLive, spaGo, research, shot, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

/** Clicks the export `testid`; the file's name, its first line and its text (byte-order mark dropped). */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const text = (await readFile(await dl.path(), 'utf8')).replace(/^\ufeff/, '');
  return { name: dl.suggestedFilename(), first: text.split(/\r?\n/)[0], text };
}


test('an export says demo because its rows came from demo, whatever the settings say now', { timeout: 120_000 }, async () => {
  const [a, b] = await app.tabs(2);
  await app.goto(a, '/keywords');
  await research(a, ['source travels one', 'source travels two']);
  await a.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  let f = await download(a, 'export-csv');
  assert.match(f.name, /^demo-keywords-US\.csv$/);
  assert.equal(f.first.split(',')[0], 'Keyword', 'the header is line 1; the name says demo');

  // Tab B switches the shared settings to live; tab A shows its History (demo rows only).
  await spaGo(a, '/history');
  await a.getByTestId('history-table').waitFor();
  await app.goto(b, '/keywords', { live: SANDBOX_KEY });
  await a.waitForFunction(() => document.querySelector('[data-testid="mode"]')?.textContent === 'Live service', null, { timeout: 10_000 });
  f = await download(a, 'history-export');
  assert.match(f.first, /^Time,/, 'the header first');
  assert.match(f.name, /^demo-history\.csv$/);

  // A live purchase in tab B: its own export says nothing of demo.
  await spaGo(b, '/keywords');
  await research(b, ['source travels live']);
  await b.locator('[data-testid="kw-table"][data-rows="1"]').waitFor();
  f = await download(b, 'export-csv');
  assert.equal(f.name, 'keywords-US.csv');
  assert.doesNotMatch(f.text, /demo/i, 'a live export does not say demo');

  // History now holds both: partly demo; the live rows alone are not demo.
  await a.locator('[data-testid="history-table"] tbody tr', { hasText: 'live' }).first().waitFor({ timeout: 10_000 }).catch(() => {});
  await a.waitForFunction(() => document.querySelectorAll('[data-testid="history-table"] tbody tr').length >= 2);
  f = await download(a, 'history-export');
  assert.equal(f.name, 'partly-demo-history.csv', 'demo and live rows together');
  assert.match(f.first, /^Time,/);
  await a.getByTestId('history-mode').selectOption('live');
  f = await download(a, 'history-export');
  assert.equal(f.name, 'history.csv');
  assert.match(f.first, /^Time,/, 'the live rows: the header first');

  // Back to demo mode (tab B): the live rows still say nothing of demo.
  await b.getByTestId('nav-settings').click();
  await b.getByTestId('mode-demo').check();
  await a.waitForFunction(() => document.querySelector('[data-testid="mode"]')?.textContent?.startsWith('Demo'), null, { timeout: 10_000 });
  f = await download(a, 'history-export');
  assert.equal(f.name, 'history.csv', 'live rows exported in demo mode are not named demo');
  assert.match(f.first, /^Time,/);
  await shot(a, 'source-travels-history');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
});

test('a report says demo because its data came from demo, and a live one does not', { timeout: 120_000 }, async () => {
  const page = await app.open('/keywords');
  await research(page, ['report source one', 'report source two']);
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  let f = await download(page, 'export-report');
  assert.match(f.name, /^demo-keywords-US\.html$/);
  assert.match(f.text, /data-demo="true"/);
  assert.match(f.text, /<title>Demo data: /);

  await goLive(page, SANDBOX_KEY);
  await spaGo(page, '/keywords');
  await research(page, ['report source live']);
  await page.locator('[data-testid="kw-table"][data-rows="1"]').waitFor();
  f = await download(page, 'export-report');
  assert.equal(f.name, 'keywords-US.html');
  assert.doesNotMatch(f.text, /data-demo|Demo data/);
  assert.deepEqual(page.errors, []);
});
