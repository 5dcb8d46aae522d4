//! One domain (`/domain?d=example.com&tab=overview|backlinks|keywords`): authority card
//! (`domainstats`) and rank-range distribution (`ranked-keywords/metrics`) on the overview,
//! the backlink overview (`backlink/overview`), and the ranked keywords table
//! (`ranked-keywords/domain`). Each section shows its price and runs on its own click; stored
//! results open without a call. The keyword table's filters and sort live in the URL.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use serpkit::ops::backlink_overview::{self, DomainOverview};
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::ops::ranked_keywords_domain::{self, RankedKeyword};
use serpkit::ops::ranked_keywords_metrics::{self, RankedKeywordsMetrics};
use serpkit::{Request, Usd};

use super::domain_backlinks::BacklinkOverviewView;
use super::domain_keywords::{
    RankedKeywordsData, RankedKeywordsFilter, RankedKeywordsState, RankedKeywordsTable,
};
use super::domains::{normalize_domain, operation_card, unreadable, DomainNav, DomainOperation};
use crate::components::domain_card::DomainCard;
use crate::components::domain_charts::RankChart;
use crate::components::fmt_int;
use crate::components::virtual_table::Shared;
use crate::paths::{compare_route, domain_route, enc};
use crate::workspace::{use_workspace, Workspace};

/// The tabs: (id, label).
pub const TABS: [(&str, &str); 3] = [
    ("overview", "Overview"),
    ("backlinks", "Backlinks"),
    ("keywords", "Ranked keywords"),
];

/// The decoded ranked keywords of an operation's stored result, in columns.
pub fn ranked_keywords_data(
    workspace: Workspace,
    operation: DomainOperation,
) -> Memo<Option<Result<Shared<RankedKeywordsData>, String>>> {
    Memo::new(move |_| {
        let (key, _) = operation.ident.get()?;
        workspace.results.with_untracked(|m| {
            m.get(&key).map(|r| {
                serpkit::decode::<Vec<RankedKeyword>>(&r.body)
                    .map(|v| Shared::new(RankedKeywordsData::from_records(v)))
                    .map_err(|e| e.to_string())
            })
        })
    })
}

/// The domain page.
#[component]
pub fn DomainDetail() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_query_map();
    let navigate = use_navigate();
    let qget = move |k: &str| q.with_untracked(|m| m.get(k)).unwrap_or_default();
    let domain = Memo::new(move |_| normalize_domain(&q.with(|m| m.get("d")).unwrap_or_default()));
    let tab = Memo::new(move |_| {
        let t = q.with(|m| m.get("tab")).unwrap_or_default();
        if TABS.iter().any(|(id, _)| *id == t) {
            t
        } else {
            "overview".to_string()
        }
    });
    let input = RwSignal::new(domain.get_untracked());
    Effect::new(move |_| input.set(domain.get()));

    let with_domain = move |f: fn(String) -> Request| {
        move || {
            let d = domain.get();
            (!d.is_empty()).then(|| f(d))
        }
    };
    let stats = DomainOperation::new(
        workspace,
        with_domain(|d| {
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: vec![d],
            })
        }),
    );
    let ranked_keywords_metrics = DomainOperation::new(
        workspace,
        with_domain(|d| {
            Request::RankedKeywordsMetrics(ranked_keywords_metrics::Request {
                key: Default::default(),
                domain: d,
            })
        }),
    );
    let overview = DomainOperation::new(
        workspace,
        with_domain(|d| {
            Request::BacklinkOverview(backlink_overview::Request {
                key: Default::default(),
                domain: d,
            })
        }),
    );
    let ranked_keywords = DomainOperation::new(
        workspace,
        with_domain(|d| {
            Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
                key: Default::default(),
                domain: d,
            })
        }),
    );
    let check = Memo::new(move |_| {
        let d = domain.get();
        (!d.is_empty())
            .then(|| {
                serpkit::ops::check::domain("/domain", &d)
                    .err()
                    .map(|e| e.to_string())
            })
            .flatten()
    });

    // Ranked keyword table state, mirrored in the URL.
    let ranked_keywords_state = RankedKeywordsState {
        filter: RwSignal::new(RankedKeywordsFilter {
            text: qget("q"),
            vmin: qget("vmin"),
            vmax: qget("vmax"),
            rmin: qget("rmin"),
            rmax: qget("rmax"),
            cmin: qget("cmin"),
            cmax: qget("cmax"),
        }),
        sort: RwSignal::new({
            let s = qget("sort");
            (!s.is_empty()).then(|| (s, qget("dir") != "asc"))
        }),
    };
    let nav = StoredValue::new(navigate);
    let url_gen = StoredValue::new(0u64);
    Effect::new(move |prev: Option<()>| {
        let f = ranked_keywords_state.filter.get();
        let s = ranked_keywords_state.sort.get();
        if prev.is_none() {
            return;
        }
        // Debounced: typing in the filter does not navigate on every keystroke.
        url_gen.update_value(|g| *g += 1);
        let mine = url_gen.get_value();
        set_timeout(
            move || {
                if url_gen.get_value() != mine || tab.get_untracked() != "keywords" {
                    return;
                }
                let mut qs = vec![
                    ("d", domain.get_untracked()),
                    ("tab", "keywords".to_string()),
                    ("q", f.text.clone()),
                ];
                for (k, v) in [
                    ("vmin", &f.vmin),
                    ("vmax", &f.vmax),
                    ("rmin", &f.rmin),
                    ("rmax", &f.rmax),
                    ("cmin", &f.cmin),
                    ("cmax", &f.cmax),
                ] {
                    qs.push((k, v.clone()));
                }
                if let Some((c, desc)) = &s {
                    qs.push(("sort", c.clone()));
                    qs.push(("dir", if *desc { "desc" } else { "asc" }.to_string()));
                }
                let query: Vec<String> = qs
                    .into_iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| format!("{k}={}", enc(&v)))
                    .collect();
                nav.with_value(|n| {
                    n(
                        &format!("/domain?{}", query.join("&")),
                        NavigateOptions {
                            replace: true,
                            scroll: false,
                            ..Default::default()
                        },
                    )
                });
            },
            std::time::Duration::from_millis(350),
        );
    });

    let route = Signal::derive(move || domain_route(&domain.get(), &tab.get()));
    let input_label = Signal::derive(move || domain.get());
    let open = move || {
        let d = normalize_domain(&input.get_untracked());
        if !d.is_empty() {
            nav.with_value(|n| n(&domain_route(&d, &tab.get_untracked()), Default::default()));
        }
    };
    let all_price = Memo::new(move |_| {
        [stats, ranked_keywords_metrics, overview, ranked_keywords]
            .iter()
            .map(|o| o.price.get().0)
            .sum::<Usd>()
    });
    let run_all = move || {
        for (operation, t) in [
            (stats, "overview"),
            (ranked_keywords_metrics, "overview"),
            (overview, "backlinks"),
            (ranked_keywords, "keywords"),
        ] {
            if !operation.bought() {
                operation.run(
                    workspace,
                    domain_route(&domain.get_untracked(), t),
                    domain.get_untracked(),
                    false,
                );
            }
        }
    };

    view! {
        <section class="page domain-page" aria-labelledby="dd-title">
            <DomainNav />
            <form class="research slim" on:submit=move |ev| { ev.prevent_default(); open(); }>
                <div class="field grow">
                    <label for="dd-input">"Domain"</label>
                    <input id="dd-input" data-testid="domain-input" placeholder="example.com" spellcheck="false" autocomplete="off"
                        prop:value=move || input.get() on:input=move |ev| input.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <span class="label-spacer" aria-hidden="true">" "</span>
                    <button type="submit" class="secondary" data-testid="open-domain">"Open (free)"</button>
                </div>
            </form>
            <Show when=move || !domain.with(String::is_empty)
                fallback=|| view! {
                    <div class="empty" data-testid="empty">
                        <h2>"Research a domain"</h2>
                        <p>"Type a domain and press Open. Nothing is bought until you press a price button: authority ($0.05), rank distribution ($0.10), backlink overview ($0.25) and ranked keywords ($0.10)."</p>
                    </div>
                }>
                <div class="detail-head">
                    <h1 id="dd-title" data-testid="domain-title">{move || domain.get()}</h1>
                    <crate::components::PriceButton testid="run-all" secondary=true
                        text=Signal::derive(move || { let p = all_price.get(); if p == Usd::ZERO { "Everything is loaded".to_string() } else { format!("Load every section — {p}") } })
                        price=Signal::derive(move || all_price.get())
                        disabled=Signal::derive(move || all_price.get() == Usd::ZERO || check.with(Option::is_some))
                        on_run=Callback::new(move |_| run_all()) />
                </div>
                {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
                <nav class="tabs" aria-label="Domain sections">
                    {TABS.iter().map(|(id, label)| {
                        let id = *id;
                        view! {
                            <A href=move || domain_route(&domain.get(), id) attr:data-testid=format!("tab-{id}")
                                attr:class=move || if tab.get() == id { "tab active" } else { "tab" }
                                attr:aria-current=move || (tab.get() == id).then_some("page")>{*label}</A>
                        }
                    }).collect_view()}
                </nav>
                {move || match tab.get().as_str() {
                    "backlinks" => backlinks_tab(workspace, overview, route, input_label, domain).into_any(),
                    "keywords" => keywords_tab(workspace, ranked_keywords, route, input_label, domain, ranked_keywords_state).into_any(),
                    _ => overview_tab(workspace, stats, ranked_keywords_metrics, route, input_label, domain).into_any(),
                }}
            </Show>
        </section>
    }
}

fn overview_tab(
    workspace: Workspace,
    stats: DomainOperation,
    ranked_keywords_metrics: DomainOperation,
    route: Signal<String>,
    input: Signal<String>,
    domain: Memo<String>,
) -> impl IntoView {
    let recs = stats.decoded::<Vec<DomainStatsRecord>>(workspace);
    let metrics = ranked_keywords_metrics.decoded::<Vec<RankedKeywordsMetrics>>(workspace);
    view! {
        {operation_card(workspace, stats, "stats", "Authority and links", "domain stats", route, input, move || match recs.get() {
            Some(Ok(r)) if r.is_empty() => view! { <p class="meta">"The service returned no record for this domain."</p> }.into_any(),
            Some(Ok(r)) => view! { <div class="dcards one">{r.iter().cloned().map(|x| view! { <DomainCard record=x /> }).collect_view()}</div> }.into_any(),
            Some(Err(e)) => unreadable(e),
            None => ().into_any(),
        })}
        {operation_card(workspace, ranked_keywords_metrics, "rank-dist", "Rank distribution of ranked keywords", "rank distribution", route, input, move || match metrics.get() {
            Some(Ok(list)) => rank_distribution(list, domain.get_untracked()),
            Some(Err(e)) => unreadable(e),
            None => ().into_any(),
        })}
    }
}

/// The requested domain's chart first (the record with its name, else the first), then the
/// other domains of the response.
fn rank_distribution(list: Shared<Vec<RankedKeywordsMetrics>>, domain: String) -> AnyView {
    if list.is_empty() {
        return view! { <p class="meta">"The service returned no rank distribution."</p> }
            .into_any();
    }
    let own_i = list
        .iter()
        .position(|m| m.domain.eq_ignore_ascii_case(&domain))
        .unwrap_or(0);
    let own = list[own_i].clone();
    let others: Vec<RankedKeywordsMetrics> = list
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != own_i)
        .map(|(_, m)| m.clone())
        .collect();
    let mut cmp = vec![own.domain.clone()];
    cmp.extend(others.iter().take(3).map(|m| m.domain.clone()));
    let cmp_href = compare_route(&cmp);
    let n_others = others.len();
    view! {
        <div class="rankdist">
            <h3 class="own">{own.domain.clone()}</h3>
            <RankChart metrics=own />
            {(n_others > 0).then(|| view! {
                <details class="others" data-testid="rank-others">
                    <summary>{format!("The other {n_others} domains in this response")}</summary>
                    <p class="meta">"The service returns a record for several domains per request; how they relate to the requested domain is not documented (they look like domains competing for the same keywords)."
                        " " <A href=cmp_href attr:data-testid="compare-top">"Compare with the first three"</A></p>
                    <div class="minis">
                        {others.into_iter().map(|m| view! {
                            <div class="mini">
                                <h4>{m.domain.clone()}" "<span class="meta">{format!("{} keywords", fmt_int(m.total_ranked_keywords))}</span></h4>
                                <RankChart metrics=m compact=true />
                            </div>
                        }).collect_view()}
                    </div>
                </details>
            })}
        </div>
    }
    .into_any()
}

fn backlinks_tab(
    workspace: Workspace,
    operation: DomainOperation,
    route: Signal<String>,
    input: Signal<String>,
    domain: Memo<String>,
) -> impl IntoView {
    let data = operation.decoded::<DomainOverview>(workspace);
    operation_card(
        workspace,
        operation,
        "backlinks",
        "Backlink overview",
        "backlink overview",
        route,
        input,
        move || match data.get() {
            Some(Ok(o)) => {
                view! { <BacklinkOverviewView overview=o name=domain.get_untracked() /> }.into_any()
            }
            Some(Err(e)) => unreadable(e),
            None => ().into_any(),
        },
    )
}

fn keywords_tab(
    workspace: Workspace,
    operation: DomainOperation,
    route: Signal<String>,
    input: Signal<String>,
    domain: Memo<String>,
    state: RankedKeywordsState,
) -> impl IntoView {
    let decoded = ranked_keywords_data(workspace, operation);
    let data =
        Memo::new(move |_| decoded.with(|d| d.as_ref().and_then(|r| r.as_ref().ok().cloned())));
    operation_card(
        workspace,
        operation,
        "keywords",
        "Ranked keywords",
        "ranked keywords",
        route,
        input,
        move || {
            match decoded.with(|d| d.as_ref().map(|r| r.as_ref().err().cloned())) {
            Some(Some(e)) => unreadable(e),
            Some(None) => view! { <RankedKeywordsTable data=data state=state name=Signal::derive(move || domain.get()) /> }.into_any(),
            None => ().into_any(),
        }
        },
    )
}
