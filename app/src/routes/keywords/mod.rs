//! The keyword explorer: paste keywords, see the price, run `search_volume/bulk` (in chunks,
//! with progress and cancel), then sort, filter, select, add to lists and export CSV.
//! The keywords, country, sort and filters live in the URL (never the key).
//!
//! The page composes its jobs: the URL state ([`query`]), the filters ([`filters`]), the priced
//! form over the typed keywords ([`run`]), the input form ([`form`]) and the shown result ([`results`]).

mod clusters;
mod clusters_buy;
mod clusters_table;
mod filters;
mod form;
mod groups;
mod import;
mod panels;
mod query;
mod results;
mod run;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::components::{ErrorBox, ProgressBar};
use crate::paths::{use_page_query, KeywordsQuery};
use crate::store;
use crate::workspace::use_workspace;
use panels::{ExplorerState, LazyImport};

pub use form::CountrySelect;
pub use query::LAST_VIEW_KEY;

use form::research_form;
use query::ViewState;
use results::{preload_section, results_or_empty, time_render, Results, ResultsPage};
use run::keywords_form;

/// The keyword explorer page.
#[component]
pub fn Keywords() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_page_query::<KeywordsQuery>();
    let navigate = use_navigate();
    // Coming back without inputs in the URL (the "Keywords" link): reopen the last view.
    let state = ViewState::open(workspace, q, &navigate);
    let ViewState {
        text, cc, filters, ..
    } = state;
    let elapsed = RwSignal::new(None::<f64>);
    let form = keywords_form(workspace, text, cc);
    let res = Results::new(workspace, q);
    // For the import panel; the result's section provides its rows to its own panels.
    provide_context(ExplorerState {
        rows: Signal::derive(Vec::new),
        keywords: text,
        country: cc,
        origin: Signal::derive(Default::default),
        min_shared: RwSignal::new(crate::research::serp_clusters::DEFAULT_MIN_SHARED),
    });
    let import_opened = RwSignal::new(false);
    // After the restore above: the write-back starts from the reopened view.
    state.mirror_in_url(q, navigate);
    time_render(res.shown, form.call, elapsed);
    let on_run = Callback::new(move |_| {
        elapsed.set(None);
        preload_section();
    });
    // The shown route is also the last view, reopened by the "Keywords" link.
    let on_shown = Callback::new(move |route: String| store::local_set(LAST_VIEW_KEY, &route));

    view! {
        <section aria-labelledby="kx-title" class="page">
            <h1 id="kx-title">"Keyword explorer"</h1>
            {research_form(form, text, cc, res.committed, on_run, on_shown)}
            <details class="import" data-testid="import">
                <summary data-testid="import-open" on:click=move |_| import_opened.set(true)>"Import keywords from a file or a paste"</summary>
                <Show when=move || import_opened.get()><LazyImport /></Show>
            </details>
            <ProgressBar call=form.call />
            <ErrorBox call=form.call />
            {results_or_empty(ResultsPage { workspace, q, res, filters, sort: state.sort, elapsed, text, cc }, form.call)}
        </section>
    }
}
