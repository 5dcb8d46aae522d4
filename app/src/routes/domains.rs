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
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::Request;

use crate::components::domain::card::DomainCard;
use crate::components::domain::metrics;
use crate::components::domain::nav::{parse_domains, DomainNav, MAX_COMPARE};
use crate::components::priced_call::unreadable;
use crate::components::{
    csv, priced_form_buttons, ErrorBox, FormHooks, PricedCall, PricedForm, ResultMeta,
    ValidationPanel,
};
use crate::model::{plural, preview};
use crate::paths::{
    compare_route, domains_route, query_of_route, use_page_query, DomainsQuery, PageQuery,
};
use crate::store;
use crate::workspace::{use_workspace, Workspace};

/// localStorage key of the page's last URL (its domains; never the key): coming back without
/// domains in the URL (the navigation link) reopens it, as the explorer reopens its last view.
const LAST_VIEW_KEY: &str = "serpkit.domains";

/// Coming back without domains in the URL: the last result's route, opened in place of the
/// empty form; with domains, they become the last view.
fn restore_last_view(q: PageQuery<DomainsQuery>) -> Option<String> {
    match q.get_untracked().d {
        Some(d) if !d.trim().is_empty() => {
            store::local_set(LAST_VIEW_KEY, &domains_route(&parse_domains(&d)));
            None
        }
        _ => {
            let last = store::local_get(LAST_VIEW_KEY).filter(|r| r.starts_with("/domains?d="))?;
            let navigate = use_navigate();
            let options = NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            };
            navigate(&last, options);
            query_of_route::<DomainsQuery>(&last)?.d
        }
    }
}

/// The domain stats page: authority cards for one or many domains (`domainstats`).
#[component]
pub fn DomainStatsPage() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_page_query::<DomainsQuery>();
    let restored = restore_last_view(q);
    // The shown domains: those in the URL (the last run).
    let committed =
        Memo::new(move |_| q.with(|q| parse_domains(q.d.as_deref().unwrap_or_default())));
    let shown = PricedCall::new(
        workspace,
        Signal::derive(move || domains_route(&committed.get())),
        Signal::derive(move || domains_input(&committed.get())),
        move || stats_request(committed.get()),
    );
    let text = RwSignal::new(restored.or(q.get_untracked().d).unwrap_or_default());
    let form = stats_form(workspace, text);

    view! {
        <section class="page domain-page" aria-labelledby="ds-title">
            <DomainNav />
            <h1 id="ds-title">"Domain stats"</h1>
            <StatsForm form=form text=text />
            <ErrorBox call=form.call />
            <StatsResults shown=shown loading=form.call.loading committed=committed />
        </section>
    }
}

/// The priced form over the domains typed in `text`.
fn stats_form(workspace: Workspace, text: RwSignal<String>) -> PricedForm {
    let typed = Memo::new(move |_| parse_domains(&text.get()));
    PricedForm::new(
        workspace,
        typed,
        Memo::new(move |_| stats_request(typed.get())),
        Signal::derive(move || domains_route(&typed.get())),
        Signal::derive(move || domains_input(&typed.get())),
    )
}

/// The domains textarea with the priced form's buttons; a run shows its result at the
/// domains' URL.
#[component]
fn StatsForm(form: PricedForm, text: RwSignal<String>) -> impl IntoView {
    let typed = form.items;
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
                {priced_form_buttons(form, "Get stats", "domain", FormHooks {
                    on_shown: Some(Callback::new(|route: String| store::local_set(LAST_VIEW_KEY, &route))),
                    ..FormHooks::default()
                })}
            </div>
        </div>
    }
}

/// The shown run: its cards, CSV export and validation; before one, loading or a hint.
#[component]
fn StatsResults(
    shown: PricedCall,
    loading: Signal<bool>,
    committed: Memo<Vec<String>>,
) -> impl IntoView {
    let workspace = use_workspace();
    let records = shown.decoded::<Vec<DomainStatsRecord>>();
    let compare_href = move || compare_route(&committed.get());
    let export = move |_| {
        let text = records.with_untracked(|r| match r {
            Some(Ok(records)) => metrics::to_csv(records),
            _ => String::new(),
        });
        if let Err(e) = csv::download("domain-stats.csv", "text/csv", &text, shown.origin()) {
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
            return no_results(loading.get());
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

/// The stats call for `domains` (none without domains).
fn stats_request(domains: Vec<String>) -> Option<Request> {
    (!domains.is_empty()).then(|| {
        Request::DomainStats(domainstats::Request {
            key: Default::default(),
            domains,
        })
    })
}

/// The input of a stats call as the history shows it.
fn domains_input(domains: &[String]) -> String {
    let n = domains.len();
    format!("{n} domain{}: {}", plural(n), preview(domains))
}
