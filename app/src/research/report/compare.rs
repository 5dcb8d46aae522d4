//! The domain comparison as a report: stats and rank distribution side by side, then the
//! ranked keywords the domains share, as the compare page shows them.

use super::{Block, Cell, Report, Section, REPORT_ROWS};
use crate::format::{fmt_int, fmt_stat, NO_VALUE};

/// A table of one row per item and one column per domain (`None`: nothing stored).
pub struct SideBySide<V> {
    /// The rows: the item's label, then each domain's value in the domains' order.
    pub rows: Vec<(String, Vec<Option<V>>)>,
}

/// The ranked keywords the domains share, column by column (by volume, highest first).
pub struct SharedKeywords<'a, R> {
    /// Keywords.
    pub keyword: &'a [String],
    /// Their search volumes.
    pub volume: &'a [i64],
    /// Each domain's best rank per keyword (`i64::MAX`: not ranked), in the domains' order.
    pub ranks: &'a [R],
    /// Distinct ranked keywords per domain.
    pub per_domain: &'a [usize],
}

/// What the comparison report shows.
pub struct Comparison<'a, R> {
    /// The domains compared, in the page's order.
    pub domains: &'a [String],
    /// Each domain's letter (`A`, `B`, …), as the page's columns name them.
    pub letters: &'a [&'a str],
    /// The stats: each metric's service string per domain.
    pub stats: SideBySide<String>,
    /// The rank distribution: keywords per rank range per domain (`None` also for a range the
    /// service does not report).
    pub ranks: SideBySide<i64>,
    /// The shared ranked keywords.
    pub shared: SharedKeywords<'a, R>,
}

/// The comparison as a report (file name, report): stats, rank distribution and the first
/// [`REPORT_ROWS`] shared keywords by volume; `date` is when it is exported.
pub fn compare_report<R: AsRef<[i64]>>(c: &Comparison<'_, R>, date: &str) -> (String, Report) {
    let ds = c.domains;
    let head = |first: &str| {
        std::iter::once(first.to_string())
            .chain(ds.iter().enumerate().map(|(i, d)| {
                let letter = c.letters.get(i).copied().unwrap_or_default();
                format!("#{letter} {d}")
            }))
            .collect::<Vec<_>>()
    };
    let stat_rows = side_by_side(&c.stats, |v| fmt_stat(v));
    let rank_rows = side_by_side(&c.ranks, |v| fmt_int(*v));
    let o = &c.shared;
    let shared_rows = o
        .keyword
        .iter()
        .zip(o.volume)
        .zip(o.ranks)
        .take(REPORT_ROWS)
        .map(|((keyword, volume), ranks)| {
            [keyword.clone(), fmt_int(*volume)]
                .into_iter()
                .chain(ranks.as_ref().iter().take(ds.len()).map(|&r| {
                    if r == i64::MAX {
                        NO_VALUE.to_string()
                    } else {
                        r.to_string()
                    }
                }))
                .map(Cell::from)
                .collect()
        })
        .collect();
    let mut shared_head = head("Keyword");
    shared_head.insert(1, "#Volume".into());
    let sections = vec![
        Section {
            heading: "Stats".into(),
            notes: Vec::new(),
            blocks: vec![Block::Table {
                caption: "Domain statistics side by side".into(),
                headers: head("Metric"),
                rows: stat_rows,
            }],
        },
        Section {
            heading: "Rank distribution".into(),
            notes: Vec::new(),
            blocks: vec![Block::Table {
                caption: "Ranked keywords per rank range".into(),
                headers: head("Rank range"),
                rows: rank_rows,
            }],
        },
        Section {
            heading: format!(
                "Shared ranked keywords ({})",
                fmt_int(o.keyword.len() as i64)
            ),
            notes: vec![format!(
                "Keywords ranked by at least two of the domains, by volume{}.",
                if o.keyword.len() > REPORT_ROWS {
                    format!("; the first {REPORT_ROWS}")
                } else {
                    String::new()
                }
            )],
            blocks: vec![
                Block::Bars {
                    title: "Distinct ranked keywords per domain".into(),
                    bars: ds
                        .iter()
                        .zip(o.per_domain)
                        .map(|(d, n)| (d.clone(), *n as f64))
                        .collect(),
                },
                Block::Table {
                    caption: "Shared keywords and each domain's best rank".into(),
                    headers: shared_head,
                    rows: shared_rows,
                },
            ],
        },
    ];
    let report = Report {
        title: format!("Domain comparison: {}", ds.join(", ")),
        subtitle: format!("Exported {date} from results already bought."),
        sections,
        contents: false,
    };
    let first = ds.first().map(String::as_str).unwrap_or_default();
    (format!("domain-comparison-{first}.html"), report)
}

/// A side-by-side table's rows: the label, then each value as `text` writes it ("—" for none).
fn side_by_side<V>(table: &SideBySide<V>, text: impl Fn(&V) -> String) -> Vec<Vec<Cell>> {
    table
        .rows
        .iter()
        .map(|(label, values)| {
            std::iter::once(Cell::from(label.as_str()))
                .chain(values.iter().map(|v| {
                    v.as_ref()
                        .map_or_else(|| NO_VALUE.to_string(), &text)
                        .into()
                }))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample<'a>(
        domains: &'a [String],
        keyword: &'a [String],
        ranks: &'a [[i64; 2]],
    ) -> Comparison<'a, [i64; 2]> {
        Comparison {
            domains,
            letters: &["A", "B"],
            stats: SideBySide {
                rows: vec![
                    ("Domain rank".into(), vec![Some("1234".into()), None]),
                    (
                        "Spam score".into(),
                        vec![Some("".into()), Some("2.5".into())],
                    ),
                ],
            },
            ranks: SideBySide {
                rows: vec![
                    ("1".into(), vec![Some(10), Some(2000)]),
                    ("61-70".into(), vec![None, None]),
                ],
            },
            shared: SharedKeywords {
                keyword,
                volume: &[900, 40],
                ranks,
                per_domain: &[12, 30],
            },
        }
    }

    #[test]
    fn the_report_puts_the_domains_side_by_side() {
        let domains = vec!["a.com".to_string(), "b.com".to_string()];
        let keyword = vec!["shoes".to_string(), "boots".to_string()];
        let ranks = [[1, 4], [i64::MAX, 2]];
        let (file, report) = compare_report(&sample(&domains, &keyword, &ranks), "2025-03-01");
        assert_eq!(file, "domain-comparison-a.com.html");
        assert_eq!(report.title, "Domain comparison: a.com, b.com");
        assert_eq!(
            report.subtitle,
            "Exported 2025-03-01 from results already bought."
        );
        let tables: Vec<(&Vec<String>, &Vec<Vec<Cell>>)> = report
            .sections
            .iter()
            .flat_map(|s| &s.blocks)
            .filter_map(|b| match b {
                Block::Table { headers, rows, .. } => Some((headers, rows)),
                _ => None,
            })
            .collect();
        assert_eq!(tables.len(), 3);
        assert_eq!(tables[0].0, &["Metric", "#A a.com", "#B b.com"]);
        assert_eq!(
            tables[0].1[0],
            [Cell::from("Domain rank"), "1,234".into(), NO_VALUE.into()]
        );
        assert_eq!(
            tables[0].1[1],
            [Cell::from("Spam score"), NO_VALUE.into(), "2.50".into()]
        );
        assert_eq!(
            tables[1].1[0],
            [Cell::from("1"), "10".into(), "2,000".into()]
        );
        assert_eq!(
            tables[1].1[1],
            [Cell::from("61-70"), NO_VALUE.into(), NO_VALUE.into()]
        );
        assert_eq!(tables[2].0, &["Keyword", "#Volume", "#A a.com", "#B b.com"]);
        assert_eq!(
            tables[2].1[1],
            [
                Cell::from("boots"),
                "40".into(),
                NO_VALUE.into(),
                "2".into()
            ]
        );
        assert_eq!(report.sections[2].heading, "Shared ranked keywords (2)");
        assert_eq!(
            report.sections[2].notes,
            ["Keywords ranked by at least two of the domains, by volume."]
        );
    }

    #[test]
    fn nothing_stored_makes_empty_tables() {
        let (file, report) = compare_report(&sample(&[], &[], &[]), "today");
        assert_eq!(file, "domain-comparison-.html");
        assert_eq!(report.sections[2].heading, "Shared ranked keywords (0)");
    }
}
