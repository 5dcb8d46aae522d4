// The money state machine's rules read the shared store under the journal lock, never a
// tab's memory (issue "the money rules as one state machine", breaks 4 and 5), live against
// the sandbox server's ledger: a tab that missed another tab's message still does not buy
// those records again, and a budget reset later than the clock never stops the cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, spaGo, quietLedger, resetLedger, research, chargedUnits, ledgerUntil, meter, micros,
  saved, SANDBOX_KEY,
} from './helpers.mjs';

const app = e2e();

test('a tab that never heard another tab commit does not buy those keywords again', { timeout: 90_000 }, async () => {
  const [a, b] = await app.tabs(2);
  // Tab B hears nothing from the other tabs (a message lost, or sent while it loaded).
  await b.addInitScript(() => {
    Object.defineProperty(BroadcastChannel.prototype, 'onmessage', { set() {}, get() { return null; } });
  });
  await app.goto(a, '/keywords', { live: { key: SANDBOX_KEY, remember: true } });
  await saved(a);
  await app.goto(b, '/keywords');
  assert.equal(await b.getByTestId('mode').textContent(), 'Live service');
  await resetLedger();
  await spaGo(a, '/keywords');
  await research(a, ['missed message a', 'missed message b']);
  await a.locator('[data-testid="kw-table"][data-rows="2"]').waitFor({ timeout: 30_000 });
  assert.equal(chargedUnits(await ledgerUntil((l) => chargedUnits(l) >= 2)), 2);

  // B still prices both keywords (it never heard of A's purchase), but under the journal
  // lock it reads what every tab stored: nothing is sent, the answer comes from A's records.
  await b.bringToFront();
  await spaGo(b, '/keywords');
  const { text } = await research(b, ['missed message a', 'missed message b']);
  assert.match(text, /for 2 keywords$/, 'B did not hear of them: it prices both');
  await b.locator('[data-testid="kw-table"][data-rows="2"]').waitFor({ timeout: 30_000 });
  const l = await quietLedger([a, b]);
  assert.equal(chargedUnits(l), 2, 'the two keywords charged once');
  assert.deepEqual(b.errors, []);
  await a.context().close();
});

test('a budget reset later than the clock (an imported file, a clock set back) never stops the cap', { timeout: 90_000 }, async () => {
  const page = await app.open('/keywords', { live: { key: SANDBOX_KEY, budget: '0.25', remember: true } });
  await page.getByTestId('budget-period').selectOption('until_reset');
  await saved(page);
  await resetLedger();
  await spaGo(page, '/keyword?kw=future%20reset&cc=US');
  await page.getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  assert.equal((await ledgerUntil((l) => l.entries.length >= 1)).entries.length, 1);

  // The stored reset moves a day ahead of this clock; the page reloads with it.
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('serpkit.settings'));
    s.budget_reset_at = Date.now() + 86_400_000;
    localStorage.setItem('serpkit.settings', JSON.stringify(s));
  });
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  // The $0.15 spent still counts, so a $0.25 call is refused and nothing is sent.
  assert.deepEqual(await meter(page), { spend: micros('$0.1500'), possible: 0 });
  await page.getByTestId('videos').click();
  const refused = page.locator('[data-testid="section-videos"] [data-testid="error"]');
  await refused.waitFor();
  assert.equal(await refused.getAttribute('data-code'), 'budget_exceeded', await refused.textContent());
  assert.equal((await quietLedger([page])).entries.length, 1, 'nothing sent over the cap');
  await page.context().close();
});
