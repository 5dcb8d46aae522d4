//! Tests of the explorer's rows on screen: the change column's title, intents in the CSV.
use super::*;
use crate::research::keyword_row::tests::record;

#[test]
fn the_change_column_says_what_it_compares() {
    let values: Vec<i64> = (1..=12).map(|v| v * 10).collect();
    let row = KeywordRow::from_record(&record((2024, 4), &values, true), "us", 3);
    assert_eq!(row.change, None, "12 months: blank");
    assert!(CHANGE_TITLE.contains("a year earlier"));
}

#[test]
fn a_row_has_its_intents_in_the_csv() {
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
}
