//! The opportunity score: a transparent 0–100 score of a keyword within the current list,
//! from its volume, CPC, competition and, where the operation gives it, keyword difficulty.
//!
//! Formula ([`formula_text`] shows it next to the column): each metric is normalised within
//! the list to 0–1 by min–max (volume on a log scale, `log10(1 + volume)`, so one huge keyword
//! does not flatten the rest); competition and difficulty count inverted (lower is better);
//! the score is the weighted mean of the metrics the keyword has, × 100.
//!
//! Decided here: a metric missing for a keyword (no difficulty from
//! search volume records) leaves it out of that keyword's mean, weight included, so rows with
//! and without it stay comparable; a metric equal for every keyword (min = max) normalises to
//! 0.5 for all, neutral; negative or non-finite values count as missing; all weights zero
//! gives no score.

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
    /// Keyword difficulty (lower is better), where known.
    pub difficulty: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            volume: 3.0,
            cpc: 1.0,
            competition: 1.0,
            difficulty: 2.0,
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
    /// Competition (any scale: it is normalised within the list).
    pub competition: Option<f64>,
    /// Keyword difficulty (0–100).
    pub difficulty: Option<f64>,
}

/// The formula as shown next to the column.
pub fn formula_text(w: &Weights) -> String {
    format!(
        "Opportunity = 100 × ({} × volume + {} × CPC + {} × (1 − competition) + {} × (1 − difficulty)) \
         ÷ the weights of the metrics the keyword has. Each metric is scaled 0–1 within this list \
         (volume on a log scale); a metric equal for all counts 0.5.",
        num(w.volume),
        num(w.cpc),
        num(w.competition),
        num(w.difficulty)
    )
}

fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// Min–max scaling of one metric over the list: a function from a value to 0–1.
fn scale(values: impl Iterator<Item = Option<f64>>) -> impl Fn(f64) -> f64 {
    let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.flatten() {
        min = min.min(v);
        max = max.max(v);
    }
    move |v| {
        if max > min {
            ((v - min) / (max - min)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }
}

/// A usable value: finite and not negative.
fn usable(v: Option<f64>) -> Option<f64> {
    v.filter(|v| v.is_finite() && *v >= 0.0)
}

/// The scores of a list, in its order (`None`: no metric with a weight).
pub fn scores(list: &[Metrics], w: &Weights) -> Vec<Option<f64>> {
    let volume = |m: &Metrics| usable(m.volume).map(|v| (1.0 + v).log10());
    let volume_scale = scale(list.iter().map(volume));
    let cpc_scale = scale(list.iter().map(|m| usable(m.cpc)));
    let competition_scale = scale(list.iter().map(|m| usable(m.competition)));
    let difficulty_scale = scale(list.iter().map(|m| usable(m.difficulty)));
    list.iter()
        .map(|m| {
            let parts = [
                (volume(m).map(&volume_scale), w.volume),
                (usable(m.cpc).map(&cpc_scale), w.cpc),
                (
                    usable(m.competition).map(|v| 1.0 - competition_scale(v)),
                    w.competition,
                ),
                (
                    usable(m.difficulty).map(|v| 1.0 - difficulty_scale(v)),
                    w.difficulty,
                ),
            ];
            let (mut sum, mut weights) = (0.0, 0.0);
            for (value, weight) in parts {
                if let Some(value) = value {
                    let weight = weight.max(0.0);
                    sum += weight * value;
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

    fn m(volume: f64, cpc: f64, competition: f64, difficulty: Option<f64>) -> Metrics {
        Metrics {
            volume: Some(volume),
            cpc: Some(cpc),
            competition: Some(competition),
            difficulty,
        }
    }

    #[test]
    fn best_and_worst_of_a_list() {
        let w = Weights::default();
        let list = [
            m(9999.0, 2.0, 0.1, Some(10.0)),
            m(0.0, 0.5, 0.9, Some(90.0)),
        ];
        let s = scores(&list, &w);
        assert_eq!(s, vec![Some(100.0), Some(0.0)]);
    }

    #[test]
    fn weights_and_formula() {
        // Volume only: the log-scaled volume decides.
        let w = Weights {
            volume: 1.0,
            cpc: 0.0,
            competition: 0.0,
            difficulty: 0.0,
        };
        let list = [
            m(0.0, 1.0, 0.5, None),
            m(9.0, 1.0, 0.5, None),
            m(99.0, 1.0, 0.5, None),
        ];
        let s = scores(&list, &w);
        assert_eq!(s, vec![Some(0.0), Some(50.0), Some(100.0)]);
        assert!(formula_text(&Weights::default()).starts_with(
            "Opportunity = 100 × (3 × volume + 1 × CPC + 1 × (1 − competition) + 2 × (1 − difficulty))"
        ));
        let all_zero = Weights { volume: 0.0, ..w };
        assert_eq!(scores(&list, &all_zero), vec![None, None, None]);
    }

    #[test]
    fn constant_and_missing_metrics() {
        // Every metric equal: 0.5 everywhere, so 50.
        let same = [m(10.0, 1.0, 0.5, Some(20.0)), m(10.0, 1.0, 0.5, Some(20.0))];
        assert_eq!(
            scores(&same, &Weights::default()),
            vec![Some(50.0), Some(50.0)]
        );
        // No difficulty on one row: its mean leaves difficulty (and its weight) out.
        let w = Weights::default();
        let list = [m(100.0, 2.0, 0.2, None), m(10.0, 1.0, 0.4, Some(50.0))];
        let s = scores(&list, &w);
        // Row 0: volume 1, cpc 1, competition 1 → (3 + 1 + 1) / 5 = 100.
        assert_eq!(s[0], Some(100.0));
        // Row 1: volume 0, cpc 0, competition 0, difficulty 0.5 (the only one) → 2 × 0.5 / 7.
        let expected = 100.0 * (2.0 * 0.5) / 7.0;
        assert!((s[1].unwrap() - expected).abs() < 1e-9);
        // Negative and non-finite values count as missing.
        let odd = [Metrics {
            volume: Some(-5.0),
            cpc: Some(f64::NAN),
            ..Default::default()
        }];
        assert_eq!(scores(&odd, &w), vec![None]);
        assert!(scores(&[], &w).is_empty());
    }
}
