// Clusters by shared search results in the explorer (issue 39), live against the sandbox
// server, whose ledger is what the money is compared with. Each keyword's outline is paid per
// keyword: the whole clustering is priced before anything is bought, every outline already
// bought (on a keyword's page or by an earlier clustering) is reused, and only the missing
// ones are priced and bought. 50 keywords whose outlines were half bought price and charge
// the other 25. The clusters shown are recomputed here by the rule the page states, from the
// outlines the sandbox server gives (the same body for the same keyword), so nothing depends
// on facts of the synthetic data beyond its keywords of one family sharing pages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, goLive, spaGo, research, ledger, quietLedger, resetLedger, micros, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

// 5 families of 10 (the sandbox's own test holds the same list: its families share pages).
const FAMILIES = {
  'running shoes': ['running shoes', 'best running shoes', 'cheap running shoes', 'running shoes for women', 'running shoes for men', 'waterproof running shoes', 'running shoes sale', 'how to clean running shoes', 'running shoes near me', 'lightweight running shoes'],
  'winter coat': ['winter coat', 'winter coat sale', 'best winter coat for women', 'how to clean winter coat', 'cheap winter coat', 'winter coat for men', 'black winter coat', 'winter coat for kids', 'waterproof winter coat', 'winter coat reviews'],
  'cast iron skillet': ['cast iron skillet', 'best cast iron skillet', 'how to clean cast iron skillet', 'cheap cast iron skillet', 'large cast iron skillet', 'cast iron skillet sale', 'cast iron skillet for beginners', 'small cast iron skillet', 'cast iron skillet reviews', 'how to use cast iron skillet'],
  'sourdough bread': ['sourdough bread', 'easy sourdough bread', 'sourdough bread recipe', 'how to make sourdough bread', 'sourdough bread for beginners', 'healthy sourdough bread', 'sourdough bread calories', 'how to store sourdough bread', 'sourdough bread nutrition', 'homemade sourdough bread'],
  'running watch': ['running watch', 'best running watch', 'cheap running watch', 'running watch for beginners', 'running watch sale', 'running watch reviews', 'how to choose running watch', 'running watch comparison', 'affordable running watch', 'running watch under 200'],
};
const ALL = Object.values(FAMILIES).flat();
const HALF = ALL.filter((_, i) => i % 2 === 0);
const FAMILY = new Map(Object.entries(FAMILIES).flatMap(([f, ks]) => ks.map((k) => [k, f])));
const OUTLINE = '$0.5000';
const dollars = (n) => `$${(n * 0.5).toFixed(4)}`;

/** Charged outline calls in the sandbox ledger. */
const outlinesCharged = (l) => l.entries.filter((e) => e.operation === 'outline/seo' && e.status === 200);

/** The outline the sandbox server gives for `keyword` (charged: read after the ledger checks). */
async function outlineUrls(keyword) {
  const r = await fetch(`${SANDBOX_URL}/v1/outline/seo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword }),
  });
  assert.equal(r.status, 200);
  return (await r.json()).map((p) => p.url);
}

/** The page's rule: URLs without scheme, www. and trailing slash (host lower-cased); keywords
 * by volume (then keyword), each not yet clustered takes every later one sharing ≥ n URLs with
 * it; clusters by summed volume. Returns each cluster's keywords, pivot first. */
function expectedClusters(rows, n) {
  const key = (u) => {
    let rest = u.includes('://') ? u.slice(u.indexOf('://') + 3) : u;
    rest = rest.replace(/\/+$/, '');
    if (rest.startsWith('www.')) rest = rest.slice(4);
    const i = rest.indexOf('/');
    return i < 0 ? rest.toLowerCase() : rest.slice(0, i).toLowerCase() + rest.slice(i);
  };
  const order = rows.map((r) => ({ ...r, keys: new Set(r.urls.map(key)) }))
    .sort((a, b) => b.volume - a.volume || (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0));
  const taken = new Set();
  const clusters = [];
  for (const p of order) {
    if (taken.has(p.keyword)) continue;
    taken.add(p.keyword);
    const c = [p];
    for (const q of order) {
      if (taken.has(q.keyword)) continue;
      if ([...q.keys].filter((k) => p.keys.has(k)).length >= n) {
        taken.add(q.keyword);
        c.push(q);
      }
    }
    clusters.push(c);
  }
  const volume = (c) => c.reduce((s, r) => s + Math.max(0, r.volume), 0);
  return clusters.sort((a, b) => volume(b) - volume(a)).map((c) => c.map((r) => r.keyword));
}

/** The clusters table as shown: each row's keywords, pivot first. */
async function shownClusters(page) {
  return page.locator('[data-testid="clusters-table"] [data-testid="cluster-row"]').evaluateAll((rows) => rows.map((r) => {
    const members = r.querySelector('[data-testid="cluster-members"]');
    return [r.dataset.pivot, ...(members ? members.textContent.split(', ') : [])];
  }));
}

test('clustering 50 keywords whose outlines were half bought prices and charges only the other 25', async () => {
  const page = await app.open('/keywords');
  await goLive(page, SANDBOX_KEY);
  await resetLedger();

  // One outline bought on the keyword's own page.
  await spaGo(page, `/keyword?kw=${encodeURIComponent(HALF[0])}&cc=US`);
  await page.locator('[data-testid="section-outline"] button[data-testid="outline"]').click();
  await page.locator('ol[data-testid="outline"]').waitFor();

  // The other 24 of the first half by clustering them: priced first, the one bought reused.
  await spaGo(page, '/keywords');
  await research(page, HALF);
  await page.locator(`[data-testid="kw-table"][data-rows="${HALF.length}"]`).waitFor();
  const run = page.getByTestId('clusters-run');
  await run.waitFor({ timeout: 30000 });
  assert.equal(await run.textContent(), `Cluster by shared results — ${dollars(24)} for 24 new outlines · 1 already bought`);
  assert.equal(await run.getAttribute('data-price'), dollars(24));
  assert.equal(outlinesCharged(await quietLedger(page)).length, 1, 'pricing bought nothing');
  await run.click();
  await run.waitFor({ state: 'detached', timeout: 60000 });
  await page.locator('[data-testid="clusters-table"]').waitFor();
  assert.equal(outlinesCharged(await quietLedger(page)).length, 25, 'half of the 50 bought');

  // All 50: only the 25 missing outlines are priced, and only they are charged.
  await research(page, ALL);
  await page.locator(`[data-testid="kw-table"][data-rows="${ALL.length}"]`).waitFor();
  await run.waitFor({ timeout: 30000 });
  const price = await run.getAttribute('data-price');
  assert.equal(price, dollars(25), 'the price of 25 outlines');
  assert.equal(await run.textContent(), `Cluster by shared results — ${dollars(25)} for 25 new outlines · 25 already bought`);
  assert.equal(micros(OUTLINE) * 25, micros(price));
  const unbought = await page.getByTestId('clusters-unbought').textContent();
  assert.match(unbought, /^25 keywords without an outline yet/);
  const before = await quietLedger(page);
  await run.click();
  await run.waitFor({ state: 'detached', timeout: 60000 });
  await page.getByTestId('clusters-unbought').waitFor({ state: 'detached' });
  const after = await quietLedger(page);
  const charged = outlinesCharged(after).slice(outlinesCharged(before).length);
  assert.equal(charged.length, 25, 'only the other 25 outlines charged');
  assert.equal(micros(`$${after.total}`) - micros(`$${before.total}`), micros(price), 'the ledger charged the price shown');
  assert.equal(outlinesCharged(after).length, 50, 'each outline bought once');
  await shot(page, 'serp-clusters');

  // The clusters follow the stated rule, over the outlines the sandbox gives.
  const volumes = new Map(await page.locator('[data-testid="kw-table"] tbody tr[data-testid="row"]').evaluateAll((rows) =>
    rows.map((r) => [r.dataset.id, Number(r.querySelector('[data-col="volume"]').textContent.replace(/,/g, ''))])));
  assert.equal(volumes.size, ALL.length);
  const rows = [];
  for (const keyword of ALL) rows.push({ keyword, volume: volumes.get(keyword), urls: await outlineUrls(keyword) });
  const shown = await shownClusters(page);
  assert.deepEqual(shown, expectedClusters(rows, 3));
  // Plausible: keywords of one family cluster together, never two families in one cluster.
  for (const c of shown) assert.equal(new Set(c.map((k) => FAMILY.get(k))).size, 1, `one family: ${c.join(', ')}`);
  assert.ok(shown.filter((c) => c.length >= 3).length >= 5, 'every family has a cluster of three keywords or more');
  assert.ok(shown.length < 25, `${shown.length} clusters of 50 keywords`);
  assert.match(await page.getByTestId('clusters-rule').textContent(), /share at least N URLs/);
  assert.match(await page.getByTestId('clusters-free').textContent(), /keyword groups above cost nothing/);

  // N is the user's: at 1 shared result fewer, larger clusters; at 10 nearly every keyword alone.
  await page.getByTestId('clusters-min').fill('1');
  assert.deepEqual(await shownClusters(page), expectedClusters(rows, 1));
  await page.getByTestId('clusters-min').fill('10');
  assert.deepEqual(await shownClusters(page), expectedClusters(rows, 10));
  // Changing N buys nothing.
  assert.equal(outlinesCharged(await quietLedger(page)).length, 50 + ALL.length, 'only the test\'s own reads since');
  assert.deepEqual(page.errors, []);
});
