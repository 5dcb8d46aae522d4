// Performance: 1,000 keywords in demo mode from clicking Run to the rendered table, and the
// first-load size of the app (wasm + JS + CSS the browser fetches to open it, gzipped; the demo
// sandbox's worker is fetched on the first demo call), and the IndexedDB transactions a bulk
// job costs (one per chunk). Figures go to $TEST_OUTPUT/perf.json.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { e2e, open, shot, record, enterLines, DIST, micros, shownLedger } from './helpers.mjs';

const app = e2e();
let page;
const figures = {};
before(async () => {
  [page] = await app.tabs(1);
});
after(async () => {
  await record('perf.json', figures);
});

test('first load: wasm + JS + CSS gzipped; other pages, the call code and the demo worker come later', async () => {
  const [fresh] = await app.tabs(1);
  const fetched = new Set();
  fresh.on('request', (r) => fetched.add(new URL(r.url()).pathname.slice(1)));
  await app.goto(fresh, '/');
  await fresh.waitForLoadState('networkidle');
  // dist/ holds Trunk's files and, in dist/app/, the app's wasm split per page.
  const files = (await readdir(DIST, { recursive: true })).filter((f) => /\.(wasm|js|css)$/.test(f));
  const first = files.filter((f) => fetched.has(f));
  assert.ok(first.includes('app/app_bg.wasm'), `first load fetched ${[...fetched]}`);
  assert.ok(first.includes('app/split_pages_explorer.wasm'), 'the landing page\'s chunk');
  for (const later of ['sandbox-worker', 'app/split_pages_domains', 'app/split_pages_keyword', 'app/split_call_service']) {
    assert.ok(!first.some((f) => f.startsWith(later)), `${later} is not part of the first load`);
  }
  let total = 0;
  figures.gzip_bytes = {};
  for (const f of first) {
    const n = gzipSync(await readFile(join(DIST, f)), { level: 9 }).length;
    figures.gzip_bytes[f.replace(/-[0-9a-f]{16}/, '')] = n;
    total += n;
  }
  figures.gzip_total_bytes = total;
  figures.first_load_files = first.length;
  // The goal (ARCHITECTURE.md, Dependencies): at most 400 KiB gzipped.
  assert.ok(total <= 400 * 1024, `first load ${total} bytes gzipped`);
  // The first demo call fetches the code that makes calls and starts the worker.
  await fresh.goto(app.url + '/keywords');
  await fresh.locator('main[data-loaded="true"]').waitFor();
  await fresh.getByTestId('kw-input').fill('trail shoes');
  await fresh.getByTestId('run').click();
  await fresh.locator('[data-testid="kw-table"][data-rows="1"]').waitFor();
  assert.ok(fetched.has('app/split_call_service.wasm'), 'the first call loads the call code');
  assert.ok(fetched.has('sandbox-worker_bg.wasm'), 'the first demo call loads the worker');
  await fresh.context().close();
});

test('1,000 keywords in demo mode: Run to rendered table', async () => {
  const words = ['running', 'trail', 'shoes', 'socks', 'marathon', 'plan', 'best', 'cheap', 'women', 'men'];
  const kws = [];
  for (let i = 0; kws.length < 1000; i++) kws.push(`${words[i % 10]} ${words[Math.floor(i / 10) % 10]} ${i}`);
  await open(page, app.url, '/keywords');
  await enterLines(page.getByTestId('kw-input'), kws);
  assert.equal(await page.getByTestId('run').textContent(), 'Run — $0.3000 for 1000 keywords');
  await page.evaluate(() => {
    window.__t0 = 0;
    window.__t1 = 0;
    document.addEventListener('click', (e) => {
      if (e.target.closest('[data-testid="run"]')) window.__t0 = performance.now();
    }, true);
    new MutationObserver((_, obs) => {
      const t = document.querySelector('[data-testid="kw-table"][data-rows="1000"]');
      if (t && t.querySelectorAll('tbody tr').length === 100) {
        window.__t1 = performance.now();
        obs.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await page.getByTestId('run').click();
  await page.locator('[data-testid="kw-table"][data-rows="1000"]').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => window.__t1 > 0);
  const ms = await page.evaluate(() => window.__t1 - window.__t0);
  figures.run_to_table_1000_ms = Math.round(ms);
  figures.app_reported = await page.getByTestId('timing').textContent();
  assert.equal(await shownLedger(page, (m) => m === micros('$0.3000')), micros('$0.3000'));
  assert.equal(await page.getByTestId('page-info').textContent(), 'Rows 1–100 of 1,000');
  assert.ok(ms < 10000, `${ms} ms`);
  await shot(page, 'explorer-1000', false);
});

test('a bulk job costs one IndexedDB transaction per chunk: each next chunk is written ahead in the commit of the chunk whose answer freed its place', async () => {
  const [tab] = await app.tabs(1);
  await tab.addInitScript(() => {
    window.__tx = [];
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (names, mode) {
      window.__tx.push([[].concat(names).map(String).sort().join('+'), mode || 'readonly']);
      return open.apply(this, arguments);
    };
  });
  await open(tab, app.url, '/keywords');
  const kws = Array.from({ length: 1000 }, (_, i) => `batched write ${i}`);
  await enterLines(tab.getByTestId('kw-input'), kws);
  await tab.evaluate(() => { window.__tx.length = 0; });
  await tab.getByTestId('run').click();
  await tab.locator('[data-testid="kw-table"][data-rows="1000"]').waitFor({ timeout: 60000 });
  await tab.locator('[data-testid="progress"]').waitFor({ state: 'detached' });
  const writes = (await tab.evaluate(() => window.__tx)).filter(([, mode]) => mode === 'readwrite');
  const journal = writes.filter(([names]) => names.split('+').includes('journal'));
  const alone = journal.filter(([names]) => names === 'journal');
  const commits = journal.filter(([names]) => names.split('+').includes('records'));
  // 5 chunks of 200: 5 commits (entry + records); the first two chunks leave together and
  // are written ahead in one transaction, every later one inside a commit (the machine's
  // commits of one turn share it: if it fails, the settle is kept and written again and
  // the write-ahead sends nothing).
  assert.equal(commits.length, 5, JSON.stringify(writes));
  assert.equal(alone.length, 1, JSON.stringify(writes));
  assert.equal(await shownLedger(tab, (m) => m === micros('$0.3000')), micros('$0.3000'));
  // Every chunk was kept: after a reload the list and one more keyword price that one only.
  await app.goto(tab, '/keywords');
  await enterLines(tab.getByTestId('kw-input'), [...kws, 'one more keyword']);
  await tab.waitForFunction(() => /for 1 new keyword · 1,?000 already bought/.test(document.querySelector('[data-testid="run"]')?.textContent || ''));
  await tab.context().close();
});
