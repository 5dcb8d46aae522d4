//! How the app writes numbers, money, changes, dates and scraped headings as text: one
//! definition for the pages' cells and the HTML reports (`research::report`), so a report
//! says what the page showed. Pure; the clock-dependent texts (`components::fmt_time`) stay with the pages.

use serpkit::ops::domainstats::parse_stat;

mod heading;
pub use heading::clean_heading;

/// `1234567` → `1,234,567`.
pub fn fmt_int(n: i64) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A CPC in dollars: `$1.23`.
pub fn fmt_cpc(v: f64) -> String {
    if v.is_finite() {
        format!("${v:.2}")
    } else {
        "–".into()
    }
}

/// A ratio as a signed percentage: `+25%`, `–` when unknown.
pub fn fmt_change(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{:+.0}%", x * 100.0),
        _ => "–".into(),
    }
}

/// An ISO timestamp's date part (`2024-03-05T…` → `2024-03-05`); other text as is, cut.
pub fn fmt_date(s: &str) -> String {
    s.get(..10)
        .filter(|d| d.as_bytes().get(4) == Some(&b'-'))
        .map(str::to_string)
        .unwrap_or_else(|| s.chars().take(24).collect())
}

/// Shown for a value the service left empty.
pub const NO_VALUE: &str = "—";

/// A stats string for people: integers with thousands separators, decimals with two
/// places, "—" when empty or not a number.
pub fn fmt_stat(raw: &str) -> String {
    match parse_stat::<f64>(raw) {
        Some(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 => fmt_int(v as i64),
        Some(v) if v.is_finite() => format!("{v:.2}"),
        _ => NO_VALUE.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(fmt_int(0), "0");
        assert_eq!(fmt_int(1234567), "1,234,567");
        assert_eq!(fmt_int(-1000), "-1,000");
        assert_eq!(fmt_int(i64::MIN), "-9,223,372,036,854,775,808");
        assert_eq!(fmt_cpc(1.234), "$1.23");
        assert_eq!(fmt_cpc(f64::NAN), "–");
        assert_eq!(fmt_change(Some(0.25)), "+25%");
        assert_eq!(fmt_change(None), "–");
        assert_eq!(fmt_date("2024-03-05T10:00:00.000Z"), "2024-03-05");
        assert_eq!(fmt_date("soon"), "soon");
    }

    #[test]
    fn stats_format() {
        assert_eq!(fmt_stat(""), NO_VALUE);
        assert_eq!(fmt_stat("  "), NO_VALUE);
        assert_eq!(fmt_stat("abc"), NO_VALUE);
        assert_eq!(fmt_stat("1234567"), "1,234,567");
        assert_eq!(fmt_stat("0"), "0");
        assert_eq!(fmt_stat("4.5"), "4.50");
        assert_eq!(fmt_stat("NaN"), NO_VALUE);
    }
}
