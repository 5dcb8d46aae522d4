//! Cannibalisation (Semrush Position Tracking's report): keywords for which two or more URLs
//! of one domain rank, so its pages compete with each other.
//!
//! Rules (our decisions; the page shows [`RULE`]):
//! - Keywords are compared lower-cased; ranks of 0 or less are no ranking.
//! - A URL listed twice for a keyword counts once, at its best rank; URLs compare as the
//!   service writes them (as top pages group them).
//! - Every rank counts (1–100, what the service reports): Semrush counts its tracked top 100.
//! - **Triage** (which to fix first): a keyword with two or more of its URLs in the top
//!   [`TRIAGE_TOP`] comes first (two pages that both draw clicks split them: Semrush's report
//!   and Ahrefs' guide start there); past it, a second URL at #60 takes little from the first.
//!   Then by volume (the highest reported), then keyword; each keyword's URLs by rank.

use std::collections::HashMap;

use super::top_pages::Rows;

/// Two URLs at or above this rank put a keyword first.
pub const TRIAGE_TOP: i64 = 20;

/// The rule as shown on the page and in reports.
pub const RULE: &str = "Cannibalised: keywords for which two or more different URLs of the \
domain rank (any position the service reports; keywords compared lower-cased, each URL once at \
its best rank). Triage: keywords with two or more URLs in the top 20 first (both pages draw \
clicks and split them), then by search volume; each keyword's URLs by rank.";

/// One cannibalised keyword.
#[derive(Clone, Debug, PartialEq)]
pub struct Cannibalised {
    /// The keyword as first written.
    pub keyword: String,
    /// The highest volume reported for it.
    pub volume: i64,
    /// Its URLs with their best rank, best first (two or more).
    pub urls: Vec<(String, i64)>,
    /// Two or more of its URLs rank in the top [`TRIAGE_TOP`]: fix first.
    pub top: bool,
}

/// The cannibalised keywords of a domain's ranked keywords.
pub fn cannibalised(rows: Rows) -> Vec<Cannibalised> {
    let n = rows.len();
    // First pass: the first URL of each keyword; only a keyword seen with a second URL
    // gets an entry (most keywords have one URL, so most rows allocate nothing).
    let mut first: HashMap<&str, (usize, bool)> = HashMap::with_capacity(n);
    for i in 0..n {
        if rows.rank[i] <= 0 {
            continue;
        }
        first
            .entry(rows.lower[i].as_str())
            .and_modify(|(f, many)| *many |= rows.url[*f] != rows.url[i])
            .or_insert((i, false));
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<Cannibalised> = Vec::new();
    for i in 0..n {
        let lower = rows.lower[i].as_str();
        if rows.rank[i] <= 0 || !first.get(lower).is_some_and(|(_, many)| *many) {
            continue;
        }
        let at = *index.entry(lower).or_insert_with(|| {
            out.push(Cannibalised {
                keyword: rows.keyword[i].clone(),
                volume: 0,
                urls: Vec::new(),
                top: false,
            });
            out.len() - 1
        });
        let c = &mut out[at];
        c.volume = c.volume.max(rows.volume[i]);
        let (url, rank) = (&rows.url[i], rows.rank[i]);
        match c.urls.iter_mut().find(|(u, _)| u == url) {
            Some(slot) => slot.1 = slot.1.min(rank),
            None => c.urls.push((url.clone(), rank)),
        }
    }
    for c in &mut out {
        crate::sort::sort_by(&mut c.urls, |a, b| {
            a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0))
        });
        c.top = c.urls.iter().filter(|(_, r)| *r <= TRIAGE_TOP).count() >= 2;
    }
    crate::sort::sort_by(&mut out, |a, b| {
        b.top
            .cmp(&a.top)
            .then(b.volume.cmp(&a.volume))
            .then_with(|| a.keyword.to_lowercase().cmp(&b.keyword.to_lowercase()))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::top_pages::fixtures::Cols;

    #[test]
    fn two_urls_for_one_keyword_are_cannibalised() {
        let data = Cols::new(&[
            ("Wool Socks", 500, 7, "https://a.com/socks"),
            ("wool socks", 500, 3, "https://a.com/guides/wool"),
            ("wool socks", 500, 9, "https://a.com/socks"),
            ("hats", 900, 1, "https://a.com/hats"),
            ("hats", 900, 1, "https://a.com/hats"),
            ("caps", 2000, 4, "https://a.com/caps"),
            ("caps", 2000, 0, "https://a.com/other"),
            ("boots", 100, 2, "https://a.com/b1"),
            ("boots", 100, 5, "https://a.com/b2"),
            ("boots", 100, 8, "https://a.com/b3"),
        ]);
        let c = cannibalised(data.rows());
        assert_eq!(
            c.len(),
            2,
            "one URL twice, or a second URL at rank 0, is none"
        );
        assert_eq!(
            c[0],
            Cannibalised {
                keyword: "Wool Socks".into(),
                volume: 500,
                urls: vec![
                    ("https://a.com/guides/wool".into(), 3),
                    ("https://a.com/socks".into(), 7)
                ],
                top: true,
            }
        );
        assert_eq!(c[1].keyword, "boots");
        assert_eq!(c[1].urls.len(), 3);
        assert!(cannibalised(Rows::default()).is_empty());
    }

    #[test]
    fn pairs_both_in_the_top_20_come_first() {
        // The big keyword's second URL is at #64: it takes little; the small keyword's two
        // pages at #8 and #12 split its clicks, so it is first.
        let data = Cols::new(&[
            ("crm", 90_000, 3, "https://a.com/crm"),
            ("crm", 90_000, 64, "https://a.com/blog/crm"),
            ("crm for startups", 300, 8, "https://a.com/startups"),
            ("crm for startups", 300, 12, "https://a.com/crm"),
        ]);
        let c = cannibalised(data.rows());
        let order: Vec<(&str, bool)> = c.iter().map(|c| (c.keyword.as_str(), c.top)).collect();
        assert_eq!(order, [("crm for startups", true), ("crm", false)]);
        assert!(RULE.contains("top 20 first"));
    }
}
