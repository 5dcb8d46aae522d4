//! The call history: every call with its input, time, price shown, cost and validation;
//! "Open" shows the stored result again without a call. Demo and live calls are kept apart:
//! a live call was charged, a demo call charged nothing and says what it would have cost
//! (issue 43). Calls the budget cap refused are listed too (nothing sent, nothing charged).
//! Filters by mode, operation and outcome; the rows shown export as CSV.

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::Usd;

use crate::components::csv::{self, to_csv, Cell};
use crate::components::fmt_time;
use crate::model::{plural, HistoryEntry, Mode, Outcome};
use crate::workspace::use_workspace;

/// What the rows shown cost, live and demo apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Totals {
    live_calls: usize,
    /// Charged by the live service.
    live_charged: Usd,
    /// Live calls whose outcome is unknown: they may have been charged this too.
    live_possible: Usd,
    demo_calls: usize,
    /// What the demo calls would have cost live (the demo charges nothing).
    demo_cost: Usd,
    /// Calls the budget cap refused before anything was sent.
    refused: usize,
}

impl Totals {
    fn of<'a>(rows: impl IntoIterator<Item = &'a HistoryEntry>) -> Totals {
        let mut t = Totals::default();
        for e in rows {
            match e.mode {
                Mode::Live => {
                    t.live_calls += 1;
                    t.live_charged += e.charge;
                    t.live_possible += e.possible_charge;
                }
                Mode::Demo => {
                    t.demo_calls += 1;
                    t.demo_cost += e.charge + e.possible_charge;
                }
            }
            t.refused += usize::from(e.outcome == Outcome::Refused);
        }
        t
    }

    /// "Live: 3 calls, $1.8015 charged. Demo: 5 calls, would have cost $1.9590 (nothing
    /// charged)." and the refusals.
    fn text(&self) -> String {
        let mut parts = Vec::new();
        if self.live_calls > 0 {
            let mut live = format!(
                "Live: {} call{}, {} charged",
                self.live_calls,
                plural(self.live_calls),
                self.live_charged
            );
            if self.live_possible > Usd::ZERO {
                live.push_str(&format!(" (+ may have been charged {})", self.live_possible));
            }
            parts.push(format!("{live}."));
        }
        if self.demo_calls > 0 {
            parts.push(format!(
                "Demo: {} call{}, would have cost {} (nothing charged).",
                self.demo_calls,
                plural(self.demo_calls),
                self.demo_cost
            ));
        }
        if self.refused > 0 {
            parts.push(format!(
                "{} refused by the budget cap (nothing sent).",
                self.refused
            ));
        }
        parts.join(" ")
    }
}

/// The rows shown as CSV: a live call's charge and a demo call's cost in columns of their own,
/// so no sum of a column adds demo to live. Amounts in dollars, exact.
/// `time` writes a row's time (the page's local time, as the table shows it).
fn history_csv<'a>(
    rows: impl IntoIterator<Item = &'a HistoryEntry>,
    time: impl Fn(f64) -> String,
) -> String {
    let money = Cell::usd;
    let rows = rows.into_iter().map(|e| {
        let live = e.mode == Mode::Live;
        vec![
            Cell::text(time(e.at)),
            Cell::text(e.mode.as_str()),
            Cell::text(e.operation.clone()),
            Cell::text(e.input.clone()),
            money(e.estimate),
            if live { money(e.charge) } else { Cell::empty() },
            if live { money(e.possible_charge) } else { Cell::empty() },
            if live { Cell::empty() } else { money(e.charge + e.possible_charge) },
            Cell::text(e.outcome.as_str()),
            Cell::text(e.message.clone()),
            Cell::text(e.validation.clone()),
        ]
    });
    to_csv(
        &[
            "Time",
            "Mode",
            "Operation",
            "Input",
            "Price shown (USD)",
            "Charged (USD, live)",
            "May have been charged (USD, live)",
            "Would have cost (USD, demo)",
            "Outcome",
            "Message",
            "Validation",
        ],
        rows,
    )
}

/// One filter: a select of "every …" and the values the history holds.
fn filter_select(
    label: &'static str,
    testid: &'static str,
    every: &'static str,
    values: Signal<Vec<String>>,
    chosen: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="f">
            <span>{label}</span>
            <select data-testid=testid on:change=move |ev| chosen.set(event_target_value(&ev))>
                <option value="">{every}</option>
                {move || values.get().into_iter().map(|v| {
                    let selected = chosen.with(|c| *c == v);
                    view! { <option value=v.clone() selected=selected>{v.clone()}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

/// The history page.
#[component]
pub fn History() -> impl IntoView {
    let workspace = use_workspace();
    let mode = RwSignal::new(String::new());
    let operation = RwSignal::new(String::new());
    let outcome = RwSignal::new(String::new());
    let keeps = move |e: &HistoryEntry| {
        mode.with(|m| m.is_empty() || m == e.mode.as_str())
            && operation.with(|o| o.is_empty() || *o == e.operation)
            && outcome.with(|o| o.is_empty() || o == e.outcome.as_str())
    };
    let shown = Memo::new(move |_| {
        workspace
            .history
            .with(|h| h.iter().filter(|e| keeps(e)).cloned().collect::<Vec<_>>())
    });
    let values = move |f: fn(&HistoryEntry) -> String| {
        Signal::derive(move || {
            let mut v: Vec<String> = workspace.history.with(|h| h.iter().map(f).collect());
            v.sort();
            v.dedup();
            v
        })
    };
    let export = move |_| {
        // Each row's own source (and mode, for rows stored before sources were kept).
        let (text, origin) = shown.with_untracked(|rows| {
            let origin = csv::origin_of(rows.iter().map(|e| (e.source.as_str(), e.mode)));
            (history_csv(rows, fmt_time), origin)
        });
        if let Err(e) = csv::download("history.csv", "text/csv", &text, origin) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let confirm = RwSignal::new(false);
    view! {
        <section class="page" aria-labelledby="hist-title">
            <h1 id="hist-title">"Call history"</h1>
            <crate::components::team::TeamPurchases />
            <p class="meta" data-testid="history-summary">{move || {
                let all = workspace.history.with(Vec::len);
                let n = shown.with(Vec::len);
                let count = if n == all { format!("{n} call{}.", plural(n)) } else { format!("{n} of {all} calls shown.") };
                let totals = shown.with(|s| Totals::of(s).text());
                [count, totals, "Opening a stored result costs nothing.".into()].into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
            }}</p>
            <Show when=move || !workspace.history.with(Vec::is_empty)
                fallback=|| view! { <div class="empty" data-testid="history-empty"><p>"No calls yet. Every call you run appears here with its price and can be reopened without paying again."</p></div> }>
                <div class="toolbar filters">
                    {filter_select("Mode", "history-mode", "Live and demo", values(|e| e.mode.as_str().to_string()), mode)}
                    {filter_select("Operation", "history-op", "Every operation", values(|e| e.operation.clone()), operation)}
                    {filter_select("Outcome", "history-outcome", "Every outcome", values(|e| e.outcome.as_str().to_string()), outcome)}
                    <button type="button" class="secondary" data-testid="history-export" disabled=move || shown.with(Vec::is_empty)
                        on:click=export>{move || format!("Export CSV ({} rows)", shown.with(Vec::len))}</button>
                </div>
                <div class="scroll" tabindex="0" role="region" aria-label="Calls">
                    <table class="data" data-testid="history-table">
                        <caption class="sr-only">"Calls, newest first"</caption>
                        <thead><tr>
                            <th scope="col">"Time"</th><th scope="col">"Operation"</th><th scope="col">"Input"</th>
                            <th scope="col" class="num">"Price shown"</th><th scope="col" class="num">"Cost"</th>
                            <th scope="col">"Validation"</th><th scope="col">"Outcome"</th><th scope="col">"Result"</th>
                        </tr></thead>
                        <tbody>
                            <For each=move || shown.get() key=|e| format!("{}|{}|{}|{}", e.id, e.outcome.as_str(), e.charge, e.possible_charge) let:e>
                                {history_row(e)}
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

/// A row of the history table. A live call's cost is what was charged; a demo call's, what it
/// would have cost (nothing was charged).
fn history_row(e: HistoryEntry) -> impl IntoView {
    let workspace = use_workspace();
    let has = !e.key.is_empty();
    let key = e.key.clone();
    let stored = move || has && workspace.results.with(|m| m.contains_key(&key));
    let route = e.route.clone();
    let interrupted = e.outcome == Outcome::Interrupted;
    let cost = match e.mode {
        Mode::Live => view! {
            <span data-testid="history-charge">{e.charge.to_string()}</span>" "<span class="meta">"charged"</span>
            {(e.possible_charge > Usd::ZERO).then(|| view! {
                <span class="warn possible" data-testid="history-possible">{format!(" + may have been charged {}", e.possible_charge)}</span>
            })}
        }
        .into_any(),
        Mode::Demo => view! {
            <span class="meta">"would have cost "</span><span data-testid="history-charge">{(e.charge + e.possible_charge).to_string()}</span>
        }
        .into_any(),
    };
    view! {
        <tr data-testid="history-row" data-op=e.operation.clone() data-outcome=e.outcome.as_str() data-mode=e.mode.as_str()>
            <td>{fmt_time(e.at)}</td>
            <td><code>{e.operation.clone()}</code>" "<span class="meta">{e.mode.as_str()}</span></td>
            <td class="input">{e.input.clone()}</td>
            <td class="num">{e.estimate.to_string()}</td>
            <td class="num" data-testid="history-cost">{cost}</td>
            <td>{e.validation.clone()}</td>
            <td><span class=format!("outcome {}", e.outcome.as_str())>{e.outcome.as_str()}</span>
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(mode: Mode, charge: i64, possible: i64, outcome: Outcome) -> HistoryEntry {
        HistoryEntry {
            id: "1".into(),
            operation: "related".into(),
            input: "running shoes, US".into(),
            route: "/keyword".into(),
            key: String::new(),
            at: 0.0,
            estimate: Usd::from_micros(150_000),
            charge: Usd::from_micros(charge),
            possible_charge: Usd::from_micros(possible),
            outcome,
            message: String::new(),
            validation: String::new(),
            mode,
            tab: String::new(),
            source: String::new(),
        }
    }

    #[test]
    fn demo_and_live_are_totalled_apart() {
        let rows = [
            row(Mode::Demo, 1_959_000, 0, Outcome::Ok),
            row(Mode::Live, 1_801_500, 0, Outcome::Ok),
            row(Mode::Live, 0, 150_000, Outcome::Error),
            row(Mode::Live, 0, 0, Outcome::Refused),
        ];
        let t = Totals::of(&rows);
        assert_eq!(
            t.text(),
            "Live: 3 calls, $1.8015 charged (+ may have been charged $0.1500). Demo: 1 call, \
             would have cost $1.9590 (nothing charged). 1 refused by the budget cap (nothing sent)."
        );
        assert_eq!(Totals::of(&rows[..1]).text(), "Demo: 1 call, would have cost $1.9590 (nothing charged).");
    }

    #[test]
    fn the_csv_keeps_demo_and_live_in_their_own_columns() {
        let rows = [row(Mode::Demo, 150_000, 0, Outcome::Ok), row(Mode::Live, 150_000, 0, Outcome::Ok)];
        let csv = history_csv(&rows, |_| "2026-11-28 01:00".into());
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].contains("Charged (USD, live)") && lines[0].contains("Would have cost (USD, demo)"));
        assert!(lines[1].starts_with("2026-11-28 01:00,demo,"));
        assert!(lines[1].contains(",demo,related,\"running shoes, US\",0.1500,,,0.1500,ok,,"), "{}", lines[1]);
        assert!(lines[2].contains(",live,related,\"running shoes, US\",0.1500,0.1500,0.0000,,ok,,"), "{}", lines[2]);
    }
}
