//! The price button: every action that calls the service shows its price before it runs.

use leptos::prelude::*;
use serpkit::Usd;

/// `Run — $0.0300 for 100 keywords`; `Show saved result — no charge` when nothing is bought.
pub fn price_text(label: &str, price: Usd, units: u64, unit: &str) -> String {
    if units == 0 {
        return "Show saved result — no charge".into();
    }
    if unit.is_empty() {
        format!("{label} — {price}")
    } else {
        let s = if units == 1 { "" } else { "s" };
        format!("{label} — {price} for {units} {unit}{s}")
    }
}

/// A button that shows what the action costs; `data-price` holds the amount (`$0.0300`).
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
) -> impl IntoView {
    view! {
        <button type="button" class="price" class:secondary=secondary data-testid=testid
            data-price=move || price.get().to_string()
            disabled=move || disabled.get()
            on:click=move |_| on_run.run(())>
            {move || text.get()}
        </button>
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
    }
}
