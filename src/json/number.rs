//! Numbers: the full grammar with integer/float classification, the inline fast paths of
//! the validator (small unsigned integers, short decimals) and `f64` conversion.

use super::float::json_f64;
use super::token::Scalar;
use super::words::digit_run;
use super::{ScanResult, Scanner};

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

impl<'a> Scanner<'a> {
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
    pub fn number(&mut self) -> ScanResult<Scalar<'a>> {
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
}
