//! The workspace's state: every signal the pages read, the tab's non-`Send` parts (client,
//! account, demo transport, cancel handles, waiters), and the storage notices.

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use serpkit::client::{Account, Cancel, Client};
use serpkit::Usd;

use super::demo::DemoTransport;
use super::errors::ErrorInfo;
use super::records::Records;
use crate::host::journal::JournalEntry;
use crate::model::{CallResult, HistoryEntry, KeywordList, Settings};
use crate::store;

/// The workspace's non-`Send` parts (kept in a local `StoredValue`).
pub(super) struct LocalParts {
    /// Demo mode's transport (its worker starts on the first demo call).
    pub(super) demo: DemoTransport,
    /// The client of the current settings, with the signature of those settings.
    pub(super) client: Option<(String, Client)>,
    /// The tab's one account: every client is built on it.
    pub(super) account: Account,
    /// Cancel handles of the running calls, by cache key.
    pub(super) cancels: HashMap<String, Cancel>,
    /// What to do when a running call ends, by cache key: one entry per view that asked for
    /// it (the first and every one that attached); called with whether a result is stored.
    pub(super) waiters: HashMap<String, Vec<Waiter>>,
    /// When the user was told that a run would buy again what an interrupted call possibly
    /// bought, by cache key: running it again within [`YES_MS`] is the user's yes.
    pub(super) asked_yes: HashMap<String, f64>,
}

/// How long a run after the "possibly charged" question counts as the user's yes.
pub const YES_MS: f64 = 10.0 * 60_000.0;

/// What a view does when the call it asked for ends (told whether a result is stored).
pub(super) type Waiter = Box<dyn FnOnce(bool)>;

/// A running call's state, kept by the workspace under the request's cache key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Running {
    /// Bulk progress: (keywords done, total).
    pub progress: Option<(usize, usize)>,
    /// Bulk chunks: (done, total).
    pub chunks: (usize, usize),
    /// Cancelled: how many requests already sent are still awaited (they finish and keep
    /// what they bought).
    pub cancelling: Option<usize>,
    /// Waiting for another job that buys some of the same records ("in another tab" or "in
    /// this tab").
    pub waiting: Option<&'static str>,
    /// A live call: leaving the page asks first while it runs.
    pub live: bool,
}

/// The workspace: settings, key, stored results, history, lists and spend. `Copy`; provided
/// as context by the app root.
#[derive(Clone, Copy)]
pub struct Workspace {
    /// Settings (persisted in localStorage).
    pub settings: RwSignal<Settings>,
    /// The API key (memory; localStorage only with "remember on this device").
    pub key: RwSignal<String>,
    /// Stored results by cache key.
    pub results: RwSignal<HashMap<String, CallResult>>,
    /// Call history, newest first.
    pub history: RwSignal<Vec<HistoryEntry>>,
    /// Keyword lists, by name order.
    pub lists: RwSignal<Vec<KeywordList>>,
    /// Spent in the budget's period by every tab of this mode: confirmed charges (from the
    /// journal).
    pub spent: RwSignal<Usd>,
    /// Possibly charged in the period by every tab: requests sent whose outcome is unknown
    /// (counted against the cap like spent money).
    pub possibly_charged: RwSignal<Usd>,
    /// The purchase journal, by entry id (every tab's; kept in step through the channel).
    pub journal: RwSignal<HashMap<String, JournalEntry>>,
    /// Demo ledger total and charged calls.
    pub ledger: RwSignal<(Usd, usize)>,
    /// Storage notices (damaged entries skipped, storage unavailable, save failures).
    pub notices: RwSignal<Vec<String>>,
    /// Writes in flight.
    pub pending: RwSignal<u32>,
    /// Stored entries whose last write or delete failed (store, key); a later success of the
    /// same entry clears it. The footer says changes are not all saved while it is not empty.
    pub unsaved: RwSignal<HashSet<(&'static str, String)>>,
    /// True once the stored workspace is loaded.
    pub loaded: RwSignal<bool>,
    /// Calls running now, by cache key: they belong to the workspace, not to the page that
    /// started them, so leaving the page neither loses nor breaks them.
    pub running: RwSignal<HashMap<String, Running>>,
    /// The last error of a request, by cache key (cleared when it runs again).
    pub errors: RwSignal<HashMap<String, ErrorInfo>>,
    /// Bought records (pay once per record): what prices and planned calls reuse.
    pub records: Records,
    /// The settings found in the last imported file: shown in Settings, applied only when
    /// the user asks (an import never changes where the key goes).
    pub imported_settings: RwSignal<Option<Settings>>,
    /// Notices of failed saves shown now: the footer never says "All changes saved" while
    /// one is on screen.
    pub save_failures: RwSignal<usize>,
    /// The non-`Send` parts: client, account, demo transport, cancel handles, waiters.
    pub(super) local: StoredValue<LocalParts, LocalStorage>,
}

/// The workspace from context.
pub fn use_workspace() -> Workspace {
    expect_context::<Workspace>()
}

impl Workspace {
    /// A fresh workspace with the settings (and a remembered key) from localStorage.
    pub fn new() -> Workspace {
        let settings: Settings = store::stored_settings().unwrap_or_default();
        let key = if settings.remember_key {
            store::local_get(store::API_KEY_KEY).unwrap_or_default()
        } else {
            String::new()
        };
        Workspace {
            settings: RwSignal::new(settings),
            key: RwSignal::new(key),
            results: RwSignal::new(HashMap::new()),
            history: RwSignal::new(Vec::new()),
            lists: RwSignal::new(Vec::new()),
            spent: RwSignal::new(Usd::ZERO),
            possibly_charged: RwSignal::new(Usd::ZERO),
            journal: RwSignal::new(HashMap::new()),
            ledger: RwSignal::new((Usd::ZERO, 0)),
            notices: RwSignal::new(Vec::new()),
            pending: RwSignal::new(0),
            unsaved: RwSignal::new(Default::default()),
            loaded: RwSignal::new(false),
            running: RwSignal::new(HashMap::new()),
            errors: RwSignal::new(HashMap::new()),
            records: Records::new(),
            imported_settings: RwSignal::new(None),
            save_failures: RwSignal::new(0),
            local: StoredValue::new_local(LocalParts {
                demo: DemoTransport::new(),
                client: None,
                account: Account::new(),
                cancels: HashMap::new(),
                waiters: HashMap::new(),
                asked_yes: HashMap::new(),
            }),
        }
    }

    /// Adds a storage notice; true when it was not on screen yet.
    pub fn notice(self, message: String) -> bool {
        // Once: a failing save repeats (the key is saved on every keystroke).
        let mut added = false;
        self.notices.update(|n| {
            if !n.contains(&message) {
                n.push(message);
                added = true;
            }
        });
        added
    }

    /// Adds the notice of a failed save (or delete): while it is on screen the footer does
    /// not say that all changes are saved.
    pub fn save_failed(self, message: String) {
        if self.notice(message) {
            self.save_failures.update(|n| *n += 1);
        }
    }

    /// Dismisses every notice.
    pub fn dismiss_notices(self) {
        self.notices.set(Vec::new());
        self.save_failures.set(0);
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::new()
    }
}
