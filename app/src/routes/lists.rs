//! Keyword lists: create, view, remove keywords, delete, export CSV, research a list. Each
//! list shows the trends of its keywords from the search volume already bought (no call).

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops::search_volume_bulk::{self, SearchVolumeRecord};
use serpkit::Request;

use crate::components::keyword_row::{
    keywords_csv, score_rows, KeywordRow, TrendFilterFields, TrendFilterInputs,
};
use crate::components::{csv, current_month, fmt_int, fmt_time, DataTable, TableModel};
use crate::model::{parse_keywords, plural, KeywordList};
use crate::research::{intent, score, trends};
use crate::host::tabs;
use crate::workspace::{quote_now, use_workspace, Workspace};

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
fn list_rows(workspace: Workspace, source: &str, keywords: &[String], ccode: &str) -> Vec<ListRow> {
    let json = workspace.records.search_volume_json(source, ccode, keywords);
    let related = workspace
        .results
        .with(|m| row::related_records(m, source, ccode));
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
    // The source the rows are read from: what their export says (never the settings read
    // again at export time).
    let source = Memo::new(move |_| workspace.record_source());
    let trend_rows = Memo::new(move |_| source.with(|s| list_rows(workspace, s, &keywords, &ccode())));
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
    let price_list = list.keywords.clone();
    let coverage = move || {
        let (have, cc) = (trend_rows.with(Vec::len), ccode());
        // What "Research in explorer" would buy now: the search volume records not bought
        // yet (a keyword with figures from a related record only has none), priced as its
        // button will price them.
        let request = Request::SearchVolumeBulk(search_volume_bulk::Request {
            key: Default::default(),
            keywords: price_list.clone(),
            ccode: cc.clone(),
        });
        let quote = quote_now(workspace, &request, false);
        coverage_text(n, have, &cc, quote.units, &quote.usd.to_string())
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
        let origin = source.with_untracked(|s| csv::Origin::of_source(s));
        if let Err(e) = csv::download(&file, "text/csv", &text, origin) {
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

/// The list's coverage line: how many of its `n` keywords have figures (`have`, bought
/// for `cc` or with a related keyword), and what researching the list would buy now (`units`
/// search volume records for `price`; a keyword with related figures only has none yet).
fn coverage_text(n: usize, have: usize, cc: &str, units: u64, price: &str) -> String {
    let missing = n.saturating_sub(have);
    let buy = match units {
        0 => String::new(),
        1 => format!(" Research in explorer buys the 1 search volume not bought yet: {price}."),
        u => format!(" Research in explorer buys the {} search volumes not bought yet: {price}.", fmt_int(u as i64)),
    };
    if have == 0 {
        format!("No figures bought yet for these {} keywords in {cc}.{buy}", fmt_int(n as i64))
    } else if missing == 0 {
        format!("Figures for all {} keywords, already bought (no charge).{buy}", fmt_int(n as i64))
    } else {
        format!(
            "Figures for {} of {} keywords; {} not bought yet.{buy}",
            fmt_int(have as i64),
            fmt_int(n as i64),
            fmt_int(missing as i64)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::coverage_text;

    #[test]
    fn the_coverage_line_says_what_is_covered_and_what_the_rest_costs() {
        assert_eq!(
            coverage_text(50, 42, "US", 8, "$0.0800"),
            "Figures for 42 of 50 keywords; 8 not bought yet. Research in explorer buys the 8 search volumes not bought yet: $0.0800."
        );
        assert_eq!(
            coverage_text(3, 3, "US", 0, "$0.0000"),
            "Figures for all 3 keywords, already bought (no charge)."
        );
        assert_eq!(
            coverage_text(2, 0, "DE", 2, "$0.0200"),
            "No figures bought yet for these 2 keywords in DE. Research in explorer buys the 2 search volumes not bought yet: $0.0200."
        );
        assert_eq!(
            coverage_text(2, 1, "US", 1, "$0.0100"),
            "Figures for 1 of 2 keywords; 1 not bought yet. Research in explorer buys the 1 search volume not bought yet: $0.0100."
        );
    }
}
