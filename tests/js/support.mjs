// Shared set-up of the Node tests: loads the built package (pkg/, from `cargo xtask pkg`)
// synchronously, and talks to the sandbox server named by SANDBOX_URL.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import * as serpkit from '../../pkg/serpkit.js';

const wasmPath = new URL('../../pkg/serpkit_bg.wasm', import.meta.url);
if (!fs.existsSync(wasmPath)) {
  throw new Error('pkg/serpkit_bg.wasm is missing: run `cargo xtask pkg` first');
}
// wasm-bindgen 0.2.130: initSync({ module }) takes bytes or a WebAssembly.Module.
serpkit.initSync({ module: fs.readFileSync(wasmPath) });

export { serpkit };

/** An environment variable the sandbox tests need; a clear failure when it is missing. */
export function env(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(
      `${name} is not set: run these tests with \`cargo xtask js\`, or start the sandbox ` +
        '(`cargo run -p sandbox -- --port 0 --key sandbox-test-key --key poor-test-key:0.50`) ' +
        'and set SANDBOX_URL, SANDBOX_KEY=sandbox-test-key and SANDBOX_POOR_KEY=poor-test-key',
    );
  }
  return v;
}

export const sandbox = {
  get url() {
    return env('SANDBOX_URL').replace(/\/+$/, '');
  },
  get key() {
    return env('SANDBOX_KEY');
  },
  get poorKey() {
    return env('SANDBOX_POOR_KEY');
  },
  async ledger() {
    const r = await fetch(`${this.url}/ledger`);
    assert.equal(r.status, 200);
    return r.json();
  },
  async reset() {
    const r = await fetch(`${this.url}/ledger/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(r.status, 200, 'POST /ledger/reset');
  },
};

/** Asserts `fn()` throws (or `fn` rejects) a SerpkitError with `code`; returns the error. */
export async function expectError(fnOrPromise, code) {
  let error;
  try {
    await (typeof fnOrPromise === 'function' ? fnOrPromise() : fnOrPromise);
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a SerpkitError ${code}, but nothing was thrown`);
  assert.ok(error instanceof Error, 'errors are Error instances');
  assert.equal(error.name, 'SerpkitError', String(error));
  assert.equal(error.code, code, `code of: ${error.message}`);
  assert.equal(typeof error.message, 'string');
  return error;
}

/** The 12 monthly entries ending March 2024, each `value` = `count` = v. */
export function months(v = 100) {
  const names = ['April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
    'December', 'January', 'February', 'March'];
  return names.map((month, i) => {
    const year = i < 9 ? 2023 : 2024;
    return { month, year, value: v, count: v, date: `${year}-${month}` };
  });
}

export function volumeRecord(keyword, ccode = 'us') {
  return {
    ccode,
    keyword,
    AVERAGE_CPC: 1.25,
    COMPETITION: 0.5,
    SEARCH_VOLUME: 100,
    TARGETED_MONTHLY_SEARCHES: months(),
  };
}

export const isMoney = (m) =>
  m !== null &&
  typeof m === 'object' &&
  Object.keys(m).sort().join() === 'display,micros,usd' &&
  Number.isInteger(m.micros) &&
  typeof m.usd === 'number' &&
  /^\$\d+\.\d{4,}$/.test(m.display);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Serves the repository's `www/` and `pkg/` on a free loopback port (for pages in Chromium). */
export function serveRepo() {
  const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    const file = path.join(ROOT, p.endsWith('/') ? `${p}index.html` : p);
    if (!(p.startsWith('www/') || p.startsWith('pkg/')) || !file.startsWith(ROOT) || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Debian's Chromium, headless (from $CHROMIUM), through playwright-core. */
export function launchChromium() {
  const { chromium } = createRequire(import.meta.url)('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}
