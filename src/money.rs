//! Exact money: US dollars as integer micro-dollars.
//!
//! Every price in the service's table is a whole number of micro-dollars (the smallest is
//! $0.0003 = 300 µ$), so sums of any number of charges are exact: no float drift.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Sub};
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// An amount of US dollars, stored exactly as micro-dollars (1 USD = 1,000,000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Usd(i64);

impl Usd {
    /// Zero dollars.
    pub const ZERO: Usd = Usd(0);

    /// An amount from micro-dollars.
    pub const fn from_micros(micros: i64) -> Usd {
        Usd(micros)
    }

    /// The amount in micro-dollars.
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// The amount as a float, for display and charts only (never for sums).
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 1_000_000.0
    }

    /// The amount as a plain decimal: the [`Display`](fmt::Display) form without the `$`
    /// (`0.0300`, `-1.234567`). Exact, and a valid JSON number.
    pub fn decimal(self) -> String {
        self.to_string().replacen('$', "", 1)
    }

    /// The amount as prose writes a price: two decimals when they are exact (`$0.05`,
    /// `$0.10`, `$1.00`), the [`Display`](fmt::Display) form otherwise (`$0.0003`).
    pub fn short_text(self) -> String {
        let mut text = self.to_string();
        if self.0 % 10_000 == 0 {
            // Display wrote four decimals, the last two zeros.
            text.truncate(text.len() - 2);
        }
        text
    }

    /// `self - other`, or zero when `other` is larger.
    pub fn saturating_sub(self, other: Usd) -> Usd {
        Usd(self.0.saturating_sub(other.0).max(0))
    }

    /// `self * n`, saturating instead of overflowing.
    pub fn times(self, n: u64) -> Usd {
        Usd(self.0.saturating_mul(i64::try_from(n).unwrap_or(i64::MAX)))
    }
}

impl Add for Usd {
    type Output = Usd;
    fn add(self, rhs: Usd) -> Usd {
        Usd(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Usd {
    fn add_assign(&mut self, rhs: Usd) {
        *self = *self + rhs;
    }
}

impl Sub for Usd {
    type Output = Usd;
    fn sub(self, rhs: Usd) -> Usd {
        Usd(self.0.saturating_sub(rhs.0))
    }
}

impl Mul<u64> for Usd {
    type Output = Usd;
    fn mul(self, rhs: u64) -> Usd {
        self.times(rhs)
    }
}

impl Sum for Usd {
    fn sum<I: Iterator<Item = Usd>>(iter: I) -> Usd {
        iter.fold(Usd::ZERO, Add::add)
    }
}

/// Four decimals (`$0.0300`) whenever that is exact, as it is for every price and sum of
/// prices of the service; six otherwise.
impl fmt::Display for Usd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (whole, frac) = (abs / 1_000_000, abs % 1_000_000);
        if frac % 100 == 0 {
            write!(f, "{sign}${whole}.{:04}", frac / 100)
        } else {
            write!(f, "{sign}${whole}.{frac:06}")
        }
    }
}

/// Why a dollar amount did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUsdError(pub String);

impl fmt::Display for ParseUsdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a dollar amount: {}", self.0)
    }
}

impl std::error::Error for ParseUsdError {}

/// Parses `12`, `0.03`, `$1.50` (at most six decimals, not negative).
impl FromStr for Usd {
    type Err = ParseUsdError;
    fn from_str(s: &str) -> Result<Usd, ParseUsdError> {
        let err = || ParseUsdError(s.chars().take(40).collect());
        let t = s.trim();
        let t = t.strip_prefix('$').unwrap_or(t);
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        if (whole.is_empty() && frac.is_empty())
            || frac.len() > 6
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err());
        }
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| err())?
        };
        let mut micros: i64 = 0;
        for (i, b) in frac.bytes().enumerate() {
            micros += i64::from(b - b'0') * 10_i64.pow(5 - i as u32);
        }
        whole
            .checked_mul(1_000_000)
            .and_then(|w| w.checked_add(micros))
            .map(Usd)
            .ok_or_else(err)
    }
}

/// Serialized as a decimal string (`"0.0300"`), so no reader turns it into a float by accident.
impl Serialize for Usd {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.decimal())
    }
}

/// Accepts a decimal string or a JSON number of dollars.
impl<'de> Deserialize<'de> for Usd {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Usd, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Usd;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a dollar amount")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Usd, E> {
                v.parse().map_err(E::custom)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Usd, E> {
                i64::try_from(v)
                    .ok()
                    .and_then(|v| v.checked_mul(1_000_000))
                    .map(Usd)
                    .ok_or_else(|| E::custom("dollar amount too large"))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Usd, E> {
                if v < 0 {
                    return Err(E::custom("negative dollar amount"));
                }
                self.visit_u64(v as u64)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Usd, E> {
                if !(0.0..9.0e12).contains(&v) {
                    return Err(E::custom("dollar amount out of range"));
                }
                Ok(Usd((v * 1_000_000.0).round() as i64))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse() {
        assert_eq!(Usd::from_micros(30_000).to_string(), "$0.0300");
        assert_eq!(Usd::from_micros(1_234_567).to_string(), "$1.234567");
        assert_eq!(Usd::from_micros(1_234_567).decimal(), "1.234567");
        assert_eq!(Usd::from_micros(-30_000).decimal(), "-0.0300");
        assert_eq!(Usd::from_micros(50_000).short_text(), "$0.05");
        assert_eq!(Usd::from_micros(100_000).short_text(), "$0.10");
        assert_eq!(Usd::from_micros(2_000_000).short_text(), "$2.00");
        assert_eq!(Usd::from_micros(-250_000).short_text(), "-$0.25");
        assert_eq!(Usd::from_micros(300).short_text(), "$0.0003");
        assert_eq!(Usd::from_micros(1_234_567).short_text(), "$1.234567");
        assert_eq!("0.0003".parse::<Usd>().unwrap(), Usd::from_micros(300));
        assert_eq!("$2".parse::<Usd>().unwrap(), Usd::from_micros(2_000_000));
        assert_eq!(".5".parse::<Usd>().unwrap(), Usd::from_micros(500_000));
        for bad in ["", "-1", "1.2345678", "abc", "1e3", "$", "."] {
            assert!(bad.parse::<Usd>().is_err(), "{bad}");
        }
    }

    #[test]
    fn sums_are_exact() {
        let total: Usd = std::iter::repeat_n(Usd::from_micros(300), 10_000).sum();
        assert_eq!(total.to_string(), "$3.0000");
    }

    #[test]
    fn serde() {
        let v = serde_json::to_string(&Usd::from_micros(30_000)).unwrap();
        assert_eq!(v, "\"0.0300\"");
        assert_eq!(serde_json::from_str::<Usd>(&v).unwrap().micros(), 30_000);
        assert_eq!(
            serde_json::from_str::<Usd>("0.05").unwrap().micros(),
            50_000
        );
        assert!(serde_json::from_str::<Usd>("-1").is_err());
    }
}
