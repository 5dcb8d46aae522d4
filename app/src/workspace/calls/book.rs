//! The app's purchase journal ([`serpkit::client::Journal`]): every request a call sends is
//! written ahead in IndexedDB's `journal` store under the journal lock (where the budget cap
//! is checked against every tab's entries of the period), and settled in one transaction
//! with what it bought: a chunk's records, or a per-request result. Other tabs are told
//! after the commit.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use leptos::prelude::*;
use serpkit::client::{
    EntryState, Error, Journal, LocalBoxFuture, Sending, Settled, ValidationMode,
};

use super::host::HostSnapshot;
use super::journal::{Changed, JournalEntry};
use super::order::{Order, Stamp};
use super::tabs;
use crate::model::{Mode, Validation};
use crate::store;
use crate::workspace::records::{new_row_key, previous_to_keep, row_text, RecordEntry};
use crate::workspace::{now, Workspace};
use serpkit::machine::{rules, Refusal, Snapshot};

/// Why no live request may leave now, if so: the journal cannot be written, or the tabs
/// cannot agree (the money state machine's rule: never send outside the journal).
pub(super) fn journal_refusal() -> Option<String> {
    if !tabs::has_locks() {
        return Some(
            "this page cannot coordinate its tabs (no Web Locks, as on a plain-http address): open serpkit over https or on localhost to buy live data"
                .into(),
        );
    }
    if let Some(why) = store::lost() {
        return Some(why.into());
    }
    (!store::available()).then(|| {
        "the purchase journal cannot be kept in this browser (its storage is unavailable), so nothing is bought live".into()
    })
}

/// The benchmark's A/B switch, `localStorage["serpkit.bench.journal"]`, honoured in demo
/// mode only, where no money is at stake, so `cargo xtask bench` times one bulk job three
/// ways in one run: `off` sends it without the journal; `locked` takes the journal lock for
/// every write-ahead, as the money machine does (the app takes it only when a cap is set).
pub(super) fn bench_switch(mode: Mode) -> Option<String> {
    (mode == Mode::Demo)
        .then(|| store::local_get("serpkit.bench.journal"))
        .flatten()
}

/// One call's journal: its entries belong to the call's history row (`job`).
pub(super) struct Book {
    workspace: Workspace,
    job: String,
    result_key: String,
    stamp: Stamp,
    mode: Mode,
    strict: bool,
    open: RefCell<HashMap<u64, JournalEntry>>,
    next: Cell<u64>,
    result_stored: Cell<bool>,
}

impl Book {
    /// The journal of `order` (its results carry `stamp`).
    pub(super) fn new(order: &Order, stamp: &Stamp) -> Book {
        Book {
            workspace: order.workspace,
            job: order.job.clone(),
            result_key: order.key.clone(),
            stamp: stamp.clone(),
            mode: order.mode,
            strict: order.workspace.validation_mode() == ValidationMode::Strict,
            open: RefCell::new(HashMap::new()),
            next: Cell::new(0),
            result_stored: Cell::new(false),
        }
    }

    /// True once a per-request result was stored with its entry.
    pub(super) fn result_stored(&self) -> bool {
        self.result_stored.get()
    }

    async fn write_ahead(&self, entry: &JournalEntry) -> Result<(), Error> {
        let workspace = self.workspace;
        let live = self.mode == Mode::Live;
        if live {
            if let Some(why) = journal_refusal() {
                return Err(Error::Journal(why));
            }
        }
        // The cap and its period as last saved by any tab (localStorage is shared, written
        // field by field). The cap guards real money: demo calls are never capped. A stored
        // cap that does not parse stops live spending (the cap fails closed).
        let settings = workspace.shared_settings();
        let cap = live
            .then(|| serpkit::machine::stored_cap(&settings.budget))
            .flatten();
        let always_lock = bench_switch(self.mode).as_deref() == Some("locked");
        match cap {
            // Without a cap there is nothing to check against the other tabs: the entry is
            // written ahead without the lock and without reading theirs (two IndexedDB
            // transactions fewer per request, measured in BENCHMARKS.md).
            None if !always_lock => self.write_entry(entry).await,
            _ => {
                tabs::with_lock(tabs::JOURNAL_LOCK, async move {
                    // The machine's cap check (live money only), with the settings as stored
                    // now (under the lock), over every tab's entries of the period.
                    if live {
                        workspace.read_other_tabs_entries().await;
                        let settings = workspace.shared_settings();
                        let admitted = workspace.journal.with_untracked(|j| {
                            let entries: Vec<&JournalEntry> = j.values().collect();
                            let snap = HostSnapshot::of_journal(&settings, &entries, false);
                            rules::admit(snap.settings(), &snap, now() as i64, entry.estimate)
                        });
                        if let Err(Refusal::Budget { committed, cap }) = admitted {
                            return Err(Error::BudgetExceeded {
                                estimate: entry.estimate,
                                spent: committed,
                                budget: cap,
                            });
                        }
                    }
                    self.write_entry(entry).await
                })
                .await
            }
        }
        // Other tabs are not told of an entry written ahead: what they need of it, they read
        // under the journal lock (the cap check, the sweep of closed tabs), and its commit is
        // told. One message fewer per request of a bulk job.
    }

    /// Writes `entry` ahead (`sent`): committed to IndexedDB, and counted in memory. A live
    /// request whose entry storage refuses is not sent (nothing is bought outside the
    /// journal); a demo one goes on, counted in this tab only, and the user is told.
    async fn write_entry(&self, entry: &JournalEntry) -> Result<(), Error> {
        let workspace = self.workspace;
        if !store::available() {
            workspace.merge_journal([entry.clone()]);
            return Ok(());
        }
        let text = serde_json::to_string(entry).unwrap_or_default();
        let written = store::put_text(store::JOURNAL, &entry.id, &text).await;
        match written {
            Ok(()) => {
                workspace.merge_journal([entry.clone()]);
                Ok(())
            }
            Err(e) if self.mode == Mode::Live => Err(Error::Journal(format!(
                "the purchase journal could not be written ({e}); free some storage for this site, or reload the page"
            ))),
            Err(e) => {
                workspace.merge_journal([entry.clone()]);
                workspace.save_failed(format!(
                    "Could not write the purchase journal ({e}): demo calls are counted in this tab only until storage works again."
                ));
                Ok(())
            }
        }
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
        let Some(mut entry) = self.open.borrow_mut().remove(&ticket) else {
            return (Ok(()), tabs::clock());
        };
        entry.settle(settled.state, settled.charge, settled.possible_charge);
        let mut changed = Changed::journal(vec![entry.id.clone()]);
        let mut records: Vec<(String, String)> = Vec::new();
        let mut kept: Vec<RecordEntry> = Vec::new();
        if let Some((kind, bought)) = settled.records.as_ref().filter(|(_, b)| !b.is_empty()) {
            let entries: Vec<RecordEntry> = bought
                .iter()
                .map(|(k, r)| RecordEntry::from_stored(*kind, k, r))
                .collect();
            // One row: one put for the whole chunk.
            let row = new_row_key();
            records.push((row.clone(), row_text(&entries)));
            changed.records = vec![row];
            kept = entries;
        }
        let mut results: Vec<(String, String)> = Vec::new();
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
            let rejected = unreadable || (self.strict && report.as_ref().is_some_and(|r| !r.ok()));
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
        let journal = [(
            entry.id.clone(),
            serde_json::to_string(&entry).unwrap_or_default(),
        )];
        if !store::available() {
            if !kept.is_empty() {
                workspace.records.extend(kept);
            }
            workspace.merge_journal([entry]);
            return (Ok(()), tabs::clock());
        }
        let committing = store::put_all(&[
            (store::JOURNAL, &journal[..]),
            (store::RECORDS, &records[..]),
            (store::RESULTS, &results[..]),
        ]);
        // In memory before anything awaits (the transaction is issued at the end of this
        // turn): the answer and every price see them at once.
        if !kept.is_empty() {
            workspace.records.extend(kept);
        }
        let outcome = committing.await;
        let committed = tabs::clock();
        // The meter follows once the commit is done, in the task that goes on to report the
        // chunk's progress: one frame for both. Until then the entry counts as in flight
        // with its estimate, so the cap holds meanwhile.
        workspace.merge_journal([entry]);
        if outcome.is_ok() {
            tabs::post(&changed.to_json());
        }
        (outcome, committed)
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
            self.write_ahead(&entry).await?;
            self.open.borrow_mut().insert(ticket, entry);
            Ok(ticket)
        })
    }

    fn settled(&self, ticket: u64, settled: Settled) -> LocalBoxFuture<'_, Result<(), String>> {
        Box::pin(self.commit(ticket, settled))
    }
}
