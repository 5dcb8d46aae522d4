//! A domain's top pages (Ahrefs' Top pages): its ranked keywords grouped by ranking URL, and
//! the content gap grouped by the competitor URL that ranks.
//!
//! Rules (our decisions; the page shows [`RULE`]):
//! - A row with a rank of 0 or less is no ranking and is left out (as the gap does).
//! - URLs are grouped as the service writes them: a trailing slash or a query is another
//!   page, as in Ahrefs.
//! - A keyword listed twice for one URL counts once (its best rank); volumes are summed over
//!   the page's keywords.
//! - The best keyword is the page's keyword at its best rank; a tie goes to the higher
//!   volume, then the keyword first in the data. Ahrefs names the keyword bringing the most
//!   traffic, which needs a click-through curve we would have to invent; best rank is what
//!   the data states.
//! - Pages are ordered by total volume, then keyword count, then URL.

use std::collections::HashMap;

/// The rule as shown on the page and in reports.
pub const RULE: &str = "Top pages: the domain's ranked keywords grouped by ranking URL (URLs \
as the service writes them; ranks of 0 or less left out). Keywords counts each keyword once per \
URL; volume is the sum of their search volumes; the best keyword is the one at the page's best \
rank (a tie goes to the higher volume). Pages are ordered by volume, then keyword count.";

/// How [`gap_pages`] groups, after the rows it is given (one text for the page and the
/// report, which group different rows).
macro_rules! gap_grouping {
    () => {
        "grouped by the URL of their best competitor (the one at the best rank, the first \
entered on a tie); keywords no competitor ranks for have no page. Keywords counts each keyword \
once; volume is the sum of their search volumes; the best keyword is the one at the page's \
best rank, the competitor's (a tie goes to the higher volume); your own rank plays no part. \
Pages are ordered by volume, then keyword count."
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
    /// The best keyword (as written).
    pub best_keyword: String,
    /// Its rank.
    pub best_rank: i64,
}

/// Per page while grouping: the page, its keywords seen and the best row's volume.
struct Acc<'a> {
    page: Page,
    seen: HashMap<&'a str, ()>,
    best_volume: i64,
}

/// Groups `(row, url)` pairs into pages; `rank`, `volume`, `keyword` and `lower` read a row.
fn group<'a>(
    rows: impl Iterator<Item = (usize, &'a str)>,
    keyword: &'a [String],
    lower: &'a [String],
    volume: impl Fn(usize) -> i64,
    rank: impl Fn(usize) -> i64,
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
                page: Page {
                    url: url.to_string(),
                    keywords: 0,
                    volume: 0,
                    best_keyword: String::new(),
                    best_rank: i64::MAX,
                },
                seen: HashMap::new(),
                best_volume: -1,
            });
            pages.len() - 1
        });
        let acc = &mut pages[at];
        if acc.seen.insert(lower[i].as_str(), ()).is_none() {
            acc.page.keywords += 1;
            acc.page.volume = acc.page.volume.saturating_add(v);
        }
        if r < acc.page.best_rank || (r == acc.page.best_rank && v > acc.best_volume) {
            acc.page.best_rank = r;
            acc.best_volume = v;
            acc.page.best_keyword.clone_from(&keyword[i]);
        }
    }
    let mut out: Vec<Page> = pages.into_iter().map(|a| a.page).collect();
    crate::sort::sort_by(&mut out, |a, b| {
        b.volume
            .cmp(&a.volume)
            .then(b.keywords.cmp(&a.keywords))
            .then_with(|| a.url.cmp(&b.url))
    });
    out
}

/// The domain's top pages.
pub fn top_pages(rows: Rows) -> Vec<Page> {
    let n = rows.len();
    group(
        (0..n).map(|i| (i, rows.url[i].as_str())),
        rows.keyword,
        rows.lower,
        |i| rows.volume[i],
        |i| rows.rank[i],
    )
}

/// A gap list grouped by competitor URL: for each of `rows` (rows of `gap`), the best
/// competitor's ranking URL; the page's best rank is that competitor's. Your rank plays no
/// part: the pages show where the competitors' traffic lands.
pub fn gap_pages(gap: &super::gap::Gap, rows: &[u32]) -> Vec<Page> {
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
    fn pages_count_keywords_once_sum_volume_and_name_the_best_keyword() {
        let c = Cols::new(&[
            ("running shoes", 1000, 4, "https://a.com/shoes"),
            ("Running Shoes", 1000, 2, "https://a.com/shoes"),
            ("trail shoes", 300, 2, "https://a.com/shoes"),
            ("socks", 5000, 9, "https://a.com/socks"),
            ("wool socks", 50, 0, "https://a.com/socks"),
            ("hats", 10, 1, "https://a.com/hats/"),
            ("caps", 10, 1, "https://a.com/hats"),
        ]);
        let pages = top_pages(c.rows());
        let urls: Vec<&str> = pages.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://a.com/socks",
                "https://a.com/shoes",
                "https://a.com/hats",
                "https://a.com/hats/"
            ]
        );
        assert_eq!(
            pages[1],
            Page {
                url: "https://a.com/shoes".into(),
                keywords: 2,
                volume: 1300,
                best_keyword: "Running Shoes".into(),
                best_rank: 2,
            },
            "a keyword twice counts once; the tie at rank 2 goes to the higher volume"
        );
        assert_eq!(pages[0].keywords, 1, "rank 0 is no ranking");
        assert!(top_pages(Rows::default()).is_empty());
    }

    #[test]
    fn a_shorter_column_ends_the_rows() {
        let mut c = Cols::new(&[("a", 1, 1, "u"), ("b", 1, 1, "v")]);
        c.url.pop();
        assert_eq!(top_pages(c.rows()).len(), 1);
    }

    #[test]
    fn the_gap_groups_by_the_best_competitor_url() {
        use crate::research::gap::{self, Options, Ranked};
        let you = Cols::new(&[("shared", 100, 5, "https://you.com/x")]);
        let rival = Cols::new(&[
            ("shared", 100, 1, "https://rival.com/a"),
            ("only rival", 700, 3, "https://rival.com/a"),
            ("other", 40, 8, "https://rival.com/b"),
        ]);
        let comp = |c: &Cols| vec![0.0; c.keyword.len()];
        let (cy, cr) = (comp(&you), comp(&rival));
        fn ranked<'a>(c: &'a Cols, competition: &'a [f64]) -> Ranked<'a> {
            Ranked {
                keyword: &c.keyword,
                lower: &c.lower,
                volume: &c.volume,
                competition,
                rank: &c.rank,
                url: &c.url,
            }
        }
        let g = gap::compute(
            ranked(&you, &cy),
            &[Some(ranked(&rival, &cr))],
            &Options::default(),
        );
        let all: Vec<u32> = (0..g.len() as u32).collect();
        let pages = gap_pages(&g, &all);
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].url, "https://rival.com/a");
        assert_eq!((pages[0].keywords, pages[0].volume), (2, 800));
        assert_eq!(
            (pages[0].best_keyword.as_str(), pages[0].best_rank),
            ("shared", 1)
        );
        let untapped = g.list(gap::GapList::Untapped).to_vec();
        let pages = gap_pages(&g, &untapped);
        assert_eq!(pages[0].best_keyword, "only rival", "rows of one list only");
    }
}
