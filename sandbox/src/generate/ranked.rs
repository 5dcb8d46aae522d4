//! Ranked keywords: a domain's rank distribution (`ranked-keywords/metrics`) and the keywords
//! it ranks for (`ranked-keywords/domain`), consistent with each other, about the pages that
//! rank, and moving a little from one day to the next.
//!
//! - **Ranks follow the buckets**: a domain's shares of the rank ranges are its own (a
//!   typical site's, about 8 % in the top 10, varied per domain) and the same in both
//!   operations. The metrics' counts for the requested domain add up to the number of rows
//!   `ranked-keywords/domain` returns; the rows' ranks are drawn to those counts.
//! - **Pages about their keywords**: every head term the domain covers has a hub page
//!   (`/shop/wool-socks`, `/guides/credit-score`) and articles named after queries of that
//!   head (`/reviews/best-wool-socks-for-women`); a keyword ranks with a page of its head.
//!   `total_backlinks` and `total_referring_domains` are the ranking URL's, as
//!   `backlink/metrics` reports them.
//! - **Brand queries**: about 1 % of the rows (at least one, at most about 80) are the
//!   domain's brand (`example login`, `example running shoes review`), ranking at the top
//!   with the home page, the login page, the head's hub.
//! - **Cannibalisation**: about 3 % of the rows repeat a keyword with a second page of the
//!   same head. The spec keys nothing per keyword in this response (it is an array of
//!   records, one per keyword and URL), so a keyword ranking with two URLs is two records, as
//!   rank trackers list it.
//! - **Daily movement**: the domain has a twelfth more candidate rows than it returns; each
//!   day (the sandbox's "today") the weakest by a score that changes every 3–12 days per row
//!   are left out, and each row's rank moves by a small step that changes every 2–9 days.
//!   From one day to the next about a tenth of the rows move up or down and about 1 % are
//!   new or lost; the same day always gives the same body.

use std::collections::HashSet;

use super::domains::url_links;
use super::queries::{long_query, query};
use super::universe::{
    brand_name, domain_heads, domain_topic, head_keyword_profile, keyword_profile, FOCUSED_ROWS,
};
use super::world::topical_name;
use super::{made_up_domain, ranked_keywords_size, round_to, slug};
use crate::date::Date;
use crate::json::{arr, Obj};
use crate::rng::{mix, FnvBuild, Rng};
use crate::words::*;

/// The rank ranges of the metrics, (first, last). 61–70 has no field but counts in the total.
const RANGES: [(i64, i64); 12] = [
    (1, 1),
    (2, 3),
    (4, 10),
    (11, 20),
    (21, 30),
    (31, 40),
    (41, 50),
    (51, 60),
    (61, 70),
    (71, 80),
    (81, 90),
    (91, 100),
];

/// The metrics' field of each range ("" for 61–70, which has none).
const RANGE_FIELDS: [&str; 12] = [
    "position_1",
    "position_2_3",
    "position_4_10",
    "position_11_20",
    "position_21_30",
    "position_31_40",
    "position_41_50",
    "position_51_60",
    "",
    "position_71_80",
    "position_81_90",
    "position_91_100",
];

/// Share of the candidate rows beyond those returned: the ones that come and go by day.
const SPARE_ROWS: usize = 12;

/// Chance that a row repeats an earlier keyword with a second page (cannibalisation).
const CANNIBAL_CHANCE: f64 = 0.03;

/// How much a keyword's volume weighs on its rank (see its use): +0.8 for a site of up to
/// 1,000 keywords (its best ranks go to its long tail), −0.3 from 50,000 (a large site ranks
/// for big keywords too), 0 between.
fn rank_tilt(rows: usize) -> f64 {
    match rows {
        0..=1_000 => 0.8,
        50_000.. => -0.3,
        _ => 0.0,
    }
}

/// A domain's share of ranked keywords in each of [`RANGES`]: a typical site's (few in the
/// top 10, most beyond page two), each share varied ×0.6..1.4 per domain; the same for the
/// domain wherever it appears.
pub(super) fn rank_shares(domain: &str) -> [f64; 12] {
    let weights = [
        1.0, 2.0, 7.0, 11.0, 11.0, 11.0, 11.0, 11.0, 12.0, 12.0, 11.0, 10.0,
    ];
    let mut rng = Rng::from_parts(&["rank-shares", &domain.to_ascii_lowercase()]);
    let mut shares = weights.map(|w| w * rng.float(0.6, 1.4));
    let sum: f64 = shares.iter().sum();
    for s in &mut shares {
        *s /= sum;
    }
    shares
}

/// `total` split by `shares`, largest remainders first: the counts add up to `total`.
fn split(total: usize, shares: &[f64; 12]) -> [usize; 12] {
    let exact = shares.map(|s| s * total as f64);
    let mut counts = exact.map(|e| e.floor() as usize);
    let mut rest = exact.map(|e| e - e.floor());
    // At most 12 short: pick the largest remainder each time (no sort in the worker's wasm).
    for _ in 0..total.saturating_sub(counts.iter().sum()).min(12) {
        let mut best = 0;
        for i in 1..12 {
            if rest[i] > rest[best] {
                best = i;
            }
        }
        counts[best] += 1;
        rest[best] = -1.0;
    }
    counts
}

fn write_rk_metrics(o: &mut Obj<'_>, domain: &str, total: usize) {
    let counts = split(total, &rank_shares(domain));
    o.s("domain", domain)
        .i("total_ranked_keywords", total as i64);
    for (name, c) in RANGE_FIELDS.iter().zip(counts) {
        if !name.is_empty() {
            o.i(name, c as i64);
        }
    }
}

/// `ranked-keywords/metrics`: the requested domain first, then 8..=30 competing domains by
/// total ranked keywords descending, most of them sites of its topic ("runhub.com" beside
/// a running site). Every domain's total is the number of rows `ranked-keywords/domain`
/// returns for it.
pub fn ranked_keywords_metrics(domain: &str) -> String {
    let mut rng = Rng::from_parts(&["rkm", &domain.to_ascii_lowercase()]);
    let topic = domain_topic(domain);
    let mut others: Vec<(String, i64)> = (0..rng.range(8, 30))
        .map(|_| {
            let d = if rng.chance(0.8) {
                topical_name(&mut rng, topic)
            } else {
                made_up_domain(&mut rng)
            };
            let total = ranked_keywords_size(&d) as i64;
            (d, total)
        })
        .collect();
    others.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    others.dedup_by(|a, b| a.0 == b.0);
    let own = ranked_keywords_size(domain);
    let mut out = String::with_capacity(others.len() * 330 + 330);
    arr(&mut out, |a| {
        a.o(|o| write_rk_metrics(o, domain, own));
        for (d, total) in &others {
            if !d.eq_ignore_ascii_case(domain) {
                a.o(|o| write_rk_metrics(o, d, *total as usize));
            }
        }
    });
    out
}

/// A page of the domain: URL and its links.
struct Page {
    url: String,
    backlinks: i64,
    refdomains: i64,
}

/// A candidate row: what stays the same every day, and the seeds of what moves.
struct Row {
    keyword: u32,
    page: u32,
    base_rank: i64,
    brand: bool,
    salt: u64,
}

/// A keyword of the domain with its figures (shared by a keyword's rows).
struct Keyword {
    text: String,
    volume: i64,
    competition: f64,
}

/// How many of a domain's keywords a head of this kind carries, relatively: as many as its
/// kind has queries (a product has thousands, "shin splints" a few dozen), so a large
/// domain's keywords stay distinct and its long tail is mostly products.
fn kind_weight(kind: Kind) -> u32 {
    match kind {
        Kind::Gear | Kind::Wearable => 8,
        Kind::Software | Kind::Service => 4,
        Kind::Consumable | Kind::Recipe => 3,
        Kind::Activity => 2,
        Kind::Concept => 1,
    }
}

/// An index into `cumulative` (running sums of weights), drawn by weight.
fn pick_weighted(rng: &mut Rng, cumulative: &[u32]) -> usize {
    let total = cumulative.last().copied().unwrap_or(0);
    let x = rng.below(u64::from(total)) as u32;
    cumulative
        .partition_point(|c| *c <= x)
        .min(cumulative.len().saturating_sub(1))
}

/// The hub page's folder of a kind of head.
fn hub_dir(kind: Kind) -> &'static str {
    match kind {
        Kind::Gear | Kind::Wearable | Kind::Consumable => "shop",
        Kind::Software | Kind::Service => "compare",
        Kind::Recipe => "recipes",
        Kind::Activity | Kind::Concept => "guides",
    }
}

/// An article's folder: reviews for the buying kinds, else the blog or guides.
fn article_dir(kind: Kind, i: usize) -> &'static str {
    match (kind, i % 3) {
        (Kind::Gear | Kind::Wearable | Kind::Consumable | Kind::Software | Kind::Service, 0) => {
            "reviews"
        }
        (_, 1) => "guides",
        _ => "blog",
    }
}

/// `ranked-keywords/domain` with exactly `n` records, as of day 0 of the daily movement
/// (1970-01-01): for benches and sized bodies; the service answers with
/// [`ranked_keywords_domain_on`] its "today".
pub fn ranked_keywords_domain(domain: &str, n: usize, seed: u64) -> String {
    ranked_keywords_domain_on(domain, n, seed, Date::from_days(0))
}

/// `ranked-keywords/domain` with exactly `n` records as of `today`, by search volume
/// descending (then rank). Keywords come from the domain's head terms (see
/// [`super::universe`]) and its brand; volumes are the keywords' own (US); `seed` varies the
/// rest. URLs are on `domain`. See the module's notes for ranks, pages and movement.
pub fn ranked_keywords_domain_on(domain: &str, n: usize, seed: u64, today: Date) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_0001);
    let heads = domain_heads(domain, n);
    let host = domain.to_ascii_lowercase();
    let root = format!(
        "https://{}{host}",
        if rng.chance(0.5) { "www." } else { "" }
    );
    let all: Vec<(&Head, &[Head])> = heads.main.iter().chain(&heads.side).copied().collect();
    // A generalist (more rows than its topic holds) spreads over its side heads.
    let side_share = if n <= FOCUSED_ROWS {
        0.15
    } else {
        1.0 - FOCUSED_ROWS as f64 * 0.85 / n as f64
    };
    let (n_main, n_side) = (heads.main.len(), heads.side.len());
    let weights = |hs: &[(&Head, &[Head])]| -> Vec<u32> {
        let mut sum = 0;
        hs.iter()
            .map(|(h, _)| {
                sum += kind_weight(h.kind);
                sum
            })
            .collect()
    };
    let (main_weights, side_weights) = (weights(&heads.main), weights(&heads.side));

    // Pages: the home page, a hub per head, then articles on queries of the heads.
    let mut pages: Vec<Page> = Vec::with_capacity((n / 6).clamp(1, 4_000) + 16);
    let mut urls: HashSet<String> = HashSet::new();
    let mut head_pages: Vec<Vec<u32>> = vec![Vec::new(); all.len()];
    let mut add_page = |pages: &mut Vec<Page>, url: String| -> Option<u32> {
        if !urls.insert(url.clone()) {
            return None;
        }
        let (backlinks, refdomains) = url_links(&url);
        pages.push(Page {
            url,
            backlinks,
            refdomains,
        });
        Some(pages.len() as u32 - 1)
    };
    add_page(&mut pages, format!("{root}/"));
    let n_pages = (n / 6).clamp(1, 4_000);
    for (i, (head, _)) in all.iter().enumerate() {
        if pages.len() >= n_pages {
            break;
        }
        let url = format!("{root}/{}/{}", hub_dir(head.kind), slug(head.term));
        head_pages[i].extend(add_page(&mut pages, url));
    }
    let mut tries = 0;
    while pages.len() < n_pages && tries < n_pages * 2 {
        tries += 1;
        let i = if tries % 5 == 4 && n_side > 0 {
            n_main + rng.below(n_side as u64) as usize
        } else {
            rng.below(n_main as u64) as usize
        };
        let (head, theme) = all[i];
        let q = query(&mut rng, head, theme);
        let url = format!("{root}/{}/{}", article_dir(head.kind, tries), slug(&q));
        head_pages[i].extend(add_page(&mut pages, url));
    }

    // Candidate rows: brand queries first, then queries of the heads, a few repeated with a
    // second page of their head.
    let pool = n + n / SPARE_ROWS;
    let mut keywords: Vec<Keyword> = Vec::with_capacity(pool);
    let mut rows: Vec<Row> = Vec::with_capacity(pool);
    let mut seen: HashSet<u64, FnvBuild> = HashSet::with_capacity_and_hasher(pool, FnvBuild);
    let push_keyword = |keywords: &mut Vec<Keyword>, text: String, head| {
        let profile = match head {
            Some(head) => head_keyword_profile(&text, head),
            None => keyword_profile(&text),
        };
        // The keyword's own competition (as search volume reports it, 0–1 to 2 decimals) on
        // this operation's 0–100 scale: one keyword, one competition in every operation.
        let competition = (round_to(profile.competition, 2) * 100.0).round();
        keywords.push(Keyword {
            volume: super::bucket(profile.base),
            competition,
            text,
        });
        keywords.len() as u32 - 1
    };
    for (text, page) in brand_queries(domain, &all, &head_pages, pool.div_ceil(100)) {
        let page = match page {
            Ok(p) => p,
            Err(path) => {
                let url = format!("{root}{path}");
                let known = pages.iter().position(|p| p.url == url).map(|p| p as u32);
                known.or_else(|| add_page(&mut pages, url)).unwrap_or(0)
            }
        };
        seen.insert(crate::rng::fnv1a(text.as_bytes()));
        let keyword = push_keyword(&mut keywords, text, None);
        rows.push(Row {
            keyword,
            page,
            base_rank: 0,
            brand: true,
            salt: rng.next_u64(),
        });
    }
    let brands = rows.len();
    // The head of each row after the brand rows, for repeats.
    let mut head_of: Vec<u32> = Vec::with_capacity(pool);
    // Each head of the topic itself, with its hub: a category page ranks for its category,
    // so sites of one topic share their head terms.
    for (i, (head, _)) in all.iter().enumerate().take(n_main) {
        if rows.len() >= pool || !seen.insert(crate::rng::fnv1a(head.term.as_bytes())) {
            continue;
        }
        let keyword = push_keyword(&mut keywords, head.term.to_owned(), Some(*head));
        let page = head_pages[i].first().copied().unwrap_or(0);
        let salt = rng.next_u64();
        rows.push(Row {
            keyword,
            page,
            base_rank: 0,
            brand: false,
            salt,
        });
        head_of.push(i as u32);
    }
    while rows.len() < pool {
        let salt = rng.next_u64();
        let pick_page = |rng: &mut Rng, i: usize| -> u32 {
            let own = &head_pages[i];
            match own.len() {
                0 => 0,
                // The hub gathers most of a head's keywords, as category pages do.
                _ if rng.chance(0.45) => own[0],
                len => own[rng.below(len as u64) as usize],
            }
        };
        let earlier = rows.len() - brands;
        // An earlier row's keyword again, on another page of its head (cannibalisation), when
        // the head has two pages; else a new query of a head.
        let repeat = if earlier > 10 && rng.chance(CANNIBAL_CHANCE) {
            let j = brands + rng.below(earlier as u64) as usize;
            let i = head_of[j - brands] as usize;
            let own = &head_pages[i];
            (own.len() >= 2).then(|| {
                let mut page = own[rng.below(own.len() as u64) as usize];
                if page == rows[j].page {
                    page = own[(own.iter().position(|p| *p == page).unwrap_or(0) + 1) % own.len()];
                }
                (rows[j].keyword, page, i)
            })
        } else {
            None
        };
        let (keyword, page, i) = match repeat {
            Some(repeat) => repeat,
            None => {
                let mut text = String::new();
                let mut i = 0;
                for attempt in 0..16 {
                    // The same head for a few tries: a new draw each time would favour the
                    // side heads once the topic's short queries are taken.
                    if attempt % 4 == 0 {
                        i = if !rng.chance(side_share) || n_side == 0 {
                            pick_weighted(&mut rng, &main_weights)
                        } else {
                            n_main + pick_weighted(&mut rng, &side_weights)
                        };
                    }
                    let (head, theme) = all[i];
                    // After a repeat, the longest form: short ones are few and soon all taken.
                    text = if attempt == 0 {
                        query(&mut rng, head, theme)
                    } else {
                        long_query(&mut rng, head, theme)
                    };
                    if seen.insert(crate::rng::fnv1a(text.as_bytes())) {
                        break;
                    }
                }
                let page = pick_page(&mut rng, i);
                let keyword = push_keyword(&mut keywords, text, Some(all[i].0));
                (keyword, page, i)
            }
        };
        rows.push(Row {
            keyword,
            page,
            base_rank: 0,
            brand: false,
            salt,
        });
        head_of.push(i as u32);
    }

    // Ranks to the domain's bucket counts: the best go to the brand rows, the rest shuffled.
    let shares = rank_shares(domain);
    let counts = split(rows.len(), &shares);
    let mut per_rank = [0usize; 101];
    for (&(lo, hi), &c) in RANGES.iter().zip(&counts) {
        for _ in 0..c {
            per_rank[rng.range(lo, hi) as usize] += 1;
        }
    }
    // In rank order without a sort.
    let mut ranks: Vec<i64> = Vec::with_capacity(rows.len());
    for (rank, &c) in per_rank.iter().enumerate() {
        ranks.extend(std::iter::repeat_n(rank as i64, c));
    }
    // The ranks after the brand rows go by a key: chance, tilted by the keyword's volume. A
    // small site ranks best for its long tail (big keywords are won by big sites), a large
    // one a little better for its big keywords; sizes between, by chance alone.
    let tilt = rank_tilt(n);
    let start = brands.min(rows.len());
    let mut order: Vec<(f64, usize)> = (start..rows.len())
        .map(|j| {
            let volume = keywords[rows[j].keyword as usize].volume;
            let size = ((volume as f64 + 1.0).ln() / 1e6f64.ln()).min(1.0);
            (rng.unit() + tilt * size, j)
        })
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (row, rank) in rows.iter_mut().zip(&ranks).take(start) {
        row.base_rank = *rank;
    }
    for ((_, j), rank) in order.into_iter().zip(&ranks[start..]) {
        rows[j].base_rank = *rank;
    }

    // The day: which spare rows are out, and each row's step.
    let day = today.to_days();
    let scale = RankScale::new(&shares);
    let keep = lowest_out(&rows, rows.len() - n.min(rows.len()), day);
    // (−volume, rank, row): by volume descending, then rank, then generation order.
    let mut shown: Vec<(i64, i64, u32)> = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| keep[*i])
        .map(|(i, r)| {
            (
                -keywords[r.keyword as usize].volume,
                rank_on(r, day, &scale),
                i as u32,
            )
        })
        .collect();
    shown.sort_unstable();

    let mut out = String::with_capacity(n * 190 + 2);
    arr(&mut out, |a| {
        for &(_, rank, i) in &shown {
            let row = &rows[i as usize];
            let k = &keywords[row.keyword as usize];
            let page = &pages[row.page as usize];
            a.o(|o| {
                o.s("keyword", &k.text)
                    .f("competition", k.competition)
                    .i("search_volume", k.volume)
                    .i("total_backlinks", page.backlinks)
                    .i("total_referring_domains", page.refdomains)
                    .i("rank", rank)
                    .s("url", &page.url);
            });
        }
    });
    out
}

/// A row's standing on `day`: the lowest are left out. It changes every 3–12 days (per row,
/// at its own phase), so from one day to the next only a few rows come or go. Brand rows
/// always stay. (Leaving out rows of every rank alike keeps the bucket shares.)
fn presence(row: &Row, day: i64) -> u64 {
    if row.brand {
        return u64::MAX >> 1;
    }
    let period = 3 + (row.salt >> 16) as i64 % 10;
    let epoch = (day + (row.salt >> 40) as i64 % period).div_euclid(period);
    mix(row.salt ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xa5a5) >> 1
}

/// Which rows are in on `day`: all but the `out` with the lowest [`presence`] (ties by row).
/// Scores are uniform, so a histogram of their top bits finds the cut in linear time; only
/// the rows in the cut's bin are sorted.
fn lowest_out(rows: &[Row], out: usize, day: i64) -> Vec<bool> {
    let mut keep = vec![true; rows.len()];
    if out == 0 {
        return keep;
    }
    const BITS: u32 = 12;
    let scores: Vec<u64> = rows.iter().map(|r| presence(r, day)).collect();
    let bin = |s: u64| (s >> (63 - BITS)) as usize;
    let mut bins = vec![0usize; (1 << BITS) + 1];
    for s in &scores {
        bins[bin(*s)] += 1;
    }
    let (mut cut, mut below) = (0, 0);
    while below + bins[cut] < out {
        below += bins[cut];
        cut += 1;
    }
    let mut edge: Vec<(i64, i64, u32)> = Vec::new();
    for (i, s) in scores.iter().enumerate() {
        match bin(*s).cmp(&cut) {
            std::cmp::Ordering::Less => keep[i] = false,
            std::cmp::Ordering::Equal => edge.push((*s as i64, 0, i as u32)),
            std::cmp::Ordering::Greater => {}
        }
    }
    edge.sort_unstable();
    for &(_, _, i) in edge.iter().take(out - below) {
        keep[i as usize] = false;
    }
    keep
}

/// Where ranks sit in a domain's distribution: `cum[r]` is the share of its rows ranked `r`
/// or better (each range's share spread evenly over its ranks).
struct RankScale {
    cum: [f64; 101],
}

impl RankScale {
    fn new(shares: &[f64; 12]) -> RankScale {
        let mut cum = [0.0; 101];
        for (&(lo, hi), share) in RANGES.iter().zip(shares) {
            let per = share / (hi - lo + 1) as f64;
            for r in lo..=hi {
                cum[r as usize] = cum[r as usize - 1] + per;
            }
        }
        RankScale { cum }
    }

    /// The middle of rank `r`'s share (0..1).
    fn quantile(&self, r: i64) -> f64 {
        let r = r.clamp(1, 100) as usize;
        (self.cum[r - 1] + self.cum[r]) / 2.0
    }

    /// The rank whose share holds `u`.
    fn rank_at(&self, u: f64) -> i64 {
        (self.cum[1..].partition_point(|c| *c < u) + 1).min(100) as i64
    }
}

/// A row's rank on `day`: its base rank moved by a step that changes every 2–9 days (per
/// row): none half the time, else up to 5 % of the domain's rows either way, less near the
/// top (a row at 2 seldom moves, one at 80 moves up to about 5 places). The step is taken
/// in the domain's distribution (its quantiles) and turned back at the ends, which keeps
/// every range's share: a step of so many places would drain the crowded ranges into the
/// sparse ones. Brand rows hold their place.
fn rank_on(row: &Row, day: i64, scale: &RankScale) -> i64 {
    if row.brand {
        return row.base_rank;
    }
    let period = 2 + (row.salt & 0xff) as i64 % 8;
    let epoch = (day + ((row.salt >> 8) & 0xff) as i64 % period).div_euclid(period);
    let h = mix(row.salt ^ (epoch as u64).wrapping_mul(0xd6e8_feb8_6659_fd93));
    if h % 100 < 50 {
        return row.base_rank;
    }
    let u = scale.quantile(row.base_rank);
    let reach = (u / 2.0).min(0.05);
    let step =
        reach * ((h >> 11) as f64 / (1u64 << 53) as f64) * if h & 1 == 0 { 1.0 } else { -1.0 };
    let mut moved = u + step;
    if moved < 0.0 {
        moved = -moved;
    } else if moved > 1.0 {
        moved = 2.0 - moved;
    }
    scale.rank_at(moved)
}

/// Up to `count` brand queries of `domain` (at least one when it has a brand) and where each
/// ranks: an existing page (`Ok`, the home page or a head's hub) or a path to add (`Err`).
fn brand_queries(
    domain: &str,
    heads: &[(&Head, &[Head])],
    head_pages: &[Vec<u32>],
    count: usize,
) -> Vec<(String, Result<u32, &'static str>)> {
    let Some(brand) = brand_name(domain) else {
        return Vec::new();
    };
    let host = domain.trim_start_matches("www.");
    let registrable = match host.rfind(&*brand.replace(' ', "-")) {
        Some(at) => &host[at..],
        None => host,
    };
    let mut out: Vec<(String, Result<u32, &'static str>)> = Vec::new();
    for (template, path) in BRAND_QUERIES {
        let text = template.replace("{b}", &brand).replace("{d}", registrable);
        let page = if *path == "/" { Ok(0) } else { Err(*path) };
        out.push((text, page));
    }
    // "brand head" and "brand head tail" for the domain's heads, with their hub.
    for (i, (head, _)) in heads.iter().enumerate() {
        let hub = head_pages[i].first().copied().unwrap_or(0);
        out.push((format!("{brand} {}", head.term), Ok(hub)));
        let tails = modifiers(head.kind).tails.iter();
        for tail in tails.filter(|t| !super::queries::clash(t, &brand)).take(3) {
            out.push((format!("{brand} {} {tail}", head.term), Ok(hub)));
        }
    }
    // A sized domain's brand queries come in this order, interleaving the two kinds, so a
    // small domain has both a navigational query and a product one.
    let (nav, product) = out.split_at(BRAND_QUERIES.len());
    let mut mixed: Vec<(String, Result<u32, &'static str>)> = Vec::with_capacity(out.len());
    for i in 0..nav.len().max(product.len()) {
        mixed.extend(nav.get(i).cloned());
        mixed.extend(product.get(i).cloned());
    }
    mixed.truncate(count.max(1));
    mixed
}
