//! CSV export: RFC 4180 quoting, a guard against spreadsheet formulas in text cells, and a
//! browser download whose CSV files start with UTF-8's byte-order mark ([`CSV_PREFIX`]).
//!
//! Every export goes through [`to_csv`], whose cells are [`Cell`]s: text always passes the
//! formula guard ([`text_cell`]) there, and only numbers formatted here skip it. No writer
//! can hand a raw string to a spreadsheet.
//!
//! Every file leaves through [`download`], which labels it by where its rows came from
//! ([`Origin`], read from their stored sources by the caller, never from the settings): a
//! file with demo rows says so in its name (`demo-…`), a demo report also in its banner
//! (`research::report::render_as`). Decided: a CSV's first line is its header, which every
//! spreadsheet (Excel, Sheets, pandas) takes as the header; a notice above it was read as
//! the header and shifted every column name.

use std::fmt::Display;

use wasm_bindgen::JsCast;

use crate::model::{CallResult, Mode};
pub use crate::research::report::Origin;

/// The origin of the rows of stored results (results and history entries keep their source,
/// and their mode for those stored before sources were kept).
pub fn origin_of<'a>(results: impl IntoIterator<Item = (&'a str, Mode)>) -> Origin {
    Origin::of(
        results
            .into_iter()
            .map(|(source, mode)| (source, mode == Mode::Demo)),
    )
}

/// The origin of one stored result's rows.
pub fn origin_of_result(r: &CallResult) -> Origin {
    origin_of([(r.source.as_str(), r.mode)])
}

/// A number type whose `Display` is a plain numeral (never text from a response).
pub trait Number: Display {}
impl Number for i64 {}
impl Number for i32 {}
impl Number for u64 {}
impl Number for u32 {}
impl Number for usize {}
impl Number for f64 {}

/// One CSV cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell(CellKind);

#[derive(Clone, Debug, PartialEq)]
enum CellKind {
    Text(String),
    Number(String),
    /// Several cells in a row: a column that spreads over [`MONTH_HEADERS`].
    Spread(Vec<Cell>),
}

/// The header of a column whose cells are [`Cell::months`]: in a CSV it is the months covered
/// ("Apr 2024 – Mar 2025"), then one column per month ([`MONTH_HEADERS`]), so a spreadsheet
/// can chart or sum them (one cell of 12 numbers could not be).
pub const MONTHS_HEADER: &str = "Months covered";

/// The month columns after [`MONTHS_HEADER`], oldest first. Decided: by position, not by
/// calendar name, as rows bought in different months cover different months; the row's
/// "Months covered" names them.
pub const MONTH_HEADERS: [&str; 12] = [
    "Searches month 1 (oldest)",
    "Searches month 2",
    "Searches month 3",
    "Searches month 4",
    "Searches month 5",
    "Searches month 6",
    "Searches month 7",
    "Searches month 8",
    "Searches month 9",
    "Searches month 10",
    "Searches month 11",
    "Searches month 12 (latest)",
];

impl Cell {
    /// A text cell: guarded against formulas when written.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell(CellKind::Text(s.into()))
    }

    /// A whole number.
    pub fn num(n: impl Number) -> Cell {
        Cell(CellKind::Number(n.to_string()))
    }

    /// A decimal with `digits` decimals (`NaN`/infinite: empty).
    pub fn decimal(x: f64, digits: usize) -> Cell {
        Cell(CellKind::Number(if x.is_finite() {
            format!("{x:.digits$}")
        } else {
            String::new()
        }))
    }

    /// An amount in dollars, exact, without the `$` (`0.1500`).
    pub fn usd(amount: serpkit::Usd) -> Cell {
        Cell(CellKind::Number(amount.decimal()))
    }

    /// An empty cell.
    pub fn empty() -> Cell {
        Cell(CellKind::Number(String::new()))
    }

    /// The cells of a [`MONTHS_HEADER`] column: the months covered, then the last 12 monthly
    /// values, oldest first (empty cells before them when fewer are known).
    pub fn months(covered: &str, values: &[i64]) -> Cell {
        let last = &values[values.len().saturating_sub(MONTH_HEADERS.len())..];
        let mut cells = vec![Cell::text(covered)];
        cells.extend((last.len()..MONTH_HEADERS.len()).map(|_| Cell::empty()));
        cells.extend(last.iter().map(|v| Cell::num(*v)));
        Cell(CellKind::Spread(cells))
    }

    /// The cells as written (text guarded): one, or a spread's.
    fn written(&self) -> Vec<String> {
        match &self.0 {
            CellKind::Text(s) => vec![text_cell(s)],
            CellKind::Number(s) => vec![s.clone()],
            CellKind::Spread(cells) => cells.iter().flat_map(Cell::written).collect(),
        }
    }
}

/// A text cell made safe for spreadsheets: text starting with `=`, `+`, `-`, `@`, tab or
/// carriage return gets a leading `'` so it is never run as a formula.
pub fn text_cell(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV text: a header line, then one line per row (CRLF line ends); text cells pass
/// the formula guard.
pub fn to_csv(header: &[&str], rows: impl IntoIterator<Item = Vec<Cell>>) -> String {
    let mut out = header
        .iter()
        .flat_map(|h| {
            let months = (*h == MONTHS_HEADER).then_some(MONTH_HEADERS.as_slice());
            std::iter::once(*h).chain(months.unwrap_or_default().iter().copied())
        })
        .map(quote)
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for row in rows {
        out.push_str(
            &row.iter()
                .flat_map(Cell::written)
                .map(|c| quote(&c))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push_str("\r\n");
    }
    out
}

/// What every CSV file starts with: UTF-8's byte-order mark. Excel on Windows reads a CSV
/// without one in the system's code page ("münchen" shows as "mÃ¼nchen"); with it, as UTF-8.
/// LibreOffice, Numbers, Google Sheets and our own import skip it.
pub const CSV_PREFIX: &str = "\u{FEFF}";

/// The file's text in parts (no copy of `content`): a CSV gets [`CSV_PREFIX`] first, then
/// its header line.
fn file_parts<'a>(mime: &str, content: &'a str) -> [&'a str; 2] {
    [if mime == "text/csv" { CSV_PREFIX } else { "" }, content]
}

/// Offers `content` as a file download named `filename`; `origin` is where its rows came
/// from (their stored sources): a file with demo rows is named `demo-…`, whatever the
/// settings say now (a file outlives the page that said so).
pub fn download(filename: &str, mime: &str, content: &str, origin: Origin) -> Result<(), String> {
    let filename = origin.file_name(filename);
    let parts = js_sys::Array::new();
    for part in file_parts(mime, content) {
        parts.push(&wasm_bindgen::JsValue::from_str(part));
    }
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "could not create the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "could not create a download link")?;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| "no anchor")?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(&filename);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
        a.click();
        let _ = body.remove_child(&a);
    }
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_formulas() {
        let csv = to_csv(
            &["a", "b"],
            vec![vec![Cell::text("x,y"), Cell::text("say \"hi\"")]],
        );
        assert_eq!(csv, "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n");
        assert_eq!(text_cell("=cmd()"), "'=cmd()");
        assert_eq!(text_cell("shoes"), "shoes");
    }

    #[test]
    fn csv_files_start_with_a_utf8_byte_order_mark() {
        let csv = to_csv(&["Keyword"], vec![vec![Cell::text("münchen")]]);
        let file = file_parts("text/csv", &csv).concat();
        assert_eq!(file.as_bytes()[..3], [0xEF, 0xBB, 0xBF]);
        assert_eq!(file, "\u{FEFF}Keyword\r\nmünchen\r\n");
        // Reports (HTML) declare their charset instead.
        assert_eq!(file_parts("text/html", "<p>").concat(), "<p>");
    }

    #[test]
    fn one_column_per_month() {
        let csv = to_csv(
            &["Keyword", MONTHS_HEADER],
            vec![
                vec![
                    Cell::text("shoes"),
                    Cell::months("Apr 2024 – Mar 2025", &[5; 12]),
                ],
                vec![Cell::text("socks"), Cell::months("", &[1, 2])],
            ],
        );
        let lines: Vec<&str> = csv.lines().collect();
        let header: Vec<&str> = lines[0].split(',').collect();
        assert_eq!(header.len(), 2 + 12);
        assert_eq!(
            header[1..3],
            ["Months covered", "Searches month 1 (oldest)"]
        );
        assert_eq!(header[13], "Searches month 12 (latest)");
        assert_eq!(
            lines[1],
            "shoes,Apr 2024 – Mar 2025,5,5,5,5,5,5,5,5,5,5,5,5"
        );
        assert_eq!(lines[2], "socks,,,,,,,,,,,,1,2", "the latest month last");
    }

    #[test]
    fn the_header_is_the_first_line_and_demo_is_in_the_name() {
        let csv = to_csv(&["Keyword"], vec![vec![Cell::text("shoes")]]);
        assert_eq!(
            file_parts("text/csv", &csv).concat(),
            "\u{FEFF}Keyword\r\nshoes\r\n"
        );
        assert_eq!(Origin::Demo.file_name("keywords.csv"), "demo-keywords.csv");
        assert_eq!(
            Origin::Mixed.file_name("keywords.csv"),
            "partly-demo-keywords.csv"
        );
        assert_eq!(Origin::Live.file_name("keywords.csv"), "keywords.csv");
        // The app's own import reads the header at once.
        let two = to_csv(
            &["Keyword", "Volume"],
            vec![vec![Cell::text("shoes"), Cell::num(10i64)]],
        );
        let file = file_parts("text/csv", &two).concat();
        let table = crate::research::import::read_table(&file).expect("read");
        assert_eq!(table.title_rows, 0);
        assert_eq!(
            crate::research::import::extract(&table, table.suggested).keywords,
            ["shoes"]
        );
    }

    #[test]
    fn every_text_cell_is_guarded_numbers_are_not() {
        let row = vec![
            Cell::text("=HYPERLINK(\"http://x\")"),
            Cell::text("+1"),
            Cell::text("@SUM(1)"),
            Cell::text("-2"),
            Cell::text("\tx"),
            Cell::text("\rx"),
            Cell::num(-3i64),
            Cell::decimal(-0.5, 2),
            Cell::decimal(f64::NAN, 2),
            Cell::empty(),
        ];
        assert_eq!(
            to_csv(&["h"], vec![row]),
            "h\r\n\"'=HYPERLINK(\"\"http://x\"\")\",'+1,'@SUM(1),'-2,'\tx,\"'\rx\",-3,-0.50,,\r\n"
        );
    }
}
