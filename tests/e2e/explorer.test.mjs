// Demo mode: research, table with sparklines, sorting, filters, CSV export, stored results,
// the keyword detail view, and "price shown before = charge afterwards".

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SANDBOX_URL, SANDBOX_KEY, e2e, open, shot, shotEl, research, column, rowIds, micros, parseCsv, saved, shownLedger } from './helpers.mjs';

const KWS = [
  'running shoes', 'trail running shoes', 'marathon training plan', 'best running socks',
  'running shoes for women', 'cheap running shoes', 'trail shoes', 'running watch',
];

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

test('demo research of several keywords shows the table with sparklines', async () => {
  await open(page, app.url, '/keywords');
  await page.getByTestId('demo-banner').waitFor();
  assert.match(await page.getByTestId('demo-banner').textContent(), /synthetic/);
  await page.getByTestId('empty').waitFor();
  await shot(page, 'explorer-empty', false);

  await page.getByTestId('kw-input').fill([...KWS, ' running shoes ', ''].join('\n'));
  assert.equal(await page.getByTestId('kw-count').textContent(), '8 keywords (1 duplicate removed)');
  const { price, text } = await research(page, KWS);
  assert.equal(text, 'Run — $0.0024 for 8 keywords');
  assert.equal(price, '$0.0024');

  await page.locator('[data-testid="kw-table"][data-rows="8"]').waitFor();
  assert.deepEqual((await rowIds(page)).sort(), [...KWS].sort());
  assert.equal(await page.locator('[data-testid="kw-table"] svg[data-testid="sparkline"] polyline').count(), 8);
  const points = await page.locator('[data-testid="kw-table"] svg polyline').first().getAttribute('points');
  assert.equal(points.split(' ').length, 12, '12 monthly points');

  // Price shown before = charge afterwards: the client meter and the demo ledger.
  assert.equal(await page.getByTestId('spend').textContent(), price);
  assert.equal(await shownLedger(page, (m) => m === micros(price)), micros(price));
  assert.match(await page.getByTestId('validation').textContent(), /valid/);
  assert.equal(await page.getByTestId('run').textContent(), 'Saved result shown — no charge');
  assert.ok(await page.getByTestId('run').isDisabled());
  assert.deepEqual(page.errors, []);
  await shot(page, 'explorer-results');
});

test('sorting by a column changes the row order', async () => {
  await page.getByTestId('sort-volume').click();
  const desc = await column(page, 'volume');
  assert.equal(desc.length, 8);
  assert.deepEqual(desc, [...desc].sort((a, b) => b - a));
  assert.equal(await page.locator('th:has([data-testid="sort-volume"])').getAttribute('aria-sort'), 'descending');
  await page.getByTestId('sort-volume').click();
  const asc = await column(page, 'volume');
  assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
  assert.notDeepEqual(asc, desc);

  await page.getByTestId('sort-keyword').click();
  const ids = await rowIds(page);
  assert.deepEqual(ids, [...ids].sort((a, b) => a.localeCompare(b)));
  await page.getByTestId('sort-cpc').click();
  const cpc = await column(page, 'cpc');
  assert.deepEqual(cpc, [...cpc].sort((a, b) => b - a));
  assert.match(page.url(), /sort=cpc/);
});

test('filters change the rows', async () => {
  const volumes = (await column(page, 'volume')).sort((a, b) => a - b);
  const min = volumes[4];
  await page.getByTestId('f-vmin').fill(String(min));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="kw-table"] tbody tr').length === n, volumes.filter((v) => v >= min).length);
  for (const v of await column(page, 'volume')) assert.ok(v >= min, `${v} >= ${min}`);
  await page.getByTestId('f-vmin').fill('');

  await page.getByTestId('f-inc').fill('trail');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="kw-table"] tbody tr').length === 2);
  assert.deepEqual((await rowIds(page)).sort(), ['trail running shoes', 'trail shoes']);
  await page.getByTestId('f-inc').fill('running');
  await page.getByTestId('f-exc').fill('cheap, women');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="kw-table"] tbody tr').length === 4);
  assert.deepEqual((await rowIds(page)).sort(), ['best running socks', 'running shoes', 'running watch', 'trail running shoes']);
  assert.match(page.url(), /inc=running/);
  await page.getByTestId('f-compmax').fill('2');
  await page.getByTestId('f-compmin').fill('1.5');
  await page.getByTestId('no-match').waitFor();
  await page.getByTestId('f-compmin').fill('');
  await page.getByTestId('f-compmax').fill('');
  await page.locator('[data-testid="kw-table"] tbody tr').nth(3).waitFor();
  await shot(page, 'explorer-filtered');
});

test('CSV export contains exactly the filtered rows', async () => {
  const shown = await rowIds(page);
  assert.equal(shown.length, 4);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(download.suggestedFilename(), 'demo-keywords-US.csv', 'a demo CSV says so in its name');
  const rows = parseCsv(await readFile(await download.path(), 'utf8'));
  // One column per month (issue 54: the twelve values shared one cell), after the months covered.
  const months = Array.from({ length: 12 }, (_, i) => `Searches month ${i + 1}${i === 0 ? ' (oldest)' : i === 11 ? ' (latest)' : ''}`);
  assert.deepEqual(rows[0], ['Keyword', 'Volume', 'CPC', 'Ads competition', 'Months covered', ...months, '12-month change (%)', '3-month change (%)', 'Peak month', 'Season', 'Opportunity', 'Intent']);
  assert.deepEqual(rows.slice(1).map((r) => r[0]), shown);
  const volumes = await column(page, 'volume');
  assert.deepEqual(rows.slice(1).map((r) => Number(r[1])), volumes);
  assert.match(rows[1][4], /^[A-Z][a-z]{2} \d{4} – [A-Z][a-z]{2} \d{4}$/, 'the months covered');
  assert.ok(rows.slice(1).every((r) => r.slice(5, 17).every((v) => /^\d+$/.test(v))), 'a number in every month column');
});

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The trend rules as the page states them, written again here (not from the app's code). */
function expectedTrend(monthly, currentMonth) {
  const at = (m) => m.year * 12 + MONTHS.indexOf(m.month);
  const sorted = [...monthly].sort((a, b) => at(a) - at(b));
  const values = sorted.map((m) => Math.max(0, m.value));
  const change = (now, before) => (before > 0 ? (now - before) / before : null);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const total = values.reduce((a, b) => a + b, 0);
  const byMonth = new Array(12).fill(0);
  sorted.forEach((m) => (byMonth[MONTHS.indexOf(m.month)] = Math.max(0, m.value)));
  // The peak: the month with the most searches, the latest of equals.
  let peak = -1;
  sorted.forEach((m, i) => { if (peak < 0 || m.value >= sorted[peak].value) peak = i; });
  // Seasonal: more than half of the volume in at most 3 consecutive months (wrapping over the
  // year end; a shorter run holds no more than 3 months around it) and a peak of at least 100.
  let season = 'not seasonal';
  const peakMonth = peak < 0 ? -1 : MONTHS.indexOf(sorted[peak].month);
  const peakValue = peak < 0 ? 0 : byMonth[peakMonth];
  const concentrated = byMonth.some((_, s) => (byMonth[s] + byMonth[(s + 1) % 12] + byMonth[(s + 2) % 12]) * 2 > total);
  if (total === 0) season = '';
  else if (concentrated && peakValue >= 100) {
    // The season: the peak month and the months next to it, in a row, with at least half
    // the peak's searches.
    const strong = (m) => byMonth[(m + 12) % 12] * 2 >= peakValue;
    const months = [peakMonth];
    for (let m = peakMonth - 1; months.length < 12 && strong(m); m--) months.unshift((m + 12) % 12);
    for (let m = peakMonth + 1; months.length < 12 && strong(m); m++) months.push(m % 12);
    const cur = currentMonth - 1;
    const ahead = (months[0] + 12 - cur) % 12;
    season = months.includes(cur) ? 'in season' : ahead >= 1 && ahead <= 2 ? 'approaching' : 'out of season';
  }
  return {
    // Year over year: the same month a year earlier, a 13th month; blank without it.
    change12: values.length >= 13 && at(sorted.at(-1)) - at(sorted.at(-13)) === 12 ? change(values.at(-1), values.at(-13)) : null,
    change3: change(mean(values.slice(9)), mean(values.slice(6, 9))),
    peak: total > 0 ? sorted[peak].month.slice(0, 3) : '',
    season,
  };
}

/** The explorer CSV's data rows with its 13 trend columns (months covered, then one per month)
 * folded into one, so the columns after keep their places below (12-month change at 5). */
function folded(csv) {
  assert.equal(csv[0][4], 'Months covered');
  assert.equal(csv[0][17], '12-month change (%)');
  return csv.slice(1).map((r) => [...r.slice(0, 4), r.slice(4, 17).join(' '), ...r.slice(17)]);
}

test('trends, seasons and the opportunity score follow their stated rules', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const rows = folded(parseCsv(await readFile(await download.path(), 'utf8')));
  const keywords = rows.map((r) => r[0]);
  // The same records from the sandbox server (same generator, same day as demo mode).
  const answer = await fetch(`${SANDBOX_URL}/v1/search_volume/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keywords, ccode: 'US' }),
  });
  const records = await answer.json();
  const currentMonth = await page.evaluate(() => new Date().getMonth() + 1);
  const num = (text) => (text === '' ? null : Number(text));
  for (const [i, row] of rows.entries()) {
    const expected = expectedTrend(records[i].TARGETED_MONTHLY_SEARCHES, currentMonth);
    const close = (a, b) => (a === null ? b === null : b !== null && Math.abs(a - b) < 1e-4);
    // The CSV gives changes in percent (two decimals), as the screen does.
    const pct = (text) => (text === '' ? null : Number(text) / 100);
    assert.ok(close(expected.change12, pct(row[5])), `${row[0]}: 12-month change ${row[5]} % vs ${expected.change12}`);
    assert.ok(close(expected.change3, pct(row[6])), `${row[0]}: 3-month change ${row[6]} % vs ${expected.change3}`);
    assert.equal(row[7], expected.peak, `${row[0]}: peak`);
    assert.equal(row[8], expected.season, `${row[0]}: season`);
    // The opportunity score by the formula shown (default weights 3, 1, 1), on fixed anchors:
    // a row's score needs only its own record.
    const r = records[i];
    const unit = (x) => Math.min(1, Math.max(0, x));
    const want = (100 * (3 * unit(Math.log10(1 + r.SEARCH_VOLUME) / 5) + unit(Math.log10(1 + r.AVERAGE_CPC) / Math.log10(51)) + (1 - unit(r.COMPETITION)))) / 5;
    assert.ok(Math.abs(num(row[9]) - want) <= 0.05 + 1e-9, `${row[0]}: score ${row[9]} vs ${want}`);
  }
  // The rule and the formula are stated next to the table.
  await page.getByTestId('trend-rules').locator('summary').click();
  assert.match(await page.getByTestId('season-rule').textContent(), /more than half of the 12-month volume falls in at most 3 consecutive months \(wrapping over the year end\) and the peak month has at least 100 searches/);
  assert.match(await page.getByTestId('score-formula').first().textContent(), /^Opportunity = 100 × \(3 × volume/);
  // Sorting by season puts in-season keywords first.
  await page.getByTestId('sort-season').click();
  const seasons = await page.locator('[data-testid="kw-table"] tbody td[data-col="season"]').allTextContents();
  const rank = { 'in season': 4, approaching: 3, 'out of season': 2, 'not seasonal': 1, '': 0 };
  const ranks = seasons.map((s) => rank[s]);
  assert.ok(ranks.every((r) => r !== undefined), `labels: ${seasons}`);
  assert.ok(ranks.every((r, k) => k === 0 || ranks[k - 1] >= r) || ranks.every((r, k) => k === 0 || ranks[k - 1] <= r), `sorted: ${seasons}`);
  await shot(page, 'explorer-trends');

  // The trend columns filter: a season choice, then a 12-month change range in % (a set
  // bound leaves out an unknown change). Expected counts come from the CSV checked above.
  const showing = async (n) => {
    if (n === 0) await page.getByTestId('no-match').waitFor();
    else await page.locator(`[data-testid="kw-table"][data-rows="${n}"]`).waitFor();
  };
  const isSeasonal = (r) => ['in season', 'approaching', 'out of season'].includes(r[8]);
  await page.getByTestId('f-season').selectOption('seasonal');
  await showing(rows.filter(isSeasonal).length);
  assert.match(page.url(), /[?&]season=seasonal(&|$)/);
  for (const label of await page.locator('[data-testid="kw-table"] tbody td[data-col="season"]').allTextContents()) {
    assert.ok(['in season', 'approaching', 'out of season'].includes(label), label);
  }
  await page.getByTestId('f-season').selectOption('not');
  await showing(rows.filter((r) => r[8] === 'not seasonal').length);
  await page.getByTestId('f-season').selectOption('');
  await page.getByTestId('f-chmin').fill('0');
  await showing(rows.filter((r) => r[5] !== '' && Number(r[5]) >= 0).length);
  await page.getByTestId('f-chmin').fill('');
  await page.getByTestId('f-ch3max').fill('-5');
  await showing(rows.filter((r) => r[6] !== '' && Number(r[6]) <= -0.05).length);
  await page.getByTestId('f-ch3max').fill('');
  await showing(rows.length);

  // Weights from Settings: CPC alone orders the scores as the CPCs.
  await page.goto(page.url().replace(/\/keywords.*$/, '/settings'));
  for (const [id, value] of [['w-volume', '0'], ['w-cpc', '1'], ['w-competition', '0']]) {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).dispatchEvent('change');
  }
  assert.match(await page.getByTestId('score-formula').textContent(), /^Opportunity = 100 × \(0 × volume \+ 1 × CPC/);
  await shot(page, 'settings-score-weights');
  await page.goBack();
  await page.locator('[data-testid="kw-table"] tbody tr').first().waitFor();
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const weighted = folded(parseCsv(await readFile(await again.path(), 'utf8')));
  const byCpc = [...weighted].sort((a, b) => Number(a[2]) - Number(b[2]) || a[0].localeCompare(b[0]));
  for (let k = 1; k < byCpc.length; k++) {
    if (Number(byCpc[k][2]) > Number(byCpc[k - 1][2])) assert.ok(Number(byCpc[k][9]) > Number(byCpc[k - 1][9]), `score follows CPC: ${byCpc.map((r) => r[2] + '→' + r[9])}`);
  }
  // Back to the default weights for the tests that follow.
  await page.goto(page.url().replace(/\/keywords.*$/, '/settings'));
  for (const [id, value] of [['w-volume', '3'], ['w-cpc', '1'], ['w-competition', '1']]) {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).dispatchEvent('change');
  }
  await page.goBack();
  await page.locator('[data-testid="kw-table"] tbody tr').first().waitFor();
  assert.deepEqual(page.errors, []);
});

test('a stored result reopens after a reload without paying again', async () => {
  await saved(page);
  const url = page.url();
  await page.reload();
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.locator('[data-testid="kw-table"][data-rows="4"]').waitFor();
  assert.equal(page.url(), url, 'filters and inputs are in the URL');
  // The meter is the journal's (kept across reloads): still what was spent, nothing more.
  // The new page's demo sandbox sold nothing: the table came back without a call.
  assert.equal(await page.getByTestId('spend').textContent(), '$0.0024');
  assert.equal(await page.getByTestId('ledger').textContent(), '$0.0000');
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().waitFor();
  assert.equal(await page.getByTestId('history-row').count(), 1);
  assert.equal(await page.getByTestId('history-charge').first().textContent(), '$0.0024');
  await shot(page, 'history');
  await page.getByTestId('history-open').first().click();
  await page.locator('[data-testid="kw-table"][data-rows="8"]').waitFor();
  assert.equal(await page.getByTestId('ledger').textContent(), '$0.0000');
});

test('keyword detail: chart, related, outline, videos, posts; price before = ledger after', async () => {
  await page.locator('[data-testid="kw-table"] a.kw', { hasText: /^running shoes$/ }).click();
  await page.getByTestId('detail-keyword').waitFor();
  assert.equal(await page.getByTestId('detail-keyword').textContent(), 'running shoes');
  // The monthly record was bought in the explorer: shown without a call.
  await page.getByTestId('monthly-chart').waitFor();
  assert.equal(await page.locator('[data-testid="monthly-chart"] rect').count(), 12);
  const runAll = page.getByTestId('run-all');
  const price = await runAll.getAttribute('data-price');
  assert.equal(price, '$1.1500', 'related 0.15 + outline 0.50 + videos 0.25 + posts 0.25');
  const before = micros(await page.getByTestId('ledger').textContent());
  const spentBefore = micros(await page.getByTestId('spend').textContent());
  await runAll.click();
  await page.locator('[data-testid="related-table"] tbody tr').first().waitFor();
  await page.getByTestId('outline').waitFor();
  await page.getByTestId('videos').waitFor();
  await page.getByTestId('posts').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-all"]')?.dataset.price === '$0.0000');
  assert.equal(await shownLedger(page, (m) => m - before === micros(price)) - before, micros(price));
  assert.equal(micros(await page.getByTestId('spend').textContent()) - spentBefore, micros(price), 'the meter counts what the ledger charged');

  // Microblog ids are 64-bit (most beyond 2^53): shown with the exact digits the service sent
  // (the sandbox server makes the same posts for the same keyword and day).
  const shownIds = (await page.getByTestId('user-id').allTextContents()).map((t) => t.replace(/^id /, ''));
  const sent = await fetch(`${SANDBOX_URL}/v1/microblog/post`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword: 'running shoes' }),
  });
  const sentIds = [...(await sent.text()).matchAll(/"user_id":(-?[0-9]+)/g)].map((m) => m[1]);
  assert.deepEqual(shownIds, sentIds);
  assert.ok(sentIds.some((id) => !Number.isSafeInteger(Number(id))), 'some ids are beyond 2^53');

  // Only http(s) URLs become links, always rel="noopener noreferrer"; no scraped markup.
  const links = await page.locator('#outline a, #videos a, #posts a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.rel]));
  assert.ok(links.length > 0);
  for (const [href, rel] of links) {
    assert.match(href, /^https?:\/\//i);
    assert.equal(rel, 'noopener noreferrer');
  }
  assert.equal(await page.locator('main script, main iframe, main [onerror], main [onclick]').count(), 0);

  // The opportunity score of related keywords is the explorer's (difficulty is not part of
  // it): recomputed here from the sandbox's related records by the formula shown (3, 1, 1).
  assert.match(await page.getByTestId('related-score-formula').textContent(), /one score on every page/);
  const related = await (await fetch(`${SANDBOX_URL}/v1/related`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword: 'running shoes', ccode: 'US' }),
  })).json();
  // Fixed anchors, the same for every list: volume log10(1 + v) / 5, CPC log10(1 + cpc) /
  // log10(51), competition 0–1 inverted; each capped to 0–1.
  assert.match(await page.getByTestId('related-score-formula').textContent(), /fixed anchor/);
  const unit = (x) => Math.min(1, Math.max(0, x));
  const expectedScore = new Map(related.map((r) => {
    const vol = unit(Math.log10(1 + r.search_volume) / 5);
    const cpc = unit(Math.log10(1 + r.cpc) / Math.log10(51));
    const comp = 1 - unit(r.competition);
    return [r.keyword, (100 * (3 * vol + cpc + comp)) / 5];
  }));
  const shownScores = await page.locator('[data-testid="related-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('a.kw').textContent, tr.querySelector('td[data-col="score"]').textContent]));
  assert.equal(shownScores.length, related.length);
  for (const [k, shownScore] of shownScores) {
    assert.ok(Math.abs(Number(shownScore) - expectedScore.get(k)) <= 0.5 + 1e-9, `${k}: score ${shownScore} vs ${expectedScore.get(k)}`);
  }

  // Related keywords sort by KD, and one click researches further.
  await page.getByTestId('sort-kd').click();
  const kd = await page.locator('[data-testid="related-table"] tbody tr td:nth-child(4)').allTextContents();
  const nums = kd.map(Number);
  assert.deepEqual(nums, [...nums].sort((a, b) => b - a));
  await shot(page, 'keyword-detail', false);
  await shotEl(page.getByTestId('section-related'), 'keyword-related');
  await shotEl(page.getByTestId('section-outline'), 'keyword-outline');
  await shotEl(page.getByTestId('section-videos'), 'keyword-videos');
  await shotEl(page.getByTestId('section-posts'), 'keyword-posts');
  const first = await page.locator('[data-testid="related-table"] tbody tr a.kw').first();
  const kw = await first.textContent();
  await first.click();
  await page.waitForFunction((k) => document.querySelector('[data-testid="detail-keyword"]')?.textContent === k, kw);
  assert.equal(await page.getByTestId('run-all').getAttribute('data-price'), '$1.1503');
  assert.deepEqual(page.errors, []);
});

test('narrow window and dark theme stay readable', async () => {
  await page.goto(app.url + '/keywords');
  await page.locator('main[data-loaded="true"]').waitFor();
  // The explorer reopened the last view, filters included: clear them.
  await page.locator('[data-testid="kw-table"]').waitFor();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await page.getByTestId('theme').selectOption('dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await research(page, KWS.slice(0, 5));
  await page.locator('[data-testid="kw-table"][data-rows="5"]').waitFor();
  await shot(page, 'explorer-dark');
  await page.setViewportSize({ width: 420, height: 900 });
  await shot(page, 'explorer-narrow');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal page scroll (table scrolls in its own box): ${overflow}px`);
  await page.getByTestId('theme').selectOption('auto');
});
