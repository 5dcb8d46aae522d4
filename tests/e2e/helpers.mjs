// Shared helpers of the app's end-to-end tests (node:test + playwright-core).
//
// The app is served from dist/ (built by `cargo xtask e2e`) by a small server here that
// falls back to index.html for app routes, like Trunk's own server, so deep links and
// reloads of /lists or /keywords?... work. APP_URL (the xtask's plain static server) is
// used for nothing else than to know the build exists.

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

/** A page on a fresh context; console errors are collected in `page.errors`. */
export async function newPage(browser, opts = {}) {
  return newTab(await newContext(browser, opts));
}

/** Opens an app route and waits for the stored workspace to be loaded. */
export async function open(page, base, route = '/') {
  await page.goto(base + route);
  await page.locator('main[data-loaded="true"]').waitFor();
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

/** Sandbox server ledger. */
export async function ledger() {
  const r = await fetch(`${SANDBOX_URL}/ledger`);
  return r.json();
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

/** Parses CSV text (quotes, doubled quotes, CRLF; the app's leading UTF-8 byte-order mark skipped). */
export function parseCsv(text) {
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

/** A page (tab) in `context`: page errors (`page.errors`) and console lines kept. */
export async function newTab(context) {
  const page = await context.newPage();
  page.errors = [];
  page.logs = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => page.logs.push(m.text()));
  page.setDefaultTimeout(20000);
  return page;
}

/**
 * Two tabs (two pages of ONE browser context): they share IndexedDB, localStorage, Web Locks
 * and BroadcastChannel, as two tabs of one browser profile do. Neither is opened yet (open
 * `a` first when `b` should start from what `a` set).
 */
export async function twoTabs(browser, opts = {}) {
  const context = await newContext(browser, opts);
  const a = await newTab(context);
  const b = await newTab(context);
  return { context, a, b };
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
