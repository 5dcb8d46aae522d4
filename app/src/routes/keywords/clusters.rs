//! Clusters by shared search results beside the free word-based groups
//! (`research::serp_clusters`, which states the rule). Each keyword's outline (`outline/seo`,
//! paid per keyword) is bought through the workspace's one call path; the whole clustering is
//! priced first with `workspace::quote_now` (outlines already bought, here or on a keyword's
//! page, are reused and not priced), checked against what is left of the budget cap as a
//! whole, and only the missing outlines are bought. The clustering leaves as CSV
//! (`clusters_table`) and in the explorer's report ([`clustered_now`]: the outlines already
//! bought, nothing bought to make it).

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use serpkit::ops::outline_seo;

use super::clusters_buy::{quote_missing, targets, Buyer, Target, MAX_KEYWORDS};
use super::clusters_table::ClustersTable;
use crate::components::budget::Budget;
use crate::components::csv::{origin_of_result, Origin};
use crate::components::keyword::row::KeywordRow;
use crate::components::versioned::Versioned;
use crate::components::{fmt_int, possibly_text, price_text_with, PriceButton};
use crate::research::serp_clusters::{self, Clustered, Serp};
use crate::host::tabs;
use crate::workspace::{use_workspace, Quote, Workspace};

/// The User Timing measure of one clustering.
pub const MEASURE: &str = "serpkit:serp-clusters";

/// The outlines stored now, one per target (`None`: not bought), how many could not be read
/// (clustered as a keyword without results), and where those stored came from.
#[derive(Clone, Default)]
struct Outlines {
    urls: Vec<Option<Arc<Vec<String>>>>,
    unreadable: usize,
    origin: Origin,
}

/// Decoded outlines by cache key: the time stored and the result URLs (`None`: unreadable).
type Cache = HashMap<String, (f64, Option<Arc<Vec<String>>>)>;

/// The outlines of `targets` stored now (tracked: `workspace.results`); each body is decoded
/// once per time stored, through `cache`.
fn outlines_now(workspace: Workspace, targets: &[Target], cache: &mut Cache) -> Outlines {
    let mut out = Outlines::default();
    workspace.results.with(|m| {
        for t in targets {
            let Some(r) = m.get(&t.key).filter(|r| r.missing.is_empty()) else {
                out.urls.push(None);
                continue;
            };
            let urls = match cache.get(&t.key).filter(|c| c.0 == r.at) {
                Some(c) => c.1.clone(),
                None => {
                    let urls = serpkit::decode::<outline_seo::Response>(&r.body)
                        .ok()
                        .map(|pages| Arc::new(pages.into_iter().map(|p| p.url).collect()));
                    cache.insert(t.key.clone(), (r.at, urls.clone()));
                    urls
                }
            };
            out.unreadable += usize::from(urls.is_none());
            out.origin = out.origin.and(origin_of_result(r));
            out.urls.push(Some(urls.unwrap_or_default()));
        }
    });
    out
}

/// The clustering of `rows` by the outlines stored now, at least `min_shared` results
/// shared; the price of the outlines still missing; where the rows (`rows_origin`) and the
/// outlines came from. For the explorer's report: nothing is bought.
pub fn clustered_now(
    workspace: Workspace,
    rows: &[KeywordRow],
    rows_origin: Origin,
    min_shared: usize,
) -> (Clustered, serpkit::Usd, Origin) {
    let t = targets(workspace, rows);
    let o = outlines_now(workspace, &t, &mut Cache::new());
    let serps = serps(&t, &o);
    let c = serp_clusters::cluster(&serps, min_shared);
    let missing = quote_missing(workspace, &t).0.usd;
    (Clustered::of(&serps, &c, min_shared, o.unreadable, 0.0), missing, rows_origin.and(o.origin))
}

/// The clusters panel of the explorer: the price of clustering the rows shown, the threshold,
/// and the clusters once the outlines are there.
#[component]
pub fn SerpClusters(
    /// The rows shown (filtered).
    #[prop(into)]
    rows: Signal<Vec<KeywordRow>>,
    /// Where the rows came from (their result's source).
    origin: Signal<Origin>,
    /// The least number of shared results (N), the explorer's (its report reads it too).
    min_shared: RwSignal<usize>,
) -> impl IntoView {
    let workspace = use_workspace();
    let targets = Memo::new(move |_| Versioned::new(rows.with(|r| targets(workspace, r))));
    let buyer = Buyer::new(workspace, targets);
    let busy = buyer.busy;
    // Decoded outlines by (cache key, time stored): each body is read once.
    let cache = StoredValue::new(Cache::new());
    let outlines = Memo::new(move |prev: Option<&Versioned<Outlines>>| {
        if let Some(o) = prev.filter(|_| busy.get()) {
            return o.clone();
        }
        let t = targets.get();
        Versioned::new(cache.try_update_value(|c| outlines_now(workspace, &t, c)).unwrap_or_default())
    });
    // While outlines are being bought, the price and the clusters stay as they were and are
    // computed again when the purchase ends (not once per outline stored: 2,000 outlines
    // would price and cluster 2,000 times).
    let quote = Memo::new(move |prev: Option<&(Quote, usize)>| match prev {
        Some(q) if busy.get() => *q,
        _ => targets.with(|t| quote_missing(workspace, t)),
    });
    let failed = Memo::new(move |_| {
        targets.with(|t| workspace.errors.with(|e| t.iter().find_map(|t| e.get(&t.key).map(|e| (t.keyword.clone(), e.message.clone())))))
    });
    let over = Memo::new(move |_| {
        let price = quote.with(|q| q.0.usd);
        Budget::now(workspace).filter(|b| price > serpkit::Usd::ZERO && !b.admits(price))
    });
    let clustered = Memo::new(move |prev: Option<&Versioned<Clustered>>| match prev {
        Some(c) if busy.get() => c.clone(),
        _ => {
            let (t, o, n) = (targets.get(), outlines.get(), min_shared.get());
            let t0 = tabs::clock();
            let serps = serps(&t, &o);
            let c = serp_clusters::cluster(&serps, n);
            // The benchmark's measure (bench/app/run.mjs): the clustering alone.
            tabs::measure(MEASURE, t0);
            Versioned::new(Clustered::of(&serps, &c, n, o.unreadable, tabs::clock() - t0))
        }
    });
    let buy = move |_| targets.with_untracked(|t| buyer.buy(t));
    let text = Signal::derive(move || {
        let (q, reused) = quote.get();
        price_text_with("Cluster by shared results", q.usd, q.units, "outline", reused) + &possibly_text(q.possibly)
    });
    view! {
        <section class="card clusters" data-testid="serp-clusters" aria-labelledby="clusters-title"
            aria-busy=move || busy.get().to_string()>
            <div class="card-head">
                <h2 id="clusters-title">"Clusters by shared search results"</h2>
                <Show when=move || quote.with(|q| q.0.units > 0)>
                    <PriceButton testid="clusters-run" text=text price=Signal::derive(move || quote.get().0.usd)
                        disabled=Signal::derive(move || busy.get() || over.with(Option::is_some))
                        on_run=Callback::new(buy) />
                </Show>
            </div>
            <p class="meta" data-testid="clusters-free">"Each keyword's top-10 results are bought once (its SEO outline, "{outline_seo::PRICE.usd.to_string()}" a keyword) and reused afterwards, here and on the keyword's page. The keyword groups above cost nothing: they group by shared words."</p>
            {move || over.get().map(|b| view! {
                <p class="meta warn" role="status" data-testid="clusters-over">{format!("Not enough budget: the missing outlines cost {} together and {} is left of the {} cap. Cluster fewer keywords (filter the table), or raise the cap in Settings.", quote.get().0.usd, b.left, b.cap)}</p>
            })}
            {move || busy.get().then(|| view! { <p class="meta loading" role="status" data-testid="clusters-loading"><span class="spinner" aria-hidden="true"></span>{move || format!("Buying outlines: {} left…", buyer.running.get() + buyer.queued.get())}</p> })}
            {move || failed.get().map(|(k, m)| view! { <p class="error inline" role="alert" data-testid="clusters-error">{format!("The outline of “{k}” failed: {m}")}</p> })}
            {move || (targets.with(|t| t.len()) == MAX_KEYWORDS).then(|| view! { <p class="meta">{format!("The first {} keywords shown are clustered.", fmt_int(MAX_KEYWORDS as i64))}</p> })}
            <label class="f"><span>"Least shared results (N of 10)"</span>
                <input type="number" min="1" max="10" data-testid="clusters-min" prop:value=move || min_shared.get().to_string()
                    on:input=move |ev| { if let Ok(n) = event_target_value(&ev).trim().parse::<usize>() { min_shared.set(n.clamp(1, 10)) } } /></label>
            <ClustersTable clustered=clustered origin=Signal::derive(move || origin.get().and(outlines.with(|o| o.origin))) />
            <details class="meta rules" data-testid="clusters-rule">
                <summary>"How keywords are clustered"</summary>
                <p>{serp_clusters::RULE}</p>
            </details>
        </section>
    }
}

/// The keywords and volumes of `targets` with their outlines, as the clustering reads them.
fn serps<'a>(targets: &'a [Target], outlines: &'a Outlines) -> Vec<Serp<'a>> {
    targets
        .iter()
        .zip(&outlines.urls)
        .map(|(t, o)| Serp {
            keyword: &t.keyword,
            volume: t.volume,
            urls: o.as_ref().map(|u| u.as_slice()),
        })
        .collect()
}
