//! What estimated traffic ([`super::ctr`]) adds to the content gap: each domain's share of
//! voice over a keyword set, and the traffic a striking-distance keyword would gain at #3.
//!
//! Definitions (the gap page states [`VOICE_RULE`] and [`GAIN_RULE`]):
//! - **Share of voice** (Ahrefs Rank Tracker's "share of voice", Semrush Position Tracking's
//!   "visibility"): a domain's estimated traffic over the keywords of the set (the rows of
//!   the gap list shown, as filtered), divided by their total search volume: the share of
//!   all the set's searches that click the domain. Decided: over total volume, not over the
//!   compared domains' summed traffic, so a domain's share does not change when another
//!   competitor is added, and the rest (clicks to domains not compared, or none) stays
//!   visible. Positions are the gap's: each domain's best rank, a competitor's beyond the
//!   cutoff counted as none.
//! - **Traffic gain at #3** (our striking distance, as Semrush's and Ahrefs' "low-hanging
//!   fruit"): for your rank 4–20, the keyword's volume × (the click-through rate of #3 − that
//!   of your rank); nothing outside 4–20 (at #1–3 you are there, past #20 it is not striking
//!   distance).

use super::ctr::Curve;
use super::gap::{Gap, MAX_COMPETITORS};

/// The share-of-voice rule, shown with the figures.
pub const VOICE_RULE: &str = "Share of voice: each domain's estimated traffic over the keywords \
shown (this list, as filtered) divided by their total search volume, the share of all their \
searches that click that domain (Ahrefs' share of voice). Positions as the lists count them: each \
domain's best rank, a competitor's beyond the cutoff as none.";

/// The striking-distance gain rule, shown with the column.
pub const GAIN_RULE: &str = "Traffic gain at #3: for your rank 4–20, the volume × (the \
click-through rate of #3 − the rate of your rank), the estimated monthly visits reaching #3 \
would add; blank elsewhere.";

/// The traffic-potential rule (`research::gap` computes it), shown with the column.
pub const POTENTIAL_RULE: &str = "Traffic potential: the estimated traffic of the page ranking \
#1 for the keyword, summed over every keyword that page ranks for (Ahrefs' traffic potential), \
where one of the compared domains holds #1; blank (–) when the #1 page is another site's, whose \
keywords are not bought here.";

/// The ranks whose gain at #3 is computed.
pub const GAIN_RANKS: (i64, i64) = (4, 20);

/// The position a striking-distance keyword is valued at.
pub const GAIN_TARGET: i64 = 3;

/// One domain's voice over a keyword set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Voice {
    /// Estimated monthly traffic from the set.
    pub traffic: f64,
    /// Keywords of the set it ranks for.
    pub keywords: usize,
    /// Its traffic over the set's total volume (0–1); 0 when the set has no volume.
    pub share: f64,
}

/// Share of voice over `rows` of `gap`: yours first, then each competitor slot; with the
/// set's total volume.
pub fn share_of_voice(
    gap: &Gap,
    rows: &[u32],
    curve: &Curve,
) -> ([Voice; MAX_COMPETITORS + 1], i64) {
    let mut voices: [Voice; MAX_COMPETITORS + 1] = Default::default();
    let mut total: i64 = 0;
    for &i in rows {
        let i = i as usize;
        let Some(&volume) = gap.volume.get(i) else {
            continue;
        };
        total = total.saturating_add(volume.max(0));
        let mine = gap.yours[i].as_ref();
        let theirs = gap.competitors[i].iter().map(Option::as_ref);
        for (slot, p) in std::iter::once(mine).chain(theirs).enumerate() {
            if let Some(p) = p {
                voices[slot].traffic += curve.traffic(volume, p.rank);
                voices[slot].keywords += 1;
            }
        }
    }
    if total > 0 {
        for v in &mut voices {
            v.share = v.traffic / total as f64;
        }
    }
    (voices, total)
}

/// The traffic a keyword of `volume` at your `rank` would gain at #3 ([`GAIN_RULE`]); `None`
/// outside ranks 4–20.
pub fn gain_at_3(volume: i64, rank: i64, curve: &Curve) -> Option<f64> {
    (GAIN_RANKS.0..=GAIN_RANKS.1)
        .contains(&rank)
        .then(|| (curve.traffic(volume, GAIN_TARGET) - curve.traffic(volume, rank)).max(0.0))
}

/// A share as its figure shows it ("12.3 %").
pub fn share_text(share: f64) -> String {
    format!("{:.1} %", share * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::gap::{compute, Options};
    use crate::research::top_pages::fixtures::Cols;

    #[test]
    fn share_of_voice_is_each_domains_traffic_over_the_sets_volume() {
        let you = Cols::new(&[("a", 1000, 1, "u"), ("b", 3000, 15, "u")]);
        let rival = Cols::new(&[("a", 1000, 3, "r"), ("b", 3000, 2, "r"), ("c", 0, 1, "r")]);
        let zeros = [0.0; 3];
        let g = compute(
            you.ranked(&zeros),
            &[Some(rival.ranked(&zeros))],
            &Options::default(),
        );
        let all: Vec<u32> = (0..g.len() as u32).collect();
        let (v, total) = share_of_voice(&g, &all, &Curve::default());
        assert_eq!(total, 4000);
        // You: 1000 × 28.5 % + 3000 × 0.5 % = 300; the rival: 1000 × 11 % + 3000 × 15.7 % = 581.
        assert!((v[0].traffic - 300.0).abs() < 1e-9, "{}", v[0].traffic);
        assert!((v[1].traffic - 581.0).abs() < 1e-9, "{}", v[1].traffic);
        assert!((v[0].share - 0.075).abs() < 1e-12);
        assert_eq!((v[0].keywords, v[1].keywords, v[2].keywords), (2, 3, 0));
        assert_eq!(share_text(v[1].share), "14.5 %");
        // A set of the rows shown only; an empty set has no share.
        let (v, total) = share_of_voice(&g, &[], &Curve::default());
        assert_eq!((total, v[0].share), (0, 0.0));
    }

    #[test]
    fn the_gain_at_3_is_for_ranks_4_to_20() {
        let c = Curve::default();
        // 2,000 searches at #15: 2,000 × (11 % − 0.5 %) = 210 visits more at #3.
        assert!((gain_at_3(2000, 15, &c).unwrap() - 210.0).abs() < 1e-9);
        assert!((gain_at_3(2000, 4, &c).unwrap() - 60.0).abs() < 1e-9);
        assert_eq!(gain_at_3(2000, 3, &c), None);
        assert_eq!(gain_at_3(2000, 21, &c), None);
        assert_eq!(gain_at_3(-5, 10, &c), Some(0.0));
    }
}
