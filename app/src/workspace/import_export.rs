//! Workspace files: export (never the key) and import. An import only adds data: it never
//! changes the settings that decide where the key goes (mode, base URL, budget,
//! validation); the file's settings are kept aside for the user to apply in Settings.
//! Imported results are marked imported (not bought here), and imported history rows are
//! kept only when their route is one of this app's own pages.

use leptos::prelude::*;

use super::{now, Workspace};
use crate::model::{plural, CallResult, HistoryEntry, KeywordList, Settings};
use crate::paths::app_route;
use crate::sort;
use crate::store;

impl Workspace {
    /// The whole workspace as JSON: settings (never the key), lists, history, results.
    pub fn export_json(self) -> String {
        let mut results: Vec<CallResult> = self
            .results
            .with_untracked(|m| m.values().cloned().collect());
        sort::sort_by(&mut results, |a, b| a.at.total_cmp(&b.at));
        let doc = serde_json::json!({
            "format": "serpkit-workspace",
            "version": 1,
            "exported_at": now(),
            "settings": self.settings.get_untracked(),
            "lists": self.lists.get_untracked(),
            "history": self.history.get_untracked(),
            "results": results,
        });
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }

    /// Merges an exported workspace; damaged entries are skipped. Returns a summary.
    pub fn import_json(self, text: &str) -> Result<String, String> {
        let doc: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not a JSON file: {e}"))?;
        if doc.get("format").and_then(|f| f.as_str()) != Some("serpkit-workspace") {
            return Err("not a serpkit workspace export (format field missing)".into());
        }
        let mut skipped = 0usize;
        let mut take = |field: &str| -> Vec<serde_json::Value> {
            match doc.get(field) {
                Some(serde_json::Value::Array(a)) => a.clone(),
                Some(_) => {
                    skipped += 1;
                    Vec::new()
                }
                None => Vec::new(),
            }
        };
        let (lists, history, results) = (take("lists"), take("history"), take("results"));
        let (mut nl, mut nh, mut nr) = (0, 0, 0);
        for v in lists {
            match serde_json::from_value::<KeywordList>(v) {
                Ok(l) if !l.name.trim().is_empty() => {
                    self.add_to_list(&l.name, &l.keywords);
                    nl += 1;
                }
                _ => skipped += 1,
            }
        }
        let mut unsafe_routes = 0usize;
        for v in results {
            match serde_json::from_value::<CallResult>(v) {
                Ok(mut r) => {
                    // A result bought here is never replaced by a copy from a file.
                    let bought_here = self
                        .results
                        .with_untracked(|m| m.get(&r.key).is_some_and(|old| !old.imported));
                    if !bought_here {
                        r.imported = true;
                        self.put_result(r);
                        nr += 1;
                    }
                }
                Err(_) => skipped += 1,
            }
        }
        let known: Vec<String> = self
            .history
            .with_untracked(|h| h.iter().map(|e| e.id.clone()).collect());
        let mut new_entries = Vec::new();
        for v in history {
            match serde_json::from_value::<HistoryEntry>(v) {
                Ok(e) if !app_route(&e.route) => unsafe_routes += 1,
                Ok(e) if !known.contains(&e.id) => {
                    self.persist(store::HISTORY, e.id.clone(), &e);
                    new_entries.push(e);
                    nh += 1;
                }
                Ok(_) => {}
                Err(_) => skipped += 1,
            }
        }
        self.history.update(|h| {
            h.extend(new_entries);
            sort::sort_by(h, |a, b| b.at.total_cmp(&a.at));
        });
        // Kept aside, never applied here: see the module doc.
        let file_settings = doc
            .get("settings")
            .and_then(|s| serde_json::from_value::<Settings>(s.clone()).ok());
        let differs = file_settings.as_ref().is_some_and(|f| {
            self.settings.with_untracked(|s| {
                let mut f = f.clone();
                f.remember_key = s.remember_key;
                f.insecure_ok = s.insecure_ok.clone();
                f != *s
            })
        });
        self.imported_settings
            .set(file_settings.filter(|_| differs));
        let mut msg = format!(
            "Imported {nl} list{}, {nh} history entr{}, {nr} result{}.",
            plural(nl),
            if nh == 1 { "y" } else { "ies" },
            plural(nr)
        );
        if skipped > 0 {
            msg.push_str(&format!(
                " Skipped {skipped} damaged entr{}.",
                if skipped == 1 { "y" } else { "ies" }
            ));
        }
        if unsafe_routes > 0 {
            msg.push_str(&format!(
                " Skipped {unsafe_routes} history entr{} whose link is not a page of this app.",
                if unsafe_routes == 1 { "y" } else { "ies" }
            ));
        }
        if differs {
            msg.push_str(" The file's settings were not applied: see them in Settings.");
        }
        Ok(msg)
    }

    /// Applies the settings of the last imported file (the user asked, in Settings); the
    /// "remember the key" choice stays as it is.
    pub fn apply_imported_settings(self) {
        if let Some(s) = self.imported_settings.get_untracked() {
            let remember = self.settings.with_untracked(|x| x.remember_key);
            // A confirmation to send the key over plain http is the user's own, never a file's.
            let insecure_ok = self.settings.with_untracked(|x| x.insecure_ok.clone());
            self.set_settings(Settings {
                remember_key: remember,
                insecure_ok,
                ..s
            });
            self.imported_settings.set(None);
        }
    }
}
