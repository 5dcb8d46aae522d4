//! What a tab does about the others, in its own wasm chunk (fetched only when another tab
//! left something to settle or tells something): turn the requests of closed tabs into
//! possibly charged and their running calls into interrupted ones ([`sweep`]), and re-read
//! what another tab committed ([`apply`]).

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::LocalBoxFuture;

use serpkit::machine::Event;

use super::journal::{Changed, JournalEntry};
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::Workspace;

/// Looks at the other tabs through this tab's machine ([`super::drive`]): under the journal
/// lock, requests still `sent` by tabs that are gone become possibly charged and their
/// reservations go; their running calls are interrupted with what they bought and may have
/// been charged; all is written back and the other tabs told. `Err`: the chunk could not be
/// fetched (tried again at the next look).
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<(), SplitLoaderError>)
)]
pub(super) fn sweep(workspace: Workspace) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
    Box::pin(async move {
        super::drive::drive(workspace, Event::Opened).await;
        Ok(())
    })
}

/// Resets the meter through this tab's machine ([`super::drive`]): the reset time is a
/// money setting, written under the journal lock. Counted as a pending save meanwhile.
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<(), SplitLoaderError>)
)]
pub(super) fn reset_meter(
    workspace: Workspace,
) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
    Box::pin(async move {
        super::drive::drive(workspace, Event::ResetMeter).await;
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
