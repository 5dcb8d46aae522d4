//! Reserving what a call ([`Order`]) buys: under the journal lock, the running jobs of every open tab
//! are read; while one reserves any of the same records (or the same request), the call
//! waits and says where it is being bought, then re-reads what that job stored and buys
//! only the rest. A call that reserves writes its history row ahead (`running`, with what it
//! reserves), so a reload or a closed tab leaves it findable.

use std::collections::HashSet;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::machine::rules::{self, Plan};
use serpkit::machine::CallId;
use serpkit::{Request, Usd};

use super::drive::read_shared;
use super::host::StoredReservation;
use super::journal::Changed;
use super::order::Order;
use super::tabs;
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::state::YES_MS;
use crate::workspace::{now, quote_now, ErrorInfo, Workspace};

/// Why a waiting call stops when the settings changed under it.
pub(super) const SETTINGS_CHANGED: &str = "the settings changed while this call waited (mode, base URL or API key), so it was not sent anywhere else: run it again";

/// How long a call waits before it looks again at the job it waits for.
const WAIT_MS: i32 = 300;

/// Why a call cannot reserve now.
enum Blocked {
    /// Another running job reserves some of it (where).
    Reserved(&'static str),
    /// Some of it was possibly charged in an interrupted call: how many items, and when the
    /// latest such call started.
    Possibly { count: usize, at: f64 },
}

/// Reserves what the call buys and writes its history row ahead (`running`), waiting while
/// a running job of any open tab reserves some of it. `Err(stored)`: no request to send any
/// more: another job bought it meanwhile (`true`: its result is stored) or the call was
/// cancelled while waiting (`false`).
pub(super) async fn reserve(order: &Order) -> Result<HistoryEntry, bool> {
    let Order {
        workspace,
        request,
        key,
        refresh,
        cancel,
        ..
    } = order;
    let workspace = *workspace;
    let refresh = *refresh;
    let mut waited = false;
    loop {
        if cancel.is_cancelled() {
            return Err(false);
        }
        if workspace.call_target() != order.target {
            let error = serpkit::client::Error::Journal(SETTINGS_CHANGED.into());
            workspace.set_error(key, Some(ErrorInfo::from_error(&error, order.mode)));
            return Err(false);
        }
        if waited {
            // The other job is done: what it stored answers here now.
            workspace.reload_for(request, key).await;
            if !refresh && workspace.has_result(key) {
                return Err(true);
            }
        }
        let estimate = quote_now(workspace, request, refresh).usd;
        let row = HistoryEntry {
            id: order.job.clone(),
            operation: request.operation().path().to_string(),
            input: order.input.clone(),
            route: order.route.clone(),
            key: String::new(),
            at: now(),
            estimate,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            outcome: crate::model::Outcome::Running,
            message: String::new(),
            validation: String::new(),
            mode: order.mode,
            tab: tabs::tab_id(),
            source: order.source.clone(),
        };
        // A run soon after the user was told what an interrupted call possibly bought is
        // the user's yes to buying it again.
        let yes = workspace
            .local
            .with_value(|l| l.asked_yes.get(key).is_some_and(|t| now() - t < YES_MS));
        match workspace.write_ahead_row(order, &row, yes).await {
            Ok(()) => {
                workspace.set_waiting(key, None);
                workspace.local.update_value(|l| {
                    l.asked_yes.remove(key);
                });
                return Ok(row);
            }
            Err(Blocked::Possibly { count, at }) => {
                workspace.local.update_value(|l| {
                    l.asked_yes.insert(key.to_string(), now());
                });
                let info = ErrorInfo::possibly_charged(count, now() - at);
                workspace.set_error(key, Some(info));
                return Err(false);
            }
            Err(Blocked::Reserved(place)) => {
                waited = true;
                workspace.set_waiting(key, Some(place));
                serpkit::client::sleep(std::time::Duration::from_millis(WAIT_MS as u64)).await;
            }
        }
    }
}

impl Workspace {
    /// Shows where what `key`'s call needs is being bought (`None`: not waiting).
    fn set_waiting(self, key: &str, place: Option<&'static str>) {
        self.running.update(|r| {
            if let Some(s) = r.get_mut(key) {
                s.waiting = place;
            }
        });
    }

    /// Under the journal lock, the money state machine's plan ([`rules::plan`]) against what
    /// every tab stored: `Err(Reserved("in another tab" | "in this tab"))` while a running
    /// call of an open tab reserves some of what this one buys; `Err(Possibly)` when some of
    /// it was possibly charged in an interrupted call and `yes` is false; else `row` is
    /// written (running) with the reservation of what it buys, in one transaction, and the
    /// other tabs are told.
    async fn write_ahead_row(
        self,
        order: &Order,
        row: &HistoryEntry,
        yes: bool,
    ) -> Result<(), Blocked> {
        let me = tabs::tab_id();
        tabs::with_lock(tabs::JOURNAL_LOCK, async {
            if serpkit::records::request_keys(&order.request, &row.source).is_some() {
                // Records another tab committed whose message has not arrived yet.
                self.records.read_new().await;
            }
            let (items, stored) = self.items_and_stored(order);
            let snap = read_shared(self, (&row.source, stored), true).await;
            let mine: HashSet<String> = self.history.with_untracked(|h| {
                h.iter()
                    .filter(|r| r.tab == me && r.outcome == crate::model::Outcome::Running)
                    .map(|r| r.id.clone())
                    .collect()
            });
            let (plan, here) = {
                let running = |n| {
                    snap.job(CallId { tab: snap.me(), n })
                        .is_some_and(|j| mine.contains(j))
                };
                let plan_ask = rules::Ask {
                    call: CallId {
                        tab: snap.me(),
                        n: u32::MAX,
                    },
                    source: &row.source,
                    items: &items,
                    refresh: order.refresh,
                    confirm_possibly: yes,
                    locks: tabs::has_locks(),
                    running: &running,
                };
                let plan = rules::plan(&snap, &plan_ask);
                let here = plan == Plan::Waiting && snap.reserved_here(&items);
                (plan, here)
            };
            let items = match plan {
                Plan::Buy(items) => items,
                // Everything is stored: the client answers from it with no request.
                Plan::Answered => Vec::new(),
                Plan::Waiting => {
                    return Err(Blocked::Reserved(if here {
                        "in this tab"
                    } else {
                        "in another tab"
                    }))
                }
                Plan::NeedsYes { items, since } => {
                    return Err(Blocked::Possibly {
                        count: items.len(),
                        at: since as f64,
                    })
                }
            };
            if store::available() {
                let history = [(
                    row.id.clone(),
                    serde_json::to_string(row).unwrap_or_default(),
                )];
                let reservation = StoredReservation {
                    job: row.id.clone(),
                    tab: me.clone(),
                    source: row.source.clone(),
                    items,
                };
                let reserved: Vec<(String, String)> = if reservation.items.is_empty() {
                    Vec::new()
                } else {
                    vec![(
                        row.id.clone(),
                        serde_json::to_string(&reservation).unwrap_or_default(),
                    )]
                };
                let written = store::put_all(&[
                    (store::HISTORY, &history[..]),
                    (store::RESERVATIONS, &reserved[..]),
                ])
                .await;
                if let Err(e) = written {
                    self.save_failed(format!("Could not save the history: {e}"));
                }
            }
            Ok(())
        })
        .await?;
        self.upsert_history([row.clone()]);
        tabs::post(&Changed::history(vec![row.id.clone()]).to_json());
        Ok(())
    }

    /// What `order` wants, as the journal reserves it (every record key, or its cache key
    /// for an operation priced per request), and which of those are stored from its source
    /// (fresh enough per Settings, or a complete result).
    fn items_and_stored(self, order: &Order) -> (Vec<String>, HashSet<String>) {
        let (request, key) = (&order.request, order.key.as_str());
        match serpkit::records::request_keys(request, &order.source) {
            Some((_, keys)) => {
                let all: Vec<String> = keys.iter().map(|k| k.as_str().to_string()).collect();
                let missing: HashSet<String> =
                    crate::workspace::prices::items_to_buy(self, request, key, false)
                        .into_iter()
                        .collect();
                let stored = all
                    .iter()
                    .filter(|k| !missing.contains(*k))
                    .cloned()
                    .collect();
                (all, stored)
            }
            None => {
                let stored = if self.has_result(key) {
                    HashSet::from([key.to_string()])
                } else {
                    HashSet::new()
                };
                (vec![key.to_string()], stored)
            }
        }
    }

    /// Frees the reservation of call `job` (its history row id) once it settled.
    pub(super) fn free_reservation(self, job: &str) {
        if !store::available() {
            return;
        }
        let job = job.to_string();
        spawn_local(async move {
            if let Err(e) = store::delete(store::RESERVATIONS, &job).await {
                // Left behind, it holds nothing once this tab closes (the sweep frees it).
                self.save_failed(format!("Could not free a finished call's reservation: {e}"));
            }
        });
    }

    /// Re-reads from IndexedDB the records `request` needs and the result under `key`: what
    /// another tab stored while this one waited.
    async fn reload_for(self, request: &Request, key: &str) {
        if !store::available() {
            return;
        }
        if serpkit::records::request_keys(request, &self.record_source()).is_some() {
            // Every row stored since this tab opened (a minute's margin for the clocks of
            // two tabs): another tab's purchase is among them, whether or not its message
            // arrived yet.
            let opened = js_sys::Date::now() - super::tabs::clock();
            self.records.read_since(opened - 60_000.0).await;
        }
        if let Ok(results) = store::get_many::<CallResult>(store::RESULTS, &[key.to_string()]).await
        {
            self.results.update(|m| {
                for r in results {
                    m.insert(r.key.clone(), r);
                }
            });
        }
    }
}
