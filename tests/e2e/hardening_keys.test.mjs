// Key safety: with the test key in live mode, every view and every export is
// driven, and the key appears in no URL (navigations, requests, history entries), no console
// message, no downloaded file, no error text, no DOM (the key field holds it as a property,
// never as markup), and nowhere in browser storage unless "remember on this device" is
// ticked (then only under serpkit.apiKey), and is gone again when it is unticked.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, saved, spaGo, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';
import { storageDump } from './hardening_support.mjs';

// The recognisable part of every key used below (fault suffixes keep it).
const KEY = SANDBOX_KEY;
const WRONG = `${KEY}-WRONG-0xDEADBEEF`;
const secrets = [KEY, WRONG];

const app = e2e();
let page;
const urls = [];
/** Every download of the page as it is read: `{ name, text }` promises, in order. */
const downloads = [];
const domTexts = [];

before(async () => {
  assert.ok(KEY.length >= 8, 'a recognisable key');
  [page] = await app.tabs(1);
  page.on('request', (r) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  page.on('download', (d) => downloads.push(d.path().then(async (path) => ({ name: d.suggestedFilename(), text: await readFile(path, 'utf8') }))));
});

/** Keeps the whole DOM, the visible text, the URL and the history entries of this moment. */
async function snapshot(label) {
  const s = await page.evaluate(() => ({
    html: document.documentElement.outerHTML,
    text: document.body.innerText,
    url: location.href,
    title: document.title,
  }));
  domTexts.push({ label, ...s });
  urls.push(s.url);
}

function assertNoKey(what, text) {
  for (const k of secrets) assert.ok(!String(text).includes(k), `the key is in ${what}: …${String(text).slice(Math.max(0, String(text).indexOf(k) - 80), String(text).indexOf(k) + 40)}…`);
}

/** Clicks and returns the file it downloads, read (the listener above reads every one). */
async function download(click) {
  const n = downloads.length;
  await Promise.all([page.waitForEvent('download'), click()]);
  return downloads[n];
}

test('every view and export in live mode: the key is in no URL, log, file, DOM or error text', async () => {
  await app.goto(page, '/keywords', { live: KEY });
  await snapshot('settings');

  // Explorer, CSV.
  await page.getByTestId('nav-keywords').click();
  await page.getByTestId('kw-input').fill('key probe one\nkey probe two\nkey probe three');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  await snapshot('explorer');
  const csv = await download(() => page.getByTestId('export-csv').click());
  assert.match(csv.text, /key probe one/);

  // Keyword detail, every section.
  await spaGo(page, '/keyword?kw=key%20probe%20one&cc=US');
  await page.getByTestId('run-all').click();
  for (const id of ['outline', 'videos', 'posts', 'related-table']) await page.getByTestId(id).waitFor();
  await snapshot('keyword');
  // Add to a list, lists page.
  await page.getByTestId('related-table').locator('tbody input[type="checkbox"]').first().check();
  await page.getByTestId('nav-lists').click();
  await snapshot('lists');

  // Domain views, their CSV exports.
  await spaGo(page, '/domains');
  await page.getByTestId('domains-input').fill('example.com\nexample.org');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="domain-card"]').nth(1).waitFor();
  await snapshot('domains');
  await spaGo(page, '/domain?d=size-300.example.com&tab=overview');
  await page.getByTestId('run-all').click();
  await page.getByTestId('tab-keywords').click();
  await page.getByTestId('rk-table').waitFor();
  await download(() => page.getByTestId('rk-export').click());
  await page.getByTestId('tab-backlinks').click();
  await page.getByTestId('backlink-overview').waitFor();
  await download(() => page.getByTestId('nl-export').click());
  await snapshot('domain');
  await spaGo(page, '/domain/pages?u=' + encodeURIComponent('https://example.com/a'));
  await page.getByTestId('run').click();
  await page.getByTestId('pages-table').waitFor();
  await download(() => page.getByTestId('export-csv').click());
  await spaGo(page, '/domain/compare?d=example.com,example.org');
  await page.getByTestId('run-all').click();
  await page.getByTestId('cmp-stats').waitFor();
  await snapshot('compare');

  // Errors: a refused key, a fault answer, a broken answer, each from a Refresh on the
  // keyword page (reached without a reload, so the key set in Settings stays in memory).
  await spaGo(page, '/keyword?kw=key%20probe%20one&cc=US');
  await page.getByTestId('nav-settings').click();
  for (const [key, code] of [[WRONG, 'http'], [`${KEY}+server_error`, 'http'], [`${KEY}+not_json`, 'not_json']]) {
    await page.getByTestId('api-key').fill(key);
    await spaGo(page, '/keyword?kw=key%20probe%20one&cc=US');
    const section = page.getByTestId('section-related');
    await section.getByTestId('refresh').click();
    await section.getByTestId('refresh-again').click();
    const err = section.getByTestId('error');
    await err.waitFor();
    assert.equal(await err.getAttribute('data-code'), code);
    assertNoKey(`the error text (${code})`, await err.innerText());
    await snapshot(`error-${code}`);
    await page.getByTestId('nav-settings').click();
  }
  await page.getByTestId('api-key').fill(KEY);

  // History, settings, workspace export.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-table').waitFor();
  await snapshot('history');
  await page.getByTestId('nav-settings').click();
  const ws = await download(() => page.getByTestId('export-workspace').click());
  const doc = JSON.parse(ws.text);
  assert.equal(doc.format, 'serpkit-workspace');
  assert.ok(doc.results.length >= 8, 'the export holds the results bought above');
  await snapshot('settings-end');
  await saved(page);

  // The verdict.
  assert.ok(urls.some((u) => u.startsWith(SANDBOX_URL)), 'calls went to the sandbox');
  for (const u of urls) assertNoKey(`a URL (${u.slice(0, 80)})`, u);
  for (const m of page.logs) assertNoKey('a console message', m);
  for (const e of page.errors) assertNoKey('a page error', e);
  const files = await Promise.all(downloads);
  assert.ok(files.length >= 5, `downloads: ${files.map((d) => d.name)}`);
  for (const d of files) assertNoKey(`the file ${d.name}`, d.text);
  for (const s of domTexts) {
    assertNoKey(`the DOM of ${s.label}`, s.html);
    assertNoKey(`the text of ${s.label}`, s.text);
    assertNoKey(`the title of ${s.label}`, s.title);
  }
  const stored = await storageDump(page);
  assert.ok(Object.keys(stored.idb.serpkit.results).length >= 8, 'results are stored');
  assertNoKey('browser storage (not remembered)', JSON.stringify(stored));
});

test('"remember on this device": the key only under serpkit.apiKey; unticking removes it', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(KEY);
  await page.getByTestId('remember-key').check();
  await saved(page);
  let stored = await storageDump(page);
  assert.equal(stored.local['serpkit.apiKey'], KEY);
  const rest = { ...stored, local: { ...stored.local, 'serpkit.apiKey': undefined } };
  assertNoKey('storage other than serpkit.apiKey', JSON.stringify(rest));

  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.getByTestId('nav-settings').click();
  assert.equal(await page.getByTestId('api-key').inputValue(), KEY, 'remembered across a reload');
  assertNoKey('the DOM of settings (remembered)', await page.evaluate(() => document.documentElement.outerHTML));

  await page.getByTestId('remember-key').uncheck();
  await saved(page);
  stored = await storageDump(page);
  assert.equal(stored.local['serpkit.apiKey'], undefined);
  assertNoKey('browser storage after unticking', JSON.stringify(stored));
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.getByTestId('nav-settings').click();
  assert.equal(await page.getByTestId('api-key').inputValue(), '', 'forgotten after a reload');
  assertNoKey('browser storage after the reload', JSON.stringify(await storageDump(page)));
  for (const u of urls) assertNoKey(`a URL (${u.slice(0, 80)})`, u);
  for (const m of page.logs) assertNoKey('a console message', m);
});
