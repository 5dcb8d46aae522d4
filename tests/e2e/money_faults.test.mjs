// The browser host's I/O fails closed, live against the sandbox server's ledger: the host
// only translates a failed lock request or a failed read into the machine's events
// (`Event::Locked(Err)`, `Event::Granted(Err)`), and the machine stops the call with nothing
// sent (its rule is proven by the simulator: mutations `LockRequestFailsOpen`,
// `FailedReadAsEmpty`). Each test breaks one browser primitive, only for the journal lock
// or the store the machine reads under it, and only from the moment the test says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, spaGo, quietLedger, resetLedger, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

// Installed before the app loads; each fault is off until the test sets its flag.
const faults = () => {
  const request = LockManager.prototype.request;
  LockManager.prototype.request = function (name, ...rest) {
    if (name === 'serpkit-journal' && window.__lockThrows) {
      throw new DOMException('the lock request failed', 'InvalidStateError');
    }
    if (name === 'serpkit-journal' && window.__lockRejects) {
      return new Promise((_, reject) => setTimeout(() => reject(new DOMException('aborted', 'AbortError')), 50));
    }
    return request.call(this, name, ...rest);
  };
  const getAll = IDBObjectStore.prototype.getAll;
  IDBObjectStore.prototype.getAll = function (...args) {
    if (this.name === 'reservations' && window.__readFails) {
      throw new DOMException('the read failed', 'UnknownError');
    }
    return getAll.apply(this, args);
  };
};

// Runs a live related-keywords call with `fault` on, and returns its error element.
async function refusedWith(page, kw, fault) {
  await spaGo(page, `/keyword?kw=${encodeURIComponent(kw)}&cc=US`);
  await page.evaluate(fault);
  await page.getByTestId('related').click();
  const refused = page.locator('[data-testid="section-related"] [data-testid="error"]');
  await refused.waitFor({ timeout: 10_000 });
  return refused;
}

test('a journal lock request that throws: the call is refused at once, nothing sent', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY }, init: faults });
  await resetLedger();
  const refused = await refusedWith(page, 'lock throws', () => { window.__lockThrows = true; });
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /lock/);
  assert.equal((await quietLedger([page])).entries.length, 0, 'nothing sent without the lock');
  // The lock works again: the same call goes, once.
  await page.evaluate(() => { window.__lockThrows = false; });
  await page.getByTestId('related').click();
  await page.locator('[data-testid="section-related"] [data-testid="refresh"]').waitFor({ timeout: 20_000 });
  assert.equal((await quietLedger([page])).entries.length, 1);
  await page.context().close();
});

test('a journal lock request rejected before the grant: the call ends refused, it never waits forever', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY }, init: faults });
  await resetLedger();
  const refused = await refusedWith(page, 'lock rejects', () => { window.__lockRejects = true; });
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.equal((await quietLedger([page])).entries.length, 0);
  await page.context().close();
});

test('a failed read of the reservations under the lock: nothing is decided or sent', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY }, init: faults });
  await resetLedger();
  const refused = await refusedWith(page, 'read fails', () => { window.__readFails = true; });
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /could not be read/);
  assert.equal((await quietLedger([page])).entries.length, 0, 'not bought on a read taken as empty');
  await page.context().close();
});

test('stored settings that cannot be read: the tab buys nothing on its own copy of the cap', { timeout: 60_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY, budget: '0.50', remember: true } });
  await resetLedger();
  const refused = await refusedWith(page, 'settings unreadable', () => {
    localStorage.setItem('serpkit.settings', '{"mode":"live","budget":');
  });
  assert.equal(await refused.getAttribute('data-code'), 'journal');
  assert.match(await refused.textContent(), /settings could not be read/);
  assert.equal((await quietLedger([page])).entries.length, 0);
  await page.context().close();
});
