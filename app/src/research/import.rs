//! Bring your own keywords: read a keyword file or paste (plain text, CSV, TSV or
//! semicolon-separated), find its columns, pick the keyword column, and extract the keywords
//! the explorer would run. No call here: the explorer prices the keywords before buying.
//!
//! Rules (our decisions):
//! - A UTF-8 byte order mark is dropped; lines end in LF or CRLF.
//! - The delimiter is the one of `,`, tab and `;` that splits the first 20 lines (outside
//!   quotes) into the same number (more than one) of cells most often; none: one keyword per
//!   line (plain text, quotes kept as typed).
//! - CSV quoting is RFC 4180's: a quoted cell may hold the delimiter, doubled quotes and line
//!   breaks. A quote left open is an error naming its line.
//! - The first row is a header when one of its cells is a keyword column name
//!   ([`KEYWORD_HEADERS`]), or when none of its cells is a number while a later row has a
//!   number in a column. The proposed column is the named one, else the one with the most
//!   cells that are not numbers.
//! - Keywords: the cell trimmed, every run of white space (line breaks too) made one space,
//!   empty cells dropped, duplicates removed as the explorer removes them (case and white
//!   space folded, the first spelling kept): importing then pasting gives the same list.
//! - At most [`MAX_BYTES`] of text and [`MAX_ROWS`] rows: more is an error, never a cut.

use std::collections::HashSet;
use std::fmt;

/// The largest file read (bytes).
pub const MAX_BYTES: usize = 5_000_000;

/// The most rows read.
pub const MAX_ROWS: usize = 100_000;

/// Header names taken for the keyword column (compared lower-cased, trimmed).
pub const KEYWORD_HEADERS: &[&str] = &[
    "keyword",
    "keywords",
    "query",
    "queries",
    "search term",
    "search terms",
    "search query",
    "term",
    "terms",
    "phrase",
    "kw",
];

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// More than [`MAX_BYTES`].
    TooLarge(usize),
    /// More than [`MAX_ROWS`] rows.
    TooManyRows,
    /// A quoted cell is not closed; the line it opens on (1-based).
    OpenQuote(usize),
    /// Nothing but white space.
    Empty,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge(n) => write!(
                f,
                "the file has {n} bytes; at most {MAX_BYTES} are read (split it)"
            ),
            ImportError::TooManyRows => {
                write!(f, "the file has more than {MAX_ROWS} rows (split it)")
            }
            ImportError::OpenQuote(line) => write!(
                f,
                "a quoted cell opened on line {line} is never closed (a \" is missing)"
            ),
            ImportError::Empty => write!(f, "there is nothing to import"),
        }
    }
}

/// A file read as rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The delimiter found (`None`: plain text, one keyword per line).
    pub delimiter: Option<char>,
    /// True when the first row is a header (not data).
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
}

/// Splits `text` into rows of cells at `delimiter`, RFC 4180 quoting.
fn split(text: &str, delimiter: char) -> Result<Vec<Vec<String>>, ImportError> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut open_line = 0;
    let mut line = 1;
    let mut at_start = true;
    let mut chars = text.chars().peekable();
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
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
                if rows.len() > MAX_ROWS {
                    return Err(ImportError::TooManyRows);
                }
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
        row.push(cell);
        rows.push(row);
    }
    // Blank lines are no rows.
    rows.retain(|r| !(r.len() == 1 && r[0].trim().is_empty()));
    if rows.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows);
    }
    Ok(rows)
}

/// The delimiter splitting the first lines most consistently into more than one cell.
fn detect_delimiter(text: &str) -> Option<char> {
    let head: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let mut best: Option<(usize, char)> = None;
    for delimiter in [',', '\t', ';'] {
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

/// True for a cell that reads as a number (`1,200`, `$0.35`, `12%` included).
fn is_number(cell: &str) -> bool {
    let t: String = cell
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '$' | '%' | ' '))
        .collect();
    !t.is_empty() && t.parse::<f64>().is_ok()
}

/// Reads a file or paste into a [`Table`].
pub fn read_table(text: &str) -> Result<Table, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooLarge(text.len()));
    }
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let delimiter = detect_delimiter(text);
    let mut rows = match delimiter {
        Some(d) => split(text, d)?,
        None => {
            let rows: Vec<Vec<String>> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| vec![l.to_string()])
                .collect();
            if rows.len() > MAX_ROWS {
                return Err(ImportError::TooManyRows);
            }
            rows
        }
    };
    if rows.is_empty() {
        return Err(ImportError::Empty);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(1);
    let first = &rows[0];
    let named = first
        .iter()
        .position(|c| KEYWORD_HEADERS.contains(&c.trim().to_lowercase().as_str()));
    let numeric_below = (0..width).any(|col| {
        first.get(col).is_some_and(|c| !is_number(c))
            && rows
                .iter()
                .skip(1)
                .any(|r| r.get(col).is_some_and(|c| is_number(c)))
    });
    let header = delimiter.is_some()
        && (named.is_some() || (!first.iter().any(|c| is_number(c)) && numeric_below));
    let columns: Vec<String> = (0..width)
        .map(|i| match (header, rows[0].get(i)) {
            (true, Some(name)) if !name.trim().is_empty() => name.trim().to_string(),
            _ => format!("Column {}", i + 1),
        })
        .collect();
    if header {
        rows.remove(0);
    }
    let suggested = named.filter(|_| header).unwrap_or_else(|| {
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
        header,
        columns,
        rows,
        suggested,
    })
}

/// The keywords of `column`, as the explorer would read them.
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
        } else if seen.insert(serpkit::records::normalize_keyword(&keyword)) {
            out.keywords.push(keyword);
        } else {
            out.duplicates += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_keywords;

    #[test]
    fn csv_with_a_header_quotes_and_duplicates() {
        let text = "\u{FEFF}Keyword,Volume,CPC\r\n\"shoes, running\",1200,0.5\r\nBoots,10,1\r\n,5,0\r\nboots,3,0\r\n\"say \"\"hi\"\"\",1,1\r\n";
        let t = read_table(text).unwrap();
        assert_eq!(t.delimiter, Some(','));
        assert!(t.header);
        assert_eq!(t.columns, ["Keyword", "Volume", "CPC"]);
        assert_eq!(t.suggested, 0);
        assert_eq!(t.samples(0, 2), ["shoes, running", "Boots"]);
        let e = extract(&t, 0);
        assert_eq!(e.keywords, ["shoes, running", "Boots", "say \"hi\""]);
        assert_eq!((e.rows, e.empty, e.duplicates), (5, 1, 1));
    }

    #[test]
    fn the_explorer_reads_the_same_keywords() {
        let text = "term;n\n\"two\nlines\";1\n  Trail   Shoes ;2\ntrail shoes;3\n";
        let t = read_table(text).unwrap();
        assert_eq!(t.delimiter, Some(';'));
        let e = extract(&t, 0);
        assert_eq!(e.keywords, ["two lines", "Trail Shoes"]);
        assert_eq!(parse_keywords(&e.keywords.join("\n")), e.keywords);
    }

    #[test]
    fn plain_text_is_one_keyword_per_line() {
        let t = read_table("running shoes\n\n  trail shoes \nRunning Shoes\n").unwrap();
        assert_eq!(t.delimiter, None);
        assert!(!t.header);
        assert_eq!(t.columns, ["Column 1"]);
        let e = extract(&t, 0);
        assert_eq!(e.keywords, ["running shoes", "trail shoes"]);
        assert_eq!(e.duplicates, 1);
    }

    #[test]
    fn a_header_without_a_known_name_is_found_by_its_numbers() {
        let t = read_table("Suchbegriff\tVolumen\nlaufschuhe\t100\nwanderschuhe\t50\n").unwrap();
        assert_eq!(t.delimiter, Some('\t'));
        assert!(t.header);
        assert_eq!(t.columns, ["Suchbegriff", "Volumen"]);
        assert_eq!(t.suggested, 0);
        // No header: the text column is proposed even when it is not the first.
        let t = read_table("100,shoes\n50,boots\n").unwrap();
        assert!(!t.header);
        assert_eq!(t.suggested, 1);
        assert_eq!(extract(&t, 1).keywords, ["shoes", "boots"]);
    }

    #[test]
    fn ragged_rows_and_missing_cells() {
        let t = read_table("a,b,c\nx,1\ny\nz,2,3,4\n").unwrap();
        assert_eq!(t.columns.len(), 4);
        let e = extract(&t, 2);
        assert_eq!(e.keywords, ["3"]);
        assert_eq!(e.empty, 2);
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        assert_eq!(
            read_table("keyword,n\n\"open,1\nnext,2\n"),
            Err(ImportError::OpenQuote(2))
        );
        assert_eq!(read_table("  \n\r\n"), Err(ImportError::Empty));
        assert_eq!(read_table(""), Err(ImportError::Empty));
        let big = "x\n".repeat(MAX_BYTES / 2 + 1);
        assert!(matches!(read_table(&big), Err(ImportError::TooLarge(_))));
        let many = "k\n".repeat(MAX_ROWS + 1);
        assert_eq!(read_table(&many), Err(ImportError::TooManyRows));
        let many_csv = "k,1\n".repeat(MAX_ROWS + 1);
        assert_eq!(read_table(&many_csv), Err(ImportError::TooManyRows));
        // Binary garbage reads as text cells without panicking.
        let garbage: String = (0u32..2000)
            .filter_map(|i| char::from_u32((i * 7919) % 0x3000))
            .collect();
        let _ = read_table(&garbage).map(|t| extract(&t, t.suggested));
        assert!(!ImportError::OpenQuote(3).to_string().is_empty());
    }
}
