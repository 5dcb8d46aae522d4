//! The app's components, by kind:
//!
//! - **Widgets** (the modules at this level) know no operation and no response record: the
//!   priced-call card and its hook, the priced form, price button, validation panel, progress
//!   bar, charts, the two tables (paged and virtual) on one table engine, CSV export, the
//!   keyword-list picker, the report button, status boxes and safe links, data compared by
//!   version ([`versioned`]). Any page can use them for any data.
//! - **Data pieces** (one folder per kind of data) show one kind of data and are used by two
//!   or more pages: [`domain`] (a domain's stats card, metrics, charts, navigation),
//!   [`ranked`] (a domain's ranked keywords: their table and analyses), [`keyword`] (the
//!   explorer's keyword row). A piece used by one page lives in that page's folder under
//!   `routes/`.
//!
//! Widgets never import data pieces; a data piece imports widgets and `research` (which
//! computes what it shows).

pub mod budget;
pub mod chart;
pub mod columns;
pub mod csv;
pub mod domain;
pub mod keyword;
pub mod lists;
pub mod price;
pub mod priced_call;
pub mod priced_form;
pub mod progress;
pub mod ranked;
pub mod report;
pub mod status;
pub mod table;
pub mod team;
pub mod validation;
pub mod versioned;
pub mod virtual_table;

pub use budget::{Budget, BudgetLeft};
pub use chart::{MonthlyChart, Sparkline};
pub use columns::{Column, SortKey};
/// The explorer's row under its former name, which the explorer's query and filters and the
/// lists page import.
pub use keyword::row as keyword_row;
pub use lists::AddToList;
pub use price::{possibly_text, price_text, price_text_with, PriceButton};
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
