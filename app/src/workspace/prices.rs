//! What running a request costs now: nothing when a complete result bought here is stored,
//! only the records not bought yet for operations priced per record, else the whole request.

use leptos::prelude::*;
use serpkit::{Request, Usd};

use serpkit::client::EntryState;

use serpkit::machine::rules;

use super::{cache_key, Workspace};
use crate::host::journal::JournalEntry;
use crate::host::rows::HostSnapshot;

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
    /// How many of the records it would buy were possibly charged in an interrupted call,
    /// and when the latest such call started: they are bought only on the user's yes.
    pub possibly: Option<(usize, f64)>,
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
    let source = workspace.record_source();
    let mut quote = match workspace.records.plan(request, &source, &options) {
        Some(plan) => Quote {
            usd: plan.estimate,
            units: plan.new_records() as u64,
            reused: plan.reused(),
            possibly: None,
        },
        None => Quote {
            usd: serpkit::estimate_cost(request),
            units: request.billable_units(),
            reused: 0,
            possibly: None,
        },
    };
    // Only when some request of this source may have been charged (rare): the check needs
    // the record keys to buy.
    let doubtful = workspace.journal.with(|j| {
        j.values()
            .any(|e| e.source == source && e.state() == EntryState::PossiblyCharged)
    });
    if doubtful && quote.units > 0 {
        let items = items_to_buy(workspace, request, &key, refresh);
        let wanted = items.iter().map(String::as_str).collect();
        let settings = workspace.settings.get_untracked();
        quote.possibly = workspace.journal.with(|j| {
            let entries: Vec<&JournalEntry> = j.values().collect();
            // The machine's rule; which other tabs are open is known under the lock only.
            let snap = HostSnapshot::of_journal(&settings, &entries, true);
            rules::possibly_bought(&snap, &source, &wanted)
                .map(|(items, since)| (items.len(), since as f64))
        });
    }
    quote
}

/// What a run of `request` would buy now, as the journal reserves it: the keys of the
/// records not bought yet, or the request's cache key `key` for an operation priced per
/// request.
pub fn items_to_buy(
    workspace: Workspace,
    request: &Request,
    key: &str,
    refresh: bool,
) -> Vec<String> {
    let source = workspace.record_source();
    match workspace
        .records
        .plan(request, &source, &workspace.plan_options(refresh))
    {
        Some(plan) => plan
            .to_buy
            .as_ref()
            .and_then(|r| serpkit::records::request_keys(r, &source))
            .map(|(_, keys)| keys.into_iter().map(|k| k.as_str().to_string()).collect())
            .unwrap_or_default(),
        None => vec![key.to_string()],
    }
}
