//! Research intelligence computed in the browser from data already bought (no call here):
//! trends and seasonality of the 12 monthly values, the opportunity score, the content gap,
//! keyword groups, decoding and reading imported keyword files, and the HTML report. Pure
//! functions over plain data, unit-tested natively; the pages render them.

pub mod decode;
pub mod gap;
pub mod groups;
pub mod import;
pub mod report;
pub mod score;
pub mod trends;
