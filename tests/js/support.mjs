// Shared set-up of the Node tests: loads the built package (pkg/, from `cargo xtask pkg`)
// synchronously, and talks to the sandbox server named by SANDBOX_URL.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
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
  // An abort is named as Node's and fetch's are (client_options.js).
  assert.equal(error.name, code === 'aborted' ? 'AbortError' : 'SerpkitError', String(error));
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

/**
 * The page of the bundler tests (`src/main.js`): `init()`, validation of a text and a parsed
 * value, a call to the sandbox (`?key=&base=`) and a `SerpkitError` caught; it leaves
 * `window.__result` (`failure` when anything threw).
 */
const BUNDLER_MAIN = `
import init, { Client, validateResponse, SerpkitError, isSerpkitError } from 'serpkit';
const out = { ok: true };
try {
  await init();
  const params = new URLSearchParams(location.search);
  const text = '[{"keyword":"x","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]';
  out.text = validateResponse('related', text).errors.map((i) => i.path + ' ' + i.code);
  out.value = validateResponse('related', JSON.parse(text)).errors.map((i) => i.path + ' ' + i.code);
  const client = new Client({ key: params.get('key'), baseUrl: params.get('base'), retries: 0 });
  const reply = await client.related({ keyword: 'trail shoes', ccode: 'US' });
  out.call = { ok: reply.report.ok, records: reply.data.length, charge: reply.charge.display };
  try {
    await client.related({ keyword: 'x' });
  } catch (e) {
    out.error = [e instanceof SerpkitError, isSerpkitError(e), e.code];
  }
} catch (e) {
  out.ok = false;
  out.failure = String((e && e.stack) || e);
}
window.__result = out;
`;

/**
 * A fresh project in a temporary directory (`prefix`) with the bundler page in `src/main.js`
 * and pkg/ as `node_modules/serpkit`: a copy when `copy` (as npm installs it), else a link.
 */
export function bundlerProject(prefix, { copy = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const serpkitDir = path.join(dir, 'node_modules', 'serpkit');
  fs.mkdirSync(path.dirname(serpkitDir));
  if (copy) {
    fs.cpSync(path.join(ROOT, 'pkg'), serpkitDir, { recursive: true });
  } else {
    fs.symlinkSync(path.join(ROOT, 'pkg'), serpkitDir, 'dir');
  }
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'main.js'), BUNDLER_MAIN);
  return dir;
}

/** The bundler page's result when everything worked, the error included. */
export function assertBundlerPageWorks(result) {
  assert.equal(result.ok, true, result.failure);
  assert.deepEqual(result.text, ['/0/kd type']);
  assert.deepEqual(result.value, ['/0/kd type']);
  assert.deepEqual(result.call, { ok: true, records: result.call.records, charge: '$0.1500' });
  assert.ok(result.call.records > 0);
  assert.deepEqual(result.error, [true, true, 'invalid_request']);
}
