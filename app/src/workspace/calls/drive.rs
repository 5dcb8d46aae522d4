//! This browser tab's money state machine ([`Tab`]) and the performer of its effects: the
//! app as a host of the machine, not of its rules one by one. An event goes in
//! ([`drive`]); each effect is performed in order (the journal lock is the Web Lock, a
//! commit is one IndexedDB transaction of the app's rows, [`HostSnapshot::writes`] maps
//! them) and its outcome goes back in as the next event, until nothing is left to do.
//!
//! The app steps it when it looks at the other tabs (at start, then every 5 s while another
//! tab left something `sent` or `running`: the sweep of what closed tabs left), when the
//! user changes a money setting (mode, base URL and its confirmation, cap, period, a reset
//! of the meter: written under the lock, so ordered with every write-ahead) and when the
//! user clears History (one commit that names no reservation). A call still runs its own
//! path ([`super::reserve`], [`super::book`]) with the machine's rules.

use std::cell::{Cell, RefCell};
use std::collections::{HashSet, VecDeque};

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::machine::{Effect, Event, Outcome, Snapshot, StoreError, Tab};

use super::history;
use super::host::{HostSnapshot, Read, StoredReservation, Writes};
use super::journal::{Changed, JournalEntry};
use super::tabs;
use crate::model::{HistoryEntry, Outcome as Ended};
use crate::store;
use crate::workspace::{now, Workspace};

thread_local! {
    /// This tab's machine, made on its first event.
    static TAB: RefCell<Option<Tab>> = const { RefCell::new(None) };
}

thread_local! {
    /// An event's effects are being performed ([`drive`]).
    static DRIVING: Cell<bool> = const { Cell::new(false) };
}

/// Holds [`DRIVING`] while alive.
struct Driving;

impl Driving {
    fn start() -> Driving {
        DRIVING.with(|d| d.set(true));
        Driving
    }
}

impl Drop for Driving {
    fn drop(&mut self) {
        DRIVING.with(|d| d.set(false));
    }
}

/// Steps this tab's machine with `event`; the effects it asks for.
fn step(workspace: Workspace, event: Event<'_>) -> Vec<Effect> {
    let mut out = Vec::new();
    TAB.with(|t| {
        let mut t = t.borrow_mut();
        let tab = t.get_or_insert_with(|| {
            let snap = HostSnapshot::of_journal(&workspace.shared_settings(), &[], false);
            Tab::new(snap.me(), snap.settings().clone(), tabs::has_locks())
        });
        tab.step(now() as i64, event, &mut out);
    });
    out
}

/// Tells this tab's machine `event` and performs every effect that follows. One event at a
/// time: an event is stepped once the effects of the one before are performed, so awaiting
/// this awaits what `event` asked for (a setting stored, say), not another event's turn.
pub(super) fn drive(
    workspace: Workspace,
    event: Event<'static>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> {
    Box::pin(async move {
        while DRIVING.with(Cell::get) {
            serpkit::client::sleep(std::time::Duration::from_millis(4)).await;
        }
        let _driving = Driving::start();
        let mut queue: VecDeque<Effect> = step(workspace, event).into();
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::Lock => {
                    let after = tabs::with_lock(tabs::JOURNAL_LOCK, locked(workspace)).await;
                    queue.extend(after);
                }
                Effect::Commit { txn, ops } => {
                    // Outside the lock no snapshot names rows: only writes that name none.
                    let result = match Writes::unnamed(&ops) {
                        Ok(writes) => commit(workspace, writes).await,
                        Err(_) => Err(StoreError::Closed),
                    };
                    queue.extend(step(workspace, Event::Committed { txn, result }));
                }
                Effect::Wake(ms) => spawn_local(async move {
                    serpkit::client::sleep(std::time::Duration::from_millis(ms.max(0) as u64))
                        .await;
                    drive(workspace, Event::Timer).await;
                }),
                // The app does not step a Run yet, so nothing is sent: provably not charged.
                Effect::Send { entry, .. } => {
                    let outcome = Outcome::NotCharged;
                    queue.extend(step(workspace, Event::Answer { entry, outcome }));
                }
                // Nothing is held outside `locked`; other tabs hear settings through the
                // `storage` event; a call shows its own state.
                Effect::Unlock | Effect::Announce(_) | Effect::Show(..) => {}
            }
        }
    })
}

/// Holding the journal lock: reads the shared store, grants it to the machine and performs
/// its commits until it lets go of the lock. The effects after that are returned.
async fn locked(workspace: Workspace) -> Vec<Effect> {
    let snap = read_shared(workspace, ("", HashSet::new()), false).await;
    let mut queue: VecDeque<Effect> = step(workspace, Event::Granted(&snap)).into();
    let mut after = Vec::new();
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Unlock => {
                after.extend(queue);
                break;
            }
            Effect::Commit { txn, ops } => {
                let result = match snap.writes(&ops) {
                    Ok(writes) => commit(workspace, writes).await,
                    Err(_) => Err(StoreError::Closed),
                };
                queue.extend(step(workspace, Event::Committed { txn, result }));
            }
            other => after.push(other),
        }
    }
    interrupt_gone_tabs(workspace, &tabs::tab_id(), snap.open()).await;
    after
}

/// Under the journal lock: the shared store as the machine reads it (the stored settings,
/// every tab's journal entries, the reservations, which tabs are open); `stored`: a call's
/// source and which of its items are stored; `items`: whether the entries' items are needed.
pub(super) async fn read_shared(
    workspace: Workspace,
    stored: (&str, HashSet<String>),
    items: bool,
) -> HostSnapshot {
    // Entries written ahead by other tabs are not announced: read those not known yet.
    workspace.read_other_tabs_entries().await;
    let open = tabs::open_tabs().await;
    let reservations = read_reservations().await;
    let settings = workspace.shared_settings();
    let me = tabs::tab_id();
    workspace.journal.with_untracked(|j| {
        let entries: Vec<&JournalEntry> = j.values().collect();
        HostSnapshot::new(Read {
            settings: &settings,
            entries: &entries,
            reservations: &reservations,
            me: &me,
            open,
            stored,
            items,
        })
    })
}

/// Every reservation, as stored (none when storage is unavailable: then this tab is the
/// only one that can buy, and its own calls are told apart by their keys).
async fn read_reservations() -> Vec<StoredReservation> {
    if !store::available() {
        return Vec::new();
    }
    store::load_all::<StoredReservation>(store::RESERVATIONS, "reservation")
        .await
        .map(|l| l.items)
        .unwrap_or_default()
}

/// Writes a machine transaction as the app's rows, in one IndexedDB transaction, and tells
/// the other tabs.
async fn commit(workspace: Workspace, writes: Writes) -> Result<(), StoreError> {
    if writes.clear_history {
        clear_history(workspace).await?;
    }
    // Field by field over what is stored, never a whole copy; the other tabs follow through
    // the `storage` event.
    if !writes.settings.is_empty() && !workspace.write_money(&writes.settings) {
        return Err(StoreError::Quota);
    }
    if writes.entries.is_empty() && writes.freed.is_empty() {
        return Ok(());
    }
    let mut settled: Vec<JournalEntry> = Vec::new();
    workspace.journal.update(|j| {
        for (id, e) in &writes.entries {
            if let Some(row) = j.get_mut(id) {
                row.settle(e.state, e.charge, e.possible);
                settled.push(row.clone());
            }
        }
    });
    workspace.refresh_spend();
    if !store::available() {
        // This tab runs on memory alone (it says so where it loads): nothing is stored.
        return Err(store_error());
    }
    let journal: Vec<(String, String)> = settled
        .iter()
        .filter_map(|e| Some((e.id.clone(), serde_json::to_string(e).ok()?)))
        .collect();
    if let Err(e) = store::put_all(&[(store::JOURNAL, &journal[..])]).await {
        workspace.save_failed(format!("Could not save the purchase journal: {e}"));
        return Err(store_error());
    }
    for job in &writes.freed {
        if let Err(e) = store::delete(store::RESERVATIONS, job).await {
            workspace.save_failed(format!("Could not free a closed tab's reservation: {e}"));
            return Err(store_error());
        }
    }
    if !settled.is_empty() {
        tabs::post(&Changed::journal(settled.into_iter().map(|e| e.id).collect()).to_json());
    }
    Ok(())
}

/// Deletes the stored results and History's rows but those of calls still running (in
/// this tab or another: they settle later); the reservations are not History's, so they
/// stay whatever happens here. The rows are read under the journal lock, so a row another
/// tab writes ahead meanwhile stays.
async fn clear_history(workspace: Workspace) -> Result<(), StoreError> {
    if !store::available() {
        return Err(store_error());
    }
    if let Err(e) = store::clear(store::RESULTS).await {
        workspace.save_failed(format!("Could not delete from browser storage: {e}"));
        return Err(store_error());
    }
    tabs::with_lock(tabs::JOURNAL_LOCK, async {
        let rows = store::load_all::<HistoryEntry>(store::HISTORY, "history entry")
            .await
            .map(|l| l.items)
            .unwrap_or_default();
        for r in rows.iter().filter(|r| r.outcome != Ended::Running) {
            if let Err(e) = store::delete(store::HISTORY, &r.id).await {
                workspace.save_failed(format!("Could not delete from browser storage: {e}"));
                return Err(store_error());
            }
        }
        Ok(())
    })
    .await
}

/// Why the last write failed, as the machine knows it.
fn store_error() -> StoreError {
    match store::lost() {
        Some(store::NEWER) => StoreError::VersionChange,
        Some(_) => StoreError::Closed,
        None if !store::available() => StoreError::Closed,
        None => StoreError::Quota,
    }
}

/// History is the app's, not the machine's: the running calls of tabs that are gone are
/// interrupted with what their entries were charged and may have been (as the sweep just
/// settled them).
async fn interrupt_gone_tabs(
    workspace: Workspace,
    me: &str,
    open: Option<&std::collections::HashSet<String>>,
) {
    let Some(open) = open else { return };
    let gone = |tab: &str| tab != me && !open.contains(tab);
    let mut rows: Vec<HistoryEntry> = Vec::new();
    workspace.history.update(|h| {
        for row in h.iter_mut().filter(|r| gone(&r.tab)) {
            let (charge, possible) = workspace.journal.with_untracked(|j| {
                j.values()
                    .filter(|e| e.job == row.id)
                    .fold((serpkit::Usd::ZERO, serpkit::Usd::ZERO), |(c, p), e| {
                        (c + e.charge, p + e.possible_charge)
                    })
            });
            if history::interrupt(row, charge, possible) {
                rows.push(row.clone());
            }
        }
    });
    if rows.is_empty() {
        return;
    }
    let texts: Vec<(String, String)> = rows
        .iter()
        .filter_map(|r| Some((r.id.clone(), serde_json::to_string(r).ok()?)))
        .collect();
    if store::available() {
        if let Err(e) = store::put_all(&[(store::HISTORY, &texts[..])]).await {
            workspace.save_failed(format!("Could not save the history: {e}"));
        }
    }
    tabs::post(&Changed::history(rows.into_iter().map(|r| r.id).collect()).to_json());
}
