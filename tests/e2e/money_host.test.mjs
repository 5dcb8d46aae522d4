// The money rules in the browser host, live against the sandbox server's ledger: each test
// is one break the hostile read of the journal found (issue "the money rules as one state
// machine"; the rules themselves are proven by the simulator, `cargo xtask sim`), and the
// leave-page prompt with its "possibly charged" question after a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  e2e, spaGo, ledger, resetLedger, quietLedger, research, chargedUnits, saved, until, SANDBOX_KEY,
} from './helpers.mjs';

const app = e2e();

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('serpkit.settings')));

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
