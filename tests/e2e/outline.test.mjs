// The SEO outline (issue 43, item 6): headings are shown as clean text (no markup, no style
// text, entities decoded, white space collapsed), the text as scraped stays in the heading's
// tooltip and in the CSV export, and the positions no page holds are named. The outline is
// bought in demo mode; the sandbox server gives the same body for the same keyword, and the
// test reads the raw headings from it (no fact of the synthetic data is written here).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { e2e, parseCsv, shotEl, SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

const app = e2e();

/** The outline the service gives for `keyword`. */
async function outline(keyword) {
  const res = await fetch(`${SANDBOX_URL}/v1/outline/seo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, keyword }),
  });
  return res.json();
}

// What clean text never holds.
const TAG = /<\/?[a-z!][^>]*>/i;
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/i;
const CSS_RULE = /\{[^}]*[a-z-]+\s*:[^}]*\}/i;
const INVISIBLE = /[\u200b\u200c\u200d\u2060\ufeff\u00a0]/;

test('outline: clean headings, the text as scraped in the tooltip and the CSV, skipped positions named', async () => {
  // The first keyword (of a few) whose outline has markup in a heading and a skipped position.
  let keyword;
  let pages;
  for (const k of ['running shoes', 'trail running shoes', 'running shoes for men', 'hiking boots', 'yoga mat', 'tennis racket']) {
    const p = await outline(k);
    const dirty = p.some((pg) => pg.headings.some((h) => TAG.test(h.text) || ENTITY.test(h.text) || CSS_RULE.test(h.text)));
    const ranks = p.map((pg) => pg.rank);
    const skips = ranks.some((r, i) => r !== i + 1);
    if (dirty && skips) {
      keyword = k;
      pages = p;
      break;
    }
  }
  assert.ok(keyword, 'a keyword whose outline has markup and a skipped position');

  const page = await app.open(`/keyword?kw=${encodeURIComponent(keyword)}&cc=US`);
  const section = page.getByTestId('section-outline');
  await section.locator('button[data-testid="outline"]').click();
  await section.locator('ol[data-testid="outline"]').waitFor();

  const shown = await section.locator('ol[data-testid="outline"] > li').evaluateAll((lis) => lis.map((li) => ({
    rank: li.querySelector('.rank').textContent,
    headings: [...li.querySelectorAll('ul.tree > li')].map((h) => ({
      text: h.querySelector('[data-testid="heading-text"]')?.textContent ?? '',
      title: h.getAttribute('title'),
    })),
  })));
  assert.equal(shown.length, pages.length);
  let cleaned = 0;
  pages.forEach((p, i) => {
    assert.equal(shown[i].rank, `#${p.rank}`);
    assert.equal(shown[i].headings.length, p.headings.length, `headings of #${p.rank}`);
    p.headings.forEach((h, j) => {
      const { text, title } = shown[i].headings[j];
      for (const re of [TAG, ENTITY, CSS_RULE, INVISIBLE]) assert.ok(!re.test(text), `#${p.rank} heading ${j}: ${JSON.stringify(text)} has ${re}`);
      assert.equal(text, text.trim().replace(/\s+/g, ' '), 'white space collapsed');
      if (text === h.text) {
        assert.equal(title, null, 'no tooltip when nothing was cleaned');
      } else {
        cleaned += 1;
        assert.equal(title, `As scraped: ${h.text}`, 'the text as scraped in the tooltip');
      }
      // Clean text keeps the words of the heading: the plain words of the raw text, in order.
      const words = h.text.replace(/<[^>]*>|\{[^}]*\}|&[a-z#0-9]+;|[.@][\w-]+|\(.*?\)/gi, ' ').match(/[A-Za-z]{3,}/g) ?? [];
      let at = 0;
      for (const w of words) {
        const k = text.indexOf(w, at);
        assert.ok(k >= 0, `"${w}" of ${JSON.stringify(h.text)} is in ${JSON.stringify(text)}`);
        at = k + w.length;
      }
    });
  });
  assert.ok(cleaned > 0, 'some headings were cleaned');

  // The positions no page holds, named in one line.
  const ranks = pages.map((p) => p.rank);
  const skipped = [];
  for (let r = 1; r < Math.max(...ranks); r++) if (!ranks.includes(r)) skipped.push(r);
  const note = await section.getByTestId('outline-skipped').textContent();
  const list = skipped.length === 1 ? `Position ${skipped[0]} is` : `Positions ${skipped.slice(0, -1).join(', ')} and ${skipped.at(-1)} are`;
  assert.ok(note.startsWith(`${list} not in the outline`), note);
  assert.match(note, /not pages/);

  // The CSV: one line per heading, the clean text shown and the text as scraped.
  const [download] = await Promise.all([page.waitForEvent('download'), section.getByTestId('outline-csv').click()]);
  assert.match(download.suggestedFilename(), /seo-outline-.+\.csv$/);
  const csv = parseCsv(await readFile(await download.path(), 'utf8'));
  assert.deepEqual(csv[0], ['Position', 'URL', 'Tag', 'Heading', 'Heading as scraped']);
  const expected = pages.flatMap((p, i) => p.headings.map((h, j) => [String(p.rank), p.url, h.type, shown[i].headings[j].text, h.text]));
  // Text cells pass the spreadsheet formula guard (a leading quote before = + - @).
  const unguard = (s) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);
  assert.deepEqual(csv.slice(1).map((r) => r.map(unguard)), expected);

  await shotEl(section, 'outline-clean');
});
