// Team mode: two members in two browser contexts (two profiles: two people) research
// overlapping keyword lists at once through one team server (`server/`, on the throwaway
// PostgreSQL database the e2e stage starts: TEAM_DATABASE_URL, TEAM_SERVER_BIN) in front of
// the sandbox server. Each record is charged once on the sandbox's ledger; each member then
// sees the other's records as bought (priced at nothing) and who bought what in History.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { e2e, research, micros, quietLedger, resetLedger, until, spaGo, shot, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();
const { TEAM_DATABASE_URL, TEAM_SERVER_BIN } = process.env;
let server;
let teamUrl;
const tokens = {};

/** `serpkit-server add-member NAME`: its token (printed once). */
function addMember(name) {
  const out = execFileSync(TEAM_SERVER_BIN, ['add-member', name], { env: { ...process.env, DATABASE_URL: TEAM_DATABASE_URL } }).toString();
  const m = /member token: (\S+)/.exec(out);
  assert.ok(m, `add-member printed ${out}`);
  return m[1];
}

before(async () => {
  assert.ok(TEAM_DATABASE_URL && TEAM_SERVER_BIN, 'TEAM_DATABASE_URL and TEAM_SERVER_BIN are set by cargo xtask e2e');
  await app.tabs(0); // starts the app server: its origin is the one the team server allows
  const suffix = Date.now().toString(36);
  tokens.ana = addMember(`ana-${suffix}`);
  tokens.ben = addMember(`ben-${suffix}`);
  server = spawn(TEAM_SERVER_BIN, ['serve', '--port', '0', '--upstream', SANDBOX_URL, '--allow-origin', app.url.replace(/\/$/, '')], {
    env: { ...process.env, DATABASE_URL: TEAM_DATABASE_URL, SERPKIT_SERVICE_KEY: SANDBOX_KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise((resolve, reject) => {
    createInterface({ input: server.stdout }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`serpkit-server exited (${code})`)));
  });
  assert.match(first, /^server: http:\/\//);
  teamUrl = first.slice('server: '.length).trim();
});

after(() => server?.kill());

/** A member's page on a profile of its own, in team mode (Settings), then on the explorer. */
async function member(name) {
  const [page] = await app.tabs(1);
  await app.goto(page, '/settings');
  await page.getByTestId('team-on').check();
  await page.getByTestId('team-url').fill(teamUrl);
  await page.getByTestId('team-url').press('Tab');
  await page.getByTestId('team-token').fill(tokens[name]);
  assert.equal(await page.getByTestId('mode').textContent(), 'Team server');
  await page.getByTestId('team-meter').waitFor();
  await spaGo(page, '/keywords');
  return page;
}

const list = (from, to) => Array.from({ length: to - from }, (_, i) => `team kw ${from + i}`);

test('two members buy overlapping lists at once: each record charged once, each sees the other\'s as bought', async () => {
  await resetLedger();
  const [ana, ben] = await Promise.all([member('ana'), member('ben')]);
  const anas = list(0, 6);
  const bens = list(3, 9);
  // At once: the server reserves each record for one buyer; the other waits and reuses it.
  await Promise.all([research(ana, anas), research(ben, bens)]);
  await ana.locator('[data-testid="kw-table"][data-rows="6"]').waitFor();
  await ben.locator('[data-testid="kw-table"][data-rows="6"]').waitFor();

  const l = await quietLedger([ana, ben]);
  const charged = l.entries.filter((e) => e.status === 200);
  assert.equal(charged.reduce((n, e) => n + e.units, 0), 9, `9 distinct keywords charged once: ${JSON.stringify(l.entries)}`);
  assert.equal(micros('$' + l.total), micros('$0.0027'));
  assert.ok(l.entries.every((e) => e.key_id && !JSON.stringify(e).includes(tokens.ana)), 'the service saw the team key, never a member token');

  // The team's meter (the server's journal) equals the ledger, in both members' headers.
  for (const page of [ana, ben]) {
    const team = await until(() => page.getByTestId('team-spend').textContent(), (t) => t.startsWith('$0.0027'));
    assert.match(team, /^\$0\.0027/);
  }

  // Ben sees Ana's records as bought: her first three keywords cost him nothing.
  await ben.getByTestId('kw-input').fill(list(0, 3).join('\n'));
  const run = ben.getByTestId('run');
  await until(() => run.textContent(), (t) => /no charge/.test(t), 15000);
  assert.equal(await run.textContent(), 'Run — no charge · all 3 keywords already bought');
  await run.click();
  await ben.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  const after = await quietLedger([ana, ben]);
  assert.equal(micros('$' + after.total), micros('$0.0027'), 'nothing charged again');
  // And Ana sees Ben's.
  await ana.getByTestId('kw-input').fill(list(6, 9).join('\n'));
  await until(() => ana.getByTestId('run').textContent(), (t) => /no charge/.test(t), 15000);
  assert.equal(await ana.getByTestId('run').textContent(), 'Run — no charge · all 3 keywords already bought');

  // History shows who bought what.
  await spaGo(ben, '/history');
  const rows = ben.getByTestId('team-purchase');
  await until(() => rows.count(), (n) => n >= 2);
  const who = await ben.getByTestId('team-purchase-member').allTextContents();
  assert.ok(who.some((w) => w.startsWith('ana-')) && who.some((w) => w.startsWith('ben-')), `purchases by ${who}`);
  const items = (await ben.getByTestId('team-purchase-items').allTextContents()).join(', ');
  for (const kw of list(0, 9)) assert.ok(items.includes(`${kw} (US)`), `${kw} in ${items}`);
  await shot(ben, 'team-history');

  // The member token is in no URL or storage of either page (it was not remembered).
  for (const [page, name] of [[ana, 'ana'], [ben, 'ben']]) {
    assert.ok(!page.url().includes(tokens[name]));
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    assert.ok(!stored.includes(tokens[name]));
    assert.deepEqual(page.errors, []);
  }
});
