//! The clusters found (`research::serp_clusters`) as a table: each cluster's pivot keyword,
//! its keywords and summed volume, its members; the keywords still without an outline; and
//! the clustering as CSV (labelled by where its rows and outlines came from).

use leptos::prelude::*;

use crate::components::csv::{self, Cell, Origin};
use crate::components::fmt_int;
use crate::components::versioned::Versioned;
use crate::components::AddToList;
use crate::model::plural;
use crate::research::serp_clusters::{ClusterRow, Clustered};
use crate::workspace::use_workspace;

/// Clusters shown at once (the CSV has every cluster).
const SHOWN: usize = 100;

/// The CSV of a clustering: one row per keyword, cluster by cluster as the table lists them
/// (its number, pivot first), with its volume, the results it shares with its pivot (the
/// pivot: its own) and the N used; then the keywords without an outline, in no cluster (their
/// cluster and shared cells empty), so the file has every keyword clustered.
pub fn clusters_csv(c: &Clustered) -> String {
    let n = c.min_shared;
    let clustered = c.rows.iter().enumerate().flat_map(|(i, r)| {
        (0..r.keywords.len()).map(move |k| {
            vec![
                Cell::num(i + 1),
                Cell::text(&r.keywords[0]),
                Cell::text(&r.keywords[k]),
                Cell::num(r.volumes[k]),
                Cell::num(r.shared[k]),
                Cell::num(n),
            ]
        })
    });
    let rest = c.unbought.iter().map(|(k, v)| {
        vec![Cell::empty(), Cell::empty(), Cell::text(k), Cell::num(*v), Cell::empty(), Cell::num(n)]
    });
    csv::to_csv(
        &["Cluster", "Pivot keyword", "Keyword", "Volume", "Shared results with pivot", "Least shared results (N)"],
        clustered.chain(rest),
    )
}

/// The clusters table, the keywords without an outline, and a list of the clustered keywords.
#[component]
pub fn ClustersTable(
    clustered: Memo<Versioned<Clustered>>,
    /// Where the rows and the outlines came from (their stored sources).
    origin: Signal<Origin>,
) -> impl IntoView {
    let workspace = use_workspace();
    let export = move |_| {
        let text = clustered.with_untracked(|c| clusters_csv(c));
        if let Err(e) = csv::download("keyword-clusters.csv", "text/csv", &text, origin.get_untracked()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
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
                    <button type="button" class="secondary" data-testid="clusters-csv" on:click=export>
                        {format!("Export clusters CSV ({} keywords)", fmt_int(c.rows.iter().map(|r| r.keywords.len()).sum::<usize>() as i64 + c.unbought.len() as i64))}
                    </button>
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
            <p class="meta" data-testid="clusters-unbought">{format!("{} keyword{} without an outline yet (in no cluster): ", c.unbought.len(), plural(c.unbought.len()))}{c.unbought.iter().take(40).map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", ")}</p>
        }))}
    }
}

/// A cluster's row: its pivot with the members under it, size and volume.
fn row(r: &ClusterRow) -> impl IntoView {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::serp_clusters::{cluster, Serp};

    #[test]
    fn the_csv_has_one_row_per_keyword_cluster_by_cluster_then_those_without_an_outline() {
        let shoes: Vec<String> = ["a.com/1", "b.com/1", "c.com/1", "d.com/1"].map(|u| format!("https://{u}")).to_vec();
        let best: Vec<String> = ["a.com/1", "b.com/1", "c.com/1", "x.com"].map(|u| format!("https://{u}")).to_vec();
        let serps = [
            Serp { keyword: "running shoes", volume: 5000, urls: Some(&shoes) },
            Serp { keyword: "=best running shoes", volume: 900, urls: Some(&best) },
            Serp { keyword: "shoe laces", volume: 300, urls: None },
        ];
        let c = Clustered::of(&serps, &cluster(&serps, 3), 3, 0, 0.0);
        assert_eq!(
            clusters_csv(&c),
            "Cluster,Pivot keyword,Keyword,Volume,Shared results with pivot,Least shared results (N)\r\n\
             1,running shoes,running shoes,5000,4,3\r\n\
             1,running shoes,'=best running shoes,900,3,3\r\n\
             ,,shoe laces,300,,3\r\n"
        );
    }
}
