//! A calendar date of our own (proleptic Gregorian, UTC) with civil-from-days arithmetic, so
//! the library needs no clock: "today" is always passed in.

use std::fmt;
use std::str::FromStr;

use serpkit::ops::search_volume_bulk::MONTH_NAMES;

/// A calendar date (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year, e.g. 2024.
    pub year: i32,
    /// Month 1..=12.
    pub month: u8,
    /// Day of month 1..=31.
    pub day: u8,
}

impl Date {
    /// A date; `None` unless it exists in the calendar.
    pub fn new(year: i32, month: u8, day: u8) -> Option<Date> {
        let d = Date { year, month, day };
        ((1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)).then_some(d)
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    pub fn from_days(days: i64) -> Date {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// Days since 1970-01-01.
    pub fn to_days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let m = i64::from(self.month);
        let mp = if m > 2 { m - 3 } else { m + 9 };
        let doy = (153 * mp + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The UTC date of a Unix time in seconds.
    pub fn from_unix_seconds(secs: i64) -> Date {
        Date::from_days(secs.div_euclid(86_400))
    }

    /// Today's UTC date from the system clock (native only: the library on wasm32 has no
    /// clock; pass the date in).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn today_utc() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Date::from_unix_seconds(secs)
    }

    /// `n` days later (earlier when negative).
    pub fn add_days(self, n: i64) -> Date {
        Date::from_days(self.to_days() + n)
    }

    /// Months since year 0 (`year * 12 + month - 1`), for month arithmetic.
    pub fn month_index(self) -> i64 {
        i64::from(self.year) * 12 + i64::from(self.month) - 1
    }

    /// (year, month 1..=12) of a [`Date::month_index`].
    pub fn from_month_index(index: i64) -> (i32, u8) {
        (
            index.div_euclid(12) as i32,
            (index.rem_euclid(12) + 1) as u8,
        )
    }

    /// English full month name of this date's month.
    pub fn month_name(self) -> &'static str {
        MONTH_NAMES[usize::from(self.month - 1)]
    }

    /// ISO 8601 UTC timestamp with milliseconds on this date: `2024-03-05T14:07:09.123Z`.
    pub fn timestamp(self, seconds_of_day: u32, millis: u32) -> String {
        let s = seconds_of_day % 86_400;
        format!(
            "{self}T{:02}:{:02}:{:02}.{:03}Z",
            s / 3600,
            s / 60 % 60,
            s % 60,
            millis % 1000
        )
    }
}

/// Days in a month of a year.
pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

/// `YYYY-MM-DD`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// Parses `YYYY-MM-DD`.
impl FromStr for Date {
    type Err = String;
    fn from_str(s: &str) -> Result<Date, String> {
        let err = || format!("not a YYYY-MM-DD date: {s:?}");
        let mut it = s.trim().splitn(3, '-');
        let (y, m, d) = (it.next(), it.next(), it.next());
        let (Some(y), Some(m), Some(d)) = (y, m, d) else {
            return Err(err());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(err());
        }
        let y = y.parse().map_err(|_| err())?;
        let m = m.parse().map_err(|_| err())?;
        let d = d.parse().map_err(|_| err())?;
        Date::new(y, m, d).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_days(19_782).to_string(), "2024-02-29");
        for n in -800_000..800_000i64 {
            if n % 7 != 0 {
                continue;
            }
            let d = Date::from_days(n);
            assert_eq!(d.to_days(), n);
            assert!(Date::new(d.year, d.month, d.day).is_some());
        }
        let d: Date = "2024-03-01".parse().unwrap();
        assert_eq!(d.add_days(-1).to_string(), "2024-02-29");
        assert!("2023-02-29".parse::<Date>().is_err());
        assert_eq!(d.month_name(), "March");
        assert_eq!(
            d.timestamp(14 * 3600 + 7 * 60 + 9, 123),
            "2024-03-01T14:07:09.123Z"
        );
        assert_eq!(Date::from_month_index(d.month_index() - 3), (2023, 12));
    }
}
