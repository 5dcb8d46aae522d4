//! CSV export: RFC 4180 quoting, a guard against spreadsheet formulas in text cells, and a
//! browser download whose CSV files start with UTF-8's byte-order mark ([`CSV_PREFIX`]).
//!
//! Every export goes through [`to_csv`], whose cells are [`Cell`]s: text always passes the
//! formula guard ([`text_cell`]) there, and only numbers formatted here skip it. No writer
//! can hand a raw string to a spreadsheet.
//!
//! Every file leaves through [`download`], which labels it by where its rows came from
//! ([`Origin`], read from their stored sources by the caller, never from the settings): a
//! demo CSV says so on its first line and in its name, a demo report in its name (its banner
//! is the report's, `research::report::render_as`).

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
}

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

    /// The cell as written (text guarded).
    fn written(&self) -> String {
        match &self.0 {
            CellKind::Text(s) => text_cell(s),
            CellKind::Number(s) => s.clone(),
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
        .map(|h| quote(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for row in rows {
        out.push_str(
            &row.iter()
                .map(|c| quote(&c.written()))
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

/// The file's text in parts (no copy of `content`): a CSV gets [`CSV_PREFIX`] first, then,
/// when any row came from demo, [`Origin::note`] as its first line (one cell: a title row,
/// which spreadsheets show on top and the app's import skips).
fn file_parts<'a>(mime: &str, content: &'a str, origin: Origin) -> [&'a str; 4] {
    let csv = mime == "text/csv";
    let note = origin.note().filter(|_| csv);
    [
        if csv { CSV_PREFIX } else { "" },
        note.unwrap_or_default(),
        if note.is_some() { "\r\n" } else { "" },
        content,
    ]
}

/// Offers `content` as a file download named `filename`; `origin` is where its rows came
/// from (their stored sources): a file with demo rows is named `demo-…` and a CSV says so
/// on its first line, whatever the settings say now (a file outlives the page that said so).
pub fn download(filename: &str, mime: &str, content: &str, origin: Origin) -> Result<(), String> {
    let filename = origin.file_name(filename);
    let parts = js_sys::Array::new();
    for part in file_parts(mime, content, origin) {
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
        let file = file_parts("text/csv", &csv, Origin::Live).concat();
        assert_eq!(file.as_bytes()[..3], [0xEF, 0xBB, 0xBF]);
        assert_eq!(file, "\u{FEFF}Keyword\r\nmünchen\r\n");
        // Reports (HTML) declare their charset instead.
        assert_eq!(file_parts("text/html", "<p>", Origin::Live).concat(), "<p>");
    }

    #[test]
    fn demo_rows_say_so_on_the_first_line() {
        let csv = to_csv(&["Keyword"], vec![vec![Cell::text("shoes")]]);
        let demo = file_parts("text/csv", &csv, Origin::Demo).concat();
        assert!(demo.starts_with("\u{FEFF}Demo data: every row of this file is synthetic"));
        assert!(demo.ends_with(".\r\nKeyword\r\nshoes\r\n"));
        let mixed = file_parts("text/csv", &csv, Origin::Mixed).concat();
        assert!(mixed.starts_with("\u{FEFF}Partly demo data: "));
        // A report's banner is its own (render_as): nothing is added to its text.
        assert_eq!(file_parts("text/html", "<p>", Origin::Demo).concat(), "<p>");
        // The app's own import reads such a file: the note is a title row, skipped.
        let two = to_csv(
            &["Keyword", "Volume"],
            vec![vec![Cell::text("shoes"), Cell::num(10i64)]],
        );
        let file = file_parts("text/csv", &two, Origin::Demo).concat();
        let table = crate::research::import::read_table(&file).expect("read");
        assert_eq!(table.title_rows, 1);
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
