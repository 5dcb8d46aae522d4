//! The call history: every call with its input, time, price shown, charge and validation;
//! "Open" shows the stored result again without a call.

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::Usd;

use crate::components::fmt_time;
use crate::model::plural;
use crate::workspace::use_workspace;

/// The history page.
#[component]
pub fn History() -> impl IntoView {
    let workspace = use_workspace();
    let total = move || {
        workspace
            .history
            .with(|h| h.iter().map(|e| e.charge).sum::<Usd>())
    };
    let confirm = RwSignal::new(false);
    view! {
        <section class="page" aria-labelledby="hist-title">
            <h1 id="hist-title">"Call history"</h1>
            <p class="meta" data-testid="history-summary">{move || {
                let n = workspace.history.with(Vec::len);
                format!("{n} call{}, {} charged in total. Opening a stored result costs nothing.", plural(n), total())
            }}</p>
            <Show when=move || !workspace.history.with(Vec::is_empty)
                fallback=|| view! { <div class="empty" data-testid="history-empty"><p>"No calls yet. Every call you run appears here with its price and can be reopened without paying again."</p></div> }>
                <div class="scroll">
                    <table class="data" data-testid="history-table">
                        <caption class="sr-only">"Calls, newest first"</caption>
                        <thead><tr>
                            <th scope="col">"Time"</th><th scope="col">"Operation"</th><th scope="col">"Input"</th>
                            <th scope="col" class="num">"Price shown"</th><th scope="col" class="num">"Charged"</th>
                            <th scope="col">"Validation"</th><th scope="col">"Outcome"</th><th scope="col">"Result"</th>
                        </tr></thead>
                        <tbody>
                            <For each=move || workspace.history.get() key=|e| format!("{}|{}|{}|{}", e.id, e.outcome, e.charge, e.possible_charge) let:e>
                                {
                                    let has = !e.key.is_empty();
                                    let key = e.key.clone();
                                    let stored = move || has && workspace.results.with(|m| m.contains_key(&key));
                                    let route = e.route.clone();
                                    let interrupted = e.outcome == "interrupted";
                                    view! {
                                        <tr data-testid="history-row" data-op=e.operation.clone() data-outcome=e.outcome.clone()>
                                            <td>{fmt_time(e.at)}</td>
                                            <td><code>{e.operation.clone()}</code>" "<span class="meta">{e.mode.as_str()}</span></td>
                                            <td class="input">{e.input.clone()}</td>
                                            <td class="num">{e.estimate.to_string()}</td>
                                            <td class="num" data-testid="history-charge">{e.charge.to_string()}
                                                {(e.possible_charge > Usd::ZERO).then(|| view! {
                                                    <span class="warn possible" data-testid="history-possible">{format!(" + may have been charged {}", e.possible_charge)}</span>
                                                })}</td>
                                            <td>{e.validation.clone()}</td>
                                            <td><span class=format!("outcome {}", e.outcome)>{e.outcome.clone()}</span>
                                                {(!e.message.is_empty()).then(|| view! { <span class="meta">" "{e.message.clone()}</span> })}</td>
                                            <td>{move || if interrupted {
                                                // Running it again prices only what is missing.
                                                view! { <A href=route.clone() attr:data-testid="history-resume">"Resume"</A> }.into_any()
                                            } else if stored() {
                                                view! { <A href=route.clone() attr:data-testid="history-open">"Open"</A> }.into_any()
                                            } else {
                                                view! { <A href=route.clone()>"Inputs"</A> }.into_any()
                                            }}</td>
                                        </tr>
                                    }
                                }
                            </For>
                        </tbody>
                    </table>
                </div>
                <p>
                    <Show when=move || !confirm.get() fallback=move || view! {
                        "Delete the history and every stored result? "
                        <button type="button" class="danger" on:click=move |_| { workspace.clear_history(); confirm.set(false); }>"Delete"</button>
                        " "<button type="button" class="secondary" on:click=move |_| confirm.set(false)>"Keep"</button>
                    }>
                        <button type="button" class="secondary" on:click=move |_| confirm.set(true)>"Clear history and stored results"</button>
                    </Show>
                </p>
            </Show>
        </section>
    }
}
