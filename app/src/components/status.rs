//! Status pieces: the error box, the "where this result came from" line, and safe links.

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops::check::is_http_url;
use serpkit::Usd;

use crate::model::{CallResult, Mode};
use crate::workspace::Call;

/// The last error of `call`: what happened and what to do. Results stay visible beside it.
#[component]
pub fn ErrorBox(call: Call) -> impl IntoView {
    move || {
        call.error.get().map(|e| {
            let title = match (e.status, e.code.as_str()) {
                _ if e.demo_failure => "The demo sandbox could not run".to_string(),
                (Some(401), _) => "The API key was refused (HTTP 401)".to_string(),
                (Some(402), _) => "No credit left (HTTP 402)".to_string(),
                (Some(s), _) => format!("The service answered HTTP {s}"),
                (None, "missing_key") => "No API key".into(),
                (None, "budget_exceeded") => "Over the budget cap".into(),
                (None, "invalid_request") => "Check the input".into(),
                (None, "aborted") => "Cancelled".into(),
                (None, "app_unavailable") => "Part of the app could not be loaded".into(),
                (None, "insecure_base_url") => "The key would be sent unencrypted".into(),
                (None, "invalid_base_url") => "The base URL is not valid".into(),
                (None, "network") => "Could not reach the service".into(),
                (None, "connection_lost") => "The connection was lost after the request left".into(),
                (None, "loading") => "Your workspace is still loading".into(),
                (None, "contract_violation") => "The answer breaks the contract (strict validation): kept, not used".into(),
                (None, "timeout") => "The service did not answer in time".into(),
                _ => "The call failed".into(),
            };
            let settings = !e.demo_failure
                && (matches!(
                    e.code.as_str(),
                    "missing_key" | "budget_exceeded" | "network" | "insecure_base_url" | "invalid_base_url"
                )
                    || matches!(e.status, Some(401 | 402)));
            let charged = e.charge > Usd::ZERO;
            view! {
                <div class="error" role="alert" data-testid="error" data-code=e.code.clone()
                    data-status=e.status.map(|s| s.to_string()).unwrap_or_default()>
                    <strong>{title}</strong>
                    <p class="msg">{e.message.clone()}</p>
                    <p class="hint">{e.hint.clone()}
                        {settings.then(|| view! { " " <A href="/settings">"Open Settings"</A> })}
                    </p>
                    {charged.then(|| view! { <p class="hint">{format!("This call was charged {}.", e.charge)}</p> })}
                    {(e.possible_charge > Usd::ZERO).then(|| view! {
                        <p class="hint" data-testid="possibly-charged-note">{format!("This call may have been charged {}: it was sent and its outcome is unknown. It counts against your budget cap and is not repeated automatically.", e.possible_charge)}</p>
                    })}
                </div>
            }
        })
    }
}

/// A page whose code (its wasm chunk) could not be fetched from the app's own server.
#[component]
pub fn PageLoadFailed() -> impl IntoView {
    view! {
        <section class="empty">
            <div class="error" role="alert" data-testid="page-load-error">
                <strong>"This page could not be loaded"</strong>
                <p class="msg">"Its code could not be fetched from the app's server: the connection may have dropped, or the app was updated."</p>
                <p class="hint">"Open the page again to retry, or reload the app. Nothing was charged."</p>
            </div>
        </section>
    }
}

/// Where a shown result came from: time, mode, charge, and "stored: no charge to open".
#[component]
pub fn ResultMeta(#[prop(into)] result: Signal<Option<CallResult>>) -> impl IntoView {
    move || {
        result.get().map(|r| {
            let demo = r.mode == Mode::Demo;
            if r.imported {
                // Not bought here: its request costs its price when run again.
                return view! {
                    <p class="meta" data-testid="result-meta" data-imported="true">
                        <span class="badge imported" data-testid="imported">"imported"</span>
                        {format!(" from a workspace file (bought {} elsewhere, not here)", super::fmt_time(r.at))}
                        {demo.then(|| view! { " · " <span class="synthetic">"synthetic demo data"</span> })}
                        " · running it again buys it at its price"
                    </p>
                }
                .into_any();
            }
            view! {
                <p class="meta" data-testid="result-meta">
                    {format!("Bought {} for {}", super::fmt_time(r.at), r.charge)}
                    {demo.then(|| view! { " · " <span class="synthetic">"synthetic demo data"</span> })}
                    " · stored: opening it again costs nothing"
                    {(!r.missing.is_empty()).then(|| view! {
                        <span class="warn">{format!(" · incomplete: {} not bought yet", r.missing.len())}</span>
                    })}
                </p>
            }
            .into_any()
        })
    }
}

/// A link only when `href` is an absolute http(s) URL (new tab, `rel="noopener noreferrer"`);
/// otherwise the text alone.
#[component]
pub fn ExtLink(href: String, children: Children) -> impl IntoView {
    if is_http_url(&href) {
        view! { <a href=href target="_blank" rel="noopener noreferrer">{children()}</a> }.into_any()
    } else {
        view! { <span class="nolink">{children()}</span> }.into_any()
    }
}
