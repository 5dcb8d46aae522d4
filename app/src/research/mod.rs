//! Research intelligence computed in the browser from data already bought (no call here):
//! trends and seasonality of the 12 monthly values, the opportunity score, the content gap
//! and its brand terms, keyword groups, decoding and reading imported keyword files, the
//! HTML report and its builders, the explorer's keyword rows, and the analyses of ranked keywords (search intent, top pages,
//! cannibalisation, position changes between two purchases). Pure functions over plain data, unit-tested natively; the pages render them.

pub mod brand;
pub mod cannibalisation;
pub mod changes;
pub mod ctr;
pub mod decode;
pub mod gap;
pub mod groups;
pub mod import;
pub mod intent;
pub mod keyword_row;
pub mod report;
pub mod score;
pub mod serp_clusters;
pub mod top_pages;
pub mod traffic;
pub mod trends;
