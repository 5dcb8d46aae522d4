//! The click-through curve and estimated traffic: the share of a keyword's searches that
//! click the result at a position, and volume × that share, the estimate Ahrefs and Semrush
//! rank pages and domains by ("traffic").
//!
//! The default curve is **SISTRIX's 2020 CTR study** ("Why (almost) everything you knew about
//! Google CTR is no longer valid", 80 million keywords, billions of results, July 2020):
//! position 1 28.5 %, 2 15.7 %, 3 11.0 %, 4 8.0 %, 5 7.2 %, 6 5.1 %, 7 4.0 %, 8 3.2 %,
//! 9 2.8 %, 10 2.5 %. Why this one: the largest sample of the published studies, measured
//! over every SERP layout (not only clean organic pages, which overstate position 1), and
//! recent enough to include ads and SERP features; the service reports no SERP features, so
//! an all-layout average is the honest one.
//!
//! Decided here (the study measures page one only; it says page two gets "significantly
//! less than one percent" a position): positions 11–20 get [`PAGE_TWO`] each, positions past
//! 20 none. A user can replace the curve in Settings (up to 20 percentages, position 1
//! first; positions past the last one given get none). Estimates are labelled as such
//! wherever shown ([`CURVE_RULE`]).

use serde::{Deserialize, Serialize};

/// SISTRIX 2020's click-through rates for positions 1–10, in percent.
pub const SISTRIX_2020: [f64; 10] = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5];

/// The share of each page-two position (11–20), in percent (ours, see the module).
pub const PAGE_TWO: f64 = 0.5;

/// The most positions a curve gives a share.
pub const MAX_POSITIONS: usize = 20;

/// How estimated traffic is computed, shown wherever an estimate is.
pub const CURVE_RULE: &str = "Estimated traffic (an estimate, not measured visits): monthly \
search volume × the click-through rate of the position, by SISTRIX's 2020 CTR study (80 million \
keywords, all SERP layouts): #1 28.5 %, #2 15.7 %, #3 11 %, #4 8 %, #5 7.2 %, #6 5.1 %, #7 4 %, \
#8 3.2 %, #9 2.8 %, #10 2.5 %; #11–20 0.5 % each (the study: well under 1 %), past #20 none. \
Replace the curve in Settings.";

/// A click-through curve: percent per position, position 1 first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Curve(pub Vec<f64>);

impl Default for Curve {
    fn default() -> Self {
        let mut v = SISTRIX_2020.to_vec();
        v.extend([PAGE_TWO; MAX_POSITIONS - 10]);
        Curve(v)
    }
}

impl Curve {
    /// The share (0–1) of searches clicking the result at `rank` (0 outside the curve).
    pub fn share(&self, rank: i64) -> f64 {
        if rank < 1 {
            return 0.0;
        }
        self.0
            .get(rank as usize - 1)
            .map_or(0.0, |p| p.clamp(0.0, 100.0) / 100.0)
    }

    /// Estimated monthly traffic of a result at `rank` for a keyword of `volume` searches.
    pub fn traffic(&self, volume: i64, rank: i64) -> f64 {
        volume.max(0) as f64 * self.share(rank)
    }

    /// The curve as typed in Settings: percentages, comma-separated.
    pub fn text(&self) -> String {
        self.0
            .iter()
            .map(|p| format!("{p}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A curve typed in Settings: 1–20 percentages (0–100), comma- or space-separated, not
    /// rising from one position to the next (a lower position never gets more clicks).
    pub fn parse(text: &str) -> Result<Curve, String> {
        let values: Vec<f64> = text
            .split([',', ' ', ';', '\n', '\t'])
            .map(|t| t.trim().trim_end_matches('%'))
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && (0.0..=100.0).contains(v))
                    .ok_or_else(|| format!("“{t}” is not a percentage from 0 to 100"))
            })
            .collect::<Result<_, _>>()?;
        if values.is_empty() || values.len() > MAX_POSITIONS {
            return Err(format!(
                "give 1 to {MAX_POSITIONS} percentages, position 1 first"
            ));
        }
        if values.windows(2).any(|w| w[1] > w[0]) {
            return Err("a position cannot get more clicks than the one above it".into());
        }
        if values.iter().sum::<f64>() > 100.0 {
            return Err("the percentages add up to more than 100".into());
        }
        Ok(Curve(values))
    }
}

/// An estimate as its cell shows it: whole visits (an estimate under 1 shows as "<1").
pub fn traffic_text(traffic: f64) -> String {
    if traffic > 0.0 && traffic < 1.0 {
        "<1".into()
    } else {
        crate::format::fmt_int(traffic.round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_sistrix_2020_then_page_two() {
        let c = Curve::default();
        assert_eq!(c.share(1), 0.285);
        assert_eq!(c.share(3), 0.11);
        assert_eq!(c.share(10), 0.025);
        assert_eq!(c.share(11), 0.005);
        assert_eq!(c.share(20), 0.005);
        assert_eq!(c.share(21), 0.0);
        assert_eq!(c.share(0), 0.0);
        assert_eq!(c.share(-3), 0.0);
        assert_eq!(c.traffic(1000, 1), 285.0);
        assert_eq!(c.traffic(-5, 1), 0.0);
        assert!(CURVE_RULE.contains("SISTRIX"));
    }

    #[test]
    fn a_typed_curve_is_checked() {
        let c = Curve::parse("30, 20 ,10%").unwrap();
        assert_eq!(c.0, [30.0, 20.0, 10.0]);
        assert_eq!(c.share(4), 0.0, "past the curve: none");
        assert_eq!(Curve::parse(&Curve::default().text()), Ok(Curve::default()));
        assert!(Curve::parse("").is_err());
        assert!(Curve::parse("10, 20").is_err(), "rising");
        assert!(Curve::parse("60, 50").is_err(), "over 100 in all");
        assert!(Curve::parse("abc").is_err());
        assert!(Curve::parse("101").is_err());
        assert!(Curve::parse(&"1,".repeat(21)).is_err());
    }

    #[test]
    fn traffic_text_rounds_and_marks_under_one() {
        assert_eq!(traffic_text(0.0), "0");
        assert_eq!(traffic_text(0.4), "<1");
        assert_eq!(traffic_text(1234.6), "1,235");
    }
}
