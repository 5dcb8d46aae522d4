//! The workspace state and the one place that builds the [`Client`] and runs calls.
//!
//! - Demo mode: the sandbox in a Web Worker ([`crate::demo`]) as the transport; live mode:
//!   `fetch` to the user's base URL with their key (only http(s); plain http to another host
//!   only once confirmed, [`crate::base_url`]). Every client is built on the tab's one
//!   [`serpkit::client::Account`]: the spend meter and the budget cap count every call of
//!   the tab once, however often the client is rebuilt and however many calls run at once.
//! - Every result is stored under a cache key (operation + hash of the canonical request,
//!   without the key) and shown again from there without a call; only an explicit refresh
//!   buys it again. A cancelled bulk job keeps what it bought, and running it again buys
//!   only the keywords still missing. Imported results are shown but not bought here.
//! - Calls belong to the workspace ([`calls`]): their state lives here by cache key, their
//!   result and history row are stored even when the page that started them is gone.
//! - Every call lands in the history with its input, estimate, charge (and possible
//!   charge) and validation; its note is built from the error's code and status only.
//! - Spend: confirmed charges and possibly charged amounts, shown apart; in demo mode the
//!   sandbox's ledger total is shown beside them.

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::client::{Account, Cancel, Client};
use serpkit::{ApiKey, Request, Usd};

use crate::demo::DemoTransport;
use crate::model::{hash_hex, CallResult, HistoryEntry, KeywordList, Mode, Settings};
use crate::records::{RecordEntry, Records};
use crate::sort;
use crate::store;

mod account;
mod calls;
mod errors;
mod transfer;

pub use calls::{
    price_now, quote_now, run, run_text, run_then_show, Call, Job, Quote, Running, CHUNK_SIZE,
};
pub use errors::{history_message, ErrorInfo};
pub use transfer::{app_route, APP_PATHS};

/// History entries kept (oldest dropped first).
pub const MAX_HISTORY: usize = 500;

/// Non-`Send` parts of the workspace.
struct Inner {
    demo: DemoTransport,
    client: Option<(String, Client)>,
    /// The tab's one account: every client is built on it.
    account: Account,
    /// Cancel handles of the running calls, by cache key.
    cancels: HashMap<String, Cancel>,
    /// What to do when a running call ends, by cache key: one entry per view that asked for
    /// it (the first and every one that attached); called with whether a result is stored.
    waiters: HashMap<String, Vec<Waiter>>,
}

/// What a view does when the call it asked for ends (told whether a result is stored).
type Waiter = Box<dyn FnOnce(bool)>;

/// The workspace: settings, key, stored results, history, lists and spend. `Copy`; provided
/// as context by the app root.
#[derive(Clone, Copy)]
pub struct Ws {
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
    /// Spent by this tab: confirmed charges (the account's meter).
    pub spent: RwSignal<Usd>,
    /// Possibly charged by this tab: calls sent whose outcome is unknown (counted against
    /// the cap like spent money).
    pub possibly_charged: RwSignal<Usd>,
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
    inner: StoredValue<Inner, LocalStorage>,
}

/// The workspace from context.
pub fn ws() -> Ws {
    expect_context::<Ws>()
}

/// Milliseconds since the epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Today's date (UTC) for the demo data.
pub fn today() -> sandbox::Date {
    sandbox::Date::from_days((now() / 86_400_000.0).floor() as i64)
}

/// The canonical request: the request without its key, as JSON, and its cache key. Bulk
/// keyword lists are compared as sets (order and case of duplicates do not matter).
pub fn canonical(request: &Request) -> (String, String) {
    let mut r = request.clone();
    r.set_key(ApiKey::default());
    let json = r.to_json();
    let basis = match &r {
        Request::SearchVolumeBulk(q) => {
            let mut k: Vec<String> = q
                .keywords
                .iter()
                .map(|k| serpkit::records::normalize_keyword(k))
                .collect();
            sort::sort_by(&mut k, |a, b| a.cmp(b));
            format!("{}|{}", q.ccode.to_uppercase(), k.join("\n"))
        }
        _ => json.clone(),
    };
    let key = format!("{}:{}", request.operation().path(), hash_hex(&basis));
    (json, key)
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

impl Ws {
    /// A fresh workspace with the settings (and a remembered key) from localStorage.
    pub fn new() -> Ws {
        let settings: Settings = store::local_get(store::SETTINGS_KEY)
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let key = if settings.remember_key {
            store::local_get(store::API_KEY_KEY).unwrap_or_default()
        } else {
            String::new()
        };
        Ws {
            settings: RwSignal::new(settings),
            key: RwSignal::new(key),
            results: RwSignal::new(HashMap::new()),
            history: RwSignal::new(Vec::new()),
            lists: RwSignal::new(Vec::new()),
            spent: RwSignal::new(Usd::ZERO),
            possibly_charged: RwSignal::new(Usd::ZERO),
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
            inner: StoredValue::new_local(Inner {
                demo: DemoTransport::new(),
                client: None,
                account: Account::new(),
                cancels: HashMap::new(),
                waiters: HashMap::new(),
            }),
        }
    }

    /// Opens IndexedDB and loads results, history and lists (skipping damaged entries).
    pub fn load(self) {
        spawn_local(async move {
            if let Err(e) = store::open().await {
                self.notice(format!(
                    "Browser storage is unavailable ({e}): results and lists last until you close the tab."
                ));
                self.loaded.set(true);
                return;
            }
            match store::load_all::<RecordEntry>(store::RECORDS, "bought record").await {
                Ok(l) => {
                    self.records.extend(l.items);
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
                        sort::sort_by_key(v, |a| a.name.to_lowercase());
                    });
                    l.skipped.into_iter().for_each(|m| {
                        self.notice(m);
                    });
                }
                Err(e) => {
                    self.notice(format!("Could not read the keyword lists: {e}"));
                }
            }
            self.loaded.set(true);
        });
    }

    /// Adds a storage notice; true when it was not on screen yet.
    pub fn notice(self, m: String) -> bool {
        // Once: a failing save repeats (the key is saved on every keystroke).
        let mut added = false;
        self.notices.update(|n| {
            if !n.contains(&m) {
                n.push(m);
                added = true;
            }
        });
        added
    }

    /// Adds the notice of a failed save (or delete): while it is on screen the footer does
    /// not say that all changes are saved.
    pub fn save_failed(self, m: String) {
        if self.notice(m) {
            self.save_failures.update(|n| *n += 1);
        }
    }

    /// Dismisses every notice.
    pub fn dismiss_notices(self) {
        self.notices.set(Vec::new());
        self.save_failures.set(0);
    }

    /// Saves settings (localStorage) and applies the key policy.
    pub fn set_settings(self, s: Settings) {
        if let Ok(t) = serde_json::to_string(&s) {
            if let Err(e) = store::local_try_set(store::SETTINGS_KEY, &t) {
                self.save_failed(format!("Could not save the settings in this browser: {e}"));
            }
        }
        self.settings.set(s);
        self.persist_key();
    }

    /// Sets the API key (memory; stored only when "remember" is ticked).
    pub fn set_key(self, key: String) {
        self.key.set(key);
        self.persist_key();
    }

    fn persist_key(self) {
        let remember = self.settings.with_untracked(|s| s.remember_key);
        let key = self.key.get_untracked();
        if remember && !key.is_empty() {
            if let Err(e) = store::local_try_set(store::API_KEY_KEY, &key) {
                // The reason never holds the key (the browser names the item, not its value).
                self.save_failed(format!(
                    "Could not remember the API key on this device: {e}"
                ));
            }
        } else {
            store::local_remove(store::API_KEY_KEY);
        }
    }

    /// The mode now.
    pub fn mode(self) -> Mode {
        self.settings.with_untracked(|s| s.mode)
    }

    /// The budget cap, if one is set and valid.
    pub fn budget_cap(self) -> Option<Usd> {
        self.settings
            .with_untracked(|s| s.budget.trim().parse::<Usd>().ok())
            .filter(|b| *b > Usd::ZERO)
    }

    /// Stores a result (memory and IndexedDB).
    pub fn put_result(self, r: CallResult) {
        let key = r.key.clone();
        self.persist(store::RESULTS, key.clone(), &r);
        self.results.update(|m| {
            m.insert(key, r);
        });
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

    fn add_history(self, e: HistoryEntry) {
        self.persist(store::HISTORY, e.id.clone(), &e);
        let mut dropped = Vec::new();
        self.history.update(|h| {
            h.insert(0, e);
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

    fn remove(self, store_name: &'static str, key: String) {
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
        self.unsaved.update(|u| {
            if ok {
                u.remove(&(store_name, key));
            } else {
                u.insert((store_name, key));
            }
        });
        self.pending.update(|p| *p = p.saturating_sub(1));
    }

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
            sort::sort_by_key(lists, |a| a.name.to_lowercase());
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

    /// Deletes the history and the stored results.
    pub fn clear_history(self) {
        self.history.set(Vec::new());
        self.results.set(HashMap::new());
        self.records.clear();
        if store::available() {
            spawn_local(async move {
                for name in [store::HISTORY, store::RESULTS] {
                    if let Err(e) = store::clear(name).await {
                        self.save_failed(format!("Could not delete from browser storage: {e}"));
                    }
                }
            });
        }
    }
}

impl Ws {
    /// Where records are bought now: the client's base URL as record keys see it (demo
    /// mode's sandbox is a source of its own, so demo records never answer live calls).
    pub fn record_source(self) -> String {
        self.settings.with(|s| match s.mode {
            Mode::Demo => serpkit::records::source_of(DEMO_BASE_URL),
            Mode::Live => serpkit::records::source_of(&s.base_url),
        })
    }

    /// How calls are planned now: the max age from Settings, and `refresh`.
    pub fn plan_options(self, refresh: bool) -> serpkit::records::PlanOptions {
        serpkit::records::PlanOptions {
            now_ms: now(),
            max_age_ms: self.settings.with(Settings::record_max_age_ms),
            refresh,
        }
    }
}

/// The base URL of demo mode's clients (no request leaves the tab).
pub const DEMO_BASE_URL: &str = "sandbox://demo";

impl Default for Ws {
    fn default() -> Self {
        Ws::new()
    }
}
