//! Position changes of a domain's ranked keywords between its previous purchase and the
//! latest (a tab of the domain page): counts of new, up, down, lost and unchanged keywords,
//! a filter by kind, the table and its CSV. The previous purchase is the result a refresh
//! replaced, kept by the workspace under `records::previous_key` (no call, no new store).
//! In team mode the tab also compares the team server's two latest scheduled purchases of
//! the domain (`workspace::team::ranked_history`): changes nobody had to click for.

use std::sync::Arc;

use leptos::prelude::*;
use serpkit::ops::ranked_keywords_domain::RankedKeyword;

use crate::components::columns::{sorted_view, Column, SortCache, SortKey};
use crate::components::csv::{Cell, Origin};
use crate::components::priced_call::unreadable;
use crate::components::ranked::analyses::{rows_of, save_csv, timed};
use crate::components::ranked::keywords::{ranked_keywords_of, short_url, RankedKeywordsData};
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{fmt_int, fmt_time, ExtLink, PricedCall, PricedCallCard, PricedCalls};
use crate::research::changes::{self, Changes, Move};
use crate::research::ctr::{traffic_text, Curve, CURVE_RULE};
use crate::workspace::records::previous_key;
use crate::workspace::team::{ranked_history, ScheduledRun};
use crate::workspace::use_workspace;

/// The comparison, the two purchases its rows point into, and the sort orders of its table.
struct ChangesData {
    c: Changes,
    before: Versioned<RankedKeywordsData>,
    after: Versioned<RankedKeywordsData>,
    /// The click-through curve of the traffic change.
    curve: Curve,
    orders: SortCache,
}

impl ChangesData {
    /// Row `i`'s (keyword, volume, URL).
    fn row(&self, i: usize) -> (&str, i64, &str) {
        self.c.row(i, &rows_of(&self.before), &rows_of(&self.after))
    }

    /// Row `i`'s estimated traffic now minus before.
    fn traffic(&self, i: usize) -> f64 {
        let (b, a) = (rows_of(&self.before), rows_of(&self.after));
        self.c.traffic_change(i, &b, &a, &self.curve)
    }
}

/// A traffic change as its cell shows it ("+12", "−3", "0").
fn traffic_change_text(d: f64) -> String {
    let t = traffic_text(d.abs());
    if d >= 0.5 {
        format!("+{t}")
    } else if d <= -0.5 {
        format!("−{t}")
    } else {
        "0".into()
    }
}

fn rank_key(r: Option<i64>) -> SortKey<'static> {
    r.map_or(SortKey::Missing, SortKey::int)
}

fn rank_cell(r: Option<i64>) -> Cell {
    r.map_or_else(Cell::empty, Cell::num)
}

const COLUMNS: [Column<ChangesData>; 9] = [
    Column {
        id: "keyword",
        label: "Keyword",
        numeric: false,
        width: "minmax(11rem, 2fr)",
        key: |d, i| SortKey::text(d.row(i).0),
        csv: Some(|d, i| Cell::text(d.row(i).0)),
        csv_header: None,
    },
    Column {
        id: "moved",
        label: "Change",
        numeric: false,
        width: "8rem",
        key: |d, i| SortKey::text(d.c.moved[i].label()),
        csv: Some(|d, i| Cell::text(d.c.moved[i].label())),
        csv_header: None,
    },
    Column {
        id: "before",
        label: "Before",
        numeric: true,
        width: "5rem",
        key: |d, i| rank_key(d.c.before[i]),
        csv: Some(|d, i| rank_cell(d.c.before[i])),
        csv_header: Some("Previous rank"),
    },
    Column {
        id: "after",
        label: "Now",
        numeric: true,
        width: "5rem",
        key: |d, i| rank_key(d.c.after[i]),
        csv: Some(|d, i| rank_cell(d.c.after[i])),
        csv_header: Some("Rank"),
    },
    Column {
        id: "places",
        label: "Places",
        numeric: true,
        width: "5.5rem",
        key: |d, i| rank_key(d.c.change(i)),
        csv: Some(|d, i| rank_cell(d.c.change(i))),
        csv_header: Some("Places gained"),
    },
    Column {
        id: "volume",
        label: "Volume",
        numeric: true,
        width: "6.5rem",
        key: |d, i| SortKey::int(d.row(i).1),
        csv: Some(|d, i| Cell::num(d.row(i).1)),
        csv_header: Some("Search volume"),
    },
    Column {
        id: "url",
        label: "Ranking URL",
        numeric: false,
        width: "minmax(12rem, 2.4fr)",
        key: |d, i| SortKey::text(d.row(i).2),
        csv: Some(|d, i| Cell::text(d.row(i).2)),
        csv_header: Some("URL"),
    },
    Column {
        id: "traffic",
        label: "Traffic change",
        numeric: true,
        width: "7.5rem",
        key: |d, i| SortKey::num(d.traffic(i)),
        csv: Some(|d, i| Cell::decimal(d.traffic(i), 1)),
        csv_header: Some("Est. traffic change"),
    },
    Column {
        id: "swap",
        label: "URL swap",
        numeric: false,
        width: "6rem",
        key: |d, i| SortKey::int(i64::from(d.c.swapped[i])),
        csv: Some(|d, i| Cell::text(if d.c.swapped[i] { "yes" } else { "no" })),
        csv_header: None,
    },
];

/// The domain's position changes tab.
pub fn changes_tab(call: PricedCall, name: Signal<String>) -> impl IntoView {
    let workspace = use_workspace();
    let latest = ranked_keywords_of(call);
    // (key, time) of the previous purchase: changes only when another one is kept.
    let previous_ident = Memo::new(move |_| {
        let (key, _) = call.ident.get()?;
        let key = previous_key(&key);
        workspace
            .results
            .with(|m| m.get(&key).map(|r| r.at))
            .map(|at| (key, at))
    });
    let previous = Memo::new(move |_| {
        let (key, at) = previous_ident.get()?;
        let curve = workspace.settings.with_untracked(|s| s.ctr_curve.clone());
        workspace.results.with_untracked(|m| {
            m.get(&key).map(|r| {
                serpkit::decode::<Vec<RankedKeyword>>(&r.body)
                    .map(|v| {
                        (
                            Versioned::new(RankedKeywordsData::from_records(v, &curve)),
                            at,
                        )
                    })
                    .map_err(|e| e.to_string())
            })
        })
    });
    let body = move || {
        let now_at = call.ident.get().map(|(_, at)| at).unwrap_or_default();
        match (latest.get(), previous.get()) {
            (Some(Err(e)), _) | (_, Some(Err(e))) => unreadable(e),
            (Some(Ok(after)), Some(Ok((before, at)))) => {
                compared(before, after, (at, now_at), name, call.origin())
            }
            (Some(Ok(_)), None) => view! {
                <p class="empty" data-testid="ch-no-previous">
                    {format!("Bought {}; there is no earlier purchase to compare with yet. Refresh buys the ranked keywords again (its price is shown first) and keeps this purchase as the previous one: the changes between the two show here.", fmt_time(now_at))}
                </p>
            }
            .into_any(),
            (None, _) => ().into_any(),
        }
    };
    view! {
        {scheduled_changes(name)}
        <PricedCallCard calls=PricedCalls::one(call) id="changes" title="Position changes" what="ranked keywords" body=body />
    }
}

/// Team mode: the changes between the team server's two latest scheduled purchases of the
/// domain, read without a call (nothing outside team mode or before a schedule has run).
fn scheduled_changes(name: Signal<String>) -> impl IntoView {
    let workspace = use_workspace();
    let runs = RwSignal::new(Vec::<ScheduledRun>::new());
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let domain = name.get();
        workspace.key.track();
        workspace
            .settings
            .with(|s| (s.mode, s.team, s.team_url.clone()));
        leptos::task::spawn_local(async move {
            let read = ranked_history(workspace, &domain).await;
            // A later domain's read wins over an earlier one's.
            if name.get_untracked() == domain {
                runs.set(read.as_ref().map_or_else(|_| Vec::new(), Clone::clone));
                error.set(read.err());
            }
        });
    });
    let curve = move || workspace.settings.with_untracked(|s| s.ctr_curve.clone());
    move || {
        if let Some(e) = error.get() {
            return view! { <p class="meta warn" data-testid="ch-scheduled-error">{e}</p> }
                .into_any();
        }
        let runs = runs.get();
        let [after, before, ..] = runs.as_slice() else {
            return runs.first().map(|run| view! {
                <p class="meta" data-testid="ch-scheduled-one">{format!("The team server bought these ranked keywords on {}'s schedule on {}; the changes show here after its next run.", run.member, fmt_time(run.at))}</p>
            }).into_any();
        };
        let decode = |run: &ScheduledRun| {
            serpkit::decode::<Vec<RankedKeyword>>(&run.body)
                .map(|v| Versioned::new(RankedKeywordsData::from_records(v, &curve())))
                .map_err(|e| e.to_string())
        };
        let at = (before.at, after.at);
        let shown = match (decode(before), decode(after)) {
            (Ok(b), Ok(a)) => compared(b, a, at, name, crate::research::report::Origin::Live),
            (Err(e), _) | (_, Err(e)) => unreadable(e),
        };
        view! {
            <section class="card" data-testid="section-scheduled" aria-labelledby="scheduled-title">
                <h2 id="scheduled-title">"Position changes on the team's schedule"</h2>
                <p class="meta" data-testid="ch-scheduled">{format!("The team server's scheduled purchases ({}'s schedule): nobody had to click, nothing is bought to show them.", after.member)}</p>
                {shown}
            </section>
        }
        .into_any()
    }
}

/// The comparison of two purchases (bought at `at.0` and `at.1`).
fn compared(
    before: Versioned<RankedKeywordsData>,
    after: Versioned<RankedKeywordsData>,
    at: (f64, f64),
    name: Signal<String>,
    origin: Origin,
) -> AnyView {
    let (c, ms) = timed("serpkit:position-changes", || {
        changes::compare(rows_of(&before), rows_of(&after))
    });
    let (n, counts, swaps) = (c.len(), c.counts, c.swaps);
    let curve = use_workspace()
        .settings
        .with_untracked(|s| s.ctr_curve.clone());
    let (won, lost) = c.traffic_won_lost(&rows_of(&before), &rows_of(&after), &curve);
    let data = Versioned::new(ChangesData {
        c,
        before,
        after,
        curve,
        orders: SortCache::new(COLUMNS.len()),
    });
    let only = RwSignal::new(None::<Move>);
    let sort = RwSignal::new(None::<(String, bool)>);
    let d = data.clone();
    let order = Memo::new(move |_| {
        let mask: Option<Vec<bool>> = only
            .get()
            .map(|m| d.c.moved.iter().map(|x| *x == m).collect());
        Versioned::new(
            sort.with(|s| sorted_view(&d.orders, &COLUMNS, &*d, n, s.as_ref(), mask.as_deref())),
        )
    });
    let d = data.clone();
    let render: RenderRow = Arc::new(move |i: u32| {
        let i = i as usize;
        if i >= n {
            return ().into_any();
        }
        let c = &d.c;
        let moved = c.moved[i];
        let rank = |r: Option<i64>| r.map_or_else(|| "–".to_string(), |r| r.to_string());
        let places = c.change(i).map_or_else(String::new, |p| {
            if p > 0 {
                format!("+{p}")
            } else {
                p.to_string()
            }
        });
        let (keyword, volume, url) = d.row(i);
        let (keyword, url) = (keyword.to_string(), url.to_string());
        let short = short_url(&url);
        let title = url.clone();
        view! {
            <div role="cell" class="vt-c kwc">{keyword}</div>
            <div role="cell" class="vt-c"><span class=format!("move m-{}", moved.id())>{moved.label()}</span></div>
            <div role="cell" class="vt-c num">{rank(c.before[i])}</div>
            <div role="cell" class="vt-c num">{rank(c.after[i])}</div>
            <div role="cell" class="vt-c num">{places}</div>
            <div role="cell" class="vt-c num">{fmt_int(volume)}</div>
            <div role="cell" class="vt-c url" title=title><ExtLink href=url>{short}</ExtLink></div>
            <div role="cell" class="vt-c num">{traffic_change_text(d.traffic(i))}</div>
            <div role="cell" class="vt-c">{c.swapped[i].then_some("URL swap")}</div>
        }
        .into_any()
    });
    let shown = move || order.with(|o| o.len());
    let export = move |_| {
        let text =
            order.with_untracked(|o| crate::components::columns::to_csv(&COLUMNS, &*data, o));
        save_csv(
            &format!("position-changes-{}.csv", name.get_untracked()),
            &text,
            origin,
        );
    };
    view! {
        <div class="analysis" data-testid="ch">
            <p class="meta" data-testid="ch-dates">{format!("Previous purchase {} → latest {}.", fmt_time(at.0), fmt_time(at.1))}</p>
            <p class="meta" data-testid="ch-traffic">{format!("Estimated traffic won +{}, lost −{} · {} URL swap{}", traffic_text(won), traffic_text(lost), fmt_int(swaps as i64), if swaps == 1 { "" } else { "s" })}</p>
            <div class="toolbar" role="group" aria-label="Show keywords that moved">
                <button type="button" class="secondary" data-testid="ch-all" aria-pressed=move || only.get().is_none().to_string()
                    on:click=move |_| only.set(None)>{format!("All {}", fmt_int(n as i64))}</button>
                {Move::ALL.iter().zip(counts).map(|(m, count)| {
                    let m = *m;
                    view! {
                        <button type="button" class="secondary" data-testid=format!("ch-{}", m.id())
                            aria-pressed=move || (only.get() == Some(m)).to_string()
                            on:click=move |_| only.set(Some(m))>{format!("{} {}", m.label(), fmt_int(count as i64))}</button>
                    }
                }).collect_view()}
            </div>
            <div class="toolbar">
                <strong data-testid="ch-count" aria-live="polite">{move || format!("{} of {} keywords", fmt_int(shown() as i64), fmt_int(n as i64))}</strong>
                <button type="button" class="secondary" data-testid="ch-csv" disabled=move || shown() == 0 on:click=export>
                    {move || format!("Export CSV ({} rows)", fmt_int(shown() as i64))}</button>
                <span class="meta" data-testid="ch-timing">{format!("computed in {ms:.0} ms")}</span>
            </div>
            <Show when=move || { shown() > 0 }
                fallback=|| view! { <p class="empty" data-testid="ch-none">"No keyword moved this way."</p> }>
                <VirtualTable columns=COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort caption="Position changes between the two purchases" testid="ch-table" />
            </Show>
            <details class="meta rules" data-testid="ch-rule">
                <summary>"How this is computed"</summary>
                <p>{changes::RULE}</p>
                <p>{CURVE_RULE}</p>
            </details>
        </div>
    }
    .into_any()
}
