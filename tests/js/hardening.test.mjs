// Hardening of the JS package: bad input and every sandbox fault mode.
//
// - Bad input: wrong types, missing fields, unknown operation names (strings and non-strings),
//   arguments of the wrong kind: always a `SerpkitError` with the documented `code` (never a
//   TypeError, a wasm trap or a hang), nothing sent, and the module keeps working after.
// - 100 MB bodies, each measured in a fresh Node process (`process.resourceUsage().maxRSS`
//   is the peak, so the figure includes every copy made during the call). Bounds asserted,
//   with what was measured on 2 shared, busy cores (Node 20) in brackets:
//     validateResponse, 100 MB valid JSON (590,000 records) .. < 40 s, < 400 MB extra peak RSS
//                                                              [0.4-8.7 s, 200 MB]
//     validateResponse, 100 MB that is not JSON ............. < 20 s, < 400 MB [0.3-1.4 s, 200 MB]
//     client.related, a 100 MB request (invalid_request, not
//       sent: the keyword is checked after parsing) ......... < 30 s, < 500 MB [0.6-5.7 s, 200-300 MB]
//     a 100 MB answer (huge=100) with maxBodyBytes 8 MiB
//       (body_too_large from Content-Length, body unread) .... < 10 s, < 64 MB [0.2-0.7 s, 12-14 MB]
//   The extra memory of a large input is about twice its size: the UTF-8 copy in wasm memory
//   and the parse. The figures of each run are written to $TEST_OUTPUT/hardening-js.json.
// - Faults: for every sandbox fault mode (and every `break=<rule>` on every operation it
//   applies to), the documented error code or report, and the sandbox ledger agrees with the
//   client's `spent` + `possiblyCharged`: nothing charged twice, nothing charged that the
//   client does not count (a `timeout` after sending is counted as possibly charged).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serpkit, sandbox, expectError } from './support.mjs';

const { Client, estimateCost, validateResponse, jsonSchema, operations } = serpkit;
const OUT = process.env.TEST_OUTPUT || fileURLToPath(new URL('../../test-output/', import.meta.url));
const client = (opts = {}) => new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, ...opts });
const micros = (ledger) => Math.round(Number(ledger.total) * 1e6);

/** A valid request per operation. */
const REQ = {
  'search_volume/bulk': { keywords: ['trail shoes', 'running shoes'], ccode: 'US' },
  'search_volume/single': { keyword: 'trail shoes', ccode: 'US' },
  domainstats: { domains: ['example.com'] },
  'backlink/metrics': { urls: ['https://example.com/a'] },
  'ranked-keywords/metrics': { domain: 'example.com' },
  'ranked-keywords/domain': { domain: 'size-200.example.com' },
  'backlink/overview': { domain: 'size-40.example.com' },
  'outline/seo': { keyword: 'trail shoes' },
  'microblog/post': { keyword: 'trail shoes' },
  'video/video': { keyword: 'trail shoes' },
  related: { keyword: 'trail shoes', ccode: 'US' },
};
const OPS = Object.keys(REQ);

/** Runs `fn`, which must throw or reject a SerpkitError, within `ms`. */
async function bounded(fnOrPromise, code, ms = 5000) {
  let timer;
  const hang = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (hang)`)), ms);
  });
  try {
    return await Promise.race([expectError(fnOrPromise, code), hang]);
  } finally {
    clearTimeout(timer);
  }
}

test('unknown operation names, strings or not: unknown_operation / invalid_argument from every entry point', async () => {
  const c = client();
  const names = ['nope', '', ' ', 'v1/', '/v1/related/extra', 'related\u0000', 'RELATED?', '../related', 'x'.repeat(1 << 20)];
  for (const name of names) {
    const shown = JSON.stringify(name.slice(0, 20));
    let e = await bounded(() => validateResponse(name, '[]'), 'unknown_operation');
    assert.ok(e.message.length < 2000, `validateResponse(${shown}): the message is short (${e.message.length})`);
    await bounded(() => estimateCost(name, REQ.related), 'unknown_operation');
    await bounded(() => jsonSchema(name), 'unknown_operation');
    e = await bounded(c.call(name, REQ.related), 'unknown_operation');
    assert.ok(e.message.length < 2000);
  }
  // Not strings at all: numbers, null, objects, symbols, BigInts, functions.
  const notStrings = [42, null, undefined, {}, [], Symbol('related'), 1n, () => 'related', true];
  for (const v of notStrings) {
    const shown = typeof v === 'symbol' ? 'a symbol' : typeof v === 'bigint' ? 'a BigInt' : String(v);
    for (const [label, fn] of [
      ['validateResponse', () => validateResponse(v, '[]')],
      ['estimateCost', () => estimateCost(v, REQ.related)],
      ['jsonSchema', () => jsonSchema(v)],
      ['client.call', () => c.call(v, REQ.related)],
    ]) {
      let error;
      try {
        await fn();
      } catch (e) {
        error = e;
      }
      assert.ok(error, `${label}(${shown}) throws`);
      assert.equal(error.name, 'SerpkitError', `${label}(${shown}): ${error}`);
      assert.ok(['unknown_operation', 'invalid_argument'].includes(error.code), `${label}(${shown}): ${error.code}`);
    }
  }
  assert.equal(estimateCost('related', REQ.related).micros, 150_000, 'still works');
});

test('missing fields and wrong types: invalid_request naming the field; nothing is sent', async () => {
  await sandbox.reset();
  const c = client();
  const CASES = [
    ['related', {}, { missing: 'keyword' }],
    ['related', { keyword: 'a' }, { missing: 'ccode' }],
    ['related', { keyword: 5, ccode: 'US' }, '/keyword'],
    ['related', { keyword: null, ccode: 'US' }, '/keyword'],
    ['related', { keyword: ['a'], ccode: 'US' }, '/keyword'],
    ['related', { keyword: 'a', ccode: 'US', extra: 1 }, '/extra'],
    ['related', { keyword: 'a\u0007b', ccode: 'US' }, '/keyword'],
    ['related', { keyword: 'a'.repeat(513), ccode: 'US' }, '/keyword'],
    ['related', { keyword: 'a', ccode: 'USA' }, '/ccode'],
    ['related', { keyword: 'a', ccode: 7 }, '/ccode'],
    ['search_volume/bulk', { keywords: 'a', ccode: 'US' }, '/keywords'],
    ['search_volume/bulk', { keywords: [], ccode: 'US' }, '/keywords'],
    ['search_volume/bulk', { keywords: ['a', 2], ccode: 'US' }, '/keywords/1'],
    ['search_volume/bulk', { keywords: ['a', ''], ccode: 'US' }, '/keywords/1'],
    ['search_volume/bulk', { keywords: Array(10_001).fill('a'), ccode: 'US' }, '/keywords'],
    ['domainstats', { domains: [] }, '/domains'],
    ['domainstats', { domains: [{}] }, '/domains/0'],
    ['backlink/metrics', { urls: [NaN] }, '/urls/0'],
    ['ranked-keywords/domain', { domain: Infinity }, '/domain'],
    ['backlink/overview', { domain: '' }, '/domain'],
    ['outline/seo', { keyword: { toString: () => 'x' } }, '/keyword'],
    ['video/video', [], ''],
    ['microblog/post', null, ''],
    ['microblog/post', 'not json {', ''],
  ];
  for (const [op, req, field] of CASES) {
    const what = `${op} ${JSON.stringify(req)?.slice(0, 60)}`;
    for (const [via, run] of [['estimateCost', () => estimateCost(op, req)], ['call', () => c.call(op, req)]]) {
      const e = await bounded(run, 'invalid_request');
      if (field?.missing) {
        // A missing field: `field` points at it, and the message names it.
        assert.equal(e.field, `/${field.missing}`, `${via} ${what}: field ${e.field}`);
        assert.match(e.message, new RegExp(`missing field .${field.missing}.`), `${via} ${what}`);
      } else if (field) {
        assert.equal(e.field, field, `${via} ${what}: ${e.message}`);
      }
      assert.equal(typeof e.reason, 'string', what);
      assert.ok(e.message.length < 2000, `${via} ${what}: a short message`);
    }
  }
  assert.equal((await sandbox.ledger()).entries.length, 0, 'nothing was sent');
  assert.equal(c.spent.micros, 0);
});

test('arguments of the wrong kind: invalid_argument, never a TypeError; nothing is sent', async () => {
  await sandbox.reset();
  const c = client();
  const cycle = {};
  cycle.self = cycle;
  const badRequests = [
    undefined, () => 1, Symbol('r'), 10n, cycle,
    { get keyword() { throw new Error('getter'); }, ccode: 'US' },
    { toJSON() { throw new Error('toJSON'); } },
  ];
  for (const req of badRequests) {
    await bounded(() => estimateCost('related', req), 'invalid_argument');
    await bounded(c.related(req), 'invalid_argument');
    // A BigInt body is an integer (the client's `integers: "bigint"`): a report, not an error.
    if (typeof req === 'bigint') assert.deepEqual(validateResponse('related', req).errors.map((i) => i.code), ['type']);
    else await bounded(() => validateResponse('related', req), 'invalid_argument');
  }
  // Call options: an object with an AbortSignal, or nothing.
  for (const opts of [5, 'signal', true, { signal: {} }, { signal: 'stop' }, { signal: { aborted: true } }]) {
    await bounded(c.related(REQ.related, opts), 'invalid_argument');
    await bounded(c.searchVolumeBulkChunked(REQ['search_volume/bulk'], opts), 'invalid_argument');
  }
  // Client options.
  for (const opts of [undefined, null, 5, 'key', [], { key: 5 }, { key: 'k', timeoutMs: 'soon' },
    { key: 'k', baseUrl: 'javascript:alert(1)' }, { key: 'k', baseUrl: 'file:///etc/passwd' },
    { key: 'k', headers: 'x' }, { key: 'k', maxBodyBytes: '1 MB' }, { key: 'k', budgetUsd: NaN }]) {
    const shown = JSON.stringify(opts) ?? String(opts);
    let error;
    try {
      new Client(opts);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `new Client(${shown}) throws`);
    assert.equal(error.name, 'SerpkitError', `new Client(${shown}): ${error}`);
    assert.equal(error.code, 'invalid_argument', `new Client(${shown})`);
  }
  assert.equal((await sandbox.ledger()).entries.length, 0, 'nothing was sent');
});

/** Runs `code` (an async function body with `serpkit`, `big` and `sandbox` in scope) in a
 * fresh Node process; returns { ms, extraMB, result }. */
function inChild(label, code, env = {}) {
  const pkg = new URL('../../pkg/', import.meta.url);
  const script = `
    import fs from 'node:fs';
    import * as serpkit from ${JSON.stringify(new URL('serpkit.js', pkg).href)};
    serpkit.initSync({ module: fs.readFileSync(new URL(${JSON.stringify(new URL('serpkit_bg.wasm', pkg).href)})) });
    const MB = 1 << 20;
    const sandbox = { url: process.env.SANDBOX_URL, key: process.env.SANDBOX_KEY };
    const make = ${code.make.toString()};
    const big = make(MB);
    // Warm up the exports on a small input, so the figure is the big call's alone.
    try { serpkit.estimateCost('related', { keyword: 'a', ccode: 'US' }); serpkit.validateResponse('related', '[]'); } catch {}
    const before = process.resourceUsage().maxRSS;
    const t0 = performance.now();
    let result;
    try { result = await (${code.run.toString()})(serpkit, big, sandbox); }
    catch (e) { result = { thrown: { name: e?.name, code: e?.code, message: String(e?.message).slice(0, 300) } }; }
    const ms = performance.now() - t0;
    const extraMB = (process.resourceUsage().maxRSS - before) / 1024;
    process.stdout.write(JSON.stringify({ ms, extraMB, bodyMB: big.length / MB, result }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 1 << 20,
  });
  assert.equal(r.status, 0, `${label}: the child exited with ${r.status} ${r.signal ?? ''}\n${r.stderr}`);
  const out = JSON.parse(r.stdout);
  return { label, ...out };
}

test('100 MB bodies: clear answers within the stated time and memory bounds', async () => {
  await sandbox.reset();
  const figures = [];
  const check = (f, maxMs, maxMB) => {
    figures.push({ ...f, maxMs, maxMB });
    assert.ok(f.bodyMB >= 100 || f.label.includes('answer'), `${f.label}: a 100 MB input (${f.bodyMB})`);
    assert.ok(f.ms < maxMs, `${f.label}: ${f.ms.toFixed(0)} ms, bound ${maxMs} ms`);
    assert.ok(f.extraMB < maxMB, `${f.label}: ${f.extraMB.toFixed(0)} MB extra peak RSS, bound ${maxMB} MB`);
  };

  let f = inChild('validateResponse, 100 MB valid JSON', {
    make: (MB) => {
      const rec = JSON.stringify({ keyword: 'trail running shoes for women', competition: 0.4, cpc: 1.2, search_volume: 1000, kd: 7 });
      return '[' + Array(Math.ceil((100 * MB) / (rec.length + 1))).fill(rec).join(',') + ']';
    },
    run: (s, big) => {
      const r = s.validateResponse('related', big);
      return { ok: r.ok, errors: r.error_count };
    },
  });
  assert.deepEqual(f.result, { ok: true, errors: 0 }, JSON.stringify(f.result));
  check(f, 40_000, 400);

  f = inChild('validateResponse, 100 MB that is not JSON', {
    make: (MB) => '<html>' + 'x'.repeat(100 * MB),
    run: (s, big) => {
      const r = s.validateResponse('related', big);
      return { ok: r.ok, code: r.errors[0].code };
    },
  });
  assert.deepEqual(f.result, { ok: false, code: 'json' });
  check(f, 20_000, 400);

  f = inChild('client.related, a 100 MB request', {
    make: (MB) => JSON.stringify({ keyword: 'k'.repeat(100 * MB), ccode: 'US' }),
    run: async (s, big, sb) => {
      await new s.Client({ key: sb.key, baseUrl: sb.url, retries: 0 }).related(big);
      return 'resolved';
    },
  });
  assert.equal(f.result.thrown?.code, 'invalid_request', JSON.stringify(f.result));
  assert.match(f.result.thrown.message, /\/keyword: 104857\d+ characters, at most 512/);
  check(f, 30_000, 500);
  assert.equal((await sandbox.ledger()).entries.length, 0, 'the 100 MB request was not sent');

  f = inChild('a 100 MB answer (huge=100), maxBodyBytes 8 MiB', {
    make: () => '',
    run: async (s, _, sb) => {
      await new s.Client({ key: `${sb.key}+huge=100`, baseUrl: sb.url, retries: 0, maxBodyBytes: 8 << 20 }).related({ keyword: 'a', ccode: 'US' });
      return 'resolved';
    },
  });
  assert.equal(f.result.thrown?.code, 'body_too_large', JSON.stringify(f.result));
  check(f, 10_000, 64);
  const l = await sandbox.ledger();
  assert.equal(l.entries.length, 1);
  assert.equal(l.entries[0].status, 200, 'the sandbox answered (and charged) it');

  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'hardening-js.json'), JSON.stringify(figures, null, 2));
});

test('every fault mode: the documented error, and the ledger agrees with the client (no double charge)', async () => {
  await sandbox.reset();
  const clients = [];
  const withFault = (mode, opts = {}) => {
    const c = client({ key: `${sandbox.key}+${mode}`, ...opts });
    clients.push(c);
    return c;
  };
  const REL = REQ.related;
  const REL_MICROS = 150_000;
  const seen = new Set();

  // rate_limit: 429 and Retry-After; retried (2 retries) and still 429; never charged.
  let e = await bounded(withFault('rate_limit', { retries: { maxRetries: 1, jitter: false } }).related(REL), 'http', 10_000);
  assert.equal(e.status, 429);
  assert.equal(e.retryAfterMs, 1000);
  assert.equal(e.charge.micros, 0);
  seen.add('rate_limit');

  // rate_limit_once / unavailable_once: retried after Retry-After, charged once.
  for (const mode of ['rate_limit_once', 'unavailable_once']) {
    const c = withFault(mode, { retries: 2 });
    const reply = await c.related(REL);
    assert.equal(reply.attempts, 2, mode);
    assert.equal(reply.charge.micros, REL_MICROS, mode);
    // Without retries the first answer is the error.
    e = await bounded(withFault(mode).related({ ...REL, keyword: `once ${mode}` }), 'http');
    assert.equal(e.status, mode === 'rate_limit_once' ? 429 : 503);
    seen.add(mode);
  }

  // server_error: 500, never retried; unavailable: 503 after its retries.
  e = await bounded(withFault('server_error', { retries: 2 }).related(REL), 'http');
  assert.equal(e.status, 500);
  e = await bounded(withFault('unavailable', { retries: { maxRetries: 1, jitter: false } }).related(REL), 'http', 10_000);
  assert.equal(e.status, 503);
  assert.equal(e.retryAfterMs, 1000);
  seen.add('server_error').add('unavailable');

  // delay: a normal answer, or a timeout (possibly charged, not retried).
  const slow = await withFault('delay=50').related(REL);
  assert.equal(slow.charge.micros, REL_MICROS);
  e = await bounded(withFault('delay=1500', { timeoutMs: 100, retries: 2 }).related({ ...REL, keyword: 'timeout' }), 'timeout');
  assert.equal(e.timeoutMs, 100);
  assert.equal(e.possiblyCharged.micros, REL_MICROS);
  seen.add('delay');

  // drop_body: a 200 whose body is cut off: body_lost, charged, not retried.
  e = await bounded(withFault('drop_body', { retries: 2 }).related(REL), 'body_lost');
  assert.equal(e.status, 200);
  assert.equal(e.charge.micros, REL_MICROS);
  seen.add('drop_body');

  // redirect: never followed (the body holds the key), not retried: its own code, nothing charged.
  e = await bounded(withFault('redirect', { retries: 2 }).related(REL), 'redirect');
  assert.equal(e.charge.micros + e.possiblyCharged.micros, 0);
  seen.add('redirect');

  // reset: charged, then the connection reset before any byte: connection_lost, possibly
  // charged, never repeated (retries are allowed, none is made).
  e = await bounded(withFault('reset', { retries: 2 }).related(REL), 'connection_lost');
  assert.equal(e.charge.micros, 0);
  assert.equal(e.possiblyCharged.micros, REL_MICROS);
  seen.add('reset');

  // truncate / not_json: not_json, charged, with a position.
  for (const mode of ['truncate', 'not_json']) {
    e = await bounded(withFault(mode).related(REL), 'not_json');
    assert.equal(e.charge.micros, REL_MICROS, mode);
    assert.equal(typeof e.line, 'number');
    assert.ok(!e.message.includes(sandbox.key) && !JSON.stringify(e).includes(sandbox.key));
    seen.add(mode);
  }

  // break=<rule> on every operation it applies to: warn mode resolves with the report;
  // strict mode rejects contract_violation when the report has errors.
  const RULES = ['order', 'monthly_count', 'count', 'type', 'missing_field', 'prefix', 'range', 'date', 'ccode'];
  let broken = 0;
  for (const rule of RULES) {
    for (const op of OPS) {
      const warn = withFault(`break=${rule}`);
      let reply;
      try {
        reply = await warn.call(op, REQ[op]);
      } catch (err) {
        // The rule does not apply to this operation: the sandbox says 400, listing the rules.
        assert.equal(err.code, 'http', `${op} break=${rule}: ${err.message}`);
        assert.equal(err.status, 400);
        assert.equal(err.charge.micros, 0);
        continue;
      }
      broken++;
      const r = reply.report;
      assert.ok(r.error_count + r.warning_count > 0, `${op} break=${rule} is reported`);
      if (r.error_count > 0) {
        e = await bounded(withFault(`break=${rule}`, { validation: 'strict' }).call(op, REQ[op]), 'contract_violation');
        assert.equal(e.report.ok, false);
        assert.equal(e.charge.micros, estimateCost(op, REQ[op]).micros, `${op} break=${rule}: charged`);
      }
    }
  }
  assert.ok(broken >= 25, `break rules applied: ${broken}`);
  seen.add('break');

  // huge=<MB>: over maxBodyBytes → body_too_large; within it → data.
  e = await bounded(withFault('huge=2', { maxBodyBytes: 1 << 20 }).related(REL), 'body_too_large');
  assert.equal(e.limit, 1 << 20);
  const huge = await withFault('huge=2').related(REL);
  assert.ok(huge.data.length > 1000);
  seen.add('huge');

  // xss: a normal 200; the data holds the payloads as plain strings (the app must render
  // them inert; see tests/e2e/hardening_xss.test.mjs).
  const xss = await withFault('xss').microblogPost(REQ['microblog/post']);
  assert.ok(JSON.stringify(xss.data).includes('window.__xss'));
  seen.add('xss');

  // later=<days>: the normal answer as of that many days after the sandbox's date (tracking
  // over time): valid, charged once like any answer, and its monthly history moved on.
  const SV = 'search_volume/bulk';
  const today = await withFault('later=0').call(SV, REQ[SV]);
  const later = await withFault('later=400').call(SV, REQ[SV]);
  assert.equal(later.report.ok, true);
  assert.equal(later.charge.micros, estimateCost(SV, REQ[SV]).micros);
  assert.notDeepEqual(later.data, today.data);
  seen.add('later');

  // Every documented mode was exercised.
  const modes = (await (await fetch(`${sandbox.url}/v1/related`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: `${sandbox.key}+what`, ...REL }),
  })).json()).error.message;
  for (const m of modes.replace(/.*modes: /, '').split(', ')) {
    assert.ok(seen.has(m.replace(/=.*/, '')), `fault mode ${m} is covered`);
  }

  // The ledger: every charge is a 200, the client counts every charge, and no request was
  // charged twice.
  await new Promise((r) => setTimeout(r, 1600)); // the timed-out request lands
  const final = await sandbox.ledger();
  for (const x of final.entries) {
    if (Number(x.charge) > 0) assert.equal(x.status, 200, `only 200s are charged: ${JSON.stringify(x)}`);
  }
  assert.ok(final.entries.every((x) => x.operation !== 'redirected'), 'no redirect followed');
  const spent = clients.reduce((s, c) => s + c.spent.micros, 0);
  const possibly = clients.reduce((s, c) => s + c.possiblyCharged.micros, 0);
  // The timed-out answer and the reset one are possibly charged; the 200 refused as
  // body_too_large and the lost body are spent (see the test below).
  assert.equal(possibly, 2 * REL_MICROS, 'the timed-out call and the reset one');
  assert.equal(final.entries.filter((x) => x.fault === 'reset').length, 1, 'reset: charged once, not repeated');
  assert.equal(micros(final), spent + possibly, 'ledger = client spend + possibly charged');
  const retried = final.entries.filter((x) => /_once$/.test(x.fault ?? ''));
  assert.equal(retried.filter((x) => x.status === 200).length, 2, 'each *_once call charged once');
});

// A 200 whose body is over maxBodyBytes was charged by the service: the transport error
// carries the status, so the error has the charge and `client.spent` (and `budgetUsd`) count it.
test('a 200 refused as body_too_large counts as spent (it was charged)', async () => {
  await sandbox.reset();
  const c = client({ key: `${sandbox.key}+huge=2`, maxBodyBytes: 1 << 20 });
  const e = await bounded(c.related(REQ.related), 'body_too_large');
  const ledger = await sandbox.ledger();
  assert.equal(micros(ledger), 150_000, 'the sandbox charged the 200');
  assert.equal(e.charge.micros, 150_000, 'the error says it was charged');
  assert.equal(c.spent.micros, 150_000, 'and the client counts it');
});

test('the module still works after all of the above (no trap left it broken)', async () => {
  assert.equal(operations().length, 11);
  assert.equal(validateResponse('related', '[]').ok, true);
  const reply = await client().related(REQ.related);
  assert.equal(reply.report.ok, true);
});
