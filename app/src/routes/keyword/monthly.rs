//! The monthly searches section: volume, CPC, competition, trend and the monthly chart, from
//! the record bought in the explorer or from `search_volume/single`.

use leptos::prelude::*;
use serpkit::ops::search_volume_bulk::SearchVolumeRecord;

use crate::components::versioned::Versioned;
use crate::components::{
    current_month, fmt_change, fmt_cpc, fmt_int, ErrorBox, MonthlyChart, PriceButton, PricedCall,
    PricedCalls, ValidationPanel,
};
use crate::research::trends;

/// The monthly searches card.
#[component]
pub(super) fn MonthlyCard(
    /// The `search_volume/single` call.
    single: PricedCall,
    /// The record already bought in the explorer: no call needed.
    bought: Memo<Option<SearchVolumeRecord>>,
    /// The result of `single`, decoded.
    record: Memo<Option<Result<Versioned<SearchVolumeRecord>, String>>>,
) -> impl IntoView {
    let monthly = move || {
        let rec = bought.get().or_else(|| {
            record.with(|r| match r {
                Some(Ok(record)) => Some((**record).clone()),
                _ => None,
            })
        });
        rec.map(monthly_view)
    };
    view! {
        <section class="card" id="monthly" data-testid="section-monthly" aria-labelledby="monthly-title">
            <div class="card-head">
                <h2 id="monthly-title">"Monthly searches"</h2>
                <Show when=move || bought.with(Option::is_none) && !single.bought()>
                    <PriceButton testid="monthly" text=Signal::derive(move || PricedCalls::one(single).button_text("Get monthly searches"))
                        price=Signal::derive(move || single.price())
                        disabled=Signal::derive(move || single.call.loading.get())
                        on_run=Callback::new(move |_| single.run(false)) />
                </Show>
            </div>
            <ErrorBox call=single.call />
            {move || bought.with(Option::is_some).then(|| view! { <p class="meta">"From your keyword research (already bought: no charge)."</p> })}
            {move || monthly().map(|v| v.into_any()).unwrap_or_else(|| view! { <p class="meta empty-small">"Not loaded yet."</p> }.into_any())}
            <ValidationPanel result=Signal::derive(move || if bought.with(Option::is_some) { None } else { single.meta.get() }) />
        </section>
    }
}

/// A record's figures and monthly chart.
fn monthly_view(r: SearchVolumeRecord) -> impl IntoView {
    let months: Vec<(String, i64)> = r
        .targeted_monthly_searches
        .iter()
        .map(|m| (format!("{} {}", m.month, m.year), m.value))
        .collect();
    view! {
        <div class="stats">
            <div><span class="label">"Volume"</span><strong data-testid="detail-volume">{fmt_int(r.search_volume)}</strong></div>
            <div><span class="label">"CPC"</span><strong>{fmt_cpc(r.average_cpc)}</strong></div>
            <div><span class="label">"Ads competition"</span><strong>{format!("{:.2}", r.competition)}</strong></div>
            {
                let t = trends::trend(&r.targeted_monthly_searches, current_month());
                view! {
                    <div><span class="label">"12-month change"</span><strong data-testid="detail-change12">{fmt_change(t.change_12m)}</strong></div>
                    <div><span class="label">"3-month change"</span><strong data-testid="detail-change3">{fmt_change(t.change_3m)}</strong></div>
                    <div><span class="label">"Peak month"</span><strong data-testid="detail-peak">{trends::month_short(t.peak_month)}</strong></div>
                    <div title=trends::SEASON_RULE><span class="label">"Season"</span><strong data-testid="detail-season">{match t.season { trends::Season::NoData => "–", s => s.label() }}</strong></div>
                }
            }
        </div>
        <MonthlyChart months=months />
    }
}
