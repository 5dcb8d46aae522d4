//! The price button: every action that calls the service shows its price before it runs.

use leptos::prelude::*;
use serpkit::Usd;

use crate::workspace::use_workspace;

/// `Run — $0.0300 for 100 keywords`; `Show saved result — no charge` when nothing is bought.
pub fn price_text(label: &str, price: Usd, units: u64, unit: &str) -> String {
    price_text_with(label, price, units, unit, 0)
}

/// [`price_text`] for a call priced per record, `reused` of whose records are already
/// bought (not priced): `Run — $0.0003 for 1 new keyword · 10 already bought`, and
/// `Run — no charge · all 10 keywords already bought` when every record is.
pub fn price_text_with(label: &str, price: Usd, units: u64, unit: &str, reused: usize) -> String {
    let s = |n: u64| if n == 1 { "" } else { "s" };
    match (units, reused) {
        (0, 0) => "Show saved result — no charge".into(),
        (0, 1) => format!("{label} — no charge · 1 {unit} already bought"),
        (0, r) => format!("{label} — no charge · all {r} {unit}s already bought"),
        (_, 0) if unit.is_empty() => format!("{label} — {price}"),
        (n, 0) => format!("{label} — {price} for {n} {unit}{}", s(n)),
        (n, r) => format!(
            "{label} — {price} for {n} new {unit}{} · {r} already bought",
            s(n)
        ),
    }
}

/// What a price adds when some of what it buys was possibly charged in an interrupted
/// call: ` · 1 possibly charged 3 s ago in an interrupted call` (empty otherwise).
pub fn possibly_text(possibly: Option<(usize, f64)>) -> String {
    match possibly {
        Some((n, at)) => format!(
            " · {n} possibly charged {} ago in an interrupted call",
            crate::workspace::errors::ago(crate::workspace::now() - at)
        ),
        None => String::new(),
    }
}

/// A button that shows what the action costs; `data-price` holds the amount (`$0.0300`).
/// Until the workspace is loaded it shows no price and cannot run: its stored results,
/// records and journal decide what a call buys.
#[component]
pub fn PriceButton(
    /// Button text (see [`price_text`]).
    #[prop(into)]
    text: Signal<String>,
    /// The price shown.
    #[prop(into)]
    price: Signal<Usd>,
    /// Disabled (nothing to run, or a call is running).
    #[prop(into)]
    disabled: Signal<bool>,
    /// Runs the action.
    on_run: Callback<()>,
    /// `data-testid` of the button.
    testid: &'static str,
    /// A secondary (outline) button.
    #[prop(optional)]
    secondary: bool,
    /// The action buys again what is already bought and saved (Refresh): a click asks first,
    /// and only "Buy again" runs it (`{testid}-confirm`, `{testid}-again`). Decided (issue 43):
    /// every re-purchase asks, in demo mode too, so the habit is the same in both.
    #[prop(optional)]
    again: bool,
) -> impl IntoView {
    let loaded = use_workspace().loaded;
    let asking = RwSignal::new(false);
    let click = move |_| {
        if loaded.get_untracked() {
            if again {
                asking.set(true);
            } else {
                on_run.run(());
            }
        }
    };
    view! {
        <button type="button" class="price" class:secondary=secondary data-testid=testid
            data-price=move || if loaded.get() { price.get().to_string() } else { String::new() }
            disabled=move || !loaded.get() || disabled.get() || asking.get()
            on:click=click>
            {move || if loaded.get() { text.get() } else { "Loading your workspace…".to_string() }}
        </button>
        <Show when=move || asking.get()>
            <span class="confirm" role="group" aria-label="Buy again?" data-testid=format!("{testid}-confirm")>
                <span role="status">{move || format!("Already bought and saved. Buy it again for {}?", price.get())}</span>
                " "<button type="button" class="price" data-testid=format!("{testid}-again")
                    on:click=move |_| { asking.set(false); on_run.run(()) }>"Buy again"</button>
                " "<button type="button" class="secondary" data-testid=format!("{testid}-keep")
                    on:click=move |_| asking.set(false)>"Keep the saved one"</button>
            </span>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        let p = Usd::from_micros(30_000);
        assert_eq!(
            price_text("Run", p, 100, "keyword"),
            "Run — $0.0300 for 100 keywords"
        );
        assert_eq!(
            price_text("Run", p, 1, "keyword"),
            "Run — $0.0300 for 1 keyword"
        );
        assert_eq!(price_text("Run", p, 1, ""), "Run — $0.0300");
        assert_eq!(price_text("Run", p, 0, ""), "Show saved result — no charge");
        assert_eq!(
            price_text_with("Run", Usd::from_micros(300), 1, "keyword", 10),
            "Run — $0.0003 for 1 new keyword · 10 already bought"
        );
        assert_eq!(
            price_text_with("Run", Usd::ZERO, 0, "keyword", 10),
            "Run — no charge · all 10 keywords already bought"
        );
        assert_eq!(
            price_text_with("Get stats", Usd::ZERO, 0, "domain", 1),
            "Get stats — no charge · 1 domain already bought"
        );
    }
}
