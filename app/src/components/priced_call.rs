//! The priced-call card: the one way a page shows "a section that buys something". Its
//! price is on the button before the call, the call runs through the workspace, and the
//! stored result is shown with where it came from and its validation report.
//!
//! - [`PricedCall`] (the hook): one request derived from the page's signals, its call
//!   state, its price now and its stored result.
//! - [`PricedCalls`]: the calls one card buys. A single call is a list of one; compare's
//!   sections are one call per domain, priced together (`Get … — $0.2000 for 2 domains`).
//! - [`PricedCallCard`]: title, price button (Refresh once everything is bought), errors,
//!   loading, the body, the result's meta line and validation panel.
//! - [`LoadEverything`]: the page's "Load every section" button over all its calls.

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serpkit::records::RecordKind;
use serpkit::{Request, Usd};

use super::versioned::Versioned;
use super::{
    possibly_text, price_text, price_text_with, ErrorBox, PriceButton, ResultMeta, ValidationPanel,
};
use crate::model::CallResult;
use crate::research::report::Origin;
use crate::workspace::{self, Call, Job, Quote, Workspace};

/// One priced call of a view: its request (from the page state), call state, price, and
/// the stored result (identity, metadata without the body, and decoding). `Copy`.
#[derive(Clone, Copy)]
pub struct PricedCall {
    workspace: Workspace,
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
    /// The price now (nothing when stored; records already bought are not priced).
    pub quote: Memo<Quote>,
    /// The route that shows the result (history).
    route: Signal<String>,
    /// The input as the history shows it.
    input: Signal<String>,
}

impl PricedCall {
    /// A call whose request `make` derives from signals; `route` shows its result and
    /// `input` describes it in the history.
    pub fn new(
        workspace: Workspace,
        route: Signal<String>,
        input: Signal<String>,
        make: impl Fn() -> Option<Request> + Send + Sync + 'static,
    ) -> PricedCall {
        let request = Memo::new(move |_| make());
        let cache_key =
            move || request.with(|r| r.as_ref().map(|r| workspace::cache_key(workspace, r)));
        let bought = Memo::new(move |_| cache_key().is_some_and(|k| workspace.has_result(&k)));
        let ident = Memo::new(move |_| {
            let key = cache_key()?;
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
                    source: r.source.clone(),
                    rejected: r.rejected,
                })
            })
        });
        let quote = Memo::new(move |_| {
            request
                .with(|r| {
                    r.as_ref()
                        .map(|r| workspace::quote_now(workspace, r, false))
                })
                .unwrap_or_default()
        });
        PricedCall {
            workspace,
            call: Call::following(cache_key),
            request,
            ident,
            bought,
            meta,
            quote,
            route,
            input,
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

    /// The price now (reactive).
    pub fn price(self) -> Usd {
        self.quote.with(|q| q.usd)
    }

    /// The price of buying it again (Refresh).
    pub fn full_price(self) -> Usd {
        self.request
            .with(|r| r.as_ref().map(serpkit::estimate_cost))
            .unwrap_or_default()
    }

    /// Runs it (or opens the stored result when `refresh` is false).
    pub fn run(self, refresh: bool) {
        if let Some(request) = self.request.get_untracked() {
            workspace::run(
                self.workspace,
                self.call,
                Job {
                    request,
                    route: self.route.get_untracked(),
                    input: self.input.get_untracked(),
                },
                refresh,
                |_| {},
            );
        }
    }

    /// Where the stored result's rows came from (its source, never the settings now): what
    /// an export of them says (`research::report::Origin`). Untracked: read by click handlers.
    pub fn origin(self) -> Origin {
        self.meta
            .with_untracked(|m| m.as_ref().map(super::csv::origin_of_result))
            .unwrap_or_default()
    }

    /// The origin of the stored results of `calls` together.
    pub fn origin_of(calls: &[PricedCall]) -> Origin {
        calls.iter().fold(Origin::Live, |o, c| o.and(c.origin()))
    }

    /// The stored result decoded (recomputed only when another result is stored); `Err` when
    /// the stored body cannot be read as this operation's response.
    pub fn decoded<T>(self) -> Memo<Option<Result<Versioned<T>, String>>>
    where
        T: DeserializeOwned + Send + Sync + 'static,
    {
        self.decoded_with(|body| serpkit::decode::<T>(body).map_err(|e| e.to_string()))
    }

    /// The stored result read by `read` (recomputed only when another result is stored).
    pub fn decoded_with<T>(
        self,
        read: impl Fn(&str) -> Result<T, String> + Send + Sync + 'static,
    ) -> Memo<Option<Result<Versioned<T>, String>>>
    where
        T: Send + Sync + 'static,
    {
        let workspace = self.workspace;
        Memo::new(move |_| {
            let (key, _) = self.ident.get()?;
            workspace
                .results
                .with_untracked(|m| m.get(&key).map(|r| read(&r.body).map(Versioned::new)))
        })
    }
}

/// The calls one card buys: a single call is a list of one; a card over one call per item
/// (compare: per domain) prices them together and counts the items in its texts.
#[derive(Clone, Copy)]
pub struct PricedCalls {
    calls: StoredValue<Vec<PricedCall>>,
    /// How many of the calls are in use now (the items entered).
    count: Signal<usize>,
    /// What one call is counted as in the texts (`domain`); empty for a single call.
    item: &'static str,
}

impl PricedCalls {
    /// A card of one call.
    pub fn one(call: PricedCall) -> PricedCalls {
        PricedCalls {
            calls: StoredValue::new(vec![call]),
            count: Signal::stored(1),
            item: "",
        }
    }

    /// A card of one call per `item` (`domain`), the first `count` of `calls` in use.
    pub fn per_item(
        calls: Vec<PricedCall>,
        count: Signal<usize>,
        item: &'static str,
    ) -> PricedCalls {
        PricedCalls {
            calls: StoredValue::new(calls),
            count,
            item,
        }
    }

    /// The calls in use now (reactive).
    pub fn active(self) -> Vec<PricedCall> {
        let n = self.count.get();
        self.calls
            .with_value(|c| c.iter().take(n).copied().collect())
    }

    /// Every call, in use or not (their error boxes stay mounted).
    fn all(self) -> Vec<PricedCall> {
        self.calls.get_value()
    }

    /// Calls in use that are not bought here yet.
    fn missing(self) -> usize {
        self.active().iter().filter(|c| !c.bought()).count()
    }

    /// Calls in use with a stored result (bought here or imported).
    fn stored_count(self) -> usize {
        self.active().iter().filter(|c| c.stored()).count()
    }

    fn loading(self) -> bool {
        self.active().iter().any(|c| c.call.loading.get())
    }

    fn price(self) -> Usd {
        self.active().iter().map(|c| c.price()).sum()
    }

    fn full_price(self) -> Usd {
        self.active().iter().map(|c| c.full_price()).sum()
    }

    /// The price button's text: the calls' quotes summed (`Get stats — $0.0500`,
    /// `Get rank distributions — $0.2000 for 2 domains`, `… — no charge · 1 domain
    /// already bought`).
    pub fn button_text(self, label: &str) -> String {
        let active = self.active();
        let mut total = Quote::default();
        let mut noun = None;
        for c in &active {
            let q = c.quote.get();
            total.usd += q.usd;
            total.units += q.units;
            total.reused += q.reused;
            if let Some((n, at)) = q.possibly {
                let (m, last) = total.possibly.unwrap_or((0, 0.0));
                total.possibly = Some((m + n, last.max(at)));
            }
            if q.reused > 0 {
                noun = c
                    .request
                    .with(|r| r.as_ref().and_then(|r| RecordKind::of(r.operation())))
                    .map(RecordKind::noun);
            }
        }
        price_text_with(
            label,
            total.usd,
            total.units,
            noun.unwrap_or(self.item),
            total.reused,
        ) + &possibly_text(total.possibly)
    }

    /// Runs the calls in use: every one on `refresh`, else those not bought here.
    fn run(self, refresh: bool) {
        let n = self.count.get_untracked();
        self.calls.with_value(|calls| {
            for c in calls.iter().take(n) {
                if refresh || !c.bought.get_untracked() {
                    c.run(refresh);
                }
            }
        });
    }
}

/// A card for the calls of one section: title, price button (Refresh when everything is
/// bought), errors, loading, the body when a result is stored, and where each result came
/// from with its validation panel.
#[component]
pub fn PricedCallCard(
    /// The calls (a single call is a list of one).
    calls: PricedCalls,
    /// Section id: `id`, `data-testid="section-<id>"` and the price button's test id.
    id: &'static str,
    /// Section title.
    title: &'static str,
    /// What the section buys: the button says “Get {what}”.
    what: &'static str,
    /// The stored result.
    #[prop(into)]
    body: ViewFn,
) -> impl IntoView {
    let label = format!("Get {what}");
    let text = Signal::derive(move || calls.button_text(&label));
    let per_item = !calls.item.is_empty();
    let not_loaded = if per_item {
        format!("Not loaded yet. Press “Get {what}” to buy it for every {}; results are saved and reopen without a charge.", calls.item)
    } else {
        format!("Not loaded yet. Press “Get {what}” to buy it; it is saved in this browser and reopens without a charge.")
    };
    let loading = Memo::new(move |_| calls.loading());
    let missing = Memo::new(move |_| calls.missing());
    view! {
        <section class="card" id=id data-testid=format!("section-{id}") aria-labelledby=format!("{id}-title")
            aria-busy=move || loading.get().to_string()>
            <div class="card-head">
                <h2 id=format!("{id}-title")>{title}</h2>
                <Show when=move || { missing.get() > 0 }>
                    <PriceButton testid=id text=text price=Signal::derive(move || calls.price())
                        disabled=Signal::derive(move || loading.get() || calls.active().iter().any(|c| c.request.with(Option::is_none)))
                        on_run=Callback::new(move |_| calls.run(false)) />
                </Show>
                <Show when=move || { missing.get() == 0 }>
                    <PriceButton testid="refresh" secondary=true again=true
                        text=Signal::derive(move || price_text("Refresh", calls.full_price(), 1, ""))
                        price=Signal::derive(move || calls.full_price())
                        disabled=Signal::derive(move || loading.get())
                        on_run=Callback::new(move |_| calls.run(true)) />
                </Show>
            </div>
            {calls.all().into_iter().map(|c| view! { <ErrorBox call=c.call /><super::Waiting call=c.call /> }).collect_view()}
            {move || loading.get().then(|| view! {
                <p class="meta loading" role="status" data-testid="loading"><span class="spinner" aria-hidden="true"></span>"Loading…"</p>
            })}
            {move || {
                let n = calls.count.get();
                let have = calls.stored_count();
                if have == 0 {
                    // Nothing left to pay (every record bought in another call): say so, so
                    // this section and the page's "load every section" button agree.
                    let text = if calls.price() == Usd::ZERO && calls.active().iter().all(|c| c.request.with(Option::is_some)) {
                        format!("Already bought: press “Get {what}” to show it here (no charge).")
                    } else {
                        not_loaded.clone()
                    };
                    return view! { <p class="meta empty-small" data-testid="not-loaded">{text}</p> }.into_any();
                }
                let body = body.run();
                if !per_item {
                    let call = calls.all()[0];
                    return view! {
                        <div class="op-body">
                            <ResultMeta result=Signal::derive(move || call.meta.get()) />
                            {body}
                            <ValidationPanel result=Signal::derive(move || call.meta.get()) />
                        </div>
                    }.into_any();
                }
                view! {
                    <div class="op-body">
                        {(have < n).then(|| view! { <p class="meta warn">{format!("{have} of {n} {}s loaded.", calls.item)}</p> })}
                        {body}
                        <details class="metas">
                            <summary class="meta">"Where these results came from"</summary>
                            {calls.active().into_iter().map(|c| view! {
                                <ResultMeta result=Signal::derive(move || c.meta.get()) />
                                <ValidationPanel result=Signal::derive(move || c.meta.get()) />
                            }).collect_view()}
                        </details>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

/// "Load every section — $x" (the calls not bought yet), "Show every section — no charge"
/// when what is not shown yet was bought in other calls, "Everything is loaded" only when
/// every section shows its result (issue 54: the badge said loaded beside a section that
/// said "Not loaded yet").
#[component]
pub fn LoadEverything(
    /// Every call of the page.
    #[prop(into)]
    calls: Signal<Vec<PricedCall>>,
    /// Disabled for another reason (the input is not valid).
    #[prop(into)]
    blocked: Signal<bool>,
    /// A secondary (outline) button.
    #[prop(optional)]
    secondary: bool,
) -> impl IntoView {
    let price = Memo::new(move |_| calls.get().iter().map(|c| c.price()).sum::<Usd>());
    let all_shown = Memo::new(move |_| {
        calls
            .get()
            .iter()
            .all(|c| c.stored() || c.request.with(Option::is_none))
    });
    // Priced as a whole against what is left of the budget: run whole, or not at all (issue
    // 43: run section by section, the cap bought some and refused the rest).
    let workspace = workspace::use_workspace();
    let over = Memo::new(move |_| {
        super::budget::Budget::now(workspace)
            .filter(|b| price.get() > Usd::ZERO && !b.admits(price.get()))
    });
    let run = move || {
        for c in calls.get_untracked() {
            if !c.ident.with_untracked(Option::is_some) && c.request.with_untracked(Option::is_some)
            {
                c.run(false);
            }
        }
    };
    view! {
        <PriceButton testid="run-all" secondary=secondary
            text=Signal::derive(move || {
                let p = price.get();
                if all_shown.get() {
                    "Everything is loaded".to_string()
                } else if p == Usd::ZERO {
                    "Show every section — already bought, no charge".to_string()
                } else {
                    format!("Load every section — {p}")
                }
            })
            price=Signal::derive(move || price.get())
            disabled=Signal::derive(move || all_shown.get() || blocked.get() || over.with(Option::is_some))
            on_run=Callback::new(move |_| run()) />
        {move || over.get().map(|b| view! {
            <p class="meta warn" role="status" data-testid="run-all-why">{format!(
                "Not enough budget to load every section: they cost {} together and {} is left of the {} cap. Load the sections one by one, or raise the cap in Settings.",
                price.get(), b.left, b.cap
            )}</p>
        })}
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
