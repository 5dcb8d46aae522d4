//! The content gap as one HTML report: the counts, the rules as computed, each list's first
//! rows, then the gap's keywords by competitor page (as the page's "By competitor page" tab
//! groups them, over every list and no filter).

use super::{first_rows_note, Block, Cell, Report, Section, REPORT_ROWS};
use crate::format::fmt_int;
use crate::research::brand;
use crate::research::ctr::{self, traffic_text};
use crate::research::gap::{self, Gap, GapList, Options};
use crate::research::top_pages::{self, Page};
use crate::research::traffic;

/// The heading of the section by competitor page (then the number of pages).
pub const BY_PAGE: &str = "By competitor page";

/// The content gap as a report (file name, report): the counts, each list's first
/// [`REPORT_ROWS`] rows by volume, then the competitor pages of every keyword. `domains` are
/// yours first; `date` is when it is exported.
pub fn gap_report(
    g: &Gap,
    domains: &[String],
    options: &Options,
    brand: &str,
    date: &str,
) -> (String, Report) {
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
        ]
        .into_iter()
        .chain(g.brand_use.iter().filter_map(brand::generic_warning))
        .collect(),
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
    sections.push(voice_section(g, domains, options));
    for list in GapList::ALL {
        let rows = g.list(list);
        let notes = first_rows_note(rows.len(), "keywords")
            .into_iter()
            .collect();
        let table = rows
            .iter()
            .take(REPORT_ROWS)
            .map(|&i| {
                let i = i as usize;
                let theirs = g.best_position(i);
                vec![
                    Cell::from(g.keyword[i].as_str()),
                    fmt_int(g.volume[i]).into(),
                    format!("{:.2}", g.competition[i]).into(),
                    rank(g.yours[i].as_ref()).into(),
                    best_domain(i).unwrap_or("–").into(),
                    rank(theirs).into(),
                    Cell::Url(theirs.map(|p| p.url.clone()).unwrap_or_default()),
                    g.yours[i]
                        .as_ref()
                        .and_then(|p| traffic::gain_at_3(g.volume[i], p.rank, &options.curve))
                        .map_or_else(|| "–".into(), traffic_text)
                        .into(),
                    g.potential[i]
                        .map_or_else(|| "–".into(), traffic_text)
                        .into(),
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
                    "#Gain at #3",
                    "#Traffic potential",
                ]
                .map(String::from)
                .to_vec(),
                rows: table,
            }],
        });
    }
    let every_row: Vec<u32> = (0..g.keyword.len() as u32).collect();
    sections.push(pages_section(&top_pages::gap_pages(
        g,
        &every_row,
        &options.curve,
    )));
    let report = Report {
        title: format!("Content gap: {you} against {rivals}"),
        subtitle: format!("Exported {date} from the ranked keywords already bought."),
        sections,
        contents: false,
    };
    (format!("content-gap-{you}.html"), report)
}

/// Share of voice over every keyword of the gap (`research::traffic`).
fn voice_section(g: &Gap, domains: &[String], options: &Options) -> Section {
    let every_row: Vec<u32> = (0..g.keyword.len() as u32).collect();
    let (voices, total) = traffic::share_of_voice(g, &every_row, &options.curve);
    let figures = domains
        .iter()
        .zip(voices)
        .map(|(d, v)| {
            (
                d.clone(),
                format!(
                    "{} · est. {} visits · {} keywords",
                    traffic::share_text(v.share),
                    traffic_text(v.traffic),
                    fmt_int(v.keywords as i64)
                ),
            )
        })
        .collect();
    Section {
        heading: "Share of voice".into(),
        notes: vec![
            format!(
                "Over every keyword of the gap ({} searches a month). {}",
                fmt_int(total),
                traffic::VOICE_RULE
            ),
            format!("{} {}", traffic::GAIN_RULE, traffic::POTENTIAL_RULE),
            ctr::CURVE_RULE.to_string(),
        ],
        blocks: vec![Block::Figures(figures)],
    }
}

/// The section of the competitor pages (first [`REPORT_ROWS`] by estimated traffic).
fn pages_section(pages: &[Page]) -> Section {
    let mut notes = vec![
        top_pages::GAP_REPORT_RULE.to_string(),
        ctr::CURVE_RULE.to_string(),
    ];
    notes.extend(first_rows_note(pages.len(), "pages"));
    let rows = pages
        .iter()
        .take(REPORT_ROWS)
        .map(|p| {
            vec![
                Cell::Url(p.url.clone()),
                fmt_int(p.keywords as i64).into(),
                fmt_int(p.volume).into(),
                traffic_text(p.traffic).into(),
                p.best_keyword.as_str().into(),
                p.best_rank.to_string().into(),
            ]
        })
        .collect();
    Section {
        heading: format!("{BY_PAGE} ({})", fmt_int(pages.len() as i64)),
        notes,
        blocks: vec![Block::Table {
            caption: "Competitor pages of the gap keywords".into(),
            headers: [
                "Page",
                "#Keywords",
                "#Volume",
                "#Est. traffic",
                "Top keyword",
                "#Its rank",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::gap::{compute, Ranked};

    /// One domain's columns from (keyword, volume, rank, URL path) rows.
    struct Columns([Vec<String>; 4], Vec<i64>, Vec<f64>, Vec<i64>);

    fn columns(domain: &str, rows: &[(&str, i64, i64, &str)]) -> Columns {
        Columns(
            [
                rows.iter().map(|r| r.0.to_string()).collect(),
                rows.iter().map(|r| r.0.to_lowercase()).collect(),
                rows.iter()
                    .map(|r| format!("https://{domain}/{}", r.3))
                    .collect(),
                Vec::new(),
            ],
            rows.iter().map(|r| r.1).collect(),
            rows.iter().map(|_| 50.0).collect(),
            rows.iter().map(|r| r.2).collect(),
        )
    }

    fn ranked(c: &Columns) -> Ranked<'_> {
        Ranked {
            keyword: &c.0[0],
            lower: &c.0[1],
            volume: &c.1,
            competition: &c.2,
            rank: &c.3,
            url: &c.0[2],
        }
    }

    /// you.com against rival.com: "shoes" shared and weak (you 3, the rival 1), "boots" and
    /// "socks" missing (two rival pages), "laces" unique to you, "brand x" a brand term.
    fn sample() -> (Gap, Vec<String>, Options) {
        let you = columns(
            "you.com",
            &[
                ("shoes", 900, 3, "s"),
                ("laces", 50, 2, "l"),
                ("brand x", 10, 1, "b"),
            ],
        );
        let rival = columns(
            "rival.com",
            &[
                ("shoes", 900, 1, "shop"),
                ("boots", 300, 4, "shop"),
                ("socks", 100, 2, "socks"),
            ],
        );
        let options = Options {
            brand: vec!["brand".into()],
            ..Options::default()
        };
        let gap = compute(ranked(&you), &[Some(ranked(&rival))], &options);
        (gap, vec!["you.com".into(), "rival.com".into()], options)
    }

    #[test]
    fn the_report_has_the_summary_every_list_then_the_competitor_pages() {
        let (gap, domains, options) = sample();
        let (file, report) = gap_report(&gap, &domains, &options, "brand", "2025-03-01 10:00");
        assert_eq!(file, "content-gap-you.com.html");
        assert_eq!(report.title, "Content gap: you.com against rival.com");
        assert_eq!(
            report.subtitle,
            "Exported 2025-03-01 10:00 from the ranked keywords already bought."
        );
        let headings: Vec<&str> = report.sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(
            headings,
            [
                "Summary",
                "Share of voice",
                "Shared (1)",
                "Missing (2)",
                "Weak (1)",
                "Strong (0)",
                "Untapped (2)",
                "Unique (1)",
                "Striking distance (0)",
                "By competitor page (2)",
            ]
        );
        assert!(report.sections[0].notes[1].ends_with("Brand terms: brand. Left out: 1."));
        let Block::Figures(voice) = &report.sections[1].blocks[0] else {
            panic!("the share of voice");
        };
        let names: Vec<&str> = voice.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["you.com", "rival.com"]);
        assert!(report.sections[1].notes[0].contains("Ahrefs' share of voice"));
        let Block::Table { rows, .. } = &report.sections[3].blocks[0] else {
            panic!("a list's table");
        };
        assert_eq!(rows[0][0], Cell::from("boots"));
        assert_eq!(rows[0][6], Cell::Url("https://rival.com/shop".into()));
    }

    #[test]
    fn competitor_pages_group_every_keyword_a_competitor_ranks_for() {
        let (gap, domains, options) = sample();
        let (_, report) = gap_report(&gap, &domains, &options, "", "today");
        let section = report.sections.last().expect("the pages");
        assert_eq!(section.notes, [top_pages::GAP_REPORT_RULE, ctr::CURVE_RULE]);
        let Block::Table { headers, rows, .. } = &section.blocks[0] else {
            panic!("the pages' table");
        };
        assert_eq!(headers.len(), rows[0].len());
        // /shop: shoes (rank 1) and boots, 1,200 searches, 900 × 28.5 % + 300 × 8 % = 280.5
        // visits; /socks: socks, 100 × 15.7 %. "laces" has none.
        let expected: Vec<Vec<Cell>> = vec![
            vec![
                Cell::Url("https://rival.com/shop".into()),
                "2".into(),
                "1,200".into(),
                "281".into(),
                "shoes".into(),
                "1".into(),
            ],
            vec![
                Cell::Url("https://rival.com/socks".into()),
                "1".into(),
                "100".into(),
                "16".into(),
                "socks".into(),
                "2".into(),
            ],
        ];
        assert_eq!(rows, &expected);
        assert!(top_pages::GAP_REPORT_RULE.starts_with("By competitor page: every keyword"));
        assert!(top_pages::GAP_RULE
            .ends_with("Pages are ordered by estimated traffic, then volume, then keyword count."));
    }

    #[test]
    fn no_domains_and_no_rows_make_an_empty_report() {
        let (file, report) = gap_report(&Gap::default(), &[], &Options::default(), "", "today");
        assert_eq!(file, "content-gap-.html");
        assert_eq!(report.sections.len(), 10);
        assert_eq!(report.sections[9].heading, "By competitor page (0)");
    }
}
