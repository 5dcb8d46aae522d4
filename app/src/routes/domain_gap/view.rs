//! The computed gap as the gap page and its views by page share it.

use crate::components::columns::SortCache;
use crate::components::versioned::Versioned;
use crate::research::gap::{Gap, Options};

/// The computed gap with the sort orders of its table.
pub(super) struct GapView {
    pub(super) gap: Gap,
    /// The domains compared, yours first.
    pub(super) domains: Vec<String>,
    /// What it was computed with (the rules shown name the cutoff and striking distance).
    pub(super) options: Options,
    pub(super) orders: SortCache,
}

impl GapView {
    /// The best competitor's domain of row `i`.
    pub(super) fn best_domain(&self, i: usize) -> Option<&str> {
        let slot = self.gap.best[i]?;
        self.domains.get(slot + 1).map(String::as_str)
    }
}

/// The gap shown: its view, whether every domain's ranked keywords are loaded, and how long
/// computing it took (ms).
pub(super) type GapData = (Versioned<GapView>, bool, f64);
