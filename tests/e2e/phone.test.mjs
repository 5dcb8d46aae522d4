// A 390 x 844 phone (issue 43, item 8), demo mode: the header is compact and scrolls away;
// a table wider than the screen keeps its first column in view when scrolled sideways; on the
// content gap every tap target in the tables and controls is at least 24 x 24 px (WCAG 2.2,
// 2.5.8; inline links in running text are the criterion's exception and are not counted).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, gapLoaded, research, shot } from './helpers.mjs';

const app = e2e();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Targets smaller than 24 x 24 px among the page's controls and its tables' links. */
function smallTargets(page) {
  return page.evaluate(() => {
    const els = document.querySelectorAll('main button, main select, main input, main summary, main td a, main [role="cell"] a, header a, header select');
    const small = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (el.closest('.sr-only')) continue;
      if (r.width < 24 || r.height < 24) small.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent || el.value || '').trim().slice(0, 20)}" ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
    }
    return small;
  });
}

test('phone: compact header, the first column stays in view, targets of 24 px on the gap page', { timeout: 90_000 }, async () => {
  const page = await app.open('/keywords', { context: PHONE });
  const header = await page.locator('header.top').boundingBox();
  assert.ok(header.height <= 120, `the header is ${header.height} px high`);
  await research(page, ['running shoes', 'trail running shoes', 'running shoes for men', 'hiking boots']);
  await page.locator('[data-testid="kw-table"] tbody tr').nth(3).waitFor();
  // The header scrolls away with the page (it is not stuck to the top).
  assert.equal(await page.locator('header.top').evaluate((h) => getComputedStyle(h).position), 'static');
  // Scrolled sideways, the keyword column stays at the table's left edge.
  const scroller = page.locator('[data-testid="kw-table"]').locator('xpath=ancestor::div[contains(@class,"scroll")][1]');
  const box = await scroller.boundingBox();
  const wide = await scroller.evaluate((s) => s.scrollWidth > s.clientWidth);
  assert.ok(wide, 'the table is wider than the phone');
  await scroller.evaluate((s) => { s.scrollLeft = 400; });
  // The checkbox column and the keyword column after it both stay at the left edge.
  const first = await page.locator('[data-testid="kw-table"] tbody tr').first().locator('td').first().boundingBox();
  assert.ok(Math.abs(first.x - box.x) <= 2, `the first column at ${first.x}, the table's edge at ${box.x}`);
  const keyword = await page.locator('[data-testid="kw-table"] tbody tr').first().locator('a.kw').boundingBox();
  assert.ok(keyword.x >= box.x && keyword.x <= box.x + 60, `the keyword at ${keyword.x}, the table's edge at ${box.x}`);
  await shot(page, 'phone-explorer', false);

  // The content gap: every control and table link is a target of 24 px at least.
  await page.goto(`${app.url}/domain/gap?d=example.com,example.org,example.net`);
  await page.locator('main[data-loaded="true"]').waitFor();
  await page.getByTestId('run-all').click();
  await gapLoaded(page);
  await page.getByTestId('gap-table').waitFor();
  const small = await smallTargets(page);
  assert.deepEqual(small, [], `${small.length} targets under 24 px:\n${small.join('\n')}`);
  await shot(page, 'phone-gap', false);
});
