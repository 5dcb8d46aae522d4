//! The related keywords section: its table (scored with the workspace's weights), the
//! selection to add to a list or research in the explorer, and the rows shown as CSV (the
//! questions only, when ticked).

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use serpkit::ops::related::RelatedKeyword;

use crate::components::csv::{self, Cell};
use crate::components::keyword::row::{score_column, score_text, Scored};
use crate::components::{
    fmt_cpc, fmt_int, AddToList, Column, DataTable, PricedCall, PricedCallCard, PricedCalls,
    SortKey, TableModel, TableRow,
};
use crate::paths::{keyword_route, keywords_route};
use crate::research::{groups, score};
use crate::workspace::Workspace;

/// A related keyword row.
#[derive(Clone, Debug, PartialEq)]
pub struct RelatedRow {
    r: RelatedKeyword,
    ccode: String,
    /// The opportunity score, the same as the explorer's for the same figures (difficulty is
    /// not part of it: `research::score`).
    score: Option<f64>,
}

impl Scored for RelatedRow {
    fn score(&self) -> Option<f64> {
        self.score
    }
}

impl TableRow for RelatedRow {
    fn id(&self) -> String {
        self.r.keyword.clone()
    }
    fn columns() -> Vec<Column<[Self]>> {
        vec![
            Column {
                id: "keyword",
                label: "Keyword",
                numeric: false,
                width: "",
                key: |rows, i| SortKey::text(&rows[i].r.keyword),
                csv: Some(|rows, i| Cell::text(&rows[i].r.keyword)),
                csv_header: None,
            },
            Column {
                id: "volume",
                label: "Volume",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].r.search_volume),
                csv: Some(|rows, i| Cell::num(rows[i].r.search_volume)),
                csv_header: None,
            },
            Column {
                id: "kd",
                label: "KD",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].r.kd),
                csv: Some(|rows, i| Cell::num(rows[i].r.kd)),
                csv_header: None,
            },
            Column {
                id: "cpc",
                label: "CPC",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].r.cpc),
                csv: Some(|rows, i| Cell::decimal(rows[i].r.cpc, 2)),
                csv_header: None,
            },
            Column {
                id: "competition",
                label: "Ads competition",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].r.competition),
                csv: Some(|rows, i| Cell::decimal(rows[i].r.competition, 2)),
                csv_header: None,
            },
            score_column(),
        ]
    }
    fn cells(&self) -> AnyView {
        let href = keyword_route(&self.r.keyword, &self.ccode);
        let kw = self.r.keyword.clone();
        view! {
            <td><A href=href attr:class="kw" attr:title="Research this keyword">{kw}</A></td>
            <td class="num">{fmt_int(self.r.search_volume)}</td>
            <td class="num"><span class="kd" style=format!("--kd:{}", self.r.kd.clamp(0, 100))>{self.r.kd}</span></td>
            <td class="num">{fmt_cpc(self.r.cpc)}</td>
            <td class="num">{format!("{:.2}", self.r.competition)}</td>
            <td class="num" data-col="score">{score_text(self.score)}</td>
        }
        .into_any()
    }
}
/// The related keywords' state. Made by the page, outside its `Show`, so the table's sort and
/// selection outlive the keyword being cleared.
#[derive(Clone, Copy)]
pub(super) struct Related {
    workspace: Workspace,
    call: PricedCall,
    /// The keyword they are related to (the CSV's name).
    kw: Memo<String>,
    cc: Memo<String>,
    rows: Signal<Vec<RelatedRow>>,
    model: TableModel<RelatedRow>,
    /// The keywords of the selected rows.
    selected: Signal<Vec<String>>,
    /// Show questions only (`research::groups::is_question`).
    questions: RwSignal<bool>,
}

impl Related {
    /// The table over the result of `call` (keywords of country `cc`).
    pub(super) fn new(
        workspace: Workspace,
        call: PricedCall,
        kw: Memo<String>,
        cc: Memo<String>,
    ) -> Related {
        let related_keywords = call.decoded::<Vec<RelatedKeyword>>();
        let questions = RwSignal::new(false);
        let rows = Signal::derive(move || {
            let only_questions = questions.get();
            related_keywords.with(|r| match r {
                Some(Ok(list)) => {
                    let metrics: Vec<score::Metrics> = list
                        .iter()
                        .map(score::Metrics::of_related)
                        .collect();
                    let scores = workspace
                        .settings
                        .with(|s| score::scores(&metrics, &s.score_weights));
                    list.iter()
                        .zip(scores)
                        .filter(|(r, _)| !only_questions || groups::is_question(&r.keyword))
                        .map(|(r, score)| RelatedRow {
                            r: r.clone(),
                            ccode: cc.get(),
                            score,
                        })
                        .collect::<Vec<_>>()
                }
                _ => Vec::new(),
            })
        });
        let sort = RwSignal::new(Some(("volume".to_string(), true)));
        let model = TableModel::new(rows, sort);
        let selected = Signal::derive(move || {
            model
                .selected_rows()
                .into_iter()
                .map(|r| r.r.keyword)
                .collect::<Vec<_>>()
        });
        Related {
            workspace,
            call,
            kw,
            cc,
            rows,
            model,
            selected,
            questions,
        }
    }
}

/// The related keywords card: the selection's toolbar, the table and the score's formula.
#[component]
pub(super) fn RelatedCard(related: Related) -> impl IntoView {
    let Related {
        workspace,
        call,
        kw,
        cc,
        rows,
        model,
        selected,
        questions,
    } = related;
    let nav = StoredValue::new(use_navigate());
    let research_selected = move |_| {
        let ks = selected.get_untracked();
        if !ks.is_empty() {
            nav.with_value(|n| {
                n(
                    &keywords_route(&ks, &cc.get_untracked()),
                    Default::default(),
                )
            });
        }
    };
    // The rows shown, labelled by the stored result's source.
    let export = move |_| {
        let what = if questions.get_untracked() { "related-questions" } else { "related" };
        let file = format!("{what}-{}.csv", kw.get_untracked());
        if let Err(e) = csv::download(&file, "text/csv", &model.csv(), call.origin()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    view! {
        <PricedCallCard calls=PricedCalls::one(call) id="related" title="Related keywords" what="related keywords" body=move || view! {
            <div class="toolbar">
                <AddToList keywords=selected id="rel" />
                <button type="button" class="secondary" data-testid="research-selected"
                    disabled=move || selected.with(Vec::is_empty) on:click=research_selected>
                    {move || format!("Research {} in explorer", selected.with(Vec::len))}
                </button>
                <label class="check" title=groups::QUESTION_RULE><input type="checkbox" data-testid="related-questions"
                    prop:checked=move || questions.get() on:change=move |ev| questions.set(event_target_checked(&ev)) />
                    " Questions only"</label>
                <button type="button" class="secondary" data-testid="related-csv" on:click=export
                    disabled=move || rows.with(Vec::is_empty)>
                    {move || format!("Export CSV ({} rows)", fmt_int(rows.with(Vec::len) as i64))}
                </button>
            </div>
            <Show when=move || !rows.with(Vec::is_empty) fallback=move || view! { <p class="meta">{move || if questions.get() { "No related keyword is a question." } else { "No related keywords." }}</p> }>
                <DataTable model=model caption="Related keywords" testid="related-table" selectable=true />
                <p class="meta" data-testid="related-score-formula">{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}" Weights: Settings."</p>
                {move || questions.get().then(|| view! { <p class="meta" data-testid="related-question-rule">"Questions only: "{groups::QUESTION_RULE}</p> })}
            </Show>
        } />
    }
}
