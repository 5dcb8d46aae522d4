// Standard Schema and `validateResponse` on the package's own data never throw, and a report
// that is not ok says why: data of `new Client({ integers: "bigint" | "string" })` validates
// (exact integers read as the integers they are), an id that `JSON.parse` rounded to 2^63 is
// an `unsafe_integer` warning, a bad `request` option is refused by `responseSchema()` itself,
// and warnings never push the errors out of the capped list.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit, sandbox, expectError } from './support.mjs';
import { exactData } from '../../pkg/exact_json.js';

/** The microblog posts' declared exact field (static_data.js's `LARGE_INTEGERS`). */
const USER_ID = ['/*/profile/user_id'];
import fs from 'node:fs';

const FIXTURE = JSON.parse(fs.readFileSync(new URL('../fixtures/microblog_post.json', import.meta.url), 'utf8'));

const { Client, responseSchema, validateResponse, SerpkitError } = serpkit;

const I64_MAX = '9223372036854775807';

/** A fetch that passes calls to the sandbox and writes 64-bit ids over its `user_id`s. */
function idsNear2to63(ids) {
  return async (url, init) => {
    const upstream = await fetch(url, init);
    let k = 0;
    const text = (await upstream.text()).replace(/"user_id":-?[0-9]+/g, () => `"user_id":${ids[k++ % ids.length]}`);
    return new Response(text, { status: upstream.status, headers: { 'content-type': 'application/json' } });
  };
}

test('data of integers: "bigint" and "string" validates: validateResponse and ~standard.validate agree with the text', async () => {
  await sandbox.reset();
  const ids = [I64_MAX, '9007199254740993', '-9223372036854775808', '12345'];
  const schema = responseSchema('microblog/post')['~standard'];
  for (const integers of ['bigint', 'string']) {
    const client = new Client({ key: sandbox.key, baseUrl: sandbox.url, integers, fetch: idsNear2to63(ids) });
    const { data, report } = await client.microblogPost({ keyword: 'trail shoes' });
    assert.equal(report.ok, true, integers);
    assert.equal(typeof data[0].profile.user_id, integers, 'the mode made the id exact');
    const value = validateResponse('microblog/post', data);
    assert.deepEqual(value, report, `${integers}: the value's report is the text's`);
    const result = schema.validate(data);
    assert.equal(result.issues, undefined, integers);
    assert.equal(result.value, data);
    assert.deepEqual(result.serpkit.report.warnings.filter((w) => w.code === 'unsafe_integer'), []);
  }
});

test('exact integers are checked as integers: outside 64 bits or in another form is a type error, never a throw', () => {
  const text = JSON.stringify([post()]).replace(/"user_id":[0-9]+/, `"user_id":${I64_MAX}`);
  const big = exactData(text, 'bigint', USER_ID).data;
  big[0].profile.user_id = 2n ** 63n;
  const report = validateResponse('microblog/post', big);
  assert.deepEqual(report.errors.map((i) => [i.path, i.code, i.message]), [
    ['/0/profile/user_id', 'type', 'expected an integer, found integer 9223372036854775808 (outside the 64-bit range)'],
  ]);
  // A string is an integer only as "string" mode writes one: beyond ±(2^53 − 1), no leading zero.
  for (const id of ['12', '09007199254740993', '+9007199254740993', '9007199254740993.0', '9223372036854775808']) {
    const data = exactData(text, 'string', USER_ID).data;
    data[0].profile.user_id = id;
    assert.deepEqual(validateResponse('microblog/post', data).errors.map((i) => [i.path, i.code]), [['/0/profile/user_id', 'type']], id);
  }
  // A BigInt where a number (not an integer) belongs, in an unknown field, and as the body.
  const data = exactData(text, 'bigint', USER_ID).data;
  data[0].extra = 12345678901234567890n;
  const result = responseSchema('microblog/post')['~standard'].validate(data);
  assert.equal(result.issues, undefined);
  assert.deepEqual(result.serpkit.report.warnings.map((w) => [w.path, w.code]), [['/0/extra', 'unknown_field']]);
  assert.deepEqual(validateResponse('microblog/post', 5n).errors.map((i) => i.code), ['type']);
});

test('an id JSON.parse rounded up to 2^63 is an unsafe_integer warning, not a type error', () => {
  const text = JSON.stringify([post()]).replace(/"user_id":[0-9]+/, `"user_id":${I64_MAX}`);
  assert.equal(validateResponse('microblog/post', text).ok, true, 'the text is valid');
  const value = JSON.parse(text);
  assert.equal(value[0].profile.user_id, 2 ** 63);
  const result = responseSchema('microblog/post')['~standard'].validate(value);
  assert.equal(result.issues, undefined);
  assert.deepEqual(result.serpkit.report.warnings.map((w) => [w.path, w.code]), [['/0/profile/user_id', 'unsafe_integer']]);
  // −2^63 is i64::MIN itself; the next double beyond 2^63 is out of range for any reading.
  value[0].profile.user_id = -(2 ** 63);
  assert.equal(validateResponse('microblog/post', value).ok, true);
  value[0].profile.user_id = 2 ** 63 + 2048;
  assert.deepEqual(validateResponse('microblog/post', value).errors.map((i) => i.code), ['type']);
});

test('responseSchema() refuses a bad request option when called; validate never throws', async () => {
  const error = await expectError(() => responseSchema('related', { request: { keyword: 'trail shoes' } }), 'invalid_request');
  assert.ok(error instanceof SerpkitError);
  await expectError(() => responseSchema('related', { request: '{' }), 'invalid_request');
  await expectError(() => responseSchema('related', 'request'), 'invalid_argument');
  const schema = responseSchema('related', { request: { keyword: 'trail shoes', ccode: 'US' } })['~standard'];
  const cyclic = [{ keyword: 'trail shoes' }];
  cyclic[0].self = cyclic;
  cyclic[0].when = new Date(0);
  const result = schema.validate(cyclic);
  assert.equal(result.issues.length, 1);
  assert.equal(result.issues[0].code, 'invalid_argument');
  assert.ok(result.serpkit.error instanceof SerpkitError);
});

/** `related` rows, each with an unknown field; `bad(i)` rows have a type error. */
function rows(n, bad) {
  return Array.from({ length: n }, (_, i) => ({ keyword: `k${i}`, competition: 0.4, cpc: 1.2, search_volume: 90, kd: bad(i) ? '7' : 7, new: 1 }));
}

test('warnings never hide errors: a later error is listed though 1,000 warnings came first', () => {
  const body = rows(5_000, (i) => i === 4_000);
  for (const report of [validateResponse('related', body), validateResponse('related', JSON.stringify(body))]) {
    assert.equal(report.ok, false);
    assert.deepEqual(report.errors.map((i) => i.path), ['/4000/kd']);
    assert.equal(report.warnings.length, 999);
    assert.deepEqual([report.error_count, report.warning_count, report.omitted], [1, 5_000, 4_001]);
    assert.equal(report.warnings.at(-1).path, '/998/new', 'the first warnings, in text order');
  }
  const result = responseSchema('related')['~standard'].validate(body);
  assert.deepEqual(result.issues.map((i) => i.path), [[4000, 'kd']]);
  // More errors than the list holds: the first 1,000 of them.
  const many = validateResponse('related', rows(3_000, (i) => i >= 500));
  assert.equal(many.errors.length, 1_000);
  assert.equal(many.errors[0].path, '/500/kd');
  assert.deepEqual([many.warnings.length, many.error_count], [0, 2_500]);
});

/** A valid `microblog/post` record (the fixture's first). */
function post() {
  return structuredClone(FIXTURE[0]);
}
