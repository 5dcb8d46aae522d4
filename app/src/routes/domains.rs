//! Domain research (issue 7): shared pieces of the domain pages and the domain stats page
//! (`/domains?d=a.com%0Ab.com`): authority cards for one or many domains.
//!
//! Pages: `/domains` (stats of many domains), `/domain?d=&tab=` (one domain: overview,
//! backlinks, ranked keywords; [`super::domain`]), `/domain/pages?u=` (page backlink metrics;
//! [`super::domain_pages`]) and `/domain/compare?d=` (up to 4 domains;
//! [`super::domain_compare`]). Every call goes through [`crate::workspace::run`]: its price is on
//! the button before it runs, a stored result opens without a call, and it is recorded in
//! the history.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use serde::de::DeserializeOwned;
use serpkit::ops::domainstats::{self, DomainStatsRecord};
use serpkit::{Request, Usd};

use crate::components::domain_card::DomainCard;
use crate::components::virtual_table::Shared;
use crate::components::{price_text, run_text, ErrorBox, PriceButton, ResultMeta, ValidationPanel};
use crate::model::{plural, CallResult};
use crate::paths::{compare_route, domains_route};
use crate::workspace::{self, use_workspace, Call, Job, Workspace};

/// Most domains the compare view takes.
pub const MAX_COMPARE: usize = 4;

/// A domain as typed or pasted, normalized: trimmed, lower case, without scheme, path, port
/// or trailing dot (`https://Example.com/x` → `example.com`). The request check still
/// validates the result.
pub fn normalize_domain(s: &str) -> String {
    let t = s.trim();
    let t = t
        .split_once("://")
        .map(|(scheme, rest)| {
            if scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                rest
            } else {
                t
            }
        })
        .unwrap_or(t);
    let host = t.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    host.trim_end_matches('.').to_lowercase()
}

/// Domains from text (lines, commas or spaces), normalized, without duplicates.
pub fn parse_domains(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in text
        .split(|c: char| c == '\n' || c == ',' || c.is_whitespace())
        .map(normalize_domain)
        .filter(|d| !d.is_empty())
    {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// One operation of a domain view: its request (from the page state), call state, price,
/// and the stored result (identity, metadata without the body, and decoding).
#[derive(Clone, Copy)]
pub struct DomainOperation {
    /// Loading and error state.
    pub call: Call,
    /// The request, when the input is complete.
    pub request: Memo<Option<Request>>,
    /// (cache key, time) of the stored result: changes only when another result is stored.
    pub ident: Memo<Option<(String, f64)>>,
    /// A result bought here is stored (not only an imported one).
    bought: Memo<bool>,
    /// The stored result without its body (meta line, validation panel).
    pub meta: Memo<Option<CallResult>>,
    /// Price now (zero when stored) and billable units.
    pub price: Memo<(Usd, u64)>,
}

impl DomainOperation {
    /// An operation whose request `make` derives from signals.
    pub fn new(
        workspace: Workspace,
        make: impl Fn() -> Option<Request> + Send + Sync + 'static,
    ) -> DomainOperation {
        let request = Memo::new(move |_| make());
        let bought = Memo::new(move |_| {
            let key = request.with(|r| r.as_ref().map(|r| workspace::canonical(r).1));
            key.is_some_and(|k| workspace.has_result(&k))
        });
        let ident = Memo::new(move |_| {
            let key = request.with(|r| r.as_ref().map(|r| workspace::canonical(r).1))?;
            workspace
                .results
                .with(|m| m.get(&key).filter(|r| r.missing.is_empty()).map(|r| r.at))
                .map(|at| (key, at))
        });
        let meta = Memo::new(move |_| {
            let (key, _) = ident.get()?;
            workspace.results.with_untracked(|m| {
                m.get(&key).map(|r| CallResult {
                    key: r.key.clone(),
                    operation: r.operation.clone(),
                    request: r.request.clone(),
                    body: String::new(),
                    validation: r.validation.clone(),
                    charge: r.charge,
                    at: r.at,
                    mode: r.mode,
                    missing: r.missing.clone(),
                    imported: r.imported,
                })
            })
        });
        let price = Memo::new(move |_| {
            request
                .with(|r| {
                    r.as_ref()
                        .map(|r| workspace::price_now(workspace, r, false))
                })
                .unwrap_or((Usd::ZERO, 0))
        });
        DomainOperation {
            call: Call::following(move || {
                request.with(|r| r.as_ref().map(|r| workspace::canonical(r).1))
            }),
            request,
            ident,
            bought,
            meta,
            price,
        }
    }

    /// True when a result is stored for the current request (bought here or imported).
    pub fn stored(self) -> bool {
        self.ident.with(Option::is_some)
    }

    /// True when a result bought here is stored: an imported one is shown, but its price
    /// button stays (running it buys it).
    pub fn bought(self) -> bool {
        self.bought.get()
    }

    /// The price of buying it again (Refresh).
    pub fn full_price(self) -> Usd {
        self.request
            .with(|r| r.as_ref().map(serpkit::estimate_cost))
            .unwrap_or_default()
    }

    /// Runs it (or opens the stored result when `refresh` is false).
    pub fn run(self, workspace: Workspace, route: String, input: String, refresh: bool) {
        if let Some(request) = self.request.get_untracked() {
            workspace::run(
                workspace,
                self.call,
                Job {
                    request,
                    route,
                    input,
                },
                refresh,
                |_| {},
            );
        }
    }

    /// The stored result decoded (recomputed only when another result is stored); `Err` when
    /// the stored body cannot be read as this operation's response.
    pub fn decoded<T>(self, workspace: Workspace) -> Memo<Option<Result<Shared<T>, String>>>
    where
        T: DeserializeOwned + Send + Sync + 'static,
    {
        Memo::new(move |_| {
            let (key, _) = self.ident.get()?;
            workspace.results.with_untracked(|m| {
                m.get(&key).map(|r| {
                    serpkit::decode::<T>(&r.body)
                        .map(Shared::new)
                        .map_err(|e| e.to_string())
                })
            })
        })
    }
}

/// A card for one operation: title, price button (Refresh when stored), error, loading,
/// the body when a result is stored, the result's meta line and validation panel.
#[allow(clippy::too_many_arguments)]
pub fn operation_card(
    workspace: Workspace,
    operation: DomainOperation,
    id: &'static str,
    title: &'static str,
    what: &'static str,
    route: Signal<String>,
    input: Signal<String>,
    body: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let text = Signal::derive(move || {
        operation.price.track();
        operation
            .request
            .with(|r| {
                r.as_ref()
                    .map(|r| run_text(workspace, &format!("Get {what}"), r, false, ""))
            })
            .unwrap_or_else(|| price_text(&format!("Get {what}"), Usd::ZERO, 1, ""))
    });
    let body = StoredValue::new(body);
    let run = move |refresh: bool| {
        operation.run(
            workspace,
            route.get_untracked(),
            input.get_untracked(),
            refresh,
        )
    };
    view! {
        <section class="card" id=id data-testid=format!("section-{id}") aria-labelledby=format!("{id}-title")
            aria-busy=move || operation.call.loading.get().to_string()>
            <div class="card-head">
                <h2 id=format!("{id}-title")>{title}</h2>
                <Show when=move || !operation.bought()>
                    <PriceButton testid=id text=text price=Signal::derive(move || operation.price.get().0)
                        disabled=Signal::derive(move || operation.call.loading.get() || operation.request.with(Option::is_none))
                        on_run=Callback::new(move |_| run(false)) />
                </Show>
                <Show when=move || operation.bought()>
                    <PriceButton testid="refresh" secondary=true
                        text=Signal::derive(move || price_text("Refresh", operation.full_price(), 1, ""))
                        price=Signal::derive(move || operation.full_price())
                        disabled=Signal::derive(move || operation.call.loading.get())
                        on_run=Callback::new(move |_| run(true)) />
                </Show>
            </div>
            <ErrorBox call=operation.call />
            {move || operation.call.loading.get().then(|| view! {
                <p class="meta loading" role="status" data-testid="loading"><span class="spinner" aria-hidden="true"></span>"Loading…"</p>
            })}
            {move || if operation.stored() {
                view! {
                    <div class="op-body">
                        <ResultMeta result=Signal::derive(move || operation.meta.get()) />
                        {body.with_value(|b| b())}
                        <ValidationPanel result=Signal::derive(move || operation.meta.get()) />
                    </div>
                }.into_any()
            } else {
                view! {
                    <p class="meta empty-small" data-testid="not-loaded">
                        {format!("Not loaded yet. Press “Get {what}” to buy it; it is saved in this browser and reopens without a charge.")}
                    </p>
                }.into_any()
            }}
        </section>
    }
}

/// A decode failure of a stored body, shown in place of the data.
pub fn unreadable(e: String) -> AnyView {
    view! {
        <div class="error" role="alert" data-testid="unreadable">
            <strong>"The stored response could not be read"</strong>
            <p class="msg">{e}</p>
            <p class="hint">"Refresh buys it again; the validation panel below lists what the service sent."</p>
        </div>
    }
    .into_any()
}

/// The sub-navigation of the domain pages.
#[component]
pub fn DomainNav() -> impl IntoView {
    view! {
        <nav class="subnav" aria-label="Domain research">
            <A href="/domains" attr:data-testid="subnav-stats">"Domain stats"</A>
            <A href="/domain" attr:data-testid="subnav-domain">"One domain"</A>
            <A href="/domain/pages" attr:data-testid="subnav-pages">"Page backlinks"</A>
            <A href="/domain/compare" attr:data-testid="subnav-compare">"Compare"</A>
        </nav>
    }
}

/// The domain stats page: authority cards for one or many domains (`domainstats`).
#[component]
pub fn DomainStatsPage() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_query_map();
    let navigate = use_navigate();
    let text = RwSignal::new(q.with_untracked(|m| m.get("d")).unwrap_or_default());
    let typed = Memo::new(move |_| parse_domains(&text.get()));
    // The shown domains: those in the URL (the last run).
    let committed = Memo::new(move |_| parse_domains(&q.with(|m| m.get("d")).unwrap_or_default()));
    let typed_req = Memo::new(move |_| {
        let d = typed.get();
        (!d.is_empty()).then(|| {
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: d,
            })
        })
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
    let shown = DomainOperation::new(workspace, move || {
        let d = committed.get();
        (!d.is_empty()).then(|| {
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: d,
            })
        })
    });
    let records = shown.decoded::<Vec<DomainStatsRecord>>(workspace);
    let price = Memo::new(move |_| {
        typed_req
            .with(|r| {
                r.as_ref()
                    .map(|r| workspace::price_now(workspace, r, false))
            })
            .unwrap_or((Usd::ZERO, 0))
    });
    let call = shown.call;
    let nav = StoredValue::new(navigate);
    let go = move |refresh: bool| {
        let d = typed.get_untracked();
        let Some(request) = typed_req.get_untracked() else {
            return;
        };
        let route = domains_route(&d);
        let n = d.len();
        let input = format!("{n} domain{}: {}", plural(n), preview(&d));
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
                .is_some_and(|r| workspace.has_result(&workspace::canonical(r).1))
        })
    };
    let can_run = Signal::derive(move || {
        !call.loading.get() && !typed.with(Vec::is_empty) && check.with(Option::is_none)
    });
    let compare_href = move || compare_route(&committed.get());

    view! {
        <section class="page domain-page" aria-labelledby="ds-title">
            <DomainNav />
            <h1 id="ds-title">"Domain stats"</h1>
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
            <ErrorBox call=call />
            {move || {
                if !shown.stored() {
                    return if call.loading.get() {
                        view! { <p class="empty" data-testid="loading"><span class="spinner" aria-hidden="true"></span>"Fetching domain statistics…"</p> }.into_any()
                    } else {
                        view! {
                            <div class="empty" data-testid="empty">
                                <h2>"Authority at a glance"</h2>
                                <p>"Enter one or more domains and press “Get stats”. Each domain costs $0.05; the total is on the button before anything is bought. Results are saved in this browser and reopen without paying again."</p>
                            </div>
                        }.into_any()
                    };
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
            }}
        </section>
    }
}

/// The first items, for the history.
pub fn preview(items: &[String]) -> String {
    let mut s = items.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 3 {
        s.push_str(", …");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_are_normalized() {
        assert_eq!(normalize_domain(" https://Example.com/x?y "), "example.com");
        assert_eq!(normalize_domain("www.example.com."), "www.example.com");
        assert_eq!(normalize_domain("user@example.com:8080/a"), "example.com");
        assert_eq!(normalize_domain(""), "");
        assert_eq!(
            parse_domains("a.com, b.com\nA.com\n\n https://c.com/ "),
            vec!["a.com".to_string(), "b.com".into(), "c.com".into()]
        );
    }
}
