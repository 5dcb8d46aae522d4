//! Keyword clusters by shared search results (the anchors' SERP-similarity clustering: Ahrefs'
//! "parent topic", Semrush's Keyword Strategy Builder): two keywords belong together when
//! their top-10 results (the `outline/seo` operation's pages) share at least N URLs, so one
//! page can rank for both. Pure: the pages take the outlines already bought; what is still to
//! buy is priced first by [`plan`].
//!
//! Rules (our decisions; [`RULE`] states them):
//! - URLs compare as written, without a trailing slash, the scheme and `www.` (the same page
//!   reached two ways is one result); each keyword counts a URL once.
//! - **Pivot clustering** (Keyword Insights' and SE Ranking's "hard" method, deterministic):
//!   keywords by volume, highest first (ties by keyword); each keyword not yet in a cluster
//!   starts one and takes every later unclustered keyword sharing at least `min_shared` URLs
//!   *with it*. Decided: with the pivot, not with every member (complete linkage splits
//!   clusters by the order keywords arrive; single linkage chains unrelated keywords through
//!   one shared page).
//! - A keyword without an outline is in no cluster (listed apart, with the price of its
//!   outline); a keyword whose outline has no page is a cluster of its own.

use std::collections::{HashMap, HashSet};

use serpkit::ops::outline_seo;
use serpkit::Usd;

/// The default least number of shared result URLs (Keyword Insights' and SE Ranking's
/// default, of 10 results).
pub const DEFAULT_MIN_SHARED: usize = 3;

/// The rule as the page states it.
pub const RULE: &str = "Clusters by shared search results: each keyword's top-10 result URLs \
(its SEO outline; scheme, www. and a trailing slash ignored). Keywords by volume, highest \
first: each keyword not yet in a cluster starts one and takes every other unclustered keyword \
whose results share at least N URLs with its own (one page can rank for both). Keywords without \
an outline bought are in no cluster.";

/// A URL as results compare it: no scheme, no `www.`, no trailing slash, host lower-cased.
pub fn result_key(url: &str) -> String {
    let rest = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .trim_end_matches('/');
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    match rest.split_once('/') {
        Some((host, path)) => format!("{}/{path}", host.to_lowercase()),
        None => rest.to_lowercase(),
    }
}

/// One keyword to cluster: its volume and its results' URLs (`None`: no outline bought).
#[derive(Clone, Debug, PartialEq)]
pub struct Serp<'a> {
    /// The keyword.
    pub keyword: &'a str,
    /// Its search volume (the pivot order).
    pub volume: i64,
    /// Its top results' URLs, when its outline is bought.
    pub urls: Option<&'a [String]>,
}

/// The clusters: indices into the input, each cluster pivot first, clusters by their summed
/// volume (highest first); and the keywords without an outline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clusters {
    /// Each cluster's keywords (indices), the pivot first, then by volume.
    pub clusters: Vec<Vec<usize>>,
    /// Keywords with no outline bought (indices, in input order).
    pub unbought: Vec<usize>,
}

/// What clustering `serps` costs before it is run: the keywords whose outline is not bought
/// yet (each bought once, at `outline/seo`'s price) and their total. Outlines already bought
/// are reused at no charge.
pub fn plan<'a>(serps: &[Serp<'a>]) -> (Vec<&'a str>, Usd) {
    let mut seen = HashSet::new();
    let to_buy: Vec<&str> = serps
        .iter()
        .filter(|s| s.urls.is_none())
        .map(|s| s.keyword)
        .filter(|k| seen.insert(serpkit::records::normalize_keyword(k)))
        .collect();
    let price = outline_seo::PRICE.usd.times(to_buy.len() as u64);
    (to_buy, price)
}

/// Clusters `serps` by at least `min_shared` shared result URLs (see the module rules).
pub fn cluster(serps: &[Serp], min_shared: usize) -> Clusters {
    let min_shared = min_shared.max(1);
    let keys: Vec<Option<HashSet<String>>> = serps
        .iter()
        .map(|s| s.urls.map(|u| u.iter().map(|u| result_key(u)).collect()))
        .collect();
    // Which keywords each URL is a result of: candidates share at least one.
    let mut by_url: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        for u in k.iter().flatten() {
            by_url.entry(u.as_str()).or_default().push(i);
        }
    }
    let mut order: Vec<usize> = (0..serps.len()).filter(|&i| keys[i].is_some()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| {
        serps[b]
            .volume
            .cmp(&serps[a].volume)
            .then_with(|| serps[a].keyword.cmp(serps[b].keyword))
    });
    let rank: HashMap<usize, usize> = order.iter().enumerate().map(|(r, &i)| (i, r)).collect();
    let mut taken = vec![false; serps.len()];
    let mut out = Clusters {
        unbought: (0..serps.len()).filter(|&i| keys[i].is_none()).collect(),
        ..Clusters::default()
    };
    let mut shared: HashMap<usize, usize> = HashMap::new();
    for &pivot in &order {
        if taken[pivot] {
            continue;
        }
        taken[pivot] = true;
        shared.clear();
        for u in keys[pivot].iter().flatten() {
            for &j in &by_url[u.as_str()] {
                if !taken[j] {
                    *shared.entry(j).or_default() += 1;
                }
            }
        }
        let mut members: Vec<usize> = shared
            .iter()
            .filter(|(_, &n)| n >= min_shared)
            .map(|(&j, _)| j)
            .collect();
        members.sort_unstable_by_key(|j| rank[j]);
        for &j in &members {
            taken[j] = true;
        }
        let mut cluster = vec![pivot];
        cluster.extend(members);
        out.clusters.push(cluster);
    }
    let volume = |c: &Vec<usize>| c.iter().map(|&i| serps[i].volume.max(0)).sum::<i64>();
    crate::sort::sort_by(&mut out.clusters, |a, b| volume(b).cmp(&volume(a)));
    out
}

/// How many results two keywords share, as [`cluster`] counts them (each URL once, compared
/// by [`result_key`]).
pub fn shared_results(a: &[String], b: &[String]) -> usize {
    let a: HashSet<String> = a.iter().map(|u| result_key(u)).collect();
    let b: HashSet<String> = b.iter().map(|u| result_key(u)).collect();
    a.intersection(&b).count()
}

/// One cluster as the page, its CSV and the report show it: its keywords (the pivot first)
/// with their volumes and the results each shares with the pivot (the pivot: its own
/// results, each counted once).
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterRow {
    /// Its keywords, the pivot first.
    pub keywords: Vec<String>,
    /// Their volumes.
    pub volumes: Vec<i64>,
    /// The results each shares with the pivot.
    pub shared: Vec<usize>,
    /// Their summed volume (missing volumes as 0).
    pub volume: i64,
}

/// A clustering ready to show and export.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clustered {
    /// The clusters, by summed volume.
    pub rows: Vec<ClusterRow>,
    /// Keywords without an outline bought, with their volumes (in no cluster).
    pub unbought: Vec<(String, i64)>,
    /// Outlines stored that could not be read (clustered as keywords without results).
    pub unreadable: usize,
    /// The least number of shared results it was clustered with (N).
    pub min_shared: usize,
    /// How long clustering took (ms).
    pub millis: f64,
}

impl Clustered {
    /// The clusters `c` of `serps`, found with `min_shared`.
    pub fn of(
        serps: &[Serp],
        c: &Clusters,
        min_shared: usize,
        unreadable: usize,
        millis: f64,
    ) -> Clustered {
        let urls = |i: usize| serps[i].urls.unwrap_or_default();
        Clustered {
            rows: c
                .clusters
                .iter()
                .map(|members| ClusterRow {
                    keywords: members
                        .iter()
                        .map(|&i| serps[i].keyword.to_string())
                        .collect(),
                    volumes: members.iter().map(|&i| serps[i].volume).collect(),
                    shared: members
                        .iter()
                        .map(|&i| shared_results(urls(members[0]), urls(i)))
                        .collect(),
                    volume: members.iter().map(|&i| serps[i].volume.max(0)).sum(),
                })
                .collect(),
            unbought: c
                .unbought
                .iter()
                .map(|&i| (serps[i].keyword.to_string(), serps[i].volume))
                .collect(),
            unreadable,
            min_shared: min_shared.max(1),
            millis,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|u| format!("https://{u}")).collect()
    }

    #[test]
    fn keywords_sharing_three_results_with_the_pivot_cluster_together() {
        let shoes = urls(&["a.com/1", "b.com/1", "c.com/1", "d.com/1", "e.com/1"]);
        // Shares a, b, c with "running shoes": same cluster.
        let best = urls(&["a.com/1", "b.com/1", "www.c.com/1/", "x.com", "y.com"]);
        // Shares only c and d with "running shoes" but a lot with "trail shoes".
        let trail = urls(&["c.com/1", "d.com/1", "t.com/1", "t.com/2", "t.com/3"]);
        let trail2 = urls(&["t.com/1", "t.com/2", "t.com/3", "z.com"]);
        let serps = [
            Serp {
                keyword: "best running shoes",
                volume: 900,
                urls: Some(&best),
            },
            Serp {
                keyword: "running shoes",
                volume: 5000,
                urls: Some(&shoes),
            },
            Serp {
                keyword: "trail shoes",
                volume: 700,
                urls: Some(&trail),
            },
            Serp {
                keyword: "trail shoes for women",
                volume: 100,
                urls: Some(&trail2),
            },
            Serp {
                keyword: "shoe laces",
                volume: 300,
                urls: None,
            },
        ];
        let c = cluster(&serps, DEFAULT_MIN_SHARED);
        assert_eq!(c.clusters, vec![vec![1, 0], vec![2, 3]]);
        assert_eq!(c.unbought, vec![4]);
        // At 2 shared, "trail shoes" joins the pivot (c, d), and "trail shoes for women" is
        // left alone: it shares with trail shoes, not with the pivot.
        let loose = cluster(&serps, 2);
        assert_eq!(loose.clusters, vec![vec![1, 0, 2], vec![3]]);
        assert!(RULE.contains("at least N URLs"));
    }

    #[test]
    fn clustering_50_keywords_half_bought_prices_only_the_other_half() {
        // The case: 50 keywords whose outlines were half bought.
        let bought = urls(&["a.com"]);
        let names: Vec<String> = (0..50).map(|i| format!("keyword {i}")).collect();
        let serps: Vec<Serp> = names
            .iter()
            .enumerate()
            .map(|(i, k)| Serp {
                keyword: k,
                volume: 10,
                urls: (i % 2 == 0).then_some(&bought[..]),
            })
            .collect();
        let (to_buy, price) = plan(&serps);
        assert_eq!(to_buy.len(), 25);
        assert_eq!(to_buy[0], "keyword 1");
        assert_eq!(price, outline_seo::PRICE.usd.times(25));
        // A keyword asked twice (case, spaces) is bought once.
        let twice = [
            Serp {
                keyword: "Shoes",
                volume: 1,
                urls: None,
            },
            Serp {
                keyword: " shoes ",
                volume: 1,
                urls: None,
            },
        ];
        assert_eq!(plan(&twice).0, ["Shoes"]);
    }

    #[test]
    fn result_urls_compare_without_scheme_www_and_trailing_slash() {
        assert_eq!(result_key("https://www.A.com/Path/"), "a.com/Path");
        assert_eq!(result_key("http://a.com"), "a.com");
        assert_eq!(result_key("a.com/x"), "a.com/x");
        // A keyword without results is a cluster of its own; nothing in, nothing out.
        let empty: Vec<String> = Vec::new();
        let c = cluster(
            &[Serp {
                keyword: "k",
                volume: 1,
                urls: Some(&empty),
            }],
            3,
        );
        assert_eq!(c.clusters, vec![vec![0]]);
        assert_eq!(cluster(&[], 3), Clusters::default());
    }

    #[test]
    fn a_clustering_as_shown_names_what_each_keyword_shares_with_its_pivot() {
        let shoes = urls(&["a.com/1", "b.com/1", "c.com/1", "d.com/1", "a.com/1/"]);
        let best = urls(&["a.com/1", "www.b.com/1", "c.com/1", "x.com"]);
        let serps = [
            Serp {
                keyword: "running shoes",
                volume: 5000,
                urls: Some(&shoes),
            },
            Serp {
                keyword: "best running shoes",
                volume: 900,
                urls: Some(&best),
            },
            Serp {
                keyword: "shoe laces",
                volume: 300,
                urls: None,
            },
        ];
        let c = Clustered::of(&serps, &cluster(&serps, 0), 0, 0, 1.0);
        assert_eq!(
            c.min_shared, 1,
            "N is at least 1, as the clustering reads it"
        );
        assert_eq!(
            c.rows,
            [ClusterRow {
                keywords: vec!["running shoes".into(), "best running shoes".into()],
                volumes: vec![5000, 900],
                // The pivot's own results, each once (a.com/1 twice); then what is shared.
                shared: vec![4, 3],
                volume: 5900,
            }]
        );
        assert_eq!(c.unbought, [("shoe laces".to_string(), 300)]);
        assert_eq!(shared_results(&shoes, &[]), 0);
    }
}
