// Content gap in demo mode: your domain against two competitors from
// their ranked keywords (the lists as Semrush's Keyword Gap names them, plus striking distance). The price is shown and charged once per domain; reopening buys
// nothing. Every list is recomputed here from the sandbox server's records (the same
// generator as the in-browser demo) by the rules the page states, so nothing depends on facts
// of the synthetic data. Brand terms, filters, CSV export and adding to a list are checked
// too, and axe-core finds no violation.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, shot, micros, parseCsv, gapLoaded, shownLedger } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';
import { LISTS, expectedGap, rankedKeywords, tabCount as gapTabCount } from './research_gap_rules.mjs';

const YOU = 'example.com';
const RIVALS = ['example.org', 'example.net'];

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const tabCount = (id) => gapTabCount(page, id);
const demoLedger = async () => micros(await page.getByTestId('ledger').textContent());
const firstCells = (n) => page.locator('[data-testid="gap-table"] [data-testid="vrow"]').evaluateAll(
  (rows, n) => rows.slice(0, n).map((r) => [...r.querySelectorAll('[role="cell"]')].map((c) => c.textContent)),
  n,
);

test('content gap: price first, each list follows its rule, brand terms, CSV, a list, no re-buy', async () => {
  await open(page, app.url, '/domain/gap');
  await page.getByTestId('empty').waitFor();
  await page.getByTestId('gap-you').fill(YOU);
  await page.getByTestId('gap-rivals').fill(RIVALS.join(', '));
  await page.getByTestId('gap-open').click();
  await page.waitForURL(/gap\?d=/);
  const all = page.getByTestId('run-all');
  const price = await all.getAttribute('data-price');
  assert.equal(price, '$0.3000', 'three domains × $0.10, nothing bought yet');
  const before = await demoLedger();
  await all.click();
  await gapLoaded(page);
  await page.getByTestId('gap-table').waitFor();
  assert.equal(await shownLedger(page, (m) => m - before === micros(price)) - before, micros(price), 'charged what the button said');
  assert.match(await page.getByTestId('gap-timing').textContent(), /^computed in \d+ ms$/);

  const records = await Promise.all([YOU, ...RIVALS].map(rankedKeywords));
  const brand = await page.getByTestId('gap-brand').inputValue();
  assert.equal(brand, 'example', 'prefilled with the registrable domains\' names');
  let want = expectedGap(records, brand);
  for (const id of LISTS) {
    assert.equal(await tabCount(id), want[id].length, `${id} count`);
  }
  assert.ok(want.untapped.length > 0, 'the competitors rank for keywords you do not');

  // Untapped (the default list): the first rows, by volume, have no rank of yours and the
  // best competitor's rank; competition on the 0–1 scale.
  let cells = await firstCells(5);
  assert.ok(cells.length > 0);
  cells.forEach((c, i) => {
    assert.equal(c[0], want.untapped[i].keyword);
    assert.equal(Number(c[1].replace(/,/g, '')), want.untapped[i].volume);
    assert.equal(c[2], want.untapped[i].competition.toFixed(2));
    assert.equal(c[3], '–', 'you do not rank');
    assert.equal(Number(c[5]), want.untapped[i].best);
  });
  await shot(page, 'gap');
  await expectNoAxeViolations(page, 'gap');

  // Weak and striking distance: the rows keep their rule.
  await page.getByTestId('gap-tab-weak').click();
  await page.waitForURL(/list=weak/);
  if (want.weak.length) {
    cells = await firstCells(10);
    for (const c of cells) assert.ok(Number(c[5]) < Number(c[3]), `${c[0]}: a competitor ranks better`);
  }
  await page.getByTestId('gap-tab-striking').click();
  await page.waitForURL(/list=striking/);
  if (want.striking.length) {
    cells = await firstCells(10);
    for (const c of cells) assert.ok(Number(c[3]) >= 11 && Number(c[3]) <= 20, `${c[0]}: you rank 11–20`);
  }

  // A brand term taken from the top untapped keyword leaves it out of every list.
  await page.getByTestId('gap-tab-untapped').click();
  await page.waitForURL(/list=untapped/);
  const word = want.untapped[0].lower.split(' ').find((w) => w.length >= 3);
  await page.getByTestId('gap-brand').fill(`example, ${word}`);
  await page.getByTestId('gap-brand').press('Enter');
  want = expectedGap(records, `example, ${word}`);
  await page.waitForFunction(
    ([n]) => document.querySelector('[data-testid="gap-tab-untapped"]')?.textContent.replace(/[^0-9]/g, '') === String(n),
    [want.untapped.length],
  );
  for (const id of LISTS) {
    assert.equal(await tabCount(id), want[id].length, `${id} count after the brand term`);
  }

  // Filter, then CSV of exactly the shown rows, then add them to a list.
  const vmin = want.untapped[Math.min(5, want.untapped.length - 1)].volume;
  await page.getByTestId('gap-vmin').fill(String(vmin));
  const shown = want.untapped.filter((r) => r.volume >= vmin);
  await page.waitForFunction(
    ([n]) => document.querySelector('[data-testid="gap-count"]')?.textContent === `${n.toLocaleString('en-US')} keywords`,
    [shown.length],
  );
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gap-csv').click()]);
  assert.match(dl.suggestedFilename(), /^demo-content-gap-example\.com-untapped\.csv$/);
  const csv = parseCsv(await readFile(await dl.path(), 'utf8'));
  assert.deepEqual(csv[0], ['Keyword', 'Volume', 'Competition', 'Your rank', 'Best competitor', 'Best competitor rank', 'Best competitor URL', 'Traffic gain at #3', 'Traffic potential', 'Your URL']);
  assert.deepEqual(csv.slice(1).map((r) => r[0]), shown.map((r) => r.keyword));
  assert.ok(csv.slice(1).every((r) => r[3] === '' && RIVALS.includes(r[4]) && /^https?:\/\//.test(r[6])));

  await page.getByTestId('list-name').fill('Gap');
  await page.getByTestId('add-to-list').click();
  assert.match(await page.getByTestId('list-status').textContent(), new RegExp(`Added ${shown.length} keywords? to “Gap”`));

  // Reopening the gap (a new page load: the demo's ledger counts from zero) buys nothing:
  // every domain's keywords are stored.
  await open(page, app.url, `/domain/gap?d=${[YOU, ...RIVALS].join(',')}&list=shared`);
  const spent = await demoLedger();
  await gapLoaded(page);
  assert.equal(await tabCount('shared'), expectedGap(records, 'example').shared.length, 'the stored lists again');
  assert.equal(await page.getByTestId('run-all').textContent(), 'Everything is loaded');
  assert.equal(await demoLedger(), spent);
  assert.deepEqual(page.errors, []);
});
