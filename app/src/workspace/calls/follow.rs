//! What a tab does about the others, in its own wasm chunk (fetched only when another tab
//! left something to settle or tells something): turn the requests of closed tabs into
//! possibly charged and their running calls into interrupted ones ([`sweep`]), and re-read
//! what another tab committed ([`apply`]).

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::LocalBoxFuture;

use serpkit::machine::rules;

use super::history;
use super::host::{HostSnapshot, Read};
use super::journal::{Changed, JournalEntry};
use super::tabs;
use crate::model::{CallResult, HistoryEntry};
use crate::store;
use crate::workspace::Workspace;

/// Under the journal lock: requests still `sent` by tabs that are gone become possibly
/// charged, and their running calls interrupted with what they bought and may have been
/// charged; both are written back and the other tabs told. `Err`: the chunk could not be
/// fetched (tried again at the next look).
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<(), SplitLoaderError>)
)]
pub(super) fn sweep(workspace: Workspace) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
    Box::pin(async move {
        tabs::with_lock(tabs::JOURNAL_LOCK, sweep_closed_tabs(workspace)).await;
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

async fn sweep_closed_tabs(workspace: Workspace) {
    // Entries written ahead by other tabs are not announced: read those not known yet.
    workspace.read_other_tabs_entries().await;
    let open = tabs::open_tabs().await;
    let me = tabs::tab_id();
    let gone = |tab: &str| tab != me && open.as_ref().is_some_and(|o| !o.contains(tab));
    // The machine's sweep decides; this maps its writes to the app's rows.
    let reservations = super::reserve::read_reservations().await;
    let settings = store::stored_settings().unwrap_or_else(|| workspace.settings.get_untracked());
    let (orphan_ids, freed) = workspace.journal.with_untracked(|j| {
        let entries: Vec<&JournalEntry> = j.values().collect();
        let snap = HostSnapshot::new(Read {
            settings: &settings,
            entries: &entries,
            reservations: &reservations,
            me: &me,
            open: open.clone(),
            stored: ("", Default::default()),
            items: false,
        });
        snap.sweep_ops(&rules::sweep(&snap))
    });
    let mut orphans: Vec<JournalEntry> = Vec::new();
    workspace.journal.update(|j| {
        for id in &orphan_ids {
            if let Some(e) = j.get_mut(id) {
                if e.orphan() {
                    orphans.push(e.clone());
                }
            }
        }
    });
    for job in &freed {
        if let Err(e) = store::delete(store::RESERVATIONS, job).await {
            workspace.save_failed(format!("Could not free a closed tab's reservation: {e}"));
        }
    }
    workspace.refresh_spend();
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
            if !history::interrupt(row, charge, possible) {
                continue;
            }
            rows.push(row.clone());
        }
    });
    if orphans.is_empty() && rows.is_empty() {
        return;
    }
    let journal: Vec<(String, String)> = orphans
        .iter()
        .filter_map(|e| Some((e.id.clone(), serde_json::to_string(e).ok()?)))
        .collect();
    let history: Vec<(String, String)> = rows
        .iter()
        .filter_map(|r| Some((r.id.clone(), serde_json::to_string(r).ok()?)))
        .collect();
    if store::available() {
        if let Err(e) = store::put_all(&[
            (store::JOURNAL, &journal[..]),
            (store::HISTORY, &history[..]),
        ])
        .await
        {
            workspace.save_failed(format!("Could not save the purchase journal: {e}"));
        }
    }
    tabs::post(
        &Changed {
            journal: orphans.into_iter().map(|e| e.id).collect(),
            history: rows.into_iter().map(|r| r.id).collect(),
            ..Changed::default()
        }
        .to_json(),
    );
}
