//! One module per page. To add a page (e.g. the domain views of issue 7): add
//! `routes/domain*.rs`, an entry in [`NAV`], and a `<Route>` in `App` (`src/lib.rs`); reuse
//! `crate::components` (price button, validation panel, table, CSV, lists) and `crate::api::run`.

pub mod domain;
pub mod domain_backlinks;
pub mod domain_compare;
pub mod domain_keywords;
pub mod domain_pages;
pub mod domains;
pub mod history;
pub mod home;
pub mod keyword;
pub mod keywords;
pub mod lists;
pub mod settings;

/// Main navigation: (path, label).
pub const NAV: &[(&str, &str)] = &[
    ("/keywords", "Keywords"),
    ("/domains", "Domains"),
    ("/lists", "Lists"),
    ("/history", "History"),
    ("/settings", "Settings"),
];

/// Country codes offered in the country pickers (any two-letter code works in URLs).
pub const COUNTRIES: &[(&str, &str)] = &[
    ("US", "United States"),
    ("GB", "United Kingdom"),
    ("CA", "Canada"),
    ("AU", "Australia"),
    ("DE", "Germany"),
    ("FR", "France"),
    ("ES", "Spain"),
    ("IT", "Italy"),
    ("NL", "Netherlands"),
    ("SE", "Sweden"),
    ("IN", "India"),
    ("BR", "Brazil"),
    ("MX", "Mexico"),
    ("JP", "Japan"),
];

/// The route of the keyword detail view.
pub fn keyword_route(keyword: &str, ccode: &str) -> String {
    format!(
        "/keyword?kw={}&cc={}",
        crate::api::enc(keyword),
        crate::api::enc(ccode)
    )
}

/// The route of the explorer with these keywords.
pub fn keywords_route(keywords: &[String], ccode: &str) -> String {
    format!(
        "/keywords?cc={}&kw={}",
        crate::api::enc(ccode),
        crate::api::enc(&keywords.join("\n"))
    )
}
