//! The backlink overview of a domain (`backlink/overview`): the metrics summary, daily new
//! vs lost backlinks as a chart, and the new/lost referring domains in a virtualized table,
//! filterable by new/lost, date and referring domain.

use std::sync::Arc;

use leptos::prelude::*;
use serpkit::ops::backlink_overview::{DomainOverview, RefNewLost};

use crate::components::columns::{self, sorted_view, Column, SortCache, SortKey};
use crate::components::csv::Cell;
use crate::components::domain::charts::NewLostChart;
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{csv, fmt_date, fmt_int};

/// Columns of the referring domains table.
pub const COLUMNS: [Column<RefData>; 7] = [
    Column {
        id: "type",
        label: "Type",
        numeric: false,
        width: "5.5rem",
        key: |data, i| SortKey::text(&data.types[i]),
        csv: Some(|data, i| Cell::text(&data.rows[i].new_lost_type)),
        csv_header: None,
    },
    Column {
        id: "date",
        label: "Date",
        numeric: false,
        width: "7.5rem",
        key: |data, i| SortKey::text(&data.rows[i].new_lost_date),
        csv: Some(|data, i| Cell::text(&data.rows[i].new_lost_date)),
        csv_header: None,
    },
    Column {
        id: "refdomain",
        label: "Referring domain",
        numeric: false,
        width: "minmax(12rem, 2fr)",
        key: |data, i| SortKey::text(&data.lower[i]),
        csv: Some(|data, i| Cell::text(&data.rows[i].refdomain)),
        csv_header: None,
    },
    Column {
        id: "backlinks",
        label: "Backlinks",
        numeric: true,
        width: "6.5rem",
        key: |data, i| SortKey::int(data.rows[i].backlinks),
        csv: Some(|data, i| Cell::num(data.rows[i].backlinks)),
        csv_header: None,
    },
    Column {
        id: "dofollow",
        label: "Dofollow",
        numeric: true,
        width: "6rem",
        key: |data, i| SortKey::int(data.rows[i].dofollow_backlinks),
        csv: Some(|data, i| Cell::num(data.rows[i].dofollow_backlinks)),
        csv_header: Some("Dofollow backlinks"),
    },
    Column {
        id: "first_seen",
        label: "First seen",
        numeric: false,
        width: "7.5rem",
        key: |data, i| SortKey::text(&data.rows[i].first_seen),
        csv: Some(|data, i| Cell::text(&data.rows[i].first_seen)),
        csv_header: None,
    },
    Column {
        id: "inlink_rank",
        label: "Inlink rank",
        numeric: true,
        width: "6.5rem",
        key: |data, i| SortKey::int(data.rows[i].domain_inlink_rank),
        csv: Some(|data, i| Cell::num(data.rows[i].domain_inlink_rank)),
        csv_header: None,
    },
];

/// The referring domain events with lower-cased keys and cached sort orders.
pub struct RefData {
    /// The entries as sent.
    pub rows: Vec<RefNewLost>,
    /// Referring domains lower-cased (filter and sort key).
    lower: Vec<String>,
    /// Event types lower-cased (filter and sort key).
    types: Vec<String>,
    orders: SortCache,
}

impl RefData {
    /// From the overview's `ref_newlost`.
    pub fn new(rows: Vec<RefNewLost>) -> RefData {
        RefData {
            lower: rows.iter().map(|r| r.refdomain.to_lowercase()).collect(),
            types: rows
                .iter()
                .map(|r| r.new_lost_type.to_lowercase())
                .collect(),
            rows,
            orders: SortCache::new(COLUMNS.len()),
        }
    }

    /// The ascending order of a column (computed once): row positions.
    #[cfg(test)]
    fn perm(&self, col: &str) -> Option<&[u32]> {
        self.orders
            .get(&COLUMNS, self, self.rows.len(), col)
            .map(columns::SortOrder::rows)
    }

    /// The shown order: sorted by `sort`, the rows of `mask`.
    pub fn view(&self, sort: Option<&(String, bool)>, mask: &[bool]) -> Vec<u32> {
        sorted_view(
            &self.orders,
            &COLUMNS,
            self,
            self.rows.len(),
            sort,
            Some(mask),
        )
    }

    /// Rows of `kind` (`""` for both) on dates within `from..=to` (`""` open) whose
    /// referring domain contains `text`.
    pub fn mask(&self, kind: &str, from: &str, to: &str, text: &str) -> Vec<bool> {
        let text = text.trim().to_lowercase();
        (0..self.rows.len())
            .map(|i| {
                let date = self.rows[i].new_lost_date.as_str();
                (kind.is_empty() || self.types[i] == kind)
                    && (from.is_empty() || date >= from)
                    && (to.is_empty() || date <= to)
                    && (text.is_empty() || self.lower[i].contains(&text))
            })
            .collect()
    }
}

/// A warning when the overview's history cannot follow from its totals: over its days, more
/// referring domains gained than lost (or backlinks) than the totals count. Real indexes
/// report totals and history from different crawls; the page says so rather than showing two
/// figures that contradict each other without a word. `None` when they agree.
pub fn history_warning(overview: &DomainOverview) -> Option<String> {
    let totals = &overview.metrics.backlinks;
    let new = overview
        .ref_newlost
        .iter()
        .filter(|r| r.new_lost_type.eq_ignore_ascii_case("new"))
        .count() as i64;
    let lost = overview.ref_newlost.len() as i64 - new;
    let net_links: i64 = overview.stats.iter().map(|s| s.new - s.lost).sum();
    let mut parts = Vec::new();
    if new - lost > totals.refdomains {
        parts.push(format!(
            "{} new minus {} lost referring domains is more than the {} referring domains in total",
            fmt_int(new),
            fmt_int(lost),
            fmt_int(totals.refdomains)
        ));
    }
    if net_links > totals.backlinks {
        parts.push(format!(
            "{} more backlinks gained than lost over the days shown is more than the {} backlinks \
             in total",
            fmt_int(net_links),
            fmt_int(totals.backlinks)
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "Data warning: {}. The totals and the history come from different indexes or dates \
             of the service; compare each only with itself.",
            parts.join("; ")
        )
    })
}

/// The overview body of a stored result.
#[component]
pub fn BacklinkOverviewView(
    /// The decoded overview.
    overview: Versioned<DomainOverview>,
    /// File name stem for the CSV export.
    name: String,
    /// Where the overview came from (its stored result's source).
    origin: Signal<csv::Origin>,
) -> impl IntoView {
    let m = overview.metrics.clone();
    let b = &m.backlinks;
    let kind = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let sort = RwSignal::new(None::<(String, bool)>);
    let data = Versioned::new(RefData::new(overview.ref_newlost.clone()));
    let total = data.rows.len();
    let new_count = data.types.iter().filter(|t| *t == "new").count();
    let order_data = data.clone();
    let order = Memo::new(move |_| {
        let m = order_data.mask(&kind.get(), &from.get(), &to.get(), &text.get());
        Versioned::new(order_data.view(sort.get().as_ref(), &m))
    });
    let row_data = data.clone();
    let render: RenderRow = Arc::new(move |i: u32| {
        let Some(r) = row_data.rows.get(i as usize) else {
            return ().into_any();
        };
        let new = r.new_lost_type.eq_ignore_ascii_case("new");
        view! {
            <div role="cell" class="vt-c"><span class="nltype" class:new=new class:lost=!new>{r.new_lost_type.clone()}</span></div>
            <div role="cell" class="vt-c">{r.new_lost_date.clone()}</div>
            <div role="cell" class="vt-c">{r.refdomain.clone()}</div>
            <div role="cell" class="vt-c num">{fmt_int(r.backlinks)}</div>
            <div role="cell" class="vt-c num">{fmt_int(r.dofollow_backlinks)}</div>
            <div role="cell" class="vt-c">{r.first_seen.clone()}</div>
            <div role="cell" class="vt-c num"><span class="rankpill">{r.domain_inlink_rank}</span></div>
        }
        .into_any()
    });
    let export_data = data.clone();
    let export = move |_| {
        let text = order.with_untracked(|o| columns::to_csv(&COLUMNS, &*export_data, o));
        let file = format!("referring-domains-{name}.csv");
        let _ = csv::download(&file, "text/csv", &text, origin.get_untracked());
    };
    let on_day = Callback::new(move |day: String| {
        if from.get_untracked() == day && to.get_untracked() == day {
            from.set(String::new());
            to.set(String::new());
        } else {
            from.set(day.clone());
            to.set(day);
        }
    });
    let selected_day = Signal::derive(move || {
        let f = from.get();
        if !f.is_empty() && f == to.get() {
            f
        } else {
            String::new()
        }
    });
    let metric = |label: &'static str, v: i64, id: &'static str| {
        view! { <div class="metric" data-testid=format!("bm-{id}")><span class="label">{label}</span><strong>{fmt_int(v)}</strong></div> }
    };
    let shown = move || order.with(|o| o.len());
    let updated = fmt_date(&m.updated_at);
    view! {
        <div class="overview" data-testid="backlink-overview">
            <div class="metrics" data-testid="bm-summary">
                {metric("Backlinks", b.backlinks, "backlinks")}
                {metric("Dofollow", b.dofollow_backlinks, "dofollow")}
                {metric("Nofollow", b.nofollow_backlinks, "nofollow")}
                {metric("Referring domains", b.refdomains, "refdomains")}
                {metric("IPs", b.ips, "ips")}
                {metric("Subnets", b.subnets, "subnets")}
                {metric(".edu backlinks", b.edu_backlinks, "edu")}
                {metric(".gov backlinks", b.gov_backlinks, "gov")}
            </div>
            {history_warning(&overview).map(|w| view! { <p class="warn" role="note" data-testid="bm-history-warning">{w}</p> })}
            <p class="meta source" data-testid="bm-source">"From the service's own backlink index (the backlink overview): its counts are not \
                comparable with the link counts of link index A or B on the domain's authority card."</p>
            {(!updated.is_empty()).then(|| view! { <p class="meta">{format!("Profile updated {updated}")}</p> })}
            <h3>"New vs lost backlinks per day"</h3>
            {if overview.stats.is_empty() {
                view! { <p class="meta">"No daily figures in this response."</p> }.into_any()
            } else {
                view! { <NewLostChart stats=overview.stats.clone() selected=selected_day on_day=on_day /> }.into_any()
            }}
            <h3>{format!("New and lost referring domains ({} new, {} lost)", fmt_int(new_count as i64), fmt_int((total - new_count) as i64))}</h3>
            <fieldset class="filters">
                <legend>"Filter"</legend>
                <label class="f"><span>"Type"</span>
                    <select data-testid="nl-type" on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="" selected=move || kind.with(String::is_empty)>"New and lost"</option>
                        <option value="new" selected=move || kind.with(|k| k == "new")>"New only"</option>
                        <option value="lost" selected=move || kind.with(|k| k == "lost")>"Lost only"</option>
                    </select>
                </label>
                <label class="f"><span>"From date"</span>
                    <input type="date" data-testid="nl-from" prop:value=move || from.get() on:input=move |ev| from.set(event_target_value(&ev)) /></label>
                <label class="f"><span>"To date"</span>
                    <input type="date" data-testid="nl-to" prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev)) /></label>
                <label class="f wide"><span>"Referring domain contains"</span>
                    <input type="search" data-testid="nl-text" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) /></label>
                <button type="button" class="secondary" on:click=move |_| { kind.set(String::new()); from.set(String::new()); to.set(String::new()); text.set(String::new()); }>"Clear filters"</button>
            </fieldset>
            <div class="toolbar">
                <strong data-testid="nl-count" aria-live="polite">{move || format!("{} of {} events", fmt_int(shown() as i64), fmt_int(total as i64))}</strong>
                <button type="button" class="secondary" data-testid="nl-export" disabled=move || shown() == 0 on:click=export>
                    {move || format!("Export CSV ({} rows)", fmt_int(shown() as i64))}
                </button>
            </div>
            <Show when=move || { shown() > 0 }
                fallback=move || view! { <p class="empty" data-testid="nl-no-match">{if total == 0 { "No new or lost referring domains in this period." } else { "No events match these filters." }}</p> }>
                <VirtualTable columns=COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort caption="New and lost referring domains" testid="nl-table" />
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_the_totals_cannot_hold_is_a_data_warning() {
        let ev = |t: &str| RefNewLost {
            new_lost_type: t.into(),
            ..Default::default()
        };
        let mut o = DomainOverview::default();
        o.metrics.backlinks.refdomains = 2;
        o.metrics.backlinks.backlinks = 100;
        o.ref_newlost = vec![ev("new"), ev("new"), ev("lost"), ev("new")];
        assert_eq!(history_warning(&o), None, "2 new minus 1 lost is the 2 in total");
        o.ref_newlost.push(ev("new"));
        let w = history_warning(&o).expect("3 net of 2");
        assert!(w.contains("4 new minus 1 lost referring domains is more than the 2"), "{w}");
        o.ref_newlost.truncate(2);
        o.stats = vec![serpkit::ops::backlink_overview::DailyStat {
            new: 150,
            lost: 20,
            ..Default::default()
        }];
        let w = history_warning(&o).expect("130 net of 100");
        assert!(w.contains("130 more backlinks gained than lost over the days shown"), "{w}");
    }

    #[test]
    fn masks() {
        let ev = |t: &str, d: &str, dom: &str| RefNewLost {
            new_lost_date: d.into(),
            new_lost_type: t.into(),
            refdomain: dom.into(),
            ..Default::default()
        };
        let d = RefData::new(vec![
            ev("new", "2024-03-01", "a.com"),
            ev("lost", "2024-03-02", "B.com"),
            ev("new", "2024-03-03", "c.org"),
        ]);
        assert_eq!(d.mask("", "", "", ""), vec![true, true, true]);
        assert_eq!(d.mask("new", "", "", ""), vec![true, false, true]);
        assert_eq!(
            d.mask("", "2024-03-02", "2024-03-02", ""),
            vec![false, true, false]
        );
        assert_eq!(d.mask("", "", "", "b."), vec![false, true, false]);
        assert_eq!(d.perm("date"), Some(&[0u32, 1, 2][..]));
    }
}
