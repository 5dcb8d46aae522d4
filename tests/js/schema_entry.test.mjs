// `serpkit/schema` (pkg/schema.js): the schema-only entry, with no wasm. It works without
// `init()` in Node and in a Chromium page (which never fetches the wasm), reads operation
// names as the core does, and gives the main entry's report for every body the rule tests
// check ($BREAKING_CORPUS under `cargo xtask js`). Its size is in tests/size/check.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { serpkit, serveRepo, launchChromium } from './support.mjs';
import * as schema from '../../pkg/schema.js';

const SCHEMA = new URL('../../pkg/schema.js', import.meta.url).href;
const RELATED_OK = [{ keyword: 'a', competition: 0.4, cpc: 1.2, search_volume: 90, kd: 7 }];
const RELATED_BAD = [{ keyword: 'a', competition: 0.4, cpc: 1.2, search_volume: 90, kd: '7' }];

/** What a thrown error says: `[name, code]`, or `ok`. */
function outcome(fn) {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return [e.name, e.code];
  }
}

test('Node, a process that never loads the wasm: validate, Standard Schema, JSON Schema, no init()', () => {
  const script = `
    import * as s from ${JSON.stringify(SCHEMA)};
    const ok = ${JSON.stringify(RELATED_OK)};
    const bad = ${JSON.stringify(RELATED_BAD)};
    const std = s.responseSchema('related')['~standard'];
    console.log(JSON.stringify({
      ok: s.validateResponse('related', ok).ok,
      bad: s.validateResponse('/v1/related', bad).errors.map((e) => [e.path, e.code]),
      std: [std.validate(ok).issues, std.validate(bad).issues.map((i) => i.path)],
      draft: std.jsonSchema.input({ target: 'draft-07' }).$schema,
      schema: s.jsonSchema('related').type,
      ops: s.operations().length,
      error: (() => { try { s.validateResponse('nope', []); } catch (e) { return [e instanceof s.SerpkitError, e.code]; } })(),
    }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.deepEqual(out, {
    ok: true,
    bad: [['/0/kd', 'type']],
    std: [null, [[0, 'kd']]],
    draft: 'http://json-schema.org/draft-07/schema#',
    schema: 'array',
    ops: 11,
    error: [true, 'unknown_operation'],
  });
});

test('operation names are read as the core reads them (the main entry\'s wasm)', () => {
  const names = ['related', '/v1/related', 'v1/related', ' related ', '/related', 'search_volume/bulk', '/v1/search_volume/bulk',
    'Related', 'v2/related', '//v1/related', '', 'nope', 5, null, undefined, {}];
  for (const name of names) {
    assert.deepEqual(outcome(() => schema.jsonSchema(name)), outcome(() => serpkit.jsonSchema(name)), JSON.stringify(name));
  }
});

test('the same report as the main entry for every body the rule tests break (with and without its request)', (t) => {
  if (!process.env.BREAKING_CORPUS) return t.skip('BREAKING_CORPUS is set by `cargo xtask js`');
  const lines = fs.readFileSync(process.env.BREAKING_CORPUS, 'utf8').split('\n').filter(Boolean);
  assert.ok(lines.length > 50, `corpus: ${lines.length} bodies`);
  for (const line of lines) {
    const { op, body, request } = JSON.parse(line);
    assert.deepEqual(schema.validateResponse(op, body, request), serpkit.validateResponse(op, body, request), line.slice(0, 200));
    const ours = schema.responseSchema(op, { request })['~standard'].validate(body);
    const main = serpkit.responseSchema(op, { request })['~standard'].validate(body);
    assert.deepEqual(ours, main, line.slice(0, 200));
  }
});

test('text and bytes are refused: parsing them is the wasm\'s job', () => {
  for (const body of ['[]', new Uint8Array([91, 93]), new ArrayBuffer(2)]) {
    assert.throws(() => schema.validateResponse('related', body), (e) => e.code === 'invalid_argument' && /JSON\.parse the text first/.test(e.message));
  }
  assert.throws(() => schema.responseSchema('related', { request: '{' }), (e) => e.code === 'invalid_argument');
  assert.throws(() => schema.responseSchema('related', 5), (e) => e.code === 'invalid_argument');
});

test('Chromium: a page imports serpkit/schema, validates without init(), and never fetches the wasm', async () => {
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // An empty page of the server's origin (answered by the browser's test harness): only
    // what the import loads is fetched from the server.
    const empty = `http://127.0.0.1:${server.address().port}/pkg/empty.html`;
    await page.route(empty, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>schema</title>' }));
    await page.goto(empty);
    const result = await page.evaluate(async ({ ok, bad }) => {
      const s = await import('/pkg/schema.js');
      const std = s.responseSchema('related')['~standard'];
      return { ok: s.validateResponse('related', ok).ok, bad: std.validate(bad).issues.map((i) => i.code) };
    }, { ok: RELATED_OK, bad: RELATED_BAD });
    assert.deepEqual(result, { ok: true, bad: ['type'] });
    assert.deepEqual(errors, []);
    const modules = requested.filter((p) => p !== '/pkg/empty.html').sort();
    assert.deepEqual(modules, ['/pkg/schema.js', '/pkg/serpkit_error.js', '/pkg/static_data.js', '/pkg/validate_value.js', '/pkg/validators.js']);
  } finally {
    await browser.close();
    server.close();
  }
});
