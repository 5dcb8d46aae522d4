//! A keyword file's bytes to text, decided here rather than guessed by the browser
//! (`File.text()` reads everything as UTF-8, so an Excel CSV saved in Windows-1252 turns
//! "café" into "caf�", and a UTF-16 file without a byte-order mark into garbage).
//!
//! Rules, in order (stated to the user by [`DECODE_RULE`]):
//! 1. A byte-order mark decides: UTF-8 (`EF BB BF`), UTF-16 LE (`FF FE`), UTF-16 BE (`FE FF`).
//!    UTF-32 marks are refused (no keyword tool writes them; a typed error says so).
//! 2. No mark, zero bytes in the first 1,000 bytes mostly at odd offsets (LE) or at even
//!    offsets (BE): UTF-16 without a mark (Excel's "Unicode text", Keyword Planner, Ahrefs'
//!    "for Excel" files carry ASCII letters, each with a zero byte). Zero bytes in any other
//!    pattern: not a text file.
//! 3. Valid UTF-8: UTF-8 (plain ASCII too).
//! 4. Otherwise Windows-1252 (what Excel on Windows writes for "CSV (Comma delimited)"), the
//!    WHATWG mapping browsers use, and the page names it ("read as Windows-1252").
//!
//! A sequence a marked encoding cannot decode (a lone UTF-16 surrogate, a broken UTF-8
//! sequence after a UTF-8 mark, an odd last byte of UTF-16) becomes U+FFFD and is counted, so
//! the page can say so instead of dropping text silently.

use std::fmt;

/// How [`decode`] decides an encoding, as the import panel states it.
pub const DECODE_RULE: &str = "Encoding: a byte-order mark decides (UTF-8, UTF-16 LE or BE); without one, zero bytes after ASCII letters mean UTF-16, valid UTF-8 is UTF-8, and anything else is read as Windows-1252 (Excel's \"CSV\" on Windows), named above the columns.";

/// The encoding a file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8; `bom`: it started with a byte-order mark.
    Utf8 { bom: bool },
    /// UTF-16 little-endian; `bom`: it started with a byte-order mark (else: detected).
    Utf16Le { bom: bool },
    /// UTF-16 big-endian; `bom` as for LE.
    Utf16Be { bom: bool },
    /// Windows-1252, the fallback for bytes that are not valid UTF-8.
    Windows1252,
}

impl Encoding {
    /// The encoding as the page names it ("Windows-1252 (not valid UTF-8)").
    pub fn describe(self) -> &'static str {
        match self {
            Encoding::Utf8 { bom: false } => "UTF-8",
            Encoding::Utf8 { bom: true } => "UTF-8 (byte-order mark)",
            Encoding::Utf16Le { bom: true } => "UTF-16 LE (byte-order mark)",
            Encoding::Utf16Le { bom: false } => {
                "UTF-16 LE (no byte-order mark; recognised by its zero bytes)"
            }
            Encoding::Utf16Be { bom: true } => "UTF-16 BE (byte-order mark)",
            Encoding::Utf16Be { bom: false } => {
                "UTF-16 BE (no byte-order mark; recognised by its zero bytes)"
            }
            Encoding::Windows1252 => "Windows-1252 (the file is not valid UTF-8)",
        }
    }
}

/// A file's text and how it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The text, without its byte-order mark.
    pub text: String,
    /// The encoding it was read in.
    pub encoding: Encoding,
    /// Undecodable sequences replaced by U+FFFD.
    pub replaced: usize,
}

/// Why bytes are not read as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A UTF-32 byte-order mark.
    Utf32,
    /// Zero bytes that are not UTF-16's pattern: a binary file (a spreadsheet's .xlsx, an image).
    Binary,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Utf32 => write!(
                f,
                "the file is UTF-32, which is not read here (save it as UTF-8 or UTF-16)"
            ),
            DecodeError::Binary => write!(
                f,
                "the file is not text (an .xlsx workbook? save it as CSV or text first)"
            ),
        }
    }
}

/// Windows-1252's bytes 0x80 to 0x9F (WHATWG's table; its five unassigned bytes map to the
/// C1 controls of the same value, as browsers do). Other bytes are their Latin-1 value.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// How many leading bytes the UTF-16 detection looks at.
const SNIFF: usize = 1000;

/// Reads `bytes` as text by the rules of this module.
pub fn decode(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) || bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return Err(DecodeError::Utf32);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        let (text, replaced) = utf8_lossy(rest);
        return Ok(Decoded {
            text,
            encoding: Encoding::Utf8 { bom: true },
            replaced,
        });
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return Ok(utf16(rest, true, Encoding::Utf16Le { bom: true }));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return Ok(utf16(rest, false, Encoding::Utf16Be { bom: true }));
    }
    if bytes.contains(&0) {
        return match utf16_without_bom(bytes) {
            Some(true) => Ok(utf16(bytes, true, Encoding::Utf16Le { bom: false })),
            Some(false) => Ok(utf16(bytes, false, Encoding::Utf16Be { bom: false })),
            None => Err(DecodeError::Binary),
        };
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => Decoded {
            text: text.to_string(),
            encoding: Encoding::Utf8 { bom: false },
            replaced: 0,
        },
        Err(_) => Decoded {
            text: bytes
                .iter()
                .map(|&b| match b {
                    0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
                    b => char::from(b),
                })
                .collect(),
            encoding: Encoding::Windows1252,
            replaced: 0,
        },
    })
}

/// `Some(true)`: UTF-16 LE, `Some(false)`: BE, from where the zero bytes of the first
/// [`SNIFF`] bytes are. Decided: at least a quarter of the code units have a zero high byte
/// (ASCII letters, digits, delimiters and line ends do), and the other half of the pairs
/// has at most an eighth as many zeros (U+0100, U+0200, … are rare in keywords).
fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    let head = &bytes[..bytes.len().min(SNIFF) & !1];
    let units = head.len() / 2;
    if units == 0 {
        return None;
    }
    let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let looks = |high: usize, low: usize| high * 4 >= units && low * 8 <= high;
    if looks(odd, even) {
        Some(true)
    } else if looks(even, odd) {
        Some(false)
    } else {
        None
    }
}

/// UTF-16 (`le`: little-endian) to text; lone surrogates and an odd last byte count as
/// replaced.
fn utf16(bytes: &[u8], le: bool, encoding: Encoding) -> Decoded {
    let units = bytes.chunks_exact(2).map(|p| {
        let pair = [p[0], p[1]];
        if le {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    let mut replaced = bytes.len() % 2;
    let mut text = String::with_capacity(bytes.len() / 2);
    for c in char::decode_utf16(units) {
        text.push(c.unwrap_or_else(|_| {
            replaced += 1;
            char::REPLACEMENT_CHARACTER
        }));
    }
    if bytes.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Decoded {
        text,
        encoding,
        replaced,
    }
}

/// UTF-8 with each broken sequence replaced by U+FFFD, and how many were.
fn utf8_lossy(bytes: &[u8]) -> (String, usize) {
    let mut text = String::with_capacity(bytes.len());
    let mut replaced = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
            replaced += 1;
        }
    }
    (text, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf16be(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_be_bytes).collect()
    }

    #[test]
    fn byte_order_marks_decide() {
        let text = "Keyword\tVolume\nmünchen café\t10\n";
        let mut le = vec![0xFF, 0xFE];
        le.extend(utf16le(text));
        let d = decode(&le).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            (text, Encoding::Utf16Le { bom: true })
        );
        let mut be = vec![0xFE, 0xFF];
        be.extend(utf16be(text));
        let d = decode(&be).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            (text, Encoding::Utf16Be { bom: true })
        );
        let mut u8 = vec![0xEF, 0xBB, 0xBF];
        u8.extend(text.as_bytes());
        let d = decode(&u8).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            (text, Encoding::Utf8 { bom: true })
        );
        assert_eq!(d.replaced, 0);
    }

    #[test]
    fn utf16_without_a_mark_is_recognised_by_its_zero_bytes() {
        let text = "Keyword,Volume\nrunning shoes,100\nünïcödé shoes,5\n";
        let d = decode(&utf16le(text)).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            (text, Encoding::Utf16Le { bom: false })
        );
        let d = decode(&utf16be(text)).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            (text, Encoding::Utf16Be { bom: false })
        );
        // Zero bytes in no UTF-16 pattern: not text.
        assert_eq!(
            decode(b"PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00\x00\x00abc"),
            Err(DecodeError::Binary)
        );
        assert_eq!(
            decode(&[0xFF, 0xFE, 0, 0, b'a', 0, 0, 0]),
            Err(DecodeError::Utf32)
        );
    }

    #[test]
    fn windows_1252_when_not_utf8() {
        // "café;0,50" and "€ 5 – „quote“" as Excel writes them on Windows.
        let d = decode(b"caf\xE9;0,50\n\x80 5 \x96 \x84quote\x93\n").unwrap();
        assert_eq!(d.encoding, Encoding::Windows1252);
        assert_eq!(d.text, "café;0,50\n€ 5 – „quote“\n");
        assert!(d.encoding.describe().starts_with("Windows-1252"));
        // Valid UTF-8 stays UTF-8.
        let d = decode("café".as_bytes()).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding),
            ("café", Encoding::Utf8 { bom: false })
        );
    }

    #[test]
    fn broken_sequences_are_counted_never_a_panic() {
        let d = decode(b"\xEF\xBB\xBFok \xC3 \xFF\n").unwrap();
        assert_eq!(d.text, "ok \u{FFFD} \u{FFFD}\n");
        assert_eq!(d.replaced, 2);
        // A lone surrogate and an odd last byte.
        let d = decode(&[0xFF, 0xFE, b'a', 0, 0x00, 0xD8, b'b', 0, b'c']).unwrap();
        assert_eq!(d.text, "a\u{FFFD}b\u{FFFD}");
        assert_eq!(d.replaced, 2);
        for bytes in [&[][..], &[0], &[0xFF], &[0xFE], &[0, 0], &[0xEF, 0xBB]] {
            let _ = decode(bytes);
        }
        assert_eq!(decode(&[]).unwrap().text, "");
    }
}
