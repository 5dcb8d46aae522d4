//! The app's own reads and writes of the shared store that performing the machine's
//! effects needs besides a call's rows: the reservations as stored, what Clear History
//! deletes, and the running History rows of tabs that are gone (History is the app's, not
//! the machine's). No rule here: the machine decided what is written.

use leptos::prelude::*;
use serpkit::machine::StoreError;

use super::history;
use super::host::StoredReservation;
use super::journal::Changed;
use super::tabs;
use crate::model::{HistoryEntry, Outcome as Ended};
use crate::store;
use crate::workspace::Workspace;

/// Every reservation, as stored (none when storage is unavailable: then this tab is the
/// only one that can buy, and its own calls are told apart by their keys).
pub(super) async fn read_reservations() -> Vec<StoredReservation> {
    if !store::available() {
        return Vec::new();
    }
    store::load_all::<StoredReservation>(store::RESERVATIONS, "reservation")
        .await
        .map(|l| l.items)
        .unwrap_or_default()
}

/// Deletes the stored results and History's rows but those of calls still running (in
/// this tab or another: they settle later); the reservations are not History's, so they
/// stay whatever happens here. The rows are read under the journal lock, so a row another
/// tab writes ahead meanwhile stays.
pub(super) async fn clear_history(workspace: Workspace) -> Result<(), StoreError> {
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
pub(super) fn store_error() -> StoreError {
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
pub(super) async fn interrupt_gone_tabs(
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
