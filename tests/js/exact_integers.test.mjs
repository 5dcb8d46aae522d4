// Exact integers: microblog `user_id` is a 64-bit id, beyond what a JS
// number holds exactly (±(2^53 − 1)). The client's `integers` option: "number" (default:
// rounded, with one `unsafe_integer` warning per field path pattern), "bigint" or "string"
// (exact in the fields declared as ids, the ones the types make `LargeInteger<I>`; every other
// number stays a number, a rounded one with its warning). Tested in Node and in headless Chromium against
// a server that passes the calls to the sandbox (so the ledger counts them) and rewrites the
// ids to values near 2^63, and one just past 2^53.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serpkit, sandbox, expectError, launchChromium, serveRepo } from './support.mjs';
import { exactData, largeIntegers, unsafeIntegers } from '../../pkg/exact_json.js';
import { LARGE_INTEGERS } from '../../pkg/static_data.js';

const { Client } = serpkit;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The ids written over the sandbox's, in order (then 2^63 − 1 − k for the k-th). */
const IDS = ['9223372036854775807', '9007199254740993', '12345', '-9223372036854775808'];
const idAt = (k) => IDS[k] ?? String(9223372036854775807n - BigInt(k));

/**
 * Serves pkg/ and a page at `/`, and passes `/v1/*` to the sandbox with every `user_id`
 * rewritten (`bodies` keeps each answer's text as sent).
 */
async function startServer() {
  const bodies = [];
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/v1/')) {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const upstream = await fetch(`${sandbox.url}${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      let k = 0;
      const text = (await upstream.text()).replace(/"user_id":-?[0-9]+/g, () => `"user_id":${idAt(k++)}`);
      bodies.push(text);
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      return res.end(text);
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><meta charset="utf-8"><title>exact integers</title><p>exact integers</p>');
    }
    const file = path.join(ROOT, 'pkg', path.basename(url.pathname));
    if (!url.pathname.startsWith('/pkg/') || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, bodies, url: `http://127.0.0.1:${server.address().port}` };
}

/** The exact `user_id` digits of an answer's text, in order. */
const idsOf = (text) => [...text.matchAll(/"user_id":(-?[0-9]+)/g)].map((m) => m[1]);

test('the text scan finds exactly the integers beyond ±(2^53 − 1), with their paths', () => {
  const text =
    '{"a":[9007199254740991,9007199254740992,-9007199254740991,-9007199254740992],' +
    '"s":"12345678901234567890 \\" 99999999999999999","f":1.5e300,"g":12345678901234567.5,' +
    '"h":123456789012345678e2,"x/y~":{"id":18446744073709551616},"":-12345678901234567}';
  const found = unsafeIntegers(text).map((f) => [f.path, f.digits]);
  assert.deepEqual(found, [
    [['a', 1], '9007199254740992'],
    [['a', 3], '-9007199254740992'],
    [['x/y~', 'id'], '18446744073709551616'],
    [[''], '-12345678901234567'],
  ]);
  // Declared ids are exact whatever their size; an undeclared one is left as it is.
  assert.deepEqual(exactData('[{"id":7,"n":8},{"id":-9,"n":1.5},{"id":2.5}]', 'bigint', ['/*/id']).data, [{ id: 7n, n: 8 }, { id: -9n, n: 1.5 }, { id: 2.5 }]);
  assert.deepEqual(exactData('[{"id":7}]', 'string', ['/*/id']).data, [{ id: 7 }]);
  assert.deepEqual(exactData('[{"id":7}]', 'number', ['/*/id']).data, [{ id: 7 }]);
  // A body that is one such integer, declared exact (the root's pointer is empty).
  assert.equal(exactData('12345678901234567890', 'bigint', ['']).data, 12345678901234567890n);
  assert.equal(exactData('12345678901234567890', 'string', ['']).data, '12345678901234567890');
  // Under "number": one warning per path pattern, its pointer escaped.
  const { data, warnings } = exactData('[{"x/y~":{"id":18446744073709551616}},{"x/y~":{"id":18446744073709551617}}]', 'number');
  assert.equal(data[1]['x/y~'].id, 18446744073709552000);
  assert.deepEqual(warnings.map((w) => [w.path, w.code, w.severity]), [['/0/x~1y~0/id', 'unsafe_integer', 'warning']]);
  assert.match(warnings[0].message, /reported once for \/\*\/x~1y~0\/id/);
  // Text without a 16-digit run is not scanned at all.
  assert.deepEqual(unsafeIntegers('[1,2,"123456789012345",1e300]'), []);
});

test('the exact fields are the declared ids: microblog profile.user_id, nothing else', () => {
  const { operations } = serpkit;
  const declared = Object.fromEntries(operations().map((op, i) => [op.path, LARGE_INTEGERS[i]]));
  for (const [path, paths] of Object.entries(declared)) {
    assert.deepEqual(paths, path === 'microblog/post' ? ['/*/profile/user_id'] : [], path);
  }
  // Read by the core's name of the operation, as a call takes it; none for an unknown name.
  for (const name of ['microblog/post', '/v1/microblog/post', ' microblog/post ']) {
    assert.deepEqual(largeIntegers(Client, name), ['/*/profile/user_id'], name);
  }
  assert.deepEqual(largeIntegers(Client, 'related'), []);
  assert.deepEqual(largeIntegers(Client, 'no/such'), []);
  assert.deepEqual(largeIntegers(Client, { toString() { throw new Error('no'); } }), []);
  // Undeclared: a number in every mode, rounded, with its warning; an undeclared safe integer
  // is untouched.
  for (const mode of ['number', 'bigint', 'string']) {
    const { data, warnings } = exactData('[{"id":18446744073709551616,"n":12345678901234567,"k":7}]', mode, ['/*/id']);
    assert.equal(typeof data[0].n, 'number', mode);
    assert.equal(data[0].k, 7);
    assert.deepEqual(warnings.map((w) => w.path), mode === 'number' ? ['/0/id', '/0/n'] : ['/0/n'], mode);
    assert.match(warnings.at(-1).message, /not a field declared to hold a 64-bit id/);
  }
});

test('an unknown integers mode is an invalid_argument error at construction', async () => {
  for (const integers of ['bigints', 42, true]) {
    const error = await expectError(() => new Client({ key: sandbox.key, integers }), 'invalid_argument');
    assert.match(error.message, /integers must be one of \["number","bigint","string"\]/);
  }
  // JSON text options are read the same way.
  await expectError(() => new Client(JSON.stringify({ key: sandbox.key, integers: 'float' })), 'invalid_argument');
  assert.ok(new Client(JSON.stringify({ key: sandbox.key, integers: 'string' })) instanceof Client);
});

test('Node: ids near 2^63 are exact under bigint and string, rounded with one warning under number', async () => {
  const { server, bodies, url } = await startServer();
  try {
    await sandbox.reset();
    const request = { keyword: 'trail shoes' };
    const calls = 4;

    const exact = await new Client({ key: sandbox.key, baseUrl: url, integers: 'bigint' }).microblogPost(request);
    const ids = idsOf(bodies.at(-1));
    assert.ok(ids.length >= 3, `posts: ${ids.length}`);
    // Every declared id is a BigInt, small ones too: one type covers them.
    assert.deepEqual(exact.data.map((post) => post.profile.user_id), ids.map((id) => BigInt(id)));
    assert.equal(exact.data[2].profile.user_id, 12345n, 'a small id is a BigInt too');
    assert.equal(typeof exact.data[0].likes, 'number', 'other integers stay numbers');
    assert.equal(exact.report.warnings.filter((w) => w.code === 'unsafe_integer').length, 0);

    const strings = await new Client({ key: sandbox.key, baseUrl: url, integers: 'string' }).call('microblog/post', request);
    assert.deepEqual(strings.data.map((post) => String(post.profile.user_id)), idsOf(bodies.at(-1)));
    assert.equal(strings.data[0].profile.user_id, '9223372036854775807');
    assert.equal(strings.data[2].profile.user_id, 12345, 'under "string" a small id stays a number');

    const rounded = await new Client({ key: sandbox.key, baseUrl: url }).microblogPost(request);
    assert.equal(rounded.data[0].profile.user_id, 9223372036854775807);
    const warned = rounded.report.warnings.filter((w) => w.code === 'unsafe_integer');
    assert.equal(warned.length, 1, 'once per field path pattern, not once per record');
    assert.equal(warned[0].path, '/0/profile/user_id');
    assert.match(warned[0].message, /9223372036854775807.*reported once for \/\*\/profile\/user_id/);
    assert.equal(rounded.report.warning_count, rounded.report.warnings.length);
    assert.equal(rounded.report.ok, true);

    // Validation off: no report but the warning, so rounding is never silent.
    const off = await new Client({ key: sandbox.key, baseUrl: url, validation: 'off' }).microblogPost(request);
    assert.deepEqual(off.report.warnings.map((w) => w.code), ['unsafe_integer']);
    assert.deepEqual([off.report.ok, off.report.errors.length], [true, 0]);

    // Each call was bought once, and only once.
    const ledger = await sandbox.ledger();
    assert.equal(ledger.entries.length, calls);
  } finally {
    server.close();
  }
});

test('Node: a declared id becomes a BigInt, an undeclared integer beyond 2^53 stays a number with its warning', async () => {
  await sandbox.reset();
  // The sandbox's posts with a 64-bit `user_id` (declared) and `likes` (an integer not
  // declared as an id) beyond 2^53.
  const bigLikes = async (url, init) => {
    const upstream = await fetch(url, init);
    const text = (await upstream.text())
      .replace(/"user_id":-?[0-9]+/g, '"user_id":9223372036854775807')
      .replace(/"likes":[0-9]+/g, '"likes":9007199254740993');
    return new Response(text, { status: upstream.status, headers: { 'content-type': 'application/json' } });
  };
  const request = { keyword: 'trail shoes' };
  for (const integers of ['bigint', 'string']) {
    const client = new Client({ key: sandbox.key, baseUrl: sandbox.url, integers, fetch: bigLikes });
    for (const reply of [await client.microblogPost(request), await client.call('/v1/microblog/post', request)]) {
      assert.ok(reply.data.length >= 1);
      for (const post of reply.data) {
        assert.equal(post.profile.user_id, integers === 'bigint' ? 9223372036854775807n : '9223372036854775807');
        assert.equal(typeof post.likes, 'number', 'likes is not declared: a number');
        assert.equal(post.likes, 9007199254740992, 'rounded by JSON.parse');
      }
      assert.equal(reply.report.ok, true);
      const warned = reply.report.warnings.filter((w) => w.code === 'unsafe_integer');
      assert.deepEqual(warned.map((w) => w.path), ['/0/likes'], 'once for the pattern /*/likes');
      assert.match(warned[0].message, /9007199254740993.*not a field declared to hold a 64-bit id.*reported once for \/\*\/likes/);
    }
  }
});

test('Chromium: the same three modes in a page', async () => {
  const { server, bodies, url } = await startServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${url}/`);
    const result = await page.evaluate(
      async ({ key }) => {
        const { default: init, Client } = await import('/pkg/serpkit.js');
        await init();
        const out = {};
        for (const integers of ['bigint', 'string', 'number']) {
          const reply = await new Client({ key, baseUrl: location.origin, integers }).microblogPost({ keyword: 'trail shoes' });
          out[integers] = {
            ids: reply.data.map((post) => [typeof post.profile.user_id, String(post.profile.user_id)]),
            warnings: reply.report.warnings.filter((w) => w.code === 'unsafe_integer').map((w) => w.path),
          };
        }
        return out;
      },
      { key: sandbox.key },
    );
    assert.equal(bodies.length, 3);
    const expected = (k) => idsOf(bodies[k]);
    const kinds = (ids, big) => ids.map((id) => (big === 'bigint' || !Number.isSafeInteger(Number(id)) ? big : 'number'));
    assert.deepEqual(result.bigint.ids, expected(0).map((id, i) => [kinds(expected(0), 'bigint')[i], id]));
    assert.deepEqual(result.string.ids, expected(1).map((id, i) => [kinds(expected(1), 'string')[i], id]));
    assert.deepEqual([result.bigint.warnings, result.string.warnings], [[], []]);
    assert.equal(result.number.ids[0][1], String(Number('9223372036854775807')));
    assert.deepEqual(result.number.warnings, ['/0/profile/user_id']);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test('stringify writes data with BigInts back as JSON (JSON.rawJSON where present, else the marker)', () => {
  const { stringify } = serpkit;
  const data = [{ profile: { user_id: 9223372036854775807n, small: 7n }, text: 'a "quoted" \u0000 text', n: 1.5 }];
  const want = '[{"profile":{"user_id":9223372036854775807,"small":7},"text":"a \\"quoted\\" \\u0000 text","n":1.5}]';
  assert.throws(() => JSON.stringify(data), TypeError);
  assert.equal(stringify(data), want);
  assert.equal(stringify({ a: 1n, b: [2n] }, 2), '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
  // The fallback, as on a runtime without JSON.rawJSON (Node 20).
  const raw = JSON.rawJSON;
  try {
    JSON.rawJSON = undefined;
    assert.equal(stringify(data), want);
    assert.equal(stringify(-12n), '-12');
    assert.equal(stringify(undefined), undefined);
  } finally {
    JSON.rawJSON = raw;
  }
  // Round trip through the client's reading.
  assert.deepEqual(exactData(stringify(data), 'bigint', ['/*/profile/user_id']).data[0].profile.user_id, 9223372036854775807n);
});

test("Chromium: JSON.parse's context.source finds the same integers as the text scan (which Node 20 needs)", async () => {
  const texts = [
    '{"a":[9007199254740991,9007199254740992,-9007199254740991,-9007199254740992],' +
      '"s":"12345678901234567890 \\" 99999999999999999","f":1.5e300,"g":12345678901234567.5,' +
      '"h":123456789012345678e2,"x/y~":{"id":18446744073709551616},"":-12345678901234567}',
    '[{"profile":{"user_id":9223372036854775807,"n":1}},{"profile":{"user_id":12}},{"profile":{"user_id":-9223372036854775808}}]',
    '12345678901234567890',
    '[[[1e16,10000000000000001]]]',
  ];
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const base = `http://127.0.0.1:${server.address().port}`;
    await page.route(`${base}/pkg/empty.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' }));
    await page.goto(`${base}/pkg/empty.html`);
    const out = await page.evaluate(async (texts) => {
      const m = await import('/pkg/exact_json.js');
      return texts.map((text) => ({ source: m.integersBySource(text).found, scan: m.unsafeIntegers(text) }));
    }, texts);
    for (const [i, { source, scan }] of out.entries()) {
      assert.deepEqual(source, scan, texts[i]);
      assert.deepEqual(scan, unsafeIntegers(texts[i]), 'the page scans as Node does');
    }
    assert.ok(out[1].source.length === 2 && out[0].source.length === 4);
  } finally {
    await browser.close();
    server.close();
  }
});
