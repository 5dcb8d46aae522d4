// Money and key safety of the package's Client against the sandbox ledger: a call
// whose outcome is unknown (sent, then timed out or aborted) is counted as possibly charged and
// never repeated; a 200 whose body is lost is charged and never repeated; a redirect is never
// followed; possibly charged money counts against budgetUsd; a bulk job's cancel lets the
// chunks in flight finish; error texts never hold the key in any encoding. Every test checks
// that the sandbox ledger's total equals the client's spent + possiblyCharged and never
// exceeds budgetUsd.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { serpkit, sandbox, expectError } from './support.mjs';

const { Client } = serpkit;

const REL = { keyword: 'trail shoes', ccode: 'US' };
const REL_MICROS = 150_000;
const OUTLINE_MICROS = 500_000;
const micros = (ledger) => Math.round(Number(ledger.total) * 1e6);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = (opts = {}) =>
  new Client({ key: sandbox.key, baseUrl: sandbox.url, retries: 2, budgetUsd: 1, ...opts });
const faulty = (mode, opts = {}) => client({ key: `${sandbox.key}+${mode}`, ...opts });

/** The ledger agrees with the clients: total = spent + possibly charged, within the budget. */
async function agrees(clients, budgetMicros = 1_000_000) {
  const ledger = await sandbox.ledger();
  const counted = clients.reduce((s, c) => s + c.spent.micros + c.possiblyCharged.micros, 0);
  assert.equal(micros(ledger), counted, 'ledger total = spent + possiblyCharged');
  assert.ok(micros(ledger) <= budgetMicros, `ledger ${ledger.total} within the budget`);
  return ledger;
}

/** Waits until the sandbox ledger has `n` entries. */
async function ledgerReaches(n, ms = 3000) {
  const started = Date.now();
  while ((await sandbox.ledger()).entries.length < n) {
    assert.ok(Date.now() - started < ms, `the ledger reached ${n} entries`);
    await sleep(20);
  }
}

test('a timeout after sending: possibly charged with its estimate, not retried', async () => {
  await sandbox.reset();
  const c = faulty('delay=1500', { timeoutMs: 200 });
  const e = await expectError(c.related(REL), 'timeout');
  assert.equal(e.timeoutMs, 200);
  assert.equal(e.charge.micros, 0);
  assert.equal(e.possiblyCharged.micros, REL_MICROS);
  assert.match(e.message, /may have been charged \$0\.1500/);
  assert.match(e.hint, /may have been charged/);
  assert.equal(c.spent.micros, 0);
  assert.equal(c.possiblyCharged.micros, REL_MICROS);
  assert.equal(c.remaining.micros, 1_000_000 - REL_MICROS, 'remaining subtracts possibly charged');
  await sleep(1500); // a retry, if there were one, would land now
  const ledger = await agrees([c]);
  assert.equal(ledger.entries.length, 1, 'sent once, never retried');
});

test('an AbortSignal after sending: aborted, possibly charged; before sending: nothing', async () => {
  await sandbox.reset();
  const c = faulty('delay=3000');
  const ctl = new AbortController();
  const p = c.related(REL, { signal: ctl.signal });
  await ledgerReaches(1);
  ctl.abort();
  const e = await expectError(p, 'aborted');
  assert.equal(e.possiblyCharged.micros, REL_MICROS);
  assert.equal(e.charge.micros, 0);
  assert.match(e.message, /may have been charged/);
  assert.equal(c.possiblyCharged.micros, REL_MICROS);

  const early = await expectError(c.related(REL, { signal: AbortSignal.abort() }), 'aborted');
  assert.equal(early.possiblyCharged.micros, 0, 'never sent: not possibly charged');
  assert.equal(early.message, 'aborted (aborted)', 'the code ends every message');
  await sleep(100);
  const ledger = await agrees([c]);
  assert.equal(ledger.entries.length, 1);
});

test('drop_body: the 200 is charged (body_lost) and never retried', async () => {
  await sandbox.reset();
  const c = faulty('drop_body');
  const e = await expectError(c.related(REL), 'body_lost');
  assert.equal(e.status, 200);
  assert.equal(e.charge.micros, REL_MICROS);
  assert.equal(e.possiblyCharged.micros, 0);
  assert.equal(c.spent.micros, REL_MICROS);
  const ledger = await agrees([c]);
  assert.equal(ledger.entries.length, 1, 'not retried (retries: 2)');
});

test('redirect: its own code, not followed (the key never reaches the target), not retried, not charged', async () => {
  await sandbox.reset();
  const c = faulty('redirect');
  const e = await expectError(c.related(REL), 'redirect');
  assert.equal(e.status, 307);
  assert.match(e.message, /^HTTP 307: .* \(redirect\)$/);
  assert.equal(e.hint, 'The server redirected it: check the base URL.', 'it reached a server');
  assert.equal(e.charge.micros + e.possiblyCharged.micros, 0, 'an answer other than a success: not charged');
  assert.ok(!e.message.includes(sandbox.key));
  await sleep(300); // a retry, if there were one, would land now (the client's backoff)
  const ledger = await agrees([c]);
  assert.deepEqual(ledger.entries.map((x) => [x.operation, x.status]), [['related', 307]], 'one arrival: never retried');
  assert.deepEqual(ledger.entries.filter((x) => x.operation === 'redirected'), [], 'never followed');
});

test('budget: a possibly charged call counts, so a call over what is left is refused unsent', async () => {
  await sandbox.reset();
  // $0.60: after a timed-out related ($0.15 possibly charged) $0.45 is left, so an outline
  // ($0.50, which fits $0.60 when only confirmed charges count) is refused.
  const c = faulty('delay=1500', { timeoutMs: 200, budgetUsd: 0.6 });
  await expectError(c.related(REL), 'timeout');
  assert.equal(c.remaining.micros, 600_000 - REL_MICROS);
  const e = await expectError(c.outlineSeo({ keyword: 'trail shoes' }), 'budget_exceeded');
  assert.equal(e.estimate.micros, OUTLINE_MICROS);
  assert.equal(e.spent.micros, REL_MICROS, 'spent + possibly charged');
  assert.equal(e.possiblyCharged.micros, 0);
  await sleep(100);
  const ledger = await agrees([c], 600_000);
  assert.deepEqual(ledger.entries.map((x) => x.operation), ['related'], 'the outline was never sent');
});

test('bulk cancel: chunks in flight finish and keep their records; no new chunk starts', async () => {
  await sandbox.reset();
  const keywords = Array.from({ length: 50 }, (_, i) => `kw ${i}`);
  const c = faulty('delay=1000');
  const ctl = new AbortController();
  const job = c.searchVolumeBulkChunked(
    { keywords, ccode: 'US' },
    { chunkSize: 10, concurrency: 2, signal: ctl.signal },
  );
  await ledgerReaches(2);
  ctl.abort();
  const out = await job;
  assert.equal(out.error.code, 'aborted');
  assert.deepEqual(out.data.map((r) => r.keyword), keywords.slice(0, 20), 'the chunks in flight were kept');
  assert.deepEqual(out.missing, keywords.slice(20));
  assert.equal(out.charge.micros, 20 * 300);
  assert.equal(out.possiblyCharged.micros, 0);
  assert.equal(c.spent.micros, 20 * 300);
  await sleep(300);
  const ledger = await agrees([c]);
  assert.equal(ledger.entries.length, 2, 'no chunk started after the cancel');
});

test('bulk: a timed-out chunk is possibly charged on the result and the client', async () => {
  await sandbox.reset();
  const keywords = Array.from({ length: 15 }, (_, i) => `kw ${i}`);
  const c = faulty('delay=1500', { timeoutMs: 200 });
  const out = await c.searchVolumeBulkChunked({ keywords, ccode: 'US' }, { chunkSize: 10, concurrency: 2 });
  assert.equal(out.error.code, 'timeout');
  assert.equal(out.charge.micros, 0);
  assert.equal(out.possiblyCharged.micros, 15 * 300);
  assert.equal(c.possiblyCharged.micros, 15 * 300);
  await sleep(100);
  const ledger = await agrees([c]);
  assert.equal(ledger.entries.length, 2, 'each chunk sent once');
});

/** A local service that echoes the request (body, JSON-escaped key, URL-encoded key) in a 400. */
async function echoServer(handler) {
  const server = http.createServer(handler);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

test('error texts never hold the key: raw, JSON-escaped or URL-encoded', async () => {
  const key = 'my "secret" key/+ü';
  const { server, url } = await echoServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const form = new URLSearchParams({ key }).toString();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(`request ${body} uri=${encodeURIComponent(key)} form=${form} lower=${encodeURIComponent(key).toLowerCase()}`);
    });
  });
  try {
    const c = new Client({ key, baseUrl: url, retries: 0 });
    const e = await expectError(c.related(REL), 'http');
    assert.equal(e.status, 400);
    assert.match(e.body, /uri=\*\*\* form=key=\*\*\* lower=\*\*\*/);
    const forms = [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key),
      encodeURIComponent(key).toLowerCase(), new URLSearchParams({ key }).toString().slice(4)];
    for (const text of [e.message, e.body, JSON.stringify(e), String(e.stack)]) {
      for (const f of forms) assert.ok(!text.includes(f), `${f} in ${text}`);
      assert.ok(!text.includes('secret'), text);
    }
  } finally {
    server.close();
  }
});

test('the size limit is enforced while reading the stream (no Content-Length)', async () => {
  let closedEarly = false;
  let sent = 0;
  const { server, url } = await echoServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length
    const chunk = `"${'x'.repeat(64 * 1024 - 3)}",`;
    res.write('[');
    const timer = setInterval(() => {
      if (sent >= 32 << 20) {
        clearInterval(timer);
        res.end('1]');
        return;
      }
      res.write(chunk);
      sent += chunk.length;
    }, 1);
    res.on('close', () => {
      clearInterval(timer);
      closedEarly = sent < 32 << 20;
    });
  });
  try {
    const c = new Client({ key: sandbox.key, baseUrl: url, retries: 0, maxBodyBytes: 1 << 20 });
    const e = await expectError(c.related(REL), 'body_too_large');
    assert.equal(e.limit, 1 << 20);
    assert.equal(e.charge.micros, REL_MICROS, 'a 200 is charged');
    await sleep(200);
    assert.ok(closedEarly, `the client stopped reading at the limit (server sent ${sent} bytes)`);
  } finally {
    server.closeAllConnections?.();
    server.close();
  }
});
