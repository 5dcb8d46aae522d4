//! The explorer's panels whose code is fetched on first use, so the first load (the explorer
//! is the landing page) stays the shell and the box to type keywords in: the import panel
//! (when it is first opened) and, once results are shown, the keyword groups, the clusters by
//! shared results and the report button. One chunk for the four: measured, a chunk of its own for the import panel made
//! wasm-split cut the shared code into more files and the first load 7 KB larger. They read
//! the explorer's state from [`ExplorerState`] (context).
//!
//! Each is a split point like the pages' (`routes::page!`): `cargo xtask app-wasm` cuts the
//! wasm there; natively the view is built directly. A chunk that cannot be fetched shows a
//! message in place of the panel; rendering it again retries. The view is built in the
//! component's own reactive scope once the chunk is there ([`lazily`]), never inside an async
//! task (measured: views built in a `Suspend` lost their signals when the explorer's results
//! re-rendered, and the app panicked).

use std::future::Future;
use std::task::{Context, Poll, Waker};

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::SplitLoaderError;

use super::clusters::{clustered_now, SerpClusters};
use super::groups::KeywordGroups;
use super::import::ImportKeywords;
use crate::components::{fmt_time, ReportButton};
use crate::research::keyword_row::KeywordRow;
use crate::research::report::explorer::keyword_report;
use crate::research::report::clusters::clusters_section;
use crate::research::report::groups::groups_section;
use crate::research::report::Origin;
use crate::research::score;
use crate::workspace::use_workspace;

/// The explorer's state the lazily loaded panels read (provided by the explorer page).
#[derive(Clone, Copy)]
pub struct ExplorerState {
    /// The rows shown (filtered).
    pub rows: Signal<Vec<KeywordRow>>,
    /// The keyword box's text.
    pub keywords: RwSignal<String>,
    /// The country picked.
    pub country: RwSignal<String>,
    /// Where the rows came from (the shown result's source).
    pub origin: Signal<Origin>,
    /// The clusters' least number of shared results (N): the clusters panel's, which the
    /// report's clusters section uses too.
    pub min_shared: RwSignal<usize>,
}

/// Declares the component `$name`, the view `$body` with its code in the wasm chunk `$chunk`
/// (see [`lazily`]).
macro_rules! lazy_panel {
    ($(#[$doc:meta])* $name:ident, $chunk:ident, $body:expr) => {
        $(#[$doc])*
        #[component]
        pub fn $name() -> impl IntoView {
            #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload(load))]
            fn render() -> Result<AnyView, SplitLoaderError> {
                Ok(untrack(|| $body))
            }
            lazily(load, render)
        }
    };
}

/// Fetches a chunk with `load`, then builds the view with `render` synchronously, in this
/// component's reactive scope: the view's signals live as long as the component (building it
/// inside an async task would give them a scope that ends with the task). A loaded chunk's
/// `render` is ready on its first poll. Also the explorer's result section
/// (`routes::keywords::results`), a split point of the same chunk.
pub fn lazily<L, R>(load: fn() -> L, render: fn() -> R) -> impl IntoView
where
    L: Future<Output = Result<(), SplitLoaderError>> + 'static,
    R: Future<Output = Result<AnyView, SplitLoaderError>> + 'static,
{
    // 0: loading, 1: loaded, 2: failed.
    let state = RwSignal::new(0u8);
    spawn_local(async move {
        let loaded = load().await.is_ok();
        let _ = state.try_set(if loaded { 1 } else { 2 });
    });
    let failed = || {
        view! {
            <p class="error inline" role="alert">"This part of the page could not be loaded (connection lost, or the app was updated). Open the page again to retry."</p>
        }
        .into_any()
    };
    move || match state.get() {
        0 => ().into_any(),
        1 => poll_once(render())
            .and_then(Result::ok)
            .unwrap_or_else(failed),
        _ => failed(),
    }
}

/// Polls `future` once: its output if ready.
fn poll_once<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut cx) {
        Poll::Ready(out) => Some(out),
        Poll::Pending => None,
    }
}

lazy_panel!(
    /// The import panel's body.
    LazyImport,
    explorer_more,
    {
        let Some(state) = use_context::<ExplorerState>() else { return ().into_any() };
        view! { <ImportKeywords country=state.country apply=Callback::new(move |keywords: String| state.keywords.set(keywords)) /> }.into_any()
    }
);

lazy_panel!(
    /// The keyword groups of the rows shown.
    LazyGroups,
    explorer_more,
    {
        let Some(state) = use_context::<ExplorerState>() else { return ().into_any() };
        view! { <KeywordGroups rows=state.rows origin=state.origin /> }.into_any()
    }
);

lazy_panel!(
    /// The clusters by shared search results of the rows shown (priced, beside the groups).
    LazyClusters,
    explorer_more,
    {
        let Some(state) = use_context::<ExplorerState>() else { return ().into_any() };
        view! { <SerpClusters rows=state.rows origin=state.origin min_shared=state.min_shared /> }.into_any()
    }
);

lazy_panel!(
    /// The explorer's "Export report (HTML)" button (the report ends with the keyword groups
    /// and the clusters by shared results).
    LazyReportButton,
    explorer_more,
    {
        let Some(state) = use_context::<ExplorerState>() else { return ().into_any() };
        let workspace = use_workspace();
        let make = Callback::new(move |_| {
            let rows = state.rows.get_untracked();
            let country = rows.first().map(|r| r.ccode.to_uppercase()).unwrap_or_default();
            let formula = workspace.settings.with_untracked(|s| score::formula_text(&s.score_weights));
            let date = fmt_time(js_sys::Date::now());
            // The clusters of the outlines already bought (the report buys nothing).
            let (clusters, missing, origin) = untrack(|| clustered_now(workspace, &rows, state.origin.get(), state.min_shared.get()));
            let sections = vec![groups_section(&rows), clusters_section(&clusters, missing)];
            let report = keyword_report(&rows, &country, &formula, &date, sections);
            Some((format!("keywords-{country}.html"), report, origin))
        });
        view! { <ReportButton testid="export-report" disabled=Signal::derive(move || state.rows.with(Vec::is_empty)) make=make /> }.into_any()
    }
);
