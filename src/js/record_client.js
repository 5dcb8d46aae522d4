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

function message(e) {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : 'the record cache failed';
}

/**
 * Starts a call: checks the request, reads the cache. `null` for an operation priced per
 * request; else the pending call `{ id, kind, keys, now, cacheError? }`.
 */
async function begin(client, cache, operation, request, options) {
  const now = Date.now();
  const call = client.__begin(operation, request, options, now);
  if (call === null) return null;
  call.now = now;
  try {
    const found = await cache.get(call.kind, call.keys);
    if (!Array.isArray(found)) throw new Error('cache.get must return an array (one entry per key)');
    for (let i = 0; i < call.keys.length; i++) {
      const r = found[i];
      if (r === null || typeof r !== 'object' || typeof r.json !== 'string' || typeof r.boughtAt !== 'number') {
        continue;
      }
      // The issues' fields in a row, four strings each (path, code, severity, message).
      const issues = [];
      for (const x of Array.isArray(r.issues) ? r.issues : []) {
        if (x && typeof x.path === 'string' && typeof x.code === 'string' && typeof x.severity === 'string') {
          issues.push(x.path, x.code, x.severity, typeof x.message === 'string' ? x.message : '');
        }
      }
      client.__found(call.id, i, r.json, r.boughtAt, r.imported === true, issues);
    }
  } catch (e) {
    call.cacheError = message(e);
  }
  return call;
}

/** Sends what the plan lacks, merges, stores the new records: the merged answer. */
async function finish(client, cache, call, options, bulk) {
  const plan = client.__plan(call.id, call.cacheError !== undefined);
  if (plan.send) await client.__send(call.id, options, bulk);
  const m = client.__merge(call.id);
  let cacheError = call.cacheError;
  if (m.entries.length > 0) {
    const entries = m.entries.map(({ key, json, issues }) => ({
      key,
      record: { json, boughtAt: call.now, imported: false, issues },
    }));
    try {
      await cache.put(call.kind, entries);
    } catch (e) {
      cacheError = message(e);
    }
  }
  return { m, cacheError };
}

async function cachedCall(client, cache, operation, request, options, raw) {
  const call = await begin(client, cache, operation, request, options);
  if (call === null) return { fromCache: 0, bought: 0, ...(await raw()) };
  try {
    const { m, cacheError } = await finish(client, cache, call, options, false);
    // Strict validation judges the merged answer, after the records bought are stored.
    if (m.error) throw m.error;
    const reply = { fromCache: m.fromCache, bought: m.bought };
    if (cacheError !== undefined) reply.cacheError = cacheError;
    return { ...reply, data: m.data, report: m.report, charge: m.charge, attempts: m.attempts };
  } finally {
    client.__drop(call.id);
  }
}

async function cachedBulk(client, cache, request, options, raw) {
  const call = await begin(client, cache, 'search_volume/bulk', request, options);
  if (call === null) return raw();
  try {
    const { m, cacheError } = await finish(client, cache, call, options, true);
    const result = { fromCache: m.fromCache, bought: m.bought, report: m.report };
    if (cacheError !== undefined) result.cacheError = cacheError;
    return {
      ...result,
      data: m.data,
      missing: m.missing,
      charge: m.charge,
      possiblyCharged: m.possiblyCharged,
      error: m.error,
    };
  } finally {
    client.__drop(call.id);
  }
}

async function cachedQuote(client, cache, operation, request, options, raw) {
  const call = await begin(client, cache, operation, request, options);
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
  const e = estimateCost(operation, request);
  return { usd: e.usd, micros: e.micros, display: e.display, newRecords: e.units, fromCache: 0, summary: '' };
}

/**
 * Defines the per-operation methods and `quote` on `Client.prototype`, and routes the calls
 * of clients made with a `cache` through the record steps.
 */
export function installRecordCalls(Client, estimateCost) {
  const proto = Client.prototype;
  for (const [name, operation] of Object.entries(METHODS)) {
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (request, options) {
        return this.call(operation, request, options);
      },
    });
  }
  const call = proto.call;
  proto.call = function (operation, request, options) {
    const cache = this.__cache();
    if (cache === undefined) return call.call(this, operation, request, options);
    return cachedCall(this, cache, operation, request, options, () => call.call(this, operation, request, options));
  };
  proto.quote = async function (operation, request, options) {
    const raw = () => wholeQuote(estimateCost, operation, request);
    const cache = this.__cache();
    if (cache === undefined) return raw();
    return cachedQuote(this, cache, operation, request, options, raw);
  };
  const chunked = proto.searchVolumeBulkChunked;
  proto.searchVolumeBulkChunked = function (request, options) {
    const cache = this.__cache();
    if (cache === undefined) return chunked.call(this, request, options);
    return cachedBulk(this, cache, request, options, () => chunked.call(this, request, options));
  };
}
