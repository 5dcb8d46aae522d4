//! The opportunity score: a transparent 0–100 score of a keyword from its volume, CPC and
//! competition.
//!
//! Formula ([`formula_text`] shows it next to the column): each metric is put on 0–1 by a
//! fixed anchor, the same for every list: volume as `log10(1 + volume) / 5` (100,000 searches
//! a month and more count 1), CPC as `log10(1 + cpc) / log10(51)` (50 and more count 1),
//! competition as it is (0–1), inverted (lower is better). The score is the weighted mean of
//! the metrics the keyword has, × 100.
//!
//! Why fixed anchors rather than min–max within the list: one keyword with a CPC of 300 no
//! longer flattens 1, 1.50 and 2 to one value (on the log scale they stay apart, and 300 is
//! capped at 1); a list of one keyword scores what that keyword is worth, not always 50; and a
//! keyword keeps its score from list to list.
//!
//! **One keyword, one score.** The score reads only the metrics every keyword operation
//! reports (search volume bulk and single, related keywords): volume, CPC, competition.
//! Decided: keyword difficulty, which only related keywords report, is left out (it is shown
//! in its own column there). With it, the same keyword scored 70 in the explorer (no
//! difficulty: its weight left out of the mean) and 55 among related keywords (difficulty
//! counted) for the same volume, CPC and competition. [`Metrics::new`] and
//! [`Metrics::of_related`] are the only ways the pages build the metrics.
//!
//! Decided here: negative or non-finite values count as missing (left out of the mean, weight
//! included); values past an anchor count as the anchor; all weights zero gives no score.

use serpkit::ops::related::RelatedKeyword;

/// The weights of the four metrics (editable in Settings).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Weights {
    /// Search volume (higher is better).
    pub volume: f64,
    /// Cost per click (higher: more valuable traffic).
    pub cpc: f64,
    /// Competition (lower is better).
    pub competition: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            volume: 3.0,
            cpc: 1.0,
            competition: 1.0,
        }
    }
}

/// One keyword's metrics; `None` where unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Monthly search volume.
    pub volume: Option<f64>,
    /// Cost per click.
    pub cpc: Option<f64>,
    /// Competition, 0–1.
    pub competition: Option<f64>,
}

impl Metrics {
    /// The metrics every keyword operation reports: the explorer's and lists' rows (search
    /// volume records) are scored from these.
    pub fn new(volume: i64, cpc: f64, competition: f64) -> Metrics {
        Metrics {
            volume: Some(volume as f64),
            cpc: Some(cpc),
            competition: Some(competition),
        }
    }

    /// A related keyword's metrics: the same three (its difficulty is not part of the score).
    pub fn of_related(r: &RelatedKeyword) -> Metrics {
        Metrics::new(r.search_volume, r.cpc, r.competition)
    }
}

/// The formula as shown next to the column.
pub fn formula_text(w: &Weights) -> String {
    format!(
        "Opportunity = 100 × ({} × volume + {} × CPC + {} × (1 − competition)) ÷ the weights of \
         the metrics the keyword has. Each metric is put on 0–1 by a fixed anchor, the same in \
         every list: volume log10(1 + volume) ÷ 5 (100,000 a month counts 1), CPC log10(1 + CPC) \
         ÷ log10(51) (50 counts 1), competition 0–1. Only the metrics every operation reports \
         count, so a keyword has one score on every page (keyword difficulty is not part of it).",
        num(w.volume),
        num(w.cpc),
        num(w.competition),
    )
}

fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// A usable value: finite and not negative.
fn usable(v: Option<f64>) -> Option<f64> {
    v.filter(|v| v.is_finite() && *v >= 0.0)
}

/// The scores of a list, in its order (`None`: no metric with a weight).
pub fn scores(list: &[Metrics], w: &Weights) -> Vec<Option<f64>> {
    list.iter()
        .map(|m| {
            let parts = [
                (usable(m.volume).map(|v| (1.0 + v).log10() / 5.0), w.volume),
                (
                    usable(m.cpc).map(|v| (1.0 + v).log10() / 51f64.log10()),
                    w.cpc,
                ),
                (usable(m.competition).map(|v| 1.0 - v), w.competition),
            ];
            let (mut sum, mut weights) = (0.0, 0.0);
            for (value, weight) in parts {
                if let Some(value) = value {
                    let weight = weight.max(0.0);
                    sum += weight * value.clamp(0.0, 1.0);
                    weights += weight;
                }
            }
            (weights > 0.0).then(|| 100.0 * sum / weights)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(volume: f64, cpc: f64, competition: f64) -> Metrics {
        Metrics {
            volume: Some(volume),
            cpc: Some(cpc),
            competition: Some(competition),
        }
    }

    fn only(weight: &str) -> Weights {
        let mut w = Weights {
            volume: 0.0,
            cpc: 0.0,
            competition: 0.0,
        };
        match weight {
            "volume" => w.volume = 1.0,
            "cpc" => w.cpc = 1.0,
            _ => w.competition = 1.0,
        }
        w
    }

    #[test]
    fn best_and_worst_by_the_fixed_anchors() {
        let w = Weights::default();
        let list = [m(100_000.0, 50.0, 0.0), m(0.0, 0.0, 1.0)];
        assert_eq!(scores(&list, &w), vec![Some(100.0), Some(0.0)]);
    }

    #[test]
    fn one_keyword_scores_the_same_in_the_explorer_and_among_related_keywords() {
        // The case: the same figures scored 70 in the explorer and 55 among related
        // keywords, whose difficulty counted there and nowhere else.
        let related = RelatedKeyword {
            keyword: "crm software".into(),
            search_volume: 12_100,
            cpc: 6.5,
            competition: 0.4,
            kd: 85,
        };
        let w = Weights::default();
        let a = scores(&[Metrics::new(12_100, 6.5, 0.4)], &w);
        let b = scores(&[Metrics::of_related(&related)], &w);
        assert_eq!(a, b);
        assert!(a[0].is_some());
    }

    #[test]
    fn one_cpc_outlier_does_not_flatten_the_rest() {
        let list = [
            m(10.0, 1.0, 0.5),
            m(10.0, 1.5, 0.5),
            m(10.0, 2.0, 0.5),
            m(10.0, 300.0, 0.5),
        ];
        let s: Vec<f64> = scores(&list, &only("cpc")).into_iter().flatten().collect();
        // 1, 1.50 and 2 stay apart by several points; 300 is past the anchor (counts 1).
        assert!(s[1] - s[0] > 4.0 && s[2] - s[1] > 4.0, "{s:?}");
        assert_eq!(s[3], 100.0);
        // The same keywords without the outlier score the same: the list does not matter.
        assert_eq!(
            scores(&list[..3], &only("cpc")),
            scores(&list, &only("cpc"))[..3]
        );
    }

    #[test]
    fn a_one_row_list_scores_its_own_worth_not_50() {
        let w = Weights::default();
        let strong = scores(&[m(50_000.0, 8.0, 0.1)], &w)[0].unwrap();
        let weak = scores(&[m(20.0, 0.1, 0.95)], &w)[0].unwrap();
        assert!(strong > 70.0 && weak < 30.0, "{strong} {weak}");
    }

    #[test]
    fn weights_and_formula() {
        let list = [m(0.0, 1.0, 0.5), m(99_999.0, 1.0, 0.5)];
        let s = scores(&list, &only("volume"));
        assert_eq!(s[0], Some(0.0));
        assert!((s[1].unwrap() - 100.0).abs() < 1e-9);
        let text = formula_text(&Weights::default());
        assert!(
            text.starts_with("Opportunity = 100 × (3 × volume + 1 × CPC + 1 × (1 − competition))")
        );
        assert!(text.contains("one score on every page"));
        let all_zero = Weights {
            cpc: 0.0,
            ..only("cpc")
        };
        assert_eq!(scores(&list, &all_zero), vec![None, None]);
    }

    #[test]
    fn missing_and_odd_metrics() {
        let w = Weights::default();
        // Negative and non-finite values count as missing; competition past 1 counts 1.
        let odd = [Metrics {
            volume: Some(-5.0),
            cpc: Some(f64::NAN),
            ..Default::default()
        }];
        assert_eq!(scores(&odd, &w), vec![None]);
        let no_cpc = Metrics {
            cpc: None,
            ..m(100_000.0, 0.0, 0.0)
        };
        assert_eq!(scores(&[no_cpc], &w), vec![Some(100.0)]);
        assert_eq!(
            scores(&[m(0.0, 0.0, 7.0)], &only("competition")),
            vec![Some(0.0)]
        );
        assert!(scores(&[], &w).is_empty());
    }
}
