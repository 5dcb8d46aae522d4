//! The analyses of a domain's ranked keywords, each a tab of the domain page over the one
//! `ranked-keywords/domain` call (priced first when not bought, never bought twice): top
//! pages, cannibalised keywords and search intent. Each computes in `research` (which states
//! its rule, shown under the table), times itself (User Timing, read by the app benchmark)
//! and exports its rows as CSV. Position changes are in [`crate::components::ranked::position_changes`].

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::columns::{sorted_view, Column, SortCache, SortKey};
use crate::components::csv::{self, Cell, Origin};
use crate::components::priced_call::unreadable;
use crate::components::ranked::keywords::{ranked_keywords_of, short_url, RankedKeywordsData};
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{fmt_int, ExtLink, PricedCall, PricedCallCard, PricedCalls, ReportButton};
use crate::host::tabs;
use crate::research::brand;
use crate::research::cannibalisation::{self, Cannibalised};
use crate::research::ctr::{traffic_text, CURVE_RULE};
use crate::research::intent::{self, Intent, Intents};
use crate::research::report::intent::intent_report;
use crate::research::top_pages::{self, Page, Rows};
use crate::workspace::use_workspace;

/// A domain's ranked keywords as the analyses read them.
pub fn rows_of(d: &RankedKeywordsData) -> Rows<'_> {
    Rows {
        keyword: &d.keyword,
        lower: &d.lower,
        volume: &d.volume,
        rank: &d.rank,
        url: &d.url,
    }
}

/// Runs `f`, recording it as the User Timing measure `name`; its result and milliseconds.
pub fn timed<T>(name: &str, f: impl FnOnce() -> T) -> (T, f64) {
    let start = tabs::clock();
    let out = f();
    tabs::measure(name, start);
    (out, tabs::clock() - start)
}

/// Offers `text` as the CSV file `file` of rows from `origin`; a failure is a notice.
pub fn save_csv(file: &str, text: &str, origin: Origin) {
    if let Err(e) = csv::download(file, "text/csv", text, origin) {
        use_workspace().notice(format!("CSV export failed: {e}"));
    }
}

/// The card of an analysis over the domain's ranked keywords: the price and Get button until
/// they are bought, then `show` with the decoded rows.
fn analysis_card(
    call: PricedCall,
    id: &'static str,
    title: &'static str,
    show: impl Fn(Versioned<RankedKeywordsData>) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let decoded = ranked_keywords_of(call);
    let body = move || match decoded.get() {
        Some(Ok(d)) => show(d),
        Some(Err(e)) => unreadable(e),
        None => ().into_any(),
    };
    view! { <PricedCallCard calls=PricedCalls::one(call) id=id title=title what="ranked keywords" body=body /> }
}

/// The toolbar of an analysis: its count, CSV export and how long it took.
fn toolbar(
    testid: &'static str,
    count: String,
    rows: usize,
    ms: f64,
    export: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <div class="toolbar">
            <strong data-testid=format!("{testid}-count")>{count}</strong>
            <button type="button" class="secondary" data-testid=format!("{testid}-csv") disabled=rows == 0
                on:click=move |_| export()>{format!("Export CSV ({} rows)", fmt_int(rows as i64))}</button>
            <span class="meta" data-testid=format!("{testid}-timing")>{format!("computed in {ms:.0} ms")}</span>
        </div>
    }
}

/// The rule of an analysis, under its table.
fn rule(testid: &'static str, text: &'static str) -> impl IntoView {
    view! {
        <details class="meta rules" data-testid=format!("{testid}-rule")>
            <summary>"How this is computed"</summary>
            <p>{text}</p>
        </details>
    }
}

// ------------------------------------------------------------------------------------------
// Top pages
// ------------------------------------------------------------------------------------------

/// The pages with the sort orders of their table.
struct PagesData {
    pages: Vec<Page>,
    orders: SortCache,
}

const PAGE_COLUMNS: [Column<PagesData>; 6] = [
    Column {
        csv_header: Some("URL"),
        ..Column::new(
            "url",
            "Page",
            false,
            "minmax(14rem, 3fr)",
            |d, i| SortKey::text(&d.pages[i].url),
            Some(|d, i| Cell::text(&d.pages[i].url)),
        )
    },
    Column::new(
        "keywords",
        "Keywords",
        true,
        "6.5rem",
        |d, i| SortKey::int(d.pages[i].keywords as i64),
        Some(|d, i| Cell::num(d.pages[i].keywords as i64)),
    ),
    Column {
        csv_header: Some("Total volume"),
        ..Column::new(
            "volume",
            "Volume",
            true,
            "7rem",
            |d, i| SortKey::int(d.pages[i].volume),
            Some(|d, i| Cell::num(d.pages[i].volume)),
        )
    },
    Column {
        csv_header: Some("Est. traffic"),
        ..Column::new(
            "traffic",
            "Est. traffic",
            true,
            "7rem",
            |d, i| SortKey::num(d.pages[i].traffic),
            Some(|d, i| Cell::decimal(d.pages[i].traffic, 1)),
        )
    },
    Column::new(
        "best",
        "Top keyword",
        false,
        "minmax(10rem, 2fr)",
        |d, i| SortKey::text(&d.pages[i].best_keyword),
        Some(|d, i| Cell::text(&d.pages[i].best_keyword)),
    ),
    Column::new(
        "rank",
        "Its rank",
        true,
        "6rem",
        |d, i| SortKey::int(d.pages[i].best_rank),
        Some(|d, i| Cell::num(d.pages[i].best_rank)),
    ),
];

/// The domain's top pages tab.
pub fn top_pages_tab(call: PricedCall, name: Signal<String>) -> impl IntoView {
    analysis_card(call, "top-pages", "Top pages", move |d| {
        let curve = use_workspace()
            .settings
            .with_untracked(|s| s.ctr_curve.clone());
        let (pages, ms) = timed("serpkit:top-pages", || {
            top_pages::top_pages(rows_of(&d), &curve)
        });
        let sort = RwSignal::new(None);
        let origin = Signal::derive(move || call.origin());
        pages_table(pages, ms, name, sort, &TOP_PAGES, origin)
    })
}

/// The fixed texts of a table of pages: test ids, file name, rule, caption.
pub struct PagesText {
    /// Test id of the view (its count, CSV button, timing and rule are `{testid}-count`, …).
    pub testid: &'static str,
    /// Test id of the table.
    pub table: &'static str,
    /// The CSV file's name before `-{name}.csv`.
    pub file: &'static str,
    /// The rule shown under the table.
    pub rule: &'static str,
    /// The table's accessible name.
    pub caption: &'static str,
    /// Said when there is no page.
    pub empty: &'static str,
}

/// The domain's top pages.
const TOP_PAGES: PagesText = PagesText {
    testid: "tp",
    table: "tp-table",
    file: "top-pages",
    rule: top_pages::RULE,
    caption: "Pages by their estimated traffic",
    empty: "No ranking page.",
};

/// A table of pages (a domain's, or a gap's competitor pages) with its toolbar and rule;
/// `sort` is the caller's, so a table rebuilt for new pages keeps its order.
pub fn pages_table(
    pages: Vec<Page>,
    ms: f64,
    name: Signal<String>,
    sort: RwSignal<Option<(String, bool)>>,
    text: &'static PagesText,
    origin: Signal<Origin>,
) -> AnyView {
    let n = pages.len();
    let data = Versioned::new(PagesData {
        pages,
        orders: SortCache::new(PAGE_COLUMNS.len()),
    });
    let d = data.clone();
    let order = Memo::new(move |_| {
        Versioned::new(
            sort.with(|s| sorted_view(&d.orders, &PAGE_COLUMNS, &*d, n, s.as_ref(), None)),
        )
    });
    let d = data.clone();
    let render: RenderRow = Arc::new(move |i: u32| {
        let Some(p) = d.pages.get(i as usize) else {
            return ().into_any();
        };
        let (url, short) = (p.url.clone(), short_url(&p.url));
        let title = url.clone();
        view! {
            <div role="cell" class="vt-c url" title=title><ExtLink href=url>{short}</ExtLink></div>
            <div role="cell" class="vt-c num">{fmt_int(p.keywords as i64)}</div>
            <div role="cell" class="vt-c num">{fmt_int(p.volume)}</div>
            <div role="cell" class="vt-c num">{traffic_text(p.traffic)}</div>
            <div role="cell" class="vt-c">{p.best_keyword.clone()}</div>
            <div role="cell" class="vt-c num">{p.best_rank}</div>
        }
        .into_any()
    });
    let export = move || {
        let csv =
            order.with_untracked(|o| crate::components::columns::to_csv(&PAGE_COLUMNS, &*data, o));
        let file = format!("{}-{}.csv", text.file, name.get_untracked());
        save_csv(&file, &csv, origin.get_untracked());
    };
    let testid = text.testid;
    view! {
        <div class="analysis" data-testid=testid>
            {toolbar(testid, format!("{} pages", fmt_int(n as i64)), n, ms, export)}
            {if n == 0 {
                view! { <p class="empty" data-testid=format!("{testid}-none")>{text.empty}</p> }.into_any()
            } else {
                view! { <VirtualTable columns=PAGE_COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort caption=text.caption testid=text.table /> }.into_any()
            }}
            <details class="meta rules" data-testid=format!("{testid}-rule")>
                <summary>"How this is computed"</summary>
                <p>{text.rule}</p>
                <p data-testid=format!("{testid}-curve")>{CURVE_RULE}</p>
            </details>
        </div>
    }
    .into_any()
}

// ------------------------------------------------------------------------------------------
// Cannibalisation
// ------------------------------------------------------------------------------------------

/// One row per (keyword, URL) of the cannibalised keywords, keyword by keyword, as Semrush
/// lists them: each competing page on its own line.
struct CannibalData {
    found: Vec<Cannibalised>,
    /// (keyword index, URL index) per row.
    rows: Vec<(u32, u32)>,
    orders: SortCache,
}

impl CannibalData {
    fn at(&self, i: usize) -> (&Cannibalised, &(String, i64)) {
        let (k, u) = self.rows[i];
        let c = &self.found[k as usize];
        (c, &c.urls[u as usize])
    }
}

const CANNIBAL_COLUMNS: [Column<CannibalData>; 6] = [
    Column::keyword(
        "minmax(11rem, 2fr)",
        |d, i| SortKey::text(&d.at(i).0.keyword),
        Some(|d, i| Cell::text(&d.at(i).0.keyword)),
    ),
    Column::volume(
        |d, i| SortKey::int(d.at(i).0.volume),
        Some(|d, i| Cell::num(d.at(i).0.volume)),
    ),
    Column {
        csv_header: Some("URLs ranking"),
        ..Column::new(
            "urls",
            "URLs",
            true,
            "5rem",
            |d, i| SortKey::int(d.at(i).0.urls.len() as i64),
            Some(|d, i| Cell::num(d.at(i).0.urls.len() as i64)),
        )
    },
    Column::ranking_url(
        "minmax(14rem, 3fr)",
        |d, i| SortKey::text(&d.at(i).1 .0),
        Some(|d, i| Cell::text(&d.at(i).1 .0)),
    ),
    Column::new(
        "rank",
        "Rank",
        true,
        "5rem",
        |d, i| SortKey::int(d.at(i).1 .1),
        Some(|d, i| Cell::num(d.at(i).1 .1)),
    ),
    Column {
        csv_header: Some("Two URLs in the top 20"),
        ..Column::new(
            "triage",
            "Triage",
            true,
            "8rem",
            |d, i| SortKey::int(i64::from(d.at(i).0.top)),
            Some(|d, i| Cell::text(if d.at(i).0.top { "yes" } else { "no" })),
        )
    },
];

/// The domain's cannibalisation tab.
pub fn cannibalisation_tab(call: PricedCall, name: Signal<String>) -> impl IntoView {
    analysis_card(call, "cannibal", "Cannibalised keywords", move |d| {
        let (found, ms) = timed("serpkit:cannibalisation", || {
            cannibalisation::cannibalised(rows_of(&d))
        });
        cannibal_table(found, ms, name, Signal::derive(move || call.origin()))
    })
}

fn cannibal_table(
    found: Vec<Cannibalised>,
    ms: f64,
    name: Signal<String>,
    origin: Signal<Origin>,
) -> AnyView {
    let rows: Vec<(u32, u32)> = found
        .iter()
        .enumerate()
        .flat_map(|(k, c)| (0..c.urls.len()).map(move |u| (k as u32, u as u32)))
        .collect();
    let (keywords, n) = (found.len(), rows.len());
    let data = Versioned::new(CannibalData {
        found,
        rows,
        orders: SortCache::new(CANNIBAL_COLUMNS.len()),
    });
    let sort = RwSignal::new(None::<(String, bool)>);
    let d = data.clone();
    let order = Memo::new(move |_| {
        Versioned::new(
            sort.with(|s| sorted_view(&d.orders, &CANNIBAL_COLUMNS, &*d, n, s.as_ref(), None)),
        )
    });
    let d = data.clone();
    let render: RenderRow = Arc::new(move |i: u32| {
        if i as usize >= d.rows.len() {
            return ().into_any();
        }
        let (c, (url, rank)) = d.at(i as usize);
        let (url, short) = (url.clone(), short_url(url));
        let title = url.clone();
        view! {
            <div role="cell" class="vt-c kwc">{c.keyword.clone()}</div>
            <div role="cell" class="vt-c num">{fmt_int(c.volume)}</div>
            <div role="cell" class="vt-c num">{c.urls.len()}</div>
            <div role="cell" class="vt-c url" title=title><ExtLink href=url>{short}</ExtLink></div>
            <div role="cell" class="vt-c num">{*rank}</div>
            <div role="cell" class="vt-c">{c.top.then_some("Both in top 20")}</div>
        }
        .into_any()
    });
    let export = move || {
        let text = order
            .with_untracked(|o| crate::components::columns::to_csv(&CANNIBAL_COLUMNS, &*data, o));
        let file = format!("cannibalised-{}.csv", name.get_untracked());
        save_csv(&file, &text, origin.get_untracked());
    };
    view! {
        <div class="analysis" data-testid="cn">
            {toolbar("cn", format!("{} cannibalised keywords", fmt_int(keywords as i64)), n, ms, export)}
            {if n == 0 {
                view! { <p class="empty" data-testid="cn-none">"No keyword has two ranking URLs of this domain."</p> }.into_any()
            } else {
                view! { <VirtualTable columns=CANNIBAL_COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort caption="Keywords two or more pages rank for" testid="cn-table" /> }.into_any()
            }}
            {rule("cn", cannibalisation::RULE)}
        </div>
    }
    .into_any()
}

// ------------------------------------------------------------------------------------------
// Intent
// ------------------------------------------------------------------------------------------

/// The ranked keywords with their intents.
struct IntentData {
    rows: Versioned<RankedKeywordsData>,
    intents: Vec<Intents>,
    /// Each row's intents as text (sort key and CSV).
    text: Vec<String>,
    orders: SortCache,
}

/// Column `$c` of the ranked keywords' table read through [`IntentData::rows`]: the intent
/// table shows those columns as that table does (header, width, sort, CSV).
macro_rules! ranked_column {
    ($c:expr) => {{
        const C: Column<RankedKeywordsData> = crate::components::ranked::keywords::COLUMNS[$c];
        Column {
            id: C.id,
            label: C.label,
            numeric: C.numeric,
            width: C.width,
            key: |d: &IntentData, i| (C.key)(&d.rows, i),
            csv: Some(|d: &IntentData, i| C.csv.map_or_else(Cell::empty, |f| f(&d.rows, i))),
            csv_header: C.csv_header,
        }
    }};
}

const INTENT_COLUMNS: [Column<IntentData>; 5] = [
    ranked_column!(0), // keyword
    Column::new(
        "intent",
        "Intent",
        false,
        "minmax(9rem, 1.4fr)",
        |d, i| SortKey::text(&d.text[i]),
        Some(|d, i| Cell::text(&d.text[i])),
    ),
    ranked_column!(1), // volume
    ranked_column!(2), // rank
    ranked_column!(6), // url
];

/// The domain's intent tab: keywords per intent, a filter and the table.
pub fn intent_tab(call: PricedCall, name: Signal<String>) -> impl IntoView {
    analysis_card(call, "intent", "Search intent", move |d| {
        let brand = brand::terms(&brand::default_terms(&[name.get_untracked()]));
        let (intents, ms) = timed("serpkit:intent", || {
            d.lower
                .iter()
                .map(|k| intent::classify(k, &brand))
                .collect::<Vec<_>>()
        });
        let text = intents.iter().map(|i| i.text()).collect();
        intent_table(
            IntentData {
                rows: d,
                intents,
                text,
                orders: SortCache::new(INTENT_COLUMNS.len()),
            },
            ms,
            name,
            Signal::derive(move || call.origin()),
        )
    })
}

fn intent_table(
    data: IntentData,
    ms: f64,
    name: Signal<String>,
    origin: Signal<Origin>,
) -> AnyView {
    let n = data.intents.len();
    let dist = intent::distribution(&data.intents, &data.rows.volume);
    let data = Versioned::new(data);
    let only = RwSignal::new(None::<Intent>);
    let sort = RwSignal::new(None::<(String, bool)>);
    let d = data.clone();
    let order = Memo::new(move |_| {
        let mask: Option<Vec<bool>> = only
            .get()
            .map(|want| d.intents.iter().map(|i| i.has(want)).collect());
        Versioned::new(sort.with(|s| {
            sorted_view(
                &d.orders,
                &INTENT_COLUMNS,
                &*d,
                n,
                s.as_ref(),
                mask.as_deref(),
            )
        }))
    });
    let d = data.clone();
    let render: RenderRow = Arc::new(move |i: u32| {
        let i = i as usize;
        if i >= n {
            return ().into_any();
        }
        let url = d.rows.url[i].clone();
        let short = short_url(&url);
        let title = url.clone();
        // The intents' names joined ("Navigational, Commercial"), as the CSV and the report
        // write them.
        let intents = d.text[i].clone();
        view! {
            <div role="cell" class="vt-c kwc">{d.rows.keyword[i].clone()}</div>
            <div role="cell" class="vt-c" data-col="intent">{intents}</div>
            <div role="cell" class="vt-c num">{fmt_int(d.rows.volume[i])}</div>
            <div role="cell" class="vt-c num">{d.rows.rank[i]}</div>
            <div role="cell" class="vt-c url" title=title><ExtLink href=url>{short}</ExtLink></div>
        }
        .into_any()
    });
    let shown = move || order.with(|o| o.len());
    let csv_data = data.clone();
    let export = move |_| {
        let text = order
            .with_untracked(|o| crate::components::columns::to_csv(&INTENT_COLUMNS, &*csv_data, o));
        let file = format!("intent-{}.csv", name.get_untracked());
        save_csv(&file, &text, origin.get_untracked());
    };
    let report_data = data.clone();
    let make = Callback::new(move |_| {
        let (file, report) = intent_report(
            rows_of(&report_data.rows),
            &report_data.text,
            &dist,
            &name.get_untracked(),
            &order.get_untracked(),
        );
        Some((file, report, origin.get_untracked()))
    });
    view! {
        <div class="analysis" data-testid="in">
            <ul class="intent-dist" data-testid="in-dist" aria-label="Keywords per intent">
                {Intent::ALL.iter().map(|x| (x.id(), x.label())).chain([("none", "Unclassified")]).zip(dist).map(|((id, label), (count, volume))| view! {
                    <li data-testid=format!("in-dist-{id}")>
                        <strong>{label}</strong>{format!(" {} keywords · {} searches", fmt_int(count as i64), fmt_int(volume))}
                    </li>
                }).collect_view()}
            </ul>
            <div class="toolbar">
                <label class="f">
                    <span>"Intent"</span>
                    <select data-testid="in-filter" on:change=move |ev| only.set(Intent::from_id(&event_target_value(&ev)))>
                        <option value="">"Any intent"</option>
                        {Intent::ALL.iter().map(|x| view! { <option value=x.id()>{x.label()}</option> }).collect_view()}
                    </select>
                </label>
                <strong data-testid="in-count" aria-live="polite">{move || format!("{} of {} keywords", fmt_int(shown() as i64), fmt_int(n as i64))}</strong>
                <button type="button" class="secondary" data-testid="in-csv" disabled=move || shown() == 0 on:click=export>
                    {move || format!("Export CSV ({} rows)", fmt_int(shown() as i64))}</button>
                <ReportButton testid="in-report" disabled=Signal::derive(move || shown() == 0) make=make />
                <span class="meta" data-testid="in-timing">{format!("classified in {ms:.0} ms")}</span>
            </div>
            <Show when=move || { shown() > 0 }
                fallback=|| view! { <p class="empty" data-testid="in-none">"No keyword has this intent."</p> }>
                <VirtualTable columns=INTENT_COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort caption="Ranked keywords by search intent" testid="in-table" />
            </Show>
            <p class="meta rules" data-testid="in-rule">{intent::RULE}</p>
        </div>
    }
    .into_any()
}
