//! One stable sort for the whole app.
//!
//! Every `slice::sort_by` call with its own element type or closure instantiates the standard
//! library's driftsort anew: 132 copies, 73 KB of the app's wasm, measured with twiggy.
//! [`order`] sorts positions through a `&dyn Fn`, so the library's sort exists once; the
//! per-type part left is a small permutation. Both tables sort through it too
//! (`components::columns::SortOrder`: each row's key read once, then an index sorted).

use std::cmp::Ordering;

/// The stable ascending order of positions `0..len` under `cmp` (ties keep position order).
pub fn order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<u32> {
    let mut p: Vec<u32> = (0..len as u32).collect();
    p.sort_by(|&a, &b| cmp(a as usize, b as usize));
    p
}

/// Sorts `v` stably by `cmp` (what `v.sort_by(cmp)` does).
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let p = order(v.len(), &|a, b| cmp(&v[a], &v[b]));
    permute(v, &p);
}

/// Sorts `v` stably by a key computed once per element, compared by `cmp` (what
/// `v.sort_by_cached_key(key)` does, with a comparison of its own).
pub fn sort_by_cached<T, K>(
    v: &mut Vec<T>,
    key: impl Fn(&T) -> K,
    cmp: impl Fn(&K, &K) -> Ordering,
) {
    if v.len() < 2 {
        return;
    }
    let keys: Vec<K> = v.iter().map(key).collect();
    let p = order(keys.len(), &|a, b| cmp(&keys[a], &keys[b]));
    permute(v, &p);
}

/// Sorts `v` stably by a key computed once per element (what `v.sort_by_cached_key(key)`
/// does).
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by_cached(v, key, K::cmp)
}

/// Reorders `v` so that position `k` holds the element that was at `p[k]` (`p` a permutation).
fn permute<T>(v: &mut Vec<T>, p: &[u32]) {
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(p.iter().filter_map(|&i| slots[i as usize].take()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_complete() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_key(&mut v, |x| x.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        sort_by(&mut v, |a, b| b.0.cmp(&a.0));
        assert_eq!(v, vec![(3, 'a'), (3, 'c'), (2, 'd'), (1, 'b'), (1, 'e')]);
        sort_by_cached(&mut v, |x| x.1, |a, b| b.cmp(a));
        assert_eq!(v, vec![(1, 'e'), (2, 'd'), (3, 'c'), (1, 'b'), (3, 'a')]);
        // Stable: equal keys keep the order the previous sort left.
        sort_by_key(&mut v, |x| std::cmp::Reverse(x.0));
        assert_eq!(v, vec![(3, 'c'), (3, 'a'), (2, 'd'), (1, 'e'), (1, 'b')]);
        let mut e: Vec<String> = Vec::new();
        sort_by(&mut e, |a, b| a.cmp(b));
        assert!(e.is_empty());
        assert_eq!(order(3, &|a, b| b.cmp(&a)), vec![2, 1, 0]);
    }
}
