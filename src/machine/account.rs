//! The account's pure rules: the budget cap as the user types it (failing closed), the period
//! a cap covers, and the totals of a period's journal entries.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::money::Usd;

use super::{Entry, EntryState, Ms};

/// The budget cap: `None` means no cap; `Some(Usd::ZERO)` means nothing may be spent (as in
/// the JS package's `budgetCap: 0`).
pub type Cap = Option<Usd>;

/// Why a typed cap is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CapError {
    /// A decimal comma ("1,50"): it could mean 1.50 or 150, so it is refused rather than
    /// guessed.
    DecimalComma,
    /// Anything else that is not an amount of dollars (at most 6 decimals, no sign).
    NotAnAmount,
}

impl fmt::Display for CapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CapError::DecimalComma => {
                "use a point for cents (1.50): a comma could mean thousands or cents"
            }
            CapError::NotAnAmount => "enter an amount in dollars, such as 5 or 0.50",
        })
    }
}

/// Reads a cap as typed: empty means no cap, `0` means nothing may be spent, anything that
/// is not an amount is an error (never read as "no cap": the cap fails closed).
pub fn parse_cap(text: &str) -> Result<Cap, CapError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.contains(',') {
        return Err(CapError::DecimalComma);
    }
    t.parse::<Usd>()
        .map(Some)
        .map_err(|_| CapError::NotAnAmount)
}

/// A stored cap text read back: what [`parse_cap`] refuses is read as `Some(Usd::ZERO)`
/// (stored by an older version or an imported file: spending stops until the user fixes it).
pub fn stored_cap(text: &str) -> Cap {
    parse_cap(text).unwrap_or(Some(Usd::ZERO))
}

/// The period a budget cap covers (stored by its [`Period::as_str`] name).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Period {
    /// The current UTC day.
    Day,
    /// The current UTC calendar month.
    #[default]
    Month,
    /// Everything since the user last reset the meter.
    UntilReset,
}

const DAY: Ms = 86_400_000;

impl Period {
    /// Every period, in the order Settings offers them.
    pub const ALL: [Period; 3] = [Period::Day, Period::Month, Period::UntilReset];

    /// Stable name (`day`, `month`, `until_reset`).
    pub fn as_str(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Month => "month",
            Period::UntilReset => "until_reset",
        }
    }

    /// The period named by [`Self::as_str`].
    pub fn from_name(name: &str) -> Option<Period> {
        Period::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// What the meter says ("today (UTC)", "this month (UTC)", "since the last reset").
    pub fn label(self) -> &'static str {
        match self {
            Period::Day => "today (UTC)",
            Period::Month => "this month (UTC)",
            Period::UntilReset => "since the last reset",
        }
    }

    /// When the period holding `now` began (ms since the epoch), given the last reset.
    ///
    /// Decided: a reset later than `now` (the clock was set back, or an imported settings
    /// file) is one this clock has not reached, so it is ignored and the period counts from
    /// its usual start: every entry in it counts (the cap fails closed). Starting at the
    /// reset would stop every entry from counting; starting at `now` would drop each settled
    /// entry as soon as time moved on. Both fail open.
    pub fn start(self, now: Ms, reset_at: Ms) -> Ms {
        let start = match self {
            Period::Day => now.div_euclid(DAY) * DAY,
            Period::Month => {
                let days = now.div_euclid(DAY);
                let (y, m, _) = civil_from_days(days);
                days_from_civil(y, m, 1) * DAY
            }
            Period::UntilReset => Ms::MIN,
        };
        if reset_at > now {
            start
        } else {
            start.max(reset_at)
        }
    }
}

/// (year, month 1-12, day 1-31) of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The day count since 1970-01-01 of a civil date (the inverse of [`civil_from_days`]).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The account of a period: spent, possibly charged and in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Confirmed charges.
    pub spent: Usd,
    /// Outcomes unknown (counted like spent money).
    pub possibly_charged: Usd,
    /// Estimates of requests written ahead and not settled.
    pub in_flight: Usd,
}

impl Totals {
    /// The sums over live `entries`: settled ones written since `since`, and every one still
    /// in flight whatever its time (it may be charged now).
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>, since: Ms) -> Totals {
        let mut t = Totals::default();
        for e in entries {
            t.add(e, since);
        }
        t
    }

    /// Adds one entry, as [`Totals::of`] counts it.
    pub fn add(&mut self, e: &Entry, since: Ms) {
        if e.live {
            self.count(e.state, e.at, (e.estimate, e.charge, e.possible), since);
        }
    }

    /// The one counting rule, for any host's stored entry: one in flight counts its estimate
    /// whatever its time (it may be charged now); a settled one counts what it was charged and
    /// may have been when it was written at or after `since`.
    pub fn count(
        &mut self,
        state: EntryState,
        at: Ms,
        (estimate, charge, possible): (Usd, Usd, Usd),
        since: Ms,
    ) {
        match state {
            EntryState::Sent => self.in_flight += estimate,
            _ if at >= since => {
                self.spent += charge;
                self.possibly_charged += possible;
            }
            _ => {}
        }
    }

    /// What a cap is checked against: spent, possibly charged and in flight.
    pub fn committed(self) -> Usd {
        self.spent + self.possibly_charged + self.in_flight
    }

    /// Whether a request of `estimate` fits under `cap`; `Err` with what is committed.
    /// Decided: one that brings the total exactly to the cap fits (committed + estimate ≤
    /// cap); one micro-dollar more does not.
    pub fn admits(self, estimate: Usd, cap: Cap) -> Result<(), Usd> {
        self.admits_below(estimate, cap, false)
    }

    /// [`Totals::admits`]; `strictly` (the mutation only) refuses what reaches the cap.
    pub(super) fn admits_below(self, estimate: Usd, cap: Cap, strictly: bool) -> Result<(), Usd> {
        let total = self.committed() + estimate;
        match cap {
            Some(cap) if total > cap || (strictly && total == cap) => Err(self.committed()),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_fail_closed() {
        assert_eq!(parse_cap(""), Ok(None));
        assert_eq!(parse_cap("  "), Ok(None));
        assert_eq!(parse_cap("0"), Ok(Some(Usd::ZERO)));
        assert_eq!(parse_cap("$0.20"), Ok(Some(Usd::from_micros(200_000))));
        assert_eq!(parse_cap("1,50"), Err(CapError::DecimalComma));
        assert_eq!(parse_cap("-1"), Err(CapError::NotAnAmount));
        assert_eq!(parse_cap("ten"), Err(CapError::NotAnAmount));
        assert_eq!(stored_cap("1,50"), Some(Usd::ZERO));
        assert_eq!(stored_cap(""), None);
        // Zero admits nothing; no cap admits anything.
        let t = Totals::default();
        assert!(t.admits(Usd::from_micros(1), Some(Usd::ZERO)).is_err());
        assert!(t.admits(Usd::from_micros(1), None).is_ok());
        // Exactly to the cap fits; a micro-dollar more does not.
        let t = Totals {
            spent: Usd::from_micros(600),
            possibly_charged: Usd::from_micros(300),
            in_flight: Usd::from_micros(100),
        };
        let cap = Some(Usd::from_micros(1_500));
        assert_eq!(t.admits(Usd::from_micros(500), cap), Ok(()));
        assert_eq!(
            t.admits(Usd::from_micros(501), cap),
            Err(Usd::from_micros(1_000))
        );
    }

    #[test]
    fn periods_start_at_utc_day_month_or_reset() {
        // 2026-11-25T18:34:56Z
        let now = 1_795_631_696_000;
        assert_eq!(Period::Day.start(now, 0), 1_795_564_800_000);
        assert_eq!(Period::Month.start(now, 0), 1_793_491_200_000);
        assert_eq!(Period::UntilReset.start(now, 123), 123);
        assert_eq!(
            Period::Month.start(now, 1_795_000_000_000),
            1_795_000_000_000
        );
        // 2024-03-01T12:00Z, March of a leap year.
        assert_eq!(Period::Month.start(1_709_294_400_000, 0), 1_709_251_200_000);
        // A reset in the future is ignored: the period counts from its usual start.
        assert_eq!(Period::UntilReset.start(now, now + 1_000), Ms::MIN);
        assert_eq!(Period::Day.start(now, now + 1_000), 1_795_564_800_000);
        for days in [-800_000, -1, 0, 59, 60, 365 * 30 + 7, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
