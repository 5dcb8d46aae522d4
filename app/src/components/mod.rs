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

/// The number, money, change and date texts, defined with the reports in [`crate::format`].
pub use crate::format::{fmt_change, fmt_cpc, fmt_date, fmt_int};

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
