//! Pieces that show a domain: its stats card ([`card`]), the metrics of a `domainstats` record
//! listed once ([`metrics`]), its charts ([`charts`]) and the domain pages' navigation and
//! domain input ([`nav`]).

pub mod card;
pub mod charts;
pub mod metrics;
pub mod nav;
