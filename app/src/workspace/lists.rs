//! Keyword lists of the workspace (kept in name order, saved in IndexedDB).

use std::collections::HashSet;

use leptos::prelude::*;

use super::{now, Workspace};
use crate::model::KeywordList;
use crate::sort;
use crate::store;

impl Workspace {
    /// Adds keywords to the list `name` (created if new); returns how many were new.
    pub fn add_to_list(self, name: &str, keywords: &[String]) -> usize {
        let name = name.trim().to_string();
        if name.is_empty() {
            return 0;
        }
        let mut added = 0;
        self.lists.update(|lists| {
            let idx = match lists.iter().position(|l| l.name == name) {
                Some(i) => i,
                None => {
                    lists.push(KeywordList {
                        name: name.clone(),
                        keywords: Vec::new(),
                        updated: now(),
                    });
                    lists.len() - 1
                }
            };
            let list = &mut lists[idx];
            added = merge_keywords(&mut list.keywords, keywords);
            list.updated = now();
            // Saved from here: a copy of a list of 50,000 to save after the update took longer
            // than the merge.
            self.persist(store::LISTS, list.name.clone(), &*list);
            sort::sort_by_key(lists, |a| serpkit::records::normalize_keyword(&a.name));
        });
        added
    }

    /// Replaces a list's keywords.
    pub fn set_list(self, list: KeywordList) {
        self.persist(store::LISTS, list.name.clone(), &list);
        self.lists.update(
            |lists| match lists.iter_mut().find(|l| l.name == list.name) {
                Some(l) => *l = list,
                None => lists.push(list),
            },
        );
    }

    /// Removes one keyword (exactly as written in the list) from the list `name`.
    pub fn remove_from_list(self, name: &str, keyword: &str) {
        let Some(mut list) = self
            .lists
            .with_untracked(|lists| lists.iter().find(|l| l.name == name).cloned())
        else {
            return;
        };
        list.keywords.retain(|k| k != keyword);
        list.updated = now();
        self.set_list(list);
    }

    /// Deletes a list.
    pub fn delete_list(self, name: &str) {
        self.remove(store::LISTS, name.to_string());
        self.lists.update(|l| l.retain(|x| x.name != name));
    }
}

/// Appends to `list` the keywords of `new` it lacks (the same keyword: case and white space
/// folded, the core's `normalize_keyword`), in order, the first spelling kept; returns how
/// many. Linear: one set of normalised keys, not a scan of the list per keyword (a scan made
/// adding 50,000 keywords to a list of 50,000 freeze the tab).
pub fn merge_keywords(list: &mut Vec<String>, new: &[String]) -> usize {
    // Sized once: growing a set of 100,000 keys rehashes them again and again.
    let mut seen = HashSet::with_capacity(list.len() + new.len());
    for k in list.iter() {
        seen.insert(serpkit::records::normalize_keyword(k));
    }
    let before = list.len();
    for k in new {
        if seen.insert(serpkit::records::normalize_keyword(k)) {
            list.push(k.clone());
        }
    }
    list.len() - before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_the_first_spelling_and_order() {
        let mut list = vec!["Running Shoes".to_string(), "boots".to_string()];
        let new: Vec<String> = ["running  shoes", "Hats", "BOOTS", "hats", "socks"]
            .map(String::from)
            .to_vec();
        assert_eq!(merge_keywords(&mut list, &new), 2);
        assert_eq!(list, ["Running Shoes", "boots", "Hats", "socks"]);
        assert_eq!(merge_keywords(&mut list, &new), 0);
    }

    #[test]
    fn adding_50000_keywords_to_a_list_of_50000_is_linear() {
        let mut list: Vec<String> = (0..50_000).map(|i| format!("keyword {i}")).collect();
        // Half already in the list (in another case), half new.
        let new: Vec<String> = (25_000..75_000).map(|i| format!("Keyword {i}")).collect();
        let t0 = std::time::Instant::now();
        assert_eq!(merge_keywords(&mut list, &new), 25_000);
        // A scan per keyword is about 2.5 billion comparisons here (minutes in a debug build); the
        // set takes milliseconds. The bound leaves room for a slow, busy machine.
        let took = t0.elapsed();
        assert!(took.as_secs_f64() < 2.0, "took {took:?}");
        assert_eq!(list.len(), 75_000);
        assert_eq!(list[50_000], "Keyword 50000");
    }
}
