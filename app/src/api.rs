//! The workspace state and the one place that builds the [`Client`] and runs calls.
//!
//! - Demo mode: `Client::new(config with DEMO_KEY, DemoTransport)` (the sandbox in a Web
//!   Worker, [`crate::demo`]); live mode:
//!   `Client::with_fetch(config)` with the user's base URL and key.
//! - Every result is stored under a cache key (operation + hash of the canonical request,
//!   without the key) and shown again from there without a call; only an explicit refresh
//!   buys it again. A cancelled bulk job keeps what it bought, and running it again buys
//!   only the keywords still missing.
//! - Every call lands in the history with its input, estimate, charge and validation.
//! - The session spend meter is the client's own `spent()` (summed over the clients of this
//!   session); in demo mode the sandbox's ledger total is shown beside it.

use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::{
    BulkOptions, Cancel, Client, ClientConfig, Error, LocalBoxFuture, ValidationMode,
};
use serpkit::ops::search_volume_bulk::{self, SearchVolumeRecord};
use serpkit::{ApiKey, Operation, Request, Usd};

use crate::demo::DemoTransport;
use crate::model::{
    hash_hex, plural, CallResult, HistoryEntry, KeywordList, Mode, Settings, Validation,
};
use crate::sort;
use crate::store;

/// Keywords per `search_volume/bulk` request of a bulk job.
pub const CHUNK_SIZE: usize = 200;
/// History entries kept (oldest dropped first).
pub const MAX_HISTORY: usize = 500;

/// Non-`Send` parts of the workspace.
struct Inner {
    demo: DemoTransport,
    client: Option<(String, Client)>,
    spent_before: Usd,
}

/// What went wrong with a call, for people: never holds the key.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorInfo {
    /// The core's error code (`http`, `budget_exceeded`, ...).
    pub code: String,
    /// What happened.
    pub message: String,
    /// What to do.
    pub hint: String,
    /// HTTP status, if the service answered.
    pub status: Option<u16>,
    /// What the failed call was charged.
    pub charge: Usd,
    /// Demo mode's sandbox (the Web Worker) could not run: not the service's fault.
    pub demo_failure: bool,
}

impl ErrorInfo {
    /// From a client error of a call made in `mode`.
    pub fn from_error(e: &Error, mode: Mode) -> ErrorInfo {
        // Demo calls never use the network: a network error there is the sandbox worker's.
        let demo_failure = mode == Mode::Demo && matches!(e, Error::Network(_));
        ErrorInfo {
            code: e.code().to_string(),
            message: e.to_string(),
            hint: if demo_failure {
                "Reload the page: demo mode's sandbox is loaded from this site and could not run."
                    .into()
            } else {
                app_hint(e)
            },
            status: match e {
                Error::Http { status, .. } => Some(*status),
                _ => None,
            },
            charge: e.charge(),
            demo_failure,
        }
    }
}

impl ErrorInfo {
    /// The app's code for calls ([`call_service`]'s wasm chunk) could not be fetched from the
    /// app's server: nothing was sent or charged.
    pub fn code_unavailable() -> ErrorInfo {
        ErrorInfo {
            code: "app_unavailable".into(),
            message: "The part of the app that makes calls could not be fetched from the app's server. Nothing was sent or charged.".into(),
            hint: "Check the connection and run again, or reload the page.".into(),
            status: None,
            charge: Usd::ZERO,
            demo_failure: false,
        }
    }
}

/// The core's hint, pointed at where this app fixes it (Settings).
fn app_hint(e: &Error) -> String {
    match e {
        Error::MissingKey => "Enter your API key in Settings.".into(),
        Error::BudgetExceeded { .. } => {
            "Raise the budget cap in Settings, or run a smaller request.".into()
        }
        Error::Http { status: 401, .. } => {
            "The API key was refused: check the key in Settings.".into()
        }
        Error::Network(_) => "Check the network connection and the base URL in Settings.".into(),
        _ => e.hint().to_string(),
    }
}

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
    /// Spent this session (client-side meter).
    pub spent: RwSignal<Usd>,
    /// Demo ledger total and charged calls.
    pub ledger: RwSignal<(Usd, usize)>,
    /// Storage notices (damaged entries skipped, storage unavailable, save failures).
    pub notices: RwSignal<Vec<String>>,
    /// Writes in flight.
    pub pending: RwSignal<u32>,
    /// Stored entries whose last write or delete failed (store, key); a later success of the
    /// same entry clears it. The footer says changes are not all saved while it is not empty.
    pub unsaved: RwSignal<std::collections::HashSet<(&'static str, String)>>,
    /// True once the stored workspace is loaded.
    pub loaded: RwSignal<bool>,
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
            let mut k: Vec<String> = q.keywords.iter().map(|k| k.to_lowercase()).collect();
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
            ledger: RwSignal::new((Usd::ZERO, 0)),
            notices: RwSignal::new(Vec::new()),
            pending: RwSignal::new(0),
            unsaved: RwSignal::new(Default::default()),
            loaded: RwSignal::new(false),
            inner: StoredValue::new_local(Inner {
                demo: DemoTransport::new(),
                client: None,
                spent_before: Usd::ZERO,
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
            match store::load_all::<CallResult>(store::RESULTS, "result").await {
                Ok(l) => {
                    self.results
                        .update(|m| m.extend(l.items.into_iter().map(|r| (r.key.clone(), r))));
                    l.skipped.into_iter().for_each(|m| self.notice(m));
                }
                Err(e) => self.notice(format!("Could not read stored results: {e}")),
            }
            match store::load_all::<HistoryEntry>(store::HISTORY, "history entry").await {
                Ok(l) => {
                    let mut items = l.items;
                    sort::sort_by(&mut items, |a, b| b.at.total_cmp(&a.at));
                    self.history.update(|h| {
                        h.extend(items);
                        sort::sort_by(h, |a, b| b.at.total_cmp(&a.at));
                    });
                    l.skipped.into_iter().for_each(|m| self.notice(m));
                }
                Err(e) => self.notice(format!("Could not read the history: {e}")),
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
                    l.skipped.into_iter().for_each(|m| self.notice(m));
                }
                Err(e) => self.notice(format!("Could not read the keyword lists: {e}")),
            }
            self.loaded.set(true);
        });
    }

    /// Adds a storage notice.
    pub fn notice(self, m: String) {
        // Once: a failing save repeats (the key is saved on every keystroke).
        self.notices.update(|n| {
            if !n.contains(&m) {
                n.push(m)
            }
        });
    }

    /// Saves settings (localStorage) and applies the key policy.
    pub fn set_settings(self, s: Settings) {
        if let Ok(t) = serde_json::to_string(&s) {
            if let Err(e) = store::local_try_set(store::SETTINGS_KEY, &t) {
                self.notice(format!("Could not save the settings in this browser: {e}"));
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
                self.notice(format!(
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

    /// The client for the current settings (rebuilt when they change; the spend carries
    /// over, and the budget left is what the cap leaves after this session's spend).
    fn client(self) -> Client {
        let s = self.settings.get_untracked();
        let key = self.key.get_untracked();
        let sig = format!(
            "{}|{}|{}|{}|{}",
            s.mode.as_str(),
            s.base_url,
            s.validation,
            s.budget,
            hash_hex(&key)
        );
        self.inner
            .try_update_value(|inner| {
                if let Some((old, c)) = &inner.client {
                    if *old == sig {
                        return c.clone();
                    }
                    inner.spent_before += c.spent();
                }
                let validation = s.validation.parse().unwrap_or(ValidationMode::Warn);
                let key = match s.mode {
                    Mode::Demo => sandbox::DEMO_KEY.to_string(),
                    Mode::Live => key.trim().to_string(),
                };
                let mut config = ClientConfig::new(key);
                config.validation = validation;
                config.budget = self
                    .budget_cap()
                    .map(|b| b.saturating_sub(inner.spent_before));
                let client = match s.mode {
                    Mode::Demo => {
                        config.base_url = "sandbox://demo".into();
                        Client::new(config, Rc::new(inner.demo.clone()))
                    }
                    Mode::Live => {
                        config.base_url = s.base_url.trim().trim_end_matches('/').to_string();
                        live_client(config)
                    }
                };
                inner.client = Some((sig, client.clone()));
                client
            })
            .unwrap_or_else(|| {
                Client::new(
                    ClientConfig::new(sandbox::DEMO_KEY),
                    Rc::new(DemoTransport::new()),
                )
            })
    }

    /// Updates the spend meter and the demo ledger from the client.
    fn refresh_spend(self, client: &Client) {
        let (before, ledger) = self.inner.with_value(|i| (i.spent_before, i.demo.ledger()));
        self.spent.set(before + client.spent());
        self.ledger.set(ledger);
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

    /// True when a complete result is stored under `key` (reactive).
    pub fn has_result(self, key: &str) -> bool {
        self.results
            .with(|m| m.get(key).is_some_and(|r| r.missing.is_empty()))
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
            Err(e) => return self.notice(format!("Could not save: {e}")),
        };
        self.pending.update(|p| *p += 1);
        spawn_local(async move {
            let result = store::put_text(store_name, &key, &text).await;
            if let Err(e) = &result {
                self.notice(format!("Could not save to browser storage: {e}"));
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
                self.notice(format!("Could not delete from browser storage: {e}"));
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
                if !list.keywords.iter().any(|x| x.eq_ignore_ascii_case(k)) {
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
        if store::available() {
            spawn_local(async move {
                let _ = store::clear(store::HISTORY).await;
                let _ = store::clear(store::RESULTS).await;
            });
        }
    }

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
        for v in results {
            match serde_json::from_value::<CallResult>(v) {
                Ok(r) => {
                    self.put_result(r);
                    nr += 1;
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
        if let Some(s) = doc
            .get("settings")
            .and_then(|s| serde_json::from_value::<Settings>(s.clone()).ok())
        {
            let remember = self.settings.with_untracked(|x| x.remember_key);
            self.set_settings(Settings {
                remember_key: remember,
                ..s
            });
        }
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
        Ok(msg)
    }
}

impl Default for Ws {
    fn default() -> Self {
        Ws::new()
    }
}

#[cfg(target_arch = "wasm32")]
fn live_client(config: ClientConfig) -> Client {
    Client::with_fetch(config)
}

#[cfg(not(target_arch = "wasm32"))]
fn live_client(config: ClientConfig) -> Client {
    // Native builds (tests, clippy) have no fetch: a transport that always fails.
    use serpkit::client::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};
    struct NoNetwork;
    impl Transport for NoNetwork {
        fn post(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
            Box::pin(async {
                Err(TransportError::Network(
                    "no network in native builds".into(),
                ))
            })
        }
    }
    Client::new(config, Rc::new(NoNetwork))
}

/// The state of one operation's call in a view: loading, progress, last error.
#[derive(Clone, Copy)]
pub struct Call {
    /// A call is running.
    pub loading: RwSignal<bool>,
    /// The last call's error (cleared by the next call); results stay visible.
    pub error: RwSignal<Option<ErrorInfo>>,
    /// Bulk progress: (keywords done, total).
    pub progress: RwSignal<Option<(usize, usize)>>,
    /// Milliseconds from the click to the stored result (set by the caller when rendered).
    pub started: RwSignal<Option<f64>>,
    cancel: StoredValue<Option<Cancel>, LocalStorage>,
}

impl Call {
    /// An idle call.
    pub fn new() -> Call {
        Call {
            loading: RwSignal::new(false),
            error: RwSignal::new(None),
            progress: RwSignal::new(None),
            started: RwSignal::new(None),
            cancel: StoredValue::new_local(None),
        }
    }

    /// Cancels a running call (bulk jobs stop between chunks and keep what they bought).
    pub fn cancel(self) {
        if let Some(c) = self.cancel.get_value() {
            c.cancel();
        }
    }

    fn begin(self) -> Cancel {
        let c = Cancel::new();
        self.cancel.set_value(Some(c.clone()));
        self.loading.set(true);
        self.error.set(None);
        self.progress.set(None);
        self.started.set(Some(now()));
        c
    }

    fn end(self) {
        self.loading.set(false);
        self.cancel.set_value(None);
    }
}

impl Default for Call {
    fn default() -> Self {
        Call::new()
    }
}

/// What a run is about: the request, the route that shows it, and a label for the history.
pub struct Job {
    /// The request (without key).
    pub request: Request,
    /// Route that shows the result.
    pub route: String,
    /// Short description of the input.
    pub input: String,
}

/// The price of running `request` now: the estimate of what is not stored yet (zero when a
/// complete result is stored and `refresh` is false), and how many units that is.
pub fn price_now(ws: Ws, request: &Request, refresh: bool) -> (Usd, u64) {
    let (_, key) = canonical(request);
    if !refresh {
        if let Some(r) = ws.results.with(|m| m.get(&key).map(|r| r.missing.clone())) {
            if r.is_empty() {
                return (Usd::ZERO, 0);
            }
            if let Request::SearchVolumeBulk(q) = request {
                let part = Request::SearchVolumeBulk(search_volume_bulk::Request {
                    keywords: r,
                    ..q.clone()
                });
                return (serpkit::estimate_cost(&part), part.billable_units());
            }
        }
    }
    (serpkit::estimate_cost(request), request.billable_units())
}

/// Runs a job: shows a stored result without a call unless `refresh`; otherwise calls the
/// service (bulk keyword lists in chunks with progress), stores the result and records the
/// call in the history. `on_done` gets the cache key when a result is available.
/// [`run`], then shows the job's route (whose URL holds the inputs) through `navigate`,
/// without scrolling: what every page's Run button does.
pub fn run_then_show(
    ws: Ws,
    call: Call,
    job: Job,
    refresh: bool,
    navigate: impl Fn(&str, leptos_router::NavigateOptions) + 'static,
) {
    let route = job.route.clone();
    run(ws, call, job, refresh, move |_| {
        navigate(
            &route,
            leptos_router::NavigateOptions {
                scroll: false,
                ..Default::default()
            },
        )
    });
}

pub fn run(ws: Ws, call: Call, job: Job, refresh: bool, on_done: impl FnOnce(String) + 'static) {
    if call.loading.get_untracked() {
        return;
    }
    let (canon, key) = canonical(&job.request);
    if let Err(e) = job.request.check() {
        call.error.set(Some(ErrorInfo::from_error(
            &Error::InvalidRequest(e),
            ws.mode(),
        )));
        return;
    }
    let stored = ws.results.with_untracked(|m| m.get(&key).cloned());
    if !refresh && stored.as_ref().is_some_and(|r| r.missing.is_empty()) {
        call.error.set(None);
        on_done(key);
        return;
    }
    let (estimate, _) = price_now(ws, &job.request, refresh);
    let cancel = call.begin();
    let mode = ws.mode();
    spawn_local(async move {
        let at = now();
        let prior = stored.filter(|r| !refresh && !r.missing.is_empty());
        let exec = Exec {
            ws,
            call,
            request: job.request.clone(),
            prior,
            cancel,
            key: key.clone(),
            canon,
            at,
            mode,
        };
        let Ok(outcome) = call_service(exec).await else {
            call.error.set(Some(ErrorInfo::code_unavailable()));
            call.end();
            return;
        };
        let mut entry = HistoryEntry {
            id: format!("{at:.0}-{}", hash_hex(&key)),
            operation: job.request.operation().path().to_string(),
            input: job.input.clone(),
            route: job.route.clone(),
            key: String::new(),
            at,
            estimate,
            charge: Usd::ZERO,
            outcome: "ok".into(),
            message: String::new(),
            validation: String::new(),
            mode,
        };
        match outcome {
            Ok((result, charge)) => {
                entry.charge = charge;
                entry.key = result.key.clone();
                entry.validation = result.validation.summary();
                if !result.missing.is_empty() {
                    entry.outcome = "partial".into();
                    entry.message = format!(
                        "{} keyword{} not bought",
                        result.missing.len(),
                        plural(result.missing.len())
                    );
                }
                let stopped = call.error.get_untracked();
                if let Some(e) = &stopped {
                    entry.message = format!("{} ({})", entry.message, e.message);
                }
                ws.put_result(result);
                ws.add_history(entry);
                call.end();
                on_done(key);
            }
            Err((e, charge)) => {
                let info = ErrorInfo::from_error(&e, mode);
                entry.outcome = if e.code() == "aborted" {
                    "cancelled"
                } else {
                    "error"
                }
                .into();
                entry.message = info.message.clone();
                entry.charge = charge;
                if let Error::ContractViolation { report, .. } = &e {
                    entry.validation = Validation::from_report(report, 0).summary();
                }
                let nothing_sent = matches!(
                    e,
                    Error::InvalidRequest(_) | Error::MissingKey | Error::BudgetExceeded { .. }
                );
                if !nothing_sent {
                    ws.add_history(entry);
                }
                call.error.set(Some(info));
                call.end();
            }
        }
    });
}

/// What one call bought (the result and this call's charge), or why it failed and what it
/// was charged.
type Outcome = Result<(CallResult, Usd), (Error, Usd)>;

/// The inputs of [`call_service`].
struct Exec {
    ws: Ws,
    call: Call,
    request: Request,
    /// A stored bulk result with keywords still missing (only those are bought).
    prior: Option<CallResult>,
    cancel: Cancel,
    key: String,
    canon: String,
    at: f64,
    mode: Mode,
}

/// The part of a run that talks to the service: the client, its transports, validation and
/// bulk merging. It is the app's largest piece of code after the pages, and no page needs it
/// before its first call, so it is split into its own wasm chunk (like the pages,
/// `routes::page!`), fetched on the first call. `Err`: that chunk could not be fetched;
/// nothing was sent.
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<Outcome, SplitLoaderError>)
)]
fn call_service(x: Exec) -> LocalBoxFuture<'static, Result<Outcome, SplitLoaderError>> {
    Box::pin(async move {
        let client = x.ws.client();
        let outcome = match &x.request {
            Request::SearchVolumeBulk(q) => run_bulk(&client, &x, q).await,
            request => match client.call_raw(request, Some(&x.cancel)).await {
                Ok(reply) => Ok((
                    CallResult {
                        key: x.key.clone(),
                        operation: request.operation().path().to_string(),
                        request: x.canon.clone(),
                        body: reply.body,
                        validation: reply
                            .report
                            .as_ref()
                            .map(|r| Validation::from_report(r, 0))
                            .unwrap_or_default(),
                        charge: reply.charge,
                        at: x.at,
                        mode: x.mode,
                        missing: Vec::new(),
                    },
                    reply.charge,
                )),
                Err(e) => {
                    let c = e.charge();
                    Err((e, c))
                }
            },
        };
        x.ws.refresh_spend(&client);
        Ok(outcome)
    })
}

/// A `search_volume/bulk` job of `x`: in chunks with progress, buying only what `x.prior`
/// still misses.
async fn run_bulk(client: &Client, x: &Exec, q: &search_volume_bulk::Request) -> Outcome {
    let Exec {
        call,
        prior,
        cancel,
        key,
        canon,
        at,
        mode,
        ..
    } = x;
    let (call, at, mode) = (*call, *at, *mode);
    let (mut have, mut validation, prior_charge): (Vec<SearchVolumeRecord>, Validation, Usd) =
        match prior {
            Some(p) => (
                serpkit::decode(&p.body).unwrap_or_default(),
                p.validation.clone(),
                p.charge,
            ),
            None => (Vec::new(), Validation::default(), Usd::ZERO),
        };
    let to_buy: Vec<String> = match prior {
        Some(p) => p.missing.clone(),
        None => q.keywords.clone(),
    };
    let base = have.len();
    let total = to_buy.len();
    call.progress.set(Some((0, total)));
    let outcome = client
        .search_volume_bulk_chunked(
            &to_buy,
            &q.ccode,
            BulkOptions {
                chunk_size: CHUNK_SIZE,
                concurrency: 2,
            },
            |p| call.progress.set(Some((p.done_keywords, p.total_keywords))),
            Some(cancel),
        )
        .await;
    if outcome.records.is_empty() && prior.is_none() {
        let e = outcome.stopped.unwrap_or(Error::Aborted);
        return Err((e, outcome.charge));
    }
    // Chunk reports: paths are relative to the chunk; shift them to the merged array (the
    // records of successful chunks follow each other; every chunk but the last is full).
    for (n, (_, report)) in outcome.reports.iter().enumerate() {
        validation.add(report, base + n * CHUNK_SIZE);
    }
    have.extend(outcome.records);
    // Keep the request's order.
    let order: HashMap<String, usize> = q
        .keywords
        .iter()
        .enumerate()
        .map(|(i, k)| (k.to_lowercase(), i))
        .collect();
    sort::sort_by_key(&mut have, |r| {
        order
            .get(&r.keyword.to_lowercase())
            .copied()
            .unwrap_or(usize::MAX)
    });
    if let Some(e) = &outcome.stopped {
        call.error.set(Some(ErrorInfo::from_error(e, mode)));
    }
    let this_call = outcome.charge;
    Ok((
        CallResult {
            key: key.to_string(),
            operation: Operation::SearchVolumeBulk.path().to_string(),
            request: canon.to_string(),
            body: serde_json::to_string(&have).unwrap_or_else(|_| "[]".into()),
            validation,
            charge: prior_charge + outcome.charge,
            at,
            mode,
            missing: outcome.missing,
        },
        this_call,
    ))
}
