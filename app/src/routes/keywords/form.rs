//! The explorer's input: the keyword box, the country, and the priced form's Run and Refresh.

use leptos::prelude::*;

use crate::components::{priced_form_buttons, FormHooks, PricedForm};
use crate::model::plural;

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

/// The keyword box, the country and the priced form's buttons; `committed` is the shown
/// result's key. `on_run` is told when a run starts, `on_shown` gets the route it shows.
pub fn research_form(
    form: PricedForm,
    text: RwSignal<String>,
    cc: RwSignal<String>,
    committed: Memo<Option<String>>,
    on_run: Callback<bool>,
    on_shown: Callback<String>,
) -> impl IntoView {
    let keywords = form.items;
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
                {priced_form_buttons(form, "Run", "keyword", FormHooks {
                    on_screen: Some(committed),
                    on_run: Some(on_run),
                    on_shown: Some(on_shown),
                })}
            </div>
        </div>
    }
}
