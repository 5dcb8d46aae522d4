// The package's synchronous exports, without a network: operations, estimateCost,
// jsonSchema, validateResponse, the Client constructor and its getters, and the errors
// they throw for invalid input.
import test from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import { serpkit, expectError, isMoney, volumeRecord, months } from './support.mjs';

const { operations, estimateCost, jsonSchema, validateResponse, Client } = serpkit;

const PRICES = {
  'search_volume/bulk': [300, 'per_keyword'],
  'search_volume/single': [300, 'per_request'],
  domainstats: [50_000, 'per_domain'],
  'backlink/metrics': [50_000, 'per_url'],
  'ranked-keywords/metrics': [100_000, 'per_request'],
  'ranked-keywords/domain': [100_000, 'per_request'],
  'backlink/overview': [250_000, 'per_request'],
  'outline/seo': [500_000, 'per_request'],
  'microblog/post': [250_000, 'per_request'],
  'video/video': [250_000, 'per_request'],
  related: [150_000, 'per_request'],
};

const REQUESTS = {
  'search_volume/bulk': { keywords: ['a', 'b', 'c'], ccode: 'US' },
  'search_volume/single': { keyword: 'a', ccode: 'US' },
  domainstats: { domains: ['example.com', 'example.org'] },
  'backlink/metrics': { urls: ['https://example.com/', 'https://example.org/x'] },
  'ranked-keywords/metrics': { domain: 'example.com' },
  'ranked-keywords/domain': { domain: 'example.com' },
  'backlink/overview': { domain: 'example.com' },
  'outline/seo': { keyword: 'a' },
  'microblog/post': { keyword: 'a' },
  'video/video': { keyword: 'a' },
  related: { keyword: 'a', ccode: 'US' },
};

test('exports exactly the documented names', () => {
  const names = Object.keys(serpkit).filter((k) => k !== 'default').sort();
  assert.deepEqual(names, [
    'Account', 'Client', 'IndexedDbRecordCache', 'MemoryRecordCache', 'SerpkitError', 'estimateCost', 'initSync',
    'isSerpkitError', 'jsonSchema', 'operations', 'parseResponse', 'responseSchema', 'stringify', 'validateResponse',
  ]);
});

test('operations() lists the 11 operations with their prices', () => {
  const ops = operations();
  assert.ok(Array.isArray(ops));
  assert.deepEqual(ops.map((o) => o.path), Object.keys(PRICES));
  for (const o of ops) {
    assert.deepEqual(Object.keys(o).sort(), ['path', 'price', 'title', 'unit', 'unitLabel', 'unitNote']);
    assert.equal(typeof o.title, 'string');
    assert.ok(isMoney(o.price), JSON.stringify(o.price));
    assert.deepEqual([o.price.micros, o.unit], PRICES[o.path], o.path);
    assert.equal(o.price.usd, o.price.micros / 1e6);
    assert.match(o.unitLabel, /^per /);
  }
  assert.equal(ops.find((o) => o.path === 'outline/seo').price.display, '$0.5000');
});

test('prices state each unit decision: backlink/metrics per URL, where a JS user reads them', () => {
  const metrics = operations().find((o) => o.path === 'backlink/metrics');
  assert.match(metrics.unitNote, /each entry of `urls` is a unit, two URLs of one domain too/);
  assert.match(metrics.unitNote, /"per domain, per request"/);
  const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
  const estimate = estimateCost('backlink/metrics', { urls });
  assert.equal(estimate.display, '$0.1500', 'three URLs of one domain');
  assert.equal(estimate.explanation, `3 × $0.0500 per URL = $0.1500: ${metrics.unitNote}`);
  for (const o of operations()) assert.ok(o.unitNote.length > 20, o.path);
  assert.match(estimateCost('related', { keyword: 'a', ccode: 'US' }).explanation, /^1 × \$0\.1500 per request = \$0\.1500: one unit per request/);
});

test('estimateCost() prices every operation from an object or JSON text', () => {
  for (const [op, req] of Object.entries(REQUESTS)) {
    const est = estimateCost(op, req);
    assert.deepEqual(Object.keys(est).sort(), ['display', 'explanation', 'micros', 'unit', 'units', 'usd']);
    const [micros, unit] = PRICES[op];
    const units = req.keywords?.length ?? req.domains?.length ?? req.urls?.length ?? 1;
    assert.equal(est.unit, unit);
    assert.equal(est.units, units, op);
    assert.equal(est.micros, micros * units, op);
    assert.equal(est.usd, est.micros / 1e6);
    assert.deepEqual(estimateCost(op, JSON.stringify(req)), est);
    // The key is optional and does not change the price; `/v1/` paths are accepted.
    assert.deepEqual(estimateCost(`/v1/${op}`, { ...req, key: 'k' }), est);
  }
  assert.equal(estimateCost('search_volume/bulk', REQUESTS['search_volume/bulk']).display, '$0.0009');
});

test('estimateCost() rejects invalid requests naming the field', async () => {
  let e = await expectError(
    () => estimateCost('search_volume/bulk', { keywords: ['ok', ''], ccode: 'US' }),
    'invalid_request',
  );
  assert.equal(e.field, '/keywords/1');
  assert.equal(e.reason, 'empty_string');
  e = await expectError(() => estimateCost('search_volume/bulk', { keywords: [1], ccode: 'US' }), 'invalid_request');
  assert.equal(e.field, '/keywords/0');
  assert.equal(e.reason, 'malformed');
  e = await expectError(() => estimateCost('domainstats', { domains: ['https://example.com'] }), 'invalid_request');
  assert.equal(e.field, '/domains/0');
  e = await expectError(() => estimateCost('related', { keyword: 'a', ccode: 'US', extra: 1 }), 'invalid_request');
  assert.equal(e.reason, 'malformed');
  await expectError(() => estimateCost('related', '{"keyword":'), 'invalid_request');
  await expectError(() => estimateCost('related', { keyword: 'a' }), 'invalid_request');
  await expectError(() => estimateCost('search_volume', REQUESTS.related), 'unknown_operation');
  await expectError(() => estimateCost('related', undefined), 'invalid_argument');
  await expectError(() => estimateCost('related', () => 1), 'invalid_argument');
  const cyclic = { keyword: 'a', ccode: 'US' };
  cyclic.self = cyclic;
  await expectError(() => estimateCost('related', cyclic), 'invalid_argument');
});

/** Every `pattern` string in a schema. */
function patterns(schema, out = []) {
  if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'pattern' && typeof v === 'string') out.push(v);
      else patterns(v, out);
    }
  }
  return out;
}

// JSON Schema 2020-12 patterns are ECMA-262 regexes, which Ajv compiles with the `u` flag
// (a `\#` identity escape, as schema.rs once wrote, is invalid there).
test('jsonSchema() patterns are valid ECMA-262 (unicode) regexes', () => {
  for (const op of Object.keys(PRICES)) {
    for (const p of patterns(jsonSchema(op))) {
      assert.doesNotThrow(() => new RegExp(p, 'u'), `${op}: ${p}`);
    }
  }
});

test('jsonSchema() gives a 2020-12 schema per operation that Ajv compiles', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const op of Object.keys(PRICES)) {
    const s = jsonSchema(op);
    assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(s.type, op === 'search_volume/single' || op === 'backlink/overview' ? 'object' : 'array', op);
    ajv.compile(s);
  }
  const check = ajv.compile(jsonSchema('related'));
  assert.equal(check([{ keyword: 'a', competition: 0.4, cpc: 1.2, search_volume: 90, kd: 7 }]), true);
  assert.equal(check([{ keyword: 'a', competition: 0.4, cpc: 1.2, search_volume: 90, kd: '7' }]), false);
  return expectError(() => jsonSchema('nope'), 'unknown_operation');
});

test('validateResponse() reports issues with JSON Pointer paths', async () => {
  const good = [{ keyword: 'a', competition: 0.4, cpc: 1.2, search_volume: 90, kd: 7 }];
  for (const body of [JSON.stringify(good), good]) {
    const r = validateResponse('related', body);
    assert.deepEqual(Object.keys(r).sort(), ['error_count', 'errors', 'ok', 'omitted', 'warning_count', 'warnings']);
    assert.deepEqual(r, { ok: true, errors: [], warnings: [], error_count: 0, warning_count: 0, omitted: 0 });
  }
  const bad = validateResponse('related', '[{"keyword":"a","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]');
  assert.equal(bad.ok, false);
  assert.equal(bad.error_count, 1);
  assert.deepEqual(Object.keys(bad.errors[0]).sort(), ['code', 'message', 'path', 'severity']);
  assert.deepEqual([bad.errors[0].path, bad.errors[0].code, bad.errors[0].severity], ['/0/kd', 'type', 'error']);

  const warn = validateResponse('related', [{ ...good[0], kd: 140 }]);
  assert.equal(warn.ok, true);
  assert.equal(warn.warning_count, 1);
  assert.equal(warn.warnings[0].severity, 'warning');
  assert.equal(warn.warnings[0].path, '/0/kd');

  const notJson = validateResponse('related', '[{"keyword":\n  oops');
  assert.equal(notJson.ok, false);
  assert.equal(notJson.errors[0].code, 'json');
  assert.equal(notJson.position.line, 2);
  assert.ok(notJson.position.offset > 0 && notJson.position.column > 0);
});

test('validateResponse() checks the rules tied to the request', async () => {
  const req = { keywords: ['alpha', 'beta'], ccode: 'US' };
  const inOrder = [volumeRecord('alpha'), volumeRecord('beta')];
  assert.equal(validateResponse('search_volume/bulk', inOrder, req).ok, true);
  assert.equal(validateResponse('search_volume/bulk', JSON.stringify(inOrder), JSON.stringify(req)).ok, true);
  const swapped = validateResponse('search_volume/bulk', [inOrder[1], inOrder[0]], req);
  assert.equal(swapped.ok, false, 'records out of request order');
  const short = validateResponse('search_volume/bulk', [inOrder[0]], req);
  assert.equal(short.ok, false, 'one record for two keywords');
  // Without the request the same bodies pass; null and undefined mean no request.
  assert.equal(validateResponse('search_volume/bulk', [inOrder[0]], null).ok, true);
  assert.equal(validateResponse('search_volume/bulk', [inOrder[0]], undefined).ok, true);
  const eleven = validateResponse('search_volume/single', { ...inOrder[0], TARGETED_MONTHLY_SEARCHES: months().slice(1) });
  assert.equal(eleven.ok, false);
  assert.ok(eleven.errors.some((i) => i.path === '/TARGETED_MONTHLY_SEARCHES'), JSON.stringify(eleven.errors));

  await expectError(() => validateResponse('nope', '[]'), 'unknown_operation');
  await expectError(() => validateResponse('related', undefined), 'invalid_argument');
  const e = await expectError(() => validateResponse('search_volume/bulk', '[]', { keywords: 'x' }), 'invalid_request');
  assert.equal(e.field, '/keywords');
});

test('new Client() checks its options', async () => {
  const c = new Client({ key: 'k' });
  assert.deepEqual(c.spent, { usd: 0, micros: 0, display: '$0.0000' });
  assert.deepEqual(c.possiblyCharged, { usd: 0, micros: 0, display: '$0.0000' });
  assert.equal(c.remaining, null);
  const b = new Client({ key: 'k', budgetUsd: '1.25', retries: { maxRetries: 1, jitter: false }, timeoutMs: 0, validation: 'strict', headers: { 'x-a': 'b' }, maxBodyBytes: 1000 });
  assert.deepEqual(b.remaining, { usd: 1.25, micros: 1_250_000, display: '$1.2500' });
  assert.equal(new Client({ key: 'k', budgetUsd: 0.5 }).remaining.micros, 500_000);
  assert.equal(new Client(JSON.stringify({ key: 'k', retries: 0 })).spent.micros, 0);
  // null and undefined mean absent, as in JSON; NaN and infinite durations too.
  assert.equal(new Client({ key: 'k', baseUrl: null, headers: undefined, timeoutMs: Infinity, maxBodyBytes: NaN }).remaining, null);
  assert.equal(new Client({ key: 'k', budgetUsd: '$2' }).remaining.micros, 2_000_000);
  assert.equal(new Client({ key: 'k', budgetUsd: 3 }).remaining.micros, 3_000_000);
  c.free();

  for (const bad of [
    undefined,
    { key: 'k', nope: 1 },
    { key: 'k', baseUrl: 'ftp://example.com' },
    { key: 'k', baseUrl: 'not a url' },
    { key: 'k', validation: 'loud' },
    { key: 'k', budgetUsd: -1 },
    { key: 'k', budgetUsd: 'lots' },
    { key: 'k', retries: 'many' },
    { key: 'k', retries: { tries: 2 } },
    { key: 'k', headers: { a: 1 } },
    { key: 'k', headers: ['a'] },
    { key: 'k', retries: 1.5 },
    { key: 'k', retries: -1 },
    { key: 'k', retries: { jitter: 'yes' } },
    { key: 'k', retries: { maxRetries: 2.5 } },
    { key: 'k', retries: [1] },
    { key: 'k', budgetUsd: '-1' },
    { key: 'k', budgetUsd: true },
    { key: 'k', validation: 1 },
    '{"key":"k","nope":1}',
    'not json',
    { get key() { throw new Error('getter'); } },
  ]) {
    const e = await expectError(() => new Client(bad), 'invalid_argument');
    assert.doesNotMatch(e.message, /\bk\b.*secret/);
  }
});

test('new Client() option errors: their messages, the first in reading order (client_options.js)', async () => {
  const messageOf = async (options) => (await expectError(() => new Client(options), 'invalid_argument')).message;
  const RETRY = '["maxRetries", "baseDelayMs", "maxDelayMs", "maxRetryAfterMs", "jitter"]';
  for (const [options, message] of [
    [[], 'invalid client options: options must be an object'],
    ['{', 'invalid client options: options text is not JSON'],
    [{ budgetUsd: NaN }, 'budgetUsd must be a finite amount of dollars'],
    [{ retries: 1.5 }, 'invalid client options: retries must be a whole number from 0'],
    [{ retries: { tries: 1 } }, `invalid client options: unknown option \`tries\` in retries (known: ${RETRY}) (or a number of retries)`],
    [{ retries: { jitter: 1 } }, 'invalid client options: jitter must be a boolean'],
    [{ budgetUsd: -1 }, 'invalid client options: budgetUsd must be a dollar amount from 0'],
    [{ budgetUsd: 'lots', headers: 5 }, 'invalid client options: not a dollar amount: lots'],
    [{ headers: { x: 1 } }, 'invalid client options: headers must be a Headers, an array of [name, value] pairs or an object of strings (as fetch takes)'],
    [{ headers: [['x', 'y', 'z']] }, 'invalid client options: headers must be a Headers, an array of [name, value] pairs or an object of strings (as fetch takes): each pair is [name, value], two strings'],
    [{ timeoutMs: '5' }, 'invalid client options: timeoutMs must be a number'],
    [{ key: 5, baseUrl: 'ftp://x' }, 'invalid client options: key must be a string'],
    [{ cache: { get() {} } }, 'invalid client options: cache must be an object with get(kind, keys) and put(kind, entries) methods'],
    [{ get key() { throw new Error('getter'); } }, 'invalid client options: key: unreadable'],
    [{ baseUrl: 'ftp://x', validation: 'loud' }, 'baseUrl must be an absolute http(s) URL'],
    [{ validation: 'loud' }, 'validation mode must be "off", "warn" or "strict"'],
  ]) {
    // Every message ends with the code (it survives structuredClone: SerpkitError.from).
    assert.equal(await messageOf(options), `${message} (invalid_argument)`, message);
  }
  assert.match(await messageOf({ apiKey: 'k' }), /^invalid client options: unknown option `apiKey` in options \(known: \["key", "baseUrl", /);
  // Every listed option is known; null and undefined are absent.
  new Client({ key: 'k', baseUrl: undefined, timeoutMs: null, retries: { maxRetries: null, baseDelayMs: undefined, maxDelayMs: null, maxRetryAfterMs: null, jitter: null }, validation: null, budgetUsd: undefined, maxBodyBytes: null, headers: null, cache: null, maxAgeMs: null, integers: null, account: null }).free();
});

test('validateResponse() takes UTF-8 bytes: Uint8Array, Buffer, ArrayBuffer; anything else is invalid_argument', async () => {
  const rec = (i) => ({ keyword: `größe ✓ 🏃 ${i}`, competition: 0.4, cpc: 1.2, search_volume: 1_000_000 - i, kd: 7 });
  const rows = Array.from({ length: 3000 }, (_, i) => rec(i));
  rows[2999].kd = 'x';
  const text = JSON.stringify(rows);
  const bytes = new TextEncoder().encode(text);
  const fromText = validateResponse('related', text);
  assert.equal(fromText.error_count, 1);
  for (const body of [bytes, Buffer.from(text), bytes.buffer, bytes.subarray(0)]) {
    assert.deepEqual(validateResponse('related', body), fromText);
  }
  // A view of part of a buffer reads only that part.
  const padded = new Uint8Array(bytes.length + 4);
  padded.set(bytes, 2);
  assert.deepEqual(validateResponse('related', padded.subarray(2, 2 + bytes.length)), fromText);
  // Small and empty bodies.
  assert.equal(validateResponse('related', new TextEncoder().encode('[]')).ok, true);
  assert.equal(validateResponse('related', new Uint8Array(0)).errors[0].code, 'json');
  // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong encoding, a
  // surrogate, beyond U+10FFFF: a json error at the first bad byte, as any text that stops
  // being JSON (edge_inputs.test.mjs has the rest).
  for (const bad of [[0x5b, 0x80, 0x5d], [0x22, 0xe2, 0x9c, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]]) {
    const report = validateResponse('related', new Uint8Array(bad));
    assert.deepEqual([report.ok, report.errors[0].code, report.position.offset], [false, 'json', 1], String(bad));
    assert.match(report.errors[0].message, /at byte 1 \(line 1, column 2\): not UTF-8$/);
  }
  // Well-formed multi-byte characters are no bad bytes (the scan agrees with the decoder).
  const good = new TextEncoder().encode('["é ✓ 🏃 \u{10FFFF}", 1,,]');
  assert.match(validateResponse('related', good).errors[0].message, /not valid JSON at byte 2[0-9] /);
  // Requests may be bytes too.
  assert.equal(estimateCost('related', new TextEncoder().encode('{"keyword":"a","ccode":"US"}')).micros, 150_000);
});

test('validateResponse() reads large non-ASCII text exactly (the TextEncoder path)', () => {
  const rec = (i) => ({ keyword: `größe ✓ 🏃 ${i}`, competition: 0.4, cpc: 1.2, search_volume: 1_000_000 - i, kd: 7 });
  const rows = Array.from({ length: 3000 }, (_, i) => rec(i));
  rows[2999].kd = 'x';
  const text = JSON.stringify(rows);
  assert.ok(text.length > 1 << 16);
  const r = validateResponse('related', text);
  assert.equal(r.error_count, 1);
  assert.equal(r.errors[0].path, '/2999/kd');
  // A syntax error's position is in characters on its line, after the multi-byte text.
  const broken = validateResponse('related', `${text.slice(0, -1)},]`);
  assert.equal(broken.errors[0].code, 'json');
  assert.equal(broken.position.line, 1);
  assert.equal(broken.position.column, [...text].length + 1);
  // A lone surrogate (not valid UTF-16) is read as U+FFFD, like TextEncoder does.
  const lone = JSON.stringify(rows.slice(0, 2999)).replace('größe', 'gr\ud800ße');
  assert.ok(lone.length > 1 << 16 && lone.includes('\ud800'));
  assert.equal(validateResponse('related', lone).ok, true);
});
