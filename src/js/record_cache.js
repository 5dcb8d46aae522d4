// Record caches for the JS package's `Client` (`new Client({ cache })`): where bought records
// are kept so a record is paid for once. Written in JS, not Rust, so they cost the package's
// wasm nothing. Any object with the same `get`/`put` works (see `RecordCache` in the types).
//
// A record is `{ json, boughtAt, issues, imported }`: its JSON exactly as the service wrote
// it, when it was bought (ms since the epoch), its validation issues (paths relative to the
// record) and whether it came from an import (then it is never reused as bought).

/** Keeps records in memory (lost when the page or process ends). */
export class MemoryRecordCache {
  #records = new Map();

  /** Stored records of `keys` (`null` where none), in order. */
  async get(kind, keys) {
    return keys.map((k) => this.#records.get(`${kind}\u0000${k}`) ?? null);
  }

  /** Stores `[{ key, record }]`. */
  async put(kind, entries) {
    for (const { key, record } of entries) {
      this.#records.set(`${kind}\u0000${key}`, record);
    }
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

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

/**
 * Keeps records in the browser's IndexedDB (database `name`, default `serpkit-records`), so
 * they outlive the page. One transaction per `get` and per `put`.
 */
export class IndexedDbRecordCache {
  #name;
  #db = null;

  constructor(name = 'serpkit-records') {
    if (typeof indexedDB === 'undefined') {
      throw new Error('IndexedDbRecordCache: this environment has no indexedDB (use MemoryRecordCache)');
    }
    this.#name = String(name);
  }

  #open() {
    if (!this.#db) {
      const req = indexedDB.open(this.#name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      this.#db = request(req).catch((e) => {
        this.#db = null;
        throw e;
      });
    }
    return this.#db;
  }

  /** Stored records of `keys` (`null` where none), in order. */
  async get(kind, keys) {
    const db = await this.#open();
    const tx = db.transaction(STORE, 'readonly');
    const store = tx.objectStore(STORE);
    const found = await Promise.all(keys.map((k) => request(store.get(`${kind}\u0000${k}`))));
    return found.map((r) => r ?? null);
  }

  /** Stores `[{ key, record }]` in one transaction. */
  async put(kind, entries) {
    const db = await this.#open();
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const { key, record } of entries) {
      store.put(record, `${kind}\u0000${key}`);
    }
    await done(tx);
  }

  /** Removes every record. */
  async clear() {
    const db = await this.#open();
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await done(tx);
  }

  /** Closes the database connection. */
  async close() {
    if (this.#db) {
      (await this.#db).close();
      this.#db = null;
    }
  }
}
