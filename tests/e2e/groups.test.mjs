// Keyword groups in the explorer, demo mode: each group's size and
// summed volume agree with the table's rows; question groups hold exactly the keywords
// starting with that question word ("will smith movies" asks nothing), modifier groups the
// keywords with that word (checked by a JS reading of the stated rule); an apostrophe keeps a
// word whole and singular and plural are one topic; ticked groups go to
// a list; the groups CSV has every shown group with its keywords; the explorer's report has
// the groups. Volumes come from the page's own table, so nothing depends on the synthetic data.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, open, research, shot, parseCsv } from './helpers.mjs';

const KEYWORDS = [
  'running shoes',
  'best running shoes',
  'trail running shoes',
  'how to clean running shoes',
  'cheap running shoes near me',
  'marathon training plan',
  'how to train for a marathon',
  'marathon shoes vs running shoes',
  'what is a good marathon time',
  'best marathon watch 2025',
  'will smith movies',
  'will it rain at the marathon',
  "men's running shoes",
  'running shoe',
];

const app = e2e();
let page;
before(async () => {
  [page] = await app.tabs(1);
});

const words = (k) => k.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

test('keyword groups: sizes and volumes from the rows, question and modifier rules, list, CSV', async () => {
  await open(page, app.url, '/keywords');
  await research(page, KEYWORDS);
  await page.locator(`[data-testid="kw-table"][data-rows="${KEYWORDS.length}"]`).waitFor();
  const volumes = new Map(await page.locator('[data-testid="kw-table"] tbody tr[data-testid="row"]').evaluateAll((rows) =>
    rows.map((r) => [r.dataset.id, Number(r.querySelector('[data-col="volume"]').textContent.replace(/,/g, ''))])));
  assert.equal(volumes.size, KEYWORDS.length);

  const panel = page.getByTestId('keyword-groups');
  await panel.getByTestId('group-row').first().waitFor();
  assert.match(await page.getByTestId('groups-timing').textContent(), new RegExp(`^grouped ${KEYWORDS.length} keywords in \\d+ ms$`));
  const groups = await panel.getByTestId('group-row').evaluateAll((rows) => rows.map((r) => ({
    kind: r.dataset.kind,
    label: r.dataset.label,
    members: r.querySelector('[data-testid="group-members"]').textContent.split(', '),
    size: Number(r.querySelector('[data-col="size"]').textContent.replace(/,/g, '')),
    volume: Number(r.querySelector('[data-col="volume"]').textContent.replace(/,/g, '')),
  })));
  assert.ok(groups.length > 0);
  for (const g of groups) {
    assert.equal(g.members.length, g.size, `${g.label}: size is its keywords`);
    assert.equal(g.volume, g.members.reduce((s, k) => s + volumes.get(k), 0), `${g.label}: summed volume`);
    for (const k of g.members) assert.ok(volumes.has(k), `${k} is a row`);
  }
  // Ordered by size, then volume.
  for (let i = 1; i < groups.length; i++) {
    const [a, b] = [groups[i - 1], groups[i]];
    assert.ok(a.size > b.size || (a.size === b.size && a.volume >= b.volume), `${a.label} before ${b.label}`);
  }
  const group = (kind, label) => groups.find((g) => g.kind === kind && g.label === label);
  const having = (pred) => KEYWORDS.filter(pred).sort();
  // A question starts with its question word; "will" only before a subject ("will it").
  assert.deepEqual(group('question', 'how').members.sort(), having((k) => words(k)[0] === 'how'));
  assert.deepEqual(group('question', 'what').members.sort(), having((k) => words(k)[0] === 'what'));
  assert.deepEqual(group('question', 'will').members, ['will it rain at the marathon']);
  assert.deepEqual(group('modifier', 'best').members.sort(), having((k) => words(k).includes('best')));
  assert.deepEqual(group('modifier', 'vs').members.sort(), having((k) => words(k).includes('vs')));
  assert.deepEqual(group('modifier', 'near me').members.sort(), having((k) => / near me$/.test(k)));
  assert.deepEqual(group('modifier', 'year').members, ['best marathon watch 2025']);
  // Topics: "running shoes" holds every keyword with those two words in a row (once "vs" is
  // out, "marathon shoes vs running shoes" has it too); "shoes" has the same keywords, so it is
  // shown once, under the longer phrase.
  // "running shoe" and "men's running shoes" are in it too: singular and plural are one topic,
  // and "men's" is one word (no topic "s").
  assert.deepEqual(group('topic', 'running shoes').members.sort(), having((k) => /running shoes?\b/.test(k)));
  assert.equal(group('topic', 'shoes'), undefined);
  assert.equal(group('topic', 's'), undefined);
  assert.ok(group('topic', 'marathon').size >= 4);

  // Kind and text filters.
  await page.getByTestId('group-kind').selectOption('question');
  assert.deepEqual(await panel.getByTestId('group-row').evaluateAll((rows) => [...new Set(rows.map((r) => r.dataset.kind))]), ['question']);
  await page.getByTestId('group-kind').selectOption('');
  await page.getByTestId('group-filter').fill('marathon');
  const labels = await panel.getByTestId('group-row').evaluateAll((rows) => rows.map((r) => r.dataset.label));
  assert.ok(labels.length > 0 && labels.every((l) => l.includes('marathon')));
  await shot(page, 'groups');

  // CSV of the shown groups, with their keywords.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('groups-csv').click()]);
  const csv = parseCsv(await readFile(await dl.path(), 'utf8'));
  assert.deepEqual(csv[0], ['Kind', 'Group', 'Keywords', 'Volume', 'Members']);
  assert.deepEqual(csv.slice(1).map((r) => r[1]), labels);
  for (const r of csv.slice(1)) {
    const g = group(r[0], r[1]);
    assert.equal(Number(r[2]), g.size);
    assert.equal(Number(r[3]), g.volume);
    assert.deepEqual(r[4].split('; '), g.members);
  }

  // Ticked groups go to a list (their keywords once each).
  await page.getByTestId('group-filter').fill('');
  await panel.getByLabel('Select group how', { exact: true }).check();
  await panel.getByLabel('Select group best', { exact: true }).check();
  const union = [...new Set([...group('question', 'how').members, ...group('modifier', 'best').members])];
  await panel.getByTestId('groups-list-name').fill('Groups');
  await panel.getByTestId('groups-add-to-list').click();
  assert.match(await panel.getByTestId('groups-list-status').textContent(), new RegExp(`Added ${union.length} keywords to “Groups”`));
  await page.getByTestId('nav-lists').click();
  await page.locator('[data-testid="list"][data-name="Groups"]').waitFor();
  const listed = await page.locator('[data-testid="list"][data-name="Groups"] [data-testid="list-keyword"]').allTextContents();
  assert.deepEqual(listed.sort(), union.sort());
  assert.deepEqual(page.errors, []);
});
