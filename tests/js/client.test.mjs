// The Client of the built package against the sandbox HTTP server (SANDBOX_URL): every
// operation over Node's fetch, result types, each fault mode's error, abort, retries with
// Retry-After and the sandbox ledger, the budget, bulk chunking.
import http from 'node:http';
import net from 'node:net';
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit, sandbox, expectError, isMoney } from './support.mjs';

const { Account, Client, estimateCost } = serpkit;

const client = (opts = {}) =>
  new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 0, ...opts });

/** [method, operation, request, response check] */
const CASES = [
  ['searchVolumeBulk', 'search_volume/bulk', { keywords: ['trail shoes', 'running shoes'], ccode: 'US' }, (d) => {
    assert.deepEqual(d.map((r) => r.keyword), ['trail shoes', 'running shoes']);
    assert.equal(d[0].ccode, 'us');
    assert.equal(typeof d[0].AVERAGE_CPC, 'number');
    assert.ok(Number.isInteger(d[0].SEARCH_VOLUME));
    assert.equal(d[0].TARGETED_MONTHLY_SEARCHES.length, 12);
  }],
  ['searchVolumeSingle', 'search_volume/single', { keyword: 'trail shoes', ccode: 'US' }, (d) => {
    assert.ok(!Array.isArray(d));
    assert.equal(d.keyword, 'trail shoes');
    assert.equal(typeof d.TARGETED_MONTHLY_SEARCHES[11].date, 'string');
  }],
  ['domainStats', 'domainstats', { domains: ['example.com', 'example.org'] }, (d) => {
    assert.equal(d.length, 2);
    for (const r of d) {
      assert.equal(typeof r.domain, 'string');
      assert.equal(typeof r.alphaDA, 'string');
      assert.equal(typeof r.betaTTF0Name, 'string');
    }
  }],
  ['backlinkMetrics', 'backlink/metrics', { urls: ['https://example.com/a'] }, (d) => {
    assert.equal(d.length, 1);
    assert.ok(Number.isInteger(d[0].backlinks));
    assert.equal(typeof d[0].url, 'string');
  }],
  ['rankedKeywordsMetrics', 'ranked-keywords/metrics', { domain: 'example.com' }, (d) => {
    assert.ok(d.length >= 1);
    assert.ok(Number.isInteger(d[0].position_91_100));
    assert.equal('position_61_70' in d[0], false);
  }],
  ['rankedKeywordsDomain', 'ranked-keywords/domain', { domain: 'size-300.example.com' }, (d) => {
    assert.equal(d.length, 300);
    assert.ok(Number.isInteger(d[0].rank));
    assert.equal(typeof d[0].competition, 'number');
  }],
  ['backlinkOverview', 'backlink/overview', { domain: 'size-50.example.com' }, (d) => {
    assert.equal(d.ref_newlost.length, 50);
    assert.equal(typeof d.metrics._id, 'string');
    assert.match(d.stats[0].date, /^\d{4}-\d{2}-\d{2}$/);
  }],
  ['outlineSeo', 'outline/seo', { keyword: 'trail shoes' }, (d) => {
    assert.ok(d.length >= 1 && d.length <= 10);
    assert.ok(Array.isArray(d[0].headings));
    assert.equal(d[0].rank, 1);
  }],
  ['microblogPost', 'microblog/post', { keyword: 'trail shoes' }, (d) => {
    assert.ok(d.length >= 1);
    assert.equal(typeof d[0].profile.verified, 'boolean');
    assert.ok(d[0].hashtags.every((h) => h.startsWith('#')));
  }],
  ['videoVideo', 'video/video', { keyword: 'trail shoes' }, (d) => {
    assert.ok(d.length >= 1);
    assert.equal(d[0].keywords[0], 'trail shoes');
    assert.equal(d[0].error, false);
    assert.equal(typeof d[0].channel.is_verified, 'boolean');
  }],
  ['related', 'related', { keyword: 'trail shoes', ccode: 'US' }, (d) => {
    assert.ok(d.length >= 1);
    assert.ok(Number.isInteger(d[0].kd));
    assert.equal(typeof d[0].cpc, 'number');
  }],
];

test('every operation over fetch: typed data, a clean report, the charge', async () => {
  await sandbox.reset();
  const c = client();
  let total = 0;
  for (const [method, op, req, check] of CASES) {
    assert.equal(typeof c[method], 'function', method);
    const reply = await c[method](req);
    assert.deepEqual(Object.keys(reply).sort(), ['attempts', 'charge', 'data', 'ok', 'report'], method);
    check(reply.data);
    assert.equal(reply.report.ok, true, `${method}: ${JSON.stringify(reply.report.errors)}`);
    assert.equal(reply.report.error_count, 0);
    assert.ok(isMoney(reply.charge));
    assert.equal(reply.charge.micros, estimateCost(op, req).micros, method);
    assert.equal(reply.attempts, 1);
    total += reply.charge.micros;
  }
  assert.equal(c.spent.micros, total);
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((e) => e.operation), CASES.map((c) => c[1]));
  assert.ok(ledger.entries.every((e) => e.status === 200));
  assert.equal(Math.round(Number(ledger.total) * 1e6), total, 'the client counts what the sandbox charged');
  // The key never reaches the ledger whole.
  assert.ok(!JSON.stringify(ledger).includes(sandbox.key));
});

test('call(): any operation by path, request as JSON text; validation off', async () => {
  const c = client({ validation: 'off' });
  const reply = await c.call('/v1/related', JSON.stringify({ keyword: 'trail shoes', ccode: 'US' }));
  assert.ok(Array.isArray(reply.data));
  assert.equal(reply.report, null);
  await expectError(c.call('related/nope', { keyword: 'a', ccode: 'US' }), 'unknown_operation');
});

test('invalid input rejects before anything is sent', async () => {
  await sandbox.reset();
  const c = client();
  let e = await expectError(c.related({ keyword: '', ccode: 'US' }), 'invalid_request');
  assert.equal(e.field, '/keyword');
  e = await expectError(c.searchVolumeBulk({ keywords: 'a', ccode: 'US' }), 'invalid_request');
  assert.equal(e.field, '/keywords');
  await expectError(c.related(undefined), 'invalid_argument');
  await expectError(c.related({ keyword: 'a', ccode: 'US' }, { signal: 'stop' }), 'invalid_argument');
  await expectError(new Client({ key: '', baseUrl: sandbox.url }).related({ keyword: 'a', ccode: 'US' }), 'missing_key');
  assert.equal((await sandbox.ledger()).entries.length, 0);
});

const REL = { keyword: 'trail shoes', ccode: 'US' };

/** A loopback port nothing listens on (a connection to it is refused). */
async function closedPort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
const REL_MICROS = 150_000;

test('fault modes map to error codes (and what they were charged)', async () => {
  await sandbox.reset();
  const withFault = (mode, opts = {}) => client({ key: `${sandbox.key}+${mode}`, ...opts });

  let e = await expectError(withFault('rate_limit').related(REL), 'http');
  assert.equal(e.status, 429);
  assert.equal(e.retryAfterMs, 1000);
  assert.equal(e.charge.micros, 0);
  assert.match(e.hint, /rate limit/i);
  assert.ok(!e.message.includes(sandbox.key) && !e.body.includes(sandbox.key), 'key redacted');

  e = await expectError(withFault('server_error', { retries: 2 }).related(REL), 'http');
  assert.equal(e.status, 500);

  e = await expectError(withFault('unavailable').related(REL), 'http');
  assert.equal(e.status, 503);
  assert.equal(e.retryAfterMs, 1000);

  // The same fault through the header option.
  e = await expectError(client({ headers: { 'x-sandbox-fault': 'server_error' } }).related(REL), 'http');
  assert.equal(e.status, 500);

  e = await expectError(withFault('truncate').related(REL), 'not_json');
  assert.equal(e.charge.micros, REL_MICROS, 'a 200 with a broken body is charged');
  assert.equal(typeof e.line, 'number');
  e = await expectError(withFault('not_json').related(REL), 'not_json');
  assert.equal(e.charge.micros, REL_MICROS);
  // Without validation a parse still tells; the failed call counts as spent.
  const off = withFault('not_json', { validation: 'off' });
  e = await expectError(off.related(REL), 'not_json');
  assert.deepEqual([e.line, e.column], [1, 1]);
  assert.equal(off.spent.micros, REL_MICROS);

  e = await expectError(withFault('break=type', { validation: 'strict' }).related(REL), 'contract_violation');
  assert.equal(e.report.ok, false);
  assert.equal(e.report.errors[0].code, 'type');
  assert.equal(e.charge.micros, REL_MICROS);
  const warned = await withFault('break=range').related(REL);
  assert.equal(warned.report.ok, true, 'range is only observed: a warning');
  assert.ok(warned.report.warnings.some((w) => w.path === '/0/kd'));
  const broken = await withFault('break=missing_field').related(REL);
  assert.equal(broken.report.ok, false, 'warn mode resolves with the failing report');
  assert.equal(broken.report.errors[0].code, 'missing_field');

  e = await expectError(withFault('delay=3000', { timeoutMs: 200 }).related(REL), 'timeout');
  assert.equal(e.timeoutMs, 200);
  assert.equal(e.possiblyCharged.micros, REL_MICROS, 'sent, then timed out: possibly charged');

  e = await expectError(withFault('huge=2', { maxBodyBytes: 1 << 20 }).related(REL), 'body_too_large');
  assert.equal(e.limit, 1 << 20);

  e = await expectError(client({ key: 'wrong-key-1234' }).related(REL), 'http');
  assert.equal(e.status, 401);
  assert.ok(!e.message.includes('wrong-key-1234'));

  // A closed port refuses the connection: never sent, free.
  e = await expectError(client({ baseUrl: `http://127.0.0.1:${await closedPort()}` }).related(REL), 'network');
  assert.equal(e.possiblyCharged.micros, 0);

  const ledger = await sandbox.ledger();
  // Charged: truncate, not_json (twice), break=type, break=range, break=missing_field, delay, huge.
  assert.equal(Math.round(Number(ledger.total) * 1e6), 8 * REL_MICROS);
  const serverErrors = ledger.entries.filter((x) => x.fault === 'server_error');
  assert.equal(serverErrors.length, 2, 'a 500 is never retried (twice: suffix and header)');
});

test('the sandbox budget: 402 once the key is spent', async () => {
  await sandbox.reset();
  const c = client({ key: sandbox.poorKey });
  const ok = await c.outlineSeo({ keyword: 'trail shoes' });
  assert.equal(ok.charge.micros, 500_000);
  const e = await expectError(c.related(REL), 'http');
  assert.equal(e.status, 402);
  assert.match(e.hint, /credit/);
});

test('the client budget stops a call before it is sent', async () => {
  await sandbox.reset();
  const c = client({ budgetUsd: 0.6 });
  await c.outlineSeo({ keyword: 'trail shoes' });
  assert.deepEqual(c.remaining, { usd: 0.1, micros: 100_000, display: '$0.1000' });
  const e = await expectError(c.related(REL), 'budget_exceeded');
  assert.equal(e.estimate.micros, REL_MICROS);
  assert.equal(e.spent.micros, 500_000);
  assert.equal(e.budget.micros, 600_000);
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((x) => x.operation), ['outline/seo'], 'the related call was never sent');
});

test('abort: a signal cancels a call in flight, an aborted one sends nothing', async () => {
  await sandbox.reset();
  const c = client({ key: `${sandbox.key}+delay=5000` });
  const ctl = new AbortController();
  const started = Date.now();
  const p = c.related(REL, { signal: ctl.signal });
  // Abort once the request is at the sandbox (waiting out its delay).
  while ((await sandbox.ledger()).entries.length === 0) {
    assert.ok(Date.now() - started < 3000, 'the request reached the sandbox');
    await new Promise((r) => setTimeout(r, 20));
  }
  const aborting = Date.now();
  ctl.abort();
  await expectError(p, 'aborted');
  assert.ok(Date.now() - aborting < 1000, 'aborted promptly');

  await expectError(client().related(REL, { signal: AbortSignal.abort() }), 'aborted');
  // Let any stray request land before reading the ledger.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await sandbox.ledger()).entries.length, 1, 'the pre-aborted call sent nothing');
});

test('retries honour Retry-After and never double-charge', async () => {
  await sandbox.reset();
  const c = new Client({ key: `${sandbox.key}+rate_limit_once`, baseUrl: sandbox.url, retries: 2 });
  const started = Date.now();
  const reply = await c.related(REL);
  const took = Date.now() - started;
  assert.equal(reply.attempts, 2);
  assert.ok(took >= 950, `waited the 1 s Retry-After (${took} ms)`);
  assert.ok(took < 4000);
  assert.equal(reply.charge.micros, REL_MICROS);
  const ledger = await sandbox.ledger();
  assert.deepEqual(ledger.entries.map((x) => x.status), [429, 200]);
  assert.equal(Math.round(Number(ledger.total) * 1e6), REL_MICROS, 'charged once');
  assert.equal(c.spent.micros, REL_MICROS);
});

test('searchVolumeBulkChunked: chunks in order, progress, and a clean stop at the budget', async () => {
  await sandbox.reset();
  const keywords = Array.from({ length: 25 }, (_, i) => `kw ${i}`);
  const progress = [];
  const all = await client().searchVolumeBulkChunked(
    { keywords, ccode: 'US' },
    { chunkSize: 10, concurrency: 2, onProgress: (p) => progress.push(p) },
  );
  assert.deepEqual(Object.keys(all).sort(), ['charge', 'data', 'error', 'missing', 'ok', 'possiblyCharged', 'report']);
  assert.equal(all.possiblyCharged.micros, 0);
  assert.equal(all.error, null);
  assert.deepEqual(all.missing, []);
  assert.deepEqual(all.data.map((r) => r.keyword), keywords);
  assert.equal(all.charge.micros, 25 * 300);
  assert.equal(progress.length, 3);
  assert.deepEqual(progress.at(-1), { doneChunks: 3, totalChunks: 3, doneKeywords: 25, totalKeywords: 25, charge: all.charge });
  assert.equal((await sandbox.ledger()).entries.length, 3);

  // A budget of 15 keywords: the first chunk of 10 is bought, the second is never sent.
  await sandbox.reset();
  const part = await client({ budgetUsd: 0.0045 }).searchVolumeBulkChunked(
    { keywords, ccode: 'US' },
    { chunkSize: 10, concurrency: 1 },
  );
  assert.equal(part.data.length, 10);
  assert.deepEqual(part.missing, keywords.slice(10));
  assert.equal(part.error.code, 'budget_exceeded');
  assert.equal(part.error.name, 'SerpkitError');
  assert.equal(part.charge.micros, 3000);
  assert.equal((await sandbox.ledger()).entries.length, 1);
});

test('searchVolumeBulkChunked: an invalid keyword anywhere stops the job before anything is sent', async () => {
  await sandbox.reset();
  const keywords = Array.from({ length: 25 }, (_, i) => (i === 22 ? '' : `kw ${i}`));
  const out = await client().searchVolumeBulkChunked({ keywords, ccode: 'US' }, { chunkSize: 10, concurrency: 2 });
  assert.equal(out.error.code, 'invalid_request');
  assert.equal(out.error.field, '/keywords/22');
  assert.deepEqual(out.data, []);
  assert.deepEqual(out.missing, keywords);
  assert.equal(out.charge.micros, 0);
  assert.equal((await sandbox.ledger()).entries.length, 0, 'nothing was bought');
  // A malformed request rejects, naming the field.
  const e = await expectError(client().searchVolumeBulkChunked({ keywords: [1], ccode: 'US' }), 'invalid_request');
  assert.equal(e.field, '/keywords/0');
});

test('clients on one Account share its spend and its budget', async () => {
  await sandbox.reset();
  // related costs $0.15: a budget of $0.25 covers one call, whichever client makes it.
  const account = new Account({ budgetUsd: 0.25 });
  assert.equal(account.budget.display, '$0.2500');
  const a = client({ account });
  const b = client({ account: a.account, timeoutMs: 5000 });
  assert.equal(a.account, account, 'client.account is the Account given');
  assert.equal(b.account, account);
  await a.related(REL);
  let e = await expectError(b.related(REL), 'budget_exceeded');
  assert.equal(e.spent.display, '$0.1500');
  assert.equal(e.budget.display, '$0.2500');
  for (const m of [account.spent, a.spent, b.spent]) assert.equal(m.display, '$0.1500');
  assert.equal(account.remaining.display, '$0.1000');
  assert.equal(b.remaining.display, '$0.1000');
  assert.equal(account.possiblyCharged.micros, 0);

  // Calls at once: the estimates in flight count, so two clients cannot both pass the budget.
  await sandbox.reset();
  const shared = new Account({ budgetUsd: '$0.20' });
  const clients = [client({ account: shared }), client({ account: shared })];
  const settled = await Promise.allSettled(clients.map((c) => c.related(REL)));
  assert.deepEqual(settled.map((s) => s.status).sort(), ['fulfilled', 'rejected']);
  assert.equal(settled.find((s) => s.status === 'rejected').reason.code, 'budget_exceeded');
  assert.equal((await sandbox.ledger()).entries.length, 1);

  // A client's own account (its budgetUsd) shared through client.account.
  await sandbox.reset();
  const own = client({ budgetUsd: 0.2 });
  assert.equal(own.account, own.account, 'one Account object per client');
  const other = client({ account: own.account });
  assert.equal(other.remaining.display, '$0.2000');
  await other.related(REL);
  e = await expectError(own.related(REL), 'budget_exceeded');
  assert.equal(own.spent.display, '$0.1500');
  // Without a budget the account only counts.
  const free = new Account();
  assert.equal(free.budget, null);
  assert.equal(free.remaining, null);
  assert.equal(client({ account: free }).remaining, null);
  assert.equal((await sandbox.ledger()).entries.length, 1);

  // Wrong uses are the package's errors.
  await expectError(() => client({ account: {} }), 'invalid_argument');
  await expectError(() => client({ account: { budgetUsd: 1 } }), 'invalid_argument');
  e = await expectError(() => client({ account, budgetUsd: 1 }), 'invalid_argument');
  assert.match(e.message, /budgetUsd/);
  await expectError(() => new Account({ budgetUsd: -1 }), 'invalid_argument');
  await expectError(() => new Account({ budget: 1 }), 'invalid_argument');
  await expectError(() => new Account('x'), 'invalid_argument');
  await expectError(() => new Account({ budgetUsd: Number.NaN }), 'invalid_argument');
  const gone = client();
  const orphan = gone.account;
  gone.free();
  await expectError(() => client({ account: orphan }), 'invalid_argument');
});

test('contract_violation carries the data that was paid for, parsed with the integers mode', async () => {
  await sandbox.reset();
  const strict = (opts = {}) => client({ key: `${sandbox.key}+break=type`, validation: 'strict', ...opts });
  let e = await expectError(strict().related(REL), 'contract_violation');
  assert.equal(e.charge.micros, REL_MICROS);
  assert.ok(Array.isArray(e.data) && e.data.length >= 1);
  // The report points into the data: the value of the wrong type is there.
  const path = e.report.errors[0].path.split('/').slice(1);
  const broken = path.reduce((v, k) => v[k], e.data);
  assert.equal(typeof broken, 'string', `${e.report.errors[0].path}: an integer sent as a string`);
  assert.deepEqual(e.data, await client({ key: `${sandbox.key}+break=type`, validation: 'off' }).related(REL).then((r) => r.data));

  // The integers mode applies: microblog ids beyond 2^53 as strings.
  e = await expectError(strict({ integers: 'string' }).microblogPost({ keyword: 'trail shoes' }), 'contract_violation');
  assert.ok(Array.isArray(e.data));
  assert.ok(e.data.every((p) => typeof p.profile.user_id === 'string' || Number.isSafeInteger(p.profile.user_id)));

  // A chunked job stopped by a refused chunk: the error has that chunk's records.
  const job = await strict().searchVolumeBulkChunked({ keywords: ['a', 'b'], ccode: 'US' });
  assert.equal(job.error.code, 'contract_violation');
  assert.deepEqual(job.error.data.map((r) => r.keyword), ['a', 'b']);
});

test('a connection lost after sending is never repeated and possibly charged; a refused one is retried, free', async () => {
  await sandbox.reset();
  const retries = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1, jitter: false };
  const lost = client({ key: `${sandbox.key}+reset`, retries });
  const e = await expectError(lost.related(REL), 'connection_lost');
  assert.equal(e.name, 'SerpkitError');
  assert.equal(e.possiblyCharged.micros, REL_MICROS);
  assert.equal(e.charge.micros, 0);
  assert.equal(lost.possiblyCharged.micros, REL_MICROS, 'counted as possibly charged');
  assert.equal(lost.spent.micros, 0);
  assert.ok(!e.message.includes(sandbox.key), 'key redacted');
  let ledger = await sandbox.ledger();
  assert.equal(ledger.entries.length, 1, 'one attempt: not repeated');
  assert.equal(ledger.total, '0.1500', 'the sandbox charged exactly once');

  // A closed port on 127.0.0.1 refuses the connection: the request never left, so it is
  // retried, and free. The port opens (a proxy to the sandbox) while the client waits to retry.
  await sandbox.reset();
  const port = await closedPort();
  const refused = client({ baseUrl: `http://127.0.0.1:${port}`, retries: { ...retries, baseDelayMs: 400, maxDelayMs: 400 } });
  const pending = refused.related(REL);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal((await sandbox.ledger()).entries.length, 0, 'nothing reached the service yet');
  const proxy = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const r = await fetch(`${sandbox.url}${req.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    });
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(await r.text());
  });
  await new Promise((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  try {
    const reply = await pending;
    assert.equal(reply.attempts, 2, 'the refused attempt was retried');
    assert.equal(reply.charge.micros, REL_MICROS);
    assert.equal(refused.possiblyCharged.micros, 0, 'a refusal is free');
    assert.equal(refused.spent.micros, REL_MICROS);
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
  }
  ledger = await sandbox.ledger();
  assert.equal(ledger.entries.length, 1);

  // Refused on every attempt: a network error after the retries, nothing counted.
  const closed = client({ baseUrl: `http://127.0.0.1:${port}`, retries });
  const n = await expectError(closed.related(REL), 'network');
  assert.equal(n.possiblyCharged.micros, 0);
  assert.equal(closed.possiblyCharged.micros, 0);
  assert.equal(closed.spent.micros, 0);
});
