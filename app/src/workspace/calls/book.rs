//! The app's purchase journal ([`serpkit::client::Journal`]) on this tab's money machine:
//! every request the client would send is asked of the machine (`Event::Sending`), which
//! writes it ahead in IndexedDB's `journal` store (live: under the journal lock, against the
//! cap over every tab's entries of the period and the click's target) or refuses it; its
//! outcome goes back (`Event::Answer`) and is settled in one transaction with what it
//! bought: a chunk's records, or a per-request result. Other tabs are told after the
//! commit. This file only prepares the rows; the machine decides and `drive.rs` writes.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use leptos::prelude::*;
use serpkit::client::{
    EntryState, Error, Journal, LocalBoxFuture, Sending, Settled, ValidationMode,
};
use serpkit::machine::{Body, EntryId, Outcome, Refusal, StoreError};
use serpkit::Usd;

use super::order::{Order, Stamp};
use crate::host::drive::{self, Bought};
use crate::host::journal::{Changed, JournalEntry};
use crate::host::tabs;
use crate::model::{Mode, Validation};
use crate::store;
use crate::workspace::records::{new_row_key, previous_to_keep, row_text, RecordEntry};
use crate::workspace::{now, Workspace};

/// Why a waiting call stops when the settings changed under it.
pub(super) const SETTINGS_CHANGED: &str = "the settings changed while this call waited (its mode or base URL), so it was not sent anywhere else: run it again";

/// Why no live request may leave now, if so: this tab has no storage at all (an older tab
/// blocks the database, or the browser has no IndexedDB), so it runs on memory, which the
/// machine cannot tell from a store; memory is enough for demo, never for money. The rest is
/// the machine's: without Web Locks it refuses a live call (`Refusal::NoLocks`), and once
/// the connection is lost a commit fails and it refuses every call (`Refusal::Storage`).
pub(super) fn journal_refusal() -> Option<String> {
    (!store::available() && store::lost().is_none()).then(|| {
        "the purchase journal cannot be kept in this browser (its storage is unavailable), so nothing is bought live".into()
    })
}

const NO_LOCKS: &str = "this page cannot coordinate its tabs (no Web Locks, as on a plain-http address): open serpkit over https or on localhost to buy live data";

/// The client's error for the machine's refusal of a request (or of its call) priced
/// `estimate`.
pub(super) fn refusal_error(why: Refusal, estimate: Usd) -> Error {
    let text = match why {
        Refusal::Budget { committed, cap } => {
            return Error::BudgetExceeded {
                estimate,
                spent: committed,
                budget: cap,
            }
        }
        Refusal::Cancelled => {
            return Error::Aborted {
                possible_charge: Usd::ZERO,
            }
        }
        Refusal::Storage(StoreError::Quota) => "the purchase journal could not be written (no space left): free some storage for this site, or reload the page".into(),
        Refusal::Storage(StoreError::Lock) => "the browser would not let this tab take the purchase journal's lock, so nothing was sent (what was bought before is kept): run it again, or reload the page".into(),
        Refusal::Storage(StoreError::Unreadable) => "the purchase journal or the saved settings could not be read, so nothing was decided or sent (what was bought before is kept): run it again, or reload the page; if it keeps failing, check this site's storage".into(),
        Refusal::Storage(_) => store::lost().unwrap_or(store::CLOSED).to_string(),
        Refusal::NoLocks => NO_LOCKS.into(),
        Refusal::SettingsChanged | Refusal::InsecureUrl | Refusal::InvalidUrl(_) => {
            SETTINGS_CHANGED.into()
        }
        Refusal::NotReserved => "this request buys what its call did not reserve, or what it already bought, so it was not sent: run the call again".into(),
    };
    Error::Journal(text)
}

/// The benchmark's A/B switch, `localStorage["serpkit.bench.journal"]`, honoured in demo
/// mode only, where no money is at stake, so `cargo xtask bench` times one bulk job with
/// and without the journal in one run: `off` sends it without the journal.
pub(super) fn bench_switch(mode: Mode) -> Option<String> {
    (mode == Mode::Demo)
        .then(|| store::local_get("serpkit.bench.journal"))
        .flatten()
}

/// One call's journal: its entries belong to the call's History row (`job`), and to call
/// `call` of this tab's machine.
pub(super) struct Book {
    workspace: Workspace,
    call: u32,
    job: String,
    result_key: String,
    stamp: Stamp,
    mode: Mode,
    strict: bool,
    open: RefCell<HashMap<u64, (EntryId, JournalEntry)>>,
    next: Cell<u64>,
    result_stored: Cell<bool>,
}

impl Book {
    /// The journal of `order`, call `call` of this tab's machine (its results carry `stamp`).
    pub(super) fn new(order: &Order, stamp: &Stamp, call: u32) -> Book {
        Book {
            workspace: order.workspace,
            call,
            job: order.job.clone(),
            result_key: order.key.clone(),
            stamp: stamp.clone(),
            mode: order.mode,
            // The validation mode of the click, as the rest of its context.
            strict: order.settings.validation == ValidationMode::Strict,
            open: RefCell::new(HashMap::new()),
            next: Cell::new(0),
            result_stored: Cell::new(false),
        }
    }

    /// True once a per-request result was stored with its entry.
    pub(super) fn result_stored(&self) -> bool {
        self.result_stored.get()
    }

    /// Asks the machine to write `entry` ahead: the entry's id on the machine, or why not.
    async fn write_ahead(&self, entry: JournalEntry) -> Result<EntryId, Error> {
        if self.mode == Mode::Live {
            if let Some(why) = journal_refusal() {
                return Err(Error::Journal(why));
            }
        }
        let (n, estimate) = (self.call, entry.estimate);
        let items = entry.items.clone();
        drive::ahead(n, &items, entry);
        drive::send(self.workspace, n, items, estimate)
            .await
            .map_err(|why| refusal_error(why, estimate))
    }

    async fn commit(&self, ticket: u64, settled: Settled) -> Result<(), String> {
        let started = tabs::clock();
        let (outcome, committed) = self.commit_inner(ticket, settled).await;
        // User Timing, so benchmarks read what one commit takes: from the settle until its
        // transaction completed (the meter's update and the other tabs' message come after).
        tabs::measure_until("serpkit:journal-commit", started, committed);
        outcome
    }

    /// The commit's outcome, and when its transaction completed ([`tabs::clock`]).
    async fn commit_inner(&self, ticket: u64, settled: Settled) -> (Result<(), String>, f64) {
        let workspace = self.workspace;
        let Some((id, mut entry)) = self.open.borrow_mut().remove(&ticket) else {
            return (Ok(()), tabs::clock());
        };
        entry.settle(settled.state, settled.charge, settled.possible_charge);
        let mut changed = Changed::default();
        let mut records: Vec<(String, String)> = Vec::new();
        if let Some((kind, bought)) = settled.records.as_ref().filter(|(_, b)| !b.is_empty()) {
            let entries: Vec<RecordEntry> = bought
                .iter()
                .map(|(k, r)| RecordEntry::from_stored(*kind, k, r))
                .collect();
            // One row: one put for the whole chunk.
            let row = new_row_key();
            records.push((row.clone(), row_text(&entries)));
            changed.records = vec![row];
            // In memory at once: the answer and every price see them.
            workspace.records.extend(entries);
        }
        let mut results: Vec<(String, String)> = Vec::new();
        let mut body_kind = Body::Valid;
        if let (Some((body, report)), EntryState::Charged) = (&settled.body, settled.state) {
            let validation = report
                .as_ref()
                .map(Validation::from_report)
                .unwrap_or_default();
            // A charged body that is not JSON (no report, or the validator's syntax error) is
            // kept refused in every mode: stored, shown as it came, never bought again unasked.
            let unreadable = match report {
                Some(r) => r.position.is_some(),
                None => serpkit::decode::check_syntax(body).is_err(),
            };
            let invalid = report.as_ref().is_some_and(|r| !r.ok());
            body_kind = match (unreadable, invalid) {
                (true, _) => Body::Unreadable,
                (false, true) => Body::Invalid,
                _ => Body::Valid,
            };
            let rejected = unreadable || (self.strict && invalid);
            let result = self.stamp.result(
                workspace.kept_key(&self.result_key, unreadable),
                body.clone(),
                validation,
                settled.charge,
                Vec::new(),
                rejected,
            );
            if let Ok(text) = serde_json::to_string(&result) {
                results.push((result.key.clone(), text));
            }
            changed.results = vec![result.key.clone()];
            // A result that keeps the purchase it replaces writes it in this transaction.
            let previous = workspace
                .results
                .with_untracked(|m| previous_to_keep(m.get(&result.key), &result));
            if let Some(p) = previous {
                if let Ok(text) = serde_json::to_string(&p) {
                    results.push((p.key.clone(), text));
                }
                changed.results.push(p.key.clone());
                workspace.results.update(|m| {
                    m.insert(p.key.clone(), p);
                });
            }
            workspace.results.update(|m| {
                m.insert(result.key.clone(), result);
            });
            self.result_stored.set(true);
        }
        let outcome = match settled.state {
            EntryState::Charged => Outcome::Answer(body_kind),
            EntryState::NotCharged => Outcome::NotCharged,
            EntryState::PossiblyCharged | EntryState::Sent => Outcome::Unknown,
        };
        let rows = Bought {
            row: entry,
            records,
            results,
            changed,
        };
        drive::bought(id, rows);
        let result = drive::settle(workspace, self.call, id, outcome).await;
        let committed = tabs::clock();
        let result = result.map_err(|e| {
            format!("the purchase journal could not store this answer yet ({e:?}): it is kept in this tab and written again")
        });
        (result, committed)
    }
}

impl Journal for Book {
    fn sending(&self, sending: Sending<'_>) -> LocalBoxFuture<'_, Result<u64, Error>> {
        let ticket = self.next.get();
        self.next.set(ticket + 1);
        // What it buys: its records' keys, or the result's key (priced per request).
        let items = match serpkit::records::request_keys(sending.request, sending.source) {
            Some((_, keys)) => keys.iter().map(|k| k.as_str().to_string()).collect(),
            None => vec![self.result_key.clone()],
        };
        let entry = JournalEntry::sent(
            tabs::next_id(),
            &self.job,
            &tabs::tab_id(),
            sending.request.operation().path(),
            sending.source,
            self.mode,
            (items, sending.estimate),
            now(),
        );
        Box::pin(async move {
            let id = self.write_ahead(entry.clone()).await?;
            self.open.borrow_mut().insert(ticket, (id, entry));
            Ok(ticket)
        })
    }

    fn settled(&self, ticket: u64, settled: Settled) -> LocalBoxFuture<'_, Result<(), String>> {
        Box::pin(self.commit(ticket, settled))
    }
}
