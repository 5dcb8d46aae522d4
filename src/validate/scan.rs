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
            Scalar::BigInt(s) | Scalar::Float(s) => json_f64(s),
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

/// A number read by [`Scanner::decimal`]: `[-]I[.F]`, `I` of at most 15 digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decimal<'a> {
    /// The integer part `I`.
    pub int: u64,
    /// A leading `-`.
    pub neg: bool,
    /// The number: [`Scalar::Int`] without a fraction, else [`Scalar::Float`].
    pub value: Scalar<'a>,
}

impl Decimal<'_> {
    /// True when the number certainly lies within `min..=max` once parsed as `f64` (false:
    /// parse it and see). An integer is exact. A fraction `[-]I.F` lies in `[I, I + 1]` (or
    /// `[-(I + 1), -I]`) once parsed: correct rounding is monotonic and both bounds are
    /// exact `f64`s (`I` < 2^53).
    #[inline(always)]
    pub fn surely_within(&self, min: f64, max: f64) -> bool {
        let int = self.int as f64;
        match self.value {
            Scalar::Int(i) => min <= i as f64 && i as f64 <= max,
            _ if self.neg => min <= -(int + 1.0) && -int <= max,
            _ => min <= int && int + 1.0 <= max,
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

// Byte classes for the string slow path: true = stop (quote, backslash, control character).
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

/// `0x01` in every byte of a word.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte of a word.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// SWAR ("SIMD within a register") test of 8 string bytes, loaded little-endian: the high
/// bit of byte `i` of the result is set when byte `i` is a stop byte (`"`, `\` or below
/// 0x20); in bytes above the first stop byte the result may hold false positives (borrows),
/// so only its lowest set bit is meaningful. Each test is the classic "has a zero byte"
/// (`(x - 0x01..) & !x & 0x80..`) or "has a byte below n" (`(x - n..) & !x & 0x80..`, valid
/// for n <= 0x80): a borrow only propagates upwards from a byte that is itself a hit.
#[inline(always)]
fn stop_bits(w: u64) -> u64 {
    // `"` and `\` are below 0x80, so a byte's high bit is the same in `w` and in the XORs:
    // one `!w` masks all three tests.
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let control = w.wrapping_sub(ONES * 0x20);
    (quote | backslash | control) & !w & HIGHS
}

/// The 8 bytes of `b` at `i`, as a little-endian word (`None` near the end).
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> Option<u64> {
    b.get(i..)
        .and_then(|t| t.first_chunk::<8>())
        .map(|c| u64::from_le_bytes(*c))
}

/// True when `text` starts with `name`: a word at a time (the last word overlapping the
/// previous one), which beats a general `memcmp` for short keys, notably in WebAssembly.
#[inline(always)]
fn same_bytes(text: &[u8], name: &[u8]) -> bool {
    let n = name.len();
    let Some(t) = text.get(..n) else {
        return false;
    };
    if n >= 8 {
        let mut i = 0;
        while i + 8 <= n {
            if word_at(t, i) != word_at(name, i) {
                return false;
            }
            i += 8;
        }
        word_at(t, n - 8) == word_at(name, n - 8)
    } else if n >= 4 {
        half_at(t, 0) == half_at(name, 0) && half_at(t, n - 4) == half_at(name, n - 4)
    } else {
        let mut i = 0;
        while i < n {
            if t.get(i) != name.get(i) {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// The 4 bytes of `b` at `i`, as a little-endian word (`None` near the end).
#[inline(always)]
fn half_at(b: &[u8], i: usize) -> Option<u32> {
    b.get(i..)
        .and_then(|t| t.first_chunk::<4>())
        .map(|c| u32::from_le_bytes(*c))
}

/// True when `name` can be matched byte for byte against a raw key: it holds no byte that
/// would end or escape a JSON string (quote, backslash, control character).
pub(crate) const fn plain_key(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] < 0x20 || b[i] == b'"' || b[i] == b'\\' {
            return false;
        }
        i += 1;
    }
    true
}

/// What [`Scanner::obj_key_or`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key<'a> {
    /// The end of the object (`}` consumed).
    End,
    /// Exactly the expected key (its `:` consumed).
    Expected,
    /// Another key (its `:` consumed).
    Other(RawStr<'a>),
}

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

    /// Skips white space.
    #[inline(always)]
    pub fn ws(&mut self) {
        // Fast path: every byte that can start a token is above the space character, and
        // compact JSON has no white space between tokens.
        if let Some(&c) = self.b.get(self.pos) {
            if c <= b' ' {
                self.ws_run();
            }
        }
    }

    fn ws_run(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b' ' || c == b'\n' || c == b'\r' || c == b'\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline(always)]
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
    #[inline(always)]
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

    /// Before a member of an object: consumes `}` (false), or the `,` before a member and
    /// the white space after it (true; a `"` is then next unless the text is broken).
    #[inline(always)]
    fn member(&mut self, first: bool) -> SResult<bool> {
        self.ws();
        match self.peek() {
            Some(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos += 1;
                self.ws();
                Ok(true)
            }
            Some(b'"') if first => Ok(true),
            _ => self.err(if first {
                "expected a key or `}`"
            } else {
                "expected `,` or `}`"
            }),
        }
    }

    /// Consumes the `:` after a key (and white space before it).
    #[inline(always)]
    fn colon(&mut self) -> SResult<()> {
        self.ws();
        if self.peek() != Some(b':') {
            return self.err("expected `:`");
        }
        self.pos += 1;
        Ok(())
    }

    /// The next key of an object (and its `:`), or `None` at `}`.
    #[inline]
    pub fn obj_key(&mut self, first: bool) -> SResult<Option<RawStr<'a>>> {
        if !self.member(first)? {
            return Ok(None);
        }
        if self.peek() != Some(b'"') {
            return self.err("expected a string key");
        }
        let k = self.string()?;
        self.colon()?;
        Ok(Some(k))
    }

    /// Like [`Self::obj_key`], but first tries the key `expected` (a [`plain_key`]) byte for
    /// byte, which is cheaper than scanning the key and comparing it afterwards. The result
    /// and the errors are those of [`Self::obj_key`].
    #[inline(always)]
    pub fn obj_key_or(&mut self, first: bool, expected: Option<&str>) -> SResult<Key<'a>> {
        if !self.member(first)? {
            return Ok(Key::End);
        }
        if self.peek() != Some(b'"') {
            return self.err("expected a string key");
        }
        if let Some(name) = expected {
            if self.key_is(name) {
                self.colon()?;
                return Ok(Key::Expected);
            }
        }
        let k = self.string()?;
        self.colon()?;
        Ok(Key::Other(k))
    }

    /// The common case of [`Self::obj_key_or`], for compact text: exactly `,"name":` next
    /// (`"name":` for the first member), with `name` a [`plain_key`]. Consumes it and returns
    /// true; otherwise consumes nothing and returns false (the caller then takes the general
    /// path, which reaches the same result for this text).
    #[inline(always)]
    pub fn expected_member(&mut self, first: bool, name: &str) -> bool {
        let n = name.len();
        let comma = usize::from(!first);
        // `,` (unless first), `"`, the name, `"`, `:`.
        let len = comma + n + 3;
        let Some(t) = self.b.get(self.pos..).and_then(|t| t.get(..len)) else {
            return false;
        };
        let ok = (first || t.first() == Some(&b','))
            && t.get(comma) == Some(&b'"')
            && t.get(len - 2) == Some(&b'"')
            && t.get(len - 1) == Some(&b':')
            && same_bytes(t.get(comma + 1..).unwrap_or(&[]), name.as_bytes());
        if ok {
            self.pos += len;
        }
        ok
    }

    /// At a `"`: when the string token there is exactly `name` (a [`plain_key`], so its
    /// bytes are the token's raw text), consumes the token and returns true.
    #[inline(always)]
    fn key_is(&mut self, name: &str) -> bool {
        let n = name.as_bytes();
        let start = self.pos + 1;
        let Some(rest) = self.b.get(start..) else {
            return false;
        };
        if rest.get(n.len()) != Some(&b'"') || !same_bytes(rest, n) {
            return false;
        }
        self.pos = start + n.len() + 1;
        true
    }

    /// True when another element follows in an array; false at `]` (consumed).
    #[inline(always)]
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

    /// The next byte (after white space was skipped), if any.
    #[inline(always)]
    pub fn next_byte(&self) -> Option<u8> {
        self.peek()
    }

    /// Reads a scalar value (after [`Self::start`] said Scalar).
    #[inline]
    pub fn scalar(&mut self) -> SResult<Scalar<'a>> {
        match self.peek() {
            Some(b'"') => self.string().map(Scalar::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal(b"true", Scalar::Bool(true)),
            Some(b'f') => self.literal(b"false", Scalar::Bool(false)),
            Some(b'n') => self.literal(b"null", Scalar::Null),
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

    /// Skips ASCII digits; returns how many.
    #[inline(always)]
    fn digits(&mut self) -> usize {
        let s = self.pos;
        let mut i = s;
        while let Some(c) = self.b.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            i += 1;
        }
        self.pos = i;
        i - s
    }

    /// The common integer, read inline: at most 18 digits, no sign, no leading zero, no
    /// fraction or exponent. Consumes it and returns its value; otherwise consumes nothing
    /// and returns `None` (then [`Self::number`] reads whatever is there).
    #[inline(always)]
    pub fn small_uint(&mut self) -> Option<i64> {
        let b = self.b;
        let start = self.pos;
        let (i, v) = digit_run(b, start);
        let n = i - start;
        let leading_zero = n > 1 && b.get(start) == Some(&b'0');
        if n == 0 || n > 18 || leading_zero || matches!(b.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        // Below 10^18 < 2^63: exact.
        Some(v as i64)
    }

    /// The common number, read inline: `[-]I[.F]` with no exponent and an integer part `I`
    /// of at most 15 digits (no leading zero). Consumes it; otherwise consumes nothing and
    /// returns `None` (then [`Self::number`] reads whatever is there).
    #[inline(always)]
    pub fn decimal(&mut self) -> Option<Decimal<'a>> {
        let b = self.b;
        let start = self.pos;
        let neg = b.get(start) == Some(&b'-');
        let int_start = start + usize::from(neg);
        let (mut i, int) = digit_run(b, int_start);
        let n = i - int_start;
        if n == 0 || n > 15 || (n > 1 && b.get(int_start) == Some(&b'0')) {
            return None;
        }
        let frac = b.get(i) == Some(&b'.');
        if frac {
            i += 1;
            let f = i;
            while let Some(c) = b.get(i) {
                if !c.is_ascii_digit() {
                    break;
                }
                i += 1;
            }
            if i == f {
                return None;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        let text = self.src.get(start..i).unwrap_or("");
        Some(Decimal {
            int,
            neg,
            value: if frac {
                Scalar::Float(text)
            } else {
                // At most 15 digits: exact, and so is its negation.
                let v = int as i64;
                Scalar::Int(if neg { -v } else { v })
            },
        })
    }

    /// Reads a number (at `-` or a digit).
    pub fn number(&mut self) -> SResult<Scalar<'a>> {
        let b = self.b;
        let start = self.pos;
        let neg = self.peek() == Some(b'-');
        if neg {
            self.pos += 1;
        }
        let int_start = self.pos;
        // The integer part, accumulated as it is read (wrapping: only used below when it
        // has at most 18 digits, which cannot overflow).
        let mut v: u64 = 0;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => (self.pos, v) = digit_run(b, self.pos),
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
        if !exponent && int_end - int_start <= 18 {
            if float {
                return Ok(Scalar::Float(self.src.get(start..self.pos).unwrap_or("")));
            }
            // Below 10^18 < 2^63: exact, and so is its negation.
            let v = v as i64;
            return Ok(Scalar::Int(if neg { -v } else { v }));
        }
        let text = self.src.get(start..self.pos).unwrap_or("");
        // Like serde_json, a number beyond the f64 range is an error. Only an exponent or
        // more than 308 integer digits can get there, so other numbers skip the f64 parse.
        if (exponent || int_end - int_start > 308) && json_f64(text).is_none() {
            self.pos = start;
            return self.err("number out of range");
        }
        if float {
            return Ok(Scalar::Float(text));
        }
        // Longer: accumulate negatively (so i64::MIN fits), checking for overflow.
        let mut v: i64 = 0;
        for &d in b.get(int_start..int_end).unwrap_or(&[]) {
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

    /// The position of the first stop byte (quote, backslash, control character) at or
    /// after `i`, or the end of the text: 8 bytes at a time, then byte by byte.
    #[inline(always)]
    fn stop_from(&self, i: usize) -> usize {
        let rest = self.b.get(i..).unwrap_or(&[]);
        let mut at = i;
        // 16 bytes per step (one branch for two words), then 8, then byte by byte. (The
        // chunks are always as long as asked, so `word_at` is always `Some`.)
        let mut pairs = rest.chunks_exact(16);
        for c in &mut pairs {
            let lo = stop_bits(word_at(c, 0).unwrap_or(0));
            let hi = stop_bits(word_at(c, 8).unwrap_or(0));
            if lo | hi != 0 {
                return at
                    + if lo != 0 {
                        (lo.trailing_zeros() / 8) as usize
                    } else {
                        8 + (hi.trailing_zeros() / 8) as usize
                    };
            }
            at += 16;
        }
        let mut words = pairs.remainder().chunks_exact(8);
        for c in &mut words {
            let m = stop_bits(word_at(c, 0).unwrap_or(0));
            if m != 0 {
                return at + (m.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        for &c in words.remainder() {
            if STOP[c as usize] {
                break;
            }
            at += 1;
        }
        at
    }

    /// Reads a string token (at `"`), validating escapes.
    #[inline]
    pub fn string(&mut self) -> SResult<RawStr<'a>> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let mut escaped = false;
        loop {
            // Fast path: run to the next quote, backslash or control character.
            self.pos = self.stop_from(self.pos);
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

/// A JSON number's text as `f64`, by `serde_json`: the parser that decodes every JSON number
/// of a typed body, so the validator judges the value the decoder produces, and "beyond the
/// f64 range" is exactly `serde_json`'s error. `None` when the text is not a JSON number or is
/// out of range.
///
/// Decision: not `str::parse::<f64>`. Its correctly rounded parser and tables cost 13 KB of
/// the JS package's gzipped wasm (measured: 145.6 -> 132.3 KB without it); `serde_json`'s
/// is exact up to 15 significant digits and powers of ten up to 22, and may differ from it
/// in the last bit beyond that, which no range in the spec is sensitive to.
///
/// Through `serde_json::Number`'s `FromStr` (the same number parser as `from_str::<f64>`),
/// which, unlike a deserializer, reaches none of serde's `invalid type` messages and so
/// leaves core's float printing out of the JS package.
pub(crate) fn json_f64(text: &str) -> Option<f64> {
    text.parse::<serde_json::Number>().ok()?.as_f64()
}

/// Byte offset of the value a `serde_json` error (its 1-based `line` and byte `column`, and
/// its `message`) is about. Its column counts the bytes read on that line, so the last byte
/// it read is at `column - 1`, usually the end of the offending value. Two cases differ:
/// - after a `,` or `:` it read, the value is the next one (it was only peeked at);
/// - after a `[`, `{` or white space, it is the next value only when that is the array or
///   object the message rejects (`invalid type: sequence` / `map`: a typed field peeks at
///   the bracket without reading it). Otherwise the container just opened is the value (a
///   container that was read and then rejected as a whole: the offset stays inside it).
///
/// The one ambiguity left, an array read and rejected whose first element is an array,
/// points at that element. Clamped to the text; never panics.
pub(crate) fn offset_of(src: &str, line: usize, column: usize, message: &str) -> usize {
    let b = src.as_bytes();
    let off = last_read(src, line, column);
    let mut next = off + 1;
    while matches!(b.get(next), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        next += 1;
    }
    let peeked = match b.get(next) {
        Some(b'[') => message.starts_with("invalid type: sequence"),
        Some(b'{') => message.starts_with("invalid type: map"),
        _ => false,
    };
    let off = match b.get(off) {
        Some(b',' | b':') => next,
        Some(b'[' | b'{' | b' ' | b'\t' | b'\n' | b'\r') if peeked => next,
        _ => off,
    };
    off.min(b.len())
}

/// Byte offset of a 1-based `line` and byte `column` (clamped to the text).
fn last_read(src: &str, line: usize, column: usize) -> usize {
    let b = src.as_bytes();
    let mut start = 0;
    let mut newlines = 1;
    while newlines < line {
        match b[start..].iter().position(|&c| c == b'\n') {
            Some(i) => {
                start += i + 1;
                newlines += 1;
            }
            None => return b.len(),
        }
    }
    (start + column.saturating_sub(1)).min(b.len())
}

/// Appends `name` to a JSON Pointer as one reference token: `/`, then the name with `~`
/// written `~0` and `/` written `~1` (RFC 6901).
pub(crate) fn push_token(out: &mut String, name: &str) {
    out.push('/');
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// The JSON Pointer of the innermost value at byte `offset` of `src`: the value whose text
/// covers the offset (for a container, its brackets), or the member whose key covers it
/// (`/keywords/3`, `/name~1x`; empty for the whole text). `serde_json` reports where a
/// typed decode failed only as a position; this turns it back into a path without tracking
/// one during every decode (which `serde_path_to_error` did, at the cost of a second copy of
/// every `Deserialize` impl).
///
/// Any text is accepted: the walk is a tolerant tokenizer that stops at the offset, so
/// invalid JSON yields the path of what was read so far. The path stack lives on the heap
/// and grows with the nesting actually read, so hostile nesting cannot overflow anything.
pub(crate) fn pointer_at(src: &str, offset: usize) -> String {
    /// One open container: an array with the index of its current element, or an object
    /// with its current key (`None` before the first key) and whether the value of that
    /// key has begun (after the `:`).
    enum Frame<'a> {
        Arr(usize),
        Obj(Option<RawStr<'a>>, bool),
    }
    fn render(frames: &[Frame<'_>]) -> String {
        let mut out = String::new();
        for f in frames {
            match f {
                Frame::Arr(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
                Frame::Obj(Some(k), _) => push_token(&mut out, &k.text()),
                Frame::Obj(None, _) => {}
            }
        }
        out
    }
    let b = src.as_bytes();
    let offset = offset.min(b.len());
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut i = 0;
    while i < b.len() && i <= offset {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' => {
                let top = frames.last_mut();
                match (b[i], top) {
                    (b',', Some(Frame::Arr(n))) => *n += 1,
                    (b',', Some(Frame::Obj(k, v))) => {
                        *k = None;
                        *v = false;
                    }
                    (b':', Some(Frame::Obj(_, v))) => *v = true,
                    _ => {}
                }
                i += 1;
            }
            b'{' | b'[' => {
                if i == offset {
                    break;
                }
                frames.push(if b[i] == b'{' {
                    Frame::Obj(None, false)
                } else {
                    Frame::Arr(0)
                });
                i += 1;
            }
            b'}' | b']' => {
                // The closing bracket belongs to the container itself.
                frames.pop();
                if i == offset {
                    break;
                }
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        escaped = true;
                        j += 1;
                    }
                    j += 1;
                }
                let end = j.min(b.len());
                // Quotes and backslashes are ASCII, so both ends are char boundaries.
                let raw = src.get(start..end).unwrap_or("");
                if let Some(Frame::Obj(k, false)) = frames.last_mut() {
                    *k = Some(RawStr { raw, escaped });
                }
                if offset <= j {
                    break;
                }
                i = j + 1;
            }
            _ => {
                // A number, literal or stray byte: up to the next delimiter.
                let mut j = i;
                while j < b.len() && !b" \t\n\r,:{}[]\"".contains(&b[j]) {
                    j += 1;
                }
                if offset < j {
                    break;
                }
                i = j;
            }
        }
    }
    render(&frames)
}

/// The ASCII digits of `b` from `i`: the index after them and their value, accumulated with
/// wrapping arithmetic (exact up to 19 digits; callers bound the count they trust). The one
/// digit loop of the scanner's number fast paths.
#[inline(always)]
fn digit_run(b: &[u8], mut i: usize) -> (usize, u64) {
    let mut v: u64 = 0;
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    (i, v)
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
    fn pointer_at_names_the_value_at_an_offset() {
        let s = r#"{"a":{"b":[1,{"c":"d"}]},"x~/y":true, "e":[ ]}"#;
        let at = |needle: &str| pointer_at(s, s.find(needle).unwrap());
        assert_eq!(pointer_at(s, 0), "");
        assert_eq!(at(r#"{"b""#), "/a");
        assert_eq!(at(r#""b""#), "/a/b");
        assert_eq!(at("[1"), "/a/b");
        assert_eq!(at("1,"), "/a/b/0");
        assert_eq!(at(r#"{"c""#), "/a/b/1");
        assert_eq!(at(r#""d""#), "/a/b/1/c");
        assert_eq!(at("}]"), "/a/b/1");
        assert_eq!(at("]}"), "/a/b");
        assert_eq!(at("true"), "/x~0~1y");
        assert_eq!(at("[ ]"), "/e");
        assert_eq!(at(" ]"), "/e/0");
        assert_eq!(pointer_at(s, s.len() - 1), "");
        assert_eq!(pointer_at(s, usize::MAX), "");
        // Escaped keys are decoded.
        assert_eq!(pointer_at(r#"{"\u0041\"":[0,1]}"#, 14), "/A\"/1");
    }

    #[test]
    fn pointer_at_agrees_with_serde_positions() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct T {
            a: Vec<u8>,
            b: Option<Box<T>>,
            // Read with `deserialize_any`: a container is read, then rejected as a whole.
            n: Option<serde_json::Number>,
        }
        for (text, path) in [
            (r#"{"a":[1,2,"x"]}"#, "/a/2"),
            ("{\n \"a\": [1,\n 300]}", "/a/1"),
            (r#"{"a":[],"b":{"a":[1,{}]}}"#, "/b/a/1"),
            (r#"{"a":[],"b":{}}"#, "/b"),
            (r#"{"a":[],"zz":1}"#, "/zz"),
            (r#"{"a":{"q":1}}"#, "/a"),
            (r#"{"a":[[1]]}"#, "/a/0"),
            (r#"{"a":[1, {}]}"#, "/a/1"),
            ("{\"a\":\n  [1,\n  [ ]]}", "/a/1"),
            (r#"{"a":[],"b":[]}"#, "/b"),
            (r#"{"a": {}}"#, "/a"),
            (r#"{"a":[],"n":{"x":1}}"#, "/n"),
            (r#"{"a":[],"n": { "x" : 1 }}"#, "/n"),
            (r#"{"a":[],"n":[1]}"#, "/n"),
            (r#"{"a":[],"n":[]}"#, "/n"),
            (r#"{"a":[],"n":"1"}"#, "/n"),
            (r#"{"a":[],"b":{"a":[],"n":{}}}"#, "/b/n"),
            // The documented ambiguity: an array read and rejected, whose first element is
            // an array, points at that element.
            (r#"{"a":[],"n":[[1]]}"#, "/n/0"),
        ] {
            let e = serde_json::from_str::<T>(text).unwrap_err();
            let off = offset_of(text, e.line(), e.column(), &e.to_string());
            assert_eq!(pointer_at(text, off), path, "{text}: {e}");
        }
    }

    #[test]
    fn pointer_at_survives_hostile_text() {
        let deep = "[".repeat(100_000);
        assert_eq!(pointer_at(&deep, deep.len()).len(), 2 * 100_000);
        let cases = [
            "",
            "\"",
            "\"\\",
            "{\"",
            "{\"a",
            "{\"a\":",
            "}}}]]]",
            "{]",
            "[}",
            "\"é\\é\"",
            "{\"é\":\"\\\"",
            ",,,::",
            "{\"a\"\"b\":1}",
            "\u{feff}[1]",
            "[1 2 3]",
        ];
        for c in cases {
            for off in 0..=c.len() + 1 {
                let _ = pointer_at(c, off);
            }
        }
        for (line, col) in [(0, 0), (1, 0), (1, 1), (2, 5), (usize::MAX, usize::MAX)] {
            assert!(offset_of("a\nbc", line, col, "") <= 4);
        }
        assert_eq!(offset_of("a\nbc", 2, 2, ""), 3);
        assert_eq!(
            offset_of("[ \n {}]", 1, 1, "invalid type: map, expected"),
            4
        );
        assert_eq!(offset_of("[ \n {}]", 1, 1, "invalid type: sequence"), 0);
        assert_eq!(offset_of("[", 1, 1, "invalid type: map"), 0);
        assert_eq!(offset_of(",", 1, 1, ""), 1);
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

    #[test]
    fn word_scans_agree_with_bytewise() {
        // Every byte value at every position of strings of 0..=20 bytes, over a background
        // of plain, high (UTF-8) and mixed bytes.
        let naive_stop = |b: &[u8], i: usize| {
            i + b[i..]
                .iter()
                .position(|&c| c < 0x20 || c == b'"' || c == b'\\')
                .unwrap_or(b.len() - i)
        };
        for len in 0..=20usize {
            for fill in [b'a', 0xC3, 0x7F, 0x21, 0x5D, 0x80, 0xFF] {
                for pos in 0..len.max(1) {
                    for v in 0..=255u8 {
                        let mut b = vec![fill; len];
                        if let Some(x) = b.get_mut(pos) {
                            *x = v;
                        }
                        // The scanner works on `str`; these bytes need not be UTF-8, so go
                        // through the byte-level helpers directly.
                        let sc = Scanner {
                            src: "",
                            b: &b,
                            pos: 0,
                            depth: 0,
                        };
                        for start in [0, pos.min(len)] {
                            assert_eq!(
                                sc.stop_from(start),
                                naive_stop(&b, start),
                                "{b:?} @{start}"
                            );
                        }
                        for n in 0..=len {
                            let name = &b[..n];
                            assert!(same_bytes(&b, name));
                            let mut other = name.to_vec();
                            if let Some(x) = other.get_mut(pos.min(n.saturating_sub(1))) {
                                *x ^= 1;
                                assert!(!same_bytes(&b, &other), "{b:?} {other:?}");
                            }
                            let mut longer = b.clone();
                            longer.push(b'x');
                            assert!(!same_bytes(&b, &longer));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn expected_keys_match_exactly() {
        let cases = [
            ("{\"keyword\":1}", Some("keyword"), Key::Expected),
            (
                "{\"keyword2\":1}",
                Some("keyword"),
                Key::Other(RawStr {
                    raw: "keyword2",
                    escaped: false,
                }),
            ),
            (
                "{\"keywor\":1}",
                Some("keyword"),
                Key::Other(RawStr {
                    raw: "keywor",
                    escaped: false,
                }),
            ),
            (
                "{\"ke\\u0079word\":1}",
                Some("keyword"),
                Key::Other(RawStr {
                    raw: "ke\\u0079word",
                    escaped: true,
                }),
            ),
            ("{\"\":1}", Some(""), Key::Expected),
            (
                "{\"total_referring_domains\" :1}",
                Some("total_referring_domains"),
                Key::Expected,
            ),
            (
                "{\"total_referring_domainz\":1}",
                Some("total_referring_domains"),
                Key::Other(RawStr {
                    raw: "total_referring_domainz",
                    escaped: false,
                }),
            ),
            ("{}", Some("a"), Key::End),
        ];
        for (text, expected, want) in cases {
            let mut sc = Scanner::new(text);
            sc.obj_begin().unwrap();
            assert_eq!(sc.obj_key_or(true, expected).unwrap(), want, "{text}");
        }
        let mut sc = Scanner::new("{\"url\"");
        sc.obj_begin().unwrap();
        assert!(sc.obj_key_or(true, Some("url")).is_err());
        let mut sc = Scanner::new("{\"ur");
        sc.obj_begin().unwrap();
        assert!(sc.obj_key_or(true, Some("url")).is_err());
        assert!(plain_key("total_referring_domains") && !plain_key("a\"b") && !plain_key("a\\b"));
        assert!(!plain_key("a\nb"));
    }

    #[test]
    fn number_fast_paths_agree_with_number() {
        let cases = [
            "0",
            "-0",
            "01",
            "1",
            "-1",
            "1.",
            "1.5",
            "-12.5",
            "0.0",
            "100.00",
            "1e5",
            "1.5e3",
            "-",
            "-a",
            "123456789012345678",
            "1234567890123456789",
            "999999999999999.9",
            "1000000000000000.5",
            "12,",
            "7}",
            "3 ",
            "0.5]",
            "00",
            "-01.5",
            "9.99E1",
        ];
        for text in cases {
            let mut full = Scanner::new(text);
            let want = full.number().ok();
            let mut sc = Scanner::new(text);
            if let Some(i) = sc.small_uint() {
                assert_eq!(want, Some(Scalar::Int(i)), "{text}");
                assert_eq!(sc.pos, full.pos, "{text}");
            } else {
                assert_eq!(sc.pos, 0, "{text}");
            }
            let mut sc = Scanner::new(text);
            if let Some(d) = sc.decimal() {
                assert_eq!(want, Some(d.value), "{text}");
                assert_eq!(sc.pos, full.pos, "{text}");
                let f = d.value.as_f64().unwrap();
                for (min, max) in [(0.0, 100.0), (-20.0, 20.0), (1.0, 1.5), (-13.0, -12.0)] {
                    if d.surely_within(min, max) {
                        assert!((min..=max).contains(&f), "{text} {min} {max}");
                    }
                }
            } else {
                assert_eq!(sc.pos, 0, "{text}");
            }
        }
    }
}
