//! The keyword explorer's report: summary figures, the top keywords by volume as bars, the
//! keywords with their trends (sparklines), season, score and intent, and the rules.

use super::{first_rows_note, Block, Cell, Report, Section, REPORT_ROWS};
use crate::format::{fmt_change, fmt_cpc, fmt_int};
use crate::research::intent::{self, Intents};
use crate::research::keyword_row::{covered_text, score_text, KeywordRow};
use crate::research::trends::{self, Season};

/// Keywords per intent ("Informational 12, Navigational 0, …, unclassified 3"; a keyword
/// with several intents counts in each), for the report's summary.
fn intent_counts(rows: &[KeywordRow]) -> String {
    let sets: Vec<Intents> = rows.iter().map(|r| r.intent).collect();
    intent::Intent::ALL
        .iter()
        .map(|x| x.label())
        .chain([intent::UNCLASSIFIED])
        .zip(intent::distribution(&sets, &[]))
        .map(|(x, (n, _))| format!("{x} {}", fmt_int(n as i64)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The explorer's report: summary figures, the top keywords by volume as bars, the keywords
/// with their trends (sparklines), season and score, and the rules. `extra` sections (the
/// keyword groups) follow the table.
pub fn keyword_report(
    rows: &[KeywordRow],
    country: &str,
    score_formula: &str,
    date: &str,
    extra: Vec<Section>,
) -> Report {
    let total: i64 = rows.iter().map(|r| r.volume).sum();
    let seasonal = rows
        .iter()
        .filter(|r| {
            matches!(
                r.season,
                Season::InSeason | Season::Approaching | Season::OutOfSeason
            )
        })
        .count();
    let in_season = rows.iter().filter(|r| r.season == Season::InSeason).count();
    let mut by_volume: Vec<&KeywordRow> = rows.iter().collect();
    by_volume.sort_by(|a, b| {
        b.volume
            .cmp(&a.volume)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    let shown = by_volume.len().min(REPORT_ROWS);
    let table = by_volume[..shown]
        .iter()
        .map(|r| {
            vec![
                Cell::from(r.keyword.as_str()),
                fmt_int(r.volume).into(),
                fmt_cpc(r.cpc).into(),
                format!("{:.2}", r.competition).into(),
                Cell::Spark(r.months.clone()),
                fmt_change(r.change).into(),
                fmt_change(r.change_3m).into(),
                trends::month_short(r.peak).into(),
                r.season.label().into(),
                score_text(r.score).into(),
                r.intent.text().into(),
            ]
        })
        .collect();
    let covered = covered_text(rows);
    let mut notes = vec![
        covered.clone(),
        trends::CHANGE_RULE.to_string(),
        trends::SEASON_RULE.to_string(),
        format!("{} {}", intent::RULE, intent::NO_BRAND_NOTE),
        score_formula.to_string(),
    ];
    notes.retain(|n| !n.is_empty());
    if let Some(note) = first_rows_note(rows.len(), "keywords") {
        notes.insert(0, note);
    }
    let mut sections = vec![
        Section {
            heading: "Summary".into(),
            notes: Vec::new(),
            blocks: vec![
                Block::Figures(vec![
                    ("Keywords".into(), fmt_int(rows.len() as i64)),
                    ("Total monthly volume".into(), fmt_int(total)),
                    ("Seasonal".into(), fmt_int(seasonal as i64)),
                    ("In season now".into(), fmt_int(in_season as i64)),
                    ("By intent".into(), intent_counts(rows)),
                ]),
                Block::Bars {
                    title: "Top keywords by monthly search volume".into(),
                    bars: by_volume
                        .iter()
                        .take(20)
                        .map(|r| (r.keyword.clone(), r.volume as f64))
                        .collect(),
                },
            ],
        },
        Section {
            heading: "Keywords".into(),
            notes,
            blocks: vec![Block::Table {
                caption: format!("Search intent, volume, trends and opportunity ({country})"),
                headers: [
                    "Keyword",
                    "#Volume",
                    "#CPC",
                    "#Ads competition",
                    "12 months",
                    "#12-month change",
                    "#3-month change",
                    "Peak",
                    "Season",
                    "#Opportunity",
                    "Intent",
                ]
                .map(String::from)
                .to_vec(),
                rows: table,
            }],
        },
    ];
    sections.extend(extra);
    Report {
        title: format!(
            "Keyword research: {} keywords ({country})",
            fmt_int(rows.len() as i64)
        ),
        subtitle: format!("Exported {date} from search volumes already bought. {covered}")
            .trim_end()
            .to_string(),
        sections,
        contents: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::keyword_row::tests::record;

    fn row(keyword: &str, volume: i64, start: (i64, u8)) -> KeywordRow {
        let mut r = record(start, &[100; 12], false);
        r.keyword = keyword.into();
        r.search_volume = volume;
        KeywordRow::from_record(&r, "us", 3)
    }

    #[test]
    fn the_summary_counts_intents_and_the_table_ends_with_intent() {
        let report = keyword_report(
            &[row("best trail shoes price", 100, (2024, 4))],
            "US",
            "formula",
            "2025-03-01",
            Vec::new(),
        );
        let Block::Figures(figures) = &report.sections[0].blocks[0] else {
            panic!("figures first");
        };
        assert_eq!(figures[0], ("Keywords".to_string(), "1".to_string()));
        assert_eq!(
            figures.last().map(|f| f.1.as_str()),
            Some("Informational 0, Navigational 0, Commercial 1, Transactional 1, unclassified 0")
        );
        let Block::Table { headers, rows, .. } = &report.sections[1].blocks[0] else {
            panic!("the keyword table");
        };
        assert_eq!(headers.last().map(String::as_str), Some("Intent"));
        assert_eq!(rows[0].len(), headers.len());
        assert!(report.sections[1]
            .notes
            .iter()
            .any(|n| n.contains("no brand terms")));
        assert_eq!(
            report.sections[1].notes.last().map(String::as_str),
            Some("formula")
        );
    }

    #[test]
    fn a_report_says_which_months_it_covers() {
        let report = keyword_report(
            &[row("a", 1, (2024, 4))],
            "US",
            "",
            "2025-03-01",
            Vec::new(),
        );
        assert!(
            report
                .subtitle
                .ends_with("Monthly searches: Apr 2024 – Mar 2025."),
            "{}",
            report.subtitle
        );
        assert!(report.subtitle.starts_with("Exported 2025-03-01 "));
        assert_eq!(
            report.sections[1].notes[0],
            "Monthly searches: Apr 2024 – Mar 2025."
        );
    }

    #[test]
    fn rows_are_by_volume_and_cut_with_a_note() {
        let rows: Vec<KeywordRow> = (0..REPORT_ROWS as i64 + 2)
            .map(|i| row(&format!("k{i:04}"), i, (2024, 4)))
            .collect();
        let extra = Section {
            heading: "After".into(),
            ..Section::default()
        };
        let report = keyword_report(&rows, "US", "", "2025-03-01", vec![extra]);
        assert_eq!(report.title, "Keyword research: 502 keywords (US)");
        let Block::Table { rows: table, .. } = &report.sections[1].blocks[0] else {
            panic!("the keyword table");
        };
        assert_eq!(table.len(), REPORT_ROWS);
        assert_eq!(table[0][0], Cell::from("k0501"), "the highest volume first");
        assert!(report.sections[1].notes[0].starts_with("The first 500 of 502 keywords"));
        let Block::Bars { bars, .. } = &report.sections[0].blocks[1] else {
            panic!("the bars");
        };
        assert_eq!(bars.len(), 20);
        assert_eq!(
            report.sections.last().map(|s| s.heading.as_str()),
            Some("After")
        );
    }
}
