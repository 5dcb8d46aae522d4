// Pay once per record with the package's record caches, against the sandbox server's ledger:
// only records the cache lacks are sent and charged, answers come back in request order.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit, sandbox, serveRepo, launchChromium, expectError } from './support.mjs';

const { Client, MemoryRecordCache } = serpkit;
const words = (n, from = 0) => Array.from({ length: n }, (_, i) => `running shoes ${i + from}`);

function client(cache, extra = {}) {
  return new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, cache, ...extra });
}

test('the same list plus one new keyword prices and buys one keyword', async () => {
  await sandbox.reset();
  const cache = new MemoryRecordCache();
  const c = client(cache);
  const ten = words(10);
  const first = await c.searchVolumeBulk({ keywords: ten, ccode: 'US' });
  assert.equal(first.charge.display, '$0.0030');
  assert.equal(first.bought, 10);
  assert.equal(first.fromCache, 0);
  assert.equal(cache.size, 10);

  const eleven = [...ten.slice(0, 4), 'trail shoes', ...ten.slice(4)];
  const quote = await c.quote('search_volume/bulk', { keywords: eleven, ccode: 'US' });
  assert.equal(quote.display, '$0.0003');
  assert.equal(quote.newRecords, 1);
  assert.equal(quote.fromCache, 10);
  assert.equal(quote.summary, '1 new keyword · 10 already bought');

  const second = await c.searchVolumeBulk({ keywords: eleven, ccode: 'US' });
  assert.equal(second.charge.display, '$0.0003');
  assert.equal(second.fromCache, 10);
  assert.deepEqual(second.data.map((r) => r.keyword), eleven);
  assert.equal(second.report.ok, true);

  const ledger = await sandbox.ledger();
  assert.equal(ledger.total, '0.0033');
  assert.deepEqual(ledger.entries.map((e) => e.units), [10, 1]);
  assert.equal(c.spent.display, '$0.0033');

  // All bought: nothing sent, nothing charged, and it says so.
  const none = await c.quote('search_volume/bulk', { keywords: eleven, ccode: 'us' });
  assert.equal(none.micros, 0);
  assert.equal(none.summary, 'all 11 keywords already bought');
  const third = await c.searchVolumeBulk({ keywords: eleven, ccode: 'US' });
  assert.equal(third.charge.micros, 0);
  assert.equal(third.attempts, 0);
  assert.equal((await sandbox.ledger()).entries.length, 2);
});

test('a chunked bulk job buys only the keywords the cache lacks', async () => {
  await sandbox.reset();
  const cache = new MemoryRecordCache();
  const c = client(cache);
  const all = words(7);
  await c.searchVolumeBulk({ keywords: [all[2], all[5]], ccode: 'US' });
  const seen = [];
  const r = await c.searchVolumeBulkChunked(
    { keywords: all, ccode: 'US' },
    { chunkSize: 2, concurrency: 2, onProgress: (p) => seen.push(p.doneKeywords) },
  );
  assert.equal(r.error, null);
  assert.deepEqual(r.data.map((x) => x.keyword), all);
  assert.equal(r.fromCache, 2);
  assert.equal(r.bought, 5);
  assert.equal(r.charge.display, '$0.0015');
  assert.equal(r.report.ok, true);
  assert.deepEqual(r.missing, []);
  assert.equal(seen.at(-1), 5);
  const ledger = await sandbox.ledger();
  // Chunks run two at a time, so the last two may reach the ledger in either order.
  assert.deepEqual(ledger.entries.map((e) => e.units).sort(), [1, 2, 2, 2]);
  assert.equal(ledger.total, '0.0021');
});

test('single answers from bulk records; domains bought together are not sold again', async () => {
  await sandbox.reset();
  const c = client(new MemoryRecordCache());
  await c.searchVolumeBulk({ keywords: words(3), ccode: 'US' });
  const single = await c.searchVolumeSingle({ keyword: '  Running   SHOES 2 ', ccode: 'US' });
  assert.equal(single.charge.micros, 0);
  assert.equal(single.data.keyword, 'running shoes 2');

  await c.domainStats({ domains: ['example.com', 'shop.example.org'] });
  const one = await c.domainStats({ domains: ['Example.com'] });
  assert.equal(one.charge.micros, 0);
  assert.equal(one.data.length, 1);
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((e) => e.operation), ['search_volume/bulk', 'domainstats']);
  assert.equal(ledger.total, '0.1009');
});

test('refresh and maxAgeMs buy again, with their price', async () => {
  await sandbox.reset();
  const cache = new MemoryRecordCache();
  const c = client(cache);
  const req = { keywords: words(4), ccode: 'US' };
  await c.searchVolumeBulk(req);
  const q = await c.quote('search_volume/bulk', req, { refresh: true });
  assert.equal(q.display, '$0.0012');
  const again = await c.searchVolumeBulk(req, { refresh: true });
  assert.equal(again.charge.display, '$0.0012');

  const aged = client(cache, { maxAgeMs: 1 });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal((await aged.quote('search_volume/bulk', req)).newRecords, 4);
  // Another base URL never reuses these records.
  const other = new Client({ key: sandbox.key, baseUrl: `${sandbox.url}/`.replace('127.0.0.1', 'localhost'), cache });
  assert.equal((await other.quote('search_volume/bulk', req)).newRecords, 4);
  assert.equal((await sandbox.ledger()).total, '0.0024');
});

test('a cache that fails to store never loses the paid answer', async () => {
  await sandbox.reset();
  const broken = {
    get: (_kind, keys) => keys.map(() => null),
    put: async () => {
      throw new Error('quota exceeded');
    },
  };
  const c = client(broken);
  const r = await c.searchVolumeBulk({ keywords: words(3), ccode: 'US' });
  assert.equal(r.cacheError, 'quota exceeded');
  assert.deepEqual(r.data.map((x) => x.keyword), words(3));
  assert.equal(r.charge.display, '$0.0009');
  assert.throws(() => new Client({ key: 'k', cache: {} }), /cache must be an object with get/);
});

test('IndexedDbRecordCache keeps records across page loads (headless Chromium)', async () => {
  await sandbox.reset();
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/www/`);
    const run = (keywords) =>
      page.evaluate(
        async ({ url, key, keywords }) => {
          const m = await import('/pkg/serpkit.js');
          await m.default();
          const c = new m.Client({ key, baseUrl: url, cache: new m.IndexedDbRecordCache('test-records') });
          const r = await c.searchVolumeBulk({ keywords, ccode: 'US' });
          return { charge: r.charge.display, fromCache: r.fromCache, keywords: r.data.map((x) => x.keyword) };
        },
        { url: sandbox.url, key: sandbox.key, keywords },
      );
    const first = await run(words(3));
    assert.deepEqual(first, { charge: '$0.0009', fromCache: 0, keywords: words(3) });
    await page.reload();
    const second = await run([...words(3), 'trail shoes']);
    assert.deepEqual(second, { charge: '$0.0003', fromCache: 3, keywords: [...words(3), 'trail shoes'] });
    assert.equal((await sandbox.ledger()).total, '0.0012');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test('overlapping calls never share an id: a slow cache.put loses neither body', async () => {
  await sandbox.reset();
  const inner = new MemoryRecordCache();
  let gets = 0;
  let secondBegun;
  const second = new Promise((resolve) => (secondBegun = resolve));
  let firstPutStarted;
  const firstPut = new Promise((resolve) => (firstPutStarted = resolve));
  const puts = [];
  const cache = {
    async get(kind, keys) {
      gets += 1;
      if (gets === 2) secondBegun();
      return inner.get(kind, keys);
    },
    async put(kind, entries) {
      puts.push(entries.length);
      if (puts.length === 1) {
        firstPutStarted();
        // The first call still stores what it bought when the second begins; it ends (and
        // drops its id) while the second is pending: its id must not be the second's, or its
        // `__drop` would forget the second.
        await second;
      }
      return inner.put(kind, entries);
    },
  };
  const c = client(cache);
  const a = c.searchVolumeBulk({ keywords: words(2), ccode: 'US' });
  await firstPut;
  const b = c.searchVolumeBulk({ keywords: words(3, 10), ccode: 'US' });
  const [first, next] = await Promise.all([a, b]);
  assert.deepEqual(first.data.map((x) => x.keyword), words(2));
  assert.deepEqual(next.data.map((x) => x.keyword), words(3, 10));
  assert.equal(first.cacheError, undefined);
  assert.equal(next.cacheError, undefined);
  assert.deepEqual(puts, [2, 3]);
  assert.equal(inner.size, 5, 'both bodies are stored');
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((e) => e.units), [2, 3]);
  assert.equal(c.spent.display, '$0.0015');
});

test('a chunked job stores each chunk as it arrives; an aborted job keeps what it paid for', async () => {
  await sandbox.reset();
  const inner = new MemoryRecordCache();
  const puts = [];
  const cache = {
    get: (kind, keys) => inner.get(kind, keys),
    put(kind, entries) {
      puts.push(entries.map((e) => e.key));
      return inner.put(kind, entries);
    },
  };
  const c = client(cache);
  const all = words(6);
  const ctl = new AbortController();
  const storedAtProgress = [];
  const first = await c.searchVolumeBulkChunked(
    { keywords: all, ccode: 'US' },
    {
      chunkSize: 2,
      concurrency: 1,
      signal: ctl.signal,
      onProgress: (p) => {
        // The chunk's records are in the cache before the job ends (a killed process keeps
        // them): one put per chunk, made as the chunk arrived.
        storedAtProgress.push(inner.size);
        if (p.doneChunks === 1) ctl.abort();
      },
    },
  );
  // (The chunks never sent report their progress too: the cache still holds the first's.)
  assert.equal(storedAtProgress[0], 2);
  assert.ok(storedAtProgress.every((n) => n === 2));
  assert.equal(first.error?.code, 'aborted');
  assert.deepEqual(first.data.map((x) => x.keyword), all.slice(0, 2));
  assert.deepEqual(first.missing, all.slice(2));
  assert.equal(first.bought, 2);
  assert.equal(puts.length, 1, 'one cache.put per chunk, none again at the end');
  assert.equal(inner.size, 2);

  // The same job again with the same cache buys only the rest.
  const storedThen = [];
  const second = await c.searchVolumeBulkChunked(
    { keywords: all, ccode: 'US' },
    { chunkSize: 2, concurrency: 1, onProgress: () => storedThen.push(inner.size) },
  );
  assert.equal(second.error, null);
  assert.deepEqual(second.data.map((x) => x.keyword), all);
  assert.equal(second.fromCache, 2);
  assert.equal(second.bought, 4);
  assert.equal(second.charge.display, '$0.0012');
  assert.deepEqual(storedThen, [4, 6], 'each chunk stored as it arrived');
  assert.equal(puts.length, 3);
  assert.equal(inner.size, 6);
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((e) => e.units), [2, 2, 2]);
  assert.equal(ledger.total, '0.0018');
  assert.equal(c.spent.display, '$0.0018');
});

test('strict refusal with a cache: the merged data paid for is on the error and stored', async () => {
  await sandbox.reset();
  const cache = new MemoryRecordCache();
  const strict = new Client({ key: `${sandbox.key}+break=type`, baseUrl: sandbox.url, retries: 0, cache, validation: 'strict' });
  const e = await expectError(strict.searchVolumeBulk({ keywords: words(2), ccode: 'US' }), 'contract_violation');
  assert.equal(e.report.ok, false);
  assert.ok(Array.isArray(e.data));
  assert.deepEqual(e.data.map((x) => x.keyword), words(2));
  assert.equal(e.charge.display, '$0.0006');
  assert.equal(cache.size, 2, 'what was paid for is stored before the refusal');
  assert.equal((await sandbox.ledger()).total, '0.0006');
});
