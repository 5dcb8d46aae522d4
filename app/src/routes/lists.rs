//! Keyword lists: create, view, remove keywords, delete, export CSV, research a list. Each
//! list shows the trends of its keywords from the search volume already bought (no call).

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops::search_volume_bulk::SearchVolumeRecord;

use crate::components::keyword_row::{
    keywords_csv, score_rows, KeywordRow, TrendFilterFields, TrendFilterInputs,
};
use crate::components::{csv, current_month, fmt_int, fmt_time, DataTable, TableModel};
use crate::model::{parse_keywords, plural, KeywordList};
use crate::research::{intent, score, trends};
use crate::workspace::calls::tabs;
use crate::workspace::{use_workspace, Workspace};

mod row;
use row::ListRow;

/// Numbers the list cards, so each card's form fields have ids of their own.
static CARDS: AtomicUsize = AtomicUsize::new(0);

/// Keywords shown as removable chips until "Show all": a list of 50,000 keywords would be
/// 50,000 buttons built at once; the CSV export and the explorer have them all.
const CHIPS_SHOWN: usize = 500;

/// The keyword lists page.
#[component]
pub fn Lists() -> impl IntoView {
    let workspace = use_workspace();
    let name = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let create = move |_| {
        let n = name.get_untracked();
        if n.trim().is_empty() {
            return;
        }
        let keywords = parse_keywords(&text.get_untracked());
        // A User Timing measure of the add alone, read by the app benchmark (bench/app).
        let started = tabs::clock();
        workspace.add_to_list(&n, &keywords);
        tabs::measure("serpkit:list-add", started);
        name.set(String::new());
        text.set(String::new());
    };
    view! {
        <section class="page" aria-labelledby="lists-title">
            <h1 id="lists-title">"Keyword lists"</h1>
            <Show when=move || workspace.lists.with(Vec::is_empty) && workspace.loaded.get()>
                <div class="empty" data-testid="lists-empty">
                    <p>"No lists yet. Select rows in the "<A href="/keywords">"keyword explorer"</A>" or among related keywords and add them to a list, or create one here."</p>
                </div>
            </Show>
            <div class="lists">
                <For each=move || workspace.lists.get() key=|l| (l.name.clone(), l.keywords.len(), l.updated.to_bits()) let:list>
                    <ListCard list=list />
                </For>
            </div>
            <details class="card">
                <summary>"New list"</summary>
                <div class="field">
                    <label for="new-list-name">"Name"</label>
                    <input id="new-list-name" data-testid="new-list-name" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                    <label for="new-list-kws">"Keywords, one per line"</label>
                    <textarea id="new-list-kws" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    <button type="button" data-testid="create-list" on:click=create>"Create list"</button>
                </div>
            </details>
        </section>
    }
}

/// The list's rows: each keyword with the figures bought with it, from its search volume
/// record for the workspace's country `ccode`, else from a related keyword record (with that
/// record's country); its keyword difficulty from a related record of the same country. The
/// score as the explorer's (`score_rows`). Keywords with no figures bought have no row.
fn list_rows(workspace: Workspace, keywords: &[String], ccode: &str) -> Vec<ListRow> {
    let json = workspace
        .records
        .search_volume_json(&workspace.record_source(), ccode, keywords);
    let related = workspace
        .results
        .with(|m| row::related_records(m, &workspace.record_source(), ccode));
    let month = current_month();
    let mut seen = HashSet::new();
    let mut rows: Vec<KeywordRow> = Vec::new();
    let mut kd: Vec<Option<i64>> = Vec::new();
    for (k, j) in keywords.iter().zip(json) {
        let key = serpkit::records::normalize_keyword(k);
        if seen.contains(&key) {
            continue;
        }
        let bought = j.and_then(|j| serpkit::decode::<SearchVolumeRecord>(&j).ok());
        let rel = related.get(&key);
        let row = match (bought, rel) {
            (Some(r), _) => {
                let same_country = rel.filter(|(_, cc)| cc.eq_ignore_ascii_case(ccode));
                kd.push(same_country.map(|(r, _)| r.kd));
                KeywordRow::from_record(&r, ccode, month)
            }
            (None, Some((r, cc))) => {
                let from = row::from_related(r, cc);
                kd.push(from.kd);
                from.row
            }
            (None, None) => continue,
        };
        seen.insert(key);
        rows.push(row);
    }
    workspace
        .settings
        .with(|s| score_rows(&mut rows, &s.score_weights));
    rows.into_iter()
        .zip(kd)
        .map(|(row, kd)| ListRow { row, kd })
        .collect()
}

#[component]
fn ListCard(list: KeywordList) -> impl IntoView {
    let workspace = use_workspace();
    let n = list.keywords.len();
    let research = crate::paths::keywords_route(
        &list.keywords,
        &workspace.settings.with_untracked(|s| s.ccode.clone()),
    );
    let name = list.name.clone();

    // Trends of the list's keywords, from the search volume records bought for the
    // workspace's country (Settings), else the related keyword records bought with them
    // ([`list_rows`]): the explorer's columns with keyword difficulty and country. Decided: a
    // list keeps no country, so the workspace's is the one preferred (the one "Research in
    // explorer" uses), and each row says its own.
    let keywords = list.keywords.clone();
    let ccode = move || workspace.settings.with(|s| s.ccode.clone());
    let trend_rows = Memo::new(move |_| list_rows(workspace, &keywords, &ccode()));
    let trend = TrendFilterInputs::new(Default::default());
    let shown = Signal::derive(move || {
        trend_rows.with(|rows| {
            rows.iter()
                .filter(|r| trend.keeps(&r.row))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let model = TableModel::new(shown, RwSignal::new(None));
    let card = CARDS.fetch_add(1, Ordering::Relaxed);
    let coverage = move || {
        let (have, cc) = (trend_rows.with(Vec::len), ccode());
        if have == 0 {
            format!("No search volume bought yet for these keywords in {cc}: research the list in the explorer to see volumes, trends and seasons here.")
        } else if have >= n {
            format!("Trends of all {n} keywords, from search volume already bought for {cc} (no charge).")
        } else {
            format!("Trends of {have} of {n} keywords, from search volume already bought for {cc} (no charge); research the list in the explorer to add the others.")
        }
    };

    let export_list = list.clone();
    let export = move |_| {
        let file = format!(
            "list-{}.csv",
            export_list
                .name
                .replace(|c: char| !c.is_alphanumeric(), "-")
        );
        let text = trend_rows.with_untracked(|rows| keywords_csv(&export_list.keywords, rows));
        if let Err(e) = csv::download(&file, "text/csv", &text) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let del_name = name.clone();
    let confirm = RwSignal::new(false);
    let all_chips = RwSignal::new(false);
    let more_chips = move || n > CHIPS_SHOWN && !all_chips.get();
    let chips_list = list.clone();
    let chips = move || {
        let shown = if all_chips.get() {
            n
        } else {
            n.min(CHIPS_SHOWN)
        };
        chips_list.keywords[..shown]
            .iter()
            .map(|k| {
                // The list is looked up when clicked: a copy per chip would be quadratic.
                let (list_name, k2) = (chips_list.name.clone(), k.clone());
                view! {
                    <li class="chip"><span data-testid="list-keyword">{k.clone()}</span>
                        <button type="button" class="x" aria-label=format!("Remove {k} from the list")
                            on:click=move |_| workspace.remove_from_list(&list_name, &k2)>"×"</button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <article class="card list" data-testid="list" data-name=name.clone() aria-label=format!("List {name}")>
            <div class="card-head">
                <h2>{name.clone()}</h2>
                <span class="meta" data-testid="list-count">{format!("{n} keyword{}", plural(n))}</span>
                <span class="meta">{format!("changed {}", fmt_time(list.updated))}</span>
            </div>
            <ul class="chips">{chips}</ul>
            <Show when=more_chips>
                <p class="meta" data-testid="list-more">
                    {format!("{} more keywords are not shown here (the CSV export and “Research in explorer” have them all). ", fmt_int((n - CHIPS_SHOWN) as i64))}
                    <button type="button" class="secondary" data-testid="list-show-all" on:click=move |_| all_chips.set(true)>{format!("Show all {}", fmt_int(n as i64))}</button>
                </p>
            </Show>
            <div class="list-trends">
                <p class="meta" data-testid="list-coverage">{coverage}</p>
                <Show when=move || !trend_rows.with(Vec::is_empty)>
                    <fieldset class="filters">
                        <legend class="sr-only">"Filter the list's keywords"</legend>
                        <TrendFilterFields inputs=trend testid_prefix="l-" id_prefix=format!("list{card}-") />
                    </fieldset>
                    <DataTable model=model caption="Volume, trends and seasons of the list's keywords" testid="list-table" />
                    <details class="meta rules">
                        <summary>"How trends, seasons, intent and the opportunity score are computed"</summary>
                        <p>{trends::CHANGE_RULE}</p>
                        <p>{trends::SEASON_RULE}</p>
                        <p data-testid="list-intent-rule">{intent::RULE}" "{intent::NO_BRAND_NOTE}</p>
                        <p>{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}" Weights: Settings."</p>
                    </details>
                </Show>
            </div>
            <div class="toolbar">
                <A href=research attr:class="button" attr:data-testid="research-list">"Research in explorer"</A>
                <button type="button" class="secondary" on:click=export>"Export CSV"</button>
                <Show when=move || !confirm.get() fallback=move || {
                    let d = del_name.clone();
                    view! {
                        <span>"Delete this list? "</span>
                        <button type="button" class="danger" data-testid="confirm-delete" on:click=move |_| workspace.delete_list(&d)>"Delete"</button>
                        <button type="button" class="secondary" on:click=move |_| confirm.set(false)>"Keep"</button>
                    }
                }>
                    <button type="button" class="secondary" data-testid="delete-list" on:click=move |_| confirm.set(true)>"Delete list"</button>
                </Show>
            </div>
        </article>
    }
}
