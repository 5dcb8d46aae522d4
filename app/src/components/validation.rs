//! The validation panel shown with every result: errors and warnings from the core with
//! their JSON paths.

use leptos::prelude::*;

use crate::model::CallResult;

/// Validation of the shown result (summary, then a table of issues).
#[component]
pub fn ValidationPanel(#[prop(into)] result: Signal<Option<CallResult>>) -> impl IntoView {
    move || {
        result.get().map(|r| {
            let v = r.validation;
            let state = if !v.checked {
                "off"
            } else if v.errors > 0 {
                "errors"
            } else if v.warnings > 0 {
                "warnings"
            } else {
                "ok"
            };
            let summary = if v.checked {
                format!("Response validation: {}", v.summary())
            } else {
                "Response validation: off (Settings)".to_string()
            };
            let has = !v.issues.is_empty();
            let omitted = v.omitted;
            let open = v.errors > 0;
            view! {
                <details class="validation" data-testid="validation" data-state=state open=open>
                    <summary>{summary}</summary>
                    {has.then(|| view! {
                        <div class="scroll" tabindex="0" role="region" aria-label="Validation issues">
                        <table class="issues">
                            <caption class="sr-only">"Validation issues"</caption>
                            <thead><tr><th scope="col">"Severity"</th><th scope="col">"Path"</th><th scope="col">"Rule"</th><th scope="col">"Message"</th></tr></thead>
                            <tbody>
                                {v.issues.iter().take(200).map(|i| view! {
                                    <tr class=format!("sev-{}", i.severity)>
                                        <td>{i.severity.clone()}</td>
                                        <td><code>{if i.path.is_empty() { "/".to_string() } else { i.path.clone() }}</code></td>
                                        <td><code>{i.code.clone()}</code></td>
                                        <td>{i.message.clone()}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                        </div>
                    })}
                    {(omitted > 0 || v.issues.len() > 200).then(|| view! {
                        <p class="meta">{format!("{} more not listed.", omitted + v.issues.len().saturating_sub(200))}</p>
                    })}
                    {(!has && v.checked).then(|| view! { <p class="meta">"No issues: the response matches the documented contract."</p> })}
                </details>
            }
        })
    }
}
