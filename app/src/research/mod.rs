//! Research intelligence computed in the browser from data already bought (no call here):
//! trends and seasonality of the 12 monthly values, the opportunity score, lexical keyword
//! groups, the content gap between domains, keyword import parsing and self-contained HTML
//! reports. Pure functions over plain data, unit-tested natively; the pages render them.

pub mod content_gap;
pub mod groups;
pub mod import;
pub mod report;
pub mod score;
pub mod trends;
