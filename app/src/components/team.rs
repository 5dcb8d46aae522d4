//! Team mode on screen (`workspace::team`): the team's and the member's spend beside the
//! tab's meter, and who bought what for History. Decided: one module for both (the header
//! and History each show one), as the team's view is one concept read from one server.

use leptos::prelude::*;

use super::fmt_time;
use crate::workspace::team::{use_team, Budget};
use crate::workspace::use_workspace;

/// `$1.20 of $5.00` (and what may have been charged).
fn budget_text(b: &Budget) -> String {
    let mut t = format!("${}", b.spent);
    if let Some(cap) = &b.cap {
        t.push_str(&format!(" of ${cap}"));
    }
    if b.possibly_charged.trim_start_matches(['0', '.']).is_empty() {
        return t;
    }
    format!("{t} (+${} possibly charged)", b.possibly_charged)
}

/// The team's and the member's spend of the period, read from the team server (header).
#[component]
pub fn TeamMeter() -> impl IntoView {
    let team = use_team();
    view! {
        {move || team.spend.get().map(|s| view! {
            <span class="spend" data-testid="team-meter"
                title="The team server's journal: what the team and you spent this period (the server holds the key and the team's cap)">
                "Team: " <strong data-testid="team-spend">{budget_text(&s.team)}</strong>
                " · " {s.member.name.clone()} ": " <strong data-testid="member-spend">{budget_text(&s.member)}</strong>
            </span>
        })}
        {move || team.error.get().map(|e| view! {
            <span class="spend warn" data-testid="team-error" role="status">{e}</span>
        })}
    }
}

/// Who bought what: the team's purchases, newest first (History, in team mode).
#[component]
pub fn TeamPurchases() -> impl IntoView {
    let workspace = use_workspace();
    let team = use_team();
    let on = move || crate::workspace::team::member(workspace).is_some();
    Effect::new(move |_| {
        // Read again whenever the team's spend changes (a purchase anywhere in the team).
        team.spend.track();
        if on() {
            leptos::task::spawn_local(team.read_purchases(workspace));
        }
    });
    view! {
        <Show when=on>
            <section class="card" aria-labelledby="team-bought" data-testid="team-purchases">
                <h2 id="team-bought">"Bought by the team"</h2>
                <p class="muted">"Every record here is bought for everyone: your calls reuse them at no cost."</p>
                <div class="scroll" tabindex="0" role="region" aria-labelledby="team-bought">
                    <table>
                        <thead><tr>
                            <th scope="col">"When"</th><th scope="col">"Who"</th><th scope="col">"Operation"</th>
                            <th scope="col">"What"</th><th scope="col">"Cost"</th>
                        </tr></thead>
                        <tbody>
                            <For each=move || team.purchases.get() key=|p| p.id let:p>
                                <tr data-testid="team-purchase">
                                    <td>{fmt_time(p.at)}</td>
                                    <td data-testid="team-purchase-member">{p.member.clone()}</td>
                                    <td>{p.operation.clone()}</td>
                                    <td data-testid="team-purchase-items">{items_text(&p.items)}</td>
                                    <td>{if p.state == "possibly_charged" {
                                        format!("possibly ${}", p.possibly_charged)
                                    } else {
                                        format!("${}", p.charge)
                                    }}</td>
                                </tr>
                            </For>
                        </tbody>
                    </table>
                </div>
            </section>
        </Show>
    }
}

/// The items bought, as text: `US|running shoes` reads `running shoes (US)`; at most 8.
fn items_text(items: &[String]) -> String {
    let shown: Vec<String> = items
        .iter()
        .take(8)
        .map(|i| match i.split_once('|') {
            Some((scope, item)) => format!("{item} ({scope})"),
            None => i.clone(),
        })
        .collect();
    let more = items.len().saturating_sub(shown.len());
    let mut t = shown.join(", ");
    if more > 0 {
        t.push_str(&format!(" and {more} more"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_read_as_text_with_their_scope() {
        assert_eq!(
            items_text(&["US|tents".into(), "example.com".into()]),
            "tents (US), example.com"
        );
        let many: Vec<String> = (0..10).map(|i| format!("k{i}")).collect();
        assert!(items_text(&many).ends_with("k7 and 2 more"));
    }

    #[test]
    fn a_budget_reads_spent_cap_and_possible_charges() {
        let b = Budget {
            spent: "1.2".into(),
            possibly_charged: "0".into(),
            cap: Some("5".into()),
            ..Budget::default()
        };
        assert_eq!(budget_text(&b), "$1.2 of $5");
        let b = Budget {
            possibly_charged: "0.0003".into(),
            cap: None,
            ..b
        };
        assert_eq!(budget_text(&b), "$1.2 (+$0.0003 possibly charged)");
    }
}
