//! One domain (`/domain?d=example.com&tab=overview|backlinks|keywords`): authority card
//! (`domainstats`) and rank-range distribution (`ranked-keywords/metrics`) on the overview,
//! the backlink overview (`backlink/overview`), and the ranked keywords table
//! (`ranked-keywords/domain`). Each section shows its price and runs on its own click; stored
//! results open without a call. The keyword table's filters and sort live in the URL.

mod backlinks;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use serpkit::ops::backlink_overview::{self, DomainOverview};
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::ops::ranked_keywords_domain;
use serpkit::ops::ranked_keywords_metrics::{self, RankedKeywordsMetrics};
use serpkit::Request;

use crate::components::domain::card::DomainCard;
use crate::components::domain::charts::RankChart;
use crate::components::domain::nav::{domain_from_input, DomainNav};
use crate::components::fmt_int;
use crate::components::priced_call::unreadable;
use crate::components::ranked::analyses::{cannibalisation_tab, intent_tab, top_pages_tab};
use crate::components::ranked::keywords::{
    ranked_keywords_of, RankedKeywordsFilter, RankedKeywordsState, RankedKeywordsTable,
};
use crate::components::ranked::position_changes::changes_tab;
use crate::components::versioned::Versioned;
use crate::components::{LoadEverything, PricedCall, PricedCallCard, PricedCalls};
use crate::paths::{compare_route, domain_route, enc, use_page_query, DomainQuery, PageQuery};
use crate::workspace::{use_workspace, Workspace};
use backlinks::BacklinkOverviewView;

/// The tabs: (id, label).
pub const TABS: [(&str, &str); 7] = [
    ("overview", "Overview"),
    ("backlinks", "Backlinks"),
    ("keywords", "Ranked keywords"),
    ("pages", "Top pages"),
    ("cannibal", "Cannibalisation"),
    ("changes", "Position changes"),
    ("intent", "Intent"),
];

/// The domain page: reads the route, composes the form, the head, the tabs and the open tab.
#[component]
pub fn DomainDetail() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_page_query::<DomainQuery>();
    let domain =
        Memo::new(move |_| q.with(|q| domain_from_input(q.d.as_deref().unwrap_or_default())));
    let tab = Memo::new(move |_| {
        q.with(|q| {
            let t = q.tab.as_deref().unwrap_or_default();
            TABS.iter()
                .find(|(id, _)| *id == t)
                .map_or("overview", |(id, _)| id)
                .to_string()
        })
    });
    let calls = DomainCalls::new(workspace, domain);
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
    let table_state = table_state_in_url(q, domain, tab);
    // Created once here, not in `Show`'s children (rebuilt each time they show).
    let every_call = calls.every();

    view! {
        <section class="page domain-page" aria-labelledby="dd-title">
            <DomainNav />
            <OpenDomain domain=domain tab=tab />
            <Show when=move || !domain.with(String::is_empty) fallback=|| view! { <NoDomain /> }>
                <div class="detail-head">
                    <h1 id="dd-title" data-testid="domain-title">{move || domain.get()}</h1>
                    <LoadEverything calls=every_call secondary=true blocked=Signal::derive(move || check.with(Option::is_some)) />
                </div>
                {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
                <DomainTabs domain=domain tab=tab />
                {move || match tab.get().as_str() {
                    "backlinks" => backlinks_tab(calls.overview, domain).into_any(),
                    "keywords" => keywords_tab(calls.ranked_keywords, domain, table_state).into_any(),
                    // The analyses read the same ranked keywords (one purchase for all).
                    "pages" => top_pages_tab(calls.ranked_keywords, domain.into()).into_any(),
                    "cannibal" => cannibalisation_tab(calls.ranked_keywords, domain.into()).into_any(),
                    "changes" => changes_tab(calls.ranked_keywords, domain.into()).into_any(),
                    "intent" => intent_tab(calls.ranked_keywords, domain.into()).into_any(),
                    _ => overview_tab(calls.stats, calls.rank_metrics, domain).into_any(),
                }}
            </Show>
        </section>
    }
}

/// The page's calls, one per section; each shows its result on its own tab.
#[derive(Clone, Copy)]
struct DomainCalls {
    stats: PricedCall,
    rank_metrics: PricedCall,
    overview: PricedCall,
    ranked_keywords: PricedCall,
}

impl DomainCalls {
    fn new(workspace: Workspace, domain: Memo<String>) -> Self {
        let call_on = move |tab: &'static str, make: fn(String) -> Request| {
            PricedCall::new(
                workspace,
                Signal::derive(move || domain_route(&domain.get(), tab)),
                Signal::derive(move || domain.get()),
                move || {
                    let d = domain.get();
                    (!d.is_empty()).then(|| make(d))
                },
            )
        };
        DomainCalls {
            stats: call_on("overview", |d| {
                Request::DomainStats(domainstats::Request {
                    key: Default::default(),
                    domains: vec![d],
                })
            }),
            rank_metrics: call_on("overview", |d| {
                Request::RankedKeywordsMetrics(ranked_keywords_metrics::Request {
                    key: Default::default(),
                    domain: d,
                })
            }),
            overview: call_on("backlinks", |d| {
                Request::BacklinkOverview(backlink_overview::Request {
                    key: Default::default(),
                    domain: d,
                })
            }),
            ranked_keywords: call_on("keywords", |d| {
                Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
                    key: Default::default(),
                    domain: d,
                })
            }),
        }
    }

    /// Every call, in the order "load everything" runs them.
    fn every(self) -> Signal<Vec<PricedCall>> {
        Signal::stored(vec![
            self.stats,
            self.rank_metrics,
            self.overview,
            self.ranked_keywords,
        ])
    }
}

/// The ranked keyword table's state, read from the URL and written back to it (debounced)
/// while the keywords tab is open.
fn table_state_in_url(
    q: PageQuery<DomainQuery>,
    domain: Memo<String>,
    tab: Memo<String>,
) -> RankedKeywordsState {
    let q = q.get_untracked();
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let state = RankedKeywordsState {
        filter: RwSignal::new(RankedKeywordsFilter {
            text: text(&q.q),
            volume_min: text(&q.vmin),
            volume_max: text(&q.vmax),
            rank_min: text(&q.rmin),
            rank_max: text(&q.rmax),
            competition_min: text(&q.cmin),
            competition_max: text(&q.cmax),
        }),
        sort: RwSignal::new(
            q.sort
                .filter(|s| !s.is_empty())
                .map(|s| (s, q.dir.as_deref() != Some("asc"))),
        ),
    };
    let nav = StoredValue::new(use_navigate());
    let url_gen = StoredValue::new(0u64);
    Effect::new(move |prev: Option<()>| {
        let f = state.filter.get();
        let s = state.sort.get();
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
                let url = keywords_url(domain.get_untracked(), &f, &s);
                nav.with_value(|n| {
                    n(
                        &url,
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
    state
}

/// The keywords tab's URL with the table's filters and sort (empty values left out).
fn keywords_url(domain: String, f: &RankedKeywordsFilter, s: &Option<(String, bool)>) -> String {
    let mut qs = vec![
        ("d", domain),
        ("tab", "keywords".to_string()),
        ("q", f.text.clone()),
    ];
    for (k, v) in [
        ("vmin", &f.volume_min),
        ("vmax", &f.volume_max),
        ("rmin", &f.rank_min),
        ("rmax", &f.rank_max),
        ("cmin", &f.competition_min),
        ("cmax", &f.competition_max),
    ] {
        qs.push((k, v.clone()));
    }
    if let Some((c, desc)) = s {
        qs.push(("sort", c.clone()));
        qs.push(("dir", if *desc { "desc" } else { "asc" }.to_string()));
    }
    let query: Vec<String> = qs
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", enc(&v)))
        .collect();
    format!("/domain?{}", query.join("&"))
}

/// The domain input; Open (free) navigates to the domain on the current tab.
#[component]
fn OpenDomain(domain: Memo<String>, tab: Memo<String>) -> impl IntoView {
    let navigate = use_navigate();
    let input = RwSignal::new(domain.get_untracked());
    Effect::new(move |_| input.set(domain.get()));
    let open = move || {
        let d = domain_from_input(&input.get_untracked());
        if !d.is_empty() {
            navigate(&domain_route(&d, &tab.get_untracked()), Default::default());
        }
    };
    view! {
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
    }
}

/// Shown until a domain is opened: what each section costs.
#[component]
fn NoDomain() -> impl IntoView {
    view! {
        <div class="empty" data-testid="empty">
            <h2>"Research a domain"</h2>
            <p>{format!(
                "Type a domain and press Open. Nothing is bought until you press a price button: authority ({}), rank distribution ({}), backlink overview ({}) and ranked keywords ({}).",
                domainstats::PRICE.usd.short_text(),
                ranked_keywords_metrics::PRICE.usd.short_text(),
                backlink_overview::PRICE.usd.short_text(),
                ranked_keywords_domain::PRICE.usd.short_text(),
            )}</p>
        </div>
    }
}

/// The tab links; the open one is marked active and current.
#[component]
fn DomainTabs(domain: Memo<String>, tab: Memo<String>) -> impl IntoView {
    view! {
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
    }
}

fn overview_tab(
    stats: PricedCall,
    rank_metrics: PricedCall,
    domain: Memo<String>,
) -> impl IntoView {
    let records = stats.decoded::<Vec<DomainStatsRecord>>();
    let metrics = rank_metrics.decoded::<Vec<RankedKeywordsMetrics>>();
    view! {
        <PricedCallCard calls=PricedCalls::one(stats) id="stats" title="Authority and links" what="domain stats"
            body=move || match records.get() {
                Some(Ok(r)) if r.is_empty() => view! { <p class="meta">"The service returned no record for this domain."</p> }.into_any(),
                Some(Ok(r)) => view! { <div class="dcards one">{r.iter().cloned().map(|record| view! { <DomainCard record=record /> }).collect_view()}</div> }.into_any(),
                Some(Err(e)) => unreadable(e),
                None => ().into_any(),
            } />
        <PricedCallCard calls=PricedCalls::one(rank_metrics) id="rank-dist" title="Rank distribution of ranked keywords" what="rank distribution"
            body=move || match metrics.get() {
                Some(Ok(list)) => rank_distribution(list, domain.get_untracked()),
                Some(Err(e)) => unreadable(e),
                None => ().into_any(),
            } />
    }
}

/// The requested domain's chart first (the record with its name, else the first), then the
/// other domains of the response.
fn rank_distribution(list: Versioned<Vec<RankedKeywordsMetrics>>, domain: String) -> AnyView {
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

fn backlinks_tab(call: PricedCall, domain: Memo<String>) -> impl IntoView {
    let data = call.decoded::<DomainOverview>();
    view! {
        <PricedCallCard calls=PricedCalls::one(call) id="backlinks" title="Backlink overview" what="backlink overview"
            body=move || match data.get() {
                Some(Ok(o)) => view! { <BacklinkOverviewView overview=o name=domain.get_untracked() origin=Signal::derive(move || call.origin()) /> }.into_any(),
                Some(Err(e)) => unreadable(e),
                None => ().into_any(),
            } />
    }
}

fn keywords_tab(
    call: PricedCall,
    domain: Memo<String>,
    state: RankedKeywordsState,
) -> impl IntoView {
    let decoded = ranked_keywords_of(call);
    let data =
        Memo::new(move |_| decoded.with(|d| d.as_ref().and_then(|r| r.as_ref().ok().cloned())));
    view! {
        <PricedCallCard calls=PricedCalls::one(call) id="keywords" title="Ranked keywords" what="ranked keywords"
            body=move || match decoded.with(|d| d.as_ref().map(|r| r.as_ref().err().cloned())) {
                Some(Some(e)) => unreadable(e),
                Some(None) => view! { <RankedKeywordsTable data=data state=state name=Signal::derive(move || domain.get()) origin=Signal::derive(move || call.origin()) /> }.into_any(),
                None => ().into_any(),
            } />
    }
}
