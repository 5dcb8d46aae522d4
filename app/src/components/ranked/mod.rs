//! Pieces that show a domain's ranked keywords (`ranked-keywords/domain`): their decoded
//! columns and table ([`keywords`]) and the analyses over them, each a tab of the domain page
//! and also used by the content gap ([`analyses`], [`position_changes`]).

pub mod analyses;
pub mod keywords;
pub mod position_changes;
