//! The clusters by shared search results as a report section (the explorer's report ends with
//! it, after the keyword groups): built from the outlines already bought only. The keywords
//! whose outline is not bought are in no cluster; the section says how many and what their
//! outlines cost, as a client report's part not bought does. Nothing is bought to make it.

use serpkit::Usd;

use super::{first_rows_note, Block, Cell, Section, REPORT_ROWS};
use crate::format::fmt_int;
use crate::research::serp_clusters::{Clustered, RULE};

/// "s" unless one.
fn plural_s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Keywords named per cluster (then "and N more").
const NAMED: usize = 10;

/// Clusters drawn as bars.
const BARS: usize = 15;

/// The report section of the clustering `c`; `missing` is the price of the outlines of its
/// keywords not bought yet (`c.unbought`).
pub fn clusters_section(c: &Clustered, missing: Usd) -> Section {
    let n = c.min_shared;
    let mut notes = vec![
        RULE.to_string(),
        format!(
            "Keywords are clustered with a pivot when they share at least {n} of their top-10 \
             results with it (N = {n}); the number after a keyword is how many it shares."
        ),
    ];
    let left = c.unbought.len();
    if left > 0 {
        notes.push(format!(
            "{} keyword{} {} no outline bought yet and {} in no cluster: their outlines cost {missing} \
             (the explorer's clusters panel prices them first). Nothing was bought to make this report.",
            fmt_int(left as i64),
            plural_s(left),
            if left == 1 { "has" } else { "have" },
            if left == 1 { "is" } else { "are" },
        ));
    }
    if c.unreadable > 0 {
        notes.push(format!(
            "{} stored outline{} could not be read: each keyword is a cluster of its own.",
            fmt_int(c.unreadable as i64),
            plural_s(c.unreadable)
        ));
    }
    notes.extend(first_rows_note(c.rows.len(), "clusters"));
    let table = c
        .rows
        .iter()
        .take(REPORT_ROWS)
        .map(|r| {
            let mut named: Vec<String> = r.keywords[1..]
                .iter()
                .zip(&r.shared[1..])
                .take(NAMED)
                .map(|(k, s)| format!("{k} ({s})"))
                .collect();
            let more = r.keywords.len().saturating_sub(NAMED + 1);
            if more > 0 {
                named.push(format!("and {more} more"));
            }
            vec![
                Cell::from(r.keywords[0].as_str()),
                fmt_int(r.keywords.len() as i64).into(),
                fmt_int(r.volume).into(),
                named.join(", ").into(),
            ]
        })
        .collect();
    let blocks = if c.rows.is_empty() {
        Vec::new()
    } else {
        vec![
            Block::Bars {
                title: "Largest clusters by summed volume".into(),
                bars: c
                    .rows
                    .iter()
                    .take(BARS)
                    .map(|r| (r.keywords[0].clone(), r.volume as f64))
                    .collect(),
            },
            Block::Table {
                caption: "Clusters by shared search results: the pivot keyword and the keywords \
                          clustered with it"
                    .into(),
                headers: [
                    "Cluster (pivot keyword)",
                    "#Keywords",
                    "#Volume",
                    "Clustered with it (shared results)",
                ]
                .map(String::from)
                .to_vec(),
                rows: table,
            },
        ]
    };
    Section {
        heading: format!(
            "Clusters by shared search results ({})",
            fmt_int(c.rows.len() as i64)
        ),
        notes,
        blocks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::report::{render_as, Origin, Report};
    use crate::research::serp_clusters::ClusterRow;

    fn clustered(rows: Vec<ClusterRow>, unbought: usize) -> Clustered {
        Clustered {
            rows,
            unbought: (0..unbought).map(|i| (format!("k{i}"), 10)).collect(),
            unreadable: 0,
            min_shared: 3,
            millis: 0.0,
        }
    }

    fn row(keywords: &[&str], shared: &[usize]) -> ClusterRow {
        ClusterRow {
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            volumes: vec![100; keywords.len()],
            shared: shared.to_vec(),
            volume: 100 * keywords.len() as i64,
        }
    }

    #[test]
    fn the_section_lists_clusters_and_prices_the_outlines_not_bought() {
        let c = clustered(
            vec![
                row(
                    &["running shoes", "best running shoes", "cheap running shoes"],
                    &[10, 4, 3],
                ),
                row(&["winter coat"], &[9]),
            ],
            10,
        );
        let s = clusters_section(&c, Usd::from_micros(5_000_000));
        assert_eq!(s.heading, "Clusters by shared search results (2)");
        assert_eq!(s.notes[0], RULE);
        assert!(s.notes[1].contains("at least 3 of their top-10 results"));
        assert_eq!(
            s.notes[2],
            "10 keywords have no outline bought yet and are in no cluster: their outlines cost \
             $5.0000 (the explorer's clusters panel prices them first). Nothing was bought to \
             make this report."
        );
        let Block::Table { rows, .. } = &s.blocks[1] else {
            panic!("the table second")
        };
        assert_eq!(
            rows[0],
            [
                Cell::from("running shoes"),
                Cell::from("3"),
                Cell::from("300"),
                Cell::from("best running shoes (4), cheap running shoes (3)"),
            ]
        );
        assert_eq!(rows[1][3], Cell::from(""));
    }

    #[test]
    fn every_outline_bought_says_nothing_is_missing_none_bought_shows_no_table() {
        let all = clusters_section(&clustered(vec![row(&["a"], &[10])], 0), Usd::ZERO);
        assert_eq!(all.notes.len(), 2);
        let none = clusters_section(&clustered(Vec::new(), 1), Usd::from_micros(500_000));
        assert_eq!(none.heading, "Clusters by shared search results (0)");
        assert!(none.blocks.is_empty());
        assert!(none.notes[2].starts_with(
            "1 keyword has no outline bought yet and is in no cluster: their outlines cost $0.5000"
        ));
        // Many members: the first ten named, then how many more.
        let many: Vec<String> = (0..13).map(|i| format!("k{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let s = clusters_section(&clustered(vec![row(&names, &[3; 13])], 0), Usd::ZERO);
        let Block::Table { rows, .. } = &s.blocks[1] else {
            panic!("the table second")
        };
        let Cell::Text(list) = &rows[0][3] else {
            panic!("text")
        };
        assert!(list.ends_with("k10 (3), and 2 more"), "{list}");
    }

    #[test]
    fn keywords_are_escaped_text() {
        let evil = "<img src=x onerror=alert(1)>";
        let s = clusters_section(&clustered(vec![row(&[evil, evil], &[3, 3])], 0), Usd::ZERO);
        let html = render_as(
            &Report {
                title: "t".into(),
                subtitle: String::new(),
                sections: vec![s],
                contents: false,
            },
            Origin::Live,
        );
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    }
}
