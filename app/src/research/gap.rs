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
//! - **Traffic potential** (Ahrefs' "traffic potential"): the estimated traffic of the page
//!   ranking #1 for the keyword (the sum over every keyword that page ranks for, at any
//!   position), when a compared domain holds #1; otherwise unknown from the data bought
//!   (the #1 page is another site's, which would have to be bought): `None`.

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
    /// Traffic potential: the estimated traffic of the #1 page, where a compared domain
    /// holds #1.
    pub potential: Vec<Option<f64>>,
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
    // Each page's estimated traffic over all its keywords, per domain (traffic potential).
    let mut page_traffic: Vec<HashMap<&str, f64>> = vec![HashMap::new(); MAX_COMPETITORS + 1];
    for (slot, domain) in domains.enumerate() {
        for i in 0..domain.len() {
            let rank = domain.rank[i];
            if options.curve.share(rank) > 0.0 {
                *page_traffic[slot]
                    .entry(domain.url[i].as_str())
                    .or_default() += options.curve.traffic(domain.volume[i], rank);
            }
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
        let potential = entry.positions.iter().enumerate().find_map(|(slot, p)| {
            let p = p.as_ref().filter(|p| p.rank == 1)?;
            page_traffic[slot].get(p.url.as_str()).copied()
        });
        gap.potential.push(potential);
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
mod tests;
