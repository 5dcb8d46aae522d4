//! What a tab does about the others, in its own wasm chunk (fetched only when another tab
//! left something to settle or tells something): drive this tab's money machine (the sweep
//! of what closed tabs left, a reset of the meter: [`crate::host::drive`]), and re-read
//! what another tab committed ([`apply`]).

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::LocalBoxFuture;

use serpkit::machine::Event;

use crate::host::journal::{Changed, JournalEntry};
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::Workspace;

/// Tells this tab's money machine `event` and performs its effects ([`super::drive`]):
/// `Opened` looks at the other tabs (under the journal lock, requests still `sent` by tabs
/// that are gone become possibly charged and their reservations go; their running calls
/// are interrupted with what they bought and may have been charged); `ResetMeter` writes
/// the reset under the lock. `Err`: the chunk could not be fetched.
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<(), SplitLoaderError>)
)]
pub(super) fn drive(
    workspace: Workspace,
    event: Event<'static>,
) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
    Box::pin(async move {
        crate::host::drive::drive(workspace, event).await;
        Ok(())
    })
}

/// Re-reads what another tab committed (its message `text`, a [`Changed`]).
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<(), SplitLoaderError>)
)]
pub(super) fn apply(
    workspace: Workspace,
    text: String,
) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
    Box::pin(async move {
        if let Some(changed) = Changed::from_json(&text).filter(|_| store::available()) {
            reread(workspace, changed).await;
        }
        Ok(())
    })
}

async fn reread(workspace: Workspace, changed: Changed) {
    workspace.records.read_rows(&changed.records).await;
    if let Ok(results) = store::get_many::<CallResult>(store::RESULTS, &changed.results).await {
        workspace.results.update(|m| {
            for r in results {
                m.insert(r.key.clone(), r);
            }
        });
    }
    if let Ok(rows) = store::get_many::<HistoryEntry>(store::HISTORY, &changed.history).await {
        workspace.upsert_history(rows);
    }
    if let Ok(entries) = store::get_many::<JournalEntry>(store::JOURNAL, &changed.journal).await {
        workspace.merge_journal(entries);
    }
}
