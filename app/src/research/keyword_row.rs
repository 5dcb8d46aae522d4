//! A keyword as the explorer shows it: a search volume record's figures with its search
//! intent, trends, season and opportunity score, computed once per record. Plain data: the
//! explorer's table (`components::keyword::row`), the lists page and the explorer's report
//! (`research::report::explorer`) read it.

use serpkit::ops::search_volume_bulk::SearchVolumeRecord;

use crate::format::fmt_int;
use crate::research::intent::{self, Intents};
use crate::research::score;
use crate::research::trends::{self, Season};

/// A row of the explorer table.
#[derive(Clone, Debug, PartialEq)]
pub struct KeywordRow {
    /// The keyword.
    pub keyword: String,
    /// Its search intents (`research::intent`, with no brand terms: no domain is known; its
    /// Ads figures as evidence for head terms).
    pub intent: Intents,
    /// Country code (for links).
    pub ccode: String,
    /// Search volume.
    pub volume: i64,
    /// Average CPC.
    pub cpc: f64,
    /// Competition 0..1.
    pub competition: f64,
    /// The 12 monthly searches of the window, oldest first, placed by their dates as the
    /// trend columns read them (`trends::by_date`; a missing month is 0).
    pub months: Vec<i64>,
    /// The months the window covers (`Apr 2024 – Mar 2025`; empty without months).
    pub window: String,
    /// 12-month change (`research::trends`): the latest month against the same month a year
    /// earlier; `None` without that 13th month.
    pub change: Option<f64>,
    /// 3-month change: the latest 3 months' mean against the 3 before.
    pub change_3m: Option<f64>,
    /// The month (1–12) with the most searches.
    pub peak: Option<u8>,
    /// The season relative to the current month.
    pub season: Season,
    /// The opportunity score (`research::score`), set by [`score_rows`].
    pub score: Option<f64>,
}

impl KeywordRow {
    /// From a search volume record; `current_month` (1–12) places its season.
    pub fn from_record(r: &SearchVolumeRecord, ccode: &str, current_month: u8) -> KeywordRow {
        let trend = trends::trend(&r.targeted_monthly_searches, current_month);
        KeywordRow {
            keyword: r.keyword.clone(),
            intent: intent::classify_with(
                &r.keyword,
                &[],
                Some(r.average_cpc),
                Some(r.competition),
            ),
            ccode: ccode.to_string(),
            volume: r.search_volume,
            cpc: r.average_cpc,
            competition: r.competition,
            months: trends::by_date(&r.targeted_monthly_searches),
            window: trends::window_text(&r.targeted_monthly_searches),
            change: trend.change_12m,
            change_3m: trend.change_3m,
            peak: trend.peak_month,
            season: trend.season,
            score: None,
        }
    }
}

/// Sets each row's opportunity score: `research::score` on its fixed anchors, so a row's
/// score depends on its own metrics only, not on the other rows.
pub fn score_rows(rows: &mut [KeywordRow], weights: &score::Weights) {
    let metrics: Vec<score::Metrics> = rows
        .iter()
        .map(|r| score::Metrics::new(r.volume, r.cpc, r.competition))
        .collect();
    for (row, value) in rows.iter_mut().zip(score::scores(&metrics, weights)) {
        row.score = value;
    }
}

/// A score as its table cell shows it (whole points, "–" when none).
pub fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "–".into(), |s| format!("{s:.0}"))
}

/// Which 12 months the rows' monthly searches cover, for a report: `Monthly searches: Apr
/// 2024 – Mar 2025.`; empty without monthly data. Decided: rows bought at different times can
/// end in different months, so each window is named with its keyword count (the most common
/// first, at most 3 and how many others), rather than one window that is wrong for some rows.
pub fn covered_text(rows: &[KeywordRow]) -> String {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for r in rows.iter().filter(|r| !r.window.is_empty()) {
        *counts.entry(&r.window).or_default() += 1;
    }
    let mut windows: Vec<(&str, usize)> = counts.into_iter().collect();
    windows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    match windows.as_slice() {
        [] => String::new(),
        [(w, _)] => format!("Monthly searches: {w}."),
        more => {
            let named: Vec<String> = more
                .iter()
                .take(3)
                .map(|(w, n)| {
                    let unit = if *n == 1 { "keyword" } else { "keywords" };
                    format!("{w} ({} {unit})", fmt_int(*n as i64))
                })
                .collect();
            let others = more.len().saturating_sub(3);
            let tail = if others > 0 {
                format!(" and {others} other windows")
            } else {
                String::new()
            };
            format!("Monthly searches: {}{tail}.", named.join(", "))
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The row from a record, the months a set of rows covers; [`record`] is the fixture of
    //! the explorer's tests.
    use super::*;

    /// A record whose 12 months start at `start` (year, month 1–12) with `values`, listed
    /// newest first when `reversed` (an order the lenient decoder keeps).
    pub(crate) fn record(start: (i64, u8), values: &[i64], reversed: bool) -> SearchVolumeRecord {
        let mut months = crate::research::trends::tests::months(start, values);
        if reversed {
            months.reverse();
        }
        SearchVolumeRecord {
            ccode: "us".into(),
            keyword: "trail shoes".into(),
            average_cpc: 1.0,
            competition: 0.5,
            search_volume: 100,
            targeted_monthly_searches: months,
        }
    }

    #[test]
    fn the_months_are_placed_by_date() {
        let values: Vec<i64> = (1..=12).map(|v| v * 10).collect();
        let row = KeywordRow::from_record(&record((2024, 4), &values, true), "us", 3);
        assert_eq!(row.months, values, "oldest first whatever the array order");
        assert_eq!(row.window, "Apr 2024 – Mar 2025");
        // 12 months: no year over year.
        assert_eq!(row.change, None);
        assert_eq!(score_text(None), "–");
        assert_eq!(score_text(Some(41.6)), "42");
    }

    #[test]
    fn the_months_covered_are_named_with_their_keyword_counts() {
        let a = KeywordRow::from_record(&record((2024, 4), &[100; 12], false), "us", 3);
        let b = KeywordRow::from_record(&record((2024, 5), &[100; 12], false), "us", 3);
        assert_eq!(covered_text(&[]), "");
        assert_eq!(
            covered_text(&[a.clone(), a.clone()]),
            "Monthly searches: Apr 2024 – Mar 2025."
        );
        assert_eq!(
            covered_text(&[b.clone(), a.clone(), b.clone()]),
            "Monthly searches: May 2024 – Apr 2025 (2 keywords), Apr 2024 – Mar 2025 (1 keyword)."
        );
    }
}
