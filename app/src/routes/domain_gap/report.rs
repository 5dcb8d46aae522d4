//! The content gap as one HTML report (`research::report`): the counts, the rules as
//! computed, then each list's first rows.

use crate::components::keyword_row::REPORT_ROWS;
use crate::components::{fmt_int, fmt_time};
use crate::research::brand;
use crate::research::gap::{self, Gap, GapList, Options};
use crate::research::report::{self, Block, Report, Section};

/// The content gap as a report (file name, report): the counts, then each list's first
/// [`REPORT_ROWS`] rows by volume.
pub fn gap_report(g: &Gap, domains: &[String], options: &Options, brand: &str) -> (String, Report) {
    let best_domain = |i: usize| {
        g.best[i]
            .and_then(|s| domains.get(s + 1))
            .map(String::as_str)
    };
    let you = domains.first().cloned().unwrap_or_default();
    let rivals = domains
        .iter()
        .skip(1)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let rank =
        |p: Option<&gap::Position>| p.map_or_else(|| "–".to_string(), |p| p.rank.to_string());
    let mut sections = vec![Section {
        heading: "Summary".into(),
        notes: vec![
            gap::rules_text(options),
            format!(
                "{} Brand terms: {}. Left out: {}.",
                brand::BRAND_RULE,
                if brand.trim().is_empty() {
                    "none"
                } else {
                    brand.trim()
                },
                fmt_int(g.branded as i64)
            ),
        ],
        blocks: vec![
            Block::Figures(
                GapList::ALL
                    .iter()
                    .map(|&l| (l.label().to_string(), fmt_int(g.list(l).len() as i64)))
                    .collect(),
            ),
            Block::Bars {
                title: "Keywords per list".into(),
                bars: GapList::ALL
                    .iter()
                    .map(|&l| (l.label().to_string(), g.list(l).len() as f64))
                    .collect(),
            },
        ],
    }];
    for list in GapList::ALL {
        let rows = g.list(list);
        let mut notes = Vec::new();
        if rows.len() > REPORT_ROWS {
            notes.push(format!(
                "The first {REPORT_ROWS} of {} keywords by volume; the CSV export has every row.",
                fmt_int(rows.len() as i64)
            ));
        }
        let table = rows
            .iter()
            .take(REPORT_ROWS)
            .map(|&i| {
                let i = i as usize;
                let theirs = g.best_position(i);
                vec![
                    report::Cell::from(g.keyword[i].as_str()),
                    fmt_int(g.volume[i]).into(),
                    format!("{:.2}", g.competition[i]).into(),
                    rank(g.yours[i].as_ref()).into(),
                    best_domain(i).unwrap_or("–").into(),
                    rank(theirs).into(),
                    report::Cell::Url(theirs.map(|p| p.url.clone()).unwrap_or_default()),
                ]
            })
            .collect();
        sections.push(Section {
            heading: format!("{} ({})", list.label(), fmt_int(rows.len() as i64)),
            notes,
            blocks: vec![Block::Table {
                caption: format!("{}: {you} against {rivals}", list.label()),
                headers: [
                    "Keyword",
                    "#Volume",
                    "#Competition",
                    "#Your rank",
                    "Best competitor",
                    "#Its rank",
                    "Its URL",
                ]
                .map(String::from)
                .to_vec(),
                rows: table,
            }],
        });
    }
    let report = Report {
        title: format!("Content gap: {you} against {rivals}"),
        subtitle: format!(
            "Exported {} from the ranked keywords already bought.",
            fmt_time(js_sys::Date::now())
        ),
        sections,
    };
    (format!("content-gap-{you}.html"), report)
}
