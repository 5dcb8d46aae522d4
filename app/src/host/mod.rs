//! The app as a host of the money state machine ([`serpkit::machine`]): a thin adapter that
//! performs the machine's effects with the browser's primitives and decides nothing itself.
//!
//! - [`drive`]: this tab's [`Tab`](serpkit::machine::Tab) and the performer of its effects
//!   (an event in, each effect performed in order, its outcome stepped as the next event).
//! - [`rows`]: the shared store as the machine reads it under the lock, and the machine's
//!   writes as the app's rows (pure, unit-tested natively through the machine).
//! - [`journal`]: the journal's stored entries and what a commit tells the other tabs.
//! - [`tabs`]: Web Locks (the journal lock, which tabs are open) and the `BroadcastChannel`.
//! - [`shared`]: the host's other reads and writes of the shared store (the reservations,
//!   what Clear History deletes).
//!
//! The workspace drives the host (a Run, a request, an answer, a setting) and the host
//! imports nothing of the workspace: what it needs of the app's memory (the settings as
//! stored, the journal in memory, History, what is stored from a source) it asks through
//! [`Memory`], which the workspace implements.

pub mod drive;
pub mod journal;
pub mod rows;
pub mod shared;
pub mod tabs;

use std::collections::{HashMap, HashSet};

use leptos::prelude::RwSignal;
use serpkit::machine::{Setting, StoreError};
use serpkit::Request;

use crate::model::{HistoryEntry, Settings};
use journal::JournalEntry;

/// What the host needs of the app's memory. `Copy` and `'static`, as the workspace's
/// signals are: a timer's event is performed long after the call that set it.
pub(crate) trait Memory: Copy + 'static {
    /// The settings as stored, shared by every tab; an error when the stored value cannot
    /// be read (never this tab's copy in its place).
    fn settings(self) -> Result<Settings, StoreError>;
    /// Writes money settings the machine committed, field by field over what is stored;
    /// `false` when storage refused.
    fn write_money(self, changes: &[Setting]) -> bool;
    /// Every tab's journal entries known to this tab, by id.
    fn journal(self) -> RwSignal<HashMap<String, JournalEntry>>;
    /// Puts entries in memory (new or settled).
    fn merge_journal(self, entries: Vec<JournalEntry>);
    /// Puts History rows in memory.
    fn upsert_history(self, rows: Vec<HistoryEntry>);
    /// A row of `store` is saved (`ok`) or is an unsaved change.
    fn mark_saved(self, store: &'static str, id: String, ok: bool);
    /// Tells the user a write failed.
    fn save_failed(self, message: String);
    /// Which items of `request` are stored from `source` now, read from the store (after a
    /// wait: what the call waited for stored); an error when the store could not be read
    /// (never "nothing stored": that would buy again).
    async fn stored_from(
        self,
        request: &Request,
        key: &str,
        source: &str,
        waited: bool,
    ) -> Result<HashSet<String>, StoreError>;
    /// The tabs open now (`me` among them) are known: History's running calls of the
    /// others are over.
    async fn tabs_gone(self, me: &str, open: &HashSet<String>);
}

/// Milliseconds since the epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}
