// Faults in the app: for every sandbox fault mode, in live mode, a Refresh of a
// stored result (related keywords on the keyword page) and a new explorer run beside stored
// rows. Each failure shows a clear message (a title, what happened, what to do), the prior
// results stay visible, and the sandbox ledger agrees with the app's spend meter: a call is
// charged at most once (retries of 429/503 are not charged), and only 200 answers are.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, shot, spaGo, micros, ledger, quietLedger, resetLedger, until, SANDBOX_KEY } from './helpers.mjs';

const REL = 150_000;
const ROUTE = '/keyword?kw=fault%20probe&cc=US';
const app = e2e();
let page;
before(async () => {
  page = await app.open('/keywords', { live: SANDBOX_KEY });
});

/** Fails the requests of page `p` that match `glob` until the returned function is called. */
async function block(p, glob) {
  let blocked = true;
  await p.route(glob, (r) => (blocked ? r.abort() : r.continue()));
  return () => {
    blocked = false;
  };
}

const spend = async () => micros(await page.getByTestId('spend').textContent());
const charged = (l) => l.entries.filter((e) => Number(e.charge) > 0);

/** Sets the key in Settings, then returns to `route` (without a reload: the key is in memory). */
async function setKey(key, route) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(key);
  await spaGo(page, route);
}

// [mode, expected: error code + status + title, or 'ok' (a result), charged (micros)]
const MODES = [
  ['rate_limit', { code: 'http', status: '429', title: /HTTP 429/ }, 0],
  ['rate_limit_once', 'ok', REL],
  ['server_error', { code: 'http', status: '500', title: /HTTP 500/ }, 0],
  ['unavailable', { code: 'http', status: '503', title: /HTTP 503/ }, 0],
  ['unavailable_once', 'ok', REL],
  ['delay=300', 'ok', REL],
  ['truncate', { code: 'not_json', title: /The call failed/, charged: true }, REL],
  ['not_json', { code: 'not_json', title: /The call failed/, charged: true }, REL],
  ['break=missing_field', 'issues', REL],
  ['break=range', 'issues', REL],
  ['huge=2', 'ok', REL],
  ['xss', 'ok', REL],
];

test('every fault mode on a Refresh: a clear message, prior results kept, charged at most once', async () => {
  await spaGo(page, ROUTE);
  await resetLedger();
  const section = page.getByTestId('section-related');
  await section.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  const rows = await page.locator('[data-testid="related-table"] tbody tr').count();
  assert.ok(rows > 0);
  assert.equal(await spend() , REL);

  for (const [mode, expect, charge] of MODES) {
    const before = await ledger();
    const spentBefore = await spend();
    await setKey(`${SANDBOX_KEY}+${mode}`, ROUTE);
    await section.getByTestId('refresh').click();
    await section.getByTestId('refresh-again').click();
    // The call ends: the refresh button is enabled again.
    await page.waitForFunction(() => {
      const s = document.querySelector('[data-testid="section-related"]');
      const b = s && s.querySelector('[data-testid="refresh"]');
      return b && !b.disabled && !s.textContent.includes('Loading…');
    }, null, { timeout: 20_000 });
    const err = section.getByTestId('error');
    if (typeof expect === 'object') {
      await err.waitFor();
      assert.equal(await err.getAttribute('data-code'), expect.code, mode);
      if (expect.status) assert.equal(await err.getAttribute('data-status'), expect.status, mode);
      const text = await err.innerText();
      assert.match(text, expect.title, `${mode}: a title`);
      assert.ok((await err.locator('.hint').first().innerText()).length > 10, `${mode}: what to do`);
      if (expect.charged) assert.match(text, /This call was charged \$0\.1500/, `${mode}: says it was charged`);
      // Prior results stay visible.
      assert.equal(await page.locator('[data-testid="related-table"] tbody tr').count(), rows, `${mode}: results kept`);
    } else {
      assert.equal(await err.count(), 0, `${mode}: no error`);
      await page.getByTestId('related-table').waitFor();
      if (expect === 'issues') {
        assert.ok((await section.locator('[data-testid="validation"], .validation').count()) > 0, `${mode}: the validation panel`);
        assert.match(await section.innerText(), /issue|error|warning/i, `${mode}: issues are reported`);
      }
    }
    // Whatever this call sent has been answered: the ledger holds all of it.
    const after = await quietLedger(page);
    const mine = after.entries.slice(before.entries.length);
    assert.equal(charged({ entries: mine }).length, charge ? 1 : 0, `${mode}: charged entries ${JSON.stringify(mine)}`);
    assert.ok(mine.every((e) => Number(e.charge) === 0 || e.status === 200), `${mode}: only 200s charged`);
    assert.equal(micros('$' + after.total) - micros('$' + before.total), charge, `${mode}: ledger charge`);
    const spent = await until(spend, (s) => s - spentBefore === charge, 5000);
    assert.equal(spent - spentBefore, charge, `${mode}: the spend meter agrees with the ledger`);
    if (mode === 'server_error' || mode === 'not_json') await shot(page, `fault-${mode.replace(/=.*/, '')}`, false);
  }
  await setKey(SANDBOX_KEY, ROUTE);
});

test('a fault during an explorer run keeps the stored rows and buys nothing twice', async () => {
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('fault kw one\nfault kw two');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  const before = await quietLedger(page);
  const spentBefore = await spend();
  await setKey(`${SANDBOX_KEY}+server_error`, '/keywords');
  await page.getByTestId('kw-input').fill('fault kw one\nfault kw two\nfault kw three');
  await page.getByTestId('run').click();
  const err = page.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-status'), '500');
  assert.match(await err.innerText(), /HTTP 500/);
  assert.equal(await page.locator('[data-testid="kw-table"] tbody tr').count(), 2, 'the stored rows stay visible');
  await shot(page, 'fault-explorer', false);
  // Back to the stored two: shown again without a call.
  await setKey(SANDBOX_KEY, '/keywords');
  await page.getByTestId('kw-input').fill('fault kw one\nfault kw two');
  const run = page.getByTestId('run');
  if ((await run.count()) && (await run.isEnabled())) await run.click();
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  const after = await quietLedger(page);
  assert.equal(charged({ entries: after.entries.slice(before.entries.length) }).length, 0, 'nothing charged');
  assert.equal(await spend(), spentBefore);
});

test('demo mode: a sandbox worker that cannot load ends the run with a clear error, and the next run works', async () => {
  const [p] = await app.tabs(1);
  const unblock = await block(p, '**/sandbox-worker_loader.js');
  await app.goto(p, '/keywords');
  await p.getByTestId('kw-input').fill('worker probe');
  await p.getByTestId('run').click();
  const error = p.getByTestId('error');
  await error.waitFor({ timeout: 30_000 });
  assert.equal(await error.getAttribute('data-code'), 'network');
  const text = await error.innerText();
  assert.match(text, /The demo sandbox could not run/);
  assert.match(text, /network error: the demo sandbox could not start: \/sandbox-worker_loader\.js could not be loaded/);
  assert.match(text, /Reload the page/);
  assert.ok(!text.includes('Open Settings'), 'nothing to fix in Settings');
  await shot(p, 'demo-worker-failed', false);
  // Nothing was charged; once the worker can load, the same run works (a new worker starts).
  assert.equal(micros(await p.getByTestId('spend').textContent()), 0);
  unblock();
  await p.getByTestId('run').click();
  await p.locator('[data-testid="kw-table"][data-rows="1"]').waitFor({ timeout: 30_000 });
  await p.context().close();
});

test('a page whose code cannot be fetched shows a clear error, the app keeps working, and the page opens on the next try', async () => {
  const [p] = await app.tabs(1);
  const unblock = await block(p, '**/app/split_pages_domains.wasm');
  await app.goto(p, '/keywords');
  await p.getByTestId('kw-input').waitFor();
  await p.getByTestId('nav-domains').click();
  const error = p.getByTestId('page-load-error');
  await error.waitFor({ timeout: 30_000 });
  const text = await error.innerText();
  assert.match(text, /This page could not be loaded/);
  assert.match(text, /Open the page again to retry, or reload the app/);
  await shot(p, 'page-chunk-failed', false);
  // The rest of the app still runs, and opening the page again fetches its code anew.
  await p.getByTestId('nav-keywords').click();
  await p.getByTestId('kw-input').waitFor();
  unblock();
  await p.getByTestId('nav-domains').click();
  await p.getByTestId('subnav-stats').waitFor({ timeout: 30_000 });
  assert.equal(await p.getByTestId('page-load-error').count(), 0);
  await p.context().close();
});

test('demo mode: when the code that makes calls cannot be fetched, the run fails clearly, nothing is charged, and the next run works', async () => {
  const [p] = await app.tabs(1);
  const unblock = await block(p, '**/app/split_call_service.wasm');
  await app.goto(p, '/keywords');
  await p.getByTestId('kw-input').fill('call code probe');
  await p.getByTestId('run').click();
  const error = p.getByTestId('error');
  await error.waitFor({ timeout: 30_000 });
  assert.equal(await error.getAttribute('data-code'), 'app_unavailable');
  const text = await error.innerText();
  assert.match(text, /Part of the app could not be loaded/);
  assert.match(text, /Nothing was sent or charged/);
  assert.equal(micros(await p.getByTestId('spend').textContent()), 0);
  unblock();
  await p.getByTestId('run').click();
  await p.locator('[data-testid="kw-table"][data-rows="1"]').waitFor({ timeout: 30_000 });
  await p.context().close();
});

test('a page whose code is slow to arrive shows a loading line until it renders', async () => {
  // The page's code is held back until the test has seen the loading line, then let through.
  let arrive;
  const held = new Promise((r) => {
    arrive = r;
  });
  const [p] = await app.tabs(1);
  await p.route('**/app/split_pages_workspace.wasm', async (r) => {
    await held;
    await r.continue();
  });
  await app.goto(p, '/keywords');
  await p.getByTestId('kw-input').waitFor();
  await p.getByTestId('nav-history').click();
  const loading = p.getByTestId('page-loading');
  await loading.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await loading.innerText(), /Loading the page/);
  arrive();
  await p.getByTestId('history-summary').waitFor({ timeout: 30_000 });
  await loading.waitFor({ state: 'detached', timeout: 10_000 });
  await p.context().close();
});
