//! The host's own reads and writes of the shared store that performing the machine's
//! effects needs besides a call's rows: the reservations as stored, the entries other tabs
//! wrote ahead, what Clear History deletes. No rule here: the machine decided what is
//! written.

use leptos::prelude::*;
use serpkit::machine::StoreError;

use super::journal::JournalEntry;
use super::rows::StoredReservation;
use super::{tabs, Memory};
use crate::model::{HistoryEntry, Outcome as Ended};
use crate::store;

/// Every reservation, as stored (none when storage is unavailable: then this tab is the
/// only one that can buy, and its own calls are told apart by their keys).
pub(crate) async fn read_reservations() -> Vec<StoredReservation> {
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
pub(crate) async fn clear_history(memory: impl Memory) -> Result<(), StoreError> {
    if !store::available() {
        return Err(store_error());
    }
    if let Err(e) = store::clear(store::RESULTS).await {
        memory.save_failed(format!("Could not delete from browser storage: {e}"));
        return Err(store_error());
    }
    tabs::with_lock(tabs::JOURNAL_LOCK, async {
        let rows = store::load_all::<HistoryEntry>(store::HISTORY, "history entry")
            .await
            .map(|l| l.items)
            .unwrap_or_default();
        for r in rows.iter().filter(|r| r.outcome != Ended::Running) {
            if let Err(e) = store::delete(store::HISTORY, &r.id).await {
                memory.save_failed(format!("Could not delete from browser storage: {e}"));
                return Err(store_error());
            }
        }
        Ok(())
    })
    .await
}

/// Why the last write failed, as the machine knows it.
pub(crate) fn store_error() -> StoreError {
    match store::lost() {
        Some(store::NEWER) => StoreError::VersionChange,
        Some(_) => StoreError::Closed,
        None if !store::available() => StoreError::Closed,
        None => StoreError::Quota,
    }
}

/// Under the journal lock: every entry another tab wrote ahead is committed (it writes
/// under this lock too), and read here if not known yet. A known entry that another tab
/// settled meanwhile still counts as in flight with its estimate, never less than what
/// it was charged, so the cap is never passed.
pub(crate) async fn read_other_tabs_entries(memory: impl Memory) {
    if !store::available() {
        return;
    }
    if let Ok(ids) = store::keys(store::JOURNAL).await {
        let unknown: Vec<String> = memory
            .journal()
            .with_untracked(|j| ids.into_iter().filter(|id| !j.contains_key(id)).collect());
        if let Ok(entries) = store::get_many::<JournalEntry>(store::JOURNAL, &unknown).await {
            memory.merge_journal(entries);
        }
    }
}
