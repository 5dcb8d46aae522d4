//! The host's own reads and writes of the shared store that performing the machine's
//! effects needs besides a call's rows: the reservations as stored, the entries other tabs
//! wrote ahead, what Clear History deletes. No rule here: the machine decided what is
//! written.

use leptos::prelude::*;
use serpkit::machine::{EntryState, StoreError};

use super::journal::JournalEntry;
use super::rows::StoredReservation;
use super::{tabs, Memory};
use crate::model::{HistoryEntry, Outcome as Ended};
use crate::store;

/// Every reservation, as stored (none when storage is unavailable: then this tab is the
/// only one that can buy, and its own calls are told apart by their keys). A failed read,
/// or a row this version cannot read, is an error: never "no reservations".
pub(crate) async fn read_reservations() -> Result<Vec<StoredReservation>, StoreError> {
    if !store::available() {
        return Ok(Vec::new());
    }
    match store::load_all::<StoredReservation>(store::RESERVATIONS, "reservation").await {
        Ok(l) if l.skipped.is_empty() => Ok(l.items),
        _ => Err(StoreError::Unreadable),
    }
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
    let Ok(_held) = tabs::lock(tabs::JOURNAL_LOCK).await else {
        return Err(StoreError::Lock);
    };
    {
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
    }
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
/// under this lock too), and read here if not known yet; so is every entry of another tab
/// this tab knows as `sent`, whose settle message may have been lost (a stale copy must
/// never be swept over that tab's `charged`). A failed read, or an entry this version
/// cannot read, is an error: the machine decides nothing on a partial journal.
pub(crate) async fn read_other_tabs_entries(memory: impl Memory) -> Result<(), StoreError> {
    if !store::available() {
        return Ok(());
    }
    let ids = store::keys(store::JOURNAL)
        .await
        .map_err(|_| StoreError::Unreadable)?;
    let me = tabs::tab_id();
    let stale: Vec<String> = memory.journal().with_untracked(|j| {
        ids.into_iter()
            .filter(|id| {
                j.get(id)
                    .is_none_or(|e| e.tab != me && e.state == EntryState::Sent)
            })
            .collect()
    });
    if stale.is_empty() {
        return Ok(());
    }
    let texts = store::texts_of(store::JOURNAL, &stale)
        .await
        .map_err(|_| StoreError::Unreadable)?;
    let mut entries = Vec::with_capacity(texts.len());
    for text in texts {
        let text = text.ok_or(StoreError::Unreadable)?;
        let entry = serde_json::from_str::<JournalEntry>(&text);
        entries.push(entry.map_err(|_| StoreError::Unreadable)?);
    }
    memory.merge_journal(entries);
    Ok(())
}
