//! Progress of a bulk job, with a cancel button.

use leptos::prelude::*;

use crate::workspace::Call;

/// Shows `done of total` while `call` runs a bulk job, and a Cancel button.
#[component]
pub fn ProgressBar(call: Call, #[prop(optional)] unit: &'static str) -> impl IntoView {
    let unit = if unit.is_empty() { "keywords" } else { unit };
    view! {
        <Show when=move || call.loading.get()>
            <div class="progress" data-testid="progress" role="status" aria-live="polite">
                <super::Waiting call=call />
                {move || call.state.with(|s| s.as_ref().and_then(|s| s.cancelling)).map(|n| view! {
                    <span class="warn" data-testid="cancelling">{if n == 0 {
                        "Cancelling — finishing up".to_string()
                    } else {
                        format!("Cancelling — waiting for {n} request{} already sent", crate::model::plural(n))
                    }}</span>
                })}
                {move || match call.progress.get() {
                    Some((done, total)) => view! {
                        <progress max=total.max(1) value=done aria-label="Progress"></progress>
                        <span>{format!("{} of {} {unit}", super::fmt_int(done as i64), super::fmt_int(total as i64))}</span>
                    }.into_any(),
                    None => view! { <progress aria-label="Working"></progress><span>"Working…"</span> }.into_any(),
                }}
                <button type="button" class="secondary" data-testid="cancel" on:click=move |_| call.cancel()
                    disabled=move || call.state.with(|s| s.as_ref().is_some_and(|s| s.cancelling.is_some()))>"Cancel"</button>
            </div>
        </Show>
    }
}

/// Says so while `call` waits for another job (in this or another tab) that is buying some
/// of the same records: it then buys only what that job did not.
#[component]
pub fn Waiting(call: Call) -> impl IntoView {
    move || {
        call.state
            .with(|s| s.as_ref().and_then(|s| s.waiting))
            .map(|place| {
                view! {
                    <span class="warn" data-testid="waiting" role="status">
                        {format!("Being bought {place}: waiting for it, so nothing is bought twice.")}
                    </span>
                }
            })
    }
}
