//! One issue of a report and the most a report lists: what the engine (`engine.rs`) and the
//! JS validators (`js.rs`) produce, and the report (`mod.rs`) holds.

use serde::Serialize;

use crate::rules::Severity;

/// Most issues a report lists; further ones are only counted.
pub const MAX_ISSUES: usize = 1_000;

/// One deviation from the spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// JSON Pointer to the offending value (`/0/TARGETED_MONTHLY_SEARCHES/3/date`); `""` is
    /// the whole body.
    pub path: String,
    /// Stable rule code (`type`, `missing_field`, `unknown_field`, `monthly_count`, ...).
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// Human-readable explanation.
    pub message: String,
}
