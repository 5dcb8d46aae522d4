//! The priced form: the one way a page buys what is typed into it and then shows the result
//! at its URL (the explorer's keywords, the domain stats' domains, the page metrics' URLs).
//! Its sibling `priced_call.rs` buys a section from the page's state; both price with
//! [`workspace::quote_now`] and word it with [`price_text_with`], so "N already bought",
//! Refresh and the price text read the same everywhere.
//!
//! - [`PricedForm`]: the typed items, their request, call, price, Refresh price and input
//!   check.
//! - [`priced_form_buttons`]: Run (its price), Refresh (once a result is stored) and the input
//!   error; a run shows its result at the input's route.
//!
//! Not generic: one copy of this code serves every form (the explorer's is in the first load).

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use serpkit::Request;

use super::{possibly_text, price_text, price_text_with, PriceButton};
use crate::workspace::{self, Call, Job, Quote, Workspace};

/// Longest part of an item at fault that the input error quotes.
const QUOTED_CHARS: usize = 100;

/// What a form's typed input buys: its items, request, call, price and check. `Copy`.
#[derive(Clone, Copy)]
pub struct PricedForm {
    workspace: Workspace,
    /// The typed items (keywords, domains, URLs), parsed and without duplicates.
    pub items: Memo<Vec<String>>,
    /// Their request; none while nothing is typed.
    pub request: Memo<Option<Request>>,
    /// The request's cache key, once per edit (a 10,000-keyword list takes milliseconds).
    pub key: Memo<Option<String>>,
    /// The call running it.
    pub call: Call,
    /// Its price now (records and results already bought are not priced).
    pub price: Memo<Quote>,
    /// Its price bought again (Refresh).
    full_price: Memo<Quote>,
    /// Why the input cannot run, quoting the item at fault.
    pub check: Memo<Option<String>>,
    /// The route that shows the result of the typed input, and the input as the history
    /// shows it.
    route: Signal<String>,
    input: Signal<String>,
}

impl PricedForm {
    /// The form over `items` and their `request` (none when nothing is typed); `route`
    /// shows the result and `input` describes it in the history.
    pub fn new(
        workspace: Workspace,
        items: Memo<Vec<String>>,
        request: Memo<Option<Request>>,
        route: Signal<String>,
        input: Signal<String>,
    ) -> PricedForm {
        let key = Memo::new(move |_| {
            request.with(|r| r.as_ref().map(|r| workspace::cache_key(workspace, r)))
        });
        let call = Call::following(move || key.get());
        // While this request's call runs the buttons are disabled: its price is not
        // recomputed as each chunk's records arrive (planning 10,000 keywords per chunk would
        // make the job quadratic); it is priced again when the call ends.
        let quote = move |refresh: bool| {
            Memo::new(move |prev: Option<&Quote>| match prev {
                Some(q) if call.loading.get() => *q,
                _ => request
                    .with(|r| {
                        r.as_ref()
                            .map(|r| workspace::quote_now(workspace, r, refresh))
                    })
                    .unwrap_or_default(),
            })
        };
        let check = Memo::new(move |_| {
            let e = request.with(|r| r.as_ref().and_then(|r| r.check().err()))?;
            // The field names the item at fault by its index (`/keywords/3`).
            let item = e
                .field
                .rsplit('/')
                .next()
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| items.with(|d| d.get(i).cloned()));
            Some(match item {
                Some(s) => format!(
                    "{e} (“{}”)",
                    s.chars().take(QUOTED_CHARS).collect::<String>()
                ),
                None => e.to_string(),
            })
        });
        PricedForm {
            workspace,
            items,
            request,
            key,
            call,
            price: quote(false),
            full_price: quote(true),
            check,
            route,
            input,
        }
    }

    /// The job of running the typed input now; none while nothing is typed.
    fn job(self) -> Option<Job> {
        Some(Job {
            request: self.request.get_untracked()?,
            route: self.route.get_untracked(),
            input: self.input.get_untracked(),
        })
    }
}

/// What a page adds to its priced form.
#[derive(Clone, Copy, Default)]
pub struct FormHooks {
    /// The key of the result the page shows, where the page shows the typed input's result
    /// itself: while the input is that one and nothing is left to buy, Run says so and is
    /// disabled.
    pub on_screen: Option<Memo<Option<String>>>,
    /// Called as a run starts, with `refresh`.
    pub on_run: Option<Callback<bool>>,
    /// Called with the result's route as it is shown.
    pub on_shown: Option<Callback<String>>,
}

/// Run's text: what to enter while nothing is `typed` (rather than a price of nothing),
/// that the typed input's result is `showing`, else its price from `quote`
/// (`Get stats — $0.0500 for 1 new domain · 1 already bought`).
pub fn run_button_text(
    label: &str,
    unit: &str,
    typed: bool,
    showing: bool,
    quote: Quote,
) -> String {
    if !typed {
        format!("Enter {unit}s to see the price")
    } else if showing {
        "Saved result shown — no charge".to_string()
    } else {
        price_text_with(label, quote.usd, quote.units, unit, quote.reused)
            + &possibly_text(quote.possibly)
    }
}

/// Run (`Get stats — $0.1000 for 1 new domain · 1 already bought`), Refresh once the typed
/// input's result is stored, and why the input cannot run: `label` is what Run says (`Run`,
/// `Get stats`), `unit` what the operation is priced by, singular (`keyword`, `domain`, `URL`:
/// the noun of its records, `serpkit::records::RecordKind::noun`). `hooks` are the explorer's
/// (the others pass the default).
///
/// A plain function, not a `#[component]`: a component's view is type-erased into a view of
/// its own, which would add its code to the first load for nothing.
pub fn priced_form_buttons(
    form: PricedForm,
    label: &'static str,
    unit: &'static str,
    hooks: FormHooks,
) -> impl IntoView {
    let PricedForm {
        workspace,
        items,
        key,
        call,
        price,
        full_price,
        check,
        ..
    } = form;
    let FormHooks {
        on_screen,
        on_run,
        on_shown,
    } = hooks;
    let showing = Memo::new(move |_| {
        on_screen.is_some_and(|k| k.with(|k| k.is_some() && *k == key.get()))
            && price.with(|q| q.units == 0)
    });
    let run_text = Signal::derive(move || {
        run_button_text(
            label,
            unit,
            !items.with(Vec::is_empty),
            showing.get(),
            price.get(),
        )
    });
    let can_run = Signal::derive(move || {
        !call.loading.get()
            && !items.with(Vec::is_empty)
            && check.with(Option::is_none)
            && !showing.get()
    });
    let navigate = StoredValue::new(use_navigate());
    // Runs the typed input (`refresh`: buy it all again), then shows it at its route.
    let go = move |refresh: bool| {
        let Some(job) = form.job() else {
            return;
        };
        if let Some(on_run) = on_run {
            on_run.run(refresh);
        }
        workspace::run_then_show(workspace, call, job, refresh, move |route, options| {
            if let Some(shown) = on_shown {
                shown.run(route.to_string());
            }
            navigate.with_value(|n| n(route, options))
        });
    };
    let stored_now = move || key.with(|k| k.as_ref().is_some_and(|k| workspace.has_result(k)));
    view! {
        <PriceButton testid="run" text=run_text price=Signal::derive(move || price.get().usd)
            disabled=Signal::derive(move || !can_run.get())
            on_run=Callback::new(move |_| go(false)) />
        <Show when=stored_now>
            <PriceButton testid="refresh" secondary=true again=true
                text=Signal::derive(move || { let q = full_price.get(); price_text("Refresh", q.usd, q.units, unit) })
                price=Signal::derive(move || full_price.get().usd)
                disabled=Signal::derive(move || call.loading.get())
                on_run=Callback::new(move |_| go(true)) />
        </Show>
        {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serpkit::Usd;

    #[test]
    fn run_says_what_to_enter_what_is_shown_and_what_is_already_bought() {
        let quote = |micros, units, reused| Quote {
            usd: Usd::from_micros(micros),
            units,
            reused,
            possibly: None,
        };
        assert_eq!(
            run_button_text("Get stats", "domain", false, false, quote(0, 0, 0)),
            "Enter domains to see the price"
        );
        assert_eq!(
            run_button_text("Run", "keyword", true, true, quote(0, 0, 0)),
            "Saved result shown — no charge"
        );
        // The domain stats form says what is already bought, as the explorer does.
        assert_eq!(
            run_button_text("Get stats", "domain", true, false, quote(50_000, 1, 1)),
            "Get stats — $0.0500 for 1 new domain · 1 already bought"
        );
        assert_eq!(
            run_button_text("Get metrics", "URL", true, false, quote(0, 0, 2)),
            "Get metrics — no charge · all 2 URLs already bought"
        );
        assert_eq!(
            run_button_text("Get stats", "domain", true, false, quote(0, 0, 0)),
            "Show saved result — no charge"
        );
    }
}
