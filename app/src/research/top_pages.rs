//! A domain's top pages (Ahrefs' Top pages): its ranked keywords grouped by ranking URL, and
//! the content gap grouped by the competitor URL that ranks.
//!
//! Rules (our decisions; the page shows [`RULE`]):
//! - A row with a rank of 0 or less is no ranking and is left out (as the gap does).
//! - URLs are grouped as the service writes them: a trailing slash or a query is another
//!   page, as in Ahrefs.
//! - A keyword listed twice for one URL counts once (its best rank); volumes are summed over
//!   the page's keywords.
//! - **Estimated traffic** ([`super::ctr`]): each keyword's volume × the click-through rate of
//!   its rank, summed. Pages are ordered by it (Ahrefs' Top pages), then volume, keyword
//!   count, URL: a page at #62 and #75 for big keywords no longer outranks a guide at #1.
//! - The **top keyword** is the one bringing the page the most estimated traffic (Ahrefs'
//!   "top keyword"); a tie (no traffic at all, past #20) goes to the better rank, then the
//!   higher volume, then the keyword first in the data.

use std::collections::HashMap;

use super::ctr::Curve;

/// The rule as shown on the page and in reports.
pub const RULE: &str = "Top pages: the domain's ranked keywords grouped by ranking URL (URLs \
as the service writes them; ranks of 0 or less left out). Keywords counts each keyword once per \
URL (its best rank); volume is the sum of their search volumes; estimated traffic the sum of \
each keyword's volume × the click-through rate of its rank; the top keyword is the one bringing \
the most estimated traffic (a tie goes to the better rank, then the higher volume). Pages are \
ordered by estimated traffic, then volume, then keyword count.";

/// How [`gap_pages`] groups, after the rows it is given (one text for the page and the
/// report, which group different rows).
macro_rules! gap_grouping {
    () => {
        "grouped by the URL of their best competitor (the one at the best rank, the first \
entered on a tie); keywords no competitor ranks for have no page. Keywords counts each keyword \
once; volume is the sum of their search volumes; estimated traffic the sum of each keyword's \
volume × the click-through rate of the competitor's rank; the top keyword is the one bringing \
the most (a tie goes to the better rank, then the higher volume); your own rank plays no part. \
Pages are ordered by estimated traffic, then volume, then keyword count."
    };
}

/// The rule of the gap grouped by competitor URL ([`gap_pages`]), as shown on the gap page.
/// Decided: the keywords grouped are the rows shown (the list and its filters), so the pages
/// answer "where does the traffic of what I am looking at land"; a keyword no competitor
/// ranks for (Unique, some of Striking distance) has no competitor page and is left out.
pub const GAP_RULE: &str = concat!(
    "By competitor page: the keywords shown (this list, as filtered) ",
    gap_grouping!()
);

/// The same rule in the gap's report, which has every list: it groups every keyword of the
/// gap, unfiltered.
pub const GAP_REPORT_RULE: &str = concat!(
    "By competitor page: every keyword of the gap (all lists, no filter) ",
    gap_grouping!()
);

/// One domain's ranked keywords, column by column (a shorter column ends the rows early).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rows<'a> {
    /// Keywords as sent.
    pub keyword: &'a [String],
    /// Keywords lower-cased (compared).
    pub lower: &'a [String],
    /// Search volume.
    pub volume: &'a [i64],
    /// Rank.
    pub rank: &'a [i64],
    /// Ranking URL.
    pub url: &'a [String],
}

impl Rows<'_> {
    /// The number of whole rows.
    pub fn len(&self) -> usize {
        self.keyword
            .len()
            .min(self.lower.len())
            .min(self.volume.len())
            .min(self.rank.len())
            .min(self.url.len())
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One page: its URL and what ranks there.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The URL.
    pub url: String,
    /// Distinct keywords ranking there.
    pub keywords: usize,
    /// Their summed search volume.
    pub volume: i64,
    /// Their summed estimated traffic ([`super::ctr`]).
    pub traffic: f64,
    /// The top keyword (as written): the most estimated traffic.
    pub best_keyword: String,
    /// Its rank.
    pub best_rank: i64,
}

/// Per page while grouping: its URL and, per keyword, (best rank, volume, row, first seen).
struct Acc<'a> {
    url: &'a str,
    keywords: HashMap<&'a str, (i64, i64, usize, usize)>,
}

/// Groups `(row, url)` pairs into pages; `rank`, `volume`, `keyword` and `lower` read a row.
fn group<'a>(
    rows: impl Iterator<Item = (usize, &'a str)>,
    keyword: &'a [String],
    lower: &'a [String],
    volume: impl Fn(usize) -> i64,
    rank: impl Fn(usize) -> i64,
    curve: &Curve,
) -> Vec<Page> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut pages: Vec<Acc> = Vec::new();
    for (i, url) in rows {
        let (r, v) = (rank(i), volume(i).max(0));
        if r <= 0 {
            continue;
        }
        let at = *index.entry(url).or_insert_with(|| {
            pages.push(Acc {
                url,
                keywords: HashMap::new(),
            });
            pages.len() - 1
        });
        let acc = &mut pages[at];
        let seen = acc.keywords.len();
        let entry = acc
            .keywords
            .entry(lower[i].as_str())
            .or_insert((r, v, i, seen));
        if r < entry.0 || (r == entry.0 && v > entry.1) {
            *entry = (r, v, i, entry.3);
        }
    }
    let mut out: Vec<Page> = pages
        .into_iter()
        .map(|acc| page(acc, keyword, curve))
        .collect();
    crate::sort::sort_by(&mut out, |a, b| {
        b.traffic
            .total_cmp(&a.traffic)
            .then(b.volume.cmp(&a.volume))
            .then(b.keywords.cmp(&a.keywords))
            .then_with(|| a.url.cmp(&b.url))
    });
    out
}

/// A page from its keywords: volume and traffic summed, the top keyword (most traffic, then
/// best rank, higher volume, first seen).
fn page(acc: Acc, keyword: &[String], curve: &Curve) -> Page {
    let (mut volume, mut traffic) = (0i64, 0.0);
    let mut best: Option<(f64, i64, i64, usize, usize)> = None;
    // In the data's order, so the sum is the same from run to run.
    let mut rows: Vec<_> = acc.keywords.values().copied().collect();
    rows.sort_unstable_by_key(|k| k.3);
    for (r, v, i, seen) in rows {
        let t = curve.traffic(v, r);
        volume = volume.saturating_add(v);
        traffic += t;
        let better = best.is_none_or(|(bt, br, bv, _, bs)| {
            t.total_cmp(&bt)
                .then(br.cmp(&r))
                .then(v.cmp(&bv))
                .then(bs.cmp(&seen))
                .is_gt()
        });
        if better {
            best = Some((t, r, v, i, seen));
        }
    }
    let (_, best_rank, _, row, _) = best.unwrap_or_default();
    Page {
        url: acc.url.to_string(),
        keywords: acc.keywords.len(),
        volume,
        // An estimate, to a millionth of a visit: two pages whose sums differ only in their
        // last bits tie (the larger volume then goes first), and the traffic shown orders as
        // the pages do.
        traffic: (traffic * 1e6).round() / 1e6,
        best_keyword: keyword.get(row).cloned().unwrap_or_default(),
        best_rank,
    }
}

/// The domain's top pages, traffic estimated by `curve`.
pub fn top_pages(rows: Rows, curve: &Curve) -> Vec<Page> {
    let n = rows.len();
    group(
        (0..n).map(|i| (i, rows.url[i].as_str())),
        rows.keyword,
        rows.lower,
        |i| rows.volume[i],
        |i| rows.rank[i],
        curve,
    )
}

/// A gap list grouped by competitor URL: for each of `rows` (rows of `gap`), the best
/// competitor's ranking URL; the page's best rank is that competitor's. Your rank plays no
/// part: the pages show where the competitors' traffic lands.
pub fn gap_pages(gap: &super::gap::Gap, rows: &[u32], curve: &Curve) -> Vec<Page> {
    let with_url = rows.iter().filter_map(|&i| {
        let i = i as usize;
        gap.best_position(i).map(|p| (i, p.url.as_str()))
    });
    group(
        with_url,
        &gap.keyword,
        &gap.lower,
        |i| gap.volume[i],
        |i| gap.best_position(i).map_or(0, |p| p.rank),
        curve,
    )
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Ranked keywords as columns for the tests of the analyses that read [`Rows`].
    use super::Rows;

    /// Columns of (keyword, volume, rank, url).
    pub(crate) struct Cols {
        pub keyword: Vec<String>,
        pub lower: Vec<String>,
        pub volume: Vec<i64>,
        pub rank: Vec<i64>,
        pub url: Vec<String>,
    }

    impl Cols {
        /// The columns as the content gap reads one domain's ranked keywords.
        pub fn ranked<'a>(&'a self, competition: &'a [f64]) -> crate::research::gap::Ranked<'a> {
            crate::research::gap::Ranked {
                keyword: &self.keyword,
                lower: &self.lower,
                volume: &self.volume,
                competition,
                rank: &self.rank,
                url: &self.url,
            }
        }

        pub fn new(rows: &[(&str, i64, i64, &str)]) -> Cols {
            Cols {
                keyword: rows.iter().map(|r| r.0.to_string()).collect(),
                lower: rows.iter().map(|r| r.0.to_lowercase()).collect(),
                volume: rows.iter().map(|r| r.1).collect(),
                rank: rows.iter().map(|r| r.2).collect(),
                url: rows.iter().map(|r| r.3.to_string()).collect(),
            }
        }

        pub fn rows(&self) -> Rows<'_> {
            Rows {
                keyword: &self.keyword,
                lower: &self.lower,
                volume: &self.volume,
                rank: &self.rank,
                url: &self.url,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::Cols;
    use super::*;

    #[test]
    fn pages_count_keywords_once_sum_volume_and_name_the_top_keyword() {
        let c = Cols::new(&[
            ("running shoes", 1000, 4, "https://a.com/shoes"),
            ("Running Shoes", 1000, 2, "https://a.com/shoes"),
            ("trail shoes", 300, 2, "https://a.com/shoes"),
            ("socks", 5000, 9, "https://a.com/socks"),
            ("wool socks", 50, 0, "https://a.com/socks"),
            ("hats", 10, 1, "https://a.com/hats/"),
            ("caps", 10, 1, "https://a.com/hats"),
        ]);
        let pages = top_pages(c.rows(), &Curve::default());
        let urls: Vec<&str> = pages.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://a.com/shoes",
                "https://a.com/socks",
                "https://a.com/hats",
                "https://a.com/hats/"
            ]
        );
        let shoes = &pages[0];
        assert_eq!(
            (shoes.keywords, shoes.volume),
            (2, 1300),
            "a keyword twice counts once"
        );
        // 1000 × 15.7 % + 300 × 15.7 % at #2.
        assert!((shoes.traffic - 204.1).abs() < 1e-9, "{}", shoes.traffic);
        assert_eq!(
            (shoes.best_keyword.as_str(), shoes.best_rank),
            ("Running Shoes", 2),
            "the most traffic: its best rank, #2"
        );
        // 5000 × 2.8 % at #9 = 140: less than the shoes page despite more volume.
        assert!((pages[1].traffic - 140.0).abs() < 1e-9);
        assert_eq!(pages[1].keywords, 1, "rank 0 is no ranking");
        assert!(top_pages(Rows::default(), &Curve::default()).is_empty());
    }

    #[test]
    fn traffic_that_differs_only_in_a_float_sums_last_bits_ties() {
        // 1 × 28.5 % + 5 × 28.5 % is 1.7099999999999997, 6 × 28.5 % is 1.71: the same
        // estimate. Then volume ties too, and the page with more keywords goes first.
        let c = Cols::new(&[
            ("one", 1, 1, "https://a.com/two"),
            ("five", 5, 1, "https://a.com/two"),
            ("six", 6, 1, "https://a.com/one"),
        ]);
        let pages = top_pages(c.rows(), &Curve::default());
        assert_eq!(pages[0].traffic, pages[1].traffic, "the same estimate");
        let urls: Vec<&str> = pages.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(urls, ["https://a.com/two", "https://a.com/one"]);
    }

    #[test]
    fn a_guide_at_1_outranks_a_page_deep_down_for_big_keywords() {
        // The case: ordered by summed raw volume, the page at #62 and #75 for big
        // keywords came first; by estimated traffic the guide at #1 does (Ahrefs' Top pages).
        let c = Cols::new(&[
            ("crm", 90_000, 62, "https://a.com/deep"),
            ("crm software", 60_000, 75, "https://a.com/deep"),
            ("what is a crm", 2_000, 1, "https://a.com/guide"),
        ]);
        let pages = top_pages(c.rows(), &Curve::default());
        assert_eq!(pages[0].url, "https://a.com/guide");
        assert!((pages[0].traffic - 570.0).abs() < 1e-9);
        assert_eq!(pages[1].traffic, 0.0);
        assert!(RULE.contains("ordered by estimated traffic"));
    }

    #[test]
    fn the_top_keyword_brings_the_most_traffic_not_the_best_rank() {
        // At #1 for 10 searches (2.85 visits) against #3 for 5,000 (550): the second is the
        // page's top keyword although it is not its best rank.
        let c = Cols::new(&[
            ("tiny", 10, 1, "https://a.com/p"),
            ("big", 5000, 3, "https://a.com/p"),
        ]);
        let p = &top_pages(c.rows(), &Curve::default())[0];
        assert_eq!((p.best_keyword.as_str(), p.best_rank), ("big", 3));
        // No traffic at all (past #20): the better rank, then the higher volume.
        let c = Cols::new(&[
            ("x", 10, 40, "https://a.com/q"),
            ("y", 900, 30, "https://a.com/q"),
            ("z", 50, 30, "https://a.com/q"),
        ]);
        let p = &top_pages(c.rows(), &Curve::default())[0];
        assert_eq!((p.best_keyword.as_str(), p.best_rank), ("y", 30));
    }

    #[test]
    fn a_shorter_column_ends_the_rows() {
        let mut c = Cols::new(&[("a", 1, 1, "u"), ("b", 1, 1, "v")]);
        c.url.pop();
        assert_eq!(top_pages(c.rows(), &Curve::default()).len(), 1);
    }

    #[test]
    fn the_gap_groups_by_the_best_competitor_url() {
        use crate::research::gap::{self, Options};
        let you = Cols::new(&[("shared", 100, 5, "https://you.com/x")]);
        let rival = Cols::new(&[
            ("shared", 100, 1, "https://rival.com/a"),
            ("only rival", 700, 3, "https://rival.com/a"),
            ("other", 40, 8, "https://rival.com/b"),
        ]);
        let comp = |c: &Cols| vec![0.0; c.keyword.len()];
        let (cy, cr) = (comp(&you), comp(&rival));
        let g = gap::compute(
            you.ranked(&cy),
            &[Some(rival.ranked(&cr))],
            &Options::default(),
        );
        let all: Vec<u32> = (0..g.len() as u32).collect();
        let pages = gap_pages(&g, &all, &Curve::default());
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].url, "https://rival.com/a");
        assert_eq!((pages[0].keywords, pages[0].volume), (2, 800));
        // "only rival": 700 × 11 % at #3 = 77 visits, more than "shared": 100 × 28.5 % at #1.
        assert_eq!(
            (pages[0].best_keyword.as_str(), pages[0].best_rank),
            ("only rival", 3)
        );
        let untapped = g.list(gap::GapList::Untapped).to_vec();
        let pages = gap_pages(&g, &untapped, &Curve::default());
        assert_eq!(pages[0].best_keyword, "only rival", "rows of one list only");
    }
}
