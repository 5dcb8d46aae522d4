// Errors as JS developers handle them, against the sandbox server: every throw and rejection
// of the package is a `SerpkitError` instance (`isSerpkitError` also for another copy's or
// realm's), keeping its `cause` (the `fetch` rejection, the abort's `signal.reason`);
// `contract_violation` carries what was paid for; the client's `fetch` option, a `URL` or a
// `/v1` base URL; a bounded `MemoryRecordCache`.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import vm from 'node:vm';
import { serpkit, sandbox, expectError } from './support.mjs';

const {
  Client, Account, SerpkitError, isSerpkitError, estimateCost, validateResponse, parseResponse, jsonSchema,
  responseSchema, MemoryRecordCache, IndexedDbRecordCache,
} = serpkit;

const REQ = { keyword: 'trail shoes', ccode: 'US' };
const client = (options = {}) => new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, ...options });

/** Asserts `error` is one of this package's errors with `code`. */
function assertOurs(error, code, what) {
  assert.ok(error instanceof SerpkitError, `${what}: instanceof SerpkitError (${error?.stack ?? error})`);
  assert.ok(error instanceof Error, what);
  assert.ok(isSerpkitError(error), what);
  assert.equal(error.name, code === 'aborted' ? 'AbortError' : 'SerpkitError', what);
  assert.equal(error.code, code, `${what}: ${error.message}`);
}

test('every throw of the package is a SerpkitError instance: wasm, options, static API, record caches', () => {
  const throwing = [
    ['unknown_operation', 'estimateCost', () => estimateCost('nope', {})],
    ['invalid_request', 'estimateCost request', () => estimateCost('related', { keyword: 'x' })],
    ['invalid_argument', 'unknown client option', () => new Client({ key: 'k', nope: 1 })],
    ['invalid_argument', 'budget text (read by the wasm)', () => new Client({ key: 'k', budgetUsd: 'lots' })],
    ['invalid_argument', 'baseUrl (checked by the wasm)', () => new Client({ key: 'k', baseUrl: 'ftp://example.com' })],
    ['invalid_argument', 'baseUrl of another type', () => new Client({ key: 'k', baseUrl: 5 })],
    ['invalid_argument', 'fetch not a function', () => new Client({ key: 'k', fetch: 'https://proxy' })],
    ['invalid_argument', 'Account option', () => new Account({ budget: 1 })],
    ['invalid_argument', 'Account budget', () => new Account({ budgetUsd: 'lots' })],
    ['unknown_operation', 'validateResponse', () => validateResponse('nope', '[]')],
    ['invalid_argument', 'validateResponse body', () => validateResponse('related', undefined)],
    ['unknown_operation', 'parseResponse', () => parseResponse('nope', '[]')],
    ['unknown_operation', 'jsonSchema', () => jsonSchema('nope')],
    ['unknown_operation', 'responseSchema', () => responseSchema('nope')],
    ['invalid_argument', 'JSON Schema target', () => responseSchema('related')['~standard'].jsonSchema.output({ target: 'openapi-3.0' })],
    ['invalid_argument', 'MemoryRecordCache options', () => new MemoryRecordCache({ maxEntries: 0 })],
    ['invalid_argument', 'IndexedDbRecordCache without IndexedDB', () => new IndexedDbRecordCache()],
  ];
  for (const [code, what, fn] of throwing) {
    let error;
    try {
      fn();
    } catch (e) {
      error = e;
    }
    assert.ok(error, `${what} throws`);
    assertOurs(error, code, what);
  }
});

test('every rejection of a client is one too: request, key, budget, HTTP, quote, bulk', async () => {
  await sandbox.reset();
  const rejecting = [
    ['invalid_request', 'a call', () => client().related({ keyword: 'x' })],
    ['unknown_operation', 'call by path', () => client().call('nope', REQ)],
    ['missing_key', 'no key', () => new Client({ key: '', baseUrl: sandbox.url }).related(REQ)],
    ['budget_exceeded', 'over budget', () => client({ budgetUsd: 0.01 }).related(REQ)],
    ['http', 'a key the service refuses', () => client({ key: 'not-a-key' }).related(REQ)],
    ['unknown_operation', 'quote', () => client().quote('nope', REQ)],
    ['invalid_request', 'quote with a cache', () => client({ cache: new MemoryRecordCache() }).quote('search_volume/single', { keyword: '' })],
    ['invalid_argument', 'bulk options', () => client().searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' }, 5)],
  ];
  for (const [code, what, call] of rejecting) {
    const pending = call();
    assert.ok(pending instanceof Promise, `${what}: a rejection, not a throw`);
    assertOurs(await expectError(pending, code), code, what);
  }
  const bulk = await client({ key: 'not-a-key' }).searchVolumeBulkChunked({ keywords: ['a', 'b'], ccode: 'US' });
  assertOurs(bulk.error, 'http', 'a bulk job stopped by an error');
});

test('isSerpkitError: the class, another realm or copy by name and code; nothing else', () => {
  const cause = new Error('underneath');
  const made = new SerpkitError('http', 'boom', { cause });
  assert.deepEqual([made.code, made.message, made.name, made.cause], ['http', 'boom (http)', 'SerpkitError', cause]);
  assert.ok(made.stack.includes('boom'));
  assert.ok(!('cause' in new SerpkitError('http', 'no cause')));
  const otherRealm = vm.runInNewContext('const e = new Error("x"); e.name = "SerpkitError"; e.code = "http"; e');
  assert.ok(!(otherRealm instanceof Error));
  assert.ok(isSerpkitError(otherRealm));
  assert.ok(isSerpkitError(Object.assign(new TypeError('x'), { name: 'SerpkitError', code: 'network' })));
  for (const value of [new Error('x'), { name: 'SerpkitError', code: 'http' }, Object.assign(new Error('x'), { name: 'SerpkitError' }), null, undefined, 'SerpkitError', 5]) {
    assert.equal(isSerpkitError(value), false, String(value));
  }
});

test("cause: an abort's signal.reason, in flight and before the call", async () => {
  await sandbox.reset();
  const slow = client({ key: `${sandbox.key}+delay=3000` });
  const controller = new AbortController();
  const reason = new Error('the user left');
  const pending = slow.related(REQ, { signal: controller.signal });
  setTimeout(() => controller.abort(reason), 200);
  const error = await expectError(pending, 'aborted');
  assertOurs(error, 'aborted', 'aborted in flight');
  assert.equal(error.cause, reason);
  const early = AbortSignal.abort('not now');
  assert.equal((await expectError(client().related(REQ, { signal: early }), 'aborted')).cause, 'not now');
  const bulk = await client().searchVolumeBulkChunked({ keywords: ['a', 'b'], ccode: 'US' }, { signal: early });
  if (bulk.error !== null) assert.equal(bulk.error.cause, 'not now');
});

test('cause: what fetch rejected with (an injected fetch, and the global one refused)', async () => {
  const refused = new TypeError('proxy refused the connection');
  const lost = await expectError(client({ fetch: async () => { throw refused; } }).related(REQ), 'connection_lost');
  assertOurs(lost, 'connection_lost', 'a rejection');
  assert.equal(lost.cause, refused);
  const notSent = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  const network = await expectError(client({ fetch: () => Promise.reject(notSent) }).related(REQ), 'network');
  assert.equal(network.cause, notSent);
  // Node's own fetch to a closed port: its TypeError, with undici's reason beneath.
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  const closed = await expectError(new Client({ key: 'k', baseUrl: `http://127.0.0.1:${port}`, retries: 0 }).related(REQ), 'network');
  assert.ok(closed.cause instanceof TypeError, String(closed.cause));
  assert.equal(closed.cause.cause?.code, 'ECONNREFUSED');
});

test('cause: a chunked job keeps what fetch rejected with, with a record cache too', async () => {
  await sandbox.reset();
  const keywords = ['trail shoes', 'running shoes', 'hiking boots', 'rain jacket'];
  const notSent = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  for (const cached of [false, true]) {
    const what = cached ? 'with a record cache' : 'without a cache';
    // The first chunk reaches the sandbox; the connection fails for the next.
    let sent = 0;
    const failing = (url, init) => (sent++ === 0 ? fetch(url, init) : Promise.reject(notSent));
    const options = { fetch: failing, ...(cached ? { cache: new MemoryRecordCache() } : {}) };
    const job = await client(options).searchVolumeBulkChunked({ keywords, ccode: 'US' }, { chunkSize: 2, concurrency: 1 });
    assertOurs(job.error, 'network', what);
    assert.equal(job.error.cause, notSent, what);
    assert.deepEqual(job.missing, keywords.slice(2), what);
    if (cached) assert.equal(job.bought, 2);
  }
  // Node's own fetch to a closed port: its TypeError, with undici's reason beneath.
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  const closed = new Client({ key: 'k', baseUrl: `http://127.0.0.1:${port}`, retries: 0, cache: new MemoryRecordCache() });
  const job = await closed.searchVolumeBulkChunked({ keywords, ccode: 'US' }, { chunkSize: 2 });
  assertOurs(job.error, 'network', 'a closed port, with a record cache');
  assert.ok(job.error.cause instanceof TypeError, String(job.error.cause));
  assert.equal(job.error.cause.cause?.code, 'ECONNREFUSED');
  assert.deepEqual(job.missing, keywords);
});

test('the fetch option: called as fetch(url, init) for every request; a URL or a /v1 base URL reach /v1/<operation>', async () => {
  await sandbox.reset();
  const bases = [sandbox.url, new URL(sandbox.url), `${sandbox.url}/v1`, `${sandbox.url}/v1/`, new URL(`${sandbox.url}/v1/`)];
  for (const baseUrl of bases) {
    const seen = [];
    const recording = (url, init) => {
      seen.push({ url, init });
      return fetch(url, init);
    };
    const reply = await new Client({ key: sandbox.key, baseUrl, fetch: recording }).related(REQ);
    assert.equal(reply.report.ok, true, String(baseUrl));
    assert.equal(seen.length, 1);
    assert.equal(seen[0].url, `${sandbox.url}/v1/related`, String(baseUrl));
    assert.equal(seen[0].init.method, 'POST');
    assert.equal(seen[0].init.redirect, 'manual', 'a redirect comes back as the answer it is, never followed');
    assert.ok(seen[0].init.signal instanceof AbortSignal);
    assert.ok(!seen[0].url.includes(sandbox.key), 'the key is in the body only');
    assert.equal(JSON.parse(seen[0].init.body).key, sandbox.key);
  }
  assert.equal((await sandbox.ledger()).entries.length, bases.length);
  // A base URL with another path keeps it (a proxy's prefix).
  const seen = [];
  await expectError(new Client({ key: 'k', baseUrl: 'https://proxy.example/serp/', retries: 0, fetch: async (url) => {
    seen.push(url);
    return new Response('no', { status: 404 });
  } }).related(REQ), 'http');
  assert.deepEqual(seen, ['https://proxy.example/serp/v1/related']);
});

test('contract_violation carries the data that was paid for and its report, under the integers mode', async () => {
  await sandbox.reset();
  const broken = async (url, init) => {
    const upstream = await fetch(url, init);
    const text = (await upstream.text()).replace(/"user_id":-?[0-9]+/g, '"user_id":9223372036854775807').replace(/"likes":[0-9]+/, '"likes":"many"');
    return new Response(text, { status: upstream.status, headers: { 'content-type': 'application/json' } });
  };
  const strict = client({ validation: 'strict', integers: 'bigint', fetch: broken });
  const error = await expectError(strict.microblogPost({ keyword: 'trail shoes' }), 'contract_violation');
  assertOurs(error, 'contract_violation', 'strict');
  assert.equal(error.report.ok, false);
  assert.deepEqual(error.report.errors.map((i) => [i.path, i.code]), [['/0/likes', 'type']]);
  assert.equal(error.data[0].likes, 'many');
  assert.equal(error.data[0].profile.user_id, 9223372036854775807n);
  assert.equal(error.charge.micros, 250_000);
  assert.equal(strict.spent.micros, 250_000, 'paid for');
});

test('MemoryRecordCache({ maxEntries }): bounded, the least recently used forgotten first', async () => {
  const record = (json) => ({ json, boughtAt: 1, issues: [] });
  const cache = new MemoryRecordCache({ maxEntries: 2 });
  assert.equal(cache.maxEntries, 2);
  await cache.put('search_volume', [{ key: 'a', record: record('"a"') }, { key: 'b', record: record('"b"') }]);
  await cache.get('search_volume', ['a']);
  await cache.put('search_volume', [{ key: 'c', record: record('"c"') }]);
  const found = await cache.get('search_volume', ['a', 'b', 'c']);
  assert.deepEqual(found.map((r) => r?.json ?? null), ['"a"', null, '"c"']);
  assert.equal(cache.size, 2);
  assert.equal(new MemoryRecordCache().maxEntries, Infinity);
  assert.equal(new MemoryRecordCache({ maxEntries: Infinity }).maxEntries, Infinity);
  for (const options of [5, [], { maxEntries: 1.5 }, { maxEntries: '5' }, { maxEntries: -1 }, { max: 3 }]) {
    assertOurs(await expectError(() => new MemoryRecordCache(options), 'invalid_argument'), 'invalid_argument', JSON.stringify(options));
  }

  // With a client: a forgotten record is bought again, the others are not.
  await sandbox.reset();
  const small = new MemoryRecordCache({ maxEntries: 2 });
  const c = client({ cache: small });
  const first = await c.searchVolumeBulk({ keywords: ['alpha', 'beta', 'gamma'], ccode: 'US' });
  assert.equal(first.bought, 3);
  assert.equal(small.size, 2);
  const quote = await c.quote('search_volume/bulk', { keywords: ['alpha', 'beta', 'gamma'], ccode: 'US' });
  assert.deepEqual([quote.newRecords, quote.fromCache], [1, 2]);
});
