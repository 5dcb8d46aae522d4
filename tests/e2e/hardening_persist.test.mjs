// Persistence: one damaged entry in each IndexedDB store (results, history, lists)
// costs only itself: after a reload the rest is there and a notice says what was skipped.
// Save failures are reported, not swallowed: a real IndexedDB quota error (Chromium's
// per-origin quota lowered through CDP) and a full localStorage when the settings or the
// remembered key are saved. (Both were swallowed before: an IndexedDB put succeeds and the
// quota error comes only as the transaction's abort, which store::put_text did not wait for;
// store::local_set ignored every error.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, saved, shot, research } from './helpers.mjs';
import { storageDump } from './hardening_support.mjs';

const app = e2e();

/** Writes raw text under `key` in a store of the app's database. */
function putRaw(page, store, key, text) {
  return page.evaluate(([store, key, text]) => new Promise((res, rej) => {
    const r = indexedDB.open('serpkit');
    r.onsuccess = () => {
      const tx = r.result.transaction(store, 'readwrite');
      tx.objectStore(store).put(text, key);
      tx.oncomplete = () => { r.result.close(); res(); };
      tx.onerror = () => rej(tx.error);
    };
    r.onerror = () => rej(r.error);
  }), [store, key, text]);
}

async function createList(page, name) {
  if (!(await page.getByTestId('new-list-name').isVisible())) await page.locator('summary', { hasText: 'New list' }).click();
  await page.getByTestId('new-list-name').fill(name);
  await page.locator('#new-list-kws').fill(`${name} keyword`);
  await page.getByTestId('create-list').click();
}

test('a damaged entry in each store: the rest survives a reload, and the user is told', async () => {
  const page = await app.open('/keywords');
  // Two results and two history entries (demo mode), two lists.
  await research(page, ['persist one', 'persist two']);
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  await research(page, ['persist three']);
  await page.locator('[data-testid="kw-table"][data-rows="1"]').waitFor();
  await page.getByTestId('nav-lists').click();
  for (const name of ['alpha list', 'beta list']) await createList(page, name);
  await page.locator('[data-testid="list"]').nth(1).waitFor();
  await saved(page);

  const before = (await storageDump(page)).idb.serpkit;
  const resultKeys = Object.keys(before.results);
  const historyKeys = Object.keys(before.history);
  const listKeys = Object.keys(before.lists);
  assert.equal(resultKeys.length, 2);
  assert.equal(historyKeys.length, 2);
  assert.equal(listKeys.length, 2);
  // Damage one of each: broken JSON, the wrong shape, not text at all.
  await putRaw(page, 'results', resultKeys[0], '{"key": "broken');
  await putRaw(page, 'history', historyKeys[0], '{"id": 5}');
  await page.evaluate((key) => new Promise((res) => {
    const r = indexedDB.open('serpkit');
    r.onsuccess = () => {
      const tx = r.result.transaction('lists', 'readwrite');
      tx.objectStore('lists').put({ not: 'text' }, key);
      tx.oncomplete = () => { r.result.close(); res(); };
    };
  }), listKeys[0]);

  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  const notice = page.getByTestId('notice');
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, /damaged result/, text);
  assert.match(text, /damaged history entry/, text);
  assert.match(text, /damaged keyword list/, text);
  assert.equal(await notice.locator('li').count(), 3, 'one line per damaged entry');
  await shot(page, 'persist-damaged', false);

  // The rest is there: one history row, one list, the other result opens without a call.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().waitFor();
  assert.equal(await page.getByTestId('history-row').count(), 1);
  await page.getByTestId('nav-lists').click();
  await page.getByTestId('list').first().waitFor();
  assert.equal(await page.getByTestId('list').count(), 1);
  const ledgerBefore = await page.getByTestId('ledger').textContent();
  const good = JSON.parse(before.results[resultKeys[1]]);
  await page.goto(app.url + '/keywords?cc=US&kw=' + encodeURIComponent(JSON.parse(good.request).keywords.join('\n')));
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.locator('[data-testid="kw-table"] tbody tr').first().waitFor();
  assert.equal(await page.getByTestId('ledger').textContent(), ledgerBefore, 'opened without a call');

  // The app keeps working and saving: the damaged entries are replaced on the next save.
  await page.getByTestId('nav-lists').click();
  await createList(page, 'gamma list');
  await saved(page);
  assert.equal(Object.keys((await storageDump(page)).idb.serpkit.lists).length, 3);
  await page.context().close();
});

test('an IndexedDB quota error on save is reported, not swallowed', async () => {
  const page = await app.open('/keywords');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: app.url, quotaSize: 64 * 1024 });
  // A result of a few hundred kB (1,500 keywords) cannot fit in 64 kB.
  const kws = Array.from({ length: 1500 }, (_, i) => `quota keyword ${i}`);
  await research(page, kws);
  // Nothing is sent outside the journal, demo included: once a request cannot be written
  // ahead the job stops and says why, keeping what it bought.
  const error = page.locator('[data-testid="error"][data-code="journal"]');
  await error.waitFor({ timeout: 60_000 });
  assert.match(await error.innerText(), /no space left/i, 'the job says why it stopped');
  const notice = page.getByTestId('notice');
  await notice.waitFor({ timeout: 10_000 });
  assert.match(await notice.innerText(), /Could not save/i);
  assert.match(await notice.innerText(), /quota/i, 'the reason is given');
  await shot(page, 'persist-quota', false);
  // The footer does not claim everything was saved.
  const state = page.getByTestId('save-state');
  await page.locator('[data-testid="save-state"][data-saved="true"]').waitFor();
  assert.notEqual(await state.getAttribute('data-failed'), '0');
  assert.match(await state.innerText(), /not saved in this browser|A save failed/);
  // What was bought before it stopped is still shown (kept in memory): whole chunks.
  const rows = Number(await page.locator('[data-testid="kw-table"]').getAttribute('data-rows').catch(() => '0'));
  assert.ok(rows % 200 === 0 && rows < 1500, `the chunks bought are shown: ${rows}`);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: app.url });
  await page.context().close();
});

test('a full localStorage when settings or the remembered key are saved is reported', async () => {
  const page = await app.open('/settings');
  // Fill localStorage to the brim.
  const filled = await page.evaluate(() => {
    let n = 0;
    const chunk = 'x'.repeat(256 * 1024);
    try {
      for (;;) localStorage.setItem(`filler-${n++}`, chunk);
    } catch {}
    let small = chunk;
    while (small.length > 1) {
      small = small.slice(0, small.length >> 1);
      try {
        localStorage.setItem(`filler-${n++}`, small);
      } catch {}
    }
    return n;
  });
  assert.ok(filled > 1);
  await page.getByTestId('api-key').fill('quota-key-123456');
  await page.getByTestId('remember-key').check();
  const notice = page.getByTestId('notice');
  await notice.waitFor({ timeout: 5000 });
  assert.match(await notice.innerText(), /Could not save|not saved|storage/i);
  assert.ok(!(await notice.innerText()).includes('quota-key-123456'), 'the key is not in the notice');
  await page.evaluate(() => localStorage.clear());
  await page.context().close();
});
