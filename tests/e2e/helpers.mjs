// Shared helpers of the app's end-to-end tests (node:test + playwright-core).
//
// Every test file starts with `const app = e2e()`: the served app and one Chromium for the
// file, and pages from `app.open(route, { live, context, init })` (a fresh browser profile
// each, optionally switched to the live service at the sandbox with a key and a budget) or
// `app.tabs(n)` (tabs of one profile). "Nothing else was sent" is proven by `quietLedger`:
// the ledger once no request to the sandbox is in flight, neither in the browser nor in the
// sandbox (its `/ledger` counts them), never by a fixed sleep.
//
// The app is served from dist/ (built by `cargo xtask e2e`) by a small server here that
// falls back to index.html for app routes, like Trunk's own server, so deep links and
// reloads of /lists or /keywords?... work. APP_URL (the xtask's plain static server) is
// used for nothing else than to know the build exists.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const OUT = process.env.TEST_OUTPUT || join(ROOT, 'test-output');
export const SANDBOX_URL = (process.env.SANDBOX_URL || '').replace(/\/$/, '');
export const SANDBOX_KEY = process.env.SANDBOX_KEY || 'sandbox-test-key';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

/**
 * Serves `dist` (default dist/) on a free loopback port; unknown paths get index.html.
 * `served` records every path answered and its content type.
 */
export async function serveApp(dist = DIST) {
  const served = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(dist, path));
    let body;
    let type = TYPES[extname(file)];
    if (file.startsWith(dist) && type) {
      body = await readFile(file).catch(() => null);
    }
    if (!body) {
      body = await readFile(join(dist, 'index.html'));
      type = TYPES['.html'];
    }
    served.push({ path, type });
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, served, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

/** Headless Chromium (Debian's, from $CHROMIUM). */
export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A fresh browser context as the tests use it (viewport, downloads). */
function newContext(browser, opts) {
  return browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true, ...opts });
}

/** A page on a fresh context (see `newTab`). Files set up by `e2e()` use `app.open`. */
export async function newPage(browser, opts = {}) {
  return newTab(await newContext(browser, opts));
}

/** Opens an app route and waits for the stored workspace to be loaded. */
export async function open(page, base, route = '/') {
  await page.goto(base + route);
  await page.locator('main[data-loaded="true"]').waitFor();
}

/**
 * The one set-up of an e2e test file: the app served from dist/ and one headless Chromium,
 * started before the file's tests and closed after them (node:test hooks; closing the
 * browser closes every page). Returns `app`:
 * - `app.url` (the served app), `app.served` (every path it answered), `app.browser`;
 * - `app.open(route = '/keywords', { live, context, init })`: a page on a fresh browser
 *   profile (context `context`: Playwright's options), `init` scripts added before the first
 *   load, `route` opened; with `live` (a key, or `{ key, budget, remember }`, or `true` for
 *   the sandbox's key) switched to the live service at the sandbox (`goLive`: the page is
 *   then on Settings);
 * - `app.tabs(n, { context })`: `n` pages of ONE new profile, none opened yet: they share
 *   IndexedDB, localStorage, Web Locks and BroadcastChannel as tabs of a profile do;
 * - `app.goto(page, route, { live })`: `route` in an existing page (a reload), then `live`.
 */
export function e2e() {
  const t = {
    /** The static server (`url`, `served`, `close`). */
    app: null,
    browser: null,
    get url() {
      return t.app.url;
    },
    get served() {
      return t.app.served;
    },
    async open(route = '/keywords', { live, context = {}, init = [] } = {}) {
      await start();
      const page = await newTab(await newContext(t.browser, context));
      for (const script of [init].flat()) await page.addInitScript(script);
      await t.goto(page, route, { live });
      return page;
    },
    async tabs(n, { context = {} } = {}) {
      await start();
      const profile = await newContext(t.browser, context);
      const pages = [];
      for (let i = 0; i < n; i++) pages.push(await newTab(profile));
      return pages;
    },
    async goto(page, route, { live } = {}) {
      await start();
      await open(page, t.app.url, route);
      if (live) await goLive(page, live);
    },
  };
  // Started once, by the first of this hook and the file's own hooks (node:test may run a
  // file's root `before` hooks side by side).
  let started = null;
  const start = () => {
    started ??= (async () => {
      t.app = await serveApp();
      t.browser = await launch();
    })();
    return started;
  };
  before(start);
  after(async () => {
    await started?.catch(() => {});
    await t.browser?.close();
    await t.app?.close();
  });
  return t;
}

/**
 * Switches the app to the live service at the sandbox (Settings page; the page stays there).
 * `live`: the key, or `{ key = SANDBOX_KEY, budget = '', remember = false }`, or `true`.
 * Without `remember` the key lives in the page's memory only: go on with `spaGo`, since a
 * reload forgets it; with it, the key is stored on the device and a reload (or another tab
 * of the profile) keeps it.
 */
export async function goLive(page, live) {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const { key = SANDBOX_KEY, budget = '', remember = false } = typeof live === 'object' ? live : { key: live === true ? SANDBOX_KEY : live };
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('mode-live').check();
  await page.getByTestId('base-url').fill(SANDBOX_URL);
  await page.getByTestId('base-url').press('Tab');
  await page.getByTestId('api-key').fill(key);
  await page.getByTestId('budget').fill(budget);
  await page.getByTestId('budget').press('Tab');
  if (remember) {
    await page.getByTestId('remember-key').check();
    await saved(page);
  }
}

/** Goes to an app route without reloading the page (the key set in Settings lives in
 * memory only, and a reload forgets it): pushState + popstate, which the router follows. */
export async function spaGo(page, route) {
  await page.evaluate((r) => {
    history.pushState(null, '', r);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, route);
  // (The explorer may add its inputs to the URL at once: the path is what must match.)
  await page.waitForURL((u) => u.pathname === new URL(route, 'http://x').pathname);
  await page.locator('main[data-loaded="true"]').waitFor();
}

/** Waits until the content gap is computed from every domain (it shows while some load). */
export async function gapLoaded(page, timeout = 60000) {
  await page.getByTestId('gap').waitFor({ timeout });
  await page.getByTestId('gap-partial').waitFor({ state: 'detached', timeout });
}

/** Waits until every write reached IndexedDB. */
export async function saved(page) {
  await page.locator('[data-testid="save-state"][data-saved="true"]').waitFor();
}

/** Saves a screenshot under $TEST_OUTPUT/screenshots/. */
export async function shot(page, name, fullPage = true) {
  const dir = join(OUT, 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/** Saves a screenshot of one element under $TEST_OUTPUT/screenshots/. */
export async function shotEl(locator, name) {
  const dir = join(OUT, 'screenshots');
  await mkdir(dir, { recursive: true });
  await locator.screenshot({ path: join(dir, `${name}.png`) });
}

/** Writes a JSON file under $TEST_OUTPUT/. */
export async function record(name, data) {
  await mkdir(OUT, { recursive: true });
  await writeFile(join(OUT, name), JSON.stringify(data, null, 2));
}

/** `$0.0300` → 300 (micro-dollars... in units of $0.0001 × 100): exact integer micros. */
export function micros(text) {
  const m = /\$(\d+)\.(\d+)/.exec(text || '');
  if (!m) throw new Error(`no dollar amount in ${JSON.stringify(text)}`);
  const frac = (m[2] + '000000').slice(0, 6);
  return Number(m[1]) * 1_000_000 + Number(frac);
}

/** Numbers shown in a table column (`1,234` → 1234, `$1.20` → 1.2). */
export async function column(page, col) {
  const texts = await page.locator(`[data-testid="kw-table"] tbody td[data-col="${col}"]`).allTextContents();
  return texts.map((t) => Number(t.replace(/[$,%+]/g, '')));
}

/** Keywords of the visible table rows. */
export async function rowIds(page, table = 'kw-table') {
  return page.locator(`[data-testid="${table}"] tbody tr[data-testid="row"]`).evaluateAll((rows) => rows.map((r) => r.dataset.id));
}

/** Enters keywords in the explorer (`enterLines`) and runs them; returns the price shown before. */
export async function research(page, keywords, { country } = {}) {
  await enterLines(page.getByTestId('kw-input'), keywords);
  if (country) await page.getByTestId('country').selectOption(country);
  const run = page.getByTestId('run');
  await run.waitFor();
  const price = await run.getAttribute('data-price');
  const text = await run.textContent();
  await run.click();
  return { price, text };
}

/** Above this many lines `enterLines` pastes rather than types. */
const PASTE_FROM = 100;

/**
 * Puts `lines` into a textarea as a user would: a short list is typed (`fill`), a long one
 * pasted (select all, then Ctrl+V from the clipboard). Chromium runs a paste as one edit, but
 * Playwright's `fill` inserts text line by line, in time quadratic in the lines: 1,500
 * keywords took 35 s in the app's textarea (8 s in a bare page) against 0.4 s for the paste,
 * and timed out on a slow CI machine. The textarea's value is checked afterwards.
 */
export async function enterLines(locator, lines) {
  const text = lines.join('\n');
  if (lines.length <= PASTE_FROM) {
    await locator.fill(text);
    return;
  }
  const page = locator.page();
  const origin = new URL(page.url()).origin;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await locator.focus();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  const value = await locator.inputValue();
  if (value !== text) {
    throw new Error(`paste into the textarea: ${value.length} characters, expected ${text.length}`);
  }
}

/** Sandbox server ledger (`in_flight`: requests it is still answering). */
export async function ledger() {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const r = await fetch(`${SANDBOX_URL}/ledger`);
  return r.json();
}

/**
 * The sandbox ledger once nothing is on its way: no request of `pages` to the sandbox
 * unfinished in the browser (`newTab` tracks them; a preflight is part of its request) and
 * none the sandbox received still being answered (`in_flight` of its `/ledger`, read before
 * the entries). Call it once the page shows that what it did is done: a request that action
 * made is then in the ledger, so "no further call was made" is asserted on what this returns.
 * Throws after `timeout` ms, naming what is still in flight.
 */
export async function quietLedger(pages = [], timeout = 20000) {
  const tabs = [pages].flat();
  const unfinished = () => tabs.flatMap((p) => [...p.sandboxRequests].map((r) => `${r.method()} ${r.url()}`));
  const end = Date.now() + timeout;
  for (;;) {
    let l = null;
    if (unfinished().length === 0) {
      l = await ledger();
      if (l.in_flight === 0 && unfinished().length === 0) return l;
    }
    if (Date.now() > end) {
      throw new Error(`the sandbox is not quiet after ${timeout} ms: in the browser ${JSON.stringify(unfinished())}, at the sandbox ${l?.in_flight ?? '?'}`);
    }
    await new Promise((r) => setTimeout(r, 50)); // the polling interval, not a wait for something
  }
}

/** Clears the sandbox server ledger. */
export async function resetLedger() {
  const r = await fetch(`${SANDBOX_URL}/ledger/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (r.status !== 200) throw new Error(`POST /ledger/reset: ${r.status}`);
}

/** Parses CSV text (quotes, doubled quotes, CRLF; the app's leading UTF-8 byte-order mark skipped).
 * The header is line 1, as every spreadsheet reads it (issue 54: a demo notice above it was
 * taken as the header); a file that starts with such a notice fails every test that reads it.
 * Demo files say so in their name (`demo-…`). */
export function parseCsv(text) {
  const rows = parseCsvRows(text);
  if (rows.length && rows[0].length === 1 && /demo data/i.test(rows[0][0])) {
    throw new Error(`a notice above the CSV header: ${rows[0][0]}`);
  }
  return rows;
}

function parseCsvRows(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let q = false;
  for (let i = text.startsWith('\ufeff') ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') q = false; else cell += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else if (c !== '\r') cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// ---------------------------------------------------------------------------------------
// Two tabs of one browser profile, the meter and the ledger over time: the purchase
// journal's tests (tests/e2e/journal*.test.mjs).

/**
 * A page (tab) in `context`: page errors (`page.errors`), console lines (`page.logs`, the
 * errors among them also in `page.consoleErrors`) kept, and its requests to the sandbox not
 * finished yet (`page.sandboxRequests`, for `quietLedger`).
 */
export async function newTab(context) {
  const page = await context.newPage();
  page.errors = [];
  page.logs = [];
  page.consoleErrors = [];
  page.sandboxRequests = new Set();
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    page.logs.push(m.text());
    if (m.type() === 'error') page.consoleErrors.push(m.text());
  });
  page.on('request', (r) => {
    if (SANDBOX_URL && r.url().startsWith(SANDBOX_URL + '/')) page.sandboxRequests.add(r);
  });
  for (const done of ['requestfinished', 'requestfailed']) page.on(done, (r) => page.sandboxRequests.delete(r));
  // A closed page sends nothing more.
  page.on('close', () => page.sandboxRequests.clear());
  page.setDefaultTimeout(20000);
  return page;
}

/** The header's meter in micro-dollars: `spend` and `possibly-charged` (0 when not shown). */
export async function meter(page) {
  const spend = micros(await page.getByTestId('spend').textContent());
  const shown = await page.getByTestId('possibly-charged').count();
  const possible = shown ? micros(await page.getByTestId('possibly-charged').textContent()) : 0;
  return { spend, possible };
}

/** Polls `probe()` until `done(value)` holds or `timeout` ms pass; returns the last value. */
export async function until(probe, done, timeout = 15000, every = 150) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The demo ledger `page` shows, in micros, once `done(micros)` holds (or after `timeout` ms:
 * the caller asserts). The meter is set when the call's commit is read back, which can be a
 * frame after its table shows: an assertion on a new charge waits for it. */
export function shownLedger(page, done = () => true, timeout = 10000) {
  return until(async () => micros(await page.getByTestId('ledger').textContent()), done, timeout);
}

/** The sandbox ledger once `done(ledger)` holds (or after `timeout` ms: the caller asserts). */
export function ledgerUntil(done, timeout = 15000) {
  return until(ledger, done, timeout);
}

/** Sum of `units` of the ledger's charged (200) entries. */
export function chargedUnits(l) {
  return l.entries.filter((e) => e.status === 200).reduce((n, e) => n + e.units, 0);
}

/**
 * Asserts that the meter of every page in `pages` settles at the sandbox ledger's total
 * (`spend` + `possibly-charged` = ledger total; the meter follows a call's end, so it is
 * polled) and returns the meters.
 */
export async function meterEqualsLedger(pages, what = '') {
  const total = micros('$' + (await ledger()).total);
  const out = [];
  for (const page of [pages].flat()) {
    const m = await until(() => meter(page), (m) => m.spend + m.possible === total, 10000);
    if (m.spend + m.possible !== total) {
      throw new Error(`${what}: meter spend ${m.spend} + possibly charged ${m.possible} µ$ != ledger total ${total} µ$`);
    }
    out.push(m);
  }
  return out;
}
