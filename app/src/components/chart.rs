//! Charts as plain SVG: a 12-month sparkline for table rows and a monthly bar chart.

use leptos::prelude::*;

/// SVG polyline points for `values` in a `w`×`h` box (a flat line for constant data).
pub fn points(values: &[i64], w: f64, h: f64) -> String {
    if values.is_empty() {
        return String::new();
    }
    let max = values.iter().copied().max().unwrap_or(0) as f64;
    let min = values.iter().copied().min().unwrap_or(0) as f64;
    let span = (max - min).max(1.0);
    let step = if values.len() > 1 {
        w / (values.len() - 1) as f64
    } else {
        0.0
    };
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let y = h - 2.0 - ((*v as f64 - min) / span) * (h - 4.0);
            format!("{:.1},{:.1}", i as f64 * step, y)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A small trend line of monthly values (oldest first).
#[component]
pub fn Sparkline(values: Vec<i64>) -> impl IntoView {
    let label = match (values.first(), values.last()) {
        (Some(a), Some(b)) => format!(
            "{}-month trend from {} to {}",
            values.len(),
            super::fmt_int(*a),
            super::fmt_int(*b)
        ),
        _ => "no monthly data".into(),
    };
    let up = values.last() >= values.first();
    let aria = label.clone();
    view! {
        <svg class="spark" class:down=!up data-testid="sparkline" viewBox="0 0 96 24" width="96" height="24"
            role="img" aria-label=aria>
            <title>{label}</title>
            <polyline points=points(&values, 96.0, 24.0) fill="none" stroke="currentColor" stroke-width="1.6"
                stroke-linejoin="round" stroke-linecap="round" />
        </svg>
    }
}

/// A bar chart of monthly searches: `(label, value)` oldest first.
#[component]
pub fn MonthlyChart(months: Vec<(String, i64)>) -> impl IntoView {
    let max = months.iter().map(|m| m.1).max().unwrap_or(0).max(1) as f64;
    let n = months.len().max(1) as f64;
    let (w, h) = (600.0, 180.0);
    let bw = w / n;
    let bars = months
        .iter()
        .enumerate()
        .map(|(i, (label, v))| {
            let bh = (*v as f64 / max) * (h - 30.0);
            let x = i as f64 * bw;
            let short: String = label.chars().take(3).collect();
            let tip = format!("{label}: {}", super::fmt_int(*v));
            view! {
                <g>
                    <title>{tip}</title>
                    <rect x=format!("{:.1}", x + bw * 0.15) y=format!("{:.1}", h - 18.0 - bh)
                        width=format!("{:.1}", bw * 0.7) height=format!("{:.1}", bh.max(1.0)) rx="2" />
                    <text x=format!("{:.1}", x + bw / 2.0) y=format!("{:.1}", h - 4.0) text-anchor="middle">{short}</text>
                </g>
            }
        })
        .collect_view();
    let summary = months
        .iter()
        .map(|(l, v)| format!("{l} {}", super::fmt_int(*v)))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <svg class="chart" data-testid="monthly-chart" viewBox="0 0 600 180" role="img"
            aria-label=format!("Monthly searches: {summary}") preserveAspectRatio="none">
            {bars}
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_fit_the_box() {
        assert_eq!(points(&[], 10.0, 10.0), "");
        let p = points(&[0, 10], 10.0, 10.0);
        assert_eq!(p, "0.0,8.0 10.0,2.0");
        assert_eq!(points(&[5], 10.0, 10.0), "0.0,8.0");
    }
}
