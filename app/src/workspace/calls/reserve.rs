//! Reserving what a call buys: under the journal lock, the running jobs of every open tab
//! are read; while one reserves any of the same records (or the same request), the call
//! waits and says where it is being bought, then re-reads what that job stored and buys
//! only the rest. A call that reserves writes its history row ahead (`running`, with what it
//! reserves), so a reload or a closed tab leaves it findable.

use leptos::prelude::*;
use serpkit::client::Cancel;
use serpkit::{Request, Usd};

use super::journal::{overlap, Changed};
use super::tabs;
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::state::YES_MS;
use crate::workspace::{now, quote_now, ErrorInfo, Workspace};

/// What a reserving call is about (the request and how History shows it).
pub(super) struct Wanted<'a> {
    pub(super) request: &'a Request,
    pub(super) key: &'a str,
    pub(super) route: &'a str,
    pub(super) input: &'a str,
    pub(super) refresh: bool,
    /// Where the click meant it to go ([`Workspace::call_target`]).
    pub(super) target: &'a str,
}

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
pub(super) async fn reserve(
    workspace: Workspace,
    wanted: &Wanted<'_>,
    cancel: &Cancel,
) -> Result<HistoryEntry, bool> {
    let Wanted {
        request,
        key,
        refresh,
        ..
    } = *wanted;
    let mut waited = false;
    loop {
        if cancel.is_cancelled() {
            return Err(false);
        }
        if workspace.call_target() != wanted.target {
            let error = serpkit::client::Error::Journal(SETTINGS_CHANGED.into());
            let mode = workspace.mode();
            workspace.set_error(key, Some(ErrorInfo::from_error(&error, mode)));
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
            id: tabs::next_id(),
            operation: request.operation().path().to_string(),
            input: wanted.input.to_string(),
            route: wanted.route.to_string(),
            key: String::new(),
            at: now(),
            estimate,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            outcome: "running".into(),
            message: String::new(),
            validation: String::new(),
            mode: workspace.mode(),
            tab: tabs::tab_id(),
            items: crate::workspace::prices::items_to_buy(workspace, request, key, refresh),
            source: workspace.record_source(),
        };
        // A run soon after the user was told what an interrupted call possibly bought is
        // the user's yes to buying it again.
        let yes = workspace
            .local
            .with_value(|l| l.asked_yes.get(key).is_some_and(|t| now() - t < YES_MS));
        match workspace.write_ahead_row(&row, yes).await {
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

    /// Under the journal lock: `Err(Reserved("in another tab" | "in this tab"))` while a
    /// running job of an open tab reserves some of `row.items`; `Err(Possibly)` when some of
    /// them were possibly charged in an interrupted call and `yes` is false; else writes `row`
    /// (running) and tells the other tabs.
    async fn write_ahead_row(self, row: &HistoryEntry, yes: bool) -> Result<(), Blocked> {
        let me = tabs::tab_id();
        let text = serde_json::to_string(row).unwrap_or_default();
        tabs::with_lock(tabs::JOURNAL_LOCK, async {
            let open = tabs::open_tabs().await;
            let rows = if store::available() {
                store::load_all::<HistoryEntry>(store::HISTORY, "history entry")
                    .await
                    .map(|l| l.items)
                    .unwrap_or_default()
            } else {
                self.history.get_untracked()
            };
            let running: Vec<&HistoryEntry> = rows
                .iter()
                .filter(|r| r.outcome == "running" && r.id != row.id && !r.items.is_empty())
                .filter(|r| r.tab == me || open.as_ref().is_none_or(|o| o.contains(&r.tab)))
                .collect();
            let reserved: Vec<Vec<String>> = running.iter().map(|r| r.items.clone()).collect();
            if let Some((i, _)) = overlap(&reserved, &row.items) {
                return Err(Blocked::Reserved(if running[i].tab == me {
                    "in this tab"
                } else {
                    "in another tab"
                }));
            }
            if !yes {
                // Every tab's entries, as committed under this lock.
                self.read_other_tabs_entries().await;
                let doubt = self.journal.with_untracked(|j| {
                    super::journal::possibly_bought(j.values(), &row.source, &row.items)
                });
                if let Some((count, at)) = doubt {
                    return Err(Blocked::Possibly { count, at });
                }
            }
            if store::available() {
                if let Err(e) = store::put_text(store::HISTORY, &row.id, &text).await {
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
