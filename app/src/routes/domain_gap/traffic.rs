//! Estimated traffic on the gap page (`research::traffic`, which states the rules): the share
//! of voice of each domain over the keywords shown, and the gain-at-#3 column.

use leptos::prelude::*;

use super::view::{GapData, GapView};
use crate::components::columns::{Column, SortKey};
use crate::components::csv::Cell;
use crate::components::domain::nav::LETTERS;
use crate::components::fmt_int;
use crate::components::versioned::Versioned;
use crate::research::ctr::{traffic_text, CURVE_RULE};
use crate::research::traffic::{self, gain_at_3, share_of_voice};
use crate::host::tabs;

/// The User Timing measure of one share-of-voice computation.
pub(super) const VOICE_MEASURE: &str = "serpkit:share-of-voice";

/// Row `i`'s gain at #3 (your rank 4–20), by the gap's curve.
fn gain(v: &GapView, i: usize) -> Option<f64> {
    let rank = v.gap.yours[i].as_ref()?.rank;
    gain_at_3(v.gap.volume[i], rank, &v.options.curve)
}

/// The gain-at-#3 column of the gap table and its CSV.
pub(super) const GAIN: Column<GapView> = Column {
    csv_header: Some("Traffic gain at #3"),
    ..Column::new(
        "gain",
        "Gain at #3",
        true,
        "6.5rem",
        |v, i| gain(v, i).map_or(SortKey::Missing, SortKey::num),
        Some(|v, i| gain(v, i).map_or_else(Cell::empty, |g| Cell::decimal(g, 1))),
    )
};

/// The traffic-potential column (`research::gap`: the #1 page's estimated traffic, where a
/// compared domain holds #1).
pub(super) const POTENTIAL: Column<GapView> = Column {
    csv_header: Some("Traffic potential"),
    ..Column::new(
        "potential",
        "Potential",
        true,
        "6.5rem",
        |v, i| v.gap.potential[i].map_or(SortKey::Missing, SortKey::num),
        Some(|v, i| v.gap.potential[i].map_or_else(Cell::empty, |p| Cell::decimal(p, 1))),
    )
};

/// The traffic-potential cell of row `i` ("–": the #1 page is not in the data).
pub(super) fn potential_cell(v: &GapView, i: usize) -> String {
    v.gap.potential[i].map_or_else(|| "–".into(), traffic_text)
}

/// The gain-at-#3 cell of row `i`.
pub(super) fn gain_cell(v: &GapView, i: usize) -> String {
    gain(v, i).map_or_else(|| "–".into(), traffic_text)
}

/// Each domain's share of voice over the rows in `order` (the list shown, as filtered).
pub(super) fn voice_panel(
    view_data: Memo<GapData>,
    order: Memo<Versioned<Vec<u32>>>,
) -> impl IntoView {
    move || {
        let (v, _, _) = view_data.get();
        let rows = order.get();
        let t0 = tabs::clock();
        let (voices, total) = share_of_voice(&v.gap, &rows, &v.options.curve);
        // The benchmark's measure (bench/app/run.mjs): the estimate and the shares alone.
        tabs::measure(VOICE_MEASURE, t0);
        let items = v
            .domains
            .iter()
            .zip(voices)
            .enumerate()
            .map(|(slot, (domain, voice))| {
                let who = if slot == 0 {
                    "You".to_string()
                } else {
                    LETTERS[slot].to_string()
                };
                view! {
                    <li data-testid=format!("gap-voice-{slot}")>
                        <strong>{who}" "{domain.clone()}</strong>
                        <span data-testid=format!("gap-voice-share-{slot}")>{traffic::share_text(voice.share)}</span>
                        {format!(
                            " · est. {} visits · ranks for {} keywords",
                            traffic_text(voice.traffic),
                            fmt_int(voice.keywords as i64)
                        )}
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="meta voice" data-testid="gap-voice" aria-label="Share of voice">
                <p>
                    <strong>"Share of voice"</strong>
                    {format!(" of the {} keywords shown ({} searches a month)", fmt_int(rows.len() as i64), fmt_int(total))}
                </p>
                <ul>{items}</ul>
                <details class="rules" data-testid="gap-voice-rule">
                    <summary>"How this is estimated"</summary>
                    <p>{traffic::VOICE_RULE}</p>
                    <p>{traffic::GAIN_RULE}</p>
                    <p>{traffic::POTENTIAL_RULE}</p>
                    <p>{CURVE_RULE}</p>
                </details>
            </section>
        }
    }
}
