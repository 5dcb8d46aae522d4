// axe-core (WCAG 2.2 A/AA, target size included; ./a11y.mjs) on every view issue 39 added,
// at a laptop's 1366 px and a 390 px phone, in demo mode: the explorer's clusters by shared
// results and its Questions filter, related keywords' Questions filter, a domain's ranked
// keywords with estimated traffic, top pages by traffic, cannibalisation triage, position
// changes weighted by traffic, and the content gap with its share of voice, gain at #3,
// traffic potential, Questions filter and brand-term warning. Each view is driven to show
// whatever the sandbox returns; nothing depends on facts of the synthetic data.

import { test } from 'node:test';
import { e2e, open, research, gapLoaded } from './helpers.mjs';
import { expectNoAxeViolations } from './a11y.mjs';

const app = e2e();
const KEYWORDS = ['running shoes', 'best running shoes', 'how to clean running shoes', 'winter coat', 'winter coat sale', 'how to clean winter coat'];
const DOMAIN = 'example.com';

async function views(page, width) {
  const check = (name) => expectNoAxeViolations(page, `research-${name}-${width}`);
  const click = async (id) => {
    const b = page.getByTestId(id);
    if (!(await b.isDisabled())) await b.click();
  };

  await open(page, app.url, '/keywords');
  await research(page, KEYWORDS);
  await page.locator(`[data-testid="kw-table"][data-rows="${KEYWORDS.length}"]`).waitFor();
  await page.getByTestId('clusters-run').click();
  await page.locator('[data-testid="clusters-table"] [data-testid="cluster-row"]').first().waitFor();
  await page.getByTestId('clusters-unbought').waitFor({ state: 'detached' });
  await check('explorer-clusters');
  await page.getByTestId('f-questions').check();
  await page.locator('[data-testid="kw-table"][data-rows="2"]').waitFor();
  await check('explorer-questions');

  await open(page, app.url, `/keyword?kw=${encodeURIComponent(KEYWORDS[0])}&cc=US`);
  await click('related');
  await page.locator('[data-testid="related-table"] tbody tr').first().waitFor();
  await page.getByTestId('related-questions').check();
  await check('related-questions');

  await open(page, app.url, `/domain?d=${DOMAIN}&tab=keywords`);
  await click('keywords');
  await page.locator('[data-testid="rk-table"] [data-testid="vrow"]').first().waitFor({ timeout: 60000 });
  await check('ranked-traffic');
  for (const [tab, ready] of [['pages', 'tp-table'], ['cannibal', 'cn']]) {
    await open(page, app.url, `/domain?d=${DOMAIN}&tab=${tab}`);
    await page.getByTestId(ready).waitFor();
    await check(`analyses-${tab}`);
  }
  // Position changes: the demo answers a repeated purchase as of the next day.
  await open(page, app.url, `/domain?d=${DOMAIN}&tab=changes`);
  await page.getByTestId('ch-no-previous').waitFor();
  await page.getByTestId('refresh').click();
  await page.getByTestId('refresh-again').click();
  await page.getByTestId('ch-table').waitFor({ timeout: 60000 });
  await check('analyses-changes');

  await open(page, app.url, '/domain/gap?d=hotels.com,nova.io');
  await click('run-all');
  await gapLoaded(page);
  await page.getByTestId('gap-voice').waitFor();
  await page.getByTestId('gap-brand-warning').first().waitFor();
  await check('gap-voice-warning');
  await page.getByTestId('gap-questions').check();
  await check('gap-questions');
}

test('axe finds no WCAG 2.2 A/AA violation on the research views of issue 39 (1366 px)', async () => {
  const page = await app.open('/keywords', { context: { viewport: { width: 1366, height: 900 } } });
  await views(page, 1366);
});

test('axe finds no WCAG 2.2 A/AA violation on the research views of issue 39 (390 px phone)', async () => {
  const page = await app.open('/keywords', { context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
  await views(page, 390);
});
