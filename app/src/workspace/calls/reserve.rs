//! Reserving what a call ([`Order`]) buys, on this tab's money machine
//! ([`crate::host::drive::run`]): under the journal lock the machine plans against every open tab's reservations, its
//! entries and what is stored; while another running call reserves any of the same records
//! (or the same request) the call waits and says where it is being bought, then re-reads
//! what that call stored and buys only the rest. A call that reserves writes its History
//! row ahead (`running`) in the reservation's transaction, so a reload or a closed tab
//! leaves it findable.

use std::collections::HashSet;

use leptos::prelude::*;
use serpkit::machine::{Notice, Refusal, Run};
use serpkit::{Request, Usd};

use super::book::refusal_error;
use super::order::Order;
use crate::host::drive::{self, Mail, Planning};
use crate::host::journal::Changed;
use crate::host::rows;
use crate::host::tabs;
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::state::YES_MS;
use crate::workspace::{now, quote_now, ErrorInfo, Workspace};

/// How often a waiting call looks at what its machine said.
const LOOK_MS: u64 = 20;

/// Reserves what the call buys and writes its History row ahead (`running`), waiting while
/// a running call of any open tab reserves some of it. `Ok`: the row and the call's number
/// on the machine. `Err(stored)`: no request to send any more: another call bought it
/// meanwhile (`true`: its result is stored), or the call was refused, stopped or cancelled
/// (`false`; the error is under its key).
pub(super) async fn reserve(order: &Order) -> Result<(HistoryEntry, u32), bool> {
    let (workspace, key) = (order.workspace, order.key.as_str());
    let row = HistoryEntry {
        id: order.job.clone(),
        operation: order.request.operation().path().to_string(),
        input: order.input.clone(),
        route: order.route.clone(),
        key: String::new(),
        at: now(),
        estimate: quote_now(workspace, &order.request, order.refresh).usd,
        charge: Usd::ZERO,
        possible_charge: Usd::ZERO,
        outcome: crate::model::Outcome::Running,
        message: String::new(),
        validation: String::new(),
        mode: order.mode,
        tab: tabs::tab_id(),
        source: order.source.clone(),
    };
    // A run soon after the user was told what an interrupted call possibly bought is the
    // user's yes to buying it again.
    let yes = workspace
        .local
        .with_value(|l| l.asked_yes.get(key).is_some_and(|t| now() - t < YES_MS));
    let items = workspace.wanted(&order.request, key, &order.source);
    let run = Run {
        items: items.clone(),
        // The client prices each request it asks to send (`Event::Sending`).
        each: Usd::ZERO,
        chunk: 1,
        refresh: order.refresh,
        confirm_possibly: yes,
        host_sends: true,
        clicked: rows::machine_settings(&order.settings).target().ok(),
    };
    let planning = Planning {
        request: order.request.clone(),
        key: key.to_string(),
        source: order.source.clone(),
        items,
        row: row.clone(),
        waited: false,
    };
    let n = drive::run(workspace, run, planning).await;
    let outcome = follow(order, &row, n).await;
    workspace.set_waiting(key, None);
    drive::forget_planning(n);
    match outcome {
        Ok(()) => {
            workspace.local.update_value(|l| {
                l.asked_yes.remove(key);
            });
            Ok((row, n))
        }
        Err(stored) => {
            drive::forget(n);
            Err(stored)
        }
    }
}

/// Follows call `n` until its machine reserved it (or found everything stored), refused it,
/// or the user cancelled it or changed where it goes.
async fn follow(order: &Order, row: &HistoryEntry, n: u32) -> Result<(), bool> {
    let (workspace, key) = (order.workspace, order.key.as_str());
    let mut waited = false;
    loop {
        let mail = drive::take_mail(n, |m| matches!(m, Mail::Shown(_) | Mail::Waiting { .. }));
        match mail {
            Some(Mail::Shown(Notice::Reserved(_))) => return Ok(()),
            Some(Mail::Shown(Notice::Answered)) => {
                if waited && !order.refresh && workspace.has_result(key) {
                    return Err(true);
                }
                // Everything is stored: the client answers from it with no request.
                workspace.write_running(row).await;
                return Ok(());
            }
            Some(Mail::Shown(Notice::NeedsYes { items, since })) => {
                workspace.local.update_value(|l| {
                    l.asked_yes.insert(key.to_string(), now());
                });
                let info = ErrorInfo::possibly_charged(items.len(), now() - since as f64);
                workspace.set_error(key, Some(info));
                return Err(false);
            }
            Some(Mail::Waiting { here }) => {
                waited = true;
                let place = if here {
                    "in this tab"
                } else {
                    "in another tab"
                };
                workspace.set_waiting(key, Some(place));
            }
            Some(Mail::Shown(Notice::Refused(Refusal::Cancelled))) => return Err(false),
            Some(Mail::Shown(Notice::Refused(why))) => {
                let error = refusal_error(why, row.estimate);
                workspace.set_error(key, Some(ErrorInfo::from_error(&error, order.mode)));
                return Err(false);
            }
            Some(_) => {}
            None => {
                if order.cancel.is_cancelled() {
                    drive::drive(workspace, serpkit::machine::Event::Cancel(n)).await;
                    return Err(false);
                }
                serpkit::client::sleep(std::time::Duration::from_millis(LOOK_MS)).await;
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

    /// Writes `row` (`running`) for a call that reserved nothing (everything stored), and
    /// tells the other tabs.
    async fn write_running(self, row: &HistoryEntry) {
        if store::available() {
            let history = [(
                row.id.clone(),
                serde_json::to_string(row).unwrap_or_default(),
            )];
            if let Err(e) = store::put_all(&[(store::HISTORY, &history[..])]).await {
                self.save_failed(format!("Could not save the history: {e}"));
            }
        }
        self.upsert_history([row.clone()]);
        tabs::post(&Changed::history(vec![row.id.clone()]).to_json());
    }

    /// What a call of `request` wants, as the journal reserves it: every record key, or
    /// its cache key `key` for an operation priced per request.
    pub(super) fn wanted(self, request: &Request, key: &str, source: &str) -> Vec<String> {
        match serpkit::records::request_keys(request, source) {
            Some((_, keys)) => keys.iter().map(|k| k.as_str().to_string()).collect(),
            None => vec![key.to_string()],
        }
    }

    /// Which of what a call of `request` wants are stored from `source` (records fresh
    /// enough per Settings, or a complete result under `key`).
    pub(super) fn stored_of(self, request: &Request, key: &str, source: &str) -> HashSet<String> {
        if serpkit::records::request_keys(request, source).is_none() {
            return if self.has_result(key) {
                HashSet::from([key.to_string()])
            } else {
                HashSet::new()
            };
        }
        let missing: HashSet<String> =
            crate::workspace::prices::items_to_buy(self, request, key, false)
                .into_iter()
                .collect();
        self.wanted(request, key, source)
            .into_iter()
            .filter(|k| !missing.contains(k))
            .collect()
    }

    /// Re-reads from IndexedDB the records `request` needs and the result under `key`: what
    /// another tab stored while this one waited.
    pub(super) async fn reload_for(self, request: &Request, key: &str) -> Result<(), String> {
        if !store::available() {
            return Ok(());
        }
        if serpkit::records::request_keys(request, &self.record_source()).is_some() {
            // Every row stored since this tab opened (a minute's margin for the clocks of
            // two tabs): another tab's purchase is among them, whether or not its message
            // arrived yet.
            let opened = js_sys::Date::now() - crate::host::tabs::clock();
            self.records.read_since(opened - 60_000.0).await?;
        }
        let results = store::get_many::<CallResult>(store::RESULTS, &[key.to_string()]).await?;
        self.results.update(|m| {
            for r in results {
                m.insert(r.key.clone(), r);
            }
        });
        Ok(())
    }
}
