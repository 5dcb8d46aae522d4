// Errors that cross a boundary (decided in src/js/client_options.js, above `SerpkitError`):
// `cause` is not enumerable, wherever it was set; `JSON.stringify` writes every field;
// `structuredClone` keeps only what the platform keeps (the message), so `toJSON()` is what
// crosses and `SerpkitError.from` rebuilds it; an abort is named `AbortError` with the
// signal's reason as its `cause`. And `decode`, which the package does raise: a chunk whose
// body is JSON but not an array.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit, sandbox } from './support.mjs';

const { Client, SerpkitError, isSerpkitError } = serpkit;

const REQ = { keyword: 'trail shoes', ccode: 'US' };
const client = (options = {}) => new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, ...options });

/** The error `promise` rejects with. */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

test('cause is never enumerable: made in JS, by the wasm, or set after (an abort, a fetch rejection)', async () => {
  const made = new SerpkitError('http', 'boom', { cause: new Error('under') });
  const refused = new TypeError('fetch failed');
  const network = await rejection(
    client({ fetch: async () => { throw refused; } }).related(REQ),
  );
  const controller = new AbortController();
  const aborted = client().related(REQ, { signal: controller.signal });
  controller.abort();
  const abort = await rejection(aborted);
  for (const [what, error] of [['made', made], ['network', network], ['abort', abort]]) {
    assert.ok(error.cause !== undefined, what);
    assert.equal(Object.getOwnPropertyDescriptor(error, 'cause').enumerable, false, what);
    assert.ok(!Object.keys(error).includes('cause'), what);
  }
  assert.equal(network.cause, refused);
});

test('an abort is named AbortError, keeps signal.reason as its cause, and stays a SerpkitError', async () => {
  const controller = new AbortController();
  const pending = client({ key: `${sandbox.key}+delay=3000` }).related(REQ, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const error = await rejection(pending);
  assert.equal(error.name, 'AbortError');
  assert.equal(error.code, 'aborted');
  assert.equal(error.cause, controller.signal.reason);
  assert.equal(error.cause.name, 'AbortError');
  assert.ok(error instanceof SerpkitError && isSerpkitError(error));
  assert.equal(typeof error.possiblyCharged.micros, 'number');
  // Another copy's abort (by name and code) is recognised too.
  assert.ok(isSerpkitError(Object.assign(new Error('x'), { name: 'AbortError', code: 'aborted' })));
  assert.ok(!isSerpkitError(Object.assign(new Error('x'), { name: 'AbortError' })));
});

test('JSON.stringify writes every field; structuredClone keeps the message, toJSON() crosses whole', async () => {
  const js = new SerpkitError('network', 'no route', { cause: new TypeError('fetch failed') });
  assert.deepEqual(JSON.parse(JSON.stringify(js)), {
    name: 'SerpkitError', code: 'network', message: 'no route', cause: { name: 'TypeError', message: 'fetch failed' },
  });
  const http = await rejection(client({ key: `${sandbox.key}+server_error` }).related(REQ));
  const json = JSON.parse(JSON.stringify(http));
  assert.deepEqual(
    [json.name, json.code, json.status, typeof json.body, json.message, json.charge.micros],
    ['SerpkitError', 'http', 500, 'string', http.message, 0],
  );
  // What structuredClone (postMessage) does to an error: the class and its fields are gone.
  const cloned = structuredClone(http);
  assert.equal(cloned.message, http.message);
  assert.equal(cloned.code, undefined);
  // What crosses instead: the JSON value, rebuilt on the other side.
  for (const value of [structuredClone(http.toJSON()), JSON.parse(JSON.stringify(http))]) {
    const back = SerpkitError.from(value);
    assert.ok(back instanceof SerpkitError && isSerpkitError(back));
    assert.deepEqual([back.name, back.code, back.status, back.body, back.message], ['SerpkitError', 'http', 500, http.body, http.message]);
    assert.deepEqual(back.charge, http.charge);
  }
  const abort = SerpkitError.from({ name: 'AbortError', code: 'aborted', message: 'aborted', cause: { name: 'AbortError', message: 'x' } });
  assert.deepEqual([abort.name, abort.cause.name, Object.keys(abort)], ['AbortError', 'AbortError', ['code']]);
  assert.throws(() => SerpkitError.from({ message: 'no code' }), (e) => e.code === 'invalid_argument');
});

test('decode: a chunk whose body is JSON but not an array of records (charged, not retried)', async () => {
  const fetch = async () => new Response('{"not":"an array"}', { status: 200, headers: { 'content-type': 'application/json' } });
  const job = await new Client({ key: 'k', baseUrl: 'http://127.0.0.1:9', retries: 0, fetch }).searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  assert.equal(job.error?.code, 'decode');
  assert.ok(job.error instanceof SerpkitError);
  assert.deepEqual(job.missing, ['a']);
});
