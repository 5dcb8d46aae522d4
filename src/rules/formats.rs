//! Text formats the spec names: calendar dates and ISO 8601 UTC timestamps.
//!
//! Decisions (the spec says only "ISO 8601 UTC timestamp" and "`YYYY-MM-DD`"):
//! - a timestamp is `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9 digits, then `Z`
//!   (the UTC designator). `+00:00` is also accepted as UTC; any other offset is not UTC and
//!   is an error. Lower-case `t`/`z`, a space instead of `T`, and a missing zone are errors.
//! - where the spec says "with milliseconds" (microblog `posted_on`) the fraction must be
//!   exactly three digits;
//! - dates and the date part of timestamps must be real calendar dates (no `2024-02-30`);
//!   hours 00-23, minutes 00-59, seconds 00-60 (a leap second is allowed).

/// English full month names, January first (the `month` field's values).
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn num(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0')))
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date; `None` when it is not one.
pub fn parse_date(text: &str) -> Option<i64> {
    let (y, m, d) = date_parts(text)?;
    Some(days_from_civil(y, m, d))
}

/// True for a number written as text, or the empty string: how domain stats send their values
/// ("numbers are sent as strings; unavailable values are empty strings").
///
/// Decided: the spec says only "numbers are sent as strings", not in which spelling, so any
/// way a service's number formatter writes a number is accepted: an optional sign (`+5`),
/// digits, an optional fraction and an optional exponent (`1.2E+7`, what a float formatter
/// writes for a large count). Refused: white space, a bare `.5` or `1.`, thousands
/// separators, `inf` and `NaN` (no number), and units (`12k`): a value a reader cannot take as
/// the number it means. `DomainStatsRecord`'s accessors parse every accepted spelling.
pub fn is_number_text(text: &str) -> bool {
    // One pass: `part` 0 is the whole part, 1 the fraction, 2 the exponent; `digits` of the
    // current part; a sign only first or right after the exponent's `e`.
    let (mut part, mut digits, mut sign_ok) = (0u8, 0u32, true);
    for &c in text.as_bytes() {
        match c {
            b'0'..=b'9' => (digits, sign_ok) = (digits + 1, false),
            b'+' | b'-' if sign_ok => sign_ok = false,
            b'.' if part == 0 && digits > 0 => (part, digits) = (1, 0),
            b'e' | b'E' if part < 2 && digits > 0 => (part, digits, sign_ok) = (2, 0, true),
            _ => return false,
        }
    }
    text.is_empty() || digits > 0
}

/// True for a `YYYY-MM-DD` calendar date (what [`parse_date`] accepts, without computing
/// the day number).
pub fn is_date(text: &str) -> bool {
    date_parts(text).is_some()
}

/// Year, month and day of a `YYYY-MM-DD` calendar date.
fn date_parts(s: &str) -> Option<(i64, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = i64::from(num(&b[0..4])?);
    let m = num(&b[5..7])?;
    let d = num(&b[8..10])?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some((y, m, d))
}

/// Days since 1970-01-01 (proleptic Gregorian), after H. Hinnant's algorithm.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// True for an ISO 8601 UTC timestamp as decided above.
pub fn is_utc_timestamp(text: &str, millis_required: bool) -> bool {
    let b = text.as_bytes();
    if b.len() < 20 || b[10] != b'T' {
        return false;
    }
    let date = match text.get(..10) {
        Some(d) => d,
        None => return false,
    };
    if !is_date(date) || b[13] != b':' || b[16] != b':' {
        return false;
    }
    let (Some(h), Some(mi), Some(se)) = (num(&b[11..13]), num(&b[14..16]), num(&b[17..19])) else {
        return false;
    };
    if h > 23 || mi > 59 || se > 60 {
        return false;
    }
    let mut rest = &b[19..];
    let mut frac = 0;
    if let Some((b'.', r)) = rest.split_first() {
        frac = r.iter().take_while(|c| c.is_ascii_digit()).count();
        if frac == 0 || frac > 9 {
            return false;
        }
        rest = &r[frac..];
    }
    if millis_required && frac != 3 {
        return false;
    }
    rest == b"Z" || rest == b"+00:00"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2024-03-01"), Some(19_783));
        assert_eq!(
            parse_date("2024-03-01").unwrap() - parse_date("2024-02-29").unwrap(),
            1
        );
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "2024/01/01",
            "24-01-01x",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_as_text() {
        for good in ["", "0", "-3", "+5", "12.5", "1.2E+7", "3e5", "-0.5e-3"] {
            assert!(is_number_text(good), "{good:?}");
        }
        for bad in [
            "12k", " 12", "12 ", "NaN", "inf", "1.", ".5", "--1", "+", "1e", "1e+", "1,234", "0x1F",
        ] {
            assert!(!is_number_text(bad), "{bad:?}");
        }
    }

    #[test]
    fn timestamps() {
        assert!(is_utc_timestamp("2024-03-01T12:34:56Z", false));
        assert!(is_utc_timestamp("2024-03-01T12:34:56.123Z", true));
        assert!(is_utc_timestamp("2024-03-01T12:34:56.123+00:00", true));
        assert!(!is_utc_timestamp("2024-03-01T12:34:56Z", true));
        assert!(!is_utc_timestamp("2024-03-01T12:34:56.12Z", true));
        assert!(!is_utc_timestamp("2024-03-01T12:34:56+02:00", false));
        assert!(!is_utc_timestamp("2024-03-01 12:34:56Z", false));
        assert!(!is_utc_timestamp("2024-03-01T24:00:00Z", false));
        assert!(!is_utc_timestamp("2024-03-01T12:34:56", false));
        assert!(!is_utc_timestamp("2024-03-01T12:34:56é", false));
    }
}
