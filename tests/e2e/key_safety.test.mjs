// The key goes only where the user sent it, and what the app keeps or exports is safe, live
// mode against the sandbox:
// - only http(s) base URLs are saved; plain http to another host is warned about in
//   Settings and live calls there are refused (nothing sent) until confirmed;
// - history keeps the error's code and status, never text from the service's body;
// - "Largest answer (MB)" limits what is read;
// - every text cell of every CSV export is guarded against formulas (sandbox `xss`);
// - the footer never says "All changes saved" beside a failed save.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, goLive, spaGo, shot, parseCsv, saved, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';
import { storageDump } from './hardening_support.mjs';

const app = e2e();

test('base URL: only http(s); plain http to another host is warned about and refused until confirmed', async () => {
  const [page] = await app.tabs(1);
  const sent = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(app.url)) sent.push(r.url());
  });
  await app.goto(page, '/settings');
  await page.getByTestId('mode-live').check();
  const initial = await page.getByTestId('base-url').inputValue();
  for (const bad of ['javascript:alert(1)', 'ftp://files.example.com', 'file:///etc/passwd']) {
    await page.getByTestId('base-url').fill(bad);
    await page.getByTestId('base-url').press('Tab');
    await page.getByTestId('base-url-error').waitFor();
    await saved(page);
    const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('serpkit.settings')));
    assert.equal(stored.base_url, initial, `${bad} is not saved`);
  }
  await page.getByTestId('base-url').fill('http://api.plain.example');
  await page.getByTestId('base-url').press('Tab');
  assert.equal(await page.getByTestId('base-url-error').count(), 0);
  const warning = page.getByTestId('insecure-url-warning');
  await warning.waitFor();
  assert.match(await warning.innerText(), /unencrypted to api\.plain\.example/);
  assert.equal(await warning.getAttribute('data-confirmed'), 'false');
  await page.getByTestId('api-key').fill('plain-http-key-123');
  // A live call is refused with the warning: nothing leaves the browser.
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('plain http probe');
  await page.getByTestId('run').click();
  const err = page.getByTestId('error');
  await err.waitFor();
  assert.equal(await err.getAttribute('data-code'), 'insecure_base_url');
  assert.match(await err.innerText(), /unencrypted/);
  assert.equal(await err.locator('a[href="/settings"]').count(), 1);
  assert.deepEqual(sent.filter((u) => u.includes('plain.example')), [], 'no request to the plain http host');
  // Confirmed in Settings: the warning stays, marked confirmed (and can be withdrawn).
  await spaGo(page, '/settings');
  await page.getByTestId('insecure-url-confirm').click();
  assert.equal(await page.getByTestId('insecure-url-warning').getAttribute('data-confirmed'), 'true');
  await shot(page, 'settings-insecure-url', false);
  // Loopback http (the sandbox) is not warned about.
  await page.getByTestId('base-url').fill(SANDBOX_URL);
  await page.getByTestId('base-url').press('Tab');
  assert.equal(await page.getByTestId('insecure-url-warning').count(), 0);
  await page.context().close();
});

test('history keeps the error code and status, never the service body', async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+not_json` });
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('body probe');
  await page.getByTestId('run').click();
  await page.getByTestId('error').waitFor();
  await spaGo(page, '/history');
  const row = page.getByTestId('history-row').first();
  const text = await row.innerText();
  assert.match(text, /not_json/);
  assert.ok(!/<|html|doctype|body/i.test(text.replace(/body probe/g, '')), `no body text: ${text}`);
  const dump = await storageDump(page);
  const entries = Object.values(dump.idb.serpkit.history).map((t) => JSON.parse(t));
  assert.equal(entries.length, 1);
  assert.equal(entries[0].message, 'the answer was not JSON (not_json)');
  await page.context().close();
});

test('"Largest answer (MB)": 64 by default; a smaller limit stops a larger answer', async () => {
  const page = await app.open('/settings');
  assert.equal(await page.getByTestId('max-body-mb').inputValue(), '64');
  await goLive(page, `${SANDBOX_KEY}+huge=3`);
  await page.getByTestId('max-body-mb').fill('1');
  await page.getByTestId('max-body-mb').press('Tab');
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('huge probe');
  await page.getByTestId('run').click();
  const err = page.getByTestId('error');
  await err.waitFor({ timeout: 20000 });
  assert.equal(await err.getAttribute('data-code'), 'body_too_large');
  await page.context().close();
});

/** Cells that a spreadsheet would run: text starting with = + - @ tab or CR (numbers aside). */
function unguarded(rows) {
  return rows.slice(1).flat().filter((c) => /^[=+\-@\t\r]/.test(c) && !/^-?\d+(\.\d+)?$/.test(c));
}

async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return parseCsv(await readFile(await d.path(), 'utf8'));
}

test('CSV exports with the sandbox xss answers: no text cell starts a formula', async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+xss` });
  // Referring domains (Type, Date, First seen are filled with formulas by the sandbox).
  await spaGo(page, '/domain?d=size-300.example.com&tab=backlinks');
  await page.getByTestId('backlinks').click();
  await page.getByTestId('nl-export').waitFor();
  const nl = await download(page, 'nl-export');
  assert.deepEqual(nl[0], ['Type', 'Date', 'Referring domain', 'Backlinks', 'Dofollow backlinks', 'First seen', 'Inlink rank']);
  assert.ok(nl.length > 1, 'rows exported');
  assert.deepEqual(unguarded(nl), []);
  const guarded = nl.slice(1).flatMap((r) => [r[0], r[1], r[5]]).filter((c) => c.startsWith("'"));
  assert.ok(guarded.length > 0, 'the sandbox put formulas in Type/Date/First seen, and they are guarded');
  // Ranked keywords.
  await spaGo(page, '/domain?d=size-300.example.com&tab=keywords');
  await page.getByTestId('keywords').click();
  await page.getByTestId('rk-export').waitFor();
  assert.deepEqual(unguarded(await download(page, 'rk-export')), []);
  // The keyword explorer.
  await spaGo(page, '/keywords');
  await page.getByTestId('kw-input').fill('csv probe one\ncsv probe two');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="kw-table"] tbody tr').first().waitFor();
  assert.deepEqual(unguarded(await download(page, 'export-csv')), []);
  await page.context().close();
});

test('the footer never says "All changes saved" beside a failed save', async () => {
  const page = await app.open('/settings');
  await page.evaluate(() => {
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
  });
  await page.getByTestId('budget').fill('12.5');
  await page.getByTestId('budget').press('Tab');
  const notice = page.getByTestId('notice');
  await notice.waitFor();
  assert.match(await notice.innerText(), /Could not save the settings/);
  const state = page.locator('[data-testid="save-state"][data-saved="true"]');
  await state.waitFor();
  assert.ok(!(await state.innerText()).includes('All changes saved'), await state.innerText());
  assert.notEqual(await state.getAttribute('data-failed'), '0');
  // Space again, and a later write succeeds: the notice is still on screen, so still not "all saved".
  await page.evaluate(() => localStorage.clear());
  await page.getByTestId('budget').fill('13');
  await page.getByTestId('budget').press('Tab');
  assert.ok(!(await state.innerText()).includes('All changes saved'), await state.innerText());
  // Dismissed, with nothing failing any more: now it may say so.
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  assert.match(await state.innerText(), /All changes saved/);
  await page.context().close();
});
