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
