//! One call from the click to its commit ([`Order`]): what the user asked for and where it
//! goes, captured once at the click and never re-read (a settings change stops the call,
//! it never re-targets it), and the one place a purchase's [`CallResult`] is built
//! ([`Stamp::result`]). The page's [`super::Job`] becomes an `Order` in `run`; `reserve.rs`,
//! `service.rs`, `book.rs` and `settle.rs` all read this one description.

use serpkit::client::Cancel;
use serpkit::{Request, Usd};

use crate::model::{CallResult, Mode, Settings, Validation};
use crate::workspace::Workspace;

/// One call, as the user clicked it.
pub(super) struct Order {
    /// The workspace the call belongs to (its client, records and running state).
    pub(super) workspace: Workspace,
    /// The request (without key: the client adds it).
    pub(super) request: Request,
    /// The route that shows its result (History).
    pub(super) route: String,
    /// Its input as History shows it.
    pub(super) input: String,
    /// Buy it again even if it is stored (Refresh).
    pub(super) refresh: bool,
    /// Cancels the call (a bulk job stops starting chunks).
    pub(super) cancel: Cancel,
    /// The request's cache key ([`super::cache_key`]).
    pub(super) key: String,
    /// The settings as the tab showed them at the click: the client is built from them,
    /// never from the settings of later, and the machine refuses the call if they no longer
    /// point where they did ([`serpkit::machine::Run::clicked`]).
    pub(super) settings: Settings,
    /// The API key at the click (memory only): a key changed while the call waits does not
    /// re-target it, as the rest of its context.
    pub(super) api_key: String,
    /// Demo or live.
    pub(super) mode: Mode,
    /// Where it buys: its record source.
    pub(super) source: String,
    /// When the user clicked (ms since the epoch).
    pub(super) at: f64,
    /// Its History row's id: its journal entries and its reservation carry it.
    pub(super) job: String,
}

impl Order {
    /// What the click's records are planned with: its time, the maximum record age of its
    /// settings and its Refresh (the quote the user saw; never the settings of later).
    pub(super) fn plan_options(&self) -> serpkit::records::PlanOptions {
        serpkit::records::PlanOptions {
            now_ms: self.at,
            max_age_ms: self.settings.record_max_age_ms(),
            refresh: self.refresh,
        }
    }
}

/// What every result a call stores carries, from its [`Order`].
#[derive(Clone)]
pub(super) struct Stamp {
    operation: String,
    /// The request as its result keeps it: JSON without the key.
    request: String,
    at: f64,
    mode: Mode,
    source: String,
}

impl Stamp {
    /// The stamp of `order`'s results.
    pub(super) fn of(order: &Order) -> Stamp {
        let mut request = order.request.clone();
        request.set_key(serpkit::ApiKey::default());
        Stamp {
            operation: order.request.operation().path().to_string(),
            request: request.to_json(),
            at: order.at,
            mode: order.mode,
            source: order.source.clone(),
        }
    }

    /// A result this call bought (or was charged for and keeps refused), under `key`.
    pub(super) fn result(
        &self,
        key: String,
        body: String,
        validation: Validation,
        charge: Usd,
        missing: Vec<String>,
        rejected: bool,
    ) -> CallResult {
        CallResult {
            key,
            operation: self.operation.clone(),
            request: self.request.clone(),
            body,
            validation,
            charge,
            at: self.at,
            mode: self.mode,
            missing,
            imported: false,
            source: self.source.clone(),
            rejected,
        }
    }
}
