//! The content gap between "your domain" and one to three competitors, from their ranked
//! keywords (`ranked-keywords/domain`, bought once and reused): the lists Semrush's Keyword
//! Gap names, under its names, plus striking distance, with Ahrefs-like filters (how many
//! competitors rank, a top-N position cutoff).
//!
//! Rules (our decisions; the page states [`rules_text`]):
//! - Keywords are compared lower-cased; a domain listing a keyword more than once (several
//!   URLs) counts its best rank and that rank's URL. Rank 0 or less is no rank.
//! - The cutoff ("positions up to", default [`DEFAULT_TOP`]: page one and two, where striking
//!   distance ends) applies to the **competitors only**, as in Ahrefs' Content gap (at least
//!   one target ranks in the top N): a competitor beyond it does not rank (a competitor at
//!   #97 brings no traffic worth a row). **You rank anywhere in the top [`YOUR_TOP`]** (Ahrefs:
//!   "doesn't rank for" means not in its top 100), so at "top 10" your #15 is striking
//!   distance, not Missing.
//! - "Every competitor" means every competitor whose keywords are loaded; with none loaded the
//!   lists that compare with competitors are empty rather than vacuously full.
//! - **Shared**: you and every competitor rank. **Missing**: every competitor ranks, you do
//!   not. **Weak**: every domain ranks and you rank below (a higher position than) every
//!   competitor. **Strong**: every domain ranks and you rank above every competitor.
//!   **Untapped**: at least one competitor ranks, you do not. **Unique**: you rank, no
//!   competitor does. **Striking distance** (ours): you rank within the range set (default
//!   11–20), whatever the competitors do. A keyword can be in several lists (Missing ⊂
//!   Untapped; Weak, Strong ⊂ Shared).
//! - The best competitor is the one with the best rank (the first entered on a tie).
//! - Volume is the highest reported for the keyword by any domain's records, competition the
//!   one reported with that volume, on the explorer's 0–1 scale (`ranked-keywords` reports it
//!   0–100: divided by 100 here, so one scale is shown and filtered everywhere).
//! - Brand terms (`research::brand`): a keyword naming one is left out of every list.

use std::collections::HashMap;

use super::brand;
use super::ctr::Curve;

/// Most competitors compared with your domain.
pub const MAX_COMPETITORS: usize = 3;

/// The default position cutoff of the competitors: their ranks beyond it count as no rank.
pub const DEFAULT_TOP: i64 = 20;

/// Your ranks count up to here, whatever the competitors' cutoff (the depth the anchors track).
pub const YOUR_TOP: i64 = 100;

/// The cutoffs offered ("positions up to").
pub const TOP_CHOICES: [i64; 5] = [3, 10, 20, 50, 100];

/// The default striking distance (your rank, inclusive).
pub const DEFAULT_STRIKING: (i64, i64) = (11, 20);

/// How the gap is computed: brand terms (from [`brand::terms`]), the position cutoff and the
/// striking distance.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Brand terms as compared.
    pub brand: Vec<String>,
    /// Competitors' ranks beyond this count as no rank (yours count to [`YOUR_TOP`]).
    pub top: i64,
    /// Striking distance: your rank from, to (inclusive).
    pub striking: (i64, i64),
    /// The click-through curve of estimated traffic (share of voice, competitor pages).
    pub curve: Curve,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            brand: Vec::new(),
            top: DEFAULT_TOP,
            striking: DEFAULT_STRIKING,
            curve: Curve::default(),
        }
    }
}

/// The rules as shown on the page and in reports, with the cutoff and striking distance set.
pub fn rules_text(o: &Options) -> String {
    format!(
        "Shared: you and every competitor rank. Missing: every competitor ranks, you do not. \
Weak: every domain ranks, you rank below every competitor. Strong: every domain ranks, you \
rank above every competitor. Untapped: at least one competitor ranks, you do not. Unique: you \
rank, no competitor does. Striking distance: you rank {}–{}. Only positions 1–{} count as \
ranking for a competitor, 1–{} for you (so your #15 is striking distance at any cutoff); \
each domain counts its best rank; \"every competitor\" means every one loaded. A \
keyword can be in several lists. Competition is on a 0–1 scale.",
        o.striking.0, o.striking.1, o.top, YOUR_TOP
    )
}

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
    /// Competition, 0–100 as `ranked-keywords` reports it.
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
    /// You and every competitor rank.
    Shared,
    /// Every competitor ranks, you do not.
    Missing,
    /// Every domain ranks, you below every competitor.
    Weak,
    /// Every domain ranks, you above every competitor.
    Strong,
    /// A competitor ranks, you do not.
    Untapped,
    /// You rank, no competitor does.
    Unique,
    /// You rank within the striking distance.
    Striking,
}

impl GapList {
    /// Every list, in the page's order (Semrush's, then ours).
    pub const ALL: [GapList; 7] = [
        GapList::Shared,
        GapList::Missing,
        GapList::Weak,
        GapList::Strong,
        GapList::Untapped,
        GapList::Unique,
        GapList::Striking,
    ];

    /// Its name on the page and in file names.
    pub fn label(self) -> &'static str {
        match self {
            GapList::Shared => "Shared",
            GapList::Missing => "Missing",
            GapList::Weak => "Weak",
            GapList::Strong => "Strong",
            GapList::Untapped => "Untapped",
            GapList::Unique => "Unique",
            GapList::Striking => "Striking distance",
        }
    }

    /// A stable id (URL, test ids, file names).
    pub fn id(self) -> &'static str {
        match self {
            GapList::Shared => "shared",
            GapList::Missing => "missing",
            GapList::Weak => "weak",
            GapList::Strong => "strong",
            GapList::Untapped => "untapped",
            GapList::Unique => "unique",
            GapList::Striking => "striking",
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
    /// Competition reported with that volume, 0–1.
    pub competition: Vec<f64>,
    /// Your best position.
    pub yours: Vec<Option<Position>>,
    /// Each competitor's best position (`MAX_COMPETITORS` slots; unused slots `None`).
    pub competitors: Vec<[Option<Position>; MAX_COMPETITORS]>,
    /// The best competitor's slot (0-based), where one ranks.
    pub best: Vec<Option<usize>>,
    /// Row indices of each list, in [`GapList::ALL`]'s order. Rows are by volume (highest
    /// first), then keyword.
    pub lists: [Vec<u32>; 7],
    /// Keywords left out by a brand term.
    pub branded: usize,
    /// What each brand term left out, in the terms' order (for [`brand::generic_warning`]).
    pub brand_use: Vec<brand::TermUse>,
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

    /// How many competitors rank for row `i` (the "competitors ranking" filter).
    pub fn ranking_competitors(&self, i: usize) -> usize {
        self.competitors
            .get(i)
            .map_or(0, |c| c.iter().filter(|p| p.is_some()).count())
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

/// A competition bound typed in a filter, on the 0–1 scale. Decided: a number above 1 is read
/// as a percentage of the 0–100 scale some tools show (`30` → 0.30), so a value copied from
/// one of them filters as meant instead of keeping everything; `None` when empty or not a
/// number (the bound is open).
pub fn competition_bound(text: &str) -> Option<f64> {
    let v = text
        .trim()
        .trim_end_matches('%')
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())?;
    Some(if v > 1.0 { v / 100.0 } else { v })
}

/// Per keyword while building: first spelling, volume, competition, positions per slot.
struct Entry {
    keyword: String,
    volume: i64,
    competition: f64,
    positions: [Option<Position>; MAX_COMPETITORS + 1],
}

/// The gap of `yours` against `competitors` (the first [`MAX_COMPETITORS`] count; `None`: not
/// loaded, so not part of "every competitor"), by `options`.
pub fn compute(yours: Ranked, competitors: &[Option<Ranked>], options: &Options) -> Gap {
    let competitors = &competitors[..competitors.len().min(MAX_COMPETITORS)];
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut lowers: Vec<&str> = Vec::new();
    // Per keyword seen: the brand term it names (index) and the highest volume reported.
    let mut brand_seen: HashMap<&str, (Option<usize>, i64)> = HashMap::new();
    let domains = std::iter::once(yours).chain(competitors.iter().map(|c| c.unwrap_or_default()));
    for (slot, domain) in domains.enumerate() {
        for i in 0..domain.len() {
            let rank = domain.rank[i];
            // Beyond the cutoff is no rank: such a row alone creates no keyword. The cutoff
            // is the competitors'; yours is the depth the anchors track.
            let cutoff = if slot == 0 { YOUR_TOP } else { options.top };
            if rank <= 0 || rank > cutoff {
                continue;
            }
            let lower = domain.lower[i].as_str();
            let seen = brand_seen
                .entry(lower)
                .or_insert_with(|| (brand::branded_by(lower, &options.brand), i64::MIN));
            if seen.0.is_some() {
                seen.1 = seen.1.max(domain.volume[i]);
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
                entry.competition = domain.competition[i] / 100.0;
            }
            if entry.positions[slot].as_ref().is_none_or(|p| rank < p.rank) {
                entry.positions[slot] = Some(Position {
                    rank,
                    url: domain.url[i].clone(),
                });
            }
        }
    }
    let mut brand_use: Vec<brand::TermUse> = options
        .brand
        .iter()
        .map(|t| brand::TermUse {
            term: t.clone(),
            ..Default::default()
        })
        .collect();
    let mut branded = 0;
    for (lower, (term, volume)) in &brand_seen {
        let Some(t) = *term else { continue };
        let (u, volume) = (&mut brand_use[t], (*volume).max(0));
        branded += 1;
        u.keywords += 1;
        u.volume = u.volume.saturating_add(volume);
        if brand::words(lower).concat() == u.term {
            u.own_volume = Some(u.own_volume.unwrap_or(0).max(volume));
        }
    }
    let mut gap = Gap {
        branded,
        brand_use,
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
    let loaded: Vec<usize> = (0..competitors.len())
        .filter(|&s| competitors[s].is_some())
        .collect();
    for i in 0..n {
        let row = i as u32;
        let mine = gap.yours[i].as_ref().map(|p| p.rank);
        let theirs: Vec<i64> = loaded
            .iter()
            .filter_map(|&s| gap.competitors[i][s].as_ref().map(|p| p.rank))
            .collect();
        let every = !loaded.is_empty() && theirs.len() == loaded.len();
        let (best, worst) = (theirs.iter().min(), theirs.iter().max());
        let mut put = |l: GapList| gap.lists[l as usize].push(row);
        match mine {
            Some(mine) => {
                if every {
                    put(GapList::Shared);
                    if worst.is_some_and(|&w| mine > w) {
                        put(GapList::Weak);
                    }
                    if best.is_some_and(|&b| mine < b) {
                        put(GapList::Strong);
                    }
                }
                if !loaded.is_empty() && theirs.is_empty() {
                    put(GapList::Unique);
                }
                if (options.striking.0..=options.striking.1).contains(&mine) {
                    put(GapList::Striking);
                }
            }
            None => {
                if every {
                    put(GapList::Missing);
                }
                if !theirs.is_empty() {
                    put(GapList::Untapped);
                }
            }
        }
    }
    gap
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One domain's columns from (keyword, volume, rank) rows; competition is volume / 10 on
    /// the 0–100 scale.
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
            competition: rows.iter().map(|r| r.1 as f64 / 10.0).collect(),
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

    fn loaded<'a>(c: &[&'a Columns]) -> Vec<Option<Ranked<'a>>> {
        c.iter().map(|c| Some(ranked(c))).collect()
    }

    fn keywords(gap: &Gap, list: GapList) -> Vec<&str> {
        gap.list(list)
            .iter()
            .map(|&i| gap.lower[i as usize].as_str())
            .collect()
    }

    #[test]
    fn each_list_is_named_and_defined_as_semrush_names_it() {
        let you = columns(
            "you.com",
            &[
                ("all ahead", 900, 1),
                ("all behind", 800, 9),
                ("all between", 700, 5),
                ("mine alone", 600, 4),
                ("close", 500, 15),
            ],
        );
        let a = columns(
            "a.com",
            &[
                ("all ahead", 10, 2),
                ("all behind", 10, 3),
                ("all between", 10, 2),
                ("both theirs", 400, 6),
                ("a only", 300, 1),
            ],
        );
        let b = columns(
            "b.com",
            &[
                ("all ahead", 10, 4),
                ("all behind", 10, 8),
                ("all between", 10, 8),
                ("both theirs", 400, 2),
            ],
        );
        let gap = compute(ranked(&you), &loaded(&[&a, &b]), &Options::default());
        let all = ["all ahead", "all behind", "all between"];
        assert_eq!(keywords(&gap, GapList::Shared), all);
        assert_eq!(keywords(&gap, GapList::Weak), ["all behind"]);
        assert_eq!(keywords(&gap, GapList::Strong), ["all ahead"]);
        // Missing: every competitor ranks; Untapped: at least one does (today's old "Missing").
        assert_eq!(keywords(&gap, GapList::Missing), ["both theirs"]);
        assert_eq!(keywords(&gap, GapList::Untapped), ["both theirs", "a only"]);
        assert_eq!(keywords(&gap, GapList::Unique), ["mine alone", "close"]);
        assert_eq!(keywords(&gap, GapList::Striking), ["close"]);
        let labels: Vec<&str> = GapList::ALL.iter().map(|l| l.label()).collect();
        assert_eq!(
            labels,
            [
                "Shared",
                "Missing",
                "Weak",
                "Strong",
                "Untapped",
                "Unique",
                "Striking distance"
            ]
        );
        // "both theirs": b ranks 2, a ranks 6: b is the best competitor, with its URL.
        let i = gap.lower.iter().position(|k| k == "both theirs").unwrap();
        assert_eq!(gap.best[i], Some(1));
        assert_eq!(gap.ranking_competitors(i), 2);
        assert_eq!(
            gap.best_position(i),
            Some(&Position {
                rank: 2,
                url: "https://b.com/2".into()
            })
        );
        assert!(gap.yours[i].is_none());
    }

    #[test]
    fn the_cutoff_is_the_competitors_and_you_rank_to_100() {
        let you = columns("you.com", &[("deep", 10, 45), ("gone", 10, 101)]);
        let a = columns(
            "a.com",
            &[("far", 100, 97), ("deep", 10, 3), ("gone", 10, 2)],
        );
        let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
        // The competitor at #97 creates no row; your #45 is a rank (Ahrefs: you "rank" in
        // the top 100), so "deep" is Weak, not Missing; your #101 is no rank.
        assert!(!gap.lower.iter().any(|k| k == "far"));
        assert_eq!(keywords(&gap, GapList::Weak), ["deep"]);
        assert_eq!(keywords(&gap, GapList::Missing), ["gone"]);
        let top100 = Options {
            top: 100,
            ..Options::default()
        };
        let gap = compute(ranked(&you), &loaded(&[&a]), &top100);
        assert_eq!(keywords(&gap, GapList::Untapped), ["far", "gone"]);
        assert_eq!(keywords(&gap, GapList::Weak), ["deep"]);
        assert!(rules_text(&top100).contains("positions 1–100 count as ranking for a competitor"));
    }

    #[test]
    fn at_top_10_your_15_is_striking_distance_not_missing() {
        // The case: at "top 10" the old rule dropped your #15, so striking distance
        // (11–20) was always empty and the keyword showed as Missing.
        let you = columns("you.com", &[("crm software", 5000, 15)]);
        let a = columns("a.com", &[("crm software", 5000, 4)]);
        let top10 = Options {
            top: 10,
            ..Options::default()
        };
        let gap = compute(ranked(&you), &loaded(&[&a]), &top10);
        assert_eq!(keywords(&gap, GapList::Striking), ["crm software"]);
        assert_eq!(keywords(&gap, GapList::Weak), ["crm software"]);
        assert!(gap.list(GapList::Missing).is_empty());
        assert!(rules_text(&top10).contains("1–100 for you"));
    }

    #[test]
    fn striking_distance_is_configurable_and_inclusive() {
        let you = columns(
            "you.com",
            &[
                ("r10", 1, 10),
                ("r11", 1, 11),
                ("r20", 1, 20),
                ("r21", 1, 21),
            ],
        );
        let top30 = Options {
            top: 30,
            ..Options::default()
        };
        let gap = compute(ranked(&you), &[], &top30);
        let mut got = keywords(&gap, GapList::Striking);
        got.sort();
        assert_eq!(got, ["r11", "r20"]);
        let wider = Options {
            striking: (4, 21),
            ..top30
        };
        assert_eq!(
            compute(ranked(&you), &[], &wider)
                .list(GapList::Striking)
                .len(),
            4
        );
        assert!(rules_text(&wider).contains("you rank 4–21"));
        // No competitor loaded: nothing to compare, so no Unique or Missing rows.
        assert!(gap.list(GapList::Unique).is_empty());
        assert!(gap.list(GapList::Untapped).is_empty());
    }

    #[test]
    fn every_competitor_means_every_loaded_one() {
        let you = columns("you.com", &[]);
        let a = columns("a.com", &[("k", 10, 2)]);
        let gap = compute(ranked(&you), &[Some(ranked(&a)), None], &Options::default());
        assert_eq!(keywords(&gap, GapList::Missing), ["k"]);
        let b = columns("b.com", &[]);
        let gap = compute(ranked(&you), &loaded(&[&a, &b]), &Options::default());
        assert!(gap.list(GapList::Missing).is_empty());
        assert_eq!(keywords(&gap, GapList::Untapped), ["k"]);
    }

    #[test]
    fn a_domain_counts_its_best_rank_and_keywords_compare_lower_cased() {
        let you = columns("you.com", &[("Shoes", 100, 19), ("shoes", 100, 12)]);
        let a = columns("a.com", &[("SHOES", 150, 12)]);
        let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
        assert_eq!(gap.len(), 1);
        assert_eq!(gap.keyword[0], "Shoes");
        assert_eq!(gap.yours[0].as_ref().map(|p| p.rank), Some(12));
        assert_eq!(gap.volume[0], 150);
        // A tie is neither weak nor strong.
        assert!(gap.list(GapList::Weak).is_empty());
        assert!(gap.list(GapList::Strong).is_empty());
        assert_eq!(keywords(&gap, GapList::Shared), ["shoes"]);
        assert_eq!(keywords(&gap, GapList::Striking), ["shoes"]);
    }

    #[test]
    fn competition_is_shown_on_the_0_to_1_scale() {
        let a = columns("a.com", &[("x", 300, 3)]);
        let gap = compute(
            ranked(&columns("you.com", &[])),
            &loaded(&[&a]),
            &Options::default(),
        );
        // 300 / 10 = 30 on the 0–100 scale the operation reports.
        assert!((gap.competition[0] - 0.3).abs() < 1e-12);
        // "up to 0.3" keeps it; "up to 30" (the 0–100 habit) means the same, not everything.
        assert_eq!(competition_bound("0.3"), Some(0.3));
        assert_eq!(competition_bound("30"), Some(0.3));
        assert_eq!(competition_bound(" 45 % "), Some(0.45));
        assert_eq!(competition_bound("1"), Some(1.0));
        assert_eq!(competition_bound(""), None);
        assert_eq!(competition_bound("abc"), None);
        assert_eq!(competition_bound("NaN"), None);
    }

    #[test]
    fn rank_zero_is_no_rank() {
        let you = columns("you.com", &[("x", 10, 0)]);
        let a = columns("a.com", &[("x", 10, 3)]);
        let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
        assert_eq!(keywords(&gap, GapList::Missing), ["x"]);
    }

    #[test]
    fn brand_terms_leave_keywords_out_on_word_boundaries() {
        let brand = brand::terms("ikea, gap");
        let you = columns(
            "you.com",
            &[("ikea desk", 100, 1), ("bike accessories", 50, 3)],
        );
        let a = columns("a.com", &[("gap jeans", 100, 2), ("singapore", 70, 1)]);
        let options = Options {
            brand,
            ..Options::default()
        };
        let gap = compute(ranked(&you), &loaded(&[&a]), &options);
        assert_eq!(gap.branded, 2);
        assert_eq!(keywords(&gap, GapList::Untapped), ["singapore"]);
        assert_eq!(keywords(&gap, GapList::Unique), ["bike accessories"]);
    }

    #[test]
    fn a_generic_brand_term_that_is_a_big_keyword_is_warned_about() {
        // The case: hotels.com gives the brand term "hotels", which silently removed
        // the whole hotels category from every list.
        let brand = brand::terms(&brand::default_terms(&[
            "you.com".into(),
            "hotels.com".into(),
        ]));
        assert_eq!(brand, ["you", "hotels"]);
        let you = columns("you.com", &[("cheap hotels", 90_000, 12)]);
        let a = columns(
            "hotels.com",
            &[
                ("hotels", 1_500_000, 1),
                ("hotels near me", 800_000, 2),
                ("hotels.com login", 5_000, 1),
            ],
        );
        let options = Options {
            brand,
            ..Options::default()
        };
        let gap = compute(ranked(&you), &loaded(&[&a]), &options);
        assert!(gap.is_empty(), "every keyword names “hotels”");
        assert_eq!(gap.branded, 4);
        let hotels = &gap.brand_use[1];
        assert_eq!(
            (hotels.keywords, hotels.volume, hotels.own_volume),
            (4, 2_395_000, Some(1_500_000))
        );
        let warning = brand::generic_warning(hotels).expect("warned");
        assert!(warning.contains("“hotels” is itself a keyword with 1,500,000 searches"));
        assert!(warning.contains("leaves out 4 keywords (2,395,000 searches)"));
        assert_eq!(brand::generic_warning(&gap.brand_use[0]), None);
        // A small brand query is no warning.
        let small = brand::TermUse {
            own_volume: Some(900),
            ..hotels.clone()
        };
        assert_eq!(brand::generic_warning(&small), None);
    }

    #[test]
    fn lists_are_by_volume_then_keyword_and_empty_input_is_empty() {
        let a = columns("a.com", &[("b", 5, 1), ("a", 5, 2), ("c", 9, 3)]);
        let gap = compute(
            ranked(&columns("you.com", &[])),
            &loaded(&[&a]),
            &Options::default(),
        );
        assert_eq!(keywords(&gap, GapList::Missing), ["c", "a", "b"]);
        let empty = compute(Ranked::default(), &[], &Options::default());
        assert!(empty.is_empty());
        assert!(GapList::ALL.iter().all(|&l| empty.list(l).is_empty()));
    }

    #[test]
    fn more_than_three_competitors_are_ignored() {
        let you = columns("you.com", &[]);
        let c: Vec<Columns> = (0..4)
            .map(|i| columns("c.com", &[("k", 10, 4 - i)]))
            .collect();
        let all: Vec<Option<Ranked>> = c.iter().map(|c| Some(ranked(c))).collect();
        let gap = compute(ranked(&you), &all, &Options::default());
        // The fourth (rank 1) is not compared: the best of the first three ranks 2.
        assert_eq!(gap.best_position(0).map(|p| p.rank), Some(2));
    }

    #[test]
    fn list_ids_round_trip() {
        for list in GapList::ALL {
            assert_eq!(GapList::from_id(list.id()), Some(list));
        }
        assert_eq!(GapList::from_id("weaker"), None);
    }
}
