//! Keyword lists of the workspace (kept in name order, saved in IndexedDB).

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
        let mut saved = None;
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
            for k in keywords {
                if !list
                    .keywords
                    .iter()
                    .any(|x| serpkit::records::same_keyword(x, k))
                {
                    list.keywords.push(k.clone());
                    added += 1;
                }
            }
            list.updated = now();
            saved = Some(list.clone());
            sort::sort_by_key(lists, |a| serpkit::records::normalize_keyword(&a.name));
        });
        if let Some(l) = saved {
            self.persist(store::LISTS, l.name.clone(), &l);
        }
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

    /// Deletes a list.
    pub fn delete_list(self, name: &str) {
        self.remove(store::LISTS, name.to_string());
        self.lists.update(|l| l.retain(|x| x.name != name));
    }
}
