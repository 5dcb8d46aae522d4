// The purchase journal across a reload: a bulk job interrupted by a reload is kept
// as an interrupted history row that can be resumed, its chunks counted by the meter as the
// ledger charged them (settled ones spent, those in flight possibly charged), and running it
// again buys only what is missing; and a click before the workspace is loaded sends nothing.
// Live against the sandbox server (the key remembered on the device, so a reload keeps it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, spaGo, ledger, quietLedger, resetLedger, meterEqualsLedger, ledgerUntil, until,
  research, chargedUnits, saved, shot, SANDBOX_URL, SANDBOX_KEY,
} from './helpers.mjs';

/** Price of one keyword of `search_volume/bulk`, in micro-dollars. */
const PER_KEYWORD = 300;
/** The app's chunk of a bulk job (app/src/workspace/calls/mod.rs CHUNK_SIZE). */
const CHUNK = 200;

const app = e2e();

/** Keywords done and total of the progress line (`400 of 2,000 keywords`), or null. */
async function progress(page) {
  const text = await page.getByTestId('progress').textContent().catch(() => '');
  const m = /([\d,]+) of ([\d,]+) keywords/.exec(text || '');
  return m ? { done: Number(m[1].replace(/,/g, '')), total: Number(m[2].replace(/,/g, '')) } : null;
}

test('a reload during a 2,000-keyword job: interrupted, counted as charged, resumed buying only what is missing', { timeout: 120_000 }, async () => {
  // Each request answers after 2 s: 10 chunks, 2 in flight, about 10 s for the job. The key
  // is remembered on this device: a reload keeps it.
  const page = await app.open('/keywords', { live: { key: `${SANDBOX_KEY}+delay=2000`, remember: true } });
  await resetLedger();
  await spaGo(page, '/keywords');
  const kws = Array.from({ length: 2000 }, (_, i) => `reload probe ${i}`);
  const { text } = await research(page, kws);
  assert.equal(text, 'Run — $0.6000 for 2000 keywords');

  // Some chunks done, and the two in flight arrived at the service 0.2–1 s ago with none
  // since (the ledger shows them; each answers 2 s after it arrived): the state the reload
  // interrupts. The chunks go in pairs, each pair sent in the commits of the one before; the
  // progress is drawn a frame after a commit, so it is read once the count has held 0.2 s.
  let seen = { n: 0, at: Date.now() };
  const mid = await until(async () => {
    const l = await ledger();
    if (l.entries.length !== seen.n) seen = { n: l.entries.length, at: Date.now() };
    return { p: await progress(page), l, age: Date.now() - seen.at };
  }, ({ p, l, age }) => p && p.done >= 2 * CHUNK && age >= 200 && age < 1000 && l.entries.length === p.done / CHUNK + 2, 30000, 25);
  assert.ok(mid.p && mid.age >= 200 && mid.age < 1000 && mid.l.entries.length === mid.p.done / CHUNK + 2,
    `progress never reached 2 chunks with 2 more in flight: ${JSON.stringify({ p: mid.p, requests: mid.l.entries.length, age: mid.age })}`);
  const settled = mid.p.done;
  assert.ok(settled < 2000, 'the job is still running');
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();

  // The service charged every request that reached it: the settled chunks and the two in
  // flight. The meter: the settled ones spent, those in flight possibly charged.
  const charged = await ledger();
  assert.equal(charged.entries.length, settled / CHUNK + 2);
  const [m] = await meterEqualsLedger(page, 'after the reload');
  assert.equal(m.spend, settled * PER_KEYWORD, 'the settled chunks are spent');
  assert.equal(m.possible, 2 * CHUNK * PER_KEYWORD, 'the chunks in flight at the reload are possibly charged');

  // The history keeps the job, interrupted, with a way to resume it.
  await spaGo(page, '/history');
  const row = page.locator('[data-testid="history-row"][data-outcome="interrupted"]');
  await row.first().waitFor({ timeout: 5000 }).catch(async () => {
    const outcomes = await page.locator('[data-testid="history-row"]').evaluateAll((rs) => rs.map((r) => r.dataset.outcome));
    throw new Error(`no interrupted history row; rows: ${JSON.stringify(outcomes)}`);
  });
  assert.equal(await row.count(), 1);
  assert.equal(await row.getAttribute('data-op'), 'search_volume/bulk');
  await shot(page, 'journal-interrupted-history');

  // Resume it without the delay: only the keywords not bought yet are priced and bought.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(SANDBOX_KEY);
  await saved(page);
  await spaGo(page, '/history');
  await row.getByTestId('history-resume').click();
  const run = page.getByTestId('run');
  await page.waitForFunction(() => /already bought/.test(document.querySelector('[data-testid="run"]')?.textContent || ''), null, { timeout: 10000 })
    .catch(async () => {
      throw new Error(`the resumed job's price does not say what is already bought: ${await run.textContent().catch(() => '?')}`);
    });
  const missing = 2000 - settled;
  const price = `$${(missing * PER_KEYWORD / 1e6).toFixed(4)}`;
  // The keywords whose answers the reload lost were possibly charged: the price says so and
  // the first Run asks before buying them again; the second is the yes.
  const priced = await run.textContent();
  const says = `Run — ${price} for ${missing} new keywords · ${settled} already bought · ${2 * CHUNK} possibly charged `;
  assert.ok(priced.startsWith(says) && / ago in an interrupted call$/.test(priced), priced);
  await run.click();
  await page.locator('[data-testid="error"][data-code="possibly_charged"]').waitFor();
  assert.equal((await ledger()).entries.length, charged.entries.length, 'nothing bought before the yes');
  await run.click();
  await page.locator('[data-testid="kw-table"][data-rows="2000"]').waitFor({ timeout: 60000 });

  const l = await ledgerUntil((l) => chargedUnits(l) >= settled + 2 * CHUNK + missing);
  const after = l.entries.filter((e) => e.seq > Math.max(...charged.entries.map((x) => x.seq)));
  assert.equal(chargedUnits({ entries: after }), missing, 'the resumed run charged only the keywords not bought');
  // Every keyword charged once, but those whose answers the reload lost (possibly charged,
  // bought again on the user's yes).
  assert.equal(chargedUnits(l), 2000 + 2 * CHUNK);
  const [end] = await meterEqualsLedger(page, 'after the resumed run');
  assert.equal(end.spend, 2000 * PER_KEYWORD);
  assert.equal(end.possible, 2 * CHUNK * PER_KEYWORD);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/**
 * Holds IndexedDB's open of the app's database: its `success` reaches the app only when the
 * test calls `window.__releaseIdb()` (or after 30 s), so the workspace stays loading as long
 * as the test needs.
 */
function holdIndexedDbOpen() {
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, ...rest) {
    const req = open.call(this, name, ...rest);
    if (name !== 'serpkit') return req;
    window.__idbHeld = true;
    let handler = null;
    const listeners = [];
    let event = null;
    let released = false;
    const deliver = () => {
      if (!event || !released) return;
      const e = event;
      event = null;
      window.__idbHeld = false;
      if (handler) handler.call(req, e);
      for (const f of listeners) f.call(req, e);
    };
    Object.defineProperty(req, 'onsuccess', { configurable: true, get: () => handler, set: (h) => { handler = h; } });
    const add = req.addEventListener.bind(req);
    req.addEventListener = (type, f, o) => (type === 'success' ? listeners.push(f) : add(type, f, o));
    add('success', (e) => { event = e; deliver(); });
    const release = () => { released = true; deliver(); };
    window.__releaseIdb = release;
    setTimeout(release, 30000);
    return req;
  };
}

test('while the workspace loads the price button is disabled, a click sends nothing; then it prices what is bought', { timeout: 90_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY, remember: true } });
  await resetLedger();
  await spaGo(page, '/keywords');
  const ten = Array.from({ length: 10 }, (_, i) => `loading probe ${i}`);
  await research(page, ten);
  await page.locator('[data-testid="kw-table"][data-rows="10"]').waitFor();
  assert.equal((await ledger()).entries.length, 1);
  await saved(page);

  // The same ten and one more, opened while IndexedDB's open is held.
  const sent = [];
  page.on('request', (r) => {
    if (r.url().startsWith(SANDBOX_URL)) sent.push(`${r.method()} ${r.url()}`);
  });
  await page.addInitScript(holdIndexedDbOpen);
  const eleven = [...ten, 'loading probe new'];
  await page.goto(`${app.url}/keywords?cc=US&kw=${encodeURIComponent(eleven.join('\n'))}`);
  const run = page.getByTestId('run');
  await run.waitFor();
  assert.equal(await page.evaluate(() => window.__idbHeld), true, 'the open is held');
  assert.equal(await page.locator('main').getAttribute('data-loaded'), 'false');
  assert.equal(await run.textContent(), 'Loading your workspace…');
  assert.ok(await run.isDisabled(), 'disabled while loading');
  assert.equal(await run.getAttribute('data-price'), '', 'no price while loading');
  await shot(page, 'journal-loading-button', false);

  // A click (forced onto the disabled button, then with the button enabled by hand).
  await run.click({ force: true });
  await run.evaluate((b) => {
    b.disabled = false;
    b.click();
  });
  assert.equal(await page.locator('main').getAttribute('data-loaded'), 'false', 'still loading after the clicks');

  await page.evaluate(() => window.__releaseIdb());
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.waitForFunction(() => /already bought/.test(document.querySelector('[data-testid="run"]')?.textContent || ''), null, { timeout: 5000 })
    .catch(async () => {
      throw new Error(`after loading the price does not say what is bought: ${await run.textContent()}`);
    });
  assert.equal(await run.textContent(), 'Run — $0.0003 for 1 new keyword · 10 already bought');
  assert.ok(!(await run.isDisabled()));
  // Nothing shows that no request left: the network and the ledger once nothing is on its way.
  const l = await quietLedger(page);
  assert.deepEqual(sent, [], 'no request to the service from the clicks while loading');
  assert.equal(l.entries.length, 1, 'nothing charged by the clicks while loading');
  assert.equal(await page.getByTestId('progress').count(), 0);

  // The button works once loaded: it buys the one new keyword.
  await run.click();
  await page.locator('[data-testid="kw-table"][data-rows="11"]').waitFor();
  const bought = await ledgerUntil((l) => l.entries.length >= 2);
  assert.equal(bought.entries.length, 2);
  assert.equal(bought.entries[1].units, 1);
  await meterEqualsLedger(page, 'loading');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
