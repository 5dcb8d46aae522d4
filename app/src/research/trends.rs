//! Trends and seasonality from a keyword's 12 monthly search values (no call: the monthly
//! searches of search volume records already bought).
//!
//! Definitions (stated in the UI by [`CHANGE_RULE`], [`SEASON_RULE`] and the column titles):
//! - **12-month change** (year over year, as Semrush's and Google Ads' YoY): the latest month
//!   against the same month a year earlier, which needs 13 months; without them it is blank.
//!   Comparing month 12 with month 1 of a 12-month window instead reported the season as
//!   growth (a lawn mower from June to July: +600 %), and the "rising" filter returned the
//!   keywords entering their season.
//! - **3-month change**: the mean of the latest 3 months against the mean of the 3 before.
//! - **Peak month**: the month with the most searches.
//! - **Seasonal** (SEOmonitor's rule): *more than* half of the 12-month volume falls in at
//!   most 3 consecutive months (wrapping over the year end), and the peak month has at least
//!   [`MIN_SEASON_PEAK`] searches (below that, a few searches more or less would make a
//!   keyword seasonal). **The season** is the peak month and the months next to it, in a row,
//!   with at least half the peak's searches: a May–Sep plateau is one season with its August.
//!   Relative to the current month: "in season" (the month is in it), "approaching" (it
//!   starts within the next 2 months), else "out of season".
//!
//! Decided here (the definitions above leave these open):
//! - Months are placed by their `year` and `month` fields, never by array position; entries
//!   whose month name is not an English full month name are left out; a month given twice
//!   counts once (its first entry). The window is the 12 months ending at the latest month.
//! - A missing month in the window is unknown, not zero: a change needs each month it reads
//!   (`None` otherwise), the peak reads the months present, and seasonality needs all 12.
//! - Zero: a change against a zero month (or zero mean) is `None` (no finite change); a
//!   total of zero searches has no peak and no season ([`Season::NoData`]). Negative values
//!   (a broken record, decoded leniently) count as zero.

use serpkit::ops::search_volume_bulk::MonthlySearch;
use serpkit::rules::formats::MONTH_NAMES;

/// The change columns' definitions as shown in the UI and in reports.
pub const CHANGE_RULE: &str = "12-month change (year over year): the latest month against the \
     same month a year earlier; it needs 13 months and is blank without them (the 12 months of \
     one record cannot tell growth from the season). 3-month change: the mean of the latest 3 \
     months against the mean of the 3 before.";

/// The lowest peak month (searches) a seasonal keyword has.
pub const MIN_SEASON_PEAK: i64 = 100;

/// The season rule as shown in the UI and in reports.
pub const SEASON_RULE: &str = "Seasonal: more than half of the 12-month volume falls in at most \
     3 consecutive months (wrapping over the year end) and the peak month has at least 100 \
     searches. The season: the peak month and the months next to it with at least half its \
     searches. In season: this month is one of them; approaching: the season starts within 2 \
     months; otherwise out of season.";

/// A keyword's season relative to the current month.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Season {
    /// Not all 12 months known, or no searches at all.
    NoData,
    /// Searches spread over the year.
    NotSeasonal,
    /// The current month is in the season.
    InSeason,
    /// The season starts within the next 2 months.
    Approaching,
    /// Seasonal, neither in season nor approaching.
    OutOfSeason,
}

impl Season {
    /// The label shown and exported.
    pub fn label(self) -> &'static str {
        match self {
            Season::NoData => "",
            Season::NotSeasonal => "not seasonal",
            Season::InSeason => "in season",
            Season::Approaching => "approaching",
            Season::OutOfSeason => "out of season",
        }
    }
}

/// Which seasons the trend filter keeps (the explorer's `season=` URL value is its id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeasonFilter {
    /// Every row.
    #[default]
    Any,
    /// In season, approaching or out of season.
    Seasonal,
    /// Only [`Season::InSeason`].
    InSeason,
    /// Only [`Season::Approaching`].
    Approaching,
    /// Only [`Season::OutOfSeason`].
    OutOfSeason,
    /// Only [`Season::NotSeasonal`].
    NotSeasonal,
}

impl SeasonFilter {
    /// Every choice, in the order the picker lists them.
    pub const ALL: [SeasonFilter; 6] = [
        SeasonFilter::Any,
        SeasonFilter::Seasonal,
        SeasonFilter::InSeason,
        SeasonFilter::Approaching,
        SeasonFilter::OutOfSeason,
        SeasonFilter::NotSeasonal,
    ];

    /// Its id in URLs and option values (`""` for any).
    pub fn id(self) -> &'static str {
        match self {
            SeasonFilter::Any => "",
            SeasonFilter::Seasonal => "seasonal",
            SeasonFilter::InSeason => "in",
            SeasonFilter::Approaching => "approaching",
            SeasonFilter::OutOfSeason => "out",
            SeasonFilter::NotSeasonal => "not",
        }
    }

    /// The choice an id names; anything else is [`SeasonFilter::Any`].
    pub fn from_id(id: &str) -> SeasonFilter {
        SeasonFilter::ALL
            .into_iter()
            .find(|f| f.id() == id.trim())
            .unwrap_or_default()
    }

    /// Its label in the picker.
    pub fn label(self) -> &'static str {
        match self {
            SeasonFilter::Any => "any",
            SeasonFilter::Seasonal => "seasonal (any time)",
            SeasonFilter::InSeason => "in season",
            SeasonFilter::Approaching => "approaching",
            SeasonFilter::OutOfSeason => "out of season",
            SeasonFilter::NotSeasonal => "not seasonal",
        }
    }

    /// True when a keyword of this season passes (no data passes only "any").
    pub fn keeps(self, season: Season) -> bool {
        match self {
            SeasonFilter::Any => true,
            SeasonFilter::Seasonal => matches!(
                season,
                Season::InSeason | Season::Approaching | Season::OutOfSeason
            ),
            SeasonFilter::InSeason => season == Season::InSeason,
            SeasonFilter::Approaching => season == Season::Approaching,
            SeasonFilter::OutOfSeason => season == Season::OutOfSeason,
            SeasonFilter::NotSeasonal => season == Season::NotSeasonal,
        }
    }
}

/// The filter on the trend columns (explorer and lists): a season choice and a range for each
/// change, as fractions (0.1 = +10 %), either end open. Decided: a set bound leaves out the
/// keywords whose change is unknown (a missing month, or a change against zero), since
/// nothing says they are in the range.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrendFilter {
    /// Which seasons pass.
    pub season: SeasonFilter,
    /// 12-month change from, to.
    pub change_12m: (Option<f64>, Option<f64>),
    /// 3-month change from, to.
    pub change_3m: (Option<f64>, Option<f64>),
}

impl TrendFilter {
    /// True when a keyword with this season and these changes passes.
    pub fn keeps(&self, season: Season, change_12m: Option<f64>, change_3m: Option<f64>) -> bool {
        fn within(v: Option<f64>, (lo, hi): (Option<f64>, Option<f64>)) -> bool {
            if lo.is_none() && hi.is_none() {
                return true;
            }
            v.is_some_and(|v| lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h))
        }
        self.season.keeps(season)
            && within(change_12m, self.change_12m)
            && within(change_3m, self.change_3m)
    }
}

/// A percentage typed in a filter field (`"25"`, `"-10 %"`) as a fraction; `None` when empty
/// or not a number (the bound is open).
pub fn percent_bound(text: &str) -> Option<f64> {
    text.trim()
        .trim_end_matches('%')
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| v / 100.0)
}

/// What the monthly values say.
#[derive(Clone, Debug, PartialEq)]
pub struct Trend {
    /// Latest month against the same month a year earlier, as a fraction (0.25 = +25 %);
    /// `None` without that 13th month.
    pub change_12m: Option<f64>,
    /// Mean of the latest 3 months against the 3 before, as a fraction.
    pub change_3m: Option<f64>,
    /// The month (1–12) with the most searches (the latest of equals).
    pub peak_month: Option<u8>,
    /// The season's months (1–12, in order), empty when not seasonal.
    pub season_months: Vec<u8>,
    /// The season relative to the current month.
    pub season: Season,
}

/// The month number (1–12) of an English full month name.
fn month_number(name: &str) -> Option<u8> {
    MONTH_NAMES
        .iter()
        .position(|m| *m == name)
        .map(|i| i as u8 + 1)
}

/// The 13 months ending at the latest month present, oldest first: `(month 1–12, value)`
/// (the first is the latest's month a year earlier; the 12-month window is the rest).
fn window(months: &[MonthlySearch]) -> Vec<(u8, Option<i64>)> {
    let placed: Vec<(i64, i64)> = months
        .iter()
        .filter_map(|m| {
            let n = month_number(&m.month)?;
            Some((m.year * 12 + i64::from(n) - 1, m.value.max(0)))
        })
        .collect();
    let Some(latest) = placed.iter().map(|(at, _)| *at).max() else {
        return Vec::new();
    };
    (latest - 12..=latest)
        .map(|at| {
            let value = placed.iter().find(|(a, _)| *a == at).map(|(_, v)| *v);
            ((at.rem_euclid(12) + 1) as u8, value)
        })
        .collect()
}

/// The 12-month window's values oldest first, placed by date (a missing month draws as 0):
/// what a sparkline shows, in the order the trend columns read, whatever the array's order.
pub fn by_date(months: &[MonthlySearch]) -> Vec<i64> {
    window(months)
        .iter()
        .skip(1)
        .map(|(_, v)| v.unwrap_or(0))
        .collect()
}

/// The months the 12-month window covers, `Apr 2024 – Mar 2025` (empty without months): what
/// a report says its monthly data covers.
pub fn window_text(months: &[MonthlySearch]) -> String {
    let latest = months
        .iter()
        .filter_map(|m| Some(m.year * 12 + i64::from(month_number(&m.month)?) - 1))
        .max();
    let name = |at: i64| {
        let month = (at.rem_euclid(12) + 1) as u8;
        format!("{} {}", month_short(Some(month)), at.div_euclid(12))
    };
    latest.map_or_else(String::new, |at| {
        format!("{} – {}", name(at - 11), name(at))
    })
}

/// `(new - old) / old`, `None` when `old` is zero.
fn change(new: f64, old: f64) -> Option<f64> {
    (old > 0.0).then(|| (new - old) / old)
}

/// The trend of the monthly values, with `current_month` (1–12) for the season label.
pub fn trend(months: &[MonthlySearch], current_month: u8) -> Trend {
    let thirteen = window(months);
    let year_ago = thirteen.first().and_then(|(_, v)| *v);
    let window = thirteen.get(1..).unwrap_or_default();
    let value = |i: usize| window.get(i).and_then(|(_, v)| *v).map(|v| v as f64);
    let change_12m = match (year_ago, value(11)) {
        (Some(before), Some(latest)) => change(latest, before as f64),
        _ => None,
    };
    let mean = |from: usize| -> Option<f64> {
        let sum: Option<f64> = (from..from + 3).map(value).sum();
        sum.map(|s| s / 3.0)
    };
    let change_3m = match (mean(9), mean(6)) {
        (Some(latest), Some(before)) => change(latest, before),
        _ => None,
    };
    let total: i64 = window.iter().filter_map(|(_, v)| *v).sum();
    let peak = window.iter().filter_map(|(_, v)| *v).max().unwrap_or(0);
    let peak_month = (total > 0)
        .then(|| {
            window
                .iter()
                .filter_map(|(m, v)| v.map(|v| (v, *m)))
                .enumerate()
                .max_by_key(|(i, (v, _))| (*v, *i))
                .map(|(_, (_, m))| m)
        })
        .flatten();
    let complete = window.len() == 12 && window.iter().all(|(_, v)| v.is_some());
    let (season_months, season) = if !complete || total == 0 {
        (Vec::new(), Season::NoData)
    } else {
        // By calendar month (1–12 → 0–11), so a season can wrap over the year end.
        let mut by_month = [0i64; 12];
        for (m, v) in window {
            by_month[usize::from(*m) - 1] = v.unwrap_or(0);
        }
        let peak_at = usize::from(peak_month.unwrap_or(1)) - 1;
        match season_of(&by_month, total, peak_at).filter(|_| peak >= MIN_SEASON_PEAK) {
            None => (Vec::new(), Season::NotSeasonal),
            Some((start, len)) => {
                let months: Vec<u8> = (0..len).map(|k| ((start + k) % 12) as u8 + 1).collect();
                let current = usize::from(current_month.clamp(1, 12)) - 1;
                let ahead = (start + 12 - current) % 12;
                let label = if months.contains(&(current as u8 + 1)) {
                    Season::InSeason
                } else if (1..=2).contains(&ahead) {
                    Season::Approaching
                } else {
                    Season::OutOfSeason
                };
                (months, label)
            }
        }
    };
    Trend {
        change_12m,
        change_3m,
        peak_month,
        season_months,
        season,
    }
}

/// The season of a year by calendar month (index 0–11) with its peak at `peak`: `(first
/// month index, length)`, or `None` when no 3 consecutive months (wrapping) hold more than
/// half of `total` (with no negative value, a shorter run never holds more than the 3 months
/// around it). The season runs from the peak both ways while a month has at least half the
/// peak's searches.
fn season_of(by_month: &[i64; 12], total: i64, peak: usize) -> Option<(usize, usize)> {
    let at = |i: usize| by_month[i % 12];
    (0..12).find(|&s| (at(s) + at(s + 1) + at(s + 2)) * 2 > total)?;
    let strong = |i: usize| at(i) * 2 >= by_month[peak];
    let (mut start, mut len) = (peak, 1);
    while len < 12 && strong(start + 11) {
        start = (start + 11) % 12;
        len += 1;
    }
    while len < 12 && strong(start + len) {
        len += 1;
    }
    Some((start, len))
}

/// A change as the tables show it: `+25 %`, `−3 %`, or empty.
pub fn change_text(change: Option<f64>) -> String {
    match change {
        Some(c) if c.is_finite() => {
            let pct = (c * 100.0).round() as i64;
            if pct > 0 {
                format!("+{pct} %")
            } else if pct < 0 {
                format!("−{} %", -pct)
            } else {
                "0 %".into()
            }
        }
        _ => String::new(),
    }
}

/// The short English name of a month 1–12 (`Mar`), empty otherwise.
pub fn month_short(month: Option<u8>) -> &'static str {
    match month {
        Some(m @ 1..=12) => &MONTH_NAMES[usize::from(m) - 1][..3],
        _ => "",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Months from `start` (year, month 1–12), oldest first, with these values: the month
    /// fixture of the research tests.
    pub(crate) fn months(start: (i64, u8), values: &[i64]) -> Vec<MonthlySearch> {
        values
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let at = start.0 * 12 + i64::from(start.1) - 1 + k as i64;
                let name = MONTH_NAMES[at.rem_euclid(12) as usize];
                MonthlySearch {
                    month: name.into(),
                    year: at.div_euclid(12),
                    value: *v,
                    count: *v,
                    date: format!("{}-{name}", at.div_euclid(12)),
                }
            })
            .collect()
    }

    #[test]
    fn changes_read_the_window_ends() {
        // Apr 2024 … Mar 2025.
        let m = months(
            (2024, 4),
            &[100, 10, 10, 10, 10, 10, 20, 20, 20, 30, 30, 150],
        );
        let t = trend(&m, 3);
        assert_eq!(t.change_12m, None, "12 months: no year over year");
        // latest 3: 30, 30, 150 = 70; the 3 before: 20, 20, 20 = 20.
        assert_eq!(t.change_3m, Some(2.5));
        assert_eq!(t.peak_month, Some(3));
        assert_eq!(change_text(Some(0.5)), "+50 %");
        assert_eq!(change_text(Some(-0.034)), "−3 %");
        assert_eq!(month_short(t.peak_month), "Mar");
    }

    #[test]
    fn order_comes_from_the_dates_not_the_array() {
        let mut m = months(
            (2024, 4),
            &[100, 10, 10, 10, 10, 10, 20, 20, 20, 30, 30, 150],
        );
        m.reverse();
        m.swap(2, 7);
        let t = trend(&m, 3);
        assert_eq!(t.change_3m, Some(2.5));
    }

    #[test]
    fn seasonal_when_more_than_half_falls_in_three_consecutive_months_wrapping() {
        // Jan 2024 … Dec 2024: December and January hold 600 of 1000: a season Dec–Jan.
        let m = months(
            (2024, 1),
            &[300, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 300],
        );
        let t = trend(&m, 6);
        assert_eq!(t.season_months, vec![12, 1]);
        assert_eq!(t.season, Season::OutOfSeason);
        assert_eq!(trend(&m, 1).season, Season::InSeason);
        assert_eq!(trend(&m, 12).season, Season::InSeason);
        assert_eq!(
            trend(&m, 10).season,
            Season::Approaching,
            "December is 2 months ahead"
        );
        assert_eq!(trend(&m, 11).season, Season::Approaching);
        assert_eq!(trend(&m, 9).season, Season::OutOfSeason, "3 months ahead");
        assert_eq!(Season::Approaching.label(), "approaching");
    }

    #[test]
    fn exactly_half_in_three_months_is_not_seasonal_more_than_half_is() {
        // 3 months of 500 hold 1500 of 3000: exactly half, not more (SEOmonitor's rule).
        let half = months((2024, 1), &[0, 0, 0, 0, 0, 500, 500, 500, 500, 500, 500, 0]);
        assert_eq!(trend(&half, 1).season, Season::NotSeasonal);
        let more = months((2024, 1), &[0, 0, 0, 0, 0, 500, 500, 501, 500, 500, 499, 0]);
        assert_eq!(trend(&more, 1).season_months, vec![6, 7, 8, 9, 10, 11]);
        let flat = months((2024, 1), &[1000; 12]);
        assert_eq!(trend(&flat, 1).season, Season::NotSeasonal);
    }

    #[test]
    fn a_plateau_is_one_season_with_its_peak() {
        // May–Sep at 1000, the rest 50: more than half in 3 months; the season is May–Sep,
        // and August (the peak's plateau) is in season, not "out of season".
        let m = months(
            (2024, 1),
            &[50, 50, 50, 50, 1000, 1000, 1000, 1000, 1000, 50, 50, 50],
        );
        let t = trend(&m, 8);
        assert_eq!(t.season_months, vec![5, 6, 7, 8, 9]);
        assert_eq!(t.season, Season::InSeason);
        // A single strong month with weak neighbours is a season of one month.
        let one = months((2024, 1), &[0, 0, 0, 0, 0, 0, 600, 100, 100, 100, 100, 0]);
        assert_eq!(trend(&one, 7).season_months, vec![7]);
    }

    #[test]
    fn a_keyword_below_the_volume_floor_is_not_seasonal() {
        // Two months of 10 searches: concentrated, but too few to call a season.
        let few = months((2024, 1), &[0, 0, 0, 0, 0, 10, 10, 0, 0, 0, 0, 1]);
        assert_eq!(trend(&few, 6).season, Season::NotSeasonal);
        let enough = months((2024, 1), &[0, 0, 0, 0, 0, 100, 100, 0, 0, 0, 0, 1]);
        assert_eq!(trend(&enough, 6).season_months, vec![6, 7]);
    }

    #[test]
    fn the_12_month_change_is_year_over_year_with_13_months_else_blank() {
        // Mar 2024 … Mar 2025 (13 months): March against March.
        let m = months(
            (2024, 3),
            &[200, 100, 10, 10, 10, 10, 10, 20, 20, 20, 30, 30, 150],
        );
        assert_eq!(trend(&m, 3).change_12m, Some(-0.25));
        // Without the 13th: blank, not month 12 against month 1.
        assert_eq!(trend(&m[1..], 3).change_12m, None);
        assert!(CHANGE_RULE.contains("needs 13 months and is blank without them"));
    }

    #[test]
    fn a_lawn_mower_entering_its_season_is_not_growth() {
        // The case: Aug 2024 … Jul 2025, flat year on year, June 100 and July 700.
        // Month 12 against month 1 read +600 %; the anchors' year over year needs July 2024.
        let season = [150, 80, 40, 20, 15, 15, 30, 60, 90, 120, 100, 700];
        let m = months((2024, 8), &season);
        let t = trend(&m, 7);
        assert_eq!(t.change_12m, None);
        let filter = TrendFilter {
            change_12m: (percent_bound("10"), None),
            ..TrendFilter::default()
        };
        assert!(
            !filter.keeps(t.season, t.change_12m, t.change_3m),
            "the rising filter does not return a keyword entering its season"
        );
        // With July 2024 (700 too): no change, year over year.
        let mut thirteen = months((2024, 7), &[700]);
        thirteen.extend(m);
        assert_eq!(trend(&thirteen, 7).change_12m, Some(0.0));
    }

    #[test]
    fn sparkline_values_and_the_window_follow_the_dates() {
        let mut m = months((2024, 4), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        m.reverse();
        m.swap(0, 5);
        assert_eq!(by_date(&m), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(window_text(&m), "Apr 2024 – Mar 2025");
        m.remove(3);
        assert_eq!(by_date(&m).len(), 12, "a missing month draws as 0");
        assert_eq!(window_text(&[]), "");
        assert!(by_date(&[]).is_empty());
    }

    #[test]
    fn zero_missing_and_empty() {
        // Zero total: no peak, no season, no changes.
        let zero = trend(&months((2024, 1), &[0; 12]), 1);
        assert_eq!(
            (
                zero.change_12m,
                zero.change_3m,
                zero.peak_month,
                zero.season
            ),
            (None, None, None, Season::NoData)
        );
        // No months at all.
        assert_eq!(trend(&[], 1).season, Season::NoData);
        // A zero first month: no 12-month change, the rest still computed.
        let t = trend(&months((2024, 1), &[0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]), 1);
        assert_eq!((t.change_12m, t.change_3m), (None, Some(0.0)));
        // A missing month (11 given): unknown, so no season; changes that do not read it stay.
        let mut eleven = months((2024, 1), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        eleven.remove(1);
        let t = trend(&eleven, 1);
        assert_eq!(t.season, Season::NoData);
        assert_eq!(t.change_12m, None);
        assert_eq!(t.peak_month, Some(12));
        // Missing the 7th month: the 3-month change cannot be computed.
        let mut gap = months((2024, 1), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        gap.remove(6);
        assert_eq!(trend(&gap, 1).change_3m, None);
        // A bad month name is left out; a negative value counts as zero.
        let mut odd = months((2024, 1), &[5; 12]);
        odd[0].month = "Janvier".into();
        odd[1].value = -3;
        let t = trend(&odd, 1);
        assert_eq!(t.season, Season::NoData);
        assert_eq!(t.peak_month, Some(12), "the latest of equals");
    }
    #[test]
    fn trend_filter_keeps_by_season_and_change_ranges() {
        let any = TrendFilter::default();
        assert!(any.keeps(Season::NoData, None, None));
        let seasonal = TrendFilter {
            season: SeasonFilter::Seasonal,
            ..any
        };
        assert!(seasonal.keeps(Season::Approaching, None, None));
        assert!(!seasonal.keeps(Season::NotSeasonal, None, None));
        assert!(!seasonal.keeps(Season::NoData, None, None));
        for f in SeasonFilter::ALL {
            assert_eq!(SeasonFilter::from_id(f.id()), f);
        }
        assert_eq!(SeasonFilter::from_id("nonsense"), SeasonFilter::Any);
        let rising = TrendFilter {
            change_12m: (percent_bound("10"), None),
            ..any
        };
        assert!(rising.keeps(Season::NoData, Some(0.1), None));
        assert!(!rising.keeps(Season::NoData, Some(0.05), None));
        // A set bound leaves out an unknown change; an open one keeps it.
        assert!(!rising.keeps(Season::NoData, None, Some(1.0)));
        let falling = TrendFilter {
            change_3m: (None, percent_bound("-20 %")),
            ..any
        };
        assert!(falling.keeps(Season::InSeason, None, Some(-0.5)));
        assert!(!falling.keeps(Season::InSeason, None, Some(-0.1)));
        assert_eq!(percent_bound(" "), None);
        assert_eq!(percent_bound("abc"), None);
    }
}
