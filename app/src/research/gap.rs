//! The content gap between "your domain" and one to three competitors, from their ranked
//! keywords (`ranked-keywords/domain`, bought once and reused): which keywords competitors
//! rank for and you do not, where they are ahead, where you are close to page one, and what
//! you share.
//!
//! Rules (our decisions; the page states them):
//! - Keywords are compared lower-cased; a domain listing a keyword more than once (several
//!   URLs) counts its best rank and that rank's URL. Rank 0 or less is no rank.
//! - **Missing**: at least one competitor ranks, you do not. **Weaker**: you rank and a
//!   competitor ranks better (a lower position). **Striking distance**: you rank 11–20,
//!   whatever the competitors do. **Shared**: you and at least one competitor rank. A keyword
//!   can be in several lists (weaker, striking distance and shared at once).
//! - The best competitor is the one with the best rank (the first entered on a tie).
//! - Volume is the highest reported for the keyword by any domain's records, competition the
//!   one reported with that volume.
//! - Brand terms: a keyword is left out of every list when it contains one, compared
//!   lower-cased with spaces, hyphens and dots removed on both sides (`acme` leaves out
//!   "acme shoes" and "acmeshoes"). Terms shorter than 3 characters are ignored, so "go" does
//!   not remove every "good". The list is prefilled with each domain's first label.

use std::collections::HashMap;

/// Most competitors compared with your domain.
pub const MAX_COMPETITORS: usize = 3;

/// Shortest brand term that counts (characters, after removing separators).
pub const MIN_BRAND_TERM: usize = 3;

/// The rules as shown on the page.
pub const GAP_RULES: &str = "Missing: a competitor ranks for the keyword, you do not. \
Weaker: you rank, a competitor ranks better. Striking distance: you rank 11–20. \
Shared: you and at least one competitor rank. A keyword can be in several lists; \
each domain counts its best rank.";

/// The brand-term rule as shown on the page.
pub const BRAND_RULE: &str = "Keywords containing a brand term are left out of every list \
(compared without case, spaces, hyphens or dots; terms shorter than 3 characters are ignored).";

/// One domain's ranked keywords, column by column (equal lengths; a shorter column ends the
/// rows early).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ranked<'a> {
    /// Keywords as sent.
    pub keyword: &'a [String],
    /// Keywords lower-cased.
    pub lower: &'a [String],
    /// Search volume.
    pub volume: &'a [i64],
    /// Competition.
    pub competition: &'a [f64],
    /// Rank.
    pub rank: &'a [i64],
    /// Ranking URL.
    pub url: &'a [String],
}

impl Ranked<'_> {
    fn len(&self) -> usize {
        self.keyword
            .len()
            .min(self.lower.len())
            .min(self.volume.len())
            .min(self.competition.len())
            .min(self.rank.len())
            .min(self.url.len())
    }
}

/// One list of the gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GapList {
    /// A competitor ranks, you do not.
    Missing,
    /// You rank, a competitor ranks better.
    Weaker,
    /// You rank 11–20.
    Striking,
    /// You and a competitor rank.
    Shared,
}

impl GapList {
    /// Every list, in the page's order.
    pub const ALL: [GapList; 4] = [
        GapList::Missing,
        GapList::Weaker,
        GapList::Striking,
        GapList::Shared,
    ];

    /// Its name on the page and in file names.
    pub fn label(self) -> &'static str {
        match self {
            GapList::Missing => "Missing",
            GapList::Weaker => "Weaker",
            GapList::Striking => "Striking distance",
            GapList::Shared => "Shared",
        }
    }

    /// A stable id (URL, test ids, file names).
    pub fn id(self) -> &'static str {
        match self {
            GapList::Missing => "missing",
            GapList::Weaker => "weaker",
            GapList::Striking => "striking",
            GapList::Shared => "shared",
        }
    }

    /// The list with this id.
    pub fn from_id(id: &str) -> Option<GapList> {
        GapList::ALL.into_iter().find(|l| l.id() == id)
    }
}

/// A domain's best position for a keyword: rank and the URL ranking there.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// Rank (1 is first).
    pub rank: i64,
    /// The ranking URL.
    pub url: String,
}

/// The content gap: one row per keyword ranked by any compared domain (brand terms left
/// out), and the rows of each list.
#[derive(Clone, Debug, Default)]
pub struct Gap {
    /// Keyword as first seen.
    pub keyword: Vec<String>,
    /// Lower-cased keyword.
    pub lower: Vec<String>,
    /// Highest volume reported.
    pub volume: Vec<i64>,
    /// Competition reported with that volume.
    pub competition: Vec<f64>,
    /// Your best position.
    pub yours: Vec<Option<Position>>,
    /// Each competitor's best position (`MAX_COMPETITORS` slots; unused slots `None`).
    pub competitors: Vec<[Option<Position>; MAX_COMPETITORS]>,
    /// The best competitor's slot (0-based), where one ranks.
    pub best: Vec<Option<usize>>,
    /// Row indices of each list, in [`GapList::ALL`]'s order. Rows are by volume (highest
    /// first), then keyword.
    pub lists: [Vec<u32>; 4],
    /// Keywords left out by a brand term.
    pub branded: usize,
}

impl Gap {
    /// The rows of `list`.
    pub fn list(&self, list: GapList) -> &[u32] {
        &self.lists[list as usize]
    }

    /// The best competitor's position of row `i`.
    pub fn best_position(&self, i: usize) -> Option<&Position> {
        let slot = (*self.best.get(i)?)?;
        self.competitors[i][slot].as_ref()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.keyword.len()
    }

    /// True when no keyword is ranked by any domain.
    pub fn is_empty(&self) -> bool {
        self.keyword.is_empty()
    }
}

/// Lower case without spaces, hyphens and dots: the form brand terms are compared in.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The brand terms as compared: squeezed, at least [`MIN_BRAND_TERM`] characters, distinct.
pub fn brand_terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for term in text.split([',', '\n']).map(squeeze) {
        if term.chars().count() >= MIN_BRAND_TERM && !out.contains(&term) {
            out.push(term);
        }
    }
    out
}

/// The default brand terms: each domain's first label (`www.` skipped), comma-separated.
pub fn default_brand_terms(domains: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for domain in domains {
        let bare = domain.strip_prefix("www.").unwrap_or(domain);
        let label = bare.split('.').next().unwrap_or("");
        if !label.is_empty() && !out.contains(&label) {
            out.push(label);
        }
    }
    out.join(", ")
}

/// True when `lower` (a lower-cased keyword) contains one of `terms` (from [`brand_terms`]).
pub fn is_branded(lower: &str, terms: &[String]) -> bool {
    if terms.is_empty() {
        return false;
    }
    let squeezed = squeeze(lower);
    terms.iter().any(|t| squeezed.contains(t.as_str()))
}

/// Per keyword while building: first spelling, volume, competition, positions per slot.
struct Entry {
    keyword: String,
    volume: i64,
    competition: f64,
    positions: [Option<Position>; MAX_COMPETITORS + 1],
}

/// The gap of `yours` against `competitors` (the first [`MAX_COMPETITORS`] count), leaving
/// out keywords with a brand term of `brand` (from [`brand_terms`]).
pub fn compute(yours: Ranked, competitors: &[Ranked], brand: &[String]) -> Gap {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut lowers: Vec<&str> = Vec::new();
    let mut branded = 0;
    let mut brand_seen: HashMap<&str, bool> = HashMap::new();
    let domains = std::iter::once(yours).chain(competitors.iter().copied().take(MAX_COMPETITORS));
    for (slot, domain) in domains.enumerate() {
        for i in 0..domain.len() {
            let lower = domain.lower[i].as_str();
            let excluded = *brand_seen.entry(lower).or_insert_with(|| {
                let b = is_branded(lower, brand);
                branded += usize::from(b);
                b
            });
            if excluded {
                continue;
            }
            let at = *index.entry(lower).or_insert_with(|| {
                entries.push(Entry {
                    keyword: domain.keyword[i].clone(),
                    volume: i64::MIN,
                    competition: f64::NAN,
                    positions: Default::default(),
                });
                lowers.push(lower);
                entries.len() - 1
            });
            let entry = &mut entries[at];
            if domain.volume[i] > entry.volume {
                entry.volume = domain.volume[i];
                entry.competition = domain.competition[i];
            }
            let rank = domain.rank[i];
            if rank > 0 && entry.positions[slot].as_ref().is_none_or(|p| rank < p.rank) {
                entry.positions[slot] = Some(Position {
                    rank,
                    url: domain.url[i].clone(),
                });
            }
        }
    }
    let mut gap = Gap {
        branded,
        ..Gap::default()
    };
    // Rows by volume (highest first), then keyword: the lists' order.
    let mut rows: Vec<(Entry, &str)> = entries.into_iter().zip(lowers).collect();
    crate::sort::sort_by(&mut rows, |a, b| {
        b.0.volume.cmp(&a.0.volume).then_with(|| a.1.cmp(b.1))
    });
    let n = rows.len();
    gap.keyword.reserve(n);
    for (entry, lower) in rows {
        let [mine, first, second, third] = entry.positions;
        let competitors = [first, second, third];
        let best = (0..MAX_COMPETITORS)
            .filter_map(|s| competitors[s].as_ref().map(|p| (p.rank, s)))
            .min()
            .map(|(_, s)| s);
        gap.keyword.push(entry.keyword);
        gap.lower.push(lower.to_string());
        gap.volume.push(entry.volume.max(0));
        gap.competition.push(entry.competition);
        gap.yours.push(mine);
        gap.competitors.push(competitors);
        gap.best.push(best);
    }
    for i in 0..n {
        let best_rank = gap.best_position(i).map(|p| p.rank);
        let row = i as u32;
        match (gap.yours[i].as_ref().map(|p| p.rank), best_rank) {
            (None, Some(_)) => gap.lists[GapList::Missing as usize].push(row),
            (Some(mine), Some(theirs)) => {
                if theirs < mine {
                    gap.lists[GapList::Weaker as usize].push(row);
                }
                gap.lists[GapList::Shared as usize].push(row);
            }
            _ => {}
        }
        if gap.yours[i]
            .as_ref()
            .is_some_and(|p| (11..=20).contains(&p.rank))
        {
            gap.lists[GapList::Striking as usize].push(row);
        }
    }
    gap
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One domain's columns from (keyword, volume, rank) rows.
    struct Columns {
        keyword: Vec<String>,
        lower: Vec<String>,
        volume: Vec<i64>,
        competition: Vec<f64>,
        rank: Vec<i64>,
        url: Vec<String>,
    }

    fn columns(domain: &str, rows: &[(&str, i64, i64)]) -> Columns {
        Columns {
            keyword: rows.iter().map(|r| r.0.to_string()).collect(),
            lower: rows.iter().map(|r| r.0.to_lowercase()).collect(),
            volume: rows.iter().map(|r| r.1).collect(),
            competition: rows.iter().map(|r| r.1 as f64 / 1000.0).collect(),
            rank: rows.iter().map(|r| r.2).collect(),
            url: rows
                .iter()
                .map(|r| format!("https://{domain}/{}", r.2))
                .collect(),
        }
    }

    fn ranked(c: &Columns) -> Ranked<'_> {
        Ranked {
            keyword: &c.keyword,
            lower: &c.lower,
            volume: &c.volume,
            competition: &c.competition,
            rank: &c.rank,
            url: &c.url,
        }
    }

    fn keywords(gap: &Gap, list: GapList) -> Vec<&str> {
        gap.list(list)
            .iter()
            .map(|&i| gap.lower[i as usize].as_str())
            .collect()
    }

    #[test]
    fn each_list_follows_its_rule() {
        let you = columns(
            "you.com",
            &[
                ("shared ahead", 500, 2),
                ("weaker", 400, 8),
                ("close", 300, 15),
            ],
        );
        let a = columns(
            "a.com",
            &[
                ("shared ahead", 500, 5),
                ("weaker", 400, 3),
                ("only them", 900, 4),
            ],
        );
        let b = columns("b.com", &[("only them", 800, 2), ("alone", 100, 1)]);
        let gap = compute(ranked(&you), &[ranked(&a), ranked(&b)], &[]);
        assert_eq!(keywords(&gap, GapList::Missing), ["only them", "alone"]);
        assert_eq!(keywords(&gap, GapList::Weaker), ["weaker"]);
        assert_eq!(keywords(&gap, GapList::Striking), ["close"]);
        assert_eq!(keywords(&gap, GapList::Shared), ["shared ahead", "weaker"]);
        // "only them": b ranks 2, a ranks 4: b is the best competitor, with its URL.
        let i = gap.lower.iter().position(|k| k == "only them").unwrap();
        assert_eq!(gap.best[i], Some(1));
        assert_eq!(
            gap.best_position(i),
            Some(&Position {
                rank: 2,
                url: "https://b.com/2".into()
            })
        );
        assert_eq!(gap.volume[i], 900);
        assert!(gap.yours[i].is_none());
    }

    #[test]
    fn striking_distance_is_11_to_20_inclusive() {
        let you = columns(
            "you.com",
            &[
                ("r10", 1, 10),
                ("r11", 1, 11),
                ("r20", 1, 20),
                ("r21", 1, 21),
            ],
        );
        let gap = compute(ranked(&you), &[], &[]);
        let mut got = keywords(&gap, GapList::Striking);
        got.sort();
        assert_eq!(got, ["r11", "r20"]);
        assert!(gap.list(GapList::Missing).is_empty());
        assert!(gap.list(GapList::Shared).is_empty());
    }

    #[test]
    fn a_domain_counts_its_best_rank_and_keywords_compare_lower_cased() {
        let you = columns("you.com", &[("Shoes", 100, 30), ("shoes", 100, 12)]);
        let a = columns("a.com", &[("SHOES", 150, 12)]);
        let gap = compute(ranked(&you), &[ranked(&a)], &[]);
        assert_eq!(gap.len(), 1);
        assert_eq!(gap.keyword[0], "Shoes");
        assert_eq!(gap.yours[0].as_ref().map(|p| p.rank), Some(12));
        assert_eq!(gap.volume[0], 150);
        // A tie is not weaker.
        assert!(gap.list(GapList::Weaker).is_empty());
        assert_eq!(keywords(&gap, GapList::Shared), ["shoes"]);
        assert_eq!(keywords(&gap, GapList::Striking), ["shoes"]);
    }

    #[test]
    fn rank_zero_is_no_rank() {
        let you = columns("you.com", &[("x", 10, 0)]);
        let a = columns("a.com", &[("x", 10, 3)]);
        let gap = compute(ranked(&you), &[ranked(&a)], &[]);
        assert_eq!(keywords(&gap, GapList::Missing), ["x"]);
    }

    #[test]
    fn brand_terms_leave_keywords_out() {
        assert_eq!(
            default_brand_terms(&[
                "www.acme.com".into(),
                "rival.co.uk".into(),
                "acme.org".into()
            ]),
            "acme, rival"
        );
        let terms = brand_terms("Acme, go, ri-val\n,acme");
        assert_eq!(terms, ["acme", "rival"]);
        assert!(is_branded("acme shoes", &terms));
        assert!(is_branded("acmeshoes", &terms));
        assert!(is_branded("a.c.m.e boots", &terms));
        assert!(is_branded("rival boots", &terms));
        assert!(!is_branded("good shoes", &terms));
        let you = columns("you.com", &[("acme shoes", 100, 1), ("shoes", 50, 3)]);
        let a = columns("a.com", &[("acme shoes", 100, 2), ("boots", 70, 1)]);
        let gap = compute(ranked(&you), &[ranked(&a)], &terms);
        assert_eq!(gap.branded, 1);
        assert!(!gap.lower.iter().any(|k| k == "acme shoes"));
        assert_eq!(keywords(&gap, GapList::Missing), ["boots"]);
    }

    #[test]
    fn lists_are_by_volume_then_keyword_and_empty_input_is_empty() {
        let a = columns("a.com", &[("b", 5, 1), ("a", 5, 2), ("c", 9, 3)]);
        let gap = compute(ranked(&columns("you.com", &[])), &[ranked(&a)], &[]);
        assert_eq!(keywords(&gap, GapList::Missing), ["c", "a", "b"]);
        let empty = compute(Ranked::default(), &[], &[]);
        assert!(empty.is_empty());
        assert!(GapList::ALL.iter().all(|&l| empty.list(l).is_empty()));
    }

    #[test]
    fn more_than_three_competitors_are_ignored() {
        let you = columns("you.com", &[]);
        let c: Vec<Columns> = (0..4)
            .map(|i| columns("c.com", &[("k", 10, 4 - i)]))
            .collect();
        let all: Vec<Ranked> = c.iter().map(ranked).collect();
        let gap = compute(ranked(&you), &all, &[]);
        // The fourth (rank 1) is not compared: the best of the first three ranks 2.
        assert_eq!(gap.best_position(0).map(|p| p.rank), Some(2));
    }

    #[test]
    fn list_ids_round_trip() {
        for list in GapList::ALL {
            assert_eq!(GapList::from_id(list.id()), Some(list));
        }
        assert_eq!(GapList::from_id("nope"), None);
    }
}
