// Importing a workspace file never changes where the key goes: a file
// asking for live mode, a foreign base URL, no budget and no validation leaves the settings
// as they were (shown for an explicit Apply); imported results are labelled and not bought
// here (running them again costs their price); history rows whose route is not one of the
// app's own pages are skipped.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, research, saved, micros, shownLedger } from './helpers.mjs';

const app = e2e();
let doc;
before(async () => {
  // A workspace made by the app itself (demo mode): one bought result and its history row.
  const page = await app.open('/keywords');
  await research(page, ['import alpha', 'import beta', 'import gamma']);
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  await saved(page);
  await page.getByTestId('nav-settings').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-workspace').click()]);
  doc = JSON.parse(await readFile(await download.path(), 'utf8'));
  await page.context().close();
});

/** The crafted file: someone else's settings and two history rows linking elsewhere. */
function crafted() {
  const d = structuredClone(doc);
  d.settings = { ...d.settings, mode: 'live', base_url: 'https://collector.evil.example', budget: '', validation: 'off', insecure_ok: 'https://collector.evil.example' };
  const good = d.history[0];
  d.history.push({ ...good, id: 'bad-js', route: 'javascript:window.__xss=1' });
  d.history.push({ ...good, id: 'bad-ext', route: 'https://evil.example/keywords' });
  d.history.push({ ...good, id: 'bad-path', route: '/admin?x=1' });
  return d;
}

async function importFile(page, d) {
  await page.getByTestId('import-workspace').setInputFiles({ name: 'ws.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(d)) });
  await page.getByTestId('import-status').filter({ hasText: 'Imported' }).waitFor();
  return page.getByTestId('import-status').textContent();
}

test('a file with live mode, a foreign base URL and no budget leaves the settings unchanged', async () => {
  const page = await app.open('/settings');
  await page.getByTestId('budget').fill('2');
  await page.getByTestId('budget').press('Tab');
  // The cap moves money: the machine writes it under the journal lock.
  await saved(page);
  const before = await page.evaluate(() => localStorage.getItem('serpkit.settings'));
  const baseUrl = await page.getByTestId('base-url').inputValue();
  const status = await importFile(page, crafted());
  assert.match(status, /not applied/);
  // Nothing changed: mode, base URL, budget, validation (the page and what is stored).
  assert.equal(await page.getByTestId('mode').textContent(), 'Demo · synthetic data');
  assert.ok(await page.getByTestId('mode-demo').isChecked());
  assert.equal(await page.getByTestId('base-url').inputValue(), baseUrl);
  assert.equal(await page.getByTestId('budget').inputValue(), '2');
  assert.equal(await page.getByTestId('validation-mode').inputValue(), 'warn');
  assert.equal(await page.evaluate(() => localStorage.getItem('serpkit.settings')), before);
  // What the file had is shown, applied only on request.
  const shown = page.getByTestId('imported-settings');
  assert.match(await shown.innerText(), /collector\.evil\.example/);
  assert.match(await shown.innerText(), /live service/);
  assert.match(await shown.innerText(), /no cap/);
  await page.getByTestId('apply-imported-settings').click();
  assert.equal(await page.getByTestId('mode').textContent(), 'Live service');
  assert.equal(await page.getByTestId('base-url').inputValue(), 'https://collector.evil.example');
  await saved(page);
  const applied = JSON.parse(await page.evaluate(() => localStorage.getItem('serpkit.settings')));
  assert.equal(applied.insecure_ok, '', 'a confirmation to send the key over http is never taken from a file');
  await page.context().close();
});

test('history rows whose route is not a page of the app are skipped and counted', async () => {
  const page = await app.open('/settings');
  const status = await importFile(page, crafted());
  assert.match(status, /Imported 0 lists, 1 history entry, 1 result\./);
  assert.match(status, /Skipped 3 history entries whose link is not a page of this app\./);
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().waitFor();
  assert.equal(await page.getByTestId('history-row').count(), 1);
  const hrefs = await page.locator('[data-testid="history-table"] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.every((h) => h.startsWith('/keywords')), hrefs.join(' '));
  await page.context().close();
});

test('an imported result is labelled "imported" and running it again costs its price', async () => {
  const page = await app.open('/settings');
  await importFile(page, crafted());
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-open').click();
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  assert.equal(await page.getByTestId('imported').textContent(), 'imported');
  assert.equal(await page.getByTestId('result-meta').getAttribute('data-imported'), 'true');
  // Not "Saved result shown — no charge": it is priced and bought.
  const run = page.getByTestId('run');
  assert.equal(await run.textContent(), 'Run — $0.0009 for 3 keywords');
  assert.equal(await page.getByTestId('ledger').textContent(), '$0.0000');
  await run.click();
  await page.locator('[data-testid="result-meta"]:not([data-imported])').waitFor();
  assert.equal(await shownLedger(page, (m) => m === micros('$0.0009')), micros('$0.0009'));
  assert.equal(await page.getByTestId('spend').textContent(), '$0.0009');
  assert.equal(await page.getByTestId('imported').count(), 0);
  await page.context().close();
});
