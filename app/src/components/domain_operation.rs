//! One operation of a domain view ([`DomainOperation`]) and its card ([`operation_card`]):
//! shared by the domain pages (stats, one domain, page backlinks, compare), with their
//! sub-navigation ([`DomainNav`]) and the box shown when a stored body cannot be read.

use leptos::prelude::*;
use leptos_router::components::A;
use serde::de::DeserializeOwned;
use serpkit::{Request, Usd};

use crate::components::virtual_table::Shared;
use crate::components::{price_text, run_text, ErrorBox, PriceButton, ResultMeta, ValidationPanel};
use crate::model::CallResult;
use crate::workspace::{self, Call, Job, Workspace};

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
