// Reports to hand over: the explorer's keyword research and the content
// gap, each exported as one HTML file, are opened in Chromium with JavaScript disabled. The
// file holds no script and fetches nothing (every request is recorded), its text matches what
// the page showed, its charts are inline SVG, and it prints (PDF) without error. Made in demo
// mode, a report says it holds demo data (title, a note under it, the file name).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { e2e, open, research, OUT, gapLoaded } from './helpers.mjs';

const KEYWORDS = ['running shoes', 'trail running shoes', 'marathon training plan', 'running watch', 'best running socks'];

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

/** Clicks the export button; returns the file's text and its path under test-output/reports. */
async function exportReport(testid, name) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  assert.match(dl.suggestedFilename(), /^demo-.*\.html$/, 'demo mode: the file name says so');
  const html = await readFile(await dl.path(), 'utf8');
  const dir = join(OUT, 'reports');
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  await writeFile(file, html);
  return { html, file };
}

/** Opens the file with JavaScript disabled; returns the page and every URL it requested. */
async function openOffline(file) {
  const context = await app.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
  const view = await context.newPage();
  const requests = [];
  view.on('request', (r) => requests.push(r.url()));
  await view.goto(pathToFileURL(file).href);
  return { view, context, requests, self: pathToFileURL(file).href };
}

function selfContained(html) {
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  assert.doesNotMatch(html, /<script/i, 'no script element');
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no event handler attribute');
  assert.doesNotMatch(html, /<(link|img|iframe|object|embed)\b/i, 'no external resource element');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.match(html, /<style>/);
  assert.match(html, /@media print/);
  // Demo data says so in the title and in a note under it, before any section.
  assert.match(html, /<title>Demo data: /);
  assert.ok(html.indexOf('data-demo="true"') > 0 && html.indexOf('data-demo="true"') < html.indexOf('<section>'));
}

test('the explorer report: keywords, trends, season and score, no script, nothing fetched', async () => {
  await open(page, app.url, '/keywords');
  await research(page, KEYWORDS);
  await page.locator(`[data-testid="kw-table"][data-rows="${KEYWORDS.length}"]`).waitFor();
  const shown = await page.locator('[data-testid="kw-table"] tbody tr[data-testid="row"]').evaluateAll((rows) =>
    rows.map((r) => ({
      keyword: r.dataset.id,
      volume: r.querySelector('[data-col="volume"]').textContent,
      season: r.querySelector('[data-col="season"]').textContent,
      score: r.querySelector('[data-col="score"]').textContent,
    })),
  );
  const { html, file } = await exportReport('export-report', 'keywords.html');
  selfContained(html);

  const { view, context, requests, self } = await openOffline(file);
  assert.deepEqual(requests, [self], 'the file fetches nothing');
  assert.match(await view.locator('h1').textContent(), /^Keyword research: 5 keywords \(US\)$/);
  assert.equal(await view.locator('script').count(), 0);
  const rows = await view.locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  const keywordRows = rows.filter((r) => r.length === 11);
  assert.equal(keywordRows.length, KEYWORDS.length);
  for (const s of shown) {
    const row = keywordRows.find((r) => r[0] === s.keyword);
    assert.ok(row, `${s.keyword} is in the report`);
    assert.equal(row[1], s.volume);
    assert.equal(row[8], s.season);
    assert.equal(row[9], s.score);
  }
  // Charts are inline SVG: the top-keywords bars and one sparkline per keyword.
  assert.equal(await view.locator('section').nth(0).locator('svg[role="img"] rect').count(), KEYWORDS.length);
  assert.equal(await view.locator('td svg polyline').count(), KEYWORDS.length);
  assert.match(await view.locator('[data-demo="true"]').textContent(), /^Demo data: every number in this report is synthetic/);
  assert.match(await view.locator('body').textContent(), /Seasonal: more than half of the 12-month volume/);
  // The keyword groups follow the keywords, with their rule; then the clusters by shared
  // results, of no outline here (none bought): the section says what the outlines cost.
  const headings = await view.locator('h2').allTextContents();
  assert.match(headings.at(-2), /^Keyword groups \(\d+\)$/);
  assert.equal(headings.at(-1), 'Clusters by shared search results (0)');
  assert.match(await view.locator('body').textContent(), /Topics: phrases of 1 to 3 words/);
  assert.match(await view.locator('body').textContent(), /5 keywords have no outline bought yet and are in no cluster: their outlines cost \$2\.5000/);
  await view.screenshot({ path: join(OUT, 'screenshots', 'report-keywords.png'), fullPage: true });
  const pdf = await view.pdf();
  assert.ok(pdf.length > 1000, 'prints');
  await context.close();
  assert.deepEqual(page.errors, []);
});

test('the content gap report: every list with its rows and links only to http(s) URLs', async () => {
  await open(page, app.url, '/domain/gap?d=example.com,example.org');
  await page.getByTestId('run-all').click();
  await gapLoaded(page);
  const tab = async (id) => Number((await page.getByTestId(`gap-tab-${id}`).textContent()).replace(/[^0-9]/g, ''));
  const names = { shared: 'Shared', missing: 'Missing', weak: 'Weak', strong: 'Strong', untapped: 'Untapped', unique: 'Unique', striking: 'Striking distance' };
  const { html, file } = await exportReport('gap-report', 'content-gap.html');
  selfContained(html);
  // The report holds what the page shows when it is asked for: the tabs are read after it.
  // (Read before, right as the last domain loads, a tab could still show the render before.)
  const counts = {};
  for (const id of Object.keys(names)) counts[id] = await tab(id);

  const { view, context, requests, self } = await openOffline(file);
  assert.deepEqual(requests, [self], 'the file fetches nothing');
  assert.equal(await view.locator('h1').textContent(), 'Content gap: example.com against example.org');
  const headings = await view.locator('h2').allTextContents();
  const fmt = (n) => n.toLocaleString('en-US');
  // The lists as Semrush's Keyword Gap names them, then striking distance, then every list's
  // keywords by competitor page.
  const byPage = headings.at(-1).match(/^By competitor page \(([\d,]+)\)$/);
  assert.ok(byPage, `the last section is by competitor page: ${headings.at(-1)}`);
  const pageCount = Number(byPage[1].replace(/,/g, ''));
  assert.deepEqual(headings, [
    'Summary',
    'Share of voice',
    ...Object.entries(names).map(([id, name]) => `${name} (${fmt(counts[id])})`),
    `By competitor page (${fmt(pageCount)})`,
  ]);
  const text = await view.locator('body').textContent();
  assert.match(text, /Missing: every competitor ranks, you do not\./);
  assert.match(text, /Share of voice: each domain's estimated traffic over the keywords/);
  assert.match(text, /SISTRIX's 2020 CTR study/);
  assert.match(text, /By competitor page: every keyword of the gap \(all lists, no filter\) grouped by the URL of their best competitor/);
  const tables = view.locator('table');
  assert.equal(await tables.count(), 8);
  for (const [i, n] of Object.values(counts).entries()) {
    assert.equal(await tables.nth(i).locator('tbody tr').count(), Math.min(n, 500));
  }
  // The competitor pages: the competitor's URLs, each with its keywords, by estimated traffic. Every
  // keyword a competitor ranks for is counted once, so the pages' keywords add up to the
  // keywords of the lists a competitor ranks in (Untapped, and Shared, Weak, Strong or
  // Striking distance rows that have a competitor: at least Untapped's count).
  const pages = await tables.nth(7).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(pages.length, Math.min(pageCount, 500));
  assert.ok(pageCount > 0, 'the rival ranks somewhere');
  assert.ok(pages.every((p) => /^https?:\/\/([^/]*\.)?example\.org\b/.test(p[0])), 'pages of the competitor');
  const num = (t) => Number(t.replace(/,/g, ''));
  // Ordered by estimated traffic (its column, rounded: "<1" is under one visit).
  const traffic = (t) => (t === '<1' ? 0.5 : num(t));
  for (let i = 1; i < pages.length; i++) assert.ok(traffic(pages[i - 1][3]) >= traffic(pages[i][3]), 'by estimated traffic');
  const keywordsOnPages = pages.reduce((sum, p) => sum + num(p[1]), 0);
  if (pageCount <= 500) assert.ok(keywordsOnPages >= counts.untapped, `${keywordsOnPages} keywords on pages, ${counts.untapped} untapped`);
  const hrefs = await view.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length > 0 && hrefs.every((h) => /^https?:\/\//.test(h)), 'links only to http(s) URLs');
  await view.screenshot({ path: join(OUT, 'screenshots', 'report-gap.png') });
  await context.close();
  assert.deepEqual(page.errors, []);
});

test('the domain comparison report: stats, rank distribution and shared keywords as shown', async () => {
  await open(page, app.url, '/domain/compare?d=example.com,example.org');
  const all = page.getByTestId('run-all');
  if (!(await all.isDisabled())) await all.click();
  await page.locator('[data-testid="cmp-stats"]').waitFor();
  await page.locator('[data-testid="cmp-rank-table"]').waitFor();
  await page.locator('[data-testid="ov-table"] [data-testid="vrow"]').first().waitFor({ timeout: 60000 });
  const statRows = await page.locator('[data-testid="cmp-stats"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((c) => c.textContent.replace(' (lower is better)', '').replace(' (best)', ''))));
  const shared = Number((await page.getByTestId('ov-count').textContent()).replace(/[^0-9]/g, ''));
  const { html, file } = await exportReport('compare-report', 'domain-comparison.html');
  selfContained(html);

  const { view, context, requests, self } = await openOffline(file);
  assert.deepEqual(requests, [self], 'the file fetches nothing');
  assert.equal(await view.locator('h1').textContent(), 'Domain comparison: example.com, example.org');
  const tables = view.locator('table');
  assert.equal(await tables.count(), 3);
  const reportStats = await tables.nth(0).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  // Every metric row of the page (the page adds a "Top topic" row the report leaves out).
  assert.deepEqual(reportStats, statRows.slice(0, reportStats.length));
  assert.equal(reportStats.length, statRows.length - 1);
  assert.equal(await view.locator('h2').nth(2).textContent(), `Shared ranked keywords (${shared.toLocaleString('en-US')})`);
  assert.equal(await tables.nth(2).locator('tbody tr').count(), Math.min(shared, 500));
  await context.close();
  assert.deepEqual(page.errors, []);
});
