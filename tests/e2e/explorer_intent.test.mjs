// Search intent in the keyword explorer, in demo mode: an Intent column after the metrics
// (the letters of every matching intent, the names in the tooltip and for screen readers), an
// intent filter, intent in the CSV and the HTML report, the rule stated. Expected intents are
// computed here from the rule as the page states it (not from the app's code), for keywords
// chosen to meet every clause: each intent's words, several intents at once, a question word
// leading or not, whole words only, a site name, unclassified keywords (no rule matches: no
// default intent), the misread phrases, a brand name that no domain makes a brand
// term here, and head terms that no word rule matches, commercial when advertisers bid on them
// (issue 54: "running shoes" was unclassified); their CPC and Ads competition are read from the
// page's own CSV.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, parseCsv, research, rowIds, shot } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';
import { isQuestion } from './research_gap_rules.mjs';

const KWS = [
  'how to tie running shoes', 'buy running shoes', 'best running shoes', 'best running shoes price',
  'how to buy running shoes', 'strava login', 'sign in strava', 'runnersworld.com',
  'running shoes near me', 'laptop stand', 'running shoes', 'this is fine',
  'marathon training guide', 'garmin vs polar', 'nike', 'cheap running socks',
  'order of operations', 'savings account', 'retirement account calculator', 'my account strava',
];

// The rule as stated on the page, word lists copied from its text.
const NAV = ['login', 'website', 'official', 'homepage', 'www'];
const NAV_PAIRS = ['sign in', 'my account'];
const TRANS = ['buy', 'purchase', 'order', 'price', 'pricing', 'cost', 'cheap', 'deal', 'coupon', 'discount', 'promo', 'sale', 'shop', 'rent', 'hire', 'download', 'subscription'];
const TRANS_PAIRS = ['near me'];
const COMM = ['best', 'top', 'review', 'vs', 'versus', 'compare', 'comparison', 'alternative', 'rating', 'ranked'];
const LEADS = ['how', 'what', 'why', 'when', 'where', 'who', 'which', 'can', 'does', 'is', 'should'];
const INFO = ['guide', 'tutorial', 'ideas', 'tips', 'examples', 'meaning', 'definition', 'learn'];
const NAMES = ['Informational', 'Navigational', 'Commercial', 'Transactional'];

/** Each keyword's Ads figures as the page's CSV gives them: { cpc, competition }. */
const BIDS = new Map();

/** The intents of `keyword` in Semrush's order (I, N, C, T), no brand terms; none:
 * unclassified. */
function intents(keyword) {
  const byWords = intentsByWords(keyword);
  // No word rule: commercial when advertisers compete for it (competition ≥ 0.33, CPC ≥ $0.50).
  const bids = BIDS.get(keyword);
  if (byWords.length === 0 && bids && bids.cpc >= 0.5 && bids.competition >= 0.33) return ['Commercial'];
  return byWords;
}

function intentsByWords(keyword) {
  const words = keyword.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const text = ` ${words.join(' ')} `;
  const has = (list) => words.some((w) => list.includes(w));
  const pair = (list) => list.some((p) => text.includes(` ${p} `));
  const site = keyword.toLowerCase().split(/\s+/).some((w) => /^[^.]+\.[a-z]{2,}$/.test(w));
  const nav = has(NAV) || pair(NAV_PAIRS) || site;
  // "order" buys, "order of" does not.
  const trans = words.some((w, i) => TRANS.includes(w) && !(w === 'order' && words[i + 1] === 'of')) || pair(TRANS_PAIRS);
  const comm = has(COMM);
  const info = LEADS.includes(words[0]) || has(INFO);
  return NAMES.filter((_, i) => [info, nav, comm, trans][i]);
}
const letters = (k) => intents(k).map((n) => n[0]).join(' ') || '–';
const names = (k) => intents(k).join(', ') || 'unclassified';

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

async function download(testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return readFile(await dl.path(), 'utf8');
}

const untilRows = (n) => page.locator(`[data-testid="kw-table"][data-rows="${n}"]`).waitFor();

test('an Intent column with the letters of every matching intent, by the stated rule', async () => {
  // The oracle itself, on the rule's own examples.
  assert.deepEqual(intents('best running shoes price'), ['Commercial', 'Transactional']);
  assert.deepEqual(intents('laptop stand'), [], '"top" inside "laptop" is no word');
  assert.deepEqual(intents('this is fine'), [], 'unclassified: "is" does not lead');
  assert.deepEqual(intents('order of operations'), [], 'no purchase');
  assert.deepEqual(intents('savings account'), [], 'no site');

  await open(page, app.url, '/keywords');
  await research(page, KWS);
  await untilRows(KWS.length);
  const figures = parseCsv(await download('export-csv'));
  const [cpc, comp] = ['CPC', 'Ads competition'].map((h) => figures[0].indexOf(h));
  assert.ok(cpc > 0 && comp > 0, figures[0].join(' | '));
  for (const r of figures.slice(1)) BIDS.set(r[0], { cpc: Number(r[cpc]), competition: Number(r[comp]) });
  assert.equal(BIDS.size, KWS.length);
  const header = await page.locator('[data-testid="kw-table"] thead th').evaluateAll((ths) =>
    ths.map((th) => th.querySelector('button.sort')?.dataset.testid ?? ''));
  assert.equal(header.at(-1), 'sort-intent', `the last column: ${header.join(' | ')}`);
  const cells = await page.locator('[data-testid="kw-table"] tbody tr[data-testid="row"]').evaluateAll((rows) =>
    rows.map((r) => {
      const td = r.querySelector('td[data-col="intent"]');
      return [r.dataset.id, td.querySelector('[aria-hidden="true"]').textContent, td.getAttribute('title'), td.querySelector('.sr-only').textContent];
    }),
  );
  assert.equal(cells.length, KWS.length);
  for (const [kw, shown, title, spoken] of cells) {
    assert.equal(shown, letters(kw), `${kw}: letters`);
    assert.equal(title, names(kw), `${kw}: tooltip`);
    assert.equal(spoken, title, `${kw}: the names for screen readers`);
  }
  // Every intent occurs and one keyword has several.
  for (const n of NAMES) assert.ok(KWS.some((k) => intents(k).includes(n)), n);
  assert.deepEqual(intentsByWords('running shoes'), [], 'no word rule matches a head term');
  assert.equal(letters('running shoes'), 'C', 'a head term advertisers bid on');
  assert.ok(KWS.some((k) => intents(k).length === 0), 'a keyword without bids stays unclassified');
  await page.getByTestId('trend-rules').locator('summary').click();
  const rule = await page.getByTestId('intent-rule').textContent();
  assert.match(rule, /transactional with buy, purchase, order \(not "order of"\), price/);
  assert.match(rule, /commercial when advertisers compete for it: Ads competition 0\.33 or more and a CPC of 0\.50 USD or more/);
  assert.match(rule, /Otherwise it is unclassified/);
  assert.match(rule, /A keyword gets every intent whose rule matches/);
  assert.match(rule, /no domain is known, so there are no brand terms/);
  await shot(page, 'explorer-intent');
});

test('the intent filter keeps the keywords with that intent', async () => {
  for (const [id, name] of [['trans', 'Transactional'], ['nav', 'Navigational'], ['comm', 'Commercial'], ['info', 'Informational']]) {
    const want = KWS.filter((k) => intents(k).includes(name)).sort();
    await page.getByTestId('f-intent').selectOption(id);
    await untilRows(want.length);
    assert.deepEqual((await rowIds(page)).sort(), want, name);
  }
  // With another filter: both apply.
  await page.getByTestId('f-intent').selectOption('trans');
  await page.getByTestId('f-inc').fill('running');
  const want = KWS.filter((k) => intents(k).includes('Transactional') && k.includes('running'));
  await untilRows(want.length);
  assert.deepEqual((await rowIds(page)).sort(), want.sort());
  // The CSV has the rows shown, with their intents.
  const csv = parseCsv(await download('export-csv'));
  assert.equal(csv[0].at(-1), 'Intent');
  assert.deepEqual(csv.slice(1).map((r) => r[0]).sort(), want.sort());
  for (const r of csv.slice(1)) assert.match(r.at(-1), /Transactional/, r[0]);
  // The intent is in the URL with the other filters: a reload (or a bookmark) keeps it.
  await page.waitForURL((u) => u.searchParams.get('intent') === 'trans' && u.searchParams.get('inc') === 'running');
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  assert.equal(await page.getByTestId('f-intent').inputValue(), 'trans');
  await untilRows(want.length);
  await page.getByTestId('f-inc').fill('');
  await page.getByTestId('f-intent').selectOption('');
  await untilRows(KWS.length);
});

test('questions only: the keywords the groups\' rule reads as questions, in the URL', async () => {
  const want = KWS.filter(isQuestion).sort();
  assert.ok(want.length >= 2 && want.length < KWS.length);
  await page.getByTestId('f-questions').check();
  await untilRows(want.length);
  assert.deepEqual((await rowIds(page)).sort(), want);
  await page.waitForURL((u) => u.searchParams.get('questions') === '1');
  await page.getByTestId('f-questions').uncheck();
  await untilRows(KWS.length);
});

test('the CSV and the report carry every keyword\'s intents', async () => {
  const csv = parseCsv(await download('export-csv'));
  assert.deepEqual([csv[0][0], csv[0][1], csv[0].at(-1)], ['Keyword', 'Volume', 'Intent'], 'the columns before keep their places');
  assert.equal(csv.length - 1, KWS.length);
  for (const r of csv.slice(1)) assert.equal(r.at(-1), names(r[0]), r[0]);

  const html = await download('export-report');
  assert.match(html, /<th[^>]*>Intent<\/th>/);
  assert.ok(html.includes('transactional with buy, purchase, order (not'), 'the rule in the report');
  const count = (n) => KWS.filter((k) => intents(k).includes(n)).length;
  const figure = [...NAMES.map((n) => `${n} ${count(n)}`), `unclassified ${KWS.filter((k) => intents(k).length === 0).length}`].join(', ');
  assert.ok(html.includes(figure), `the summary counts keywords per intent: ${figure}`);
  assert.deepEqual(page.errors, []);
});

test('axe finds no WCAG 2 A/AA violation on the explorer with intents in either theme', async () => {
  for (const theme of ['light', 'dark']) {
    await page.getByTestId('theme').selectOption(theme);
    await untilRows(KWS.length);
    await expectNoAxeViolations(page, `explorer-intent-${theme}`);
  }
});
