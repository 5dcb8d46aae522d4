// Domain research in demo mode: domain stats cards ("—" for empty values), page
// backlink metrics, backlink overview (chart, new/lost filters), rank distribution (the
// missing 61–70 range shown as such), the 100,000-row ranked keywords table (virtualized,
// scroll to the end, sort, filter, CSV export of the filtered rows, row click), and the
// compare view. Expected values come from the sandbox server, which generates the same data
// as the in-browser demo.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, shot, micros, parseCsv, saved, shownLedger, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';
import { ctr } from './research_gap_rules.mjs';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

/** The same request to the sandbox server (same generator as the demo). */
async function sandbox(op, body) {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const r = await fetch(`${SANDBOX_URL}/v1/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, ...body }),
  });
  assert.equal(r.status, 200, `sandbox ${op}`);
  return r.json();
}

const num = (t) => Number(String(t).replace(/[^0-9.-]/g, ''));
const demoLedger = async () => micros(await page.getByTestId('ledger').textContent());

const DOMAINS = ['example.com', 'shop.example.org', 'news.example.net', 'blog.example.io'];

test('domain stats: cards for several domains, empty values as "—", topical trust flow', async () => {
  await open(page, app.url, '/domains');
  await page.getByTestId('empty').waitFor();
  await page.getByTestId('domains-input').fill(DOMAINS.join('\n'));
  const run = page.getByTestId('run');
  assert.equal(await run.textContent(), 'Get stats — $0.2000 for 4 domains');
  const before = await demoLedger();
  await run.click();
  await page.locator('[data-testid="domain-card"]').nth(3).waitFor();
  assert.equal(await shownLedger(page, (m) => m - before === micros('$0.2000')) - before, micros('$0.2000'), 'charged what the button said');
  assert.equal(await page.locator('[data-testid="domain-card"]').count(), 4);

  const expected = await sandbox('domainstats', { domains: DOMAINS });
  let dashes = 0;
  for (const rec of expected) {
    const card = page.locator(`[data-testid="domain-card"][data-domain="${rec.domain}"]`);
    for (const field of ['alphaDA', 'alphaPA', 'alphaTrust', 'alphaSpam', 'betaCF', 'betaTF', 'betaRefDomains', 'SN_shares']) {
      const shown = (await card.getByTestId(`stat-${field}`).textContent()).replace(' (not reported)', '');
      if (rec[field] === '') {
        assert.equal(shown, '—', `${rec.domain} ${field} is empty: shown as —, not 0`);
        dashes++;
      } else {
        assert.equal(num(shown), Number(rec[field]), `${rec.domain} ${field}`);
      }
    }
    const names = [0, 1, 2].map((i) => rec[`betaTTF${i}Name`]).filter((n) => n.trim());
    assert.equal(await card.getByTestId('ttf-item').count(), names.length, `${rec.domain} topical categories`);
    for (let i = 0; i < names.length; i++) {
      assert.equal(await card.getByTestId('ttf-item').nth(i).locator('.ttf-name').getAttribute('title'), names[i]);
      assert.equal(await card.getByTestId('ttf-item').nth(i).locator('.ttf-val').textContent(), rec[`betaTTF${i}Value`]);
    }
  }
  assert.ok(dashes > 0, 'these domains have some empty values (trust or spam)');
  await saved(page);
  await shot(page, 'domain-stats');

  // Stored: the button now opens it again for free.
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.locator('[data-testid="domain-card"]').nth(3).waitFor();
  assert.equal(await page.getByTestId('run').textContent(), 'Show saved result — no charge');
  assert.equal(await page.getByTestId('compare-these').count(), 1);
});

test('page backlink metrics for a list of URLs as a table; a bad URL is refused before any call', async () => {
  await open(page, app.url, '/domain/pages');
  const urls = ['https://example.com/', 'https://example.com/blog/post', 'http://shop.example.org/p/1'];
  await page.getByTestId('urls-input').fill([...urls, 'ftp://nope.example'].join('\n'));
  await page.getByTestId('input-error').waitFor();
  assert.ok(await page.getByTestId('run').isDisabled());
  await page.getByTestId('urls-input').fill(urls.join('\n'));
  assert.equal(await page.getByTestId('run').textContent(), 'Get metrics — $0.1500 for 3 URLs');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="pages-table"][data-rows="3"]').waitFor();
  const expected = await sandbox('backlink/metrics', { urls });
  const shown = await page.locator('[data-testid="pages-table"] tbody td[data-col="backlinks"]').allTextContents();
  assert.deepEqual(shown.map(num), expected.map((r) => r.backlinks));
  // Only http(s) URLs are links, opened safely.
  const links = page.locator('[data-testid="pages-table"] a[target="_blank"]');
  assert.equal(await links.count(), 3);
  assert.equal(await links.first().getAttribute('rel'), 'noopener noreferrer');
  await page.getByTestId('validation').waitFor();
  await shot(page, 'domain-pages');
});

test('backlink overview: summary, 64-day new vs lost chart, table filtered by type and by a day', async () => {
  const d = 'example.com';
  await open(page, app.url, `/domain?d=${d}&tab=backlinks`);
  const btn = page.getByTestId('backlinks');
  assert.equal(await btn.textContent(), 'Get backlink overview — $0.2500');
  await btn.click();
  await page.getByTestId('backlink-overview').waitFor();
  const exp = await sandbox('backlink/overview', { domain: d });
  assert.equal(num(await page.getByTestId('bm-backlinks').locator('strong').textContent()), exp.metrics.backlinks);
  assert.equal(num(await page.getByTestId('bm-refdomains').locator('strong').textContent()), exp.metrics.refdomains);
  assert.equal(await page.getByTestId('newlost-chart').getAttribute('data-days'), String(exp.stats.length));
  assert.equal(await page.locator('[data-testid="newlost-chart"] g.day').count(), exp.stats.length);
  const total = exp.ref_newlost.length;
  assert.equal(await page.getByTestId('nl-table').getAttribute('data-rows'), String(total));

  await page.getByTestId('nl-type').selectOption('lost');
  const lost = exp.ref_newlost.filter((r) => r.new_lost_type === 'lost');
  await page.locator(`[data-testid="nl-table"][data-rows="${lost.length}"]`).waitFor();
  const types = await page.locator('[data-testid="nl-table"] [data-testid="vrow"] .nltype').allTextContents();
  assert.ok(types.length > 0 && types.every((t) => t === 'lost'));

  // A day with events: click its bar; the table shows that day only.
  await page.getByTestId('nl-type').selectOption('');
  const day = exp.ref_newlost[0].new_lost_date;
  const onDay = exp.ref_newlost.filter((r) => r.new_lost_date === day).length;
  await page.locator(`[data-testid="newlost-chart"] g.day[data-date="${day}"]`).click();
  await page.locator(`[data-testid="nl-table"][data-rows="${onDay}"]`).waitFor();
  assert.equal(await page.getByTestId('nl-from').inputValue(), day);
  const dates = await page.locator('[data-testid="nl-table"] [data-testid="vrow"] [role="cell"]:nth-child(2)').allTextContents();
  assert.ok(dates.every((t) => t === day));
  await shot(page, 'domain-backlinks');
});

test('rank distribution: a bar per reported range and the missing 61–70 range shown as not reported', async () => {
  const d = 'example.com';
  await open(page, app.url, `/domain?d=${d}&tab=overview`);
  await page.getByTestId('rank-dist').click();
  const chart = page.locator(`[data-testid="rank-chart"][data-domain="${d}"]`);
  await chart.waitFor();
  const exp = (await sandbox('ranked-keywords/metrics', { domain: d }))[0];
  const buckets = await chart.locator('g.bucket').evaluateAll((gs) => gs.map((g) => [g.dataset.bucket, g.dataset.count]));
  assert.deepEqual(buckets.map((b) => b[0]), ['1', '2-3', '4-10', '11-20', '21-30', '31-40', '41-50', '51-60', '61-70', '71-80', '81-90', '91-100']);
  assert.equal(buckets[8][1], '', '61-70 has no count');
  assert.equal(buckets[0][1], String(exp.position_1));
  assert.equal(buckets[11][1], String(exp.position_91_100));
  assert.match(await chart.locator('g.gap title').textContent(), /not reported/);
  assert.match(await chart.getByTestId('rank-total').textContent(), /61–70/);
  // The other domains of the response are listed too.
  await page.getByTestId('rank-others').locator('summary').click();
  assert.ok(await page.locator('[data-testid="rank-others"] [data-testid="rank-chart"]').count() >= 1);
  await page.getByTestId('stats').click();
  await page.locator('[data-testid="section-stats"] [data-testid="domain-card"]').waitFor();
  await shot(page, 'domain-overview');
});

test('100,000 ranked keywords: virtualized, scrolls to the end, sorts, filters, exports the filtered rows', async () => {
  const d = 'size-100000.example.com';
  await open(page, app.url, `/domain?d=${d}&tab=keywords`);
  assert.equal(await page.getByTestId('keywords').textContent(), 'Get ranked keywords — $0.1000');
  await page.getByTestId('keywords').click();
  const table = page.locator('[data-testid="rk-table"][data-rows="100000"]');
  await table.waitFor({ timeout: 120000 });
  const rows = page.locator('[data-testid="rk-table"] [data-testid="vrow"]');
  const n0 = await rows.count();
  assert.ok(n0 > 5 && n0 < 200, `rendered rows: ${n0}`);
  assert.equal(await page.getByTestId('rk-count').textContent(), '100,000 of 100,000 keywords');
  await shot(page, 'domain-keywords-100k', false);

  // Scroll to the end: the last row is rendered, still few rows in the DOM.
  await page.getByTestId('rk-table-scroll').evaluate((e) => { e.scrollTop = e.scrollHeight; });
  await page.locator('[data-testid="rk-table"] [data-testid="vrow"][aria-rowindex="100001"]').waitFor();
  assert.ok(await rows.count() < 200);
  // Keyboard: Home goes back to the top.
  await page.getByTestId('rk-table-scroll').focus();
  await page.keyboard.press('Home');
  await page.locator('[data-testid="rk-table"] [data-testid="vrow"][aria-rowindex="2"]').waitFor();

  // Sort by volume, ascending then descending.
  const volumes = async () => (await rows.evaluateAll((rs) => rs.map((r) => r.children[1].textContent))).map(num);
  await page.getByTestId('vsort-volume').click(); // numbers: high to low first
  await page.getByTestId('vsort-volume').click();
  let v = await volumes();
  assert.deepEqual(v, [...v].sort((a, b) => a - b), 'ascending');
  assert.equal(await page.locator('[role="columnheader"][aria-sort="ascending"]').count(), 1);
  await page.getByTestId('vsort-volume').click();
  v = await volumes();
  assert.deepEqual(v, [...v].sort((a, b) => b - a), 'descending');
  const exp = await sandbox('ranked-keywords/domain', { domain: d });
  assert.equal(v[0], exp.reduce((m, r) => Math.max(m, r.search_volume), 0), 'the largest volume first');

  // Filter: text + ranges; every shown row matches; the count is exact.
  assert.equal(exp.length, 100000);
  const word = exp[12345].keyword.split(' ')[0].toLowerCase();
  await page.getByTestId('rk-filter').fill(word);
  await page.getByTestId('rk-vmin').fill('1000');
  await page.getByTestId('rk-rmax').fill('20');
  const want = exp.filter((r) => r.keyword.toLowerCase().includes(word) && r.search_volume >= 1000 && r.rank <= 20);
  assert.ok(want.length > 0 && want.length < 100000);
  await page.locator(`[data-testid="rk-table"][data-rows="${want.length}"]`).waitFor();
  assert.equal(await page.getByTestId('rk-count').textContent(), `${want.length.toLocaleString('en-US')} of 100,000 keywords`);
  const kws = await rows.evaluateAll((rs) => rs.map((r) => r.children[0].textContent.toLowerCase()));
  assert.ok(kws.every((k) => k.includes(word)));
  // The filters are in the URL (shareable), after the debounce.
  await page.waitForFunction(() => location.search.includes('vmin=1000'));
  assert.ok(page.url().includes(`q=${encodeURIComponent(word)}`));

  // CSV export of the filtered rows, in table order (volume descending).
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('rk-export').click()]);
  const csv = parseCsv(await readFile(await dl.path(), 'utf8'));
  assert.deepEqual(csv[0], ['Keyword', 'Search volume', 'Rank', 'Competition', 'Backlinks', 'Referring domains', 'URL', 'Est. traffic']);
  const body = csv.slice(1);
  assert.equal(body.length, want.length, 'one CSV row per filtered row');
  // Estimated traffic: volume × the click-through rate of the rank (the curve in Settings).
  for (const r of body.slice(0, 200)) assert.ok(Math.abs(Number(r[7]) - Number(r[1]) * ctr(Number(r[2]))) <= 0.05 + 1e-9, `${r[0]}: traffic ${r[7]}`);
  const key = (r) => `${r[0]}|${r[1]}|${r[2]}|${r[6]}`;
  const wantKeys = want.map((r) => `${r.keyword}|${r.search_volume}|${r.rank}|${r.url}`).sort();
  assert.deepEqual(body.map(key).sort(), wantKeys, 'exactly the filtered rows');
  const vols = body.map((r) => Number(r[1]));
  assert.deepEqual(vols, [...vols].sort((a, b) => b - a), 'in table order');
  await shot(page, 'domain-keywords-filtered', false);

  // A row click opens its keyword in the keyword explorer (nothing bought).
  const first = await rows.first().evaluate((r) => r.children[0].textContent);
  const spent = await page.getByTestId('spend').textContent();
  await rows.first().locator('[role="cell"]').nth(1).click();
  await page.waitForURL(/\/keywords\?/);
  assert.equal(await page.getByTestId('kw-input').inputValue(), first);
  assert.equal(await page.getByTestId('spend').textContent(), spent);
  assert.deepEqual(page.errors, []);
});

test('compare up to 4 domains: stats, rank distribution and shared keywords for every domain', async () => {
  const ds = ['example.com', 'shop.example.org', 'news.example.net'];
  await open(page, app.url, `/domain/compare?d=${ds.join(',')}`);
  await page.getByTestId('compare-domain').nth(2).waitFor();
  assert.equal(await page.getByTestId('compare-domain').count(), 3);
  // The stats of these three domains were bought by the first test (one record per domain:
  // not bought again); rank data for example.com is stored.
  const all = page.getByTestId('run-all');
  const price = await all.getAttribute('data-price');
  assert.equal(price, '$0.5000', 'stats already bought, rank distribution 2 × $0.10 (one stored), keywords 3 × $0.10');
  const before = await demoLedger();
  await all.click();
  await page.locator('[data-testid="cmp-stats"]').waitFor();
  await page.locator('[data-testid="cmp-rank-charts"] [data-testid="rank-chart"]').nth(2).waitFor();
  await page.locator('[data-testid="ov-table"]').waitFor({ timeout: 60000 });
  assert.equal(await shownLedger(page, (m) => m - before === micros(price)) - before, micros(price));
  const heads = await page.locator('[data-testid="cmp-stats"] thead th').allTextContents();
  assert.deepEqual(heads.slice(1), ['A example.com', 'B shop.example.org', 'C news.example.net']);
  assert.equal(await page.locator('[data-testid="cmp-rank-charts"] [data-testid="rank-chart"]').count(), 3);
  assert.equal(await page.locator('[data-testid="cmp-pairs"] tbody tr').count(), 3);
  // Shared keywords: each row is ranked by at least two of the domains.
  const counts = await page.locator('[data-testid="ov-table"] [data-testid="vrow"] [role="cell"]:nth-child(3)').allTextContents();
  assert.ok(counts.length > 0 && counts.every((c) => /^[23] of 3$/.test(c)));
  assert.equal(await all.textContent(), 'Everything is loaded');
  await shot(page, 'domain-compare');

  // More than four: only the first four are compared.
  await page.getByTestId('compare-input').fill('a.com, b.com, c.com, d.com, e.com');
  await page.getByTestId('too-many').waitFor();
  await page.getByTestId('compare-open').click();
  await page.waitForURL(/compare\?d=/);
  await page.getByTestId('compare-domain').nth(3).waitFor();
  assert.equal(await page.getByTestId('compare-domain').count(), 4);
});

test('dark theme and an empty domain page', async () => {
  await open(page, app.url, '/domain');
  await page.getByTestId('empty').waitFor();
  await page.getByTestId('theme').selectOption('dark');
  await open(page, app.url, '/domain?d=example.com&tab=backlinks');
  await page.getByTestId('backlink-overview').waitFor();
  await shot(page, 'domain-backlinks-dark', false);
  await page.getByTestId('theme').selectOption('auto');
  assert.deepEqual(page.errors, []);
});
