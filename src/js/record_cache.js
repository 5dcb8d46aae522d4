// Record caches for the JS package's `Client` (`new Client({ cache })`): where bought records
// are kept so a record is paid for once. Written in JS, not Rust, so they cost the package's
// wasm nothing. Any object with the same `get`/`put` works (see `RecordCache` in the types).
//
// A record is `{ json, boughtAt, issues, imported }`: its JSON exactly as the service wrote
// it, when it was bought (ms since the epoch), its validation issues (paths relative to the
// record) and whether it came from an import (then it is never reused as bought).

import { SerpkitError } from './client_options.js';

/**
 * Keeps records in memory (lost when the page or process ends): `new MemoryRecordCache()`
 * holds every record; `new MemoryRecordCache({ maxEntries })` at most that many.
 *
 * Decided: a bounded cache forgets the least recently used record (read by `get` or written
 * by `put`) first. A long-running server buys the records its users ask for again and again;
 * those stay, and one bulk job's tail does not push them out before it is read once. A
 * forgotten record is bought again when asked for: the bound trades money for memory.
 */
export class MemoryRecordCache {
  /** Records by `kind \0 key`, least recently used first (a `Map` keeps insertion order). */
  #records = new Map();
  #maxEntries = Infinity;

  constructor(options) {
    if (options === undefined || options === null) return;
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new SerpkitError('invalid_argument', 'MemoryRecordCache options must be an object such as { maxEntries: 10000 }');
    }
    for (const key of Object.keys(options)) {
      if (key !== 'maxEntries') throw new SerpkitError('invalid_argument', `unknown MemoryRecordCache option \`${key.slice(0, 40)}\` (known: ["maxEntries"])`);
    }
    const max = options.maxEntries;
    if (max === undefined || max === null) return;
    if (typeof max !== 'number' || !(Number.isInteger(max) || max === Infinity) || max < 1) {
      throw new SerpkitError('invalid_argument', 'maxEntries must be a whole number from 1 (or Infinity)');
    }
    this.#maxEntries = max;
  }

  /** Stored records of `keys` (`null` where none), in order; each found one is now the most recently used. */
  async get(kind, keys) {
    if (!Array.isArray(keys)) throw new SerpkitError('invalid_argument', 'MemoryRecordCache.get: keys must be an array of strings');
    return keys.map((key) => {
      const id = `${kind}\u0000${key}`;
      const record = this.#records.get(id);
      if (record === undefined) return null;
      if (this.#maxEntries !== Infinity) {
        this.#records.delete(id);
        this.#records.set(id, record);
      }
      return record;
    });
  }

  /** Stores `[{ key, record }]`, then forgets the least recently used beyond `maxEntries`. */
  async put(kind, entries) {
    if (!Array.isArray(entries)) throw new SerpkitError('invalid_argument', 'MemoryRecordCache.put: entries must be an array of { key, record }');
    for (const { key, record } of entries) {
      const id = `${kind}\u0000${key}`;
      this.#records.delete(id);
      this.#records.set(id, record);
    }
    for (const id of this.#records.keys()) {
      if (this.#records.size <= this.#maxEntries) break;
      this.#records.delete(id);
    }
  }

  /** The most records it holds (`Infinity` without a bound). */
  get maxEntries() {
    return this.#maxEntries;
  }

  /** How many records it holds. */
  get size() {
    return this.#records.size;
  }

  /** Removes every record. */
  clear() {
    this.#records.clear();
  }
}

const STORE = 'records';

/**
 * A failure of IndexedDB as the package's error: code `cache`, the browser's `DOMException`
 * as its `cause`.
 */
function cacheError(what, cause) {
  const reason = cause?.message ? `: ${cause.message}` : '';
  return new SerpkitError('cache', `IndexedDbRecordCache: ${what}${reason}`, { cause });
}

function request(pending) {
  return new Promise((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result);
    pending.onerror = () => reject(cacheError('the request failed', pending.error));
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(cacheError('the transaction was aborted', transaction.error));
    transaction.onerror = () => reject(cacheError('the transaction failed', transaction.error));
  });
}

/** `fn()`, a synchronous throw of IndexedDB (a closed database, a quota) as a `cache` error. */
function guarded(what, fn) {
  try {
    return fn();
  } catch (error) {
    throw cacheError(what, error);
  }
}

/**
 * Keeps records in the browser's IndexedDB (database `name`, default `serpkit-records`), so
 * they outlive the page. One transaction per `get` and per `put`.
 */
export class IndexedDbRecordCache {
  #name;
  #database = null;

  constructor(name = 'serpkit-records') {
    if (typeof indexedDB === 'undefined') {
      throw new SerpkitError('invalid_argument', 'IndexedDbRecordCache: this environment has no indexedDB (use MemoryRecordCache)');
    }
    this.#name = String(name);
  }

  #open() {
    if (!this.#database) {
      const opening = guarded('cannot open the database', () => indexedDB.open(this.#name, 1));
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
      this.#database = request(opening).catch((error) => {
        this.#database = null;
        throw error;
      });
    }
    return this.#database;
  }

  /** Stored records of `keys` (`null` where none), in order. */
  async get(kind, keys) {
    const database = await this.#open();
    const found = await guarded('cannot read', () => {
      const store = database.transaction(STORE, 'readonly').objectStore(STORE);
      return Promise.all(keys.map((key) => request(store.get(`${kind}\u0000${key}`))));
    });
    return found.map((record) => record ?? null);
  }

  /** Stores `[{ key, record }]` in one transaction. */
  async put(kind, entries) {
    const database = await this.#open();
    const transaction = guarded('cannot write', () => {
      const writing = database.transaction(STORE, 'readwrite');
      const store = writing.objectStore(STORE);
      for (const { key, record } of entries) {
        store.put(record, `${kind}\u0000${key}`);
      }
      return writing;
    });
    await done(transaction);
  }

  /** Removes every record. */
  async clear() {
    const database = await this.#open();
    const transaction = guarded('cannot clear', () => {
      const clearing = database.transaction(STORE, 'readwrite');
      clearing.objectStore(STORE).clear();
      return clearing;
    });
    await done(transaction);
  }

  /** Closes the database connection. */
  async close() {
    if (this.#database) {
      (await this.#database).close();
      this.#database = null;
    }
  }
}
