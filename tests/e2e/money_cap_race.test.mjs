// Three tabs of one profile race for the last of the budget cap, live against the sandbox
// server's ledger: what fits goes (exactly to the cap), what does not is refused before it
// leaves, and the cap is never passed (issue 52).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2e, spaGo, quietLedger, resetLedger, micros, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

test('three tabs racing for the last of a cap: two related-keyword calls fit exactly, the third is refused', { timeout: 120_000 }, async () => {
  const tabs = await app.tabs(3);
  const [a, ...others] = tabs;
  // $0.30 is two related-keyword calls ($0.15 each); each answer takes 2 s, so all three are
  // written ahead while the others are in flight.
  await app.goto(a, '/keywords', { live: { key: `${SANDBOX_KEY}+delay=2000`, budget: '0.30', remember: true } });
  for (const t of others) await app.goto(t, '/keywords');
  await resetLedger();
  const sections = [];
  for (const [i, t] of tabs.entries()) {
    await spaGo(t, `/keyword?kw=cap%20race%20${i}&cc=US`);
    const section = t.getByTestId('section-related');
    await section.getByTestId('related').waitFor();
    sections.push(section);
  }
  await Promise.all(sections.map((s) => s.getByTestId('related').click()));
  // Each section ends bought (it offers a Refresh) or refused (an error).
  const ends = await Promise.all(sections.map(async (s) => {
    const bought = s.getByTestId('refresh');
    const refused = s.getByTestId('error');
    await bought.or(refused).first().waitFor({ timeout: 30_000 });
    return (await refused.count()) > 0 ? await refused.getAttribute('data-code') : 'bought';
  }));
  const l = await quietLedger(tabs, 30_000);
  assert.deepEqual([...ends].sort(), ['bought', 'bought', 'budget_exceeded'], JSON.stringify(ends));
  assert.equal(l.entries.length, 2, 'what fits went, and nothing more');
  assert.equal(micros('$' + l.total), micros('$0.3000'), 'exactly to the cap, never past it');
  for (const t of tabs) assert.deepEqual(t.errors, []);
  await a.context().close();
});
