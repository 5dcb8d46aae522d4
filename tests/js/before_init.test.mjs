// The browser and bundler entry (pkg/serpkit.js, no `init()` on import) before `init()`: every
// export that needs the wasm throws a `SerpkitError` `not_initialized` (not the glue's bare
// `TypeError`), the plain-JS ones work, and after `initSync` everything does. Run in a child
// process: the tests' own copy of the package is initialised (support.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const GLUE = new URL('../../pkg/serpkit.js', import.meta.url).href;
const WASM = fileURLToPath(new URL('../../pkg/serpkit_bg.wasm', import.meta.url));

const SCRIPT = `
import fs from 'node:fs';
import * as s from ${JSON.stringify(GLUE)};
const rel = { keyword: 'a', ccode: 'US' };
const attempts = {
  'new Client': () => new s.Client({ key: 'k' }),
  'new Client (budget text)': () => new s.Client({ key: 'k', budgetUsd: '2.50' }),
  'new Account': () => new s.Account({ budgetUsd: 1 }),
  estimateCost: () => s.estimateCost('related', rel),
  jsonSchema: () => s.jsonSchema('related'),
  'validateResponse (text)': () => s.validateResponse('related', '[]'),
  'validateResponse (value)': () => s.validateResponse('related', []),
  parseResponse: () => s.parseResponse('related', '[]'),
  responseSchema: () => s.responseSchema('related'),
};
const out = { before: {}, plain: {}, after: {} };
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    attempt();
    out.before[name] = 'no error';
  } catch (e) {
    out.before[name] = [e instanceof s.SerpkitError, s.isSerpkitError(e), e.name, e.code, e.message.includes('init()')];
  }
}
out.plain.operations = s.operations().length;
out.plain.cache = typeof new s.MemoryRecordCache().get;
s.initSync({ module: fs.readFileSync(${JSON.stringify(WASM)}) });
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    attempt();
    out.after[name] = 'ok';
  } catch (e) {
    out.after[name] = String(e);
  }
}
console.log(JSON.stringify(out));
`;

test('before init() every export that needs the wasm throws SerpkitError not_initialized', () => {
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8' }));
  for (const [name, result] of Object.entries(out.before)) {
    assert.deepEqual(result, [true, true, 'SerpkitError', 'not_initialized', true], name);
  }
  assert.ok(out.plain.operations > 0);
  assert.equal(out.plain.cache, 'function');
  for (const [name, result] of Object.entries(out.after)) assert.equal(result, 'ok', name);
});

// `init()` and `initSync()` that cannot load the wasm reject (throw) with a `SerpkitError`
// `init_failed` whose `cause` is what the platform threw: a missing `serpkit_bg.wasm` (the
// package copied without it: `init()`'s default URL; a URL answering 404) and bytes that are
// not the wasm. After a failure the glue still waits for a good `init`.
const FAILING = `
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serpkit-init-'));
for (const f of fs.readdirSync(${JSON.stringify(fileURLToPath(new URL('../../pkg/', import.meta.url)))})) {
  if (f !== 'serpkit_bg.wasm') fs.copyFileSync(path.join(${JSON.stringify(fileURLToPath(new URL('../../pkg/', import.meta.url)))}, f), path.join(dir, f));
}
const s = await import(pathToFileURL(path.join(dir, 'serpkit.js')).href);
const server = http.createServer((_, res) => res.writeHead(404).end('no such file')).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = 'http://127.0.0.1:' + server.address().port + '/serpkit_bg.wasm';
const out = {};
const seen = (e) => [e instanceof s.SerpkitError, s.isSerpkitError(e), e.name, e.code, e.cause !== undefined, /could not load its wasm/.test(e.message)];
for (const [name, attempt] of Object.entries({
  'init() without the wasm file': () => s.default(),
  'init(url answering 404)': () => s.default({ module_or_path: url }),
  'initSync(bytes that are not wasm)': async () => s.initSync({ module: new Uint8Array([0, 97, 115, 109, 9, 9]) }),
})) {
  try {
    await attempt();
    out[name] = 'no error';
  } catch (e) {
    out[name] = seen(e);
  }
}
server.close();
s.initSync({ module: fs.readFileSync(${JSON.stringify(WASM)}) });
out.after = s.estimateCost('related', { keyword: 'a', ccode: 'US' }).micros;
fs.rmSync(dir, { recursive: true });
console.log(JSON.stringify(out));
`;

test('init() and initSync() that cannot load the wasm fail with SerpkitError init_failed', () => {
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', FAILING], { encoding: 'utf8' }));
  const { after, ...failures } = out;
  assert.equal(Object.keys(failures).length, 3);
  for (const [name, result] of Object.entries(failures)) {
    assert.deepEqual(result, [true, true, 'SerpkitError', 'init_failed', true, true], name);
  }
  assert.equal(after, 150_000, 'a good initSync after the failures works');
});
