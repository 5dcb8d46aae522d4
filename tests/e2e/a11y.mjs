// Accessibility checks of the app's views with axe-core (npm `axe-core`, root package.json).
//
// `expectNoAxeViolations(page, name)` runs axe's WCAG 2.0–2.2 A and AA rules on the page as it is
// and fails with a readable list (rule, impact, help, each offending element and why) when
// anything is found; it also saves a screenshot `a11y-<name>.png`. Every view's test can call
// it once the view shows what it should (tests/e2e/a11y.test.mjs checks every route).
//
// axe is evaluated through the DevTools protocol (page.evaluate), which the app's CSP
// (script-src 'self') does not apply to, so the page under test keeps its real policy.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { shot } from './helpers.mjs';

const require = createRequire(import.meta.url);
let axeSource;

/** The WCAG tags checked: WCAG 2.0, 2.1 and 2.2, levels A and AA (2.2 AA brings target size,
 * 2.5.8: 24 x 24 px). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Runs axe (WCAG 2.0–2.2 A/AA) on the page; returns its violations. */
export async function axeViolations(page, { exclude = [] } = {}) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  return page.evaluate(async ({ tags, exclude }) => {
    const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
    const result = await window.axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 200), summary: n.failureSummary })),
    }));
  }, { tags: AXE_TAGS, exclude });
}

/** Violations as text: one block per rule, one line per element. */
export function formatViolations(name, violations) {
  const lines = [`axe found ${violations.length} violated rule(s) on ${name}:`];
  for (const v of violations) {
    lines.push(`- ${v.id} (${v.impact}): ${v.help} <${v.helpUrl}>`);
    for (const n of v.nodes) {
      lines.push(`    ${n.target}\n      ${n.html}\n      ${(n.summary || '').replace(/\n/g, '\n      ')}`);
    }
  }
  return lines.join('\n');
}

/**
 * Asserts that axe finds no WCAG 2.0–2.2 A/AA violation on the page (`name` names the view in the
 * message and the screenshot `a11y-<name>.png`). `exclude`: CSS selectors left out.
 */
export async function expectNoAxeViolations(page, name, { exclude = [], screenshot = true } = {}) {
  const violations = await axeViolations(page, { exclude });
  if (screenshot) await shot(page, `a11y-${name}`, false);
  assert.equal(violations.length, 0, formatViolations(name, violations));
}
