//! Content gap (`/domain/gap?d=you.com,rival.com&list=missing`): your domain against one to
//! three competitors, from each domain's ranked keywords (`ranked-keywords/domain`, one call
//! per domain, stored results reused and only what is missing bought, price first). The lists
//! are computed in the browser (`research::gap`, which states the rules; brand terms from
//! `research::brand`). `&view=pages` shows the list grouped by competitor URL (`pages`).

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use serpkit::ops::ranked_keywords_domain;
use serpkit::Request;

use crate::components::columns::{sorted_view, Column, SortCache, SortKey};
use crate::components::csv::{self, Cell};
use crate::components::domain::nav::{domain_checks, parse_domains, DomainNav, LETTERS};
use crate::components::ranked::keywords::{ranked_keywords_of, short_url, RankedKeywordsData};
use crate::components::status::ExtLink;
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{
    fmt_int, fmt_time, AddToList, LoadEverything, PricedCall, PricedCallCard, PricedCalls,
    ReportButton,
};
use crate::paths::{enc, gap_route, keyword_route, use_page_query, GapQuery};
use crate::research::brand;
use crate::research::groups;
use crate::research::gap::{self, GapList, Ranked, MAX_COMPETITORS};
use crate::research::report::gap::gap_report;
use crate::workspace::{self, use_workspace, Workspace};

mod filters;
mod pages;
mod traffic;
mod view;

use filters::{Draft, GapFilter, GapFilters, GapSettings};
use view::{GapData, GapView};

/// Your domain and the competitors.
const SLOTS: usize = MAX_COMPETITORS + 1;

/// A rank as a sort key (none is a missing value).
fn rank_key(position: Option<&gap::Position>) -> SortKey<'static> {
    position.map_or(SortKey::Missing, |p| SortKey::int(p.rank))
}

/// Columns of a gap list's table (and its CSV).
const COLUMNS: [Column<GapView>; 10] = [
    Column::keyword(
        "minmax(12rem, 2fr)",
        |v, i| SortKey::text(&v.gap.lower[i]),
        Some(|v, i| Cell::text(&v.gap.keyword[i])),
    ),
    Column::volume(
        |v, i| SortKey::int(v.gap.volume[i]),
        Some(|v, i| Cell::num(v.gap.volume[i])),
    ),
    Column::new(
        "competition",
        "Competition",
        true,
        "7rem",
        |v, i| SortKey::num(v.gap.competition[i]),
        Some(|v, i| Cell::decimal(v.gap.competition[i], 2)),
    ),
    Column::new(
        "yours",
        "Your rank",
        true,
        "6rem",
        |v, i| rank_key(v.gap.yours[i].as_ref()),
        Some(|v, i| {
            v.gap.yours[i]
                .as_ref()
                .map_or_else(Cell::empty, |p| Cell::num(p.rank))
        }),
    ),
    Column::new(
        "best",
        "Best competitor",
        false,
        "minmax(9rem, 1fr)",
        |v, i| v.best_domain(i).map_or(SortKey::Missing, SortKey::text),
        Some(|v, i| Cell::text(v.best_domain(i).unwrap_or_default())),
    ),
    Column {
        csv_header: Some("Best competitor rank"),
        ..Column::new(
            "their",
            "Its rank",
            true,
            "5.5rem",
            |v, i| rank_key(v.gap.best_position(i)),
            Some(|v, i| {
                v.gap
                    .best_position(i)
                    .map_or_else(Cell::empty, |p| Cell::num(p.rank))
            }),
        )
    },
    Column {
        csv_header: Some("Best competitor URL"),
        ..Column::new(
            "url",
            "Its URL",
            false,
            "minmax(12rem, 2fr)",
            |v, i| {
                v.gap
                    .best_position(i)
                    .map_or(SortKey::Missing, |p| SortKey::text(&p.url))
            },
            Some(|v, i| {
                v.gap
                    .best_position(i)
                    .map_or_else(Cell::empty, |p| Cell::text(&p.url))
            }),
        )
    },
    traffic::GAIN,
    traffic::POTENTIAL,
    Column::new(
        "your_url",
        "Your URL",
        false,
        "minmax(10rem, 1fr)",
        |v, i| {
            v.gap.yours[i]
                .as_ref()
                .map_or(SortKey::Missing, |p| SortKey::text(&p.url))
        },
        Some(|v, i| {
            v.gap.yours[i]
                .as_ref()
                .map_or_else(Cell::empty, |p| Cell::text(&p.url))
        }),
    ),
];

/// Numeric filter text: `""` is open.
fn bound(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The content gap page.
#[component]
pub fn ContentGap() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_page_query::<GapQuery>();
    let navigate = use_navigate();
    let domains = Memo::new(move |_| {
        let mut d = q.with(|q| parse_domains(q.d.as_deref().unwrap_or_default()));
        d.truncate(SLOTS);
        d
    });
    let list = Memo::new(move |_| {
        q.with(|q| q.list.as_deref().and_then(GapList::from_id))
            .unwrap_or(GapList::Untapped)
    });
    let by_page = Memo::new(move |_| q.with(|q| q.view.as_deref() == Some("pages")));
    let yours_input = RwSignal::new(String::new());
    let rivals_input = RwSignal::new(String::new());
    Effect::new(move |_| {
        let d = domains.get();
        yours_input.set(d.first().cloned().unwrap_or_default());
        rivals_input.set(d.iter().skip(1).cloned().collect::<Vec<_>>().join(", "));
    });
    let brand = Draft::new(String::new());
    Effect::new(move |_| brand.reset(brand::default_terms(&domains.get())));
    let nav = StoredValue::new(navigate);
    let go = move |d: &[String], l: GapList| {
        nav.with_value(|n| {
            n(
                &list_route(d, l, by_page.get_untracked()),
                NavigateOptions {
                    scroll: false,
                    ..Default::default()
                },
            )
        });
    };
    let open = move || {
        let mut d = parse_domains(&yours_input.get_untracked());
        d.truncate(1);
        for r in parse_domains(&rivals_input.get_untracked()) {
            if !d.contains(&r) && d.len() < SLOTS {
                d.push(r);
            }
        }
        go(&d, list.get_untracked());
    };
    let route = Signal::derive(move || gap_route(&domains.get()));
    let calls: Vec<PricedCall> = (0..SLOTS)
        .map(|i| {
            let slot = move || domains.with(|d| d.get(i).cloned());
            PricedCall::new(
                workspace,
                route,
                Signal::derive(move || slot().unwrap_or_default()),
                move || {
                    slot().map(|domain| {
                        Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
                            key: Default::default(),
                            domain,
                        })
                    })
                },
            )
        })
        .collect();
    let checks = domain_checks(domains);
    let count = Signal::derive(move || domains.with(Vec::len));
    let body = ViewFn::from(gap_body(calls.clone(), domains, list, by_page, brand));
    let every_call = Signal::stored(calls.clone());
    let card_calls = PricedCalls::per_item(calls, count, "domain");
    let ready = move || domains.with(|d| d.len() >= 2);

    view! {
        <section class="page domain-page" aria-labelledby="gap-title">
            <DomainNav />
            <h1 id="gap-title">"Content gap"</h1>
            <form class="research slim" on:submit=move |ev| { ev.prevent_default(); open(); }>
                <div class="field">
                    <label for="gap-you">"Your domain"</label>
                    <input id="gap-you" data-testid="gap-you" spellcheck="false" autocomplete="off" placeholder="your-site.com"
                        prop:value=move || yours_input.get() on:input=move |ev| yours_input.set(event_target_value(&ev)) />
                </div>
                <div class="field grow">
                    <label for="gap-rivals">{format!("Competitors, up to {MAX_COMPETITORS}, separated by commas")}</label>
                    <input id="gap-rivals" data-testid="gap-rivals" spellcheck="false" autocomplete="off" placeholder="rival.com, other.com"
                        prop:value=move || rivals_input.get() on:input=move |ev| rivals_input.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <span class="label-spacer" aria-hidden="true">" "</span>
                    <button type="submit" class="secondary" data-testid="gap-open">"Show gap (free)"</button>
                </div>
            </form>
            <Show when=ready
                fallback=|| view! {
                    <div class="empty" data-testid="empty">
                        <h2>"What your competitors rank for and you do not"</h2>
                        <p>{format!(
                            "Enter your domain and one to three competitors. The gap is computed from each domain's ranked keywords ({} per domain, price shown before anything is bought); domains already bought are reused at no charge.",
                            ranked_keywords_domain::PRICE.usd.short_text(),
                        )}</p>
                    </div>
                }>
                <div class="detail-head">
                    <ul class="legend-chips" data-testid="gap-domains" aria-label="Compared domains">
                        {move || domains.get().into_iter().enumerate().map(|(i, d)| view! {
                            <li class=format!("chip dom{i}")>
                                <strong>{if i == 0 { "You".to_string() } else { LETTERS[i].to_string() }}</strong>" "{d}
                            </li>
                        }).collect_view()}
                    </ul>
                    <LoadEverything calls=every_call secondary=true blocked=Signal::derive(move || !checks.with(Vec::is_empty)) />
                </div>
                {move || checks.get().into_iter().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> }).collect_view()}
                <PricedCallCard calls=card_calls id="gap" title="Keyword gap" what="ranked keywords" body=body.clone() />
            </Show>
        </section>
    }
}

/// The lists, computed from the stored ranked keywords of every domain.
fn gap_body(
    calls: Vec<PricedCall>,
    domains: Memo<Vec<String>>,
    list: Memo<GapList>,
    by_page: Memo<bool>,
    brand: Draft,
) -> impl Fn() -> AnyView + Send + Sync + 'static {
    let workspace = use_workspace();
    let settings = GapSettings {
        brand,
        top: RwSignal::new(gap::DEFAULT_TOP),
        strike_from: Draft::new(gap::DEFAULT_STRIKING.0.to_string()),
        strike_to: Draft::new(gap::DEFAULT_STRIKING.1.to_string()),
        workspace,
    };
    let view_data = gap_data(&calls, domains, settings);
    let filter = GapFilter {
        text: RwSignal::new(String::new()),
        volume_min: RwSignal::new(String::new()),
        competition_max: RwSignal::new(String::new()),
        rivals: RwSignal::new(0),
        questions: RwSignal::new(false),
        sort: RwSignal::new(None),
    };
    let order = gap_order(view_data, list, filter);
    let shown_keywords = Signal::derive(move || {
        let (v, _, _) = view_data.get();
        order.with(|o| {
            o.iter()
                .map(|&i| v.gap.keyword[i as usize].clone())
                .collect::<Vec<_>>()
        })
    });
    let render = gap_row(view_data, workspace);
    // Where the rows came from: the stored results' sources (never the settings now).
    let origin_calls = calls.clone();
    let origin = Signal::derive(move || PricedCall::origin_of(&origin_calls));
    let export = move |_| export_csv(view_data, order, list, domains, workspace, origin.get_untracked());
    let file_name = Signal::derive(move || {
        let you = domains.with(|d| d.first().cloned().unwrap_or_default());
        format!("{you}-{}", list.get().id())
    });
    // The filters are made once, outside what the data re-renders: a domain arriving or a
    // recomputed gap never takes the focus from a filter being typed in.
    let rivals = Signal::derive(move || view_data.with(|(v, _, _)| v.domains.len().saturating_sub(1)));
    move || {
        let head = move || {
            let (v, loaded, _) = view_data.get();
            let counts: Vec<(GapList, usize)> = GapList::ALL
                .iter()
                .map(|&l| (l, v.gap.list(l).len()))
                .collect();
            let generic: Vec<String> = v.gap.brand_use.iter().filter_map(brand::generic_warning).collect();
            view! {
                {(!loaded).then(|| view! { <p class="meta warn" data-testid="gap-partial">"Some domains are not loaded: the lists count only the domains loaded."</p> })}
                {generic.into_iter().map(|w| view! { <p class="meta warn" data-testid="gap-brand-warning">{w}</p> }).collect_view()}
                <GapTabs counts=counts current=list.get() domains=domains by_page=by_page.get() />
            }
        };
        let render = render.clone();
        let rest = move || {
            let render = render.clone();
            let (v, _, elapsed) = view_data.get();
            let current = list.get();
            let pages = by_page.get();
            let branded = v.gap.branded;
            let in_list = v.gap.list(current).len();
            let rules = gap::rules_text(&v.options);
            view! {
                <div class="toolbar">
                    <strong data-testid="gap-count" aria-live="polite">{move || format!("{} keywords", fmt_int(order.with(|o| o.len()) as i64))}</strong>
                    <AddToList keywords=shown_keywords id="gap" />
                    <button type="button" class="secondary" data-testid="gap-csv" on:click=export
                        disabled=move || order.with(|o| o.is_empty())>
                        {move || format!("Export CSV ({} rows)", fmt_int(order.with(|o| o.len()) as i64))}
                    </button>
                    <ReportButton testid="gap-report" disabled=Signal::derive(|| false)
                        make=Callback::new(move |_| { let v = view_data.get_untracked().0; let (file, report) = gap_report(&v.gap, &v.domains, &v.options, &brand.applied.get_untracked(), &fmt_time(js_sys::Date::now())); Some((file, report, origin.get_untracked())) }) />
                    <span class="meta" data-testid="gap-timing">{format!("computed in {elapsed:.0} ms")}</span>
                </div>
                {traffic::voice_panel(view_data, order)}
                {if pages {
                    pages::competitor_pages(view_data, order, file_name, origin).into_any()
                } else {
                    view! {
                        <Show when=move || order.with(|o| !o.is_empty())
                            fallback=move || view! { <p class="empty" data-testid="gap-none">{none_text(current, in_list)}</p> }>
                            <VirtualTable columns=COLUMNS[..9].to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                                sort=filter.sort caption="Content gap keywords" testid="gap-table" />
                        </Show>
                    }.into_any()
                }}
                <details class="meta rules" data-testid="gap-rules">
                    <summary>"How the lists are computed"</summary>
                    <p>{rules}</p>
                    <p>{brand::BRAND_RULE}{format!(" Left out now: {}.", fmt_int(branded as i64))}</p>
                    <p>{groups::QUESTION_RULE}</p>
                </details>
            }
        };
        view! {
            <div class="gap" data-testid="gap">
                {head}
                <GapFilters filter=filter settings=settings rivals=rivals />
                {rest}
            </div>
        }
        .into_any()
    }
}

/// Says why a list shows no row: the list is empty, or the filters hide its `in_list` rows.
fn none_text(list: GapList, in_list: usize) -> String {
    if in_list == 0 {
        format!("No keywords in “{}”.", list.label())
    } else {
        format!(
            "No keywords in “{}” pass the filters ({} in the list).",
            list.label(),
            fmt_int(in_list as i64)
        )
    }
}

/// The gap of the loaded domains (brand terms left out), with whether all are loaded.
fn gap_data(
    calls: &[PricedCall],
    domains: Memo<Vec<String>>,
    settings: GapSettings,
) -> Memo<GapData> {
    let decoded: Vec<_> = calls.iter().map(|c| ranked_keywords_of(*c)).collect();
    Memo::new(move |_| {
        let n = domains.with(Vec::len);
        let data: Vec<Option<Versioned<RankedKeywordsData>>> = (0..SLOTS)
            .map(|i| {
                (i < n)
                    .then(|| decoded[i].with(|d| d.as_ref().and_then(|r| r.as_ref().ok().cloned())))
                    .flatten()
            })
            .collect();
        let options = settings.options();
        let t0 = workspace::now();
        // A competitor not loaded (yet) is `None`: not part of "every competitor".
        let competitors: Vec<Option<Ranked>> = data
            .iter()
            .take(n)
            .skip(1)
            .map(|d| d.as_deref().map(|d| ranked(Some(d))))
            .collect();
        let computed = gap::compute(ranked(data[0].as_deref()), &competitors, &options);
        let elapsed = workspace::now() - t0;
        let loaded = data.iter().take(n).all(Option::is_some);
        (
            Versioned::new(GapView {
                gap: computed,
                domains: domains.get(),
                options,
                orders: SortCache::new(COLUMNS.len()),
            }),
            loaded,
            elapsed,
        )
    })
}

/// The rows of the current list that pass the filters, in the table's sort order.
fn gap_order(
    view_data: Memo<GapData>,
    list: Memo<GapList>,
    f: GapFilter,
) -> Memo<Versioned<Vec<u32>>> {
    Memo::new(move |_| {
        let (v, _, _) = view_data.get();
        let t = f.text.get().trim().to_lowercase();
        let (v0, c1) = (
            bound(&f.volume_min.get()),
            gap::competition_bound(&f.competition_max.get()),
        );
        let rivals = f.rivals.get();
        let questions = f.questions.get();
        let g = &v.gap;
        let mut mask = vec![false; g.len()];
        for &i in g.list(list.get()) {
            let i = i as usize;
            mask[i] = (t.is_empty() || g.lower[i].contains(&t))
                && v0.is_none_or(|m| g.volume[i] as f64 >= m)
                && c1.is_none_or(|m| g.competition[i] <= m)
                && g.ranking_competitors(i) >= rivals
                && (!questions || groups::is_question(&g.lower[i]));
        }
        Versioned::new(sorted_view(
            &v.orders,
            &COLUMNS,
            &v,
            g.len(),
            f.sort.get().as_ref(),
            Some(&mask),
        ))
    })
}

/// A row of the gap table.
fn gap_row(view_data: Memo<GapData>, workspace: Workspace) -> RenderRow {
    Arc::new(move |i: u32| {
        let (v, _, _) = view_data.get_untracked();
        let i = i as usize;
        let g = &v.gap;
        let Some(kw) = g.keyword.get(i).cloned() else {
            return ().into_any();
        };
        let cc = workspace.settings.with_untracked(|s| s.ccode.clone());
        let best = g.best[i].zip(v.best_domain(i));
        let theirs = g.best_position(i).cloned();
        let rank =
            |p: Option<&gap::Position>| p.map_or_else(|| "–".to_string(), |p| p.rank.to_string());
        view! {
            <div role="cell" class="vt-c"><A href=keyword_route(&kw, &cc) attr:class="kw">{kw.clone()}</A></div>
            <div role="cell" class="vt-c num">{fmt_int(g.volume[i])}</div>
            <div role="cell" class="vt-c num">{format!("{:.2}", g.competition[i])}</div>
            <div role="cell" class="vt-c num">{rank(g.yours[i].as_ref())}</div>
            <div role="cell" class="vt-c">{best.map(|(s, d)| format!("{} {d}", LETTERS[s + 1])).unwrap_or_else(|| "–".into())}</div>
            <div role="cell" class="vt-c num">{rank(theirs.as_ref())}</div>
            <div role="cell" class="vt-c url">{theirs.map(|p| { let short = short_url(&p.url); view! { <ExtLink href=p.url>{short}</ExtLink> } })}</div>
            <div role="cell" class="vt-c num">{traffic::gain_cell(&v, i)}</div>
            <div role="cell" class="vt-c num">{traffic::potential_cell(&v, i)}</div>
        }
        .into_any()
    })
}

/// Downloads the shown rows as CSV (untracked reads: a click handler).
fn export_csv(
    view_data: Memo<GapData>,
    order: Memo<Versioned<Vec<u32>>>,
    list: Memo<GapList>,
    domains: Memo<Vec<String>>,
    workspace: Workspace,
    origin: csv::Origin,
) {
    let (v, _, _) = view_data.get_untracked();
    let l = list.get_untracked();
    let header: Vec<&str> = COLUMNS
        .iter()
        .filter(|c| c.csv.is_some())
        .map(|c| c.csv_header.unwrap_or(c.label))
        .collect();
    let rows = order.with_untracked(|o| {
        o.iter()
            .map(|&i| {
                COLUMNS
                    .iter()
                    .filter_map(|c| c.csv.map(|f| f(&v, i as usize)))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
    let you = domains.with_untracked(|d| d.first().cloned().unwrap_or_default());
    let name = format!("content-gap-{}-{}.csv", you, l.id());
    if let Err(e) = csv::download(&name, "text/csv", &csv::to_csv(&header, rows), origin) {
        workspace.notice(format!("CSV export failed: {e}"));
    }
}

/// One tab per list with its count, then the two views of the list (its keywords, or grouped
/// by competitor page); the current ones are marked.
#[component]
fn GapTabs(
    counts: Vec<(GapList, usize)>,
    current: GapList,
    domains: Memo<Vec<String>>,
    by_page: bool,
) -> impl IntoView {
    let view_link = |pages: bool, id: &'static str, label: &'static str| {
        view! {
            <A href=move || list_route(&domains.get(), current, pages) attr:data-testid=id
                attr:class=if pages == by_page { "tab active" } else { "tab" }
                attr:aria-current=(pages == by_page).then_some("page")>{label}</A>
        }
    };
    view! {
        <nav class="tabs" aria-label="Gap lists">
            {counts.into_iter().map(|(l, n)| view! {
                <A href=move || list_route(&domains.get(), l, by_page) attr:data-testid=format!("gap-tab-{}", l.id())
                    attr:class=if l == current { "tab active" } else { "tab" }
                    attr:aria-current=(l == current).then_some("page")>
                    {format!("{} ({})", l.label(), fmt_int(n as i64))}
                </A>
            }).collect_view()}
        </nav>
        <nav class="tabs" aria-label="Gap view">
            {view_link(false, "gap-view-keywords", "Keywords")}
            {view_link(true, "gap-view-pages", "By competitor page")}
        </nav>
    }
}

/// A domain's ranked keywords as the gap reads them (none: no rows).
fn ranked(data: Option<&RankedKeywordsData>) -> Ranked<'_> {
    data.map_or_else(Ranked::default, RankedKeywordsData::ranked)
}

/// The page's route showing `list`, grouped by competitor page when `by_page`.
fn list_route(domains: &[String], list: GapList, by_page: bool) -> String {
    let view = if by_page { "&view=pages" } else { "" };
    format!("{}&list={}{view}", gap_route(domains), enc(list.id()))
}
