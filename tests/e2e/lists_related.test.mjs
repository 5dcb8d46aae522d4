// Keywords added to a list from Related keep the figures bought with them (issue 43, item 4),
// in demo mode: the list's table and CSV show their volume, CPC, competition, keyword
// difficulty and country (the related records, read from the sandbox server: the same
// generator as demo mode), with no charge.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, parseCsv, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

test('a list keeps the figures of keywords added from Related, with KD and country', async () => {
  const page = await app.open('/keyword?kw=running%20shoes&cc=GB');
  await page.getByTestId('related').click();
  const table = page.getByTestId('related-table');
  await table.locator('tbody tr').nth(2).waitFor();
  const picked = [];
  for (const i of [0, 2]) {
    const tr = table.locator('tbody tr').nth(i);
    picked.push(await tr.locator('a.kw').textContent());
    await tr.locator('input[type="checkbox"]').check();
  }
  const section = page.getByTestId('section-related');
  await section.getByTestId('list-name').fill('From related');
  await section.getByTestId('add-to-list').click();
  await section.getByTestId('list-status').filter({ hasText: 'Added 2 keywords' }).waitFor();
  const ledger = await page.getByTestId('ledger').textContent();

  const related = await (await fetch(`${SANDBOX_URL}/v1/related`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword: 'running shoes', ccode: 'GB' }),
  })).json();
  const record = new Map(related.map((r) => [r.keyword, r]));

  await page.getByTestId('nav-lists').click();
  const list = page.locator('[data-testid="list"][data-name="From related"]');
  const rows = list.locator('[data-testid="list-table"] tbody tr');
  await rows.nth(1).waitFor();
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => ({
    keyword: tr.querySelector('a.kw').textContent,
    volume: tr.querySelector('td[data-col="volume"]').textContent,
    kd: tr.querySelector('td[data-col="kd"]').textContent,
    country: tr.querySelector('td[data-col="country"]').textContent,
  })));
  assert.deepEqual(shown.map((r) => r.keyword).sort(), [...picked].sort());
  for (const r of shown) {
    const want = record.get(r.keyword);
    assert.equal(r.volume, want.search_volume.toLocaleString('en-US'), `${r.keyword}: volume`);
    assert.equal(r.kd, String(want.kd), `${r.keyword}: KD`);
    assert.equal(r.country, 'GB', `${r.keyword}: country`);
  }
  await shot(page, 'list-from-related', false);

  const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = parseCsv(await readFile(await download.path(), 'utf8'));
  const col = (name) => csv[0].indexOf(name);
  assert.ok(col('Keyword difficulty') > 0 && col('Country') > 0, csv[0].join());
  for (const line of csv.slice(1)) {
    const want = record.get(line[0]);
    assert.ok(want, line[0]);
    assert.equal(line[1], String(want.search_volume), `${line[0]}: CSV volume`);
    assert.equal(line[col('CPC')], want.cpc.toFixed(2), `${line[0]}: CSV CPC`);
    assert.equal(line[col('Keyword difficulty')], String(want.kd), `${line[0]}: CSV KD`);
    assert.equal(line[col('Country')], 'GB');
  }
  assert.equal(await page.getByTestId('ledger').textContent(), ledger, 'the list bought nothing');
});
