//! Pieces that show keywords researched with `search_volume`: the explorer's row on screen
//! ([`row`]: its columns, CSV and trend filter fields), shared by the explorer, the lists
//! page and the related keywords.

pub mod row;
