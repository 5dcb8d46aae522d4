// Issue 43 item 9: the client report. On the compare page, "Client report (HTML)" makes ONE
// self-contained HTML file for the first domain (the client) against the others: overview
// side by side, the client's top pages and search intent, the content gap and the shared
// keywords, from results already bought (a part not bought says so with its price; nothing
// is bought to make it). Demo data says so; scraped text (the sandbox's xss fault, live) is
// text and only http(s) URLs are links; printed, the contents are hidden and each part
// starts a page; axe finds nothing at 390 and 1366 px. Also item 8's remainder (the
// explorer's Intent column fits at 1366 px) and item 4 (the list's coverage line).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { e2e, research, shot, ledger, spaGo, OUT, SANDBOX_KEY } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';

const app = e2e();
const ROUTE = '/domain/compare?d=example.com,example.org';
const PARTS = ['Overview', 'Top pages of example.com', 'Cannibalised keywords of example.com', 'Search intent of example.com',
  'Backlinks of example.com', 'Content gap', 'Shared ranked keywords'];

async function exportClient(page, file) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('client-report').click()]);
  const html = await readFile(await dl.path(), 'utf8');
  const dir = join(OUT, 'reports');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), html);
  return { name: dl.suggestedFilename(), html, path: join(dir, file) };
}

async function everything(page) {
  const all = page.getByTestId('run-all');
  if (!(await all.isDisabled())) await all.click();
  await page.locator('[data-testid="cmp-stats"]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="cmp-rank-table"]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="ov-table"] [data-testid="vrow"]').first().waitFor({ timeout: 60_000 });
}

test('the client report: every part from results already bought, demo said, printable, axe clean', { timeout: 180_000 }, async () => {
  const page = await app.open(ROUTE);
  // Nothing bought yet: the report says which parts are missing and their price; nothing is bought.
  const before = (await ledger()).entries.length;
  let f = await exportClient(page, 'client-empty.html');
  assert.equal(f.name, 'client-report-example.com.html', 'no demo row yet: nothing is demo');
  assert.match(f.html, /Not in this report: The domain stats are not bought yet \(\$0\.\d{4}\)/);
  assert.match(f.html, /Not in this report: The ranked keywords of example\.com are not bought yet \(\$\d+\.\d{4}\)/);
  assert.equal((await ledger()).entries.length, before, 'making the report bought nothing');

  await everything(page);
  // Every part of this page bought; the backlink overview is the domain page's: its price and where.
  f = await exportClient(page, 'client-no-backlinks.html');
  assert.equal((f.html.match(/Not in this report/g) || []).length, 1, 'only the backlinks part is missing');
  assert.match(f.html, /Not in this report: The backlink overview of example\.com is not bought yet \(\$0\.2500\)\. Buy it on the domain page/);
  await spaGo(page, '/domain?d=example.com&tab=backlinks');
  await page.getByTestId('backlinks').click();
  await page.getByTestId('backlink-overview').waitFor();
  await spaGo(page, ROUTE);
  await everything(page);
  f = await exportClient(page, 'client-demo.html');
  assert.equal(f.name, 'demo-client-report-example.com.html');
  assert.match(f.html, /<title>Demo data: Client report: example\.com against example\.org<\/title>/);
  assert.doesNotMatch(f.html, /<script|\son[a-z]+\s*=/i);

  const context = await app.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
  const view = await context.newPage();
  const requests = [];
  view.on('request', (r) => requests.push(r.url()));
  const self = pathToFileURL(f.path).href;
  await view.goto(self);
  assert.deepEqual(requests, [self], 'the file fetches nothing');
  assert.deepEqual(await view.locator('section.part > h2').allTextContents(), PARTS);
  assert.deepEqual(await view.locator('nav.contents a').allTextContents(), PARTS);
  assert.ok(await view.locator('[data-demo="true"]').isVisible(), 'the demo note shows');
  const text = await view.locator('body').textContent();
  assert.doesNotMatch(text, /Not in this report/, 'every part is bought');
  for (const h of ['Stats', 'Rank distribution', 'Pages', 'Cannibalised keywords', 'Keywords per intent', 'Backlink overview', 'Summary', 'Missing']) {
    assert.ok((await view.locator('h3').allTextContents()).some((t) => t.startsWith(h)), `sub-section ${h}`);
  }
  assert.ok((await view.locator('section.part').nth(1).locator('tbody tr').count()) > 0, 'top pages listed');
  const hrefs = await view.locator('section a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.every((h) => /^https?:\/\//.test(h)), 'data links only to http(s) URLs');
  await view.screenshot({ path: join(OUT, 'screenshots', 'client-report-screen.png') });
  // Printed: no contents, each part on its own page, the demo note kept.
  await view.emulateMedia({ media: 'print' });
  assert.equal(await view.locator('nav.contents').evaluate((n) => getComputedStyle(n).display), 'none');
  assert.equal(await view.locator('section.part').nth(1).evaluate((s) => getComputedStyle(s).breakBefore), 'page');
  assert.ok(await view.locator('[data-demo="true"]').isVisible(), 'printed with its demo note');
  const pdf = await view.pdf();
  assert.ok(pdf.length > 1000, 'prints');
  await context.close();

  // axe on the report (JavaScript on only for axe: it runs through DevTools, the file's CSP stays).
  for (const width of [390, 1366]) {
    const c = await app.browser.newContext({ viewport: { width, height: 900 } });
    const p = await c.newPage();
    await p.goto(self);
    await expectNoAxeViolations(p, `client-report-${width}`);
    await c.close();
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the client report of live data with hostile scraped text: text, no links but http(s), not demo', { timeout: 180_000 }, async () => {
  const page = await app.open('/keywords', { live: `${SANDBOX_KEY}+xss` });
  await page.evaluate((r) => { history.pushState(null, '', r); dispatchEvent(new PopStateEvent('popstate')); }, ROUTE);
  await everything(page);
  const f = await exportClient(page, 'client-xss.html');
  assert.equal(f.name, 'client-report-example.com.html', 'live rows: not named demo');
  assert.doesNotMatch(f.html, /data-demo|Demo data/);
  assert.doesNotMatch(f.html, /<script/i, 'no script element');
  assert.doesNotMatch(f.html, /<(img|svg onload|iframe|a href="javascript)/i);
  assert.doesNotMatch(f.html, /\son[a-z]+\s*=\s*["']?window/i, 'no event handler attribute');
  assert.match(f.html, /&lt;script&gt;window\.__xss=1&lt;\/script&gt;/, 'the payload is there, as text');
  const context = await app.browser.newContext({ viewport: { width: 1366, height: 900 } });
  const view = await context.newPage();
  await view.goto(pathToFileURL(f.path).href);
  assert.equal(await view.evaluate(() => window.__xss), undefined, 'nothing ran');
  const hrefs = await view.locator('section a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.every((h) => /^https?:\/\//.test(h)), `only http(s) links: ${hrefs.filter((h) => !/^https?:/.test(h)).join(' ')}`);
  assert.ok((await view.locator('body').textContent()).includes('<script>window.__xss=1</script>'), 'shown as text');
  await context.close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('at 1366 px the explorer\'s Intent column fits (no cut, no overflow)', { timeout: 90_000 }, async () => {
  const page = await app.open('/keywords', { context: { viewport: { width: 1366, height: 900 } } });
  await research(page, ['buy running shoes near me', 'how to choose trail running shoes for beginners', 'nike login', 'running shoes']);
  await page.locator('[data-testid="kw-table"][data-rows="4"]').waitFor();
  const cells = await page.locator('[data-testid="kw-table"] td[data-col="intent"], [data-testid="kw-table"] th[data-col="intent"]').evaluateAll((els) =>
    els.map((e) => ({ text: e.textContent, scroll: e.scrollWidth, client: e.clientWidth })));
  assert.ok(cells.length >= 4);
  for (const c of cells) assert.ok(c.scroll <= c.client, `the intent cell "${c.text}" fits: ${c.scroll} > ${c.client}`);
  // The column is in view without scrolling sideways: the table fits its scrolling region,
  // and every intent cell ends inside it.
  const fit = await page.getByTestId('kw-table').evaluate((t) => {
    const region = t.closest('.scroll') || t.parentElement;
    const right = region.getBoundingClientRect().right;
    const cells = [...t.querySelectorAll('[data-col="intent"]')].map((c) => c.getBoundingClientRect().right);
    return { scroll: region.scrollWidth, client: region.clientWidth, right, cells };
  });
  await shot(page, 'explorer-intent-1366', false);
  assert.ok(fit.scroll <= fit.client, `the table fits its region at 1366 px (${fit.scroll} > ${fit.client})`);
  for (const r of fit.cells) assert.ok(r <= fit.right + 0.5, `an intent cell ends at ${r}, past the region's ${fit.right}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
