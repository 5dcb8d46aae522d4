// The money rules in the browser host, live against the sandbox server's ledger: each test
// is one break the hostile read of the journal found (issue "the money rules as one state
// machine"; the rules themselves are proven by the simulator, `cargo xtask sim`), and the
// leave-page prompt with its "possibly charged" question after a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, spaGo, ledger, resetLedger, quietLedger, research, enterLines, chargedUnits, saved, until,
  SANDBOX_KEY,
} from './helpers.mjs';

const app = e2e();

// The settings as stored once this tab's writes are done (the money fields are written by
// the machine under the journal lock, a moment after the edit shows).
const stored = async (page) => {
  await saved(page);
  return page.evaluate(() => JSON.parse(localStorage.getItem('serpkit.settings')));
};

test('an older tab editing a setting keeps the cap another tab set, and shows it live', { timeout: 60_000 }, async () => {
  const [a, b] = await app.tabs(2);
  await app.goto(a, '/settings');
  await app.goto(b, '/keywords', { live: { key: SANDBOX_KEY, budget: '0.20', remember: true } });
  await saved(b);
  // Tab A read the settings before B set them; it now changes the validation mode.
  await a.getByTestId('validation-mode').selectOption('strict');
  const s = await stored(a);
  assert.equal(s.budget, '0.20', 'the cap B set is kept');
  assert.equal(s.mode, 'live');
  assert.equal(s.validation, 'strict');
  // And A shows B's cap without a reload (the storage event).
  await until(() => a.getByTestId('budget').inputValue(), (v) => v === '0.20');
  await a.context().close();
});

test('the cap fails closed: a comma amount is refused and the cap stays; 0 admits nothing', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY, budget: '0.10' } });
  await page.getByTestId('budget').fill('1,50');
  await page.getByTestId('budget').press('Tab');
  assert.match(await page.getByTestId('budget-error').textContent(), /not saved.*stays \$0\.10/);
  assert.equal((await stored(page)).budget, '0.10');

  await page.getByTestId('budget').fill('0');
  await page.getByTestId('budget').press('Tab');
  assert.equal((await stored(page)).budget, '0');
  await resetLedger();
  await spaGo(page, '/keyword?kw=cap%20zero&cc=US');
  await page.getByTestId('related').click();
  const refused = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'budget_exceeded');
  const l = await quietLedger([page]);
  assert.equal(l.entries.length, 0, 'nothing sent under a cap of 0');
  await page.context().close();
});

test('without Web Locks (a plain-http LAN origin) no live call is sent', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', {
    live: { key: SANDBOX_KEY },
    init: () => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }),
  });
  await resetLedger();
  await spaGo(page, '/keyword?kw=no%20locks&cc=US');
  await page.getByTestId('related').click();
  const refused = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /Web Locks/);
  assert.equal((await quietLedger([page])).entries.length, 0);
  await page.context().close();
});

test('leaving during a live call asks first; after a reload the possibly charged keyword is bought only on yes', { timeout: 120_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: `${SANDBOX_KEY}+delay=8000`, remember: true } });
  const dialogs = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.type());
    await d.accept();
  });
  await resetLedger();
  await spaGo(page, '/keywords');
  // No call in flight: leaving does not ask.
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  assert.deepEqual(dialogs, []);

  await research(page, ['ov a', 'ov shared']);
  await page.waitForTimeout(2000);
  await page.reload();
  assert.deepEqual(dialogs, ['beforeunload'], 'the browser asked before leaving a live call');
  await page.locator('main[data-loaded="true"]').waitFor();
  // The interrupted call was charged by the service all the same.
  await until(ledger, (l) => chargedUnits(l) === 2 && l.in_flight === 0, 20_000);

  const first = await research(page, ['ov shared', 'ov b']);
  assert.match(first.text, /for 2 keywords · 1 possibly charged \d+ s ago in an interrupted call$/);
  const asked = page.locator('[data-testid="error"][data-code="possibly_charged"]');
  await asked.waitFor();
  assert.match(await asked.textContent(), /possibly charged \d+ s ago in an interrupted call/);
  let l = await quietLedger([page]);
  assert.equal(chargedUnits(l), 2, 'nothing bought without a yes');

  // Yes: run it again.
  await page.getByTestId('run').click();
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor({ timeout: 30_000 });
  l = await quietLedger([page], 30_000);
  assert.equal(chargedUnits(l), 4, 'ov shared bought again on yes, with ov b');
  // Nothing in flight: leaving does not ask any more.
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  assert.deepEqual(dialogs, ['beforeunload']);
  await page.context().close();
});

test('a charged 200 that is not JSON is kept with its text: the same call is not bought again', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+not_json` });
  await resetLedger();
  await spaGo(page, '/keyword?kw=not%20json%20kept&cc=US');
  await page.getByTestId('related').click();
  const err = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'not_json');
  assert.equal((await quietLedger([page])).entries.length, 1);
  // With a normal key, the same request is answered by what was paid for.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(SANDBOX_KEY);
  await spaGo(page, '/keyword?kw=not%20json%20kept&cc=US');
  // The paid (unreadable) answer is what is stored: the section offers a Refresh, not a sale.
  const section = page.getByTestId('section-related');
  await section.getByTestId('refresh').waitFor();
  assert.equal(await section.getByTestId('related').count(), 0, 'not offered for sale again');
  assert.equal((await quietLedger([page])).entries.length, 1, 'charged once');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('clearing History in one tab never frees a running job of another: nothing is bought twice', { timeout: 90_000 }, async () => {
  const [a, b] = await app.tabs(2);
  await app.goto(a, '/keywords', { live: { key: `${SANDBOX_KEY}+delay=4000`, remember: true } });
  await app.goto(b, '/history');
  await resetLedger();
  await spaGo(a, '/keywords');
  await research(a, ['clear a', 'clear b']);
  await b.bringToFront();
  await spaGo(b, '/history');
  await b.getByRole('button', { name: 'Clear history and stored results' }).click();
  await b.getByRole('button', { name: 'Delete', exact: true }).click();
  await spaGo(b, '/keywords');
  await research(b, ['clear a', 'clear b']);
  await b.getByTestId('waiting').waitFor({ timeout: 5000 });
  await b.locator('[data-testid="kw-table"][data-rows="2"]').waitFor({ timeout: 30_000 });
  const l = await quietLedger([a, b], 30_000);
  assert.equal(chargedUnits(l), 2, 'the two keywords charged once');
  await a.context().close();
});

test('a settings change while a call waits stops it: it is never re-targeted', { timeout: 90_000 }, async () => {
  const [a, b] = await app.tabs(2);
  await app.goto(a, '/keywords', { live: { key: `${SANDBOX_KEY}+delay=4000`, remember: true } });
  await app.goto(b, '/keywords');
  await resetLedger();
  await spaGo(a, '/keywords');
  await research(a, ['retarget a', 'retarget b']);
  await b.bringToFront();
  await research(b, ['retarget a', 'retarget b', 'retarget c']);
  await b.getByTestId('waiting').waitFor({ timeout: 5000 });
  // B turns to demo mode while its call waits for A's keywords.
  await b.getByTestId('nav-settings').click();
  await b.getByTestId('mode-demo').check();
  // (Settings are shared: tab A now shows demo too, while its live call, sent before the
  // change, finishes and is kept.)
  await until(ledger, (x) => chargedUnits(x) >= 2 && x.in_flight === 0, 30_000);
  assert.equal(chargedUnits(await quietLedger([a, b], 30_000)), 2, 'only A bought: B sent nothing live');
  // Nor did B buy in demo and keep it under the live request: live, "retarget c" is still to buy.
  await b.getByTestId('mode-live').check();
  await spaGo(b, '/keywords');
  await enterLines(b.getByTestId('kw-input'), ['retarget a', 'retarget b', 'retarget c']);
  await until(() => b.getByTestId('run').textContent(), (t) => /for 1 new keyword · 2 already bought/.test(t));
  await a.context().close();
});

test('an older tab holding the database open: the new tab still loads, says so, and buys nothing live', { timeout: 60_000 }, async () => {
  const [old, fresh] = await app.tabs(2);
  // A tab of an older serpkit: its connection (version 3) has no versionchange handler.
  // (A blank page of the app's origin stands for it: the app itself would open version 4.)
  await old.route(`${app.url}/old-tab`, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>old</title>' }));
  await old.goto(`${app.url}/old-tab`);
  await old.evaluate(() => new Promise((resolve, reject) => {
    const r = indexedDB.open('serpkit', 3);
    r.onupgradeneeded = () => r.result.createObjectStore('journal');
    r.onsuccess = () => { window.keep = r.result; resolve(); };
    r.onerror = () => reject(r.error);
  }));
  await app.goto(fresh, '/keywords', { live: { key: SANDBOX_KEY } });
  assert.match(await fresh.getByTestId('notice').first().textContent(), /older version/);
  await resetLedger();
  await spaGo(fresh, '/keyword?kw=blocked%20db&cc=US');
  await fresh.getByTestId('related').click();
  const refused = fresh.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.equal((await quietLedger([fresh])).entries.length, 0);
  await old.context().close();
});

test('storage refusing the write-ahead (quota): the live request is not sent', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', {
    live: { key: SANDBOX_KEY },
    init: () => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (value, key) {
        if (this.name === 'journal' && window.storageFull) {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        }
        return put.call(this, value, key);
      };
    },
  });
  await resetLedger();
  await spaGo(page, '/keyword?kw=quota%20full&cc=US');
  await page.evaluate(() => { window.storageFull = true; });
  await page.getByTestId('related').click();
  const refused = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /could not be written/);
  assert.equal((await quietLedger([page])).entries.length, 0, 'nothing sent outside the journal');
  await page.context().close();
});

test('a newer version opened in another tab: this tab\'s connection closes and it buys nothing more', { timeout: 60_000 }, async () => {
  const [page, newer] = await app.tabs(2);
  await app.goto(page, '/keywords', { live: { key: SANDBOX_KEY } });
  await resetLedger();
  // Another tab opens a newer schema: this tab is asked to close its connection, and does.
  await newer.route(`${app.url}/newer-tab`, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>newer</title>' }));
  await newer.goto(`${app.url}/newer-tab`);
  await newer.evaluate(() => new Promise((resolve, reject) => {
    const r = indexedDB.open('serpkit', 99);
    r.onsuccess = () => { window.keep = r.result; resolve(); };
    r.onerror = () => reject(r.error);
  }));
  // The host reports the write it cannot make; the machine refuses the call: nothing leaves.
  await spaGo(page, '/keyword?kw=newer%20schema&cc=US');
  await page.getByTestId('related').click();
  const refused = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /newer version of serpkit opened in another tab/);
  assert.equal((await quietLedger([page])).entries.length, 0, 'nothing sent outside the journal');
  await page.context().close();
});
