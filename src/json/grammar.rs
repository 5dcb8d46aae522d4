//! The grammar (RFC 8259, as `serde_json` reads it): objects, keys, arrays, literals,
//! strings with their escapes, and skipping a whole value iteratively.

use super::token::{Key, RawStr, Scalar, Start};
use super::words::{same_bytes, stop_bits, word_at, STOP};
use super::{ScanResult, Scanner};

impl<'a> Scanner<'a> {
    /// Consumes `{` (after [`Self::start`] said Object).
    #[inline]
    pub fn obj_begin(&mut self) -> ScanResult<()> {
        self.enter()
    }

    /// Consumes `[` (after [`Self::start`] said Array).
    #[inline]
    pub fn arr_begin(&mut self) -> ScanResult<()> {
        self.enter()
    }

    /// Before a member of an object: consumes `}` (false), or the `,` before a member and
    /// the white space after it (true; a `"` is then next unless the text is broken).
    #[inline(always)]
    fn member(&mut self, first: bool) -> ScanResult<bool> {
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
    fn colon(&mut self) -> ScanResult<()> {
        self.ws();
        if self.peek() != Some(b':') {
            return self.err("expected `:`");
        }
        self.pos += 1;
        Ok(())
    }

    /// The next key of an object (and its `:`), or `None` at `}`.
    #[inline]
    pub fn obj_key(&mut self, first: bool) -> ScanResult<Option<RawStr<'a>>> {
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
    pub fn obj_key_or(&mut self, first: bool, expected: Option<&str>) -> ScanResult<Key<'a>> {
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
    pub fn arr_next(&mut self, first: bool) -> ScanResult<bool> {
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
    pub fn scalar(&mut self) -> ScanResult<Scalar<'a>> {
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

    /// Consumes the literal `lit` (`true`, `false`, `null`) and returns `v`.
    fn literal(&mut self, lit: &'static [u8], v: Scalar<'a>) -> ScanResult<Scalar<'a>> {
        if self.b.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            Ok(v)
        } else {
            self.err("invalid literal")
        }
    }

    /// The position of the first stop byte (quote, backslash, control character) at or
    /// after `i`, or the end of the text: 8 bytes at a time, then byte by byte.
    #[inline(always)]
    pub(super) fn stop_from(&self, i: usize) -> usize {
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
    pub fn string(&mut self) -> ScanResult<RawStr<'a>> {
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

    /// Validates one escape (after its backslash).
    fn escape(&mut self) -> ScanResult<()> {
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

    /// Reads the four hex digits of a `\u` escape.
    fn hex4(&mut self) -> ScanResult<u32> {
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
    pub fn skip(&mut self) -> ScanResult<()> {
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
