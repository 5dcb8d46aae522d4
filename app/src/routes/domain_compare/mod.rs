//! Compare up to 4 domains side by side (`/domain/compare?d=a.com,b.com`): their stats
//! (`domainstats`, one call for all), rank distributions (`ranked-keywords/metrics`, one call
//! per domain) and the ranked keywords they share (`ranked-keywords/domain`, one call per
//! domain). Each section shows its total price and buys only what is not stored yet.

mod client;
mod overlap;

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::ops::ranked_keywords_domain;
use serpkit::ops::ranked_keywords_metrics::{self, RankedKeywordsMetrics};
use serpkit::Request;

use crate::components::columns::sorted_view;
use crate::components::domain::charts::{rank_slots, RankChart};
use crate::components::domain::metrics::{best, Better, DOMAIN_METRICS};
use crate::components::domain::nav::{
    domain_checks, parse_domains, DomainNav, LETTERS, MAX_COMPARE,
};
use crate::components::priced_call::unreadable;
use crate::components::ranked::keywords::{ranked_keywords_of, RankedKeywordsData};
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{
    fmt_int, fmt_time, LoadEverything, PricedCall, PricedCallCard, PricedCalls, ReportButton,
};
use crate::format::{fmt_stat, NO_VALUE};
use crate::paths::{compare_route, domain_route, keywords_route, use_page_query, DomainsQuery};
use crate::research::report::compare::{compare_report, Comparison, SharedKeywords, SideBySide};
use crate::research::report::{Origin, Report};
use crate::workspace::use_workspace;
use overlap::{Overlap, OVERLAP_COLUMNS};

/// The compare page.
#[component]
pub fn Compare() -> impl IntoView {
    let q = use_page_query::<DomainsQuery>();
    let domains = Memo::new(move |_| {
        let mut d = q.with(|q| parse_domains(q.d.as_deref().unwrap_or_default()));
        d.truncate(MAX_COMPARE);
        d
    });
    let input = RwSignal::new(domains.get_untracked().join(", "));
    Effect::new(move |_| input.set(domains.get().join(", ")));
    let calls = compare_calls(domains);
    let checks = domain_checks(domains);
    let every_call = Signal::stored(
        std::iter::once(calls.stats)
            .chain(calls.rank_metrics.iter().copied())
            .chain(calls.ranked_keywords.iter().copied())
            .collect::<Vec<_>>(),
    );
    let count = Signal::derive(move || domains.with(Vec::len));
    let stats_records = calls.stats.decoded::<Vec<DomainStatsRecord>>();
    let rank_records: RankMemos = calls
        .rank_metrics
        .iter()
        .map(|c| c.decoded::<Vec<RankedKeywordsMetrics>>())
        .collect();
    let overlap = overlap_of(&calls.ranked_keywords, domains);
    // Built here, outside the `<Show>`, so the overlap filters survive it.
    let rank_body = ViewFn::from(rank_body(rank_records.clone(), domains));
    let overlap_body = ViewFn::from(overlap_body(overlap, domains));
    let make_report = report_maker(domains, stats_records, rank_records, overlap, every_call);
    let make_client = client::client_maker(
        domains,
        make_report,
        calls.stats,
        calls.rank_metrics.clone(),
        calls.ranked_keywords.clone(),
    );
    let stats = calls.stats;
    let rank_calls = PricedCalls::per_item(calls.rank_metrics, count, "domain");
    let overlap_calls = PricedCalls::per_item(calls.ranked_keywords, count, "domain");

    view! {
        <section class="page domain-page" aria-labelledby="cmp-title">
            <DomainNav />
            <h1 id="cmp-title">"Compare domains"</h1>
            <CompareForm input=input />
            <Show when=move || !domains.with(Vec::is_empty) fallback=|| view! { <CompareEmpty /> }>
                <ComparedDomains domains=domains calls=every_call checks=checks />
                {move || checks.get().into_iter().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> }).collect_view()}
                <div class="toolbar">
                    <ReportButton testid="compare-report" make=make_report disabled=Signal::derive(|| false) />
                    <ReportButton testid="client-report" label="Client report (HTML)" make=make_client disabled=Signal::derive(|| false) />
                </div>
                {stats_section(stats, stats_records, domains)}
                <PricedCallCard calls=rank_calls id="cmp-rank" title="Rank distribution"
                    what="rank distributions" body=rank_body.clone() />
                <PricedCallCard calls=overlap_calls id="cmp-overlap" title="Shared ranked keywords"
                    what="ranked keywords" body=overlap_body.clone() />
            </Show>
        </section>
    }
}

/// The page's calls: the stats of all domains, and per domain slot its rank distribution
/// and ranked keywords.
struct CompareCalls {
    stats: PricedCall,
    rank_metrics: Vec<PricedCall>,
    ranked_keywords: Vec<PricedCall>,
}

fn compare_calls(domains: Memo<Vec<String>>) -> CompareCalls {
    let workspace = use_workspace();
    let route = Signal::derive(move || compare_route(&domains.get()));
    let label = Signal::derive(move || domains.get().join(", "));
    let stats = PricedCall::new(workspace, route, label, move || {
        let d = domains.get();
        (!d.is_empty()).then(|| {
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: d,
            })
        })
    });
    // One call per domain slot; a slot past the domains entered has no request.
    let per_domain = |make: fn(String) -> Request| -> Vec<PricedCall> {
        (0..MAX_COMPARE)
            .map(|i| {
                let slot = move || domains.with(|d| d.get(i).cloned());
                PricedCall::new(
                    workspace,
                    route,
                    Signal::derive(move || slot().unwrap_or_default()),
                    move || slot().map(make),
                )
            })
            .collect()
    };
    let rank_metrics = per_domain(|domain| {
        Request::RankedKeywordsMetrics(ranked_keywords_metrics::Request {
            key: Default::default(),
            domain,
        })
    });
    let ranked_keywords = per_domain(|domain| {
        Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
            key: Default::default(),
            domain,
        })
    });
    CompareCalls {
        stats,
        rank_metrics,
        ranked_keywords,
    }
}

/// Makes the report from the stored results.
fn report_maker(
    domains: Memo<Vec<String>>,
    stats_records: StatsMemo,
    rank_records: RankMemos,
    overlap: Memo<Versioned<Overlap>>,
    calls: Signal<Vec<PricedCall>>,
) -> Callback<(), Option<(String, Report, Origin)>> {
    Callback::new(move |_| {
        let ds = domains.get_untracked();
        let stats = match stats_records.get_untracked() {
            Some(Ok(list)) => match_stats(&list, &ds),
            _ => vec![None; ds.len()],
        };
        let ranks: Vec<Option<RankedKeywordsMetrics>> = (0..ds.len())
            .map(|i| match rank_records[i].get_untracked() {
                Some(Ok(list)) => list
                    .iter()
                    .find(|m| m.domain.eq_ignore_ascii_case(&ds[i]))
                    .or_else(|| list.first())
                    .cloned(),
                _ => None,
            })
            .collect();
        let o = overlap.get_untracked();
        let comparison = Comparison {
            domains: &ds,
            letters: &LETTERS,
            stats: SideBySide {
                rows: DOMAIN_METRICS
                    .iter()
                    .map(|m| {
                        let values = stats
                            .iter()
                            .map(|r| r.as_ref().map(|r| (m.value)(r).to_string()));
                        (m.label.to_string(), values.collect())
                    })
                    .collect(),
            },
            ranks: rank_table(&ranks),
            shared: SharedKeywords {
                keyword: &o.keyword,
                volume: &o.volume,
                ranks: &o.ranks,
                per_domain: &o.per_domain,
            },
        };
        let (file, report) = compare_report(&comparison, &fmt_time(js_sys::Date::now()));
        let origin = calls.with_untracked(|c| PricedCall::origin_of(c));
        Some((file, report, origin))
    })
}

/// The rank ranges (labels) of the first domain with metrics; none without metrics.
fn slot_labels(ranks: &[Option<RankedKeywordsMetrics>]) -> Vec<String> {
    ranks
        .iter()
        .flatten()
        .next()
        .map(|m| {
            rank_slots(m)
                .iter()
                .map(|s| s.map_or("61-70".to_string(), |s| s.0.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The rank distribution side by side: the rank ranges of the first domain with metrics,
/// each domain's keywords per range.
fn rank_table(ranks: &[Option<RankedKeywordsMetrics>]) -> SideBySide<i64> {
    let slots = slot_labels(ranks);
    let rows = slots
        .into_iter()
        .enumerate()
        .map(|(si, label)| {
            let values = ranks.iter().map(|r| {
                r.as_ref()
                    .and_then(|m| rank_slots(m).get(si).copied().flatten())
                    .map(|s| s.1)
            });
            (label, values.collect())
        })
        .collect();
    SideBySide { rows }
}

/// The domains input; opening compares the first [`MAX_COMPARE`] (free).
#[component]
fn CompareForm(input: RwSignal<String>) -> impl IntoView {
    let navigate = use_navigate();
    let typed_n = Memo::new(move |_| parse_domains(&input.get()).len());
    let nav = StoredValue::new(navigate);
    let open = move || {
        let mut d = parse_domains(&input.get_untracked());
        d.truncate(MAX_COMPARE);
        nav.with_value(|n| n(&compare_route(&d), Default::default()));
    };

    view! {
        <form class="research slim" on:submit=move |ev| { ev.prevent_default(); open(); }>
            <div class="field grow">
                <label for="cmp-input">{format!("Up to {MAX_COMPARE} domains, separated by commas")}</label>
                <input id="cmp-input" data-testid="compare-input" spellcheck="false" autocomplete="off" placeholder="a.com, b.com, c.com"
                    prop:value=move || input.get() on:input=move |ev| input.set(event_target_value(&ev)) />
                {move || (typed_n.get() > MAX_COMPARE).then(|| view! {
                    <p class="error inline" data-testid="too-many">{format!("Only the first {MAX_COMPARE} domains are compared.")}</p>
                })}
            </div>
            <div class="field">
                <span class="label-spacer" aria-hidden="true">" "</span>
                <button type="submit" class="secondary" data-testid="compare-open">"Compare (free)"</button>
            </div>
        </form>
    }
}

/// Before any domains: what the page does and its prices.
#[component]
fn CompareEmpty() -> impl IntoView {
    view! {
        <div class="empty" data-testid="empty">
            <h2>"Side by side"</h2>
            <p>{format!(
                "Enter two to four domains. Each section shows its price first: stats {} per domain, rank distribution {} per domain, ranked keywords {} per domain.",
                domainstats::PRICE.usd.short_text(),
                ranked_keywords_metrics::PRICE.usd.short_text(),
                ranked_keywords_domain::PRICE.usd.short_text(),
            )}</p>
        </div>
    }
}

/// The compared domains as lettered chips, and the button that loads every section.
#[component]
fn ComparedDomains(
    domains: Memo<Vec<String>>,
    calls: Signal<Vec<PricedCall>>,
    checks: Memo<Vec<String>>,
) -> impl IntoView {
    view! {
        <div class="detail-head">
            <ul class="legend-chips" data-testid="compare-domains" aria-label="Compared domains">
                {move || domains.get().into_iter().enumerate().map(|(i, d)| view! {
                    <li class=format!("chip dom{i}") data-testid="compare-domain">
                        <strong>{LETTERS[i]}</strong>" "
                        <A href=domain_route(&d, "overview")>{d.clone()}</A>
                    </li>
                }).collect_view()}
            </ul>
            <LoadEverything calls=calls secondary=true blocked=Signal::derive(move || !checks.with(Vec::is_empty)) />
        </div>
    }
}

/// Stats records matched to the requested domains (by name, else by position).
fn match_stats(list: &[DomainStatsRecord], domains: &[String]) -> Vec<Option<DomainStatsRecord>> {
    domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let bare = d.strip_prefix("www.").unwrap_or(d);
            list.iter()
                .find(|r| {
                    r.domain.eq_ignore_ascii_case(bare)
                        || r.domain.eq_ignore_ascii_case(d)
                        || r.domain_as_entered
                            .as_deref()
                            .is_some_and(|e| e.eq_ignore_ascii_case(d))
                })
                .or_else(|| list.get(i))
                .cloned()
        })
        .collect()
}

/// The decoded stats records.
type StatsMemo = Memo<Option<Result<Versioned<Vec<DomainStatsRecord>>, String>>>;
/// The decoded rank distributions, one per domain slot.
type RankMemos = Vec<Memo<Option<Result<Versioned<Vec<RankedKeywordsMetrics>>, String>>>>;

fn stats_section(call: PricedCall, recs: StatsMemo, domains: Memo<Vec<String>>) -> impl IntoView {
    let body = move || match recs.get() {
        Some(Ok(list)) => {
            let ds = domains.get_untracked();
            let cols = match_stats(&list, &ds);
            view! {
                <div class="scroll" tabindex="0" role="region" aria-label="Domain statistics side by side">
                    <table class="data cmp" data-testid="cmp-stats">
                        <caption class="sr-only">"Domain statistics side by side; the best value of each row is marked"</caption>
                        <thead><tr>
                            <th scope="col">"Metric"</th>
                            {ds.iter().enumerate().map(|(i, d)| view! { <th scope="col" class="num"><span class=format!("dot dom{i}")></span>{format!("{} {d}", LETTERS[i])}</th> }).collect_view()}
                        </tr></thead>
                        <tbody>
                            {DOMAIN_METRICS.iter().map(|metric| {
                                let vals: Vec<Option<f64>> = cols.iter().map(|c| c.as_ref().and_then(|r| metric.number(r))).collect();
                                let b = best(&vals, metric.better);
                                let lower = metric.better == Better::Lower;
                                view! {
                                    <tr>
                                        <th scope="row">{metric.label}{lower.then(|| view! { <span class="meta">" (lower is better)"</span> })}</th>
                                        {cols.iter().enumerate().map(|(i, c)| {
                                            let v = c.as_ref().map(|r| fmt_stat((metric.value)(r))).unwrap_or_else(|| NO_VALUE.into());
                                            let is_best = b == Some(i);
                                            view! { <td class="num" class:best=is_best>{v}{is_best.then(|| view! { <span class="sr-only">" (best)"</span> })}</td> }
                                        }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                            <tr>
                                <th scope="row">"Top topic"</th>
                                {cols.iter().map(|c| {
                                    let t = c.as_ref().and_then(|r| r.topical_trust_flow().into_iter().next());
                                    let text = t.map(|t| format!("{} ({})", t.name, t.value.map(|v| format!("{v:.0}")).unwrap_or_else(|| NO_VALUE.into()))).unwrap_or_else(|| NO_VALUE.into());
                                    view! { <td class="topic">{text}</td> }
                                }).collect_view()}
                            </tr>
                        </tbody>
                    </table>
                </div>
            }.into_any()
        }
        Some(Err(e)) => unreadable(e),
        None => ().into_any(),
    };
    view! { <PricedCallCard calls=PricedCalls::one(call) id="cmp-stats" title="Stats" what="stats" body=body /> }
}

fn rank_body(
    decoded: RankMemos,
    domains: Memo<Vec<String>>,
) -> impl Fn() -> AnyView + Send + Sync + 'static {
    move || {
        let ds = domains.get_untracked();
        let mut charts = Vec::new();
        let mut recs: Vec<Option<RankedKeywordsMetrics>> = Vec::new();
        for (i, d) in ds.iter().enumerate() {
            match decoded[i].get() {
                Some(Ok(list)) => {
                    let rec = list
                        .iter()
                        .find(|m| m.domain.eq_ignore_ascii_case(d))
                        .or_else(|| list.first())
                        .cloned();
                    recs.push(rec.clone());
                    charts.push(match rec {
                        Some(m) => view! { <div class=format!("mini dom{i}")><h3><span class=format!("dot dom{i}")></span>{format!("{} {d}", LETTERS[i])}</h3><RankChart metrics=m compact=true /></div> }.into_any(),
                        None => view! { <div class="mini"><h3>{format!("{} {d}", LETTERS[i])}</h3><p class="meta">"No record returned."</p></div> }.into_any(),
                    });
                }
                Some(Err(e)) => {
                    recs.push(None);
                    charts.push(unreadable(e));
                }
                None => {
                    recs.push(None);
                    charts.push(view! { <div class="mini"><h3>{format!("{} {d}", LETTERS[i])}</h3><p class="meta">"Not loaded."</p></div> }.into_any());
                }
            }
        }
        let slots = slot_labels(&recs);
        view! {
            <div class="minis four" data-testid="cmp-rank-charts">{charts}</div>
            <div class="scroll" tabindex="0" role="region" aria-label="Ranked keywords per rank range">
                <table class="data cmp" data-testid="cmp-rank-table">
                    <caption class="sr-only">"Ranked keywords per rank range and domain"</caption>
                    <thead><tr><th scope="col">"Rank range"</th>
                        {ds.iter().enumerate().map(|(i, d)| view! { <th scope="col" class="num">{format!("{} {d}", LETTERS[i])}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {slots.iter().enumerate().map(|(si, label)| view! {
                            <tr class:gap=label == "61-70">
                                <th scope="row">{label.clone()}</th>
                                {recs.iter().map(|r| {
                                    let v = r.as_ref().and_then(|m| rank_slots(m).get(si).copied().flatten()).map(|s| fmt_int(s.1));
                                    let text = match (r, v) { (Some(_), Some(v)) => v, (Some(_), None) => "not reported".to_string(), _ => NO_VALUE.to_string() };
                                    view! { <td class="num">{text}</td> }
                                }).collect_view()}
                            </tr>
                        }).collect_view()}
                        <tr class="total"><th scope="row">"Total"</th>
                            {recs.iter().map(|r| view! { <td class="num">{r.as_ref().map(|m| fmt_int(m.total_ranked_keywords)).unwrap_or_else(|| NO_VALUE.into())}</td> }).collect_view()}
                        </tr>
                    </tbody>
                </table>
            </div>
        }
        .into_any()
    }
}

/// The shared keywords of the domains' stored ranked keywords.
fn overlap_of(calls: &[PricedCall], domains: Memo<Vec<String>>) -> Memo<Versioned<Overlap>> {
    let decoded: Vec<_> = calls.iter().map(|c| ranked_keywords_of(*c)).collect();
    Memo::new(move |_| {
        let n = domains.with(Vec::len);
        let data: Vec<Option<Versioned<RankedKeywordsData>>> = (0..MAX_COMPARE)
            .map(|i| {
                if i < n {
                    decoded[i].with(|d| d.as_ref().and_then(|r| r.as_ref().ok().cloned()))
                } else {
                    None
                }
            })
            .collect();
        Versioned::new(Overlap::build(&data))
    })
}

fn overlap_body(
    overlap: Memo<Versioned<Overlap>>,
    domains: Memo<Vec<String>>,
) -> impl Fn() -> AnyView + Send + Sync + 'static {
    let workspace = use_workspace();
    let text = RwSignal::new(String::new());
    let need_all = RwSignal::new(false);
    let sort = RwSignal::new(None::<(String, bool)>);
    let order = Memo::new(move |_| {
        let o = overlap.get();
        let n = domains.with(Vec::len) as i64;
        let t = text.get().trim().to_lowercase();
        let all = need_all.get();
        let mask: Vec<bool> = (0..o.keyword.len())
            .map(|i| (t.is_empty() || o.lower[i].contains(&t)) && (!all || o.count[i] >= n))
            .collect();
        let len = o.keyword.len();
        Versioned::new(sorted_view(
            &o.orders,
            &OVERLAP_COLUMNS,
            &o,
            len,
            sort.get().as_ref(),
            Some(&mask),
        ))
    });
    let render: RenderRow = Arc::new(move |i: u32| {
        let o = overlap.get_untracked();
        let i = i as usize;
        let Some(kw) = o.keyword.get(i).cloned() else {
            return ().into_any();
        };
        let n = domains.with_untracked(Vec::len);
        let cc = workspace.settings.with_untracked(|s| s.ccode.clone());
        let ranks = o.ranks[i];
        let best = ranks.iter().take(n).copied().min().unwrap_or(i64::MAX);
        view! {
            <div role="cell" class="vt-c"><A href=keywords_route(std::slice::from_ref(&kw), &cc) attr:class="kw">{kw.clone()}</A></div>
            <div role="cell" class="vt-c num">{fmt_int(o.volume[i])}</div>
            <div role="cell" class="vt-c num">{format!("{} of {n}", o.count[i])}</div>
            {(0..MAX_COMPARE).map(|s| {
                let r = ranks[s];
                let text = if s >= n { String::new() } else if r == i64::MAX { NO_VALUE.to_string() } else { r.to_string() };
                view! { <div role="cell" class="vt-c num"><span class:rankpill=r != i64::MAX class:best=r == best && r != i64::MAX>{text}</span></div> }
            }).collect_view()}
        }
        .into_any()
    });
    move || {
        let render = render.clone();
        let o = overlap.get();
        let ds = domains.get_untracked();
        let n = ds.len();
        view! {
            <div class="overlap" data-testid="cmp-overlap">
                <div class="scroll" tabindex="0" role="region" aria-label="Shared ranked keywords per pair of domains">
                    <table class="data cmp" data-testid="cmp-pairs">
                        <caption class="sr-only">"Shared ranked keywords per pair of domains; the diagonal is each domain's own distinct keywords"</caption>
                        <thead><tr><th scope="col">"Shared with"</th>
                            {ds.iter().enumerate().map(|(i, d)| view! { <th scope="col" class="num">{format!("{} {d}", LETTERS[i])}</th> }).collect_view()}
                        </tr></thead>
                        <tbody>
                            {ds.iter().enumerate().map(|(a, d)| view! {
                                <tr><th scope="row">{format!("{} {d}", LETTERS[a])}</th>
                                    {(0..n).map(|b| view! { <td class="num" class:diag=a == b>{fmt_int(o.pairs[a][b] as i64)}</td> }).collect_view()}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="meta">"The diagonal is each domain’s number of distinct ranked keywords; the other cells count keywords both domains rank for."</p>
                <fieldset class="filters">
                    <legend>"Filter shared keywords"</legend>
                    <label class="f wide"><span>"Keyword contains"</span>
                        <input type="search" data-testid="ov-filter" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) /></label>
                    <label class="check"><input type="checkbox" data-testid="ov-all" prop:checked=move || need_all.get()
                        on:change=move |ev| need_all.set(event_target_checked(&ev)) />{format!(" Ranked by all {n} domains")}</label>
                </fieldset>
                <p data-testid="ov-count"><strong>{move || format!("{} shared keywords", fmt_int(order.with(|o| o.len()) as i64))}</strong>
                    <span class="meta">" (ranked by at least two of the domains)"</span></p>
                <Show when=move || order.with(|o| !o.is_empty()) fallback=|| view! { <p class="empty" data-testid="ov-none">"No shared keywords."</p> }>
                    <VirtualTable columns=OVERLAP_COLUMNS[..3 + n].to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                        sort=sort caption="Keywords ranked by several domains" testid="ov-table" />
                </Show>
            </div>
        }
        .into_any()
    }
}
