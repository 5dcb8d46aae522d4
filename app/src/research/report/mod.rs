//! Reports to hand over: a research view as one self-contained HTML file (inline CSS, SVG
//! charts, no script, no external fetch, print-friendly): the document model and [`render`],
//! which writes the file, then one module per report builder, each a pure function of the
//! data its page shows (no signals, no clock: the export date is a parameter), tested
//! natively: [`explorer`] (and its [`groups`] and [`clusters`] sections), [`gap`], [`compare`], [`intent`],
//! and [`client`], the client report made of the others' sections.
//!
//! Where the data came from ([`Origin`]) is read from the rows' stored sources, never from
//! the settings: every export (CSV or report) labels itself through [`Origin`] alone.
//!
//! Safety: every text (keywords, URLs, domains: scraped or typed) is HTML-escaped; only
//! http(s) URLs become links; the file's own Content-Security-Policy (`default-src 'none'`,
//! inline styles and `data:` images only) keeps any script or fetch from running even in a
//! viewer that ignored the rest. Nothing in it names the API key: the report is built from
//! the data shown, never from the request.

use std::fmt::Write as _;

use crate::format::fmt_int;

pub mod client;
pub mod clusters;
pub mod compare;
pub mod explorer;
pub mod gap;
pub mod groups;
pub mod intent;

/// Rows in a report's table: the first this many (the CSV export has every row).
pub const REPORT_ROWS: usize = 500;

/// The note over a table cut to [`REPORT_ROWS`] of `total` rows ("keywords", "pages": `what`),
/// or `None` when every row is listed.
pub fn first_rows_note(total: usize, what: &str) -> Option<String> {
    (total > REPORT_ROWS).then(|| {
        format!(
            "The first {REPORT_ROWS} of {} {what} by volume; the CSV export has every row.",
            fmt_int(total as i64)
        )
    })
}

/// Where an export's rows came from: read from their stored sources (a result's or a
/// record's, [`serpkit::machine::DEMO_SOURCE`] for demo), never from the settings now, so a
/// file says demo because its data is demo (issue 38, break 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// No row came from demo (also: no row at all).
    #[default]
    Live,
    /// Every row came from demo.
    Demo,
    /// Some rows came from demo, some from a live service.
    Mixed,
}

impl Origin {
    /// The origin of rows whose sources are `sources` (a result's `source`; a record key's
    /// source; an empty source is data stored before sources were kept: `legacy_demo` says
    /// whether that row was demo, from its stored mode).
    pub fn of<'a>(sources: impl IntoIterator<Item = (&'a str, bool)>) -> Origin {
        let (mut demo, mut live) = (false, false);
        for (source, legacy_demo) in sources {
            if source == serpkit::machine::DEMO_SOURCE || (source.is_empty() && legacy_demo) {
                demo = true;
            } else {
                live = true;
            }
        }
        match (demo, live) {
            (true, false) => Origin::Demo,
            (true, true) => Origin::Mixed,
            _ => Origin::Live,
        }
    }

    /// The origin of rows from one source (a page's rows all read from one).
    pub fn of_source(source: &str) -> Origin {
        Origin::of([(source, false)])
    }

    /// Both together (a file made of rows from each).
    pub fn and(self, other: Origin) -> Origin {
        match (self, other) {
            (Origin::Live, o) | (o, Origin::Live) => o,
            (Origin::Demo, Origin::Demo) => Origin::Demo,
            _ => Origin::Mixed,
        }
    }

    /// What a report says about it under its title; `None` for live data.
    pub fn banner(self) -> Option<&'static str> {
        match self {
            Origin::Live => None,
            Origin::Demo => Some(DEMO_NOTE),
            Origin::Mixed => Some(MIXED_NOTE),
        }
    }

    /// The file name with `demo-` first when every row is demo, `partly-demo-` when some are.
    pub fn file_name(self, name: &str) -> String {
        match self {
            _ if name.starts_with("demo-") || name.starts_with("partly-demo-") => name.to_string(),
            Origin::Live => name.to_string(),
            Origin::Demo => format!("demo-{name}"),
            Origin::Mixed => format!("partly-demo-{name}"),
        }
    }
}

/// A report: a title, a line of provenance and its sections.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The title (also the document's `<title>`).
    pub title: String,
    /// Provenance shown under the title (what, when, from which stored results).
    pub subtitle: String,
    /// Sections in order.
    pub sections: Vec<Section>,
    /// A report of parts ([`client`]): a table of contents on screen (not printed), and
    /// each section starts a printed page.
    pub contents: bool,
}

/// A section: a heading, an optional paragraph and its blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Heading.
    pub heading: String,
    /// Paragraphs under the heading (rules, notes).
    pub notes: Vec<String>,
    /// Content.
    pub blocks: Vec<Block>,
}

/// A block of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Label–value pairs (summary figures).
    Figures(Vec<(String, String)>),
    /// A horizontal bar chart (SVG) of (label, value).
    Bars {
        /// Accessible title of the chart.
        title: String,
        /// Bars, in order.
        bars: Vec<(String, f64)>,
    },
    /// A table.
    Table {
        /// Caption.
        caption: String,
        /// Column headers; a header starting with `#` is numeric (right-aligned; the `#` is
        /// not shown).
        headers: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<Cell>>,
    },
    /// A heading under the section's (a nested report's section, [`client`]).
    Subheading(String),
    /// A paragraph (a nested report's note).
    Note(String),
}

/// A table cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text.
    Text(String),
    /// A URL: a link when http(s), else text.
    Url(String),
    /// Monthly values oldest first, placed by their dates (`research::trends::by_date`),
    /// drawn as an SVG sparkline.
    Spark(Vec<i64>),
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}

/// HTML-escapes text for element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// True for an absolute http(s) URL without whitespace or control characters.
fn is_http(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && url.len() > lower.find("//").map_or(0, |i| i + 2)
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

const STYLE: &str = "\
:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad;--bar:#4b83c4}\
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);margin:2rem auto;max-width:70rem;padding:0 1rem}\
h1{font-size:1.6rem;margin:0 0 .2rem}h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}\
.sub,.note{color:var(--muted)}.note{margin:.3rem 0}\
.demo{border:2px solid #9a6700;background:#fff8c5;color:#3b2300;padding:.5rem .75rem;font-weight:600}\
dl{display:flex;flex-wrap:wrap;gap:.5rem 2rem;margin:.5rem 0}dl div{min-width:8rem}dt{color:var(--muted);font-size:.85rem}dd{margin:0;font-size:1.2rem;font-weight:600}\
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.9rem}caption{text-align:left;color:var(--muted);padding:.2rem 0}\
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.u{word-break:break-all}a{color:var(--accent)}\
svg{display:block}svg text{font:12px system-ui,sans-serif;fill:var(--fg)}\
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}nav.contents ol{margin:.3rem 0;padding-left:1.4rem}nav.contents a{display:inline-block;min-height:24px;padding:.15rem 0}\
@media print{body{margin:0;max-width:none}nav{display:none}section.part{break-before:page}h2,h3{break-after:avoid}tr{break-inside:avoid}a{color:inherit;text-decoration:none}.demo{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";

/// What a report made from demo data says under its title (and why it says it: a file
/// outlives the page that showed the demo banner).
pub const DEMO_NOTE: &str = "Demo data: every number in this report is synthetic, generated \
in the browser by serpkit's offline sandbox, not measured by the live service. Do not base \
decisions on it.";

/// What a report made partly from demo data says under its title.
pub const MIXED_NOTE: &str = "Partly demo data: some numbers in this report are synthetic, \
generated in the browser by serpkit's offline sandbox, not measured by the live service. Do \
not base decisions on them.";

/// The report as one HTML document (live data).
pub fn render(report: &Report) -> String {
    render_as(report, Origin::Live)
}

/// The report as one HTML document; `origin`: where its data came from, said under the
/// title when any of it is demo.
pub fn render_as(report: &Report, origin: Origin) -> String {
    let demo = origin != Origin::Live;
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{}{}</title><style>{STYLE}</style></head><body>\n<header><h1>{}</h1><p class=\"sub\">{}</p>{}</header>\n",
        match origin {
            Origin::Live => "",
            Origin::Demo => "Demo data: ",
            Origin::Mixed => "Partly demo data: ",
        },
        escape(&report.title),
        escape(&report.title),
        escape(&report.subtitle),
        match origin.banner() {
            Some(note) if demo => format!(
                "<p class=\"demo\" role=\"note\" data-demo=\"true\">{}</p>",
                escape(note)
            ),
            _ => String::new(),
        },
    );
    if report.contents {
        out.push_str("<nav class=\"contents\" aria-label=\"Contents\"><ol>");
        for (i, section) in report.sections.iter().enumerate() {
            let _ = write!(
                out,
                "<li><a href=\"#part-{}\">{}</a></li>",
                i + 1,
                escape(&section.heading)
            );
        }
        out.push_str("</ol></nav>\n");
    }
    for (i, section) in report.sections.iter().enumerate() {
        if report.contents {
            let _ = write!(out, "<section class=\"part\" id=\"part-{}\">", i + 1);
        } else {
            out.push_str("<section>");
        }
        let _ = writeln!(out, "<h2>{}</h2>", escape(&section.heading));
        for note in &section.notes {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(note));
        }
        for block in &section.blocks {
            render_block(&mut out, block);
        }
        out.push_str("</section>\n");
    }
    out.push_str("<footer><p class=\"note\">Made with serpkit. Computed in the browser from results already bought.</p></footer>\n</body></html>\n");
    out
}

fn render_block(out: &mut String, block: &Block) {
    match block {
        Block::Figures(pairs) => {
            out.push_str("<dl>");
            for (label, value) in pairs {
                let _ = write!(
                    out,
                    "<div><dt>{}</dt><dd>{}</dd></div>",
                    escape(label),
                    escape(value)
                );
            }
            out.push_str("</dl>\n");
        }
        Block::Bars { title, bars } => bar_chart(out, title, bars),
        Block::Subheading(text) => {
            let _ = writeln!(out, "<h3>{}</h3>", escape(text));
        }
        Block::Note(text) => {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(text));
        }
        Block::Table {
            caption,
            headers,
            rows,
        } => {
            let numeric: Vec<bool> = headers.iter().map(|h| h.starts_with('#')).collect();
            let _ = write!(
                out,
                "<table><caption>{}</caption><thead><tr>",
                escape(caption)
            );
            for (h, &n) in headers.iter().zip(&numeric) {
                let label = h.strip_prefix('#').unwrap_or(h);
                let _ = write!(
                    out,
                    "<th scope=\"col\"{}>{}</th>",
                    if n { " class=\"n\"" } else { "" },
                    escape(label)
                );
            }
            out.push_str("</tr></thead><tbody>\n");
            for row in rows {
                out.push_str("<tr>");
                for (i, cell) in row.iter().enumerate() {
                    let n = numeric.get(i).copied().unwrap_or(false);
                    match cell {
                        Cell::Text(t) => {
                            let _ = write!(
                                out,
                                "<td{}>{}</td>",
                                if n { " class=\"n\"" } else { "" },
                                escape(t)
                            );
                        }
                        Cell::Url(u) if is_http(u) => {
                            let _ = write!(
                                out,
                                "<td class=\"u\"><a href=\"{}\" rel=\"noopener noreferrer\">{}</a></td>",
                                escape(u),
                                escape(u)
                            );
                        }
                        Cell::Url(u) => {
                            let _ = write!(out, "<td class=\"u\">{}</td>", escape(u));
                        }
                        Cell::Spark(values) => {
                            out.push_str("<td>");
                            sparkline(out, values);
                            out.push_str("</td>");
                        }
                    }
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</tbody></table>\n");
        }
    }
}

/// A horizontal bar chart: one row per bar, the value written after it.
fn bar_chart(out: &mut String, title: &str, bars: &[(String, f64)]) {
    const ROW: f64 = 22.0;
    const LABEL: f64 = 220.0;
    const WIDTH: f64 = 720.0;
    let max = bars
        .iter()
        .map(|b| b.1)
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let height = ROW * bars.len() as f64 + 4.0;
    let _ = write!(
        out,
        "<svg role=\"img\" aria-label=\"{}\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\"><title>{}</title>",
        escape(title),
        escape(title)
    );
    for (i, (label, value)) in bars.iter().enumerate() {
        let y = i as f64 * ROW + 2.0;
        let v = if value.is_finite() {
            value.max(0.0)
        } else {
            0.0
        };
        let w = if max > 0.0 {
            (WIDTH - LABEL - 90.0) * v / max
        } else {
            0.0
        };
        let short: String = label.chars().take(32).collect();
        let _ = write!(
            out,
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><rect x=\"{LABEL}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"#4b83c4\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            LABEL - 6.0,
            y + 15.0,
            escape(&short),
            ROW - 6.0,
            LABEL + w + 6.0,
            y + 15.0,
            escape(&format_value(v)),
        );
    }
    out.push_str("</svg>\n");
}

/// A bar's value: an integer with thousands separators, or two decimals.
fn format_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        fmt_int(v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// A 96 × 24 sparkline of monthly values (oldest first).
fn sparkline(out: &mut String, values: &[i64]) {
    const W: f64 = 96.0;
    const H: f64 = 24.0;
    if values.len() < 2 {
        return;
    }
    let max = values.iter().copied().max().unwrap_or(0).max(1) as f64;
    let step = W / (values.len() - 1) as f64;
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            format!(
                "{:.1},{:.1}",
                i as f64 * step,
                H - 2.0 - (H - 4.0) * (v.max(0) as f64) / max
            )
        })
        .collect();
    let _ = write!(
        out,
        "<svg role=\"img\" aria-label=\"{}\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\"><polyline fill=\"none\" stroke=\"#0b5cad\" stroke-width=\"1.5\" points=\"{}\"/></svg>",
        escape(
            &values
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        points.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str, url: &str) -> Report {
        Report {
            title: format!("Report {text}"),
            subtitle: "from stored results".into(),
            sections: vec![Section {
                heading: text.into(),
                notes: vec![text.into()],
                blocks: vec![
                    Block::Figures(vec![(text.into(), "1".into())]),
                    Block::Bars {
                        title: text.into(),
                        bars: vec![(text.into(), 10.0), ("b".into(), 5.0)],
                    },
                    Block::Table {
                        caption: text.into(),
                        headers: vec![
                            "Keyword".into(),
                            "#Volume".into(),
                            "URL".into(),
                            "Trend".into(),
                        ],
                        rows: vec![vec![
                            Cell::Text(text.into()),
                            Cell::Text("1,000".into()),
                            Cell::Url(url.into()),
                            Cell::Spark(vec![1, 2, 3]),
                        ]],
                    },
                ],
            }],
            contents: false,
        }
    }

    #[test]
    fn scraped_text_is_escaped_everywhere() {
        let evil = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
        let html = render(&sample(evil, "javascript:alert(3)"));
        assert!(!html.to_lowercase().contains("<script"));
        assert!(!html.contains("<img"));
        assert!(
            !html.contains("javascript:alert(3)\""),
            "no link to a non-http URL"
        );
        assert!(!html.contains("href=\"javascript"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("&quot;&#39;&amp;"));
    }

    #[test]
    fn only_http_urls_become_links() {
        let html = render(&sample("x", "https://example.com/a?b=1&c=\"2\""));
        assert!(html.contains("<a href=\"https://example.com/a?b=1&amp;c=&quot;2&quot;\""));
        for bad in [
            "data:text/html,x",
            "//example.com",
            "https://",
            "http://a b",
        ] {
            assert!(!render(&sample("x", bad)).contains("<a href"), "{bad}");
        }
    }

    #[test]
    fn the_file_is_self_contained() {
        let html = render(&sample("shoes", "https://example.com/"));
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("default-src 'none'"));
        assert!(html.contains("<style>"));
        assert!(html.contains("@media print"));
        // No external resource: the only URLs are the table's link and SVG's namespace-free tags.
        assert!(!html.contains("src="));
        assert!(!html.contains("<link"));
        assert!(html.contains("<svg role=\"img\""));
        assert!(html.contains("<polyline"));
        assert!(html.contains("<th scope=\"col\" class=\"n\">Volume</th>"));
    }

    #[test]
    fn demo_data_says_so_under_the_title() {
        let live = render(&sample("x", "https://example.com/"));
        assert!(!live.contains("Demo data"));
        let demo = render_as(&sample("x", "https://example.com/"), Origin::Demo);
        assert!(demo.contains("<title>Demo data: Report x</title>"));
        let banner = demo.find("data-demo=\"true\"").expect("the demo note");
        assert!(
            banner < demo.find("<section>").unwrap(),
            "before any section"
        );
        assert!(demo.contains("synthetic"));
        let mixed = render_as(&sample("x", "https://example.com/"), Origin::Mixed);
        assert!(mixed.contains("<title>Partly demo data: Report x</title>"));
        assert!(mixed.contains("data-demo=\"true\""));
    }

    #[test]
    fn the_origin_is_the_rows_sources() {
        use serpkit::machine::DEMO_SOURCE;
        let live = "https://api.example.com";
        assert_eq!(Origin::of([]), Origin::Live);
        assert_eq!(Origin::of([(DEMO_SOURCE, false)]), Origin::Demo);
        assert_eq!(
            Origin::of([(live, true)]),
            Origin::Live,
            "a source wins over a mode"
        );
        assert_eq!(
            Origin::of([("", true)]),
            Origin::Demo,
            "older data: its mode"
        );
        assert_eq!(Origin::of([("", false)]), Origin::Live);
        assert_eq!(
            Origin::of([(DEMO_SOURCE, false), (live, false)]),
            Origin::Mixed
        );
        assert_eq!(Origin::Demo.and(Origin::Live), Origin::Demo);
        assert_eq!(Origin::Demo.and(Origin::Demo), Origin::Demo);
        assert_eq!(Origin::Live.and(Origin::Live), Origin::Live);
        assert_eq!(Origin::Demo.and(Origin::Mixed), Origin::Mixed);
        assert_eq!(Origin::Demo.file_name("a.csv"), "demo-a.csv");
        assert_eq!(Origin::Mixed.file_name("demo-a.csv"), "demo-a.csv");
        assert_eq!(Origin::Mixed.file_name("a.csv"), "partly-demo-a.csv");
        assert_eq!(Origin::Live.file_name("a.csv"), "a.csv");
    }

    #[test]
    fn charts_handle_empty_and_odd_values() {
        let mut out = String::new();
        bar_chart(&mut out, "t", &[("a".into(), f64::NAN), ("b".into(), -3.0)]);
        assert!(out.contains("width=\"0.0\""));
        let mut out = String::new();
        sparkline(&mut out, &[5]);
        assert!(out.is_empty());
        assert_eq!(format_value(1234567.0), "1,234,567");
        assert_eq!(format_value(0.5), "0.50");
    }
}
