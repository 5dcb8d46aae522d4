//! Position changes between two purchases of a domain's ranked keywords (Ahrefs' compare
//! mode, Semrush's Position Changes): new, lost, up, down and unchanged keywords.
//!
//! Rules (our decisions; the page shows [`RULE`]):
//! - Keywords are compared lower-cased; each side counts its best rank (ranks of 0 or less
//!   are no ranking) and that rank's URL.
//! - **New**: ranks now, did not before. **Lost**: ranked before, not now. **Up**: a better
//!   (smaller) rank now; **Down**: a worse one; **Unchanged**: the same rank (a different URL
//!   at the same rank is unchanged: the rank is what moved or not).
//! - The change is the places gained (before − now: +3 is three places up); volume is the
//!   latest reported.
//! - Rows are ordered by volume, then keyword (lower-cased).
//! - **URL swap**: the keyword ranks on both sides with a different best URL (Ahrefs'
//!   compare mode shows it; a swap is often cannibalisation at work), whatever the rank did.
//! - **Traffic won and lost** ([`super::ctr`]): each keyword's estimated traffic now minus
//!   before (volume × the click-through rate of each side's rank, each side's own volume);
//!   won sums the gains, lost the losses.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::ctr::Curve;
use super::top_pages::Rows;

/// The rule as shown on the page and in reports.
pub const RULE: &str = "Position changes between the previous purchase of the domain's ranked \
keywords and the latest: new (ranks now, not before), lost (ranked before, not now), up (a \
better position now), down (a worse one), unchanged. Keywords compared lower-cased at their best \
rank on each side; the change is places gained (+3: three places up). A URL swap: a keyword \
ranking on both sides with a different best URL. Traffic won and lost: the estimated traffic \
(volume × the click-through rate of the rank) now minus before, gains and losses summed apart.";

/// How a keyword moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Ranks now, not before.
    New,
    /// A better rank now.
    Up,
    /// A worse rank now.
    Down,
    /// Ranked before, not now.
    Lost,
    /// The same rank.
    Unchanged,
}

impl Move {
    /// Every kind, in the order counts and filters show them.
    pub const ALL: [Move; 5] = [Move::New, Move::Up, Move::Down, Move::Lost, Move::Unchanged];

    /// Its name.
    pub fn label(self) -> &'static str {
        match self {
            Move::New => "New",
            Move::Up => "Up",
            Move::Down => "Down",
            Move::Lost => "Lost",
            Move::Unchanged => "Unchanged",
        }
    }

    /// Its id in filters and test ids.
    pub fn id(self) -> &'static str {
        match self {
            Move::New => "new",
            Move::Up => "up",
            Move::Down => "down",
            Move::Lost => "lost",
            Move::Unchanged => "same",
        }
    }
}

/// The comparison, column by column (one row per keyword of either side). A row points into
/// the two purchases instead of copying their text: 100,000 rows compare without 300,000
/// string copies (BENCHMARKS.md).
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// Where row `i`'s keyword, volume and URL are read: `(true, j)` row `j` of the latest
    /// purchase (it ranks now), `(false, j)` of the previous one (lost).
    pub source: Vec<(bool, u32)>,
    /// Rank before (`None`: not ranked).
    pub before: Vec<Option<i64>>,
    /// Rank now.
    pub after: Vec<Option<i64>>,
    /// How it moved.
    pub moved: Vec<Move>,
    /// Keywords per [`Move::ALL`].
    pub counts: [usize; 5],
    /// The previous purchase's row of each row (`None`: new).
    pub before_row: Vec<Option<u32>>,
    /// The keyword ranks on both sides with a different best URL.
    pub swapped: Vec<bool>,
    /// How many rows are swaps.
    pub swaps: usize,
}

impl Changes {
    /// Places gained (before − now); `None` for new and lost keywords.
    pub fn change(&self, i: usize) -> Option<i64> {
        Some(self.before[i]? - self.after[i]?)
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.source.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.source.is_empty()
    }

    /// Row `i`'s estimated traffic now minus before, by `curve`.
    pub fn traffic_change(&self, i: usize, before: &Rows, after: &Rows, curve: &Curve) -> f64 {
        let side = |rows: &Rows, j: usize| curve.traffic(rows.volume[j], rows.rank[j]);
        let now = match self.source[i] {
            (true, j) => side(after, j as usize),
            (false, _) => 0.0,
        };
        let was = self.before_row[i].map_or(0.0, |j| side(before, j as usize));
        now - was
    }

    /// The estimated traffic won and lost over every row (both ≥ 0).
    pub fn traffic_won_lost(&self, before: &Rows, after: &Rows, curve: &Curve) -> (f64, f64) {
        (0..self.len()).fold((0.0, 0.0), |(won, lost), i| {
            let d = self.traffic_change(i, before, after, curve);
            if d > 0.0 {
                (won + d, lost)
            } else {
                (won, lost - d)
            }
        })
    }

    /// How many keywords moved `m`.
    pub fn count(&self, m: Move) -> usize {
        self.counts[Move::ALL.iter().position(|x| *x == m).unwrap_or(0)]
    }

    /// The side and position row `i` reads its text from, of `before` and `after` as
    /// compared: (keyword as written, volume, URL). The latest side's when it ranks now.
    pub fn row<'a>(
        &self,
        i: usize,
        before: &Rows<'a>,
        after: &Rows<'a>,
    ) -> (&'a str, i64, &'a str) {
        let (latest, j) = self.source[i];
        let (side, j) = (if latest { after } else { before }, j as usize);
        (
            side.keyword[j].as_str(),
            side.volume[j],
            side.url[j].as_str(),
        )
    }
}

/// A fast hasher for the keyword maps (FxHash's mixing, 8 bytes at a time): SipHash made
/// these maps most of the comparison's time. Keywords come from the service; a crafted
/// collision set could only slow the page, never break it.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

type Map<'a> = HashMap<&'a str, usize, BuildHasherDefault<Fx>>;

/// Best rank (and its row) per lower-cased keyword of one side.
fn best<'a>(rows: &Rows<'a>) -> Map<'a> {
    let mut m: Map = HashMap::with_capacity_and_hasher(rows.len(), Default::default());
    for i in 0..rows.len() {
        let r = rows.rank[i];
        if r <= 0 {
            continue;
        }
        m.entry(rows.lower[i].as_str())
            .and_modify(|b| {
                if r < rows.rank[*b] {
                    *b = i;
                }
            })
            .or_insert(i);
    }
    m
}

/// The changes from `before` to `after`.
pub fn compare(before: Rows, after: Rows) -> Changes {
    let old = best(&before);
    let new = best(&after);
    // Rows: the latest side's keywords in its order, then the lost ones in theirs.
    let mut rows: Vec<(Option<usize>, Option<usize>)> = Vec::with_capacity(new.len() + 16);
    for i in 0..after.len() {
        let lower = after.lower[i].as_str();
        if new.get(lower) == Some(&i) {
            rows.push((old.get(lower).copied(), Some(i)));
        }
    }
    for i in 0..before.len() {
        let lower = before.lower[i].as_str();
        if old.get(lower) == Some(&i) && !new.contains_key(lower) {
            rows.push((Some(i), None));
        }
    }
    let key = |r: &(Option<usize>, Option<usize>)| match *r {
        (_, Some(a)) => (after.volume[a], after.lower[a].as_str()),
        (Some(b), None) => (before.volume[b], before.lower[b].as_str()),
        (None, None) => (0, ""),
    };
    crate::sort::sort_by_cached(&mut rows, key, |a, b| {
        b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1))
    });
    let n = rows.len();
    let mut c = Changes {
        source: Vec::with_capacity(n),
        before: Vec::with_capacity(n),
        after: Vec::with_capacity(n),
        moved: Vec::with_capacity(n),
        counts: [0; 5],
        before_row: Vec::with_capacity(n),
        swapped: Vec::with_capacity(n),
        swaps: 0,
    };
    for (b, a) in rows {
        let source = match (a, b) {
            (Some(a), _) => (true, a as u32),
            (None, Some(b)) => (false, b as u32),
            (None, None) => continue,
        };
        let rb = b.map(|b| before.rank[b]);
        let ra = a.map(|a| after.rank[a]);
        let moved = match (rb, ra) {
            (None, _) => Move::New,
            (_, None) => Move::Lost,
            (Some(x), Some(y)) if y < x => Move::Up,
            (Some(x), Some(y)) if y > x => Move::Down,
            _ => Move::Unchanged,
        };
        c.counts[Move::ALL.iter().position(|m| *m == moved).unwrap_or(0)] += 1;
        c.source.push(source);
        c.before.push(rb);
        c.after.push(ra);
        c.moved.push(moved);
        let swapped = matches!((b, a), (Some(b), Some(a)) if before.url[b] != after.url[a]);
        c.swaps += usize::from(swapped);
        c.swapped.push(swapped);
        c.before_row.push(b.map(|b| b as u32));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Side(Vec<String>, Vec<String>, Vec<i64>, Vec<i64>, Vec<String>);

    fn side(rows: &[(&str, i64, i64)]) -> Side {
        Side(
            rows.iter().map(|r| r.0.to_string()).collect(),
            rows.iter().map(|r| r.0.to_lowercase()).collect(),
            rows.iter().map(|r| r.1).collect(),
            rows.iter().map(|r| r.2).collect(),
            rows.iter()
                .map(|r| format!("https://a.com/{}", r.0))
                .collect(),
        )
    }

    fn rows(s: &Side) -> Rows<'_> {
        Rows {
            keyword: &s.0,
            lower: &s.1,
            volume: &s.2,
            rank: &s.3,
            url: &s.4,
        }
    }

    #[test]
    fn new_lost_up_down_and_unchanged_with_counts() {
        let before = side(&[
            ("up", 100, 9),
            ("down", 200, 2),
            ("same", 50, 4),
            ("lost", 300, 5),
            ("Twice", 10, 8),
            ("twice", 10, 6),
            ("zero", 5, 0),
        ]);
        let after = side(&[
            ("UP", 110, 3),
            ("down", 200, 7),
            ("same", 50, 4),
            ("new", 20, 1),
            ("twice", 10, 6),
            ("zero", 5, 2),
        ]);
        let (b, a) = (rows(&before), rows(&after));
        let c = compare(b, a);
        let got: Vec<(&str, Move, Option<i64>)> = (0..c.len())
            .map(|i| (c.row(i, &b, &a).0, c.moved[i], c.change(i)))
            .collect();
        assert_eq!(
            got,
            vec![
                ("lost", Move::Lost, None),
                ("down", Move::Down, Some(-5)),
                ("UP", Move::Up, Some(6)),
                ("same", Move::Unchanged, Some(0)),
                ("new", Move::New, None),
                ("twice", Move::Unchanged, Some(0)),
                ("zero", Move::New, None),
            ],
            "by volume; best rank per side; rank 0 before is no ranking"
        );
        assert_eq!(c.counts, [2, 1, 1, 1, 2]);
        assert_eq!(c.count(Move::New), 2);
        assert_eq!(
            c.row(0, &b, &a).2,
            "https://a.com/lost",
            "a lost keyword keeps its URL"
        );
        assert_eq!(c.row(2, &b, &a).1, 110, "the latest volume");
    }

    #[test]
    fn url_swaps_are_flagged_and_traffic_won_and_lost_summed() {
        let mut before = side(&[("guide", 1000, 5), ("shoes", 2000, 1), ("gone", 400, 2)]);
        let after = side(&[("guide", 1000, 5), ("shoes", 2000, 3), ("fresh", 100, 1)]);
        // "guide": the same rank, but another page ranks now.
        before.4[0] = "https://a.com/old-guide".into();
        let (b, a) = (rows(&before), rows(&after));
        let c = compare(b, a);
        let swapped: Vec<&str> = (0..c.len())
            .filter(|&i| c.swapped[i])
            .map(|i| c.row(i, &b, &a).0)
            .collect();
        assert_eq!(swapped, ["guide"]);
        assert_eq!(c.swaps, 1);
        let curve = Curve::default();
        let change = |k: &str| {
            let i = (0..c.len()).find(|&i| c.row(i, &b, &a).0 == k).unwrap();
            c.traffic_change(i, &b, &a, &curve)
        };
        // shoes #1 → #3: 2000 × (11 % − 28.5 %) = −350; gone #2: −62.8; fresh #1: +28.5.
        assert!((change("shoes") + 350.0).abs() < 1e-9);
        assert!((change("gone") + 62.8).abs() < 1e-9);
        assert!((change("fresh") - 28.5).abs() < 1e-9);
        assert_eq!(change("guide"), 0.0);
        let (won, lost) = c.traffic_won_lost(&b, &a, &curve);
        assert!(
            (won - 28.5).abs() < 1e-9 && (lost - 412.8).abs() < 1e-9,
            "{won} {lost}"
        );
        assert!(RULE.contains("URL swap"));
    }

    #[test]
    fn nothing_before_makes_everything_new() {
        let after = side(&[("a", 1, 1), ("b", 1, 2)]);
        let c = compare(Rows::default(), rows(&after));
        assert_eq!(c.counts, [2, 0, 0, 0, 0]);
        let c = compare(rows(&after), rows(&after));
        assert_eq!(c.counts, [0, 0, 0, 0, 2]);
        assert!(compare(Rows::default(), Rows::default()).is_empty());
    }
}
