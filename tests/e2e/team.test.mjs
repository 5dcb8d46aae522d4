// Team mode: two members in two browser contexts (two profiles: two people) research
// overlapping keyword lists at once through one team server (`server/`, on the throwaway
// PostgreSQL database the e2e stage starts: TEAM_DATABASE_URL, TEAM_SERVER_BIN) in front of
// the sandbox server. Each record is charged once on the sandbox's ledger; each member then
// sees the other's records as bought (priced at nothing) and who bought what in History.
// Then a schedule runs on two days (`serpkit-server run-schedules --at`, the second against
// the sandbox's data a day later, `+later=1`) and the Position changes tab shows the changes
// between the two scheduled purchases, nobody having bought anything in the app.

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

  // Each member's own meter counts what the server says its calls cost (the other's records
  // answered part of the later call at nothing, not its list price): together, the ledger.
  const meters = async () => micros(await ana.getByTestId('spend').textContent()) + micros(await ben.getByTestId('spend').textContent());
  assert.equal(await until(meters, (m) => m === micros('$0.0027')), micros('$0.0027'), 'the members\' meters add up to the ledger');

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

const DAY = 86400000;

/** `serpkit-server run-schedules --at AT`: the schedules due then run once; `laterDays`: the
 * sandbox answers as of that many days after its date (the service's data on a later day). */
function runSchedules(at, laterDays = 0) {
  const key = laterDays ? `${SANDBOX_KEY}+later=${laterDays}` : SANDBOX_KEY;
  const out = execFileSync(TEAM_SERVER_BIN, ['run-schedules', '--upstream', SANDBOX_URL, '--at', String(at)], {
    env: { ...process.env, DATABASE_URL: TEAM_DATABASE_URL, SERPKIT_SERVICE_KEY: key },
  }).toString();
  const m = /ran (\d+)/.exec(out);
  assert.ok(m, `run-schedules printed ${out}`);
  return Number(m[1]);
}

/** `GET /team/schedules` as `name`: its schedules and their runs. */
async function schedulesOf(name) {
  const r = await fetch(`${teamUrl}/team/schedules`, { headers: { authorization: `Bearer ${tokens[name]}` } });
  assert.equal(r.status, 200);
  return (await r.json()).schedules;
}

test('position changes in team mode read the scheduled history: two runs compared, nothing bought by the member', async () => {
  await resetLedger();
  const domain = 'example.com';
  // Ana schedules the domain's ranked keywords every day; its first run is due at once.
  const r = await fetch(`${teamUrl}/team/schedules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.ana}`, origin: app.url.replace(/\/$/, '') },
    body: JSON.stringify({ operation: 'ranked-keywords/domain', request: { domain }, every: 'day' }),
  });
  assert.equal(r.status, 201, await r.text());
  const t0 = Date.now();
  // The serving process may have run it first (its timer): one run either way.
  runSchedules(t0);
  const first = await until(schedulesOf.bind(null, 'ana'), (s) => s[0]?.runs.length === 1);
  assert.equal(first[0].runs.length, 1, JSON.stringify(first));
  assert.equal(first[0].runs[0].status, 200);
  // A day later (the server's clock and the service's data): the second run buys again.
  assert.equal(runSchedules(t0 + DAY + 60000, 1), 1);
  const runs = (await schedulesOf('ana'))[0].runs;
  assert.deepEqual(runs.map((x) => x.status), [200, 200]);
  const bought = await quietLedger();
  const charged = bought.entries.filter((e) => e.status === 200);
  assert.deepEqual(charged.map((e) => e.operation), ['ranked-keywords/domain', 'ranked-keywords/domain'], JSON.stringify(bought.entries));

  // Ben opens the domain's Position changes in team mode: the two runs compared, no click.
  const ben = await member('ben');
  await spaGo(ben, `/domain?d=${domain}&tab=changes`);
  const section = ben.getByTestId('section-scheduled');
  await section.getByTestId('ch-table').waitFor({ timeout: 20000 });
  assert.match(await section.getByTestId('ch-scheduled').textContent(), /ana-.*'s schedule/);
  const num = (t) => Number(String(t).replace(/[^0-9]/g, ''));
  const count = async (id) => num((await section.getByTestId(`ch-${id}`).textContent()).replace(/^\D+/, ''));
  const [up, down, same] = [await count('up'), await count('down'), await count('same')];
  assert.ok(up > 0 && down > 0 && same > 0, `ranks moved between the runs: ${up} up, ${down} down, ${same} unchanged`);
  const dates = await section.getByTestId('ch-dates').textContent();
  const [d1, d2] = [...dates.matchAll(/(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]);
  assert.ok(d1 && d2 && d1 < d2, `two days: ${dates}`);
  // His own card has nothing of his to compare, and nothing was bought to show this.
  await ben.getByTestId('section-changes').getByTestId('not-loaded').waitFor();
  const after = await quietLedger([ben]);
  assert.equal(after.entries.filter((e) => e.status === 200).length, 2, `nothing bought: ${JSON.stringify(after.entries)}`);
  assert.equal(micros('$' + after.total), micros('$' + bought.total));
  await shot(ben, 'team-scheduled-changes');
  assert.deepEqual(ben.errors, []);
});
