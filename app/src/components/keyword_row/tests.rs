//! Tests of the explorer's rows: months by date, intents, the report's coverage.
use super::*;
use serpkit::ops::search_volume_bulk::MonthlySearch;
use serpkit::rules::formats::MONTH_NAMES;

/// A record whose 12 months start at `start` (year, month 1–12) with `values`, listed
/// newest first when `reversed` (an order the lenient decoder keeps).
fn record(start: (i64, u8), values: &[i64], reversed: bool) -> SearchVolumeRecord {
    let mut months: Vec<MonthlySearch> = values
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let at = start.0 * 12 + i64::from(start.1) - 1 + k as i64;
            let name = MONTH_NAMES[at.rem_euclid(12) as usize];
            MonthlySearch {
                month: name.into(),
                year: at.div_euclid(12),
                value: *v,
                count: *v,
                date: format!("{}-{name}", at.div_euclid(12)),
            }
        })
        .collect();
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
fn the_sparkline_places_months_by_date_as_the_trend_columns_do() {
    let values: Vec<i64> = (1..=12).map(|v| v * 10).collect();
    let row = KeywordRow::from_record(&record((2024, 4), &values, true), "us", 3);
    assert_eq!(row.months, values, "oldest first whatever the array order");
    assert_eq!(row.window, "Apr 2024 – Mar 2025");
    // 120 against 10: the window's ends, an 11-month span.
    assert_eq!(row.change, Some(11.0));
    assert_eq!(row.change_span, 11);
    assert!(change_title(row.change_span).contains("11-month"));
    assert!(change_title(12).contains("a year earlier"));
}

#[test]
fn a_row_has_its_intents_in_the_csv_and_the_report() {
    let mut r = record((2024, 4), &[100; 12], false);
    r.keyword = "best trail shoes price".into();
    let row = KeywordRow::from_record(&r, "us", 3);
    assert_eq!(row.intent.letters(), "C T");
    let csv = keywords_csv(std::slice::from_ref(&r.keyword), std::slice::from_ref(&row));
    let mut lines = csv.trim_start_matches('\u{FEFF}').lines();
    assert!(lines.next().is_some_and(|h| h.ends_with(",Intent")));
    assert!(lines
        .next()
        .is_some_and(|l| l.ends_with(",\"Commercial, Transactional\"")));
    let report = keyword_report(&[row], "US", "formula", "2025-03-01", Vec::new());
    let Block::Figures(figures) = &report.sections[0].blocks[0] else {
        panic!("figures first");
    };
    assert_eq!(
        figures.last().map(|f| f.1.as_str()),
        Some("Informational 0, Navigational 0, Commercial 1, Transactional 1")
    );
    let Block::Table { headers, .. } = &report.sections[1].blocks[0] else {
        panic!("the keyword table");
    };
    assert_eq!(headers.last().map(String::as_str), Some("Intent"));
    assert!(report.sections[1]
        .notes
        .iter()
        .any(|n| n.contains("no brand terms")));
}

#[test]
fn a_report_says_which_months_it_covers() {
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
    let report = keyword_report(&[a], "US", "formula", "2025-03-01", Vec::new());
    assert!(
        report
            .subtitle
            .ends_with("Monthly searches: Apr 2024 – Mar 2025."),
        "{}",
        report.subtitle
    );
    assert_eq!(
        report.sections[1].notes[0],
        "Monthly searches: Apr 2024 – Mar 2025."
    );
}
