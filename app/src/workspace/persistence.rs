//! Loading and saving the workspace: results, history and bought records in IndexedDB
//! ([`crate::store`]), each write in the background with a pending counter; a failed write
//! leaves a notice and marks the entry unsaved until it is written again.

use std::collections::HashMap;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::records::RecordRow;
use super::Workspace;
use crate::host::journal::JournalEntry;
use crate::host::tabs;
use crate::model::{CallResult, HistoryEntry, KeywordList, Outcome};
use crate::sort;
use crate::store;

/// History entries kept (oldest dropped first).
pub const MAX_HISTORY: usize = 500;

impl Workspace {
    /// Opens IndexedDB and loads results, history, lists, records and the purchase journal
    /// (skipping damaged entries); then settles what closed tabs left `sent` or `running`,
    /// and follows the other tabs.
    pub fn load(self) {
        tabs::hold_tab_lock();
        self.follow_settings();
        self.listen_to_other_tabs();
        spawn_local(async move {
            if let Err(e) = store::open().await {
                self.notice(format!(
                    "Browser storage is unavailable ({e}): results and lists last until you close the tab."
                ));
                self.loaded.set(true);
                return;
            }
            match store::load_all::<RecordRow>(store::RECORDS, "bought record").await {
                Ok(l) => {
                    self.records.extend(l.items.into_iter().flat_map(|r| r.0));
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read the bought records: {e}"));
                }
            }
            match store::load_all::<CallResult>(store::RESULTS, "result").await {
                Ok(l) => {
                    self.results
                        .update(|m| m.extend(l.items.into_iter().map(|r| (r.key.clone(), r))));
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read stored results: {e}"));
                }
            }
            match store::load_all::<HistoryEntry>(store::HISTORY, "history entry").await {
                Ok(l) => {
                    let mut items = l.items;
                    sort::sort_by(&mut items, |a, b| b.at.total_cmp(&a.at));
                    self.history.update(|h| {
                        h.extend(items);
                        sort::sort_by(h, |a, b| b.at.total_cmp(&a.at));
                    });
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read the history: {e}"));
                }
            }
            match store::load_all::<KeywordList>(store::LISTS, "keyword list").await {
                Ok(l) => {
                    self.lists.update(|v| {
                        for item in l.items {
                            if !v.iter().any(|x| x.name == item.name) {
                                v.push(item);
                            }
                        }
                        sort::sort_by_key(v, |a| serpkit::records::normalize_keyword(&a.name));
                    });
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read the keyword lists: {e}"));
                }
            }
            match store::load_all::<JournalEntry>(store::JOURNAL, "journal entry").await {
                Ok(l) => {
                    let newer = l
                        .items
                        .iter()
                        .filter(|e| e.v > crate::host::journal::SCHEMA)
                        .count();
                    if newer > 0 {
                        self.notice(format!("{newer} purchase journal entries were written by a newer version of the app; they are counted as they are."));
                    }
                    self.merge_journal(l.items);
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read the purchase journal: {e}"));
                }
            }
            self.sweep_closed_tabs().await;
            self.follow_other_tabs();
            self.loaded.set(true);
        });
    }

    /// Stores a result (memory and IndexedDB).
    pub fn put_result(self, result: CallResult) {
        let key = result.key.clone();
        self.persist(store::RESULTS, key.clone(), &result);
        self.results.update(|m| {
            m.insert(key, result);
        });
    }

    /// Where a paid answer is kept: under its request's cache key, except an unreadable
    /// one (not JSON) while a readable result is stored there, which stays what the page
    /// shows; the unreadable body then goes beside it (`key` + `\0unreadable`), kept all
    /// the same.
    pub(crate) fn kept_key(self, key: &str, unreadable: bool) -> String {
        let readable_there = self
            .results
            .with_untracked(|m| m.get(key).is_some_and(|r| !r.rejected));
        if unreadable && readable_there {
            format!("{key}\u{0}unreadable")
        } else {
            key.to_string()
        }
    }

    /// A stored result by cache key (reactive).
    pub fn result(self, key: &str) -> Option<CallResult> {
        self.results.with(|m| m.get(key).cloned())
    }

    /// True when a complete result bought here is stored under `key` (reactive). An
    /// imported result does not count: running its request again prices and buys it.
    pub fn has_result(self, key: &str) -> bool {
        self.results.with(|m| {
            m.get(key)
                .is_some_and(|r| r.missing.is_empty() && !r.imported)
        })
    }

    /// Adds or replaces history rows in memory (by id; newest first).
    pub(crate) fn upsert_history(self, rows: impl IntoIterator<Item = HistoryEntry>) {
        self.history.update(|h| {
            for row in rows {
                match h.iter_mut().find(|r| r.id == row.id) {
                    Some(old) => *old = row,
                    None => h.push(row),
                }
            }
            sort::sort_by(h, |a, b| b.at.total_cmp(&a.at));
        });
    }

    /// Removes a history row (a call written ahead that sent nothing).
    pub(crate) fn remove_history(self, id: &str) {
        self.history.update(|h| h.retain(|r| r.id != id));
        self.remove(store::HISTORY, id.to_string());
        tabs::post(&crate::host::journal::Changed::history(vec![id.to_string()]).to_json());
    }

    /// Adds or replaces a history row (newest first), saves it and tells the other tabs,
    /// dropping the oldest beyond [`MAX_HISTORY`].
    pub(crate) fn add_history(self, entry: HistoryEntry) {
        let id = entry.id.clone();
        self.persist_then_post(store::HISTORY, id.clone(), &entry);
        self.upsert_history([entry]);
        let mut dropped = Vec::new();
        self.history.update(|h| {
            while h.len() > MAX_HISTORY {
                if let Some(old) = h.pop() {
                    dropped.push(old.id);
                }
            }
        });
        for id in dropped {
            spawn_local(async move {
                let _ = store::delete(store::HISTORY, &id).await;
            });
        }
    }

    /// Writes one entry to IndexedDB in the background (pending counter; failures noticed).
    pub fn persist<T: serde::Serialize>(self, store_name: &'static str, key: String, value: &T) {
        if !store::available() {
            return;
        }
        let text = match serde_json::to_string(value) {
            Ok(t) => t,
            Err(e) => return self.save_failed(format!("Could not save: {e}")),
        };
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            let result = store::put_text(store_name, &key, &text).await;
            if let Err(e) = &result {
                self.save_failed(format!("Could not save to browser storage: {e}"));
            }
            self.settle(store_name, key, result.is_ok());
        });
    }

    /// [`Self::persist`], then tells the other tabs that the history row changed.
    fn persist_then_post(self, store_name: &'static str, key: String, value: &HistoryEntry) {
        let Ok(text) = serde_json::to_string(value) else {
            return;
        };
        if !store::available() {
            return;
        }
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            let result = store::put_text(store_name, &key, &text).await;
            match &result {
                Ok(()) => {
                    tabs::post(&crate::host::journal::Changed::history(vec![key.clone()]).to_json())
                }
                Err(e) => self.save_failed(format!("Could not save to browser storage: {e}")),
            }
            self.settle(store_name, key, result.is_ok());
        });
    }

    /// Deletes one entry from IndexedDB in the background (pending counter; failures noticed).
    pub(super) fn remove(self, store_name: &'static str, key: String) {
        if !store::available() {
            return;
        }
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            let result = store::delete(store_name, &key).await;
            if let Err(e) = &result {
                self.save_failed(format!("Could not delete from browser storage: {e}"));
            }
            self.settle(store_name, key, result.is_ok());
        });
    }

    /// A write or delete finished: one fewer in flight, and the entry's saved state.
    fn settle(self, store_name: &'static str, key: String, ok: bool) {
        self.mark_saved(store_name, key, ok);
        self.pending.update(|p| *p = p.saturating_sub(1));
    }

    /// Whether the entry `key` of `store_name` is stored (a paid answer the journal keeps in
    /// memory until it is: the footer counts it).
    pub(crate) fn mark_saved(self, store_name: &'static str, key: String, ok: bool) {
        let entry = (store_name, key);
        // Touched only when it changes: the footer reads it.
        if self.unsaved.with_untracked(|u| u.contains(&entry)) != ok {
            return;
        }
        self.unsaved.update(|u| {
            if ok {
                u.remove(&entry);
            } else {
                u.insert(entry);
            }
        });
    }

    /// Deletes the history and the stored results. The rows of calls still running stay
    /// (they settle later); the stored side is this tab's money machine's commit
    /// ([`Workspace::clear_stored_history`]), which can touch no reservation.
    pub fn clear_history(self) {
        self.history
            .update(|h| h.retain(|r| r.outcome == Outcome::Running));
        self.results.set(HashMap::new());
        self.records.clear();
        self.clear_stored_history();
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serpkit::Usd;

    use super::super::records::{row_text, RecordEntry};
    use crate::host::journal::JournalEntry;
    use crate::host::rows::StoredReservation;
    use crate::model::{CallResult, HistoryEntry, KeywordList, Mode, Outcome, Validation};
    use crate::store::DB_VERSION;

    fn fields(value: impl Serialize) -> String {
        match serde_json::to_value(value) {
            Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect::<Vec<_>>().join(","),
            other => panic!("not an object: {other:?}"),
        }
    }

    /// The row formats stored at [`DB_VERSION`]. An older tab reads the rows a newer one
    /// writes: a changed format without a new version made one read them as damaged and buy
    /// those records again. Changing any line here means bumping `DB_VERSION` (its
    /// `versionchange` then tells older tabs to reload) and this table's version.
    const FORMATS: (u32, [&str; 7]) = (
        5,
        [
            "history: at,charge,estimate,id,input,key,message,mode,operation,outcome,possible_charge,route,source,tab,validation",
            "results: at,body,charge,imported,key,missing,mode,operation,rejected,request,source,validation",
            "lists: keywords,name,updated",
            "records: at,imported,issues,json,key,kind",
            "records row: one record per line",
            "journal: at,charge,estimate,id,items,job,mode,operation,possible_charge,source,state,tab,v",
            "reservations: items,job,source,tab",
        ],
    );

    #[test]
    fn the_stored_formats_are_those_of_the_database_version() {
        let history = HistoryEntry {
            id: String::new(),
            operation: String::new(),
            input: String::new(),
            route: String::new(),
            key: String::new(),
            at: 0.0,
            estimate: Usd::ZERO,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            outcome: Outcome::Running,
            message: String::new(),
            validation: String::new(),
            mode: Mode::Demo,
            tab: String::new(),
            source: String::new(),
        };
        let result = CallResult {
            key: String::new(),
            operation: String::new(),
            request: String::new(),
            body: String::new(),
            validation: Validation::default(),
            charge: Usd::ZERO,
            at: 0.0,
            mode: Mode::Demo,
            missing: Vec::new(),
            imported: false,
            source: String::new(),
            rejected: false,
        };
        let list = KeywordList {
            name: String::new(),
            keywords: Vec::new(),
            updated: 0.0,
        };
        let record = RecordEntry {
            kind: String::new(),
            key: String::new(),
            json: String::new(),
            at: 0.0,
            issues: Vec::new(),
            imported: false,
        };
        let two = row_text(&[record.clone(), record.clone()]);
        let row = if two.lines().count() == 2 {
            "one record per line"
        } else {
            "changed"
        };
        let journal = JournalEntry::sent(
            String::new(),
            "",
            "",
            "",
            "",
            Mode::Demo,
            (Vec::new(), Usd::ZERO),
            0.0,
        );
        let reservation = StoredReservation {
            job: String::new(),
            tab: String::new(),
            source: String::new(),
            items: Vec::new(),
        };
        let now = [
            format!("history: {}", fields(&history)),
            format!("results: {}", fields(&result)),
            format!("lists: {}", fields(&list)),
            format!("records: {}", fields(&record)),
            format!("records row: {row}"),
            format!("journal: {}", fields(&journal)),
            format!("reservations: {}", fields(&reservation)),
        ];
        assert_eq!(
            (DB_VERSION, now.to_vec()),
            (FORMATS.0, FORMATS.1.map(String::from).to_vec()),
            "a stored row format changed: bump store::DB_VERSION and FORMATS together"
        );
    }
}
