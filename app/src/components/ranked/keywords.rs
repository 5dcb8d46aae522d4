//! The ranked keywords of a domain (`ranked-keywords/domain`) as a virtualized table that
//! stays smooth with 100,000 rows: data in columns ([`RankedKeywordsData`]), sorting by a cached sort
//! order (an index) per column, filtering through a precomputed lower-case keyword column, and
//! only the visible rows in the DOM ([`VirtualTable`]). CSV export takes the filtered rows
//! in table order; a row opens its keyword in the keyword explorer.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use serpkit::ops::ranked_keywords_domain::RankedKeyword;

use crate::components::columns::{self, sorted_view, Column, SortCache, SortKey, SortOrder};
use crate::components::csv::Cell;
use crate::components::versioned::Versioned;
use crate::components::virtual_table::{RenderRow, VirtualTable};
use crate::components::{csv, fmt_int, ExtLink, PricedCall};
use crate::paths::keywords_route;
use crate::research::ctr::{traffic_text, Curve, CURVE_RULE};
use crate::research::gap::competition_bound;
use crate::workspace::use_workspace;

/// The table's columns.
pub const COLUMNS: [Column<RankedKeywordsData>; 8] = [
    Column::keyword(
        "minmax(11rem, 2fr)",
        |data, i| SortKey::text(&data.lower[i]),
        Some(|data, i| Cell::text(&data.keyword[i])),
    ),
    Column {
        csv_header: Some("Search volume"),
        ..Column::volume(
            |data, i| SortKey::int(data.volume[i]),
            Some(|data, i| Cell::num(data.volume[i])),
        )
    },
    Column::new(
        "rank",
        "Rank",
        true,
        "4.5rem",
        |data, i| SortKey::int(data.rank[i]),
        Some(|data, i| Cell::num(data.rank[i])),
    ),
    Column::new(
        "competition",
        "Competition",
        true,
        "7.5rem",
        |data, i| SortKey::num(data.competition[i]),
        Some(|data, i| Cell::decimal(data.competition[i] / 100.0, 2)),
    ),
    Column::new(
        "backlinks",
        "Backlinks",
        true,
        "7rem",
        |data, i| SortKey::int(data.backlinks[i]),
        Some(|data, i| Cell::num(data.backlinks[i])),
    ),
    Column {
        csv_header: Some("Referring domains"),
        ..Column::new(
            "refdomains",
            "Ref. domains",
            true,
            "8rem",
            |data, i| SortKey::int(data.refdomains[i]),
            Some(|data, i| Cell::num(data.refdomains[i])),
        )
    },
    Column::ranking_url(
        "minmax(12rem, 2.4fr)",
        |data, i| SortKey::text(&data.url[i]),
        Some(|data, i| Cell::text(&data.url[i])),
    ),
    Column::new(
        "traffic",
        "Est. traffic",
        true,
        "7rem",
        |data, i| SortKey::num(data.traffic[i]),
        Some(|data, i| Cell::decimal(data.traffic[i], 1)),
    ),
];

/// Ranked keywords in columns, with their sort orders computed on first use.
#[derive(Default)]
pub struct RankedKeywordsData {
    /// Keywords as sent.
    pub keyword: Vec<String>,
    /// Keywords lower-cased (filter and sort key).
    pub lower: Vec<String>,
    /// Search volume.
    pub volume: Vec<i64>,
    /// Rank.
    pub rank: Vec<i64>,
    /// Competition as `ranked-keywords` reports it, 0–100 (the content gap reads it so);
    /// shown, exported and filtered on the 0–1 scale of the explorer and the gap.
    pub competition: Vec<f64>,
    /// Backlinks of the ranking URL.
    pub backlinks: Vec<i64>,
    /// Referring domains of the ranking URL.
    pub refdomains: Vec<i64>,
    /// Ranking URL.
    pub url: Vec<String>,
    /// Estimated traffic (`research::ctr`): volume × the click-through rate of the rank.
    pub traffic: Vec<f64>,
    /// Every lower-cased keyword followed by `\n`, in row order: one text to search.
    hay: String,
    /// Byte offset of each row's keyword in `hay`.
    starts: Vec<u32>,
    orders: SortCache,
}

impl RankedKeywordsData {
    /// From decoded records, traffic estimated by `curve`.
    pub fn from_records(records: Vec<RankedKeyword>, curve: &Curve) -> RankedKeywordsData {
        let n = records.len();
        let mut d = RankedKeywordsData {
            keyword: Vec::with_capacity(n),
            lower: Vec::with_capacity(n),
            volume: Vec::with_capacity(n),
            rank: Vec::with_capacity(n),
            competition: Vec::with_capacity(n),
            backlinks: Vec::with_capacity(n),
            refdomains: Vec::with_capacity(n),
            url: Vec::with_capacity(n),
            traffic: Vec::with_capacity(n),
            hay: String::with_capacity(n * 24),
            starts: Vec::with_capacity(n),
            orders: SortCache::new(COLUMNS.len()),
        };
        for r in records {
            let lower = r.keyword.to_lowercase().replace('\n', " ");
            d.starts.push(d.hay.len() as u32);
            d.hay.push_str(&lower);
            d.hay.push('\n');
            d.lower.push(lower);
            d.keyword.push(r.keyword);
            d.traffic.push(curve.traffic(r.search_volume, r.rank));
            d.volume.push(r.search_volume);
            d.rank.push(r.rank);
            d.competition.push(r.competition);
            d.backlinks.push(r.total_backlinks);
            d.refdomains.push(r.total_referring_domains);
            d.url.push(r.url);
        }
        d
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.keyword.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.keyword.is_empty()
    }

    /// The ascending order of a column (computed once): row positions.
    pub fn perm(&self, col: &str) -> Option<&[u32]> {
        self.orders
            .get(&COLUMNS, self, self.len(), col)
            .map(SortOrder::rows)
    }

    /// The shown order: sorted by `sort`, the rows of `mask`.
    pub fn view(&self, sort: Option<&(String, bool)>, mask: &[bool]) -> Vec<u32> {
        sorted_view(&self.orders, &COLUMNS, self, self.len(), sort, Some(mask))
    }

    /// Marks in `mask` the rows whose keyword contains `word` (lower case, no line break):
    /// one search through all keywords, not one per row.
    fn mark(&self, word: &str, mask: &mut [bool]) {
        let mut row = 0usize;
        for (at, _) in self.hay.match_indices(word) {
            let at = at as u32;
            while row + 1 < self.starts.len() && self.starts[row + 1] <= at {
                row += 1;
            }
            if let Some(m) = mask.get_mut(row) {
                *m = true;
            }
        }
    }

    /// Computes every sort order not computed yet (idle warm-up).
    pub fn warm(&self) {
        self.orders.warm(&COLUMNS, self, self.len());
    }

    /// The records as the content gap reads them (`research::gap`): the gap page and the
    /// client report read them so.
    pub fn ranked(&self) -> crate::research::gap::Ranked<'_> {
        crate::research::gap::Ranked {
            keyword: &self.keyword,
            lower: &self.lower,
            volume: &self.volume,
            competition: &self.competition,
            rank: &self.rank,
            url: &self.url,
        }
    }
}

/// The ranked keywords of a call's stored result, in columns (recomputed only when another
/// result is stored).
pub fn ranked_keywords_of(
    call: PricedCall,
) -> Memo<Option<Result<Versioned<RankedKeywordsData>, String>>> {
    let curve = use_workspace()
        .settings
        .with_untracked(|s| s.ctr_curve.clone());
    call.decoded_with(move |body| {
        serpkit::decode::<Vec<RankedKeyword>>(body)
            .map(|r| RankedKeywordsData::from_records(r, &curve))
            .map_err(|e| e.to_string())
    })
}

/// The table's filters (text as typed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankedKeywordsFilter {
    /// Words the keyword must contain; a word starting with `-` must not be contained.
    pub text: String,
    /// Volume from.
    pub volume_min: String,
    /// Volume to.
    pub volume_max: String,
    /// Rank from.
    pub rank_min: String,
    /// Rank to.
    pub rank_max: String,
    /// Competition from, 0–1 (`gap::competition_bound`: above 1 reads as a percentage).
    pub competition_min: String,
    /// Competition to, 0–1.
    pub competition_max: String,
}

/// A range bound: empty or unreadable text is open.
pub fn bound(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Which rows pass the filter.
pub fn mask(d: &RankedKeywordsData, f: &RankedKeywordsFilter) -> Vec<bool> {
    let mut inc: Vec<String> = Vec::new();
    let mut exc: Vec<String> = Vec::new();
    for w in f.text.split_whitespace() {
        let w = w.to_lowercase();
        match w.strip_prefix('-') {
            Some("") => {}
            Some(x) => exc.push(x.to_string()),
            None => inc.push(w),
        }
    }
    let (v0, v1) = (bound(&f.volume_min), bound(&f.volume_max));
    let (r0, r1) = (bound(&f.rank_min), bound(&f.rank_max));
    // On the 0–100 scale the data has.
    let (c0, c1) = (
        competition_bound(&f.competition_min).map(|c| c * 100.0),
        competition_bound(&f.competition_max).map(|c| c * 100.0),
    );
    let within = |v: f64, lo: Option<f64>, hi: Option<f64>| {
        lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
    };
    let ranges = [v0, v1, r0, r1, c0, c1].iter().any(Option::is_some);
    let n = d.len();
    let mut out = vec![true; n];
    let mut hit = vec![false; n];
    for w in &inc {
        hit.iter_mut().for_each(|h| *h = false);
        d.mark(w, &mut hit);
        out.iter_mut().zip(&hit).for_each(|(o, h)| *o &= *h);
    }
    for w in &exc {
        hit.iter_mut().for_each(|h| *h = false);
        d.mark(w, &mut hit);
        out.iter_mut().zip(&hit).for_each(|(o, h)| *o &= !*h);
    }
    if ranges {
        for (i, o) in out.iter_mut().enumerate() {
            *o = *o
                && within(d.volume[i] as f64, v0, v1)
                && within(d.rank[i] as f64, r0, r1)
                && within(d.competition[i], c0, c1);
        }
    }
    out
}

/// The filtered rows in table order as CSV.
pub fn to_csv(d: &RankedKeywordsData, order: &[u32]) -> String {
    columns::to_csv(&COLUMNS, d, order)
}

/// The state of the table that lives in the URL.
#[derive(Clone, Copy)]
pub struct RankedKeywordsState {
    /// Filters.
    pub filter: RwSignal<RankedKeywordsFilter>,
    /// Sort column and descending.
    pub sort: RwSignal<Option<(String, bool)>>,
}

/// The ranked keywords table of a stored result.
#[component]
pub fn RankedKeywordsTable(
    /// The decoded records.
    data: Memo<Option<Versioned<RankedKeywordsData>>>,
    /// Filters and sort.
    state: RankedKeywordsState,
    /// File name stem for the CSV export.
    #[prop(into)]
    name: Signal<String>,
    /// Where the records came from (their stored result's source).
    origin: Signal<csv::Origin>,
) -> impl IntoView {
    let workspace = use_workspace();
    let navigate = use_navigate();
    let RankedKeywordsState { filter, sort } = state;
    let mask_memo = Memo::new(move |_| {
        let f = filter.get();
        data.with(|d| d.as_ref().map(|d| Versioned::new(mask(d, &f))))
    });
    let order = Memo::new(move |_| {
        let s = sort.get();
        let d = data.get();
        let m = mask_memo.get();
        match (d, m) {
            (Some(d), Some(m)) => Versioned::new(d.view(s.as_ref(), &m)),
            _ => Versioned::new(Vec::new()),
        }
    });
    // Warm the other sort orders once the table is on screen.
    Effect::new(move |_| {
        if let Some(d) = data.get() {
            set_timeout(move || d.warm(), std::time::Duration::from_millis(400));
        }
    });

    let cc = move || workspace.settings.with_untracked(|s| s.ccode.clone());
    let nav = StoredValue::new(navigate);
    let open = move |i: u32| {
        let kw =
            data.with_untracked(|d| d.as_ref().and_then(|d| d.keyword.get(i as usize).cloned()));
        if let Some(kw) = kw {
            let route = keywords_route(&[kw], &cc());
            nav.with_value(|n| n(&route, Default::default()));
        }
    };
    let render: RenderRow = Arc::new(move |i: u32| {
        let Some(d) = data.get_untracked() else {
            return ().into_any();
        };
        let i = i as usize;
        let (Some(kw), Some(url)) = (d.keyword.get(i).cloned(), d.url.get(i).cloned()) else {
            return ().into_any();
        };
        let href = keywords_route(std::slice::from_ref(&kw), &cc());
        let rank = d.rank[i];
        let comp = d.competition[i];
        let url_text = short_url(&url);
        let title = url.clone();
        view! {
            <div role="cell" class="vt-c kwc"><a href=href class="kw" title="Open in the keyword explorer">{kw}</a></div>
            <div role="cell" class="vt-c num">{fmt_int(d.volume[i])}</div>
            <div role="cell" class="vt-c num"><span class="rankpill" class:top3=rank <= 3 class:top10=(4..=10).contains(&rank)>{rank}</span></div>
            <div role="cell" class="vt-c num">
                <span class="compbar" aria-hidden="true"><span style=format!("width:{:.0}%", comp.clamp(0.0, 100.0))></span></span>
                {format!("{:.2}", comp / 100.0)}
            </div>
            <div role="cell" class="vt-c num">{fmt_int(d.backlinks[i])}</div>
            <div role="cell" class="vt-c num">{fmt_int(d.refdomains[i])}</div>
            <div role="cell" class="vt-c url" title=title><ExtLink href=url>{url_text}</ExtLink></div>
            <div role="cell" class="vt-c num">{traffic_text(d.traffic[i])}</div>
        }
        .into_any()
    });

    let export = move |_| {
        let csv_text = data.with_untracked(|d| {
            d.as_ref()
                .map(|d| order.with_untracked(|o| to_csv(d, o)))
                .unwrap_or_default()
        });
        let file = format!("ranked-keywords-{}.csv", name.get_untracked());
        if let Err(e) = csv::download(&file, "text/csv", &csv_text, origin.get_untracked()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let set = move |f: fn(&mut RankedKeywordsFilter) -> &mut String, v: String| {
        filter.update(|x| *f(x) = v);
    };
    let range = move |label: &'static str,
                      id: &'static str,
                      get: fn(&RankedKeywordsFilter) -> String,
                      f: fn(&mut RankedKeywordsFilter) -> &mut String,
                      ph: &'static str| {
        view! {
            <label class="f">
                <span>{label}</span>
                <input data-testid=id inputmode="decimal" placeholder=ph
                    prop:value=move || filter.with(get)
                    on:input=move |ev| set(f, event_target_value(&ev)) />
            </label>
        }
    };
    let total = move || data.with(|d| d.as_ref().map_or(0, |d| d.len()));
    let shown = move || order.with(|o| o.len());

    view! {
        <div class="rk">
            <fieldset class="filters">
                <legend>"Filter"</legend>
                <label class="f wide">
                    <span>"Keyword contains"</span>
                    <input type="search" data-testid="rk-filter" placeholder="e.g. shoes -cheap"
                        aria-describedby="rk-filter-help"
                        prop:value=move || filter.with(|f| f.text.clone())
                        on:input=move |ev| set(|f| &mut f.text, event_target_value(&ev)) />
                </label>
                {range("Volume from", "rk-vmin", |f| f.volume_min.clone(), |f| &mut f.volume_min, "min")}
                {range("to", "rk-vmax", |f| f.volume_max.clone(), |f| &mut f.volume_max, "max")}
                {range("Rank from", "rk-rmin", |f| f.rank_min.clone(), |f| &mut f.rank_min, "1")}
                {range("to", "rk-rmax", |f| f.rank_max.clone(), |f| &mut f.rank_max, "100")}
                {range("Competition from", "rk-cmin", |f| f.competition_min.clone(), |f| &mut f.competition_min, "0")}
                {range("to", "rk-cmax", |f| f.competition_max.clone(), |f| &mut f.competition_max, "1")}
                <button type="button" class="secondary" data-testid="rk-clear"
                    disabled=move || filter.with(|f| *f == RankedKeywordsFilter::default())
                    on:click=move |_| filter.set(RankedKeywordsFilter::default())>"Clear filters"</button>
                <p id="rk-filter-help" class="meta full">"Words are matched anywhere in the keyword; a word starting with “-” excludes keywords containing it."</p>
            </fieldset>
            <div class="toolbar">
                <strong data-testid="rk-count" aria-live="polite">
                    {move || format!("{} of {} keywords", fmt_int(shown() as i64), fmt_int(total() as i64))}
                </strong>
                <button type="button" class="secondary" data-testid="rk-export" on:click=export
                    disabled=move || shown() == 0>
                    {move || format!("Export CSV ({} rows)", fmt_int(shown() as i64))}
                </button>
                {shown_traffic(data, order)}
                <span class="meta">"Click a row to open its keyword in the keyword explorer (nothing is bought until you run it there)."</span>
            </div>
            <Show when=move || { shown() > 0 }
                fallback=move || view! {
                    <p class="empty" data-testid="rk-no-match">
                        {move || if total() == 0 { "The service returned no ranked keywords for this domain." } else { "No keywords match these filters. " }}
                        <button type="button" class="linklike" on:click=move |_| filter.set(RankedKeywordsFilter::default())>"Clear filters"</button>
                    </p>
                }>
                <VirtualTable columns=COLUMNS.to_vec() rows=Signal::derive(move || order.get()) render=render.clone()
                    sort=sort on_row=Callback::new(open) caption="Ranked keywords" testid="rk-table" />
            </Show>
        </div>
    }
}

/// The estimated traffic of the rows in `order` (all rows: the domain's estimated organic
/// traffic), the curve's rule in its tooltip and under it.
fn shown_traffic(
    data: Memo<Option<Versioned<RankedKeywordsData>>>,
    order: Memo<Versioned<Vec<u32>>>,
) -> impl IntoView {
    let sum = move || {
        data.with(|d| {
            d.as_ref().map_or(0.0, |d| {
                order.with(|o| o.iter().map(|&i| d.traffic[i as usize]).sum())
            })
        })
    };
    view! {
        <span class="meta" data-testid="rk-traffic" title=CURVE_RULE>
            {move || format!("Est. traffic of the keywords shown: {} visits a month", traffic_text(sum()))}
        </span>
        <details class="meta rules" data-testid="rk-traffic-rule">
            <summary>"How estimated traffic is computed"</summary>
            <p>{CURVE_RULE}</p>
        </details>
    }
}

/// A URL without its scheme, for display.
pub fn short_url(u: &str) -> String {
    let s = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
        .unwrap_or(u);
    s.strip_prefix("www.").unwrap_or(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> RankedKeywordsData {
        let rec = |k: &str, v: i64, r: i64, c: f64| RankedKeyword {
            keyword: k.into(),
            competition: c,
            search_volume: v,
            total_backlinks: 0,
            total_referring_domains: 0,
            rank: r,
            url: "https://a.com/".into(),
        };
        RankedKeywordsData::from_records(
            vec![
                rec("Trail Shoes", 100, 3, 10.0),
                rec("cheap shoes", 500, 12, 90.0),
                rec("boots", 50, 1, 50.0),
                rec("shoes shoes", 1, 1, 1.0),
            ],
            &Curve::default(),
        )
    }

    fn text(t: &str) -> RankedKeywordsFilter {
        RankedKeywordsFilter {
            text: t.into(),
            ..Default::default()
        }
    }

    #[test]
    fn filter_sort_csv() {
        let d = data();
        assert_eq!(
            mask(&d, &text("shoes -cheap")),
            vec![true, false, false, true]
        );
        assert_eq!(mask(&d, &text("S")), vec![true, true, true, true]);
        assert_eq!(mask(&d, &text("s\nb")), vec![false, false, true, false]);
        assert_eq!(mask(&d, &text("boots")), vec![false, false, true, false]);
        assert_eq!(mask(&d, &text("-")), vec![true, true, true, true]);
        assert_eq!(mask(&d, &text("zzz")), vec![false, false, false, false]);
        let f = RankedKeywordsFilter {
            volume_min: "60".into(),
            rank_max: "10".into(),
            ..Default::default()
        };
        assert_eq!(mask(&d, &f), vec![true, false, false, false]);
        assert_eq!(d.perm("volume"), Some(&[3u32, 2, 0, 1][..]));
        assert_eq!(d.perm("keyword"), Some(&[2u32, 1, 3, 0][..]));
        assert_eq!(d.perm("nope"), None);
        let csv = to_csv(&d, &[1]);
        // 500 × 0.5 % at #12: 2.5 estimated visits.
        assert!(csv.ends_with("cheap shoes,500,12,0.90,0,0,https://a.com/,2.5\r\n"));
        // Competition typed on the 0–1 scale (as in the explorer and the gap); 50 reads as 0.50.
        let up_to = |c: &str| RankedKeywordsFilter {
            competition_max: c.into(),
            ..Default::default()
        };
        assert_eq!(mask(&d, &up_to("0.5")), vec![true, false, true, true]);
        assert_eq!(mask(&d, &up_to("50")), vec![true, false, true, true]);
        assert_eq!(mask(&d, &up_to("0.05")), vec![false, false, false, true]);
        assert_eq!(short_url("https://www.a.com/x"), "a.com/x");
        let empty = RankedKeywordsData::from_records(Vec::new(), &Curve::default());
        assert!(mask(&empty, &text("a")).is_empty());
    }
}
