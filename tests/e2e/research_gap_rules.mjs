// The content gap's rules (app/src/research/gap.rs and brand.rs), written again here from
// their statement on the page, for the e2e tests that recompute the lists from the sandbox's
// records (gap.test.mjs, research_gap.test.mjs, analyses_gap.test.mjs), and their set-up: the
// records from the sandbox and the tabs' counts. Not a test file itself.

import assert from 'node:assert/strict';
import { SANDBOX_URL, SANDBOX_KEY } from './helpers.mjs';

/** The lists' ids in the page's order (Semrush's Keyword Gap, then striking distance). */
export const LISTS = ['shared', 'missing', 'weak', 'strong', 'untapped', 'unique', 'striking'];

/** Brand-term words (app/src/research/brand.rs, from its statement): lower case, accents
 * folded, apostrophes dropped, split at anything else not a letter or digit. */
export function brandWords(text) {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae').replace(/œ/g, 'oe').replace(/ß/g, 'ss').replace(/þ/g, 'th')
    .replace(/ð/g, 'd').replace(/ø/g, 'o').replace(/ł/g, 'l').replace(/đ/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’ʼ‘`´]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** True when some consecutive words of `keyword`, written together, are a term. */
export function branded(keyword, terms) {
  const w = brandWords(keyword);
  for (let i = 0; i < w.length; i++) {
    let run = '';
    for (let j = i; j < w.length; j++) {
      run += w[j];
      if (terms.includes(run)) return true;
    }
  }
  return false;
}

/** The page's rules (app/src/research/gap.rs), written again from their statement: every
 * domain loaded, a competitor's ranks beyond `top` are no rank, yours count to #100. */
export function expectedGap(perDomain, brandText, { top = 20, striking = [11, 20] } = {}) {
  const terms = [...new Set(brandText.split(/[,\n]/).map((t) => brandWords(t).join('')).filter((t) => [...t].length >= 2))];
  const rows = new Map();
  perDomain.forEach((records, slot) => {
    for (const r of records) {
      if (!(r.rank > 0 && r.rank <= (slot === 0 ? 100 : top))) continue;
      const lower = r.keyword.toLowerCase();
      if (branded(lower, terms)) continue;
      let row = rows.get(lower);
      if (!row) rows.set(lower, (row = { keyword: r.keyword, lower, volume: -Infinity, competition: NaN, ranks: [] }));
      if (r.search_volume > row.volume) {
        row.volume = r.search_volume;
        row.competition = r.competition / 100;
      }
      if (!(row.ranks[slot] <= r.rank)) row.ranks[slot] = r.rank;
    }
  });
  const competitors = perDomain.length - 1;
  const lists = Object.fromEntries(LISTS.map((l) => [l, []]));
  for (const row of rows.values()) {
    const mine = row.ranks[0];
    const theirs = row.ranks.slice(1).filter((r) => r !== undefined);
    row.best = theirs.length ? Math.min(...theirs) : undefined;
    row.rivals = theirs.length;
    const every = competitors > 0 && theirs.length === competitors;
    if (mine !== undefined) {
      if (every) {
        lists.shared.push(row);
        if (mine > Math.max(...theirs)) lists.weak.push(row);
        if (mine < Math.min(...theirs)) lists.strong.push(row);
      }
      if (competitors > 0 && theirs.length === 0) lists.unique.push(row);
      if (mine >= striking[0] && mine <= striking[1]) lists.striking.push(row);
    } else {
      if (every) lists.missing.push(row);
      if (theirs.length > 0) lists.untapped.push(row);
    }
  }
  const order = (a, b) => b.volume - a.volume || (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0);
  for (const l of Object.values(lists)) l.sort(order);
  return lists;
}

/** The sandbox's ranked keywords of `domain` (what the page buys), straight from the service. */
export async function rankedKeywords(domain) {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set by cargo xtask e2e');
  const r = await fetch(`${SANDBOX_URL}/v1/ranked-keywords/domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: SANDBOX_KEY, domain }),
  });
  assert.equal(r.status, 200);
  return r.json();
}

/** The count a gap list's tab shows (`gap-tab-<id>`). */
export const tabCount = async (page, id) =>
  Number((await page.getByTestId(`gap-tab-${id}`).textContent()).replace(/[^0-9]/g, ''));

/** The click-through rate (0–1) of a position by the default curve as Settings states it
 * (app/src/research/ctr.rs: SISTRIX 2020 for #1–10, 0.5 % for #11–20, none past #20). */
export function ctr(rank) {
  const curve = [28.5, 15.7, 11, 8, 7.2, 5.1, 4, 3.2, 2.8, 2.5];
  if (rank >= 1 && rank <= 10) return curve[rank - 1] / 100;
  return rank >= 11 && rank <= 20 ? 0.005 : 0;
}

/** The groups' question rule (app/src/research/groups.rs), from its statement: the first word
 * asks (who, what, …), or an auxiliary (can, is, will, …) is followed by a pronoun or
 * determiner. */
export function isQuestion(keyword) {
  const w = keyword.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  const wh = ['who', 'what', 'when', 'where', 'why', 'how', 'which'];
  const aux = ['can', 'could', 'does', 'do', 'did', 'is', 'are', 'was', 'should', 'will', 'would'];
  const subjects = ['i', 'you', 'we', 'they', 'he', 'she', 'it', 'there', 'a', 'an', 'the', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those'];
  return wh.includes(w[0]) || (aux.includes(w[0]) && subjects.includes(w[1]));
}
