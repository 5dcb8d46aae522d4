//! Shared pieces of the pages: the priced-call card and its hook, the priced form, price
//! button, validation panel, progress bar, charts, the domain metrics, the two tables (paged
//! and virtual) on one table engine, CSV export, keyword-list picker, status boxes and safe
//! links.

pub mod analyses;
pub mod backlink_overview;
pub mod chart;
pub mod columns;
pub mod csv;
pub mod domain_card;
pub mod domain_charts;
pub mod domain_metrics;
pub mod domain_nav;
pub mod explorer_panels;
pub mod import_keywords;
pub mod keyword_groups;
pub mod keyword_row;
pub mod lists;
pub mod overlap;
pub mod position_changes;
pub mod price;
pub mod priced_call;
pub mod priced_form;
pub mod progress;
pub mod ranked_keywords;
pub mod report;
pub mod status;
pub mod table;
pub mod validation;
pub mod virtual_table;

pub use chart::{MonthlyChart, Sparkline};
pub use columns::{Column, SortKey};
pub use lists::AddToList;
pub use price::{price_text, price_text_with, PriceButton};
pub use priced_call::{LoadEverything, PricedCall, PricedCallCard, PricedCalls};
pub use priced_form::{priced_form_buttons, FormHooks, PricedForm};
pub use progress::{ProgressBar, Waiting};
pub use report::ReportButton;
pub use status::{ErrorBox, ExtLink, ResultMeta};
pub use table::{DataTable, TableModel, TableRow};
pub use validation::ValidationPanel;

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

/// Today's calendar month, 1–12 (local time): the "current month" of the season labels.
pub fn current_month() -> u8 {
    js_sys::Date::new_0().get_month() as u8 + 1
}

/// Local date and time of a ms timestamp: `2024-03-05 14:02`.
pub fn fmt_time(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(fmt_int(0), "0");
        assert_eq!(fmt_int(1234567), "1,234,567");
        assert_eq!(fmt_int(-1000), "-1,000");
        assert_eq!(fmt_cpc(1.234), "$1.23");
        assert_eq!(fmt_change(Some(0.25)), "+25%");
        assert_eq!(fmt_change(None), "–");
        assert_eq!(fmt_date("2024-03-05T10:00:00.000Z"), "2024-03-05");
    }
}
