//! The client report (issue 43 item 9): one file for a domain and its competitors, made of
//! the other reports' sections (overview and shared keywords from [`super::compare`], top
//! pages, cannibalised keywords, search intent from [`super::intent`], backlinks, the
//! content gap from [`super::gap`]), one part per page when printed, with a table of
//! contents on screen. Only results already bought: a part whose data is not bought says so,
//! with its price, and where to buy it.

use serpkit::ops::backlink_overview::DomainOverview;

use super::{Block, Cell, Report, Section, REPORT_ROWS};
use crate::format::fmt_int;
use crate::research::cannibalisation::Cannibalised;
use crate::research::ctr::traffic_text;
use crate::research::top_pages::Page;

/// One part of the client report: its sections, or why it is not in the report.
pub enum Part {
    /// The part's sections (from another report builder).
    Ready(Vec<Section>),
    /// Not in the report: what is missing and how to get it (a price, a page).
    Missing(String),
}

/// The client report (file name, report): `domains` are the client's first, then its
/// competitors; `parts` are (heading, part) in order; `date` is when it is exported.
pub fn client_report(
    domains: &[String],
    parts: Vec<(String, Part)>,
    date: &str,
) -> (String, Report) {
    let you = domains.first().cloned().unwrap_or_default();
    let rivals = domains
        .iter()
        .skip(1)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let missing = parts
        .iter()
        .filter(|(_, p)| matches!(p, Part::Missing(_)))
        .count();
    let sections = parts
        .into_iter()
        .map(|(heading, part)| match part {
            Part::Ready(sections) => Section {
                heading,
                notes: Vec::new(),
                blocks: sections.into_iter().flat_map(nested).collect(),
            },
            Part::Missing(why) => Section {
                heading,
                notes: vec![format!("Not in this report: {why}")],
                blocks: Vec::new(),
            },
        })
        .collect();
    let report = Report {
        title: if rivals.is_empty() {
            format!("Client report: {you}")
        } else {
            format!("Client report: {you} against {rivals}")
        },
        subtitle: format!(
            "Exported {date} from results already bought; nothing was bought to make it.{}",
            match missing {
                0 => String::new(),
                1 => " One part is not bought yet (it says so).".to_string(),
                n => format!(" {n} parts are not bought yet (each says so)."),
            }
        ),
        sections,
        contents: true,
    };
    (format!("client-report-{you}.html"), report)
}

/// A section of another report as blocks of a part: its heading, notes, then its blocks.
fn nested(s: Section) -> Vec<Block> {
    std::iter::once(Block::Subheading(s.heading))
        .chain(s.notes.into_iter().map(Block::Note))
        .chain(s.blocks)
        .collect()
}

/// A domain's top pages (by estimated traffic, as the domain page lists them) as sections:
/// a chart of the first ten and a table of the first [`REPORT_ROWS`]; `rule` is how they are
/// computed.
pub fn top_pages_sections(pages: &[Page], rule: &str) -> Vec<Section> {
    let rows = pages
        .iter()
        .take(REPORT_ROWS)
        .map(|p| {
            vec![
                Cell::Url(p.url.clone()),
                Cell::Text(fmt_int(p.keywords as i64)),
                Cell::Text(fmt_int(p.volume)),
                Cell::Text(traffic_text(p.traffic)),
                Cell::Text(p.best_keyword.clone()),
                Cell::Text(p.best_rank.to_string()),
            ]
        })
        .collect();
    vec![Section {
        heading: format!("Pages ({})", fmt_int(pages.len() as i64)),
        notes: vec![rule.to_string()],
        blocks: vec![
            Block::Bars {
                title: "Estimated traffic of the first ten pages".into(),
                bars: pages
                    .iter()
                    .take(10)
                    .map(|p| (p.url.clone(), p.traffic.round()))
                    .collect(),
            },
            Block::Table {
                caption: "Pages by their estimated traffic".into(),
                headers: [
                    "URL",
                    "#Keywords",
                    "#Volume",
                    "#Est. traffic",
                    "Top keyword",
                    "#Its rank",
                ]
                .map(String::from)
                .to_vec(),
                rows,
            },
        ],
    }]
}

/// A domain's cannibalised keywords as a section: one row per keyword with its URLs and
/// their ranks, the first [`REPORT_ROWS`]; `rule` is how they are found.
pub fn cannibal_sections(found: &[Cannibalised], rule: &str) -> Vec<Section> {
    let rows = found
        .iter()
        .take(REPORT_ROWS)
        .map(|c| {
            let urls = c
                .urls
                .iter()
                .map(|(u, r)| format!("{r}: {u}"))
                .collect::<Vec<_>>()
                .join("; ");
            vec![
                Cell::Text(c.keyword.clone()),
                Cell::Text(fmt_int(c.volume)),
                Cell::Text(urls),
                Cell::Text(if c.top { "yes" } else { "no" }.into()),
            ]
        })
        .collect();
    vec![Section {
        heading: format!("Cannibalised keywords ({})", fmt_int(found.len() as i64)),
        notes: vec![rule.to_string()],
        blocks: vec![Block::Table {
            caption: "Keywords two or more pages rank for (rank: URL)".into(),
            headers: [
                "Keyword",
                "#Volume",
                "Ranking URLs",
                "Two URLs in the top 20",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        }],
    }]
}

/// A domain's backlink overview as a section: its counts (with `source_note`, where they
/// come from) and the first [`REPORT_ROWS`] new or lost referring domains.
pub fn backlink_sections(o: &DomainOverview, source_note: &str) -> Vec<Section> {
    let b = &o.metrics.backlinks;
    let figures = [
        ("Backlinks", b.backlinks),
        ("Dofollow", b.dofollow_backlinks),
        ("Nofollow", b.nofollow_backlinks),
        ("Referring domains", b.refdomains),
        ("IPs", b.ips),
        ("Subnets", b.subnets),
        (".edu backlinks", b.edu_backlinks),
        (".gov backlinks", b.gov_backlinks),
    ]
    .map(|(l, v)| (l.to_string(), fmt_int(v)))
    .to_vec();
    let rows = o
        .ref_newlost
        .iter()
        .take(REPORT_ROWS)
        .map(|r| {
            vec![
                Cell::Text(r.new_lost_type.clone()),
                Cell::Text(r.new_lost_date.clone()),
                Cell::Text(r.refdomain.clone()),
                Cell::Text(fmt_int(r.backlinks)),
            ]
        })
        .collect();
    vec![Section {
        heading: "Backlink overview".into(),
        notes: vec![source_note.to_string()],
        blocks: vec![
            Block::Figures(figures),
            Block::Table {
                caption: format!(
                    "New and lost referring domains ({})",
                    fmt_int(o.ref_newlost.len() as i64)
                ),
                headers: ["Type", "Date", "Referring domain", "#Backlinks"]
                    .map(String::from)
                    .to_vec(),
                rows,
            },
        ],
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::report::render_as;
    use crate::research::report::Origin;

    fn page(url: &str, keyword: &str) -> Page {
        Page {
            url: url.into(),
            keywords: 2,
            volume: 1500,
            traffic: 120.4,
            best_keyword: keyword.into(),
            best_rank: 3,
        }
    }

    #[test]
    fn parts_in_order_missing_ones_say_so() {
        let domains = ["a.com".to_string(), "b.com".to_string()];
        let (name, report) = client_report(
            &domains,
            vec![
                (
                    "Top pages of a.com".into(),
                    Part::Ready(top_pages_sections(
                        &[page("https://a.com/x", "shoes")],
                        "rule",
                    )),
                ),
                (
                    "Content gap".into(),
                    Part::Missing("the ranked keywords of b.com are not bought ($0.20).".into()),
                ),
            ],
            "2026-01-01",
        );
        assert_eq!(name, "client-report-a.com.html");
        assert_eq!(report.title, "Client report: a.com against b.com");
        assert!(report.subtitle.contains("One part is not bought yet"));
        assert_eq!(report.sections.len(), 2);
        assert_eq!(
            report.sections[0].blocks[0],
            Block::Subheading("Pages (1)".into())
        );
        assert_eq!(
            report.sections[1].notes,
            ["Not in this report: the ranked keywords of b.com are not bought ($0.20)."]
        );
        let html = render_as(&report, Origin::Live);
        assert!(html.contains("<nav class=\"contents\""));
        assert!(html.contains("<a href=\"#part-2\">Content gap</a>"));
        assert!(html.contains("<section class=\"part\" id=\"part-1\">"));
        assert!(html.contains("<h3>Pages (1)</h3>"));
    }

    #[test]
    fn cannibalised_keywords_list_their_urls() {
        let found = [Cannibalised {
            keyword: "shoes".into(),
            volume: 1000,
            urls: vec![("https://a.com/1".into(), 3), ("https://a.com/2".into(), 9)],
            top: true,
        }];
        let s = cannibal_sections(&found, "rule");
        assert_eq!(s[0].heading, "Cannibalised keywords (1)");
        let Block::Table { rows, .. } = &s[0].blocks[0] else {
            panic!("a table")
        };
        assert_eq!(
            rows[0][2],
            Cell::Text("3: https://a.com/1; 9: https://a.com/2".into())
        );
        assert_eq!(rows[0][3], Cell::Text("yes".into()));
    }

    #[test]
    fn scraped_text_in_parts_is_escaped() {
        let evil = "<script>window.__xss=1</script>";
        let (_, report) = client_report(
            &[evil.to_string()],
            vec![(
                "Top pages".into(),
                Part::Ready(top_pages_sections(
                    &[page("javascript:alert(1)", evil)],
                    evil,
                )),
            )],
            "today",
        );
        let html = render_as(&report, Origin::Demo);
        assert!(!html.contains("<script>window"));
        assert!(!html.contains("href=\"javascript"));
        assert!(html.contains("&lt;script&gt;window.__xss=1&lt;/script&gt;"));
        assert!(html.contains("data-demo=\"true\""));
    }
}
