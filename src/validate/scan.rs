//! A small zero-allocation JSON scanner over bytes, used by the validator.
//!
//! It checks the full JSON grammar (RFC 8259, as `serde_json` does: no BOM, no trailing
//! commas, no lone surrogates in `\u` escapes, no raw control characters in strings), records
//! the byte offset of every error, classifies numbers as integer or float per the grammar and
//! limits nesting to [`MAX_DEPTH`]. Skipping a value is iterative (a bit stack), so hostile
//! nesting cannot overflow the call stack.

use std::borrow::Cow;

/// Deepest nesting of arrays and objects accepted: the same as `serde_json`, whose recursion
/// limit of 128 rejects the 128th nested container.
pub const MAX_DEPTH: u32 = 127;

/// A syntax error: what and where (byte offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxErr {
    pub offset: usize,
    pub msg: &'static str,
}

pub(crate) type SResult<T> = Result<T, SyntaxErr>;

/// A string token: the raw text between the quotes (escapes not decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawStr<'a> {
    raw: &'a str,
    escaped: bool,
}

impl<'a> RawStr<'a> {
    /// The raw text between the quotes.
    pub fn raw(&self) -> &'a str {
        self.raw
    }
    /// True when the raw text holds a backslash escape.
    pub fn has_escapes(&self) -> bool {
        self.escaped
    }
    /// The decoded text; borrows unless there are escapes.
    pub fn text(&self) -> Cow<'a, str> {
        if self.escaped {
            Cow::Owned(unescape(self.raw))
        } else {
            Cow::Borrowed(self.raw)
        }
    }
    /// True when the decoded text equals `s`, without allocating in the common case.
    pub fn eq_str(&self, s: &str) -> bool {
        if self.escaped {
            unescape(self.raw) == s
        } else {
            self.raw == s
        }
    }
}

/// Decodes the escapes of an already validated raw string.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hi = hex4(&mut chars);
                let code = if (0xD800..0xDC00).contains(&hi) {
                    // Validated: a `\uDC00..` low surrogate follows.
                    chars.next();
                    chars.next();
                    let lo = hex4(&mut chars);
                    0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                } else {
                    hi
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn hex4(chars: &mut std::str::Chars<'_>) -> u32 {
    let mut v = 0;
    for _ in 0..4 {
        v = v * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0);
    }
    v
}

/// A scalar JSON value, borrowed from the text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar<'a> {
    /// Not present (a field that was not in the object).
    Absent,
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer (per the JSON grammar: no fraction, no exponent) that fits `i64`.
    Int(i64),
    /// An integer literal outside the `i64` range (raw text).
    BigInt(&'a str),
    /// A number with a fraction or exponent (raw text).
    Float(&'a str),
    /// A string.
    Str(RawStr<'a>),
    /// An array (contents checked elsewhere).
    Array,
    /// An object (contents checked elsewhere).
    Object,
}

impl<'a> Scalar<'a> {
    /// The JSON type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Scalar::Absent => "nothing",
            Scalar::Null => "null",
            Scalar::Bool(_) => "boolean",
            Scalar::Int(_) | Scalar::BigInt(_) => "integer",
            Scalar::Float(_) => "float",
            Scalar::Str(_) => "string",
            Scalar::Array => "array",
            Scalar::Object => "object",
        }
    }
    /// The integer, if this is one that fits `i64`.
    pub fn as_int(&self) -> Option<i64> {
        match *self {
            Scalar::Int(i) => Some(i),
            _ => None,
        }
    }
    /// The number (integer or float) as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Scalar::Int(i) => Some(i as f64),
            Scalar::BigInt(s) | Scalar::Float(s) => s.parse().ok(),
            _ => None,
        }
    }
    /// The string token, if this is a string.
    pub fn as_str(&self) -> Option<RawStr<'a>> {
        match *self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The first byte of a value, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    Object,
    Array,
    Scalar,
}

// Byte classes for the string fast path: 1 = stop (quote, backslash, control character).
static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

pub(crate) struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    pub pos: usize,
    pub depth: u32,
}

impl<'a> Scanner<'a> {
    pub fn new(src: &'a str) -> Self {
        Scanner {
            src,
            b: src.as_bytes(),
            pos: 0,
            depth: 0,
        }
    }

    #[inline]
    fn err<T>(&self, msg: &'static str) -> SResult<T> {
        Err(SyntaxErr {
            offset: self.pos.min(self.b.len()),
            msg,
        })
    }

    #[inline]
    pub fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b' ' || c == b'\n' || c == b'\r' || c == b'\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// After the top-level value: only white space may follow.
    pub fn end(&mut self) -> SResult<()> {
        self.ws();
        if self.pos < self.b.len() {
            return self.err("trailing characters after the JSON value");
        }
        Ok(())
    }

    /// Skips white space and classifies the next value (without consuming it).
    #[inline]
    pub fn start(&mut self) -> SResult<Start> {
        self.ws();
        match self.peek() {
            Some(b'{') => Ok(Start::Object),
            Some(b'[') => Ok(Start::Array),
            Some(_) => Ok(Start::Scalar),
            None => self.err("unexpected end of input, expected a value"),
        }
    }

    fn enter(&mut self) -> SResult<()> {
        if self.depth >= MAX_DEPTH {
            return self.err("nesting deeper than 127 levels");
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// Consumes `{` (after [`Self::start`] said Object).
    #[inline]
    pub fn obj_begin(&mut self) -> SResult<()> {
        self.enter()
    }

    /// Consumes `[` (after [`Self::start`] said Array).
    #[inline]
    pub fn arr_begin(&mut self) -> SResult<()> {
        self.enter()
    }

    /// The next key of an object (and its `:`), or `None` at `}`.
    #[inline]
    pub fn obj_key(&mut self, first: bool) -> SResult<Option<RawStr<'a>>> {
        self.ws();
        match self.peek() {
            Some(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                return Ok(None);
            }
            Some(b',') if !first => {
                self.pos += 1;
                self.ws();
            }
            Some(b'"') if first => {}
            _ => {
                return self.err(if first {
                    "expected a key or `}`"
                } else {
                    "expected `,` or `}`"
                })
            }
        }
        if self.peek() != Some(b'"') {
            return self.err("expected a string key");
        }
        let k = self.string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return self.err("expected `:`");
        }
        self.pos += 1;
        Ok(Some(k))
    }

    /// True when another element follows in an array; false at `]` (consumed).
    #[inline]
    pub fn arr_next(&mut self, first: bool) -> SResult<bool> {
        self.ws();
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) if first => Ok(true),
            _ => self.err(if first {
                "expected a value or `]`"
            } else {
                "expected `,` or `]`"
            }),
        }
    }

    /// Reads a scalar value (after [`Self::start`] said Scalar).
    #[inline]
    pub fn scalar(&mut self) -> SResult<Scalar<'a>> {
        match self.peek() {
            Some(b'"') => self.string().map(Scalar::Str),
            Some(b't') => self.literal(b"true", Scalar::Bool(true)),
            Some(b'f') => self.literal(b"false", Scalar::Bool(false)),
            Some(b'n') => self.literal(b"null", Scalar::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.err("expected a value"),
            None => self.err("unexpected end of input, expected a value"),
        }
    }

    fn literal(&mut self, lit: &'static [u8], v: Scalar<'a>) -> SResult<Scalar<'a>> {
        if self.b.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            Ok(v)
        } else {
            self.err("invalid literal")
        }
    }

    fn digits(&mut self) -> usize {
        let s = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - s
    }

    fn number(&mut self) -> SResult<Scalar<'a>> {
        let start = self.pos;
        let neg = self.peek() == Some(b'-');
        if neg {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("invalid number"),
        }
        let int_end = self.pos;
        let mut float = false;
        let mut exponent = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return self.err("invalid number: digits expected after `.`");
            }
            float = true;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.err("invalid number: digits expected in the exponent");
            }
            float = true;
            exponent = true;
        }
        let text = self.src.get(start..self.pos).unwrap_or("");
        // Like serde_json, a number beyond the f64 range is an error. Only an exponent or
        // more than 308 integer digits can get there, so other numbers skip the f64 parse.
        if (exponent || int_end - int_start > 308) && !text.parse::<f64>().is_ok_and(f64::is_finite)
        {
            self.pos = start;
            return self.err("number out of range");
        }
        if float {
            return Ok(Scalar::Float(text));
        }
        // Accumulate negatively so i64::MIN fits.
        let mut v: i64 = 0;
        for &d in self.b.get(int_start..int_end).unwrap_or(&[]) {
            match v
                .checked_mul(10)
                .and_then(|x| x.checked_sub(i64::from(d - b'0')))
            {
                Some(x) => v = x,
                None => return Ok(Scalar::BigInt(text)),
            }
        }
        if neg {
            Ok(Scalar::Int(v))
        } else {
            match v.checked_neg() {
                Some(x) => Ok(Scalar::Int(x)),
                None => Ok(Scalar::BigInt(text)),
            }
        }
    }

    /// Reads a string token (at `"`), validating escapes.
    #[inline]
    pub fn string(&mut self) -> SResult<RawStr<'a>> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let mut escaped = false;
        loop {
            // Fast path: run to the next quote, backslash or control character.
            while let Some(&c) = self.b.get(self.pos) {
                if STOP[c as usize] {
                    break;
                }
                self.pos += 1;
            }
            match self.peek() {
                Some(b'"') => {
                    let raw = self.src.get(start..self.pos).unwrap_or("");
                    self.pos += 1;
                    return Ok(RawStr { raw, escaped });
                }
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    self.escape()?;
                }
                Some(_) => return self.err("control character in a string"),
                None => return self.err("unterminated string"),
            }
        }
    }

    fn escape(&mut self) -> SResult<()> {
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'u') => {
                self.pos += 1;
                let hi = self.hex4()?;
                if (0xDC00..0xE000).contains(&hi) {
                    return self.err("lone trailing surrogate in a \\u escape");
                }
                if (0xD800..0xDC00).contains(&hi) {
                    if self.b.get(self.pos..self.pos + 2) != Some(b"\\u") {
                        return self.err("lone leading surrogate in a \\u escape");
                    }
                    self.pos += 2;
                    let lo = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return self.err("invalid low surrogate in a \\u escape");
                    }
                }
                Ok(())
            }
            _ => self.err("invalid escape"),
        }
    }

    fn hex4(&mut self) -> SResult<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return self.err("invalid \\u escape"),
            };
            v = v * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// Skips one whole value of any shape, iteratively.
    pub fn skip(&mut self) -> SResult<()> {
        // Bit i of `stack` is 1 when container i (from the bottom) is an object.
        let mut stack: u128 = 0;
        let mut n: u32 = 0;
        loop {
            // A value is expected here.
            match self.start()? {
                Start::Object => {
                    self.obj_begin()?;
                    if n >= 128 {
                        return self.err("nesting deeper than 127 levels");
                    }
                    stack |= 1u128 << n;
                    n += 1;
                    if self.obj_key(true)?.is_some() {
                        continue;
                    }
                    n -= 1;
                    stack &= !(1u128 << n);
                }
                Start::Array => {
                    self.arr_begin()?;
                    if n >= 128 {
                        return self.err("nesting deeper than 127 levels");
                    }
                    stack &= !(1u128 << n);
                    n += 1;
                    if self.arr_next(true)? {
                        continue;
                    }
                    n -= 1;
                }
                Start::Scalar => {
                    self.scalar()?;
                }
            }
            // A value ended: continue or close the enclosing containers.
            loop {
                if n == 0 {
                    return Ok(());
                }
                let is_obj = stack & (1u128 << (n - 1)) != 0;
                let more = if is_obj {
                    self.obj_key(false)?.is_some()
                } else {
                    self.arr_next(false)?
                };
                if more {
                    break;
                }
                n -= 1;
                stack &= !(1u128 << n);
            }
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(src.len());
    while !src.is_char_boundary(off) {
        off -= 1;
    }
    let before = &src[..off];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(s: &str) -> SResult<()> {
        let mut sc = Scanner::new(s);
        sc.skip()?;
        sc.end()
    }

    #[test]
    fn grammar_agrees_with_serde() {
        let cases = [
            "1",
            "-0",
            "01",
            "1.",
            "1.5e",
            "1e+5",
            "-",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud83d\\ude00\"",
            "\"a\tb\"",
            "[true,false,null]",
            "tru",
            "nul",
            "[",
            "]",
            "{}",
            "[[]]",
            "{\"a\":{\"b\":[1,{\"c\":\"d\"}]}}",
            "  [1]  ",
            "[1] x",
            "\u{feff}[]",
            "",
            "\"\\u00e9\"",
            "-1.5E-3",
            "[1 2]",
            "1e400",
            "-1e309",
            "1e-999",
            "1E308",
        ];
        for c in cases {
            let ours = skip_all(c).is_ok();
            let serde = serde_json::from_str::<serde_json::Value>(c).is_ok();
            assert_eq!(ours, serde, "{c:?}");
        }
    }

    #[test]
    fn depth_limit_and_numbers() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(skip_all(&deep).is_err());
        let ok = "[".repeat(127) + &"]".repeat(127);
        assert!(skip_all(&ok).is_ok());
        let over = "[".repeat(128) + &"]".repeat(128);
        assert!(skip_all(&over).is_err());
        assert!(serde_json::from_str::<serde_json::Value>(&over).is_err());
        assert!(skip_all("[1e400]").is_err());
        assert!(skip_all("[1e-400, 1.7e308]").is_ok());
        assert!(skip_all(&"9".repeat(400)).is_err());
        let mut sc = Scanner::new("-9223372036854775808");
        assert_eq!(sc.scalar().unwrap(), Scalar::Int(i64::MIN));
        let mut sc = Scanner::new("9223372036854775808");
        assert!(matches!(sc.scalar().unwrap(), Scalar::BigInt(_)));
        let mut sc = Scanner::new("\"a\\n\\ud83d\\ude00\"");
        assert_eq!(sc.scalar().unwrap().as_str().unwrap().text(), "a\n😀");
        assert_eq!(line_col("ab\ncé", 6), (2, 3));
    }
}
