// Replies and parsed bodies say their outcome in `ok`, the discriminant of `Reply<T, V>` and
// `Parsed<T>` in serpkit.d.ts (tests/ts/outcomes.ts checks the types): true with data that
// passed every rule, false with data that broke one (its report says which), null where
// nothing checked the data (`validation: "off"`).
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit, sandbox } from './support.mjs';

const { Client, MemoryRecordCache, parseResponse } = serpkit;

const REL = { keyword: 'trail shoes', ccode: 'US' };
const client = (opts = {}) => new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, ...opts });

test('a reply is ok with data that passed every rule, not ok with data that broke one, null unchecked', async () => {
  const good = await client().related(REL);
  assert.equal(good.ok, true);
  assert.equal(good.report.ok, true);
  assert.deepEqual(Object.keys(good), ['ok', 'data', 'report', 'charge', 'attempts']);

  const broken = await client({ key: `${sandbox.key}+break=type` }).related(REL);
  assert.equal(broken.ok, false);
  assert.equal(broken.report.ok, false);
  // The money fields are on both branches.
  assert.equal(broken.charge.micros > 0, true);
  assert.equal(broken.attempts, 1);

  const strict = await client({ validation: 'strict' }).related(REL);
  assert.equal(strict.ok, true);

  const off = await client({ key: `${sandbox.key}+break=type`, validation: 'off' }).related(REL);
  assert.equal(off.ok, null);
  assert.equal(off.report, null);
});

test('a reply through a record cache says its outcome too', async () => {
  const cached = client({ cache: new MemoryRecordCache() });
  const first = await cached.searchVolumeBulk({ keywords: ['trail shoes'], ccode: 'US' });
  assert.equal(first.ok, true);
  assert.equal(first.bought, 1);
  const again = await cached.searchVolumeBulk({ keywords: ['trail shoes'], ccode: 'US' });
  assert.equal(again.ok, true);
  assert.equal(again.fromCache, 1);
  const off = client({ cache: new MemoryRecordCache(), validation: 'off' });
  assert.equal((await off.domainStats({ domains: ['example.com'] })).ok, null);
});

test('parseResponse says its outcome: ok with typed data, not ok with unknown data', () => {
  const good = parseResponse('related', '[{"keyword":"a","competition":0.4,"cpc":1.2,"search_volume":90,"kd":7}]');
  assert.deepEqual([good.ok, good.report.ok, good.data.length], [true, true, 1]);
  const bad = parseResponse('related', '[{"keyword":"a","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]');
  assert.deepEqual([bad.ok, bad.report.ok, bad.data[0].kd], [false, false, '7']);
  const notJson = parseResponse('related', '[{');
  assert.deepEqual([notJson.ok, notJson.data, notJson.report.errors[0].code], [false, undefined, 'json']);
});

test('a chunked job says its outcome too: its records checked, null when validation is off', async () => {
  const keywords = { keywords: ['trail shoes', 'running shoes'], ccode: 'US' };
  const good = await client().searchVolumeBulkChunked(keywords, { chunkSize: 1 });
  assert.deepEqual([good.ok, good.report.ok, good.data.length, good.error], [true, true, 2, null]);
  const broken = await client({ key: `${sandbox.key}+break=type` }).searchVolumeBulkChunked(keywords, { chunkSize: 1 });
  assert.equal(broken.ok, false);
  assert.ok(broken.report.errors.length > 0 && broken.report.errors.every((e) => e.path.startsWith('/')), JSON.stringify(broken.report.errors));
  assert.equal(broken.data.length, 2, 'warn keeps what was paid for');
  const off = await client({ key: `${sandbox.key}+break=type`, validation: 'off' }).searchVolumeBulkChunked(keywords);
  assert.deepEqual([off.ok, off.report], [null, null]);
  // With a record cache: the core's merged report.
  const cached = await client({ cache: new MemoryRecordCache() }).searchVolumeBulkChunked(keywords);
  assert.deepEqual([cached.ok, cached.report.ok, cached.bought], [true, true, 2]);
});
