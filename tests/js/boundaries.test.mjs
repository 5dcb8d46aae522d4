// Errors that cross a boundary (decided in src/js/client_options.js, above `SerpkitError`):
// `cause` is not enumerable, wherever it was set; `JSON.stringify` writes every field;
// `structuredClone` and `postMessage` keep only what the platform keeps (the message, which
// ends with the code, and in V8 the `cause`), and `SerpkitError.from` revives the code from it;
// `toJSON()` crosses whole; an abort is named `AbortError` with the
// signal's reason as its `cause`. And `decode`, which the package does raise: a chunk whose
// body is JSON but not an array.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
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
    name: 'SerpkitError', code: 'network', message: 'no route (network)', cause: { name: 'TypeError', message: 'fetch failed' },
  });
  const http = await rejection(client({ key: `${sandbox.key}+server_error` }).related(REQ));
  const json = JSON.parse(JSON.stringify(http));
  assert.deepEqual(
    [json.name, json.code, json.status, typeof json.body, json.message, json.charge.micros],
    ['SerpkitError', 'http', 500, 'string', http.message, 0],
  );
  // What structuredClone (postMessage) does to an error: the class and its fields are gone,
  // the message (ending with the code) stays, and `SerpkitError.from` revives the code.
  const cloned = structuredClone(http);
  assert.equal(cloned.message, http.message);
  assert.equal(cloned.code, undefined);
  assert.match(http.message, / \(http\)$/);
  const revived = SerpkitError.from(cloned);
  assert.ok(revived instanceof SerpkitError && isSerpkitError(revived));
  assert.deepEqual([revived.code, revived.message], ['http', http.message]);
  assert.equal(SerpkitError.from(http), http, 'an instance as it is');
  for (const code of ['budget_exceeded', 'aborted', 'redirect', 'init_failed']) {
    const back = SerpkitError.from(structuredClone(new SerpkitError(code, 'why')));
    assert.deepEqual([back.code, back.message, back.name], [code, `why (${code})`, code === 'aborted' ? 'AbortError' : 'SerpkitError']);
  }
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
  assert.throws(() => SerpkitError.from(new Error('not ours')), (e) => e.code === 'invalid_argument');
});

test('postMessage from a worker: the error posted as it is comes back with its code through SerpkitError.from', async () => {
  // A worker makes a real budget_exceeded (the package's own Node entry) and posts the error
  // itself and its toJSON().
  const entry = new URL('../../pkg/serpkit.node.js', import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(entry)}).then(async ({ Client }) => {
      const { parentPort } = await import('node:worker_threads');
      try {
        await new Client({ key: 'k', baseUrl: 'http://127.0.0.1:9', budgetUsd: 0.01 }).related({ keyword: 'a', ccode: 'US' });
      } catch (error) {
        parentPort.postMessage({ error, json: error.toJSON() });
      }
    });`,
    { eval: true },
  );
  const { error, json } = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.equal(error.code, undefined, 'the platform dropped the field');
  const fromError = SerpkitError.from(error);
  assert.ok(isSerpkitError(fromError));
  assert.equal(fromError.code, 'budget_exceeded');
  assert.match(fromError.message, /budget exceeded: .* \(budget_exceeded\)$/);
  const fromJson = SerpkitError.from(json);
  assert.deepEqual([fromJson.code, fromJson.estimate.micros, fromJson.budget.micros], ['budget_exceeded', 150_000, 10_000]);
});

test('decode: a chunk whose body is JSON but not an array of records (charged, not retried)', async () => {
  const fetch = async () => new Response('{"not":"an array"}', { status: 200, headers: { 'content-type': 'application/json' } });
  const job = await new Client({ key: 'k', baseUrl: 'http://127.0.0.1:9', retries: 0, fetch }).searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  assert.equal(job.error?.code, 'decode');
  assert.ok(job.error instanceof SerpkitError);
  assert.deepEqual(job.missing, ['a']);
});
