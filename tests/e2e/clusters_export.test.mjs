// Exports of the clusters by shared search results (issue 39), demo mode. The explorer's
// clusters CSV has one row per keyword: its cluster (number and pivot), volume, the results it
// shares with its pivot and the N used; its clustered rows are the clusters the table shows,
// and the keywords without an outline follow with no cluster. A demo export says so on its
// first line and in its name. The explorer's report has the clusters made of the outlines
// already bought and says what the rest would cost; exporting buys nothing. Shared counts are
// recomputed from the outlines the sandbox server gives (the same generator as the demo).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, research, parseCsv, micros, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

const SHOES = ['running shoes', 'best running shoes', 'cheap running shoes', 'running shoes for women', 'running shoes for men', 'waterproof running shoes', 'running shoes sale', 'how to clean running shoes', 'running shoes near me', 'lightweight running shoes'];
const COATS = ['winter coat', 'winter coat sale', 'best winter coat for women', 'how to clean winter coat', 'cheap winter coat', 'winter coat for men', 'black winter coat', 'winter coat for kids', 'waterproof winter coat', 'winter coat reviews'];
const HEADER = ['Cluster', 'Pivot keyword', 'Keyword', 'Volume', 'Shared results with pivot', 'Least shared results (N)'];

/** A result URL as the page compares them (scheme, www. and a trailing slash ignored). */
function resultKey(u) {
  let rest = u.includes('://') ? u.slice(u.indexOf('://') + 3) : u;
  rest = rest.replace(/\/+$/, '');
  if (rest.startsWith('www.')) rest = rest.slice(4);
  const i = rest.indexOf('/');
  return i < 0 ? rest.toLowerCase() : rest.slice(0, i).toLowerCase() + rest.slice(i);
}

/** The distinct result keys of `keyword`'s outline at the sandbox server. */
async function resultKeys(keyword) {
  const r = await fetch(`${SANDBOX_URL}/v1/outline/seo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword }),
  });
  assert.equal(r.status, 200);
  return new Set((await r.json()).map((p) => resultKey(p.url)));
}

async function shownClusters(page) {
  return page.locator('[data-testid="clusters-table"] [data-testid="cluster-row"]').evaluateAll((rows) => rows.map((r) => {
    const members = r.querySelector('[data-testid="cluster-members"]');
    return [r.dataset.pivot, ...(members ? members.textContent.split(', ') : [])];
  }));
}

async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: dl.suggestedFilename(), text: await readFile(await dl.path(), 'utf8') };
}

/** The CSV's rows checked against the clusters shown, the table's volumes and the outlines. */
async function checkCsv(page, text, n, unbought) {
  const csv = parseCsv(text);
  assert.equal(text.replace(/^\ufeff/, '').split('\r\n')[0], HEADER.join(','), 'the header is line 1');
  assert.deepEqual(csv[0], HEADER);
  const rows = csv.slice(1);
  const shown = await shownClusters(page);
  const clustered = rows.filter((r) => r[0] !== '');
  // Cluster by cluster, in the table's order, pivot first.
  const byNumber = [];
  for (const r of clustered) (byNumber[Number(r[0]) - 1] ??= []).push(r);
  assert.deepEqual(byNumber.map((c) => c.map((r) => r[2])), shown);
  const volumes = new Map(await page.locator('[data-testid="kw-table"] tbody tr[data-testid="row"]').evaluateAll((trs) =>
    trs.map((tr) => [tr.dataset.id, Number(tr.querySelector('[data-col="volume"]').textContent.replace(/,/g, ''))])));
  for (const c of byNumber) {
    const pivot = await resultKeys(c[0][2]);
    for (const r of c) {
      assert.equal(r[1], c[0][2], 'each row names its pivot');
      assert.equal(Number(r[3]), volumes.get(r[2]), `volume of ${r[2]}`);
      const own = await resultKeys(r[2]);
      const shared = [...own].filter((k) => pivot.has(k)).length;
      assert.equal(Number(r[4]), shared, `results ${r[2]} shares with ${r[1]}`);
      if (r !== c[0]) assert.ok(shared >= n, `${r[2]} shares at least ${n}`);
      assert.equal(r[5], String(n));
    }
  }
  // The keywords without an outline: no cluster, listed after.
  const rest = rows.filter((r) => r[0] === '');
  assert.deepEqual(rest.map((r) => r[2]).sort(), [...unbought].sort());
  for (const r of rest) assert.deepEqual([r[1], r[4], r[5]], ['', '', String(n)]);
  assert.deepEqual(rows.slice(clustered.length), rest, 'clustered rows first');
}

test('the clusters CSV matches the clusters shown and says demo; the report clusters only outlines bought', async () => {
  const page = await app.open('/keywords');
  await research(page, SHOES);
  await page.locator(`[data-testid="kw-table"][data-rows="${SHOES.length}"]`).waitFor();
  const run = page.getByTestId('clusters-run');
  await run.click();
  await run.waitFor({ state: 'detached', timeout: 60000 });
  await page.locator('[data-testid="clusters-table"] [data-testid="cluster-row"]').first().waitFor();

  // Ten more keywords, their outlines not bought: in no cluster.
  await research(page, [...SHOES, ...COATS]);
  await page.locator(`[data-testid="kw-table"][data-rows="${SHOES.length + COATS.length}"]`).waitFor();
  await page.getByTestId('clusters-unbought').waitFor();
  const ledger = await page.getByTestId('ledger').textContent();

  const first = await download(page, 'clusters-csv');
  assert.equal(first.name, 'demo-keyword-clusters.csv', 'a demo CSV says so in its name');
  await checkCsv(page, first.text, 3, COATS);

  // N is the user's: the export uses the N shown.
  await page.getByTestId('clusters-min').fill('1');
  await checkCsv(page, (await download(page, 'clusters-csv')).text, 1, COATS);

  // The explorer's report: the clusters of the outlines bought, the rest priced, not bought.
  const report = await download(page, 'export-report');
  const shown = await shownClusters(page);
  assert.match(report.text, new RegExp(`<h2>Clusters by shared search results \\(${shown.length}\\)</h2>`));
  for (const c of shown) assert.ok(report.text.includes(`<td>${c[0]}</td><td class="n">${c.length}</td>`), `the report has ${c[0]}'s cluster`);
  assert.match(report.text, /at least 1 of their top-10 results/);
  assert.match(report.text, /10 keywords have no outline bought yet and are in no cluster: their outlines cost \$5\.0000/);
  assert.equal(await page.getByTestId('ledger').textContent(), ledger, 'exports buy nothing');
  assert.ok(micros(ledger) > 0);
  assert.deepEqual(page.errors, []);
});
