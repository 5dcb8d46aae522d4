//! The workspace as the host's [`Memory`]: what the performer of this tab's money machine
//! reads and updates of the app's memory, and History's part of a sweep (History is the
//! app's, not the machine's).

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use serpkit::machine::{Setting, StoreError};
use serpkit::Request;

use super::history;
use crate::host::journal::{Changed, JournalEntry};
use crate::host::{tabs, Memory};
use crate::model::{HistoryEntry, Settings};
use crate::store;
use crate::workspace::Workspace;

impl Memory for Workspace {
    fn settings(self) -> Result<Settings, StoreError> {
        self.shared_settings_strict()
    }

    fn write_money(self, changes: &[Setting]) -> bool {
        Workspace::write_money(self, changes)
    }

    fn journal(self) -> RwSignal<HashMap<String, JournalEntry>> {
        self.journal
    }

    fn merge_journal(self, entries: Vec<JournalEntry>) {
        Workspace::merge_journal(self, entries);
    }

    fn upsert_history(self, rows: Vec<HistoryEntry>) {
        Workspace::upsert_history(self, rows);
    }

    fn mark_saved(self, store: &'static str, id: String, ok: bool) {
        Workspace::mark_saved(self, store, id, ok);
    }

    fn save_failed(self, message: String) {
        Workspace::save_failed(self, message);
    }

    async fn stored_from(
        self,
        request: &Request,
        key: &str,
        source: &str,
        waited: bool,
    ) -> Result<HashSet<String>, StoreError> {
        let read = if waited {
            self.reload_for(request, key).await
        } else if serpkit::records::request_keys(request, source).is_some() {
            // Records another tab committed, whose message may not have arrived yet.
            self.records.read_new().await
        } else {
            Ok(())
        };
        read.map_err(|_| StoreError::Unreadable)?;
        Ok(self.stored_of(request, key, source))
    }

    /// The running calls of tabs that are gone are interrupted with what their entries were
    /// charged and may have been (as the sweep just settled them).
    async fn tabs_gone(self, me: &str, open: &HashSet<String>) {
        let gone = |tab: &str| tab != me && !open.contains(tab);
        let mut rows: Vec<HistoryEntry> = Vec::new();
        self.history.update(|h| {
            for row in h.iter_mut().filter(|r| gone(&r.tab)) {
                let (charge, possible) = self.journal.with_untracked(|j| {
                    j.values()
                        .filter(|e| e.job == row.id)
                        .fold((serpkit::Usd::ZERO, serpkit::Usd::ZERO), |(c, p), e| {
                            (c + e.charge, p + e.possible_charge)
                        })
                });
                if history::interrupt(row, charge, possible) {
                    rows.push(row.clone());
                }
            }
        });
        if rows.is_empty() {
            return;
        }
        let texts: Vec<(String, String)> = rows
            .iter()
            .filter_map(|r| Some((r.id.clone(), serde_json::to_string(r).ok()?)))
            .collect();
        if store::available() {
            if let Err(e) = store::put_all(&[(store::HISTORY, &texts[..])]).await {
                self.save_failed(format!("Could not save the history: {e}"));
            }
        }
        tabs::post(&Changed::history(rows.into_iter().map(|r| r.id).collect()).to_json());
    }
}
