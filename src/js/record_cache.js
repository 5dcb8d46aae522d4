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
    return keys.map((key) => this.#records.get(`${kind}\u0000${key}`) ?? null);
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

function request(pending) {
  return new Promise((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result);
    pending.onerror = () => reject(pending.error ?? new Error('IndexedDB request failed'));
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
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
      throw new Error('IndexedDbRecordCache: this environment has no indexedDB (use MemoryRecordCache)');
    }
    this.#name = String(name);
  }

  #open() {
    if (!this.#database) {
      const opening = indexedDB.open(this.#name, 1);
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
    const transaction = database.transaction(STORE, 'readonly');
    const store = transaction.objectStore(STORE);
    const found = await Promise.all(keys.map((key) => request(store.get(`${kind}\u0000${key}`))));
    return found.map((record) => record ?? null);
  }

  /** Stores `[{ key, record }]` in one transaction. */
  async put(kind, entries) {
    const database = await this.#open();
    const transaction = database.transaction(STORE, 'readwrite');
    const store = transaction.objectStore(STORE);
    for (const { key, record } of entries) {
      store.put(record, `${kind}\u0000${key}`);
    }
    await done(transaction);
  }

  /** Removes every record. */
  async clear() {
    const database = await this.#open();
    const transaction = database.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).clear();
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
