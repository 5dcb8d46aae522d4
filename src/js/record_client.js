// The calls of the JS package's `Client` that need no code of their own in the wasm: one
// method per operation (each is `call(path, ...)`; a wasm export each cost ~0.2 kB gzip),
// `quote`, and paying once per record for a client made with a record `cache`. The planner
// and the merge are the core's (Rust, `crate::records`, reached through the client's
// internal `__` methods: src/js/records.rs lists the steps); this file only moves records
// between them and the cache and sends what the plan says. Written in JS because the same
// steps as async Rust cost the package's wasm about 14 kB gzip. The method per operation
// comes from the core's one list of operations (static_data.js, written by
// examples/pkg_data.rs).

import { METHODS } from './static_data.js';
import { accountOf, integersMode, largeIntegers, recordCacheOf, settleData, settleError, validationMode, withIntegersOption } from './exact_json.js';
import { serpkitError } from './client_options.js';
import { operationIndex } from './schema.js';
import { VALIDATORS, MAX_ISSUES } from './validators.js';
import { validateValue } from './validate_value.js';

/**
 * A call's error as it leaves the package: a `SerpkitError` instance, its `data` made under
 * the client's `integers` mode (exact_json.js; `declared`: the operation's exact fields), and
 * an abort's `cause` the signal's `reason` (as `fetch` rejects with it).
 */
function callError(error, mode, declared, options) {
  settleError(error, mode, declared);
  if (error?.code === 'aborted' && error.cause === undefined) {
    let signal;
    try {
      signal = options?.signal;
    } catch {
      // Options that cannot be read were refused before anything was sent.
    }
    if (signal?.aborted === true) error.cause = signal.reason;
  }
  // Its `cause` made non-enumerable, an abort named `AbortError` (client_options.js).
  return serpkitError(error);
}

function message(error) {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'the record cache failed';
}

/**
 * Starts a call: checks the request, reads the cache (`records`: the client's `{ cache,
 * maxAgeMs }`, exact_json.js's `recordCacheOf`). `null` for an operation priced per request;
 * else the pending call `{ id, kind, keys, now, cacheError? }`.
 */
async function begin(client, { cache, maxAgeMs }, operation, request, options) {
  const now = Date.now();
  const call = client.__begin(operation, request, options, now, maxAgeMs);
  if (call === null) return null;
  call.now = now;
  try {
    const found = await cache.get(call.kind, call.keys);
    if (!Array.isArray(found)) throw new Error('cache.get must return an array (one entry per key)');
    for (let i = 0; i < call.keys.length; i++) {
      const record = found[i];
      if (record === null || typeof record !== 'object' || typeof record.json !== 'string' || typeof record.boughtAt !== 'number') {
        continue;
      }
      // The issues' fields in a row, four strings each (path, code, severity, message).
      const issues = [];
      for (const issue of Array.isArray(record.issues) ? record.issues : []) {
        if (issue && typeof issue.path === 'string' && typeof issue.code === 'string' && typeof issue.severity === 'string') {
          issues.push(issue.path, issue.code, issue.severity, typeof issue.message === 'string' ? issue.message : '');
        }
      }
      client.__found(call.id, i, record.json, record.boughtAt, record.imported === true, issues);
    }
  } catch (error) {
    call.cacheError = message(error);
  }
  return call;
}

/**
 * Stores records bought now (`[{ key, json, issues }]`) with one `cache.put`: `undefined`, or
 * the message of the cache's failure (the paid answer is returned all the same).
 */
async function store(cache, call, entries) {
  if (entries.length === 0) return undefined;
  const rows = entries.map(({ key, json, issues }) => ({
    key,
    record: { json, boughtAt: call.now, imported: false, issues },
  }));
  try {
    await cache.put(call.kind, rows);
  } catch (error) {
    return message(error);
  }
  return undefined;
}

/**
 * Sends what the plan lacks, merges, stores the new records: the merged answer. A chunked job
 * (`bulk`) stores each chunk's records as the chunk arrives (one `cache.put` per chunk), so a
 * job cut short (aborted, a closed tab, a killed process) keeps every chunk it paid for.
 */
async function finish(client, cache, call, options, bulk) {
  const plan = client.__plan(call.id, call.cacheError !== undefined);
  const stores = [];
  const onChunk = bulk ? (entries) => stores.push(store(cache, call, entries)) : undefined;
  const stopped = plan.send ? await client.__send(call.id, options, bulk, onChunk) : undefined;
  const merged = client.__merge(call.id);
  // A chunked job's stop as the send made it: the merge's copy lacks the `fetch` rejection
  // that is its `cause`.
  if (stopped !== undefined && merged.error !== null) merged.error = stopped;
  if (!bulk) stores.push(store(cache, call, merged.entries));
  let cacheError = call.cacheError;
  for (const failed of await Promise.all(stores)) cacheError ??= failed;
  return { merged, cacheError };
}

async function cachedCall(client, records, operation, request, options, raw) {
  const call = await begin(client, records, operation, request, options);
  if (call === null) return { fromCache: 0, bought: 0, ...(await raw()) };
  try {
    const { merged, cacheError } = await finish(client, records.cache, call, options, false);
    // Strict validation judges the merged answer, after the records bought are stored.
    if (merged.error) throw merged.error;
    const reply = { fromCache: merged.fromCache, bought: merged.bought };
    if (cacheError !== undefined) reply.cacheError = cacheError;
    return { ...reply, data: merged.data, report: merged.report, charge: merged.charge, attempts: merged.attempts };
  } finally {
    client.__drop(call.id);
  }
}

async function cachedBulk(client, records, request, options, raw) {
  const call = await begin(client, records, 'search_volume/bulk', request, options);
  if (call === null) return raw();
  try {
    const { merged, cacheError } = await finish(client, records.cache, call, options, true);
    const result = { fromCache: merged.fromCache, bought: merged.bought, report: merged.report };
    if (cacheError !== undefined) result.cacheError = cacheError;
    return {
      ...result,
      data: merged.data,
      missing: merged.missing,
      charge: merged.charge,
      possiblyCharged: merged.possiblyCharged,
      error: merged.error,
    };
  } finally {
    client.__drop(call.id);
  }
}

async function cachedQuote(client, records, operation, request, options, raw) {
  const call = await begin(client, records, operation, request, options);
  if (call === null) return raw();
  try {
    // A cache that cannot be read prices the whole request.
    if (call.cacheError !== undefined) return raw();
    const { send, ...quote } = client.__plan(call.id, false);
    return quote;
  } finally {
    client.__drop(call.id);
  }
}

/** The price of a call without a record cache: the whole request's estimate. */
function wholeQuote(estimateCost, operation, request) {
  const estimate = estimateCost(operation, request);
  return { usd: estimate.usd, micros: estimate.micros, display: estimate.display, newRecords: estimate.units, fromCache: 0, summary: '' };
}

/** The parsed-value validator's report of a chunked job's records (`search_volume/bulk`). */
function bulkReport(data) {
  return validateValue(VALIDATORS[operationIndex('search_volume/bulk')], data, undefined, MAX_ISSUES);
}

/**
 * `reply` with its outcome first, `ok` (`Reply` in serpkit.d.ts discriminates on it): the
 * report's `ok` when the answer was validated (`checked`: the wasm gave a report), `null`
 * under `validation: "off"` (whose report, if any, holds only rounded-integer warnings).
 */
function withOutcome(reply, checked) {
  const { data, report, ...money } = reply;
  return { ok: checked ? report.ok : null, data, report, ...money };
}

/**
 * Defines the per-operation methods and `quote` on `Client.prototype`, and routes the calls
 * of clients made with a `cache` through the record steps.
 */
/**
 * The package's `Client`: the wasm class with the calls below installed on it and its options
 * read in JS (exact_json.js `withIntegersOption`). The entry calls it once, marked pure
 * (`/* @__PURE__ *\/`): nothing is installed at load by a module a bundler may drop
 * (`sideEffects: false`), and a bundle that never uses `Client` leaves it out.
 */
export function makeClient(WasmClient, estimateCost) {
  installRecordCalls(WasmClient, estimateCost);
  return withIntegersOption(WasmClient);
}

export function installRecordCalls(Client, estimateCost) {
  const prototype = Client.prototype;
  for (const [name, operation] of Object.entries(METHODS)) {
    Object.defineProperty(prototype, name, {
      configurable: true,
      writable: true,
      value: function (request, options) {
        return this.call(operation, request, options);
      },
    });
  }
  // The wasm client hands `data` over as the body text; `settleData` makes the JS value of it
  // under the client's `integers` mode, exact in the operation's declared fields
  // (exact_json.js).
  const call = prototype.call;
  prototype.call = async function (operation, request, options) {
    const mode = integersMode(this);
    const records = recordCacheOf(this);
    let reply;
    try {
      reply =
        records === undefined
          ? await call.call(this, operation, request, options)
          : await cachedCall(this, records, operation, request, options, () => call.call(this, operation, request, options));
    } catch (error) {
      throw callError(error, mode, largeIntegers(Client, operation), options);
    }
    // Read before `settleData`, which may add a report of rounded integers alone.
    const checked = reply?.report != null;
    return withOutcome(settleData(reply, mode, largeIntegers(Client, operation)), checked);
  };
  // `client.account`: one `Account` object per client (the one it was given, or its own).
  Object.defineProperty(prototype, 'account', {
    configurable: true,
    get() {
      return accountOf(this);
    },
  });
  prototype.quote = async function (operation, request, options) {
    const raw = () => wholeQuote(estimateCost, operation, request);
    const records = recordCacheOf(this);
    try {
      if (records === undefined) return raw();
      return await cachedQuote(this, records, operation, request, options, raw);
    } catch (error) {
      throw serpkitError(error);
    }
  };
  const chunked = prototype.searchVolumeBulkChunked;
  prototype.searchVolumeBulkChunked = async function (request, options) {
    const mode = integersMode(this);
    const bulkIntegers = largeIntegers(Client, 'search_volume/bulk');
    const records = recordCacheOf(this);
    let result;
    try {
      result =
        records === undefined
          ? await chunked.call(this, request, options)
          : await cachedBulk(this, records, request, options, () => chunked.call(this, request, options));
    } catch (error) {
      throw callError(error, mode, bulkIntegers, options);
    }
    callError(result.error, mode, bulkIntegers, options);
    // Without a record cache the wasm's job result has no report (its chunks' reports cost the
    // wasm more than the package's budget allows): the parsed-value validator checks `data`,
    // without the request's rules (the chunks that did not complete are not in `data`).
    const reported = 'report' in result;
    settleData(result, mode, bulkIntegers);
    const validation = validationMode(this);
    if (!reported) {
      result.report = validation === 'off' ? (result.report ?? null) : bulkReport(result.data);
    }
    return withOutcome(result, validation !== 'off');
  };
}
