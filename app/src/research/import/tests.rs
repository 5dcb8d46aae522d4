//! The import rules, one test per rule.

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
fn a_delimiter_tie_goes_to_the_semicolon_beside_decimal_commas() {
    let t = read_table("laufschuhe;0,50\n").unwrap();
    assert_eq!(t.delimiter, Some(';'));
    assert_eq!(t.rows, [["laufschuhe", "0,50"]]);
    assert_eq!(extract(&t, t.suggested).keywords, ["laufschuhe"]);
    let t = read_table("Keyword;CPC\nlaufschuhe;0,50\nwanderschuhe;1,20\n").unwrap();
    assert_eq!((t.delimiter, t.suggested), (Some(';'), 0));
    assert_eq!(extract(&t, 0).keywords, ["laufschuhe", "wanderschuhe"]);
    // Tab over semicolon too; a comma file with no tie stays a comma file.
    assert_eq!(read_table("a;b\tc\n").unwrap().delimiter, Some('\t'));
    let t = read_table("keyword,cpc\nshoes;boots,1\nhats,2\n").unwrap();
    assert_eq!(t.delimiter, Some(','));
}

#[test]
fn a_one_column_file_with_a_keyword_header() {
    let t = read_table("Keyword\nrunning shoes\ntrail shoes\n").unwrap();
    assert_eq!(t.delimiter, None);
    assert!(t.header);
    assert_eq!(t.columns, ["Keyword"]);
    assert_eq!(extract(&t, 0).keywords, ["running shoes", "trail shoes"]);
    // "keyword" further down a one-column list is a keyword, not a header.
    let t = read_table("shoes\nkeyword\n").unwrap();
    assert!(!t.header);
    assert_eq!(extract(&t, 0).keywords, ["shoes", "keyword"]);
}

#[test]
fn excel_sep_line_sets_the_delimiter_and_is_no_keyword() {
    for first in ["sep=;", "\"sep=;\"", "SEP=;", "\"sep=;\";", "sep=;;"] {
        let text = format!("{first}\r\nKeyword;Volume\r\nlaufschuhe, weiß;0,50\r\n");
        let t = read_table(&text).unwrap();
        assert_eq!(t.delimiter, Some(';'), "{first}");
        assert!(t.sep_line && t.header, "{first}");
        assert_eq!(
            extract(&t, t.suggested).keywords,
            ["laufschuhe, weiß"],
            "{first}"
        );
    }
    // A tab given by the line itself, and no header below it.
    let t = read_table("sep=\t\nshoes\t1\nboots\t2\n").unwrap();
    assert_eq!(t.delimiter, Some('\t'));
    assert_eq!(extract(&t, 0).keywords, ["shoes", "boots"]);
    assert!(how_read(&t, None).contains("the file's sep= line"));
    // Not a sep line.
    assert!(!read_table("sep=ab\nx\n").unwrap().sep_line);
}

#[test]
fn keyword_planner_title_rows_above_the_header_are_skipped() {
    let text = "Keyword Stats 2024-05-01 at 10_15_00\nJanuary 1, 2023 - December 31, 2023\nKeyword\tCurrency\tAvg. monthly searches\nrunning shoes\tEUR\t1000\ntrail shoes\tEUR\t100\n";
    let t = read_table(text).unwrap();
    assert_eq!(t.delimiter, Some('\t'));
    assert_eq!((t.title_rows, t.header, t.suggested), (2, true, 0));
    assert_eq!(t.columns[2], "Avg. monthly searches");
    assert_eq!(extract(&t, 0).keywords, ["running shoes", "trail shoes"]);
    assert!(how_read(&t, None).contains("2 title rows above the header skipped"));
    // A row of two filled cells ends the search: no title rows then.
    let t = read_table("a,b\nkeyword,n\nshoes,1\n").unwrap();
    assert_eq!(t.title_rows, 0);
}

#[test]
fn carriage_return_line_ends() {
    let t = read_table("Keyword,Volume\rrunning shoes,1\rtrail shoes,2\r").unwrap();
    assert!(t.header);
    assert_eq!(extract(&t, 0).keywords, ["running shoes", "trail shoes"]);
    let t = read_table("shoes\rboots").unwrap();
    assert_eq!(extract(&t, 0).keywords, ["shoes", "boots"]);
}

#[test]
fn the_row_limit_counts_data_rows() {
    let mut csv = String::from("Keyword,Volume\n");
    for i in 0..MAX_ROWS {
        csv.push_str(&format!("k{i},1\n"));
    }
    let t = read_table(&csv).unwrap();
    assert_eq!(t.rows.len(), MAX_ROWS);
    csv.push_str("one more,1\n");
    assert_eq!(read_table(&csv), Err(ImportError::TooManyRows));
    let mut plain = String::from("Keyword\n");
    for i in 0..MAX_ROWS {
        plain.push_str(&format!("k{i}\n"));
    }
    assert_eq!(read_table(&plain).unwrap().rows.len(), MAX_ROWS);
    // Blank lines are no rows.
    let blanks = format!("Keyword\n{}shoes\n", "\n".repeat(MAX_ROWS + 20));
    assert_eq!(read_table(&blanks).unwrap().rows.len(), 1);
}

#[test]
fn formula_cells_are_skipped_and_counted() {
    let text =
        "Keyword,n\n=HYPERLINK(\"http://x\",\"shoes\"),1\n\t=1+1,5\nsocks,6\nsocks - wool,7\n";
    let t = read_table(text).unwrap();
    let e = extract(&t, 0);
    assert_eq!(e.keywords, ["socks", "socks - wool"]);
    assert_eq!((e.rows, e.formulas, e.empty, e.duplicates), (4, 2, 0, 0));
}

#[test]
fn queries_starting_with_plus_minus_or_at_are_kept_and_neutralised_only_on_export() {
    // The issue's case: "+1 area code" is a real query, dropped as a formula before.
    let text = "Keyword\n+1 area code\n-webkit-box-shadow\n@media query\n";
    let e = extract(&read_table(text).unwrap(), 0);
    assert_eq!(
        e.keywords,
        ["+1 area code", "-webkit-box-shadow", "@media query"]
    );
    assert_eq!(e.formulas, 0);
    assert!(IMPORT_RULES.iter().any(|r| r.contains("+1 area code")));
}

#[test]
fn files_are_decoded_before_reading() {
    let text = "Keyword\tVolume\nmünchen café\t10\n";
    let mut utf16: Vec<u8> = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let f = read_file(&utf16).unwrap();
    assert_eq!(f.encoding, Encoding::Utf16Le { bom: true });
    assert_eq!(extract(&f.table, 0).keywords, ["münchen café"]);
    let f = read_file(b"Keyword;CPC\r\ncaf\xE9 m\xFCnchen;0,50\r\n").unwrap();
    assert_eq!(f.encoding, Encoding::Windows1252);
    assert_eq!(extract(&f.table, 0).keywords, ["café münchen"]);
    let how = how_read(&f.table, Some((f.encoding, f.replaced)));
    assert_eq!(
        how,
        "Read as Windows-1252 (the file is not valid UTF-8) · cells separated by semicolons."
    );
    assert!(matches!(
        read_file(b"PK\x03\x04\0\0\0\0"),
        Err(ImportError::NotText(DecodeError::Binary))
    ));
    assert!(matches!(
        read_file(&vec![b'a'; MAX_BYTES + 1]),
        Err(ImportError::TooLarge(_))
    ));
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
    assert_eq!(read_table("sep=;\n"), Err(ImportError::Empty));
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
    let bytes: Vec<u8> = (0u32..4000).map(|i| (i * 7919 % 251) as u8).collect();
    for n in [0, 1, 2, 3, 7, 100, 4000] {
        let _ = read_file(&bytes[..n]).map(|f| extract(&f.table, f.table.suggested));
    }
    assert!(!ImportError::OpenQuote(3).to_string().is_empty());
    assert_eq!(
        ImportError::TooLarge(12_345_678).to_string(),
        "the file has 12,345,678 bytes; at most 5,000,000 are read (split it)"
    );
    assert!(!ImportError::NotText(DecodeError::Utf32)
        .to_string()
        .is_empty());
}
