//! Tokens: what the reader hands out (string tokens, scalar values, the kind of the next
//! value, object keys).

use std::borrow::Cow;

use super::float::json_f64;

/// A string token: the raw text between the quotes (escapes not decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawStr<'a> {
    pub(super) raw: &'a str,
    pub(super) escaped: bool,
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
    /// True when the decoded text equals `text`, without allocating in the common case.
    pub fn eq_str(&self, text: &str) -> bool {
        if self.escaped {
            unescape(self.raw) == text
        } else {
            self.raw == text
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

/// The first byte of a value, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// `{`.
    Object,
    /// `[`.
    Array,
    /// Anything else (a scalar, or broken text the scalar reader rejects).
    Scalar,
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
