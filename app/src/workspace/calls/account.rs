//! The account of the browser profile, read from the journal: spent, possibly charged and in
//! flight over the budget's period, for every tab. Also what a tab does on start (turn the
//! requests of closed tabs into possibly charged, their running jobs into interrupted ones)
//! and when another tab tells it what changed.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::client::ValidationMode;

use super::journal::{Changed, JournalEntry, Period, Totals};
use super::tabs;
use crate::model::{CallResult, HistoryEntry, Mode};
use crate::store;
use crate::workspace::records::RecordEntry;
use crate::workspace::{now, Workspace};

impl Workspace {
    /// The validation mode of the settings.
    pub fn validation_mode(self) -> ValidationMode {
        self.settings
            .with_untracked(|s| s.validation.parse().unwrap_or(ValidationMode::Warn))
    }

    /// The budget's period (Settings).
    pub fn budget_period(self) -> Period {
        self.settings
            .with(|s| Period::from_name(&s.budget_period).unwrap_or_default())
    }

    /// When the budget's current period began (ms since the epoch).
    pub fn period_start(self) -> f64 {
        let reset = self.settings.with_untracked(|s| s.budget_reset_at);
        self.budget_period().start(now(), reset)
    }

    /// Adds or replaces journal entries (memory only).
    pub(crate) fn merge_journal(self, entries: impl IntoIterator<Item = JournalEntry>) {
        self.journal.update(|j| {
            for e in entries {
                j.insert(e.id.clone(), e);
            }
        });
    }

    /// The account of `mode` since `since`: demo money and live money are counted apart.
    pub fn totals(self, mode: Mode, since: f64) -> Totals {
        self.journal
            .with_untracked(|j| Totals::of(j.values().filter(|e| e.mode == mode), since))
    }

    /// Updates the meter from the journal (every tab's entries of this mode and period) and
    /// the demo ledger.
    pub(crate) fn refresh_spend(self) {
        let t = self.totals(self.mode(), self.period_start());
        self.spent.set(t.spent);
        self.possibly_charged.set(t.possibly_charged);
        if let Some(ledger) = self.local.try_with_value(|i| i.demo.ledger()) {
            self.ledger.set(ledger);
        }
    }

    /// Starts the meter over (Settings' reset): entries before now no longer count.
    pub fn reset_meter(self) {
        let mut s = self.settings.get_untracked();
        s.budget_reset_at = now();
        self.set_settings(s);
        self.refresh_spend();
    }

    /// On start (under the journal lock): requests still `sent` by tabs that are gone become
    /// possibly charged, and their running jobs interrupted, with what they bought and may
    /// have been charged; both are written back.
    pub(crate) async fn sweep_closed_tabs(self) {
        let open = tabs::open_tabs().await;
        let me = tabs::tab_id();
        let gone = |tab: &str| tab != me && open.as_ref().is_none_or(|o| !o.contains(tab));
        let mut orphans: Vec<JournalEntry> = Vec::new();
        self.journal.update(|j| {
            for e in j.values_mut() {
                if gone(&e.tab) && e.orphan() {
                    orphans.push(e.clone());
                }
            }
        });
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
                if !super::history::interrupt(row, charge, possible) {
                    continue;
                }
                rows.push(row.clone());
            }
        });
        if orphans.is_empty() && rows.is_empty() {
            return;
        }
        let journal: Vec<(String, String)> = orphans
            .iter()
            .filter_map(|e| Some((e.id.clone(), serde_json::to_string(e).ok()?)))
            .collect();
        let history: Vec<(String, String)> = rows
            .iter()
            .filter_map(|r| Some((r.id.clone(), serde_json::to_string(r).ok()?)))
            .collect();
        if store::available() {
            if let Err(e) = store::put_all(&[
                (store::JOURNAL, &journal[..]),
                (store::HISTORY, &history[..]),
            ])
            .await
            {
                self.save_failed(format!("Could not save the purchase journal: {e}"));
            }
        }
        tabs::post(
            &Changed {
                journal: orphans.into_iter().map(|e| e.id).collect(),
                history: rows.into_iter().map(|r| r.id).collect(),
                ..Changed::default()
            }
            .to_json(),
        );
    }

    /// Listens to the other tabs: re-reads what they committed (records, results, history
    /// rows, journal entries), so prices, results and the meter follow without a reload.
    pub(crate) fn follow_other_tabs(self) {
        // A tab that closes mid-call tells nobody: look for its requests now and then.
        let sweep = move || {
            let me = tabs::tab_id();
            let others_sending = self.journal.with_untracked(|j| {
                j.values()
                    .any(|e| e.tab != me && e.state() == serpkit::client::EntryState::Sent)
            });
            if others_sending {
                spawn_local(async move {
                    tabs::with_lock(tabs::JOURNAL_LOCK, self.sweep_closed_tabs()).await;
                });
            }
        };
        let _ = set_interval_with_handle(sweep, std::time::Duration::from_secs(5));
        tabs::listen(move |text| {
            let Some(changed) = Changed::from_json(&text) else {
                return;
            };
            if !store::available() {
                return;
            }
            spawn_local(async move {
                if let Ok(entries) =
                    store::get_many::<RecordEntry>(store::RECORDS, &changed.records).await
                {
                    self.records.extend(entries);
                }
                if let Ok(results) =
                    store::get_many::<CallResult>(store::RESULTS, &changed.results).await
                {
                    self.results.update(|m| {
                        for r in results {
                            m.insert(r.key.clone(), r);
                        }
                    });
                }
                if let Ok(rows) =
                    store::get_many::<HistoryEntry>(store::HISTORY, &changed.history).await
                {
                    self.upsert_history(rows);
                }
                if let Ok(entries) =
                    store::get_many::<JournalEntry>(store::JOURNAL, &changed.journal).await
                {
                    self.merge_journal(entries);
                }
            });
        });
    }
}
