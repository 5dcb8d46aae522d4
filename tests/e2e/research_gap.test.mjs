// The content gap as an SEO person meets it, in demo mode: the lists named and defined as
// Semrush's Keyword Gap names them (Shared, Missing, Weak, Strong, Untapped, Unique) plus
// striking distance; brand terms from each domain's registrable domain by the Public Suffix
// List (a subdomain, a public suffix of two labels, punycode), matched on whole words; the
// position cutoff, the competitors-ranking filter, a configurable striking distance, and
// competition on one 0–1 scale. Every count is recomputed from the sandbox server's records
// by the rules the page states (research_gap_rules.mjs), so nothing depends on facts of the
// synthetic data; axe-core finds no violation.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp, launch, newPage, open, shot, gapLoaded } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';
import { LISTS, expectedGap, rankedKeywords, tabCount as gapTabCount, ctr, isQuestion } from './research_gap_rules.mjs';

const TYPED = ['shop.example.co.uk', 'www.rival.com', 'xn--bcher-kva.de'];
const NAMES = ['Shared', 'Missing', 'Weak', 'Strong', 'Untapped', 'Unique', 'Striking distance'];

let app, browser, page;
before(async () => {
  app = await serveApp();
  browser = await launch();
  page = await newPage(browser);
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const tabCount = (id) => gapTabCount(page, id);
const untilCount = (n) => page.waitForFunction(
  ([n]) => document.querySelector('[data-testid="gap-count"]')?.textContent === `${n.toLocaleString('en-US')} keywords`,
  [n],
);
const untilTab = (id, n) => page.waitForFunction(
  ([id, n]) => document.querySelector(`[data-testid="gap-tab-${id}"]`)?.textContent.replace(/[^0-9]/g, '') === String(n),
  [id, n],
);

async function expectCounts(want, what) {
  for (const id of LISTS) assert.equal(await tabCount(id), want[id].length, `${id} count ${what}`);
}

test('the gap lists as the anchors name them; brand terms from the registrable domain', async () => {
  await open(page, app.url, `/domain/gap?d=${TYPED.join(',')}`);
  await page.getByTestId('run-all').click();
  await gapLoaded(page);
  const domains = new URL(page.url()).searchParams.get('d').split(',');
  assert.equal(domains.length, 3);

  // Brand terms: the registrable domain's name, not the first label ("shop"); punycode decoded.
  const brand = await page.getByTestId('gap-brand').inputValue();
  assert.equal(brand, 'example, rival, bücher');

  // The tabs, named and ordered as Semrush's Keyword Gap, then ours.
  const tabs = await page.locator('nav[aria-label="Gap lists"] a').allTextContents();
  assert.deepEqual(tabs.map((t) => t.replace(/\s*\([\d,]+\)$/, '')), NAMES);
  const records = await Promise.all(domains.map(rankedKeywords));
  let want = expectedGap(records, brand);
  await expectCounts(want, 'at the defaults (top 20, striking 11–20)');

  // Share of voice over the list shown (Untapped, unfiltered): each domain's estimated traffic
  // (volume × the click-through rate of its rank) over the list's total volume.
  await page.getByTestId('gap-voice').waitFor();
  const total = want.untapped.reduce((a, r) => a + Math.max(0, r.volume), 0);
  for (let slot = 0; slot < domains.length; slot++) {
    const traffic = want.untapped.reduce((a, r) => a + (r.ranks[slot] ? Math.max(0, r.volume) * ctr(r.ranks[slot]) : 0), 0);
    const shown = Number((await page.getByTestId(`gap-voice-share-${slot}`).textContent()).replace(/[^0-9.]/g, ''));
    assert.ok(Math.abs(shown - (100 * traffic) / total) <= 0.05 + 1e-9, `slot ${slot}: ${shown} % vs ${(100 * traffic) / total}`);
  }
  assert.equal(await page.getByTestId('gap-voice-share-0').textContent(), '0.0 %', 'you rank for no untapped keyword');
  await expectNoAxeViolations(page, 'gap-voice');

  // Questions only: the list's keywords that are questions by the groups' rule.
  const asked = want.untapped.filter((r) => isQuestion(r.keyword));
  await page.getByTestId('gap-questions').check();
  await untilCount(asked.length);
  await page.getByTestId('gap-questions').uncheck();
  await untilCount(want.untapped.length);
  await page.getByTestId('gap-rules').locator('summary').click();
  const rules = await page.getByTestId('gap-rules').textContent();
  for (const rule of [
    'Shared: you and every competitor rank.',
    'Missing: every competitor ranks, you do not.',
    'Weak: every domain ranks, you rank below every competitor.',
    'Strong: every domain ranks, you rank above every competitor.',
    'Untapped: at least one competitor ranks, you do not.',
    'Unique: you rank, no competitor does.',
    'Striking distance: you rank 11–20.',
    'Only positions 1–20 count as ranking for a competitor, 1–100 for you',
    'Public Suffix List',
  ]) {
    assert.ok(rules.includes(rule), `stated: ${rule}`);
  }
  await shot(page, 'research-gap');

  // Competitors' positions up to: a competitor far down (#21–#100) creates no row by default,
  // and does at top 100 (your own ranks count to #100 at any cutoff).
  const deep = records
    .slice(1)
    .flatMap((rs) => rs)
    .map((r) => r.keyword.toLowerCase())
    .find((k) => records[0].every((r) => r.keyword.toLowerCase() !== k)
      && records.slice(1).every((rs) => rs.every((r) => r.keyword.toLowerCase() !== k || r.rank > 20)));
  const want100 = expectedGap(records, brand, { top: 100 });
  await page.getByTestId('gap-top').selectOption('100');
  await untilTab('untapped', want100.untapped.length);
  await expectCounts(want100, 'at top 100');
  if (deep) {
    const inList = (w) => [...Object.values(w)].some((l) => l.some((r) => r.lower === deep));
    assert.equal(inList(want), false, `${deep}: only ranked beyond #20, no row by default`);
    await page.getByTestId('gap-tab-untapped').click();
    await page.waitForURL(/list=untapped/);
    await page.getByTestId('gap-filter').fill(deep);
    await untilCount(want100.untapped.filter((r) => r.lower.includes(deep)).length);
    await page.getByTestId('gap-top').selectOption('20');
    await untilCount(want.untapped.filter((r) => r.lower.includes(deep)).length);
    await page.getByTestId('gap-filter').fill('');
  } else {
    await page.getByTestId('gap-top').selectOption('20');
  }
  await untilTab('untapped', want.untapped.length);

  // Striking distance is configurable.
  await page.getByTestId('gap-strike-from').fill('4');
  await page.getByTestId('gap-strike-from').press('Enter');
  await page.getByTestId('gap-strike-to').fill('15');
  await page.getByTestId('gap-strike-to').press('Enter');
  const near = expectedGap(records, brand, { striking: [4, 15] });
  await untilTab('striking', near.striking.length);
  assert.ok((await page.getByTestId('gap-rules').textContent()).includes('Striking distance: you rank 4–15.'));

  // Competition on the 0–1 scale: "up to 0.3" keeps the keywords at 0.30 or less (not none),
  // and "30" (the 0–100 habit) is read as 0.30 and says so.
  await page.getByTestId('gap-tab-untapped').click();
  await page.waitForURL(/list=untapped/);
  const low = want.untapped.filter((r) => r.competition <= 0.3);
  await page.getByTestId('gap-cmax').fill('0.3');
  await untilCount(low.length);
  if (want.untapped.some((r) => r.competition <= 0.3)) assert.ok(low.length > 0);
  await page.getByTestId('gap-cmax').fill('30');
  await untilCount(low.length);
  assert.equal(await page.getByTestId('gap-cmax-read').textContent(), 'read as 0.30');
  // Competitors ranking: at least 2 of the 2 competitors.
  await page.getByTestId('gap-rivals-min').selectOption('2');
  const both = low.filter((r) => r.rivals >= 2);
  await untilCount(both.length);
  if (both.length === 0) {
    assert.match(await page.getByTestId('gap-none').textContent(), /pass the filters/);
  }
  await page.getByTestId('gap-rivals-min').selectOption('0');
  await page.getByTestId('gap-cmax').fill('');
  await untilCount(want.untapped.length);
  await expectNoAxeViolations(page, 'research-gap');

  // Brand terms match whole words: part of a word of the top keyword with one (of 5 letters
  // or more) leaves it in; the word itself leaves it out.
  const wordOf = (r) => r.lower.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w));
  const top = want.untapped.find(wordOf);
  assert.ok(top, 'an untapped keyword with a word of 5 letters or more');
  const word = wordOf(top);
  const part = word.slice(1);
  const striking = [4, 15];
  await page.getByTestId('gap-brand').fill(`${brand}, ${part}`);
  await page.getByTestId('gap-brand').press('Enter');
  const withPart = expectedGap(records, `${brand}, ${part}`, { striking });
  assert.ok(withPart.untapped.some((r) => r.lower === top.lower), `"${part}" is no word of "${top.lower}"`);
  await untilTab('untapped', withPart.untapped.length);
  await expectCounts(withPart, `with the term "${part}"`);
  await page.getByTestId('gap-brand').fill(`${brand}, ${word}`);
  await page.getByTestId('gap-brand').press('Enter');
  const withWord = expectedGap(records, `${brand}, ${word}`, { striking });
  assert.ok(!withWord.untapped.some((r) => r.lower === top.lower));
  await untilTab('untapped', withWord.untapped.length);
  await expectCounts(withWord, `with the term "${word}"`);
  assert.deepEqual(page.errors, []);
});
