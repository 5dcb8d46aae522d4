//! The explorer's input: the keyword box, the country, and the Run and Refresh buttons.

use leptos::prelude::*;

use super::run::Run;
use crate::components::{price_text, price_text_with, PriceButton};
use crate::model::plural;
use crate::workspace::Workspace;

/// Country picker: the common codes plus the current one.
#[component]
pub fn CountrySelect(value: RwSignal<String>, id: &'static str) -> impl IntoView {
    view! {
        <select id=id data-testid="country" on:change=move |ev| value.set(event_target_value(&ev))>
            {move || {
                let cur = value.get();
                let mut opts: Vec<(String, String)> = crate::model::COUNTRIES
                    .iter()
                    .map(|(c, n)| (c.to_string(), format!("{n} ({c})")))
                    .collect();
                if !opts.iter().any(|(c, _)| *c == cur) {
                    opts.push((cur.clone(), cur.clone()));
                }
                opts.into_iter()
                    .map(|(c, n)| {
                        let sel = c == cur;
                        view! { <option value=c selected=sel>{n}</option> }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// The keyword box, the country and the buttons; `committed` is the shown result's key,
/// `go(refresh)` runs.
pub fn research_form(
    workspace: Workspace,
    run: Run,
    text: RwSignal<String>,
    cc: RwSignal<String>,
    committed: Memo<Option<String>>,
    go: impl Fn(bool) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let Run {
        keywords,
        key,
        call,
        price,
        full_price,
        check,
        ..
    } = run;
    // The typed input is the result on screen: nothing to run.
    let showing = Memo::new(move |_| {
        committed.get().is_some_and(|k| k == key.get()) && price.with(|q| q.units == 0)
    });
    let run_text = Signal::derive(move || {
        // Nothing typed: the disabled button says what to do rather than a price of nothing.
        if keywords.with(Vec::is_empty) {
            return "Enter keywords to see the price".to_string();
        }
        if showing.get() {
            return "Saved result shown — no charge".to_string();
        }
        price.with(|q| price_text_with("Run", q.usd, q.units, "keyword", q.reused))
    });
    let can_run = Signal::derive(move || {
        !call.loading.get()
            && !keywords.with(Vec::is_empty)
            && check.with(Option::is_none)
            && !showing.get()
    });
    let stored_now = move || workspace.has_result(&key.get());
    view! {
        <div class="research">
            <div class="field grow">
                <label for="kw-input">"Keywords, one per line"</label>
                <textarea id="kw-input" data-testid="kw-input" rows="6" spellcheck="false"
                    placeholder="running shoes\ntrail running shoes\nbest marathon shoes"
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <p class="meta" data-testid="kw-count" aria-live="polite">
                    {move || {
                        let n = keywords.with(Vec::len);
                        let lines = text.with(|t| t.lines().filter(|l| !l.trim().is_empty()).count());
                        let dup = lines.saturating_sub(n);
                        let mut s = format!("{n} keyword{}", plural(n));
                        if dup > 0 { s.push_str(&format!(" ({dup} duplicate{} removed)", plural(dup))); }
                        s
                    }}
                </p>
            </div>
            <div class="field">
                <label for="kw-country">"Country"</label>
                <CountrySelect value=cc id="kw-country" />
                <PriceButton testid="run" text=run_text price=Signal::derive(move || price.get().usd)
                    disabled=Signal::derive(move || !can_run.get())
                    on_run=Callback::new(move |_| go(false)) />
                <Show when=stored_now>
                    <PriceButton testid="refresh" secondary=true
                        text=Signal::derive(move || { let q = full_price.get(); price_text("Refresh", q.usd, q.units, "keyword") })
                        price=Signal::derive(move || full_price.get().usd)
                        disabled=Signal::derive(move || call.loading.get())
                        on_run=Callback::new(move |_| go(true)) />
                </Show>
                {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
            </div>
        </div>
    }
}
