//! The explorer's result: the stored one for the URL's keywords and country, decoded, scored
//! and filtered, and its view (table, toolbar, filters, rules) or the empty state.
//!
//! The page keeps only which result is shown ([`Results`]): the result's section (decoding,
//! rows, filters, table, CSV, lists) is code the empty explorer never runs, so it is a split
//! point in the `explorer_more` chunk (with the panels of `routes::keywords::panels`),
//! fetched when a result is first shown, and on Run alongside the call. The first load, the
//! landing page, stays the form and the empty state.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::SplitLoaderError;
use serpkit::ops::search_volume_bulk::{self, SearchVolumeRecord};
use serpkit::Request;

use super::filters::{filter_fields, Filters};
use super::panels::{lazily, ExplorerState, LazyClusters, LazyGroups, LazyReportButton};
use crate::components::keyword::row::{score_rows, KeywordRow};
use crate::components::{
    csv, current_month, fmt_int, AddToList, DataTable, ResultMeta, TableModel, ValidationPanel,
};
use crate::model::{parse_keywords, CallResult};
use crate::paths::{KeywordsQuery, PageQuery};
use crate::research::intent;
use crate::research::score;
use crate::research::trends;
use crate::workspace::{self, Call, Workspace};

/// Which result is shown. `Copy`.
#[derive(Clone, Copy)]
pub struct Results {
    /// The shown result's key: the one for the keywords and country in the URL.
    pub committed: Memo<Option<String>>,
    /// The shown result.
    pub shown: Memo<Option<CallResult>>,
}

impl Results {
    /// The result stored for the URL `q`.
    pub fn new(workspace: Workspace, q: PageQuery<KeywordsQuery>) -> Results {
        let committed = Memo::new(move |_| {
            let (kws, c) = q.with(|q| {
                (
                    parse_keywords(q.kw.as_deref().unwrap_or_default()),
                    country(q),
                )
            });
            (!kws.is_empty()).then(|| {
                let req = Request::SearchVolumeBulk(search_volume_bulk::Request {
                    key: Default::default(),
                    keywords: kws,
                    ccode: c,
                });
                workspace::cache_key(workspace, &req)
            })
        });
        let shown: Memo<Option<CallResult>> =
            Memo::new(move |_| committed.get().and_then(|k| workspace.result(&k)));
        Results { committed, shown }
    }
}

/// What the result's section reads from the page (context). `Copy`.
#[derive(Clone, Copy)]
pub struct ResultsPage {
    /// The workspace.
    pub workspace: Workspace,
    /// The URL's query (its country labels the rows).
    pub q: PageQuery<KeywordsQuery>,
    /// The shown result.
    pub res: Results,
    /// The filters.
    pub filters: Filters,
    /// Sort column and descending.
    pub sort: RwSignal<Option<(String, bool)>>,
    /// Run to rendered table, ms.
    pub elapsed: RwSignal<Option<f64>>,
    /// The keyword box's text.
    pub text: RwSignal<String>,
    /// The country picked.
    pub cc: RwSignal<String>,
}

/// The shown result's rows: decoded, labelled with the URL's country, scored. Decoding a
/// 10,000-keyword result takes over 100 ms, so they are built once per section and again
/// only when the score's weights change: a new result builds a new section
/// ([`results_or_empty`]), so the result is read untracked (tracked, the section being
/// replaced decoded the new result too, for nothing), and the URL and the settings change
/// for other reasons too (a finished job's route, a filter, the theme).
fn rows_of(page: ResultsPage) -> Memo<Vec<KeywordRow>> {
    let ResultsPage {
        workspace, q, res, ..
    } = page;
    // The country of the URL: the stored result's key holds the same one.
    let cc = Memo::new(move |_| q.with(country));
    let weights = Memo::new(move |_| workspace.settings.with(|s| s.score_weights));
    Memo::new(move |_| {
        res.shown.with_untracked(|r| {
            r.as_ref()
                .map(|r| {
                    let month = current_month();
                    let cc = cc.get();
                    let mut rows = serpkit::decode::<Vec<SearchVolumeRecord>>(&r.body)
                        .unwrap_or_default()
                        .iter()
                        .map(|rec| KeywordRow::from_record(rec, &cc, month))
                        .collect::<Vec<_>>();
                    weights.with(|w| score_rows(&mut rows, w));
                    rows
                })
                .unwrap_or_default()
        })
    })
}

/// Fetches the result section's code (a Run calls it so the chunk arrives with the answer).
pub fn preload_section() {
    spawn_local(async {
        let _ = load_section().await;
    });
}

/// The result's section, built from the page's [`ResultsPage`] (context) once its chunk is
/// here.
#[::leptos::wasm_split::wasm_split(explorer_more, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_section))]
fn render_section() -> Result<AnyView, SplitLoaderError> {
    Ok(untrack(|| match use_context::<ResultsPage>() {
        Some(page) => results_section(page).into_any(),
        None => ().into_any(),
    }))
}

/// The query's country, as the request has it.
fn country(q: &KeywordsQuery) -> String {
    q.cc.as_deref().unwrap_or_default().trim().to_uppercase()
}

/// Times Run to the rendered table into `elapsed`.
pub fn time_render(shown: Memo<Option<CallResult>>, call: Call, elapsed: RwSignal<Option<f64>>) {
    Effect::new(move |_| {
        if shown.with(Option::is_some) {
            if let Some(t0) = call.started.get_untracked() {
                call.started.set(None);
                request_animation_frame(move || elapsed.set(Some(workspace::now() - t0)));
            }
        }
    });
}

/// The result's section, or while there is none, the loading or empty state. Provides
/// `page` to the section (context). Each new result builds the section anew ([`rows_of`]
/// relies on it).
pub fn results_or_empty(page: ResultsPage, call: Call) -> impl IntoView {
    provide_context(page);
    let shown = page.res.shown;
    move || {
        if shown.with(Option::is_none) {
            return if call.loading.get() {
                view! { <p class="empty" data-testid="loading">"Fetching search volumes…"</p> }
                    .into_any()
            } else {
                view! {
                    <div class="empty" data-testid="empty">
                        <h2>"Start your research"</h2>
                        <p>"Paste or type keywords above, one per line, choose the country, and press Run. The price is shown on the button before anything is bought; results are saved in this browser and reopen without paying again."</p>
                    </div>
                }.into_any()
            };
        }
        lazily(load_section, render_section).into_any()
    }
}

/// The result: counts, timing, filters, toolbar, table and rules.
fn results_section(page: ResultsPage) -> impl IntoView {
    let ResultsPage {
        workspace,
        res,
        filters,
        sort,
        elapsed,
        text,
        cc,
        ..
    } = page;
    let shown = res.shown;
    let shown_sig = Signal::derive(move || shown.get());
    let rows = rows_of(page);
    let filtered = filters.apply(rows);
    let model = TableModel::new(filtered, sort);
    // The panels of this section (groups, report) read the rows shown.
    // The rows' origin: the shown result's source (never the settings now).
    let origin = Signal::derive(move || {
        shown.with(|r| r.as_ref().map(csv::origin_of_result).unwrap_or_default())
    });
    provide_context(ExplorerState {
        rows: filtered,
        keywords: text,
        country: cc,
        origin,
        min_shared: RwSignal::new(crate::research::serp_clusters::DEFAULT_MIN_SHARED),
    });
    let selected_keywords = Signal::derive(move || {
        model
            .selected_rows()
            .into_iter()
            .map(|r| r.keyword)
            .collect::<Vec<_>>()
    });
    let export = move |_| {
        let c = cc.get_untracked().to_uppercase();
        let file = format!("keywords-{c}.csv");
        if let Err(e) = csv::download(&file, "text/csv", &model.csv(), origin.get_untracked()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let clear_filters = filters.clear();
    view! {
        <section class="results" aria-labelledby="res-title">
            <div class="results-head">
                <h2 id="res-title">{move || format!("{} of {} keywords", fmt_int(filtered.with(Vec::len) as i64), fmt_int(rows.with(Vec::len) as i64))}</h2>
                <span class="meta" data-testid="timing">{move || elapsed.get().map(|ms| format!("rendered in {ms:.0} ms"))}</span>
            </div>
            <ResultMeta result=shown_sig />
            {filter_fields(filters)}
            <div class="toolbar">
                <AddToList keywords=selected_keywords id="kx" />
                <button type="button" class="secondary" data-testid="export-csv" on:click=export
                    disabled=move || filtered.with(Vec::is_empty)>
                    {move || format!("Export CSV ({} rows)", filtered.with(Vec::len))}
                </button>
                <LazyReportButton />
            </div>
            <Show when=move || !filtered.with(Vec::is_empty)
                fallback=move || view! { <p class="empty" data-testid="no-match">"No keywords match these filters. " <button type="button" class="linklike" on:click=clear_filters>"Clear filters"</button></p> }>
                <DataTable model=model caption="Search volume by keyword" testid="kw-table" selectable=true />
            </Show>
            <details class="meta rules" data-testid="trend-rules">
                <summary>"How trends, seasons, intent, questions and the opportunity score are computed"</summary>
                <p>{trends::CHANGE_RULE}</p>
                <p data-testid="season-rule">{trends::SEASON_RULE}</p>
                <p data-testid="intent-rule">{intent::RULE}" "{intent::NO_BRAND_NOTE}</p>
                <p data-testid="question-rule">"Questions only: "{crate::research::groups::QUESTION_RULE}</p>
                <p data-testid="score-formula">{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}" Weights: Settings."</p>
            </details>
            <LazyGroups />
            <LazyClusters />
            <ValidationPanel result=shown_sig />
        </section>
    }
}
