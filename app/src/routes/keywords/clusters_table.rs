//! The clusters found (`research::serp_clusters`) as a table: each cluster's pivot keyword,
//! its keywords and summed volume, its members; and the keywords still without an outline.

use leptos::prelude::*;

use crate::components::fmt_int;
use crate::components::versioned::Versioned;
use crate::components::AddToList;
use crate::model::plural;
use crate::research::serp_clusters::{Clusters, Serp};

/// Clusters shown at once.
const SHOWN: usize = 100;

/// One cluster as the table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its keywords, the pivot first.
    pub keywords: Vec<String>,
    /// Their summed volume.
    pub volume: i64,
}

/// The clustering of the keywords shown, ready to show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clustered {
    /// The clusters, by summed volume.
    pub rows: Vec<Row>,
    /// Keywords without an outline bought.
    pub unbought: Vec<String>,
    /// Outlines stored that could not be read (clustered as keywords without results).
    pub unreadable: usize,
    /// How long clustering took (ms).
    pub millis: f64,
}

impl Clustered {
    /// The clusters `c` of `serps`.
    pub fn of(serps: &[Serp], c: &Clusters, unreadable: usize, millis: f64) -> Clustered {
        Clustered {
            rows: c
                .clusters
                .iter()
                .map(|members| Row {
                    keywords: members.iter().map(|&i| serps[i].keyword.to_string()).collect(),
                    volume: members.iter().map(|&i| serps[i].volume.max(0)).sum(),
                })
                .collect(),
            unbought: c.unbought.iter().map(|&i| serps[i].keyword.to_string()).collect(),
            unreadable,
            millis,
        }
    }
}

/// The clusters table, the keywords without an outline, and a list of the clustered keywords.
#[component]
pub fn ClustersTable(clustered: Memo<Versioned<Clustered>>) -> impl IntoView {
    let multi = Signal::derive(move || {
        clustered.with(|c| c.rows.iter().filter(|r| r.keywords.len() > 1).flat_map(|r| r.keywords.clone()).collect::<Vec<_>>())
    });
    view! {
        {move || clustered.with(|c| (!c.rows.is_empty()).then(|| {
            let n = c.rows.len();
            let grouped = c.rows.iter().filter(|r| r.keywords.len() > 1).count();
            view! {
                <div class="toolbar">
                    <strong data-testid="clusters-count" aria-live="polite">{format!("{} cluster{} ({grouped} of two keywords or more)", fmt_int(n as i64), plural(n))}</strong>
                    <span class="meta" data-testid="clusters-timing">{format!("clustered in {:.0} ms", c.millis)}</span>
                    <AddToList keywords=multi id="clusters" testid_prefix="clusters" />
                </div>
                <div class="scroll" tabindex="0" role="region" aria-label="Clusters by shared search results">
                    <table class="data" data-testid="clusters-table">
                        <caption class="sr-only">"Clusters by shared search results: the pivot keyword, the keywords clustered with it and their summed volume"</caption>
                        <thead><tr>
                            <th scope="col">"Cluster (pivot keyword)"</th>
                            <th scope="col" class="num">"Keywords"</th>
                            <th scope="col" class="num">"Volume"</th>
                        </tr></thead>
                        <tbody>{c.rows.iter().take(SHOWN).map(row).collect_view()}</tbody>
                    </table>
                </div>
                {(n > SHOWN).then(|| view! { <p class="meta">{format!("The first {SHOWN} of {} clusters.", fmt_int(n as i64))}</p> })}
            }
        }))}
        {move || clustered.with(|c| (c.unreadable > 0).then(|| view! {
            <p class="meta warn" data-testid="clusters-unreadable">{format!("{} stored outline{} could not be read: each is clustered alone (Refresh it on the keyword's page).", c.unreadable, plural(c.unreadable))}</p>
        }))}
        {move || clustered.with(|c| (!c.unbought.is_empty()).then(|| view! {
            <p class="meta" data-testid="clusters-unbought">{format!("{} keyword{} without an outline yet (in no cluster): ", c.unbought.len(), plural(c.unbought.len()))}{c.unbought.iter().take(40).cloned().collect::<Vec<_>>().join(", ")}</p>
        }))}
    }
}

/// A cluster's row: its pivot with the members under it, size and volume.
fn row(r: &Row) -> impl IntoView {
    let pivot = r.keywords[0].clone();
    let id = pivot.clone();
    let members = r.keywords[1..].join(", ");
    view! {
        <tr data-testid="cluster-row" data-pivot=id>
            <td>{if members.is_empty() {
                view! { <span data-testid="cluster-pivot">{pivot}</span> }.into_any()
            } else {
                view! { <details><summary data-testid="cluster-pivot">{pivot}</summary><p class="members" data-testid="cluster-members">{members}</p></details> }.into_any()
            }}</td>
            <td class="num" data-col="size">{fmt_int(r.keywords.len() as i64)}</td>
            <td class="num" data-col="volume">{fmt_int(r.volume)}</td>
        </tr>
    }
}
