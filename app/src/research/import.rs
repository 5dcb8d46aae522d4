//! Bring your own keywords: read a keyword file or paste (plain text, CSV, TSV or
//! semicolon-separated), find its columns, pick the keyword column, and extract the keywords
//! the explorer would run. No call here: the explorer prices the keywords before buying.
//!
//! Rules (our decisions; [`IMPORT_RULES`] states them on the page):
//! - A file's bytes are decoded by [`super::decode`] (byte-order marks, UTF-16 without one,
//!   UTF-8, else Windows-1252, named on the page). A UTF-8 byte order mark in a paste is
//!   dropped. Lines end in LF, CRLF or CR alone (old Mac Excel).
//! - Excel's `sep=;` first line sets the delimiter and is no row. Else the delimiter is the
//!   one of tab, `;` and `,` that splits the first 20 lines (outside quotes) into the same
//!   number (more than one) of cells most often; a tie goes to tab, then `;`, then `,`: a line
//!   split as well by `;` as by `,` is a European file whose commas are decimal commas
//!   (`laufschuhe;0,50`). None: one keyword per line (plain text, quotes kept as typed).
//! - CSV quoting is RFC 4180's: a quoted cell may hold the delimiter, doubled quotes and line
//!   breaks. A quote left open is an error naming its line.
//! - The header is the first row with a keyword column name ([`KEYWORD_HEADERS`]): row 1, or
//!   (with a delimiter) a later row of the first [`HEADER_SEARCH`] when every row above it has
//!   at most one filled cell: those are title rows (Keyword Planner's report name and date
//!   range), skipped and counted. Without a named header, row 1 is a header when none of its
//!   cells is a number while a later row has a number in a column. The proposed column is the
//!   named one, else the one with the most cells that are not numbers.
//! - Keywords: the cell trimmed, every run of white space (line breaks too) made one space,
//!   empty cells dropped, duplicates removed as the explorer removes them (case and white
//!   space folded, the first spelling kept): importing then pasting gives the same list.
//! - A cell starting with `=` is a spreadsheet formula, not a query: skipped and counted,
//!   never unwrapped (`=HYPERLINK("…","shoes")` could name anything, and a priced keyword
//!   should be one the user can read in the file). Decided: `+`, `-` and `@`, OWASP's other
//!   CSV-injection triggers, begin real queries ("+1 area code", "-webkit-box-shadow",
//!   "@media query"), so such a cell is a keyword; the CSV export neutralises every text
//!   cell starting with one of them (`components::csv::text_cell`), which is where a
//!   spreadsheet would run it.
//! - At most [`MAX_BYTES`] (of the file, or of a paste's text) and [`MAX_ROWS`] data rows
//!   (the header and title rows not counted): more is an error, never a cut.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use super::decode::{decode, DecodeError, Encoding};

/// The largest file read (bytes).
pub const MAX_BYTES: usize = 5_000_000;

/// The most data rows read (a header and title rows above it are not counted).
pub const MAX_ROWS: usize = 100_000;

/// The rows looked at for a header below title rows.
pub const HEADER_SEARCH: usize = 10;

/// Header names taken for the keyword column (compared lower-cased, trimmed).
pub const KEYWORD_HEADERS: &[&str] = &[
    "keyword",
    "keywords",
    "query",
    "queries",
    "top queries",
    "search term",
    "search terms",
    "search query",
    "term",
    "terms",
    "phrase",
    "kw",
];

/// The reading rules, as the import panel states them (with [`super::decode::DECODE_RULE`]).
pub const IMPORT_RULES: &[&str] = &[
    "Lines may end in LF, CRLF or CR. Excel's \"sep=;\" first line sets the delimiter and is not a keyword. Otherwise the delimiter is the one of tab, semicolon and comma that splits the first 20 lines most consistently; a tie goes to tab, then semicolon, then comma, because a comma beside a semicolon is usually a decimal comma (\"laufschuhe;0,50\" is the keyword \"laufschuhe\" with 0,50). No delimiter: one keyword per line.",
    "The header is the first row naming a keyword column (Keyword, Keywords, Query, Top queries, Search term, Term, Phrase, KW), in row 1 or below title rows of one cell each (Keyword Planner's report name and dates, skipped and counted). Without such a name, row 1 is a header when it has no number and the rows below do.",
    "Cells starting with = are spreadsheet formulas, not keywords: skipped and counted, never priced. Cells starting with +, - or @ are keywords (\"+1 area code\"); CSV exports neutralise them (OWASP's CSV-injection rule: a ' before the cell).",
    "At most 5 MB and 100,000 data rows (the header and title rows not counted); a larger file is refused, never cut.",
];

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// More than [`MAX_BYTES`].
    TooLarge(usize),
    /// More than [`MAX_ROWS`] data rows.
    TooManyRows,
    /// A quoted cell is not closed; the line it opens on (1-based).
    OpenQuote(usize),
    /// Nothing but white space.
    Empty,
    /// The bytes are not text in an encoding read here.
    NotText(DecodeError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge(n) => write!(
                f,
                "the file has {} bytes; at most {} are read (split it)",
                grouped(*n),
                grouped(MAX_BYTES)
            ),
            ImportError::TooManyRows => write!(
                f,
                "the file has more than {} data rows (split it)",
                grouped(MAX_ROWS)
            ),
            ImportError::OpenQuote(line) => write!(
                f,
                "a quoted cell opened on line {line} is never closed (a \" is missing)"
            ),
            ImportError::Empty => write!(f, "there is nothing to import"),
            ImportError::NotText(e) => e.fmt(f),
        }
    }
}

/// `n` with thousands separated by commas, as the page writes counts.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A file read as rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The delimiter found (`None`: plain text, one keyword per line).
    pub delimiter: Option<char>,
    /// True when the delimiter came from Excel's `sep=` first line.
    pub sep_line: bool,
    /// Title rows above the header, skipped.
    pub title_rows: usize,
    /// True when a header row was found (it is not data).
    pub header: bool,
    /// A name per column: the header's cell, else "Column N".
    pub columns: Vec<String>,
    /// The data rows (header excluded); a short row has fewer cells.
    pub rows: Vec<Vec<String>>,
    /// The proposed keyword column.
    pub suggested: usize,
}

impl Table {
    /// Up to `n` non-empty sample values of `column`.
    pub fn samples(&self, column: usize, n: usize) -> Vec<&str> {
        self.rows
            .iter()
            .filter_map(|r| r.get(column).map(|c| c.trim()))
            .filter(|c| !c.is_empty())
            .take(n)
            .collect()
    }
}

/// A file's table and the encoding it was read in.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRead {
    /// The rows.
    pub table: Table,
    /// How the bytes were decoded.
    pub encoding: Encoding,
    /// Undecodable sequences shown as U+FFFD.
    pub replaced: usize,
}

/// Keywords taken from a column, and what was dropped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extracted {
    /// The keywords, in file order.
    pub keywords: Vec<String>,
    /// Data rows read.
    pub rows: usize,
    /// Rows whose cell was empty (or missing).
    pub empty: usize,
    /// Duplicates removed.
    pub duplicates: usize,
    /// Formula-looking cells skipped.
    pub formulas: usize,
}

/// The most rows kept while splitting: the data rows allowed plus a header and title rows.
const MAX_READ_ROWS: usize = MAX_ROWS + HEADER_SEARCH;

/// Splits `text` (LF line ends) into rows of cells at `delimiter`, RFC 4180 quoting; blank
/// lines are no rows.
fn split(text: &str, delimiter: char) -> Result<Vec<Vec<String>>, ImportError> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut open_line = 0;
    let mut line = 1;
    let mut at_start = true;
    let mut chars = text.chars().peekable();
    let mut end_row = |row: &mut Vec<String>, cell: &mut String| {
        row.push(std::mem::take(cell));
        let row = std::mem::take(row);
        if row.len() == 1 && row[0].trim().is_empty() {
            return Ok(());
        }
        rows.push(row);
        if rows.len() > MAX_READ_ROWS {
            return Err(ImportError::TooManyRows);
        }
        Ok(())
    };
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push('\n');
                }
                c => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if at_start => {
                quoted = true;
                open_line = line;
                at_start = false;
            }
            c if c == delimiter => {
                row.push(std::mem::take(&mut cell));
                at_start = true;
            }
            '\n' => {
                end_row(&mut row, &mut cell)?;
                line += 1;
                at_start = true;
            }
            c => {
                cell.push(c);
                at_start = false;
            }
        }
    }
    if quoted {
        return Err(ImportError::OpenQuote(open_line));
    }
    if !cell.is_empty() || !row.is_empty() {
        end_row(&mut row, &mut cell)?;
    }
    Ok(rows)
}

/// The delimiter splitting the first lines most consistently into more than one cell; ties
/// go to tab, then `;`, then `,` (see the module's rules).
fn detect_delimiter(text: &str) -> Option<char> {
    let head: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let mut best: Option<(usize, char)> = None;
    for delimiter in ['\t', ';', ','] {
        let counts: Vec<usize> = head
            .iter()
            .map(|l| {
                let mut quoted = false;
                1 + l
                    .chars()
                    .filter(|&c| {
                        if c == '"' {
                            quoted = !quoted;
                        }
                        !quoted && c == delimiter
                    })
                    .count()
            })
            .collect();
        // The most frequent cell count above one, and how many lines have it.
        let mut agree = 0;
        for &n in counts.iter().filter(|&&n| n > 1) {
            agree = agree.max(counts.iter().filter(|&&m| m == n).count());
        }
        if agree > 0 && best.is_none_or(|(b, _)| agree > b) {
            best = Some((agree, delimiter));
        }
    }
    best.map(|(_, d)| d)
}

/// Excel's `sep=X` first line (any case; also quoted, and followed by more `X`s as Excel
/// writes it again when it saves such a file): the delimiter and the text after the line.
fn sep_line(text: &str) -> Option<(char, &str)> {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let first = first.strip_prefix('"').unwrap_or(first);
    let value = first
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("sep="))
        .map(|_| &first[4..])?;
    let mut chars = value.chars();
    let c = chars.next().filter(|&c| c != '"')?;
    let tail = chars.as_str();
    let tail = tail.strip_prefix('"').unwrap_or(tail);
    tail.chars().all(|x| x == c).then_some((c, rest))
}

/// True for a cell that reads as a number (`1,200`, `$0.35`, `12%`, `0,50` included).
fn is_number(cell: &str) -> bool {
    let t: String = cell
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '$' | '%' | ' '))
        .collect();
    !t.is_empty() && t.parse::<f64>().is_ok()
}

/// The column of `row` named as a keyword column.
fn named_column(row: &[String]) -> Option<usize> {
    row.iter()
        .position(|c| KEYWORD_HEADERS.contains(&c.trim().to_lowercase().as_str()))
}

fn filled(row: &[String]) -> usize {
    row.iter().filter(|c| !c.trim().is_empty()).count()
}

/// The header row and its keyword column: row 1 when it names one; with a delimiter, also a
/// row below title rows (each with at most one filled cell) that has two filled cells or
/// more, within the first [`HEADER_SEARCH`] rows.
fn find_header(rows: &[Vec<String>], delimited: bool) -> Option<(usize, usize)> {
    if let Some(col) = rows.first().and_then(|r| named_column(r)) {
        return Some((0, col));
    }
    if !delimited {
        return None;
    }
    let at = rows
        .iter()
        .take(HEADER_SEARCH)
        .position(|r| filled(r) > 1)
        .filter(|&i| i > 0)?;
    named_column(&rows[at]).map(|col| (at, col))
}

/// Reads a paste (or any text) into a [`Table`].
pub fn read_table(text: &str) -> Result<Table, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooLarge(text.len()));
    }
    parse(text)
}

/// Reads a file's bytes: decoded by [`super::decode`], then read as [`read_table`] does.
/// The size limit is on the bytes (decoding Windows-1252 can make the text longer).
pub fn read_file(bytes: &[u8]) -> Result<FileRead, ImportError> {
    if bytes.len() > MAX_BYTES {
        return Err(ImportError::TooLarge(bytes.len()));
    }
    let decoded = decode(bytes).map_err(ImportError::NotText)?;
    Ok(FileRead {
        table: parse(&decoded.text)?,
        encoding: decoded.encoding,
        replaced: decoded.replaced,
    })
}

fn parse(text: &str) -> Result<Table, ImportError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let text: Cow<str> = if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let (delimiter, sep, text) = match sep_line(&text) {
        Some((d, rest)) => (Some(d), true, rest),
        None => (detect_delimiter(&text), false, &text[..]),
    };
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let mut rows = match delimiter {
        Some(d) => split(text, d)?,
        None => {
            let mut rows = Vec::new();
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                rows.push(vec![l.to_string()]);
                if rows.len() > MAX_READ_ROWS {
                    return Err(ImportError::TooManyRows);
                }
            }
            rows
        }
    };
    if rows.is_empty() {
        return Err(ImportError::Empty);
    }
    let named = find_header(&rows, delimiter.is_some());
    let title_rows = named.map_or(0, |(at, _)| at);
    rows.drain(..title_rows);
    let width = rows.iter().map(Vec::len).max().unwrap_or(1);
    let first = &rows[0];
    let numeric_below = (0..width).any(|col| {
        first.get(col).is_some_and(|c| !is_number(c))
            && rows
                .iter()
                .skip(1)
                .any(|r| r.get(col).is_some_and(|c| is_number(c)))
    });
    let header = named.is_some()
        || (delimiter.is_some() && !first.iter().any(|c| is_number(c)) && numeric_below);
    let columns: Vec<String> = (0..width)
        .map(|i| match (header, rows[0].get(i)) {
            (true, Some(name)) if !name.trim().is_empty() => name.trim().to_string(),
            _ => format!("Column {}", i + 1),
        })
        .collect();
    if header {
        rows.remove(0);
    }
    if rows.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows);
    }
    let suggested = named.map(|(_, col)| col).unwrap_or_else(|| {
        let texts = |col: usize| {
            rows.iter()
                .filter(|r| {
                    r.get(col)
                        .is_some_and(|c| !c.trim().is_empty() && !is_number(c))
                })
                .count()
        };
        // The first column with the most text cells.
        (0..width).fold(
            0,
            |best, col| if texts(col) > texts(best) { col } else { best },
        )
    });
    Ok(Table {
        delimiter,
        sep_line: sep,
        title_rows,
        header,
        columns,
        rows,
        suggested,
    })
}

/// True for a cell (trimmed) that is a spreadsheet formula rather than a query: it starts
/// with `=` (see the module rules for `+`, `-` and `@`).
pub fn is_formula(keyword: &str) -> bool {
    keyword.starts_with('=')
}

/// The keywords of `column`, as the explorer would read them; formulas skipped.
pub fn extract(table: &Table, column: usize) -> Extracted {
    let mut seen = HashSet::new();
    let mut out = Extracted {
        rows: table.rows.len(),
        ..Extracted::default()
    };
    for row in &table.rows {
        let keyword = row
            .get(column)
            .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        if keyword.is_empty() {
            out.empty += 1;
        } else if is_formula(&keyword) {
            out.formulas += 1;
        } else if seen.insert(serpkit::records::normalize_keyword(&keyword)) {
            out.keywords.push(keyword);
        } else {
            out.duplicates += 1;
        }
    }
    out
}

/// How a file or paste was read, for the line above its columns: the encoding (files), the
/// delimiter and where it came from, title rows skipped, replaced sequences.
pub fn how_read(table: &Table, file: Option<(Encoding, usize)>) -> String {
    let mut parts = Vec::new();
    if let Some((encoding, _)) = file {
        parts.push(format!("Read as {}", encoding.describe()));
    }
    let delimiter = match table.delimiter {
        None => "one keyword per line (no delimiter found)".to_string(),
        Some(d) => {
            let name = match d {
                '\t' => "tabs".to_string(),
                ';' => "semicolons".to_string(),
                ',' => "commas".to_string(),
                c => format!("“{c}”"),
            };
            if table.sep_line {
                format!("cells separated by {name} (the file's sep= line)")
            } else {
                format!("cells separated by {name}")
            }
        }
    };
    parts.push(delimiter);
    match table.title_rows {
        0 => {}
        1 => parts.push("1 title row above the header skipped".into()),
        n => parts.push(format!("{n} title rows above the header skipped")),
    }
    if let Some((_, replaced @ 1..)) = file {
        parts.push(format!(
            "{replaced} undecodable sequence{} shown as �",
            if replaced == 1 { "" } else { "s" }
        ));
    }
    let mut out = parts.join(" · ");
    out.push('.');
    out
}

#[cfg(test)]
mod tests;
