//! The search intent of a domain's ranked keywords as a report: keywords and searches per
//! intent with the rule, then the keywords listed as the page shows them.

use super::{Block, Cell, Report, Section, REPORT_ROWS};
use crate::format::fmt_int;
use crate::research::intent::{self, Intent};
use crate::research::top_pages::Rows;

/// The intent report (file name, report) of `domain`'s ranked keywords `rows`: `text` is each
/// row's intents as text, `dist` the keywords and searches per intent ([`Intent::ALL`]'s
/// order, then unclassified), `order` the rows listed, in the page's order (the first [`REPORT_ROWS`]). A row
/// index outside the rows is skipped.
pub fn intent_report(
    rows: Rows<'_>,
    text: &[String],
    dist: &[(usize, i64); 5],
    domain: &str,
    order: &[u32],
) -> (String, Report) {
    let names = Intent::ALL
        .iter()
        .map(|x| x.label())
        .chain([intent::UNCLASSIFIED]);
    let figures = names
        .zip(dist)
        .map(|(x, (c, v))| {
            (
                x.to_string(),
                format!("{} keywords, {} searches", fmt_int(*c as i64), fmt_int(*v)),
            )
        })
        .collect();
    let table: Vec<Vec<Cell>> = order
        .iter()
        .filter_map(|&i| row(rows, text, i as usize))
        .take(REPORT_ROWS)
        .collect();
    let report = Report {
        title: format!("Search intent of {domain}'s ranked keywords"),
        subtitle: format!(
            "{} ranked keywords; {} listed (first {} shown, the CSV has all)",
            fmt_int(text.len() as i64),
            fmt_int(order.len() as i64),
            table.len()
        ),
        sections: vec![
            Section {
                heading: "Keywords per intent".into(),
                notes: vec![intent::RULE.to_string()],
                blocks: vec![Block::Figures(figures)],
            },
            Section {
                heading: "Keywords".into(),
                notes: Vec::new(),
                blocks: vec![Block::Table {
                    caption: "Ranked keywords with their intents".into(),
                    headers: ["Keyword", "Intent", "#Volume", "#Rank", "URL"]
                        .map(String::from)
                        .to_vec(),
                    rows: table,
                }],
            },
        ],
        contents: false,
    };
    (format!("intent-{domain}.html"), report)
}

/// Row `i`'s cells, `None` when a column has no row `i`.
fn row(rows: Rows<'_>, text: &[String], i: usize) -> Option<Vec<Cell>> {
    Some(vec![
        Cell::Text(rows.keyword.get(i)?.clone()),
        Cell::Text(text.get(i)?.clone()),
        Cell::Text(fmt_int(*rows.volume.get(i)?)),
        Cell::Text(rows.rank.get(i)?.to_string()),
        Cell::Url(rows.url.get(i)?.clone()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_report_lists_the_rows_in_the_page_order_with_their_intents() {
        let keyword = strings(&["buy shoes", "how to run"]);
        let url = strings(&["https://a.com/buy", "https://a.com/run"]);
        let rows = Rows {
            keyword: &keyword,
            lower: &keyword,
            volume: &[1500, 20],
            rank: &[3, 1],
            url: &url,
        };
        let text = strings(&["Transactional", "Informational"]);
        let dist = [(1, 20), (0, 0), (0, 0), (1, 1500), (2, 30)];
        let (file, report) = intent_report(rows, &text, &dist, "a.com", &[1, 0, 7]);
        assert_eq!(file, "intent-a.com.html");
        assert_eq!(report.title, "Search intent of a.com's ranked keywords");
        assert_eq!(
            report.subtitle,
            "2 ranked keywords; 3 listed (first 2 shown, the CSV has all)"
        );
        let Block::Figures(figures) = &report.sections[0].blocks[0] else {
            panic!("figures");
        };
        assert_eq!(figures[0].0, Intent::ALL[0].label());
        assert_eq!(figures[3].1, "1 keywords, 1,500 searches");
        assert_eq!(
            figures[4],
            ("unclassified".into(), "2 keywords, 30 searches".into())
        );
        assert_eq!(report.sections[0].notes, [intent::RULE]);
        let Block::Table { rows: table, .. } = &report.sections[1].blocks[0] else {
            panic!("the table");
        };
        assert_eq!(table.len(), 2, "an index beyond the rows is skipped");
        assert_eq!(
            table[0],
            [
                Cell::from("how to run"),
                Cell::from("Informational"),
                Cell::from("20"),
                Cell::from("1"),
                Cell::Url("https://a.com/run".into()),
            ]
        );
    }

    #[test]
    fn a_long_list_is_cut() {
        let keyword: Vec<String> = (0..REPORT_ROWS + 1).map(|i| format!("k{i}")).collect();
        let volume = vec![1; keyword.len()];
        let rows = Rows {
            keyword: &keyword,
            lower: &keyword,
            volume: &volume,
            rank: &volume,
            url: &keyword,
        };
        let order: Vec<u32> = (0..keyword.len() as u32).collect();
        let (_, report) = intent_report(rows, &keyword, &[(0, 0); 5], "a.com", &order);
        let Block::Table { rows: table, .. } = &report.sections[1].blocks[0] else {
            panic!("the table");
        };
        assert_eq!(table.len(), REPORT_ROWS);
        assert!(report
            .subtitle
            .ends_with("(first 500 shown, the CSV has all)"));
    }
}
