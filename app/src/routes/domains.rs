//! The domain stats page (`/domains?d=a.com%0Ab.com`): authority cards for one or many
//! domains (`domainstats`), and their metrics as CSV.
//!
//! The other domain pages: `/domain?d=&tab=` (one domain: overview, backlinks, ranked
//! keywords; [`super::domain`]), `/domain/pages?u=` (page backlink metrics;
//! [`super::domain_pages`]) and `/domain/compare?d=` (up to 4 domains;
//! [`super::domain_compare`]). Every call goes through [`crate::workspace::run`]: its price is on
//! the button before it runs, a stored result opens without a call, and it is recorded in
//! the history.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::{Request, Usd};

use crate::components::domain_card::DomainCard;
use crate::components::domain_metrics;
use crate::components::domain_nav::{parse_domains, DomainNav, MAX_COMPARE};
use crate::components::priced_call::unreadable;
use crate::components::{
    csv, price_text, ErrorBox, PriceButton, PricedCall, ResultMeta, ValidationPanel,
};
use crate::model::{plural, preview};
use crate::paths::{compare_route, domains_route};
use crate::workspace::{self, use_workspace, Call, Job};

/// The domain stats page: authority cards for one or many domains (`domainstats`).
#[component]
pub fn DomainStatsPage() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_query_map();
    // The shown domains: those in the URL (the last run).
    let committed = Memo::new(move |_| parse_domains(&q.with(|m| m.get("d")).unwrap_or_default()));
    let shown = PricedCall::new(
        workspace,
        Signal::derive(move || domains_route(&committed.get())),
        Signal::derive(move || domains_input(&committed.get())),
        move || {
            let d = committed.get();
            (!d.is_empty()).then(|| stats_request(d))
        },
    );

    view! {
        <section class="page domain-page" aria-labelledby="ds-title">
            <DomainNav />
            <h1 id="ds-title">"Domain stats"</h1>
            <StatsForm initial=q.with_untracked(|m| m.get("d")).unwrap_or_default() call=shown.call />
            <ErrorBox call=shown.call />
            <StatsResults shown=shown committed=committed />
        </section>
    }
}

/// The domains textarea with its price buttons; a run shows its result at the domains' URL.
#[component]
fn StatsForm(initial: String, call: Call) -> impl IntoView {
    let workspace = use_workspace();
    let navigate = use_navigate();
    let text = RwSignal::new(initial);
    let typed = Memo::new(move |_| parse_domains(&text.get()));
    let typed_req = Memo::new(move |_| {
        let d = typed.get();
        (!d.is_empty()).then(|| stats_request(d))
    });
    let check = Memo::new(move |_| {
        typed_req
            .with(|r| r.as_ref().and_then(|r| r.check().err()))
            .map(|e| {
                let which = e
                    .field
                    .strip_prefix("/domains/")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| typed.with(|d| d.get(i).cloned()));
                match which {
                    Some(d) => format!("{e} (“{}”)", d.chars().take(80).collect::<String>()),
                    None => e.to_string(),
                }
            })
    });
    let price = Memo::new(move |_| {
        typed_req
            .with(|r| {
                r.as_ref()
                    .map(|r| workspace::quote_now(workspace, r, false))
                    .map(|q| (q.usd, q.units))
            })
            .unwrap_or((Usd::ZERO, 0))
    });
    let nav = StoredValue::new(navigate);
    let go = move |refresh: bool| {
        let d = typed.get_untracked();
        let Some(request) = typed_req.get_untracked() else {
            return;
        };
        let route = domains_route(&d);
        let input = domains_input(&d);
        workspace::run_then_show(
            workspace,
            call,
            Job {
                request,
                route,
                input,
            },
            refresh,
            move |r, o| nav.with_value(|n| n(r, o)),
        );
    };
    let typed_stored = move || {
        typed_req.with(|r| {
            r.as_ref()
                .is_some_and(|r| workspace.has_result(&workspace::cache_key(workspace, r)))
        })
    };
    let can_run = Signal::derive(move || {
        !call.loading.get() && !typed.with(Vec::is_empty) && check.with(Option::is_none)
    });

    view! {
        <div class="research">
            <div class="field grow">
                <label for="ds-input">"Domains, one per line (or separated by commas)"</label>
                <textarea id="ds-input" data-testid="domains-input" rows="4" spellcheck="false"
                    placeholder="example.com\nexample.org"
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <p class="meta" aria-live="polite" data-testid="domains-count">
                    {move || { let n = typed.with(Vec::len); format!("{n} domain{}", plural(n)) }}
                </p>
            </div>
            <div class="field">
                <PriceButton testid="run" text=Signal::derive(move || { let (p, u) = price.get(); price_text("Get stats", p, u, "domain") })
                    price=Signal::derive(move || price.get().0)
                    disabled=Signal::derive(move || !can_run.get())
                    on_run=Callback::new(move |_| go(false)) />
                <Show when=typed_stored>
                    <PriceButton testid="refresh" secondary=true
                        text=Signal::derive(move || {
                            let p = typed_req.with(|r| r.as_ref().map(serpkit::estimate_cost)).unwrap_or_default();
                            price_text("Refresh", p, typed.with(Vec::len) as u64, "domain")
                        })
                        price=Signal::derive(move || typed_req.with(|r| r.as_ref().map(serpkit::estimate_cost)).unwrap_or_default())
                        disabled=Signal::derive(move || call.loading.get())
                        on_run=Callback::new(move |_| go(true)) />
                </Show>
                {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
            </div>
        </div>
    }
}

/// The shown run: its cards, CSV export and validation; before one, loading or a hint.
#[component]
fn StatsResults(shown: PricedCall, committed: Memo<Vec<String>>) -> impl IntoView {
    let workspace = use_workspace();
    let call = shown.call;
    let records = shown.decoded::<Vec<DomainStatsRecord>>();
    let compare_href = move || compare_route(&committed.get());
    let export = move |_| {
        let text = records.with_untracked(|r| match r {
            Some(Ok(records)) => domain_metrics::to_csv(records),
            _ => String::new(),
        });
        if let Err(e) = csv::download("domain-stats.csv", "text/csv", &text) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let record_count = move || {
        records.with(|r| match r {
            Some(Ok(records)) => records.len(),
            _ => 0,
        })
    };

    move || {
        if !shown.stored() {
            return no_results(call.loading.get());
        }
        let n = committed.with(Vec::len);
        view! {
            <section class="results" aria-labelledby="ds-res">
                <div class="results-head">
                    <h2 id="ds-res">{format!("{n} domain{}", plural(n))}</h2>
                    {(2..=MAX_COMPARE).contains(&n).then(|| view! {
                        <A href=compare_href attr:class="button secondary" attr:data-testid="compare-these">"Compare side by side"</A>
                    })}
                </div>
                <ResultMeta result=Signal::derive(move || shown.meta.get()) />
                <div class="toolbar">
                    <button type="button" class="secondary" data-testid="export-csv" on:click=export
                        disabled=move || record_count() == 0>{move || format!("Export CSV ({} rows)", record_count())}</button>
                </div>
                {move || match records.get() {
                    Some(Ok(recs)) if recs.is_empty() => view! { <p class="empty">"The service returned no records."</p> }.into_any(),
                    Some(Ok(recs)) => view! {
                        <div class="dcards">
                            {recs.iter().cloned().map(|r| view! { <DomainCard record=r link=true /> }).collect_view()}
                        </div>
                    }.into_any(),
                    Some(Err(e)) => unreadable(e),
                    None => ().into_any(),
                }}
                <ValidationPanel result=Signal::derive(move || shown.meta.get()) />
            </section>
        }.into_any()
    }
}

/// Before a stored result: the running call's spinner, else what the page does.
fn no_results(loading: bool) -> AnyView {
    if loading {
        view! { <p class="empty" data-testid="loading"><span class="spinner" aria-hidden="true"></span>"Fetching domain statistics…"</p> }.into_any()
    } else {
        view! {
            <div class="empty" data-testid="empty">
                <h2>"Authority at a glance"</h2>
                <p>{format!(
                    "Enter one or more domains and press “Get stats”. Each domain costs {}; the total is on the button before anything is bought. Results are saved in this browser and reopen without paying again.",
                    domainstats::PRICE.usd.short_text(),
                )}</p>
            </div>
        }.into_any()
    }
}

/// The stats call for `domains`.
fn stats_request(domains: Vec<String>) -> Request {
    Request::DomainStats(domainstats::Request {
        key: Default::default(),
        domains,
    })
}

/// The input of a stats call as the history shows it.
fn domains_input(domains: &[String]) -> String {
    let n = domains.len();
    format!("{n} domain{}: {}", plural(n), preview(domains))
}
