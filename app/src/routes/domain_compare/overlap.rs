//! The shared ranked keywords of compared domains (`/domain/compare`): per keyword, each
//! domain's best rank, pairwise counts, and the table's columns.

use std::collections::HashMap;

use crate::components::columns::{Column, SortCache, SortKey};
use crate::components::domain::nav::MAX_COMPARE;
use crate::components::ranked::keywords::RankedKeywordsData;
use crate::components::versioned::Versioned;

/// Per keyword: (keyword as first seen, highest volume, best rank per domain).
type Seen = (String, i64, [i64; MAX_COMPARE]);

/// Keywords ranked by several of the compared domains.
#[derive(Default)]
pub struct Overlap {
    /// Keyword (as first seen).
    pub keyword: Vec<String>,
    /// Lower-cased keyword.
    pub lower: Vec<String>,
    /// Highest search volume seen.
    pub volume: Vec<i64>,
    /// Best rank per domain (`i64::MAX` when not ranked).
    pub ranks: Vec<[i64; MAX_COMPARE]>,
    /// Number of domains ranking.
    pub count: Vec<i64>,
    /// Keywords per domain (distinct).
    pub per_domain: [usize; MAX_COMPARE],
    /// Pairwise shared keyword counts.
    pub pairs: [[usize; MAX_COMPARE]; MAX_COMPARE],
    /// Sort orders of the table's columns.
    pub orders: SortCache,
}

impl Overlap {
    /// From each domain's ranked keywords (`None` for a slot not loaded).
    pub fn build(data: &[Option<Versioned<RankedKeywordsData>>]) -> Overlap {
        let mut map: HashMap<String, Seen> = HashMap::new();
        let mut o = Overlap {
            orders: SortCache::new(OVERLAP_COLUMNS.len()),
            ..Overlap::default()
        };
        for (slot, d) in data.iter().enumerate().take(MAX_COMPARE) {
            let Some(d) = d else { continue };
            for i in 0..d.len() {
                let e = map
                    .entry(d.lower[i].clone())
                    .or_insert_with(|| (d.keyword[i].clone(), 0, [i64::MAX; MAX_COMPARE]));
                e.1 = e.1.max(d.volume[i]);
                e.2[slot] = e.2[slot].min(d.rank[i].max(0));
            }
        }
        let mut entries: Vec<(String, Seen)> = map.into_iter().collect();
        crate::sort::sort_by(&mut entries, |a, b| {
            b.1 .1.cmp(&a.1 .1).then_with(|| a.0.cmp(&b.0))
        });
        for (lower, (kw, vol, ranks)) in entries {
            let present: Vec<usize> = (0..MAX_COMPARE).filter(|&s| ranks[s] != i64::MAX).collect();
            for &a in &present {
                o.per_domain[a] += 1;
                for &b in &present {
                    o.pairs[a][b] += 1;
                }
            }
            if present.len() >= 2 {
                o.keyword.push(kw);
                o.lower.push(lower);
                o.volume.push(vol);
                o.ranks.push(ranks);
                o.count.push(present.len() as i64);
            }
        }
        o
    }
}

/// Columns of the shared keywords table.
pub const OVERLAP_COLUMNS: [Column<Overlap>; 7] = [
    Column::keyword(
        "minmax(12rem, 2fr)",
        |data, i| SortKey::text(&data.lower[i]),
        None,
    ),
    Column::volume(|data, i| SortKey::int(data.volume[i]), None),
    Column::new(
        "count",
        "Domains",
        true,
        "5.5rem",
        |data, i| SortKey::int(data.count[i]),
        None,
    ),
    Column::new(
        "a",
        "Rank A",
        true,
        "5.5rem",
        |data, i| rank_key(data.ranks[i][0]),
        None,
    ),
    Column::new(
        "b",
        "Rank B",
        true,
        "5.5rem",
        |data, i| rank_key(data.ranks[i][1]),
        None,
    ),
    Column::new(
        "c",
        "Rank C",
        true,
        "5.5rem",
        |data, i| rank_key(data.ranks[i][2]),
        None,
    ),
    Column::new(
        "d",
        "Rank D",
        true,
        "5.5rem",
        |data, i| rank_key(data.ranks[i][3]),
        None,
    ),
];

/// A domain's rank as a sort key: not ranked (`i64::MAX`) is a missing value.
fn rank_key(rank: i64) -> SortKey<'static> {
    if rank == i64::MAX {
        SortKey::Missing
    } else {
        SortKey::int(rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serpkit::ops::ranked_keywords_domain::RankedKeyword;

    #[test]
    fn overlap() {
        use crate::research::ctr::Curve;
        let ranked_keywords = |k: &str, r: i64| RankedKeyword {
            keyword: k.into(),
            rank: r,
            search_volume: 10,
            ..Default::default()
        };
        let a = Versioned::new(RankedKeywordsData::from_records(vec![
            ranked_keywords("x", 3),
            ranked_keywords("y", 1),
            ranked_keywords("X", 2),
        ], &Curve::default()));
        let b = Versioned::new(RankedKeywordsData::from_records(vec![
            ranked_keywords("x", 5),
            ranked_keywords("z", 1),
        ], &Curve::default()));
        let o = Overlap::build(&[Some(a), Some(b), None, None]);
        assert_eq!(o.keyword, vec!["x".to_string()]);
        assert_eq!(o.ranks[0][..2], [2, 5]);
        assert_eq!(o.per_domain[..2], [2, 2]);
        assert_eq!(o.pairs[0][1], 1);
    }
}
