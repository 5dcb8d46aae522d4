//! Charts of the domain views, as plain SVG with text alternatives: the rank-range
//! distribution of ranked keywords (with the gap where the service has no 61–70 bucket) and
//! the daily new vs lost backlinks.

use leptos::prelude::*;
use serpkit::ops::backlink_overview::DailyStat;
use serpkit::ops::ranked_keywords_metrics::RankedKeywordsMetrics;

use crate::components::fmt_int;

/// The distribution slots in chart order: `Some((label, count))` for a reported bucket, `None`
/// for the 61–70 range the service does not report.
pub fn rank_slots(m: &RankedKeywordsMetrics) -> Vec<Option<(&'static str, i64)>> {
    let b = m.buckets();
    let mut out: Vec<Option<(&'static str, i64)>> = Vec::with_capacity(12);
    for (label, count) in b {
        if label == "71-80" {
            out.push(None);
        }
        out.push(Some((label, count)));
    }
    out
}

/// Keywords in the total that no reported bucket holds (61–70 and anything else unreported);
/// 0 when the buckets add up to the total or more.
pub fn unbucketed(m: &RankedKeywordsMetrics) -> i64 {
    let sum: i64 = m.buckets().iter().map(|b| b.1.max(0)).sum();
    m.total_ranked_keywords.saturating_sub(sum).max(0)
}

/// The rank-range distribution of one domain as a bar chart. The 61–70 slot is drawn as an
/// empty, hatched "no data" slot: the service has no such field.
#[component]
pub fn RankChart(
    /// The record.
    metrics: RankedKeywordsMetrics,
    /// Smaller chart (compare view, competitor list).
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let slots = rank_slots(&metrics);
    let max = slots
        .iter()
        .flatten()
        .map(|s| s.1)
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let (w, h) = if compact {
        (300.0, 150.0)
    } else {
        (1000.0, 230.0)
    };
    let top = 16.0;
    let base = h - 20.0;
    let n = slots.len() as f64;
    let bw = w / n;
    let bars = slots
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let x = i as f64 * bw;
            match s {
                Some((label, count)) => {
                    let bh = ((*count).max(0) as f64 / max) * (base - top);
                    let tip = format!("Rank {label}: {} keywords", fmt_int(*count));
                    view! {
                        <g class="bucket" data-bucket=*label data-count=count.to_string()>
                            <title>{tip}</title>
                            <rect x=format!("{:.1}", x + bw * 0.14) y=format!("{:.1}", base - bh)
                                width=format!("{:.1}", bw * 0.72) height=format!("{:.1}", bh.max(1.0)) rx="2" />
                            <text class="val" x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", (base - bh - 4.0).max(10.0))
                                text-anchor="middle">{short(*count)}</text>
                            <text x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", h - 5.0) text-anchor="middle">{*label}</text>
                        </g>
                    }
                    .into_any()
                }
                None => view! {
                    <g class="bucket gap" data-bucket="61-70" data-count="">
                        <title>"Rank 61-70: not reported by the service (no such field)"</title>
                        <rect x=format!("{:.1}", x + bw * 0.14) y=format!("{:.1}", top) width=format!("{:.1}", bw * 0.72)
                            height=format!("{:.1}", base - top) rx="2" class="nodata" />
                        <text class="val" x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", (top + base) / 2.0)
                            text-anchor="middle">"n/a"</text>
                        <text x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", h - 5.0) text-anchor="middle">"61-70"</text>
                    </g>
                }
                .into_any(),
            }
        })
        .collect_view();
    let summary = slots
        .iter()
        .map(|s| match s {
            Some((l, c)) => format!("{l}: {}", fmt_int(*c)),
            None => "61-70: not reported".to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rest = unbucketed(&metrics);
    let total = metrics.total_ranked_keywords;
    view! {
        <figure class="rankchart" class:compact=compact data-testid="rank-chart" data-domain=metrics.domain.clone()>
            <svg class="chart rank" viewBox=format!("0 0 {w} {h}") role="img"
                aria-label=format!("Ranked keywords of {} by rank range: {summary}", metrics.domain)>
                <line x1="0" x2=w.to_string() y1=format!("{base:.1}") y2=format!("{base:.1}") class="axis" />
                {bars}
            </svg>
            <figcaption class="meta" data-testid="rank-total">
                {format!("{} ranked keywords in total", fmt_int(total))}
                {(rest > 0).then(|| view! {
                    <span data-testid="rank-unbucketed">{if compact {
                        format!(" · {} outside the reported ranges", fmt_int(rest))
                    } else {
                        format!(" · {} not in any reported range (the service has no 61–70 range)", fmt_int(rest))
                    }}</span>
                })}
                {(rest == 0 && !compact).then(|| view! { <span>" · the service reports no 61–70 range"</span> })}
            </figcaption>
        </figure>
    }
}

/// `12345` → `12.3k`, for bar labels.
pub fn short(n: i64) -> String {
    let a = n.unsigned_abs() as f64;
    let sign = if n < 0 { "-" } else { "" };
    if a >= 1_000_000.0 {
        format!("{sign}{:.1}M", a / 1_000_000.0)
    } else if a >= 10_000.0 {
        format!("{sign}{:.0}k", a / 1_000.0)
    } else if a >= 1_000.0 {
        format!("{sign}{:.1}k", a / 1_000.0)
    } else {
        n.to_string()
    }
}

/// Daily new (up) vs lost (down) backlinks, oldest day on the left. Clicking a day calls
/// `on_day` with its date; `selected` highlights one.
#[component]
pub fn NewLostChart(
    /// Daily entries (any order; drawn oldest first).
    stats: Vec<DailyStat>,
    /// The selected day, if any.
    #[prop(into)]
    selected: Signal<String>,
    /// A day was clicked.
    on_day: Callback<String>,
) -> impl IntoView {
    let mut days = stats;
    crate::sort::sort_by(&mut days, |a, b| a.date.cmp(&b.date));
    let max = days
        .iter()
        .map(|d| d.new.max(d.lost).max(0))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let (w, h) = (1000.0, 240.0);
    let mid = h / 2.0 - 6.0;
    let half = mid - 6.0;
    let n = days.len().max(1) as f64;
    let bw = w / n;
    let every = (days.len() / 8).max(1);
    let total_new: i64 = days.iter().map(|d| d.new).sum();
    let total_lost: i64 = days.iter().map(|d| d.lost).sum();
    let span = match (days.first(), days.last()) {
        (Some(a), Some(b)) => format!("{} to {}", a.date, b.date),
        _ => String::new(),
    };
    let groups = days
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let x = i as f64 * bw;
            let nh = (d.new.max(0) as f64 / max) * half;
            let lh = (d.lost.max(0) as f64 / max) * half;
            let date = d.date.clone();
            let date2 = d.date.clone();
            let tip = format!("{}: {} new, {} lost", d.date, fmt_int(d.new), fmt_int(d.lost));
            let label = (i % every == every / 2).then(|| d.date.get(5..).unwrap_or(&d.date).to_string());
            view! {
                <g class="day" class:sel=move || selected.with(|s| *s == date2) data-date=date.clone()
                    on:click=move |_| on_day.run(date.clone())>
                    <title>{tip}</title>
                    <rect class="hit" x=format!("{x:.1}") y="0" width=format!("{bw:.1}") height=format!("{:.1}", h - 12.0) />
                    <rect class="new" x=format!("{:.1}", x + bw * 0.12) y=format!("{:.1}", mid - nh)
                        width=format!("{:.1}", bw * 0.76) height=format!("{:.1}", nh.max(0.5)) />
                    <rect class="lost" x=format!("{:.1}", x + bw * 0.12) y=format!("{mid:.1}")
                        width=format!("{:.1}", bw * 0.76) height=format!("{:.1}", lh.max(0.5)) />
                    {label.map(|l| view! { <text x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", h - 3.0) text-anchor="middle">{l}</text> })}
                </g>
            }
        })
        .collect_view();
    view! {
        <figure class="newlost" data-testid="newlost-chart" data-days=days.len().to_string()>
            <svg class="chart nl" viewBox=format!("0 0 {w} {h}") role="img"
                aria-label=format!("Daily new and lost backlinks, {span}: {} new, {} lost in total", fmt_int(total_new), fmt_int(total_lost))>
                <line x1="0" x2=w.to_string() y1=format!("{mid:.1}") y2=format!("{mid:.1}") class="axis" />
                {groups}
            </svg>
            <figcaption class="legend">
                <span class="sw new"></span>"New backlinks "<strong>{fmt_int(total_new)}</strong>
                <span class="sw lost"></span>"Lost backlinks "<strong>{fmt_int(total_lost)}</strong>
                <span class="meta">{format!(" · {} days, {span} · click a day to filter the table", days.len())}</span>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_have_the_gap() {
        let m = RankedKeywordsMetrics {
            total_ranked_keywords: 100,
            position_1: 10,
            position_71_80: 5,
            ..Default::default()
        };
        let s = rank_slots(&m);
        assert_eq!(s.len(), 12);
        assert_eq!(s[8], None);
        assert_eq!(s[9], Some(("71-80", 5)));
        assert_eq!(unbucketed(&m), 85);
        let over = RankedKeywordsMetrics {
            total_ranked_keywords: 1,
            position_1: 10,
            ..Default::default()
        };
        assert_eq!(unbucketed(&over), 0);
        assert_eq!(short(12_345), "12k");
        assert_eq!(short(1_500), "1.5k");
        assert_eq!(short(2_500_000), "2.5M");
    }
}
