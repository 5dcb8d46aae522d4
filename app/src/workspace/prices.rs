//! What running a request costs now: nothing when a complete result bought here is stored,
//! only the records not bought yet for operations priced per record, else the whole request.

use serpkit::{Request, Usd};

use super::{cache_key, Workspace};

/// The price of a run now ([`quote_now`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quote {
    /// What it costs.
    pub usd: Usd,
    /// Units it buys (keywords, domains, URLs, or 1 request); 0 with `reused` 0: a stored
    /// result is shown.
    pub units: u64,
    /// Requested records already bought (not priced).
    pub reused: usize,
}

/// The price of running `request` now. Zero units when a complete result bought here is
/// stored and `refresh` is false (an imported result is not bought here). For operations
/// priced per record, only the records not bought yet (fresh enough per Settings) are
/// priced; `reused` says how many are. Otherwise the whole request.
pub fn quote_now(workspace: Workspace, request: &Request, refresh: bool) -> Quote {
    let key = cache_key(workspace, request);
    if !refresh && workspace.has_result(&key) {
        return Quote::default();
    }
    let options = workspace.plan_options(refresh);
    match workspace
        .records
        .plan(request, &workspace.record_source(), &options)
    {
        Some(plan) => Quote {
            usd: plan.estimate,
            units: plan.new_records() as u64,
            reused: plan.reused(),
        },
        None => Quote {
            usd: serpkit::estimate_cost(request),
            units: request.billable_units(),
            reused: 0,
        },
    }
}
