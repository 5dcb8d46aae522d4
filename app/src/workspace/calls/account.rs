//! The account of the browser profile, read from the journal: spent, possibly charged and in
//! flight over the budget's period, for every tab; and when to look at the other tabs
//! ([`follow`] does the work).

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::client::ValidationMode;
use serpkit::machine::{Event, Setting};

use super::follow;
use crate::host::journal::{period_start, totals_of, JournalEntry, Period, Totals};
use crate::host::tabs;
use crate::model::Mode;
use crate::store;
use crate::workspace::{now, Workspace};

impl Workspace {
    /// The validation mode of the settings.
    pub fn validation_mode(self) -> ValidationMode {
        self.settings.with_untracked(|s| s.validation)
    }

    /// The budget's period (Settings).
    pub fn budget_period(self) -> Period {
        self.settings.with(|s| s.budget_period)
    }

    /// When the budget's current period began (ms since the epoch).
    pub fn period_start(self) -> f64 {
        let reset = self.settings.with_untracked(|s| s.budget_reset_at);
        period_start(self.budget_period(), now(), reset)
    }

    /// Adds or replaces journal entries (memory only); the meter follows.
    pub(crate) fn merge_journal(self, entries: impl IntoIterator<Item = JournalEntry>) {
        self.journal.update(|j| {
            for e in entries {
                j.insert(e.id.clone(), e);
            }
        });
        self.refresh_spend();
    }

    /// The account of `mode` since `since`: demo money and live money are counted apart.
    pub fn totals(self, mode: Mode, since: f64) -> Totals {
        self.journal
            .with_untracked(|j| totals_of(j.values().filter(|e| e.mode == mode), since))
    }

    /// Updates the meter from the journal (every tab's entries of this mode and period) and
    /// the demo ledger.
    /// A signal is set only when its value changed: a write-ahead changes no figure, and
    /// rewriting the same text would still cost the page a frame (style, layout, paint) per
    /// request of a bulk job.
    pub(crate) fn refresh_spend(self) {
        let t = self.totals(self.mode(), self.period_start());
        set_changed(self.spent, t.spent);
        set_changed(self.possibly_charged, t.possibly_charged);
        if let Some(ledger) = self.local.try_with_value(|i| i.demo.ledger()) {
            set_changed(self.ledger, ledger);
        }
    }

    /// Starts the meter over (Settings' reset): entries before now no longer count. The
    /// machine writes it under the journal lock ([`follow::drive`]); a pending save
    /// until then.
    pub fn reset_meter(self) {
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            if follow::drive(self, Event::ResetMeter).await.is_err() {
                self.save_failed("Could not reset the meter: reload this tab and try again".into());
            }
            self.pending.update(|p| *p = p.saturating_sub(1));
        });
    }

    /// Writes money settings through the machine ([`follow::drive`]: under the journal lock,
    /// ordered with every write-ahead); a pending save until they are stored.
    pub(crate) fn change_money(self, changes: Vec<Setting>) {
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            for change in changes {
                if follow::drive(self, Event::Change(change)).await.is_err() {
                    self.save_failed(
                        "Could not save the settings: reload this tab and try again".into(),
                    );
                    break;
                }
            }
            self.pending.update(|p| *p = p.saturating_sub(1));
        });
    }

    /// Clears the stored History through the machine ([`follow::drive`]); a pending save
    /// until then.
    pub(crate) fn clear_stored_history(self) {
        if !store::available() {
            return;
        }
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            if follow::drive(self, Event::ClearHistory).await.is_err() {
                self.save_failed(
                    "Could not delete from browser storage: reload and try again".into(),
                );
            }
            self.pending.update(|p| *p = p.saturating_sub(1));
        });
    }

    /// True when another tab left requests `sent` or a call `running`: whether it is still
    /// open decides what they become (the sweep: [`follow::drive`]).
    pub(crate) fn needs_sweep(self) -> bool {
        let me = tabs::tab_id();
        self.journal.with_untracked(|j| {
            j.values()
                .any(|e| e.tab != me && e.state() == serpkit::client::EntryState::Sent)
        }) || self.history.with_untracked(|h| {
            h.iter()
                .any(|r| r.tab != me && r.outcome == crate::model::Outcome::Running)
        })
    }

    /// Settles what tabs that are gone left `sent` or `running`, if anything (the machine's
    /// sweep: [`follow::drive`]). Its chunk not fetched: the next look (every 5 s) tries
    /// again.
    pub(crate) async fn sweep_closed_tabs(self) {
        if self.needs_sweep() {
            let _ = follow::drive(self, Event::Opened).await;
        }
    }

    /// Follows the other tabs: what they commit is re-read ([`follow::apply`]), so prices,
    /// results and the meter follow without a reload; a tab that closes mid-call tells
    /// nobody, so every 5 s its requests are looked for. The work itself is in its own wasm
    /// chunk, fetched only once another tab is there.
    pub(crate) fn follow_other_tabs(self) {
        let _ = set_interval_with_handle(
            move || {
                if self.needs_sweep() {
                    spawn_local(self.sweep_closed_tabs());
                }
            },
            std::time::Duration::from_secs(5),
        );
        // What other tabs committed while this one loaded: re-read now, after the load, so
        // none of it is missed and nothing older overwrites it.
        let early = EARLY.with(|e| e.borrow_mut().take()).unwrap_or_default();
        for text in early {
            spawn_local(async move {
                let _ = follow::apply(self, text).await;
            });
        }
    }

    /// Listens to the other tabs from the start, before the stores are read: a commit told
    /// while this tab loads is queued until [`Self::follow_other_tabs`], never missed.
    pub(crate) fn listen_to_other_tabs(self) {
        tabs::listen(move |text| {
            let queued = EARLY.with(|e| match e.borrow_mut().as_mut() {
                Some(q) => {
                    q.push(text.clone());
                    true
                }
                None => false,
            });
            if !queued {
                spawn_local(async move {
                    let _ = follow::apply(self, text).await;
                });
            }
        });
    }
}

thread_local! {
    /// Messages of other tabs received while this one loads (`None` once it follows them).
    static EARLY: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(Some(Vec::new())) };
}

/// Sets `signal` to `value` unless it already holds it (its readers are not woken).
fn set_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
}
