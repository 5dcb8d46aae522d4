//! Persistence in the browser.
//!
//! - **IndexedDB** (database `serpkit`, version [`DB_VERSION`]) holds the workspace: object stores
//!   `results` (call results by cache key), `history` (calls by id), `lists` (keyword
//!   lists by name), `records` (bought records, by kind and record key) and `journal` (the
//!   purchase journal: every paid request, written ahead and settled, by id) and
//!   `reservations` (what running calls buy, by call). Every value is stored as JSON text and read back one entry at a time,
//!   so an entry that no longer parses is skipped with a message and never costs the rest.
//!   The writes of one turn of the event loop go in one transaction ([`put_all`]); a read,
//!   delete or clear comes after them.
//! - **localStorage** holds only small things: the settings, and the API key when the user
//!   ticked "remember on this device" (removed again when unticked).
//!
//! When IndexedDB is unavailable the app keeps working in memory and says so.

use std::cell::RefCell;

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

/// Database name.
pub const DB_NAME: &str = "serpkit";
/// Database version: 2 added the `records` store, 3 the `journal`, 4 the journal entry's
/// `items`, 5 the `reservations` (an upgrade keeps the other stores; every change of a row
/// format is a new version, so older tabs are told to reload: `persistence.rs` tests the
/// formats).
pub const DB_VERSION: u32 = 5;
/// Store of call results.
pub const RESULTS: &str = "results";
/// Store of history entries.
pub const HISTORY: &str = "history";
/// Store of keyword lists.
pub const LISTS: &str = "lists";
/// Store of bought records (pay once per record: the workspace's records).
pub const RECORDS: &str = "records";
/// Store of the purchase journal (every paid request, by id).
pub const JOURNAL: &str = "journal";
/// Store of what running calls reserve (by the call's history row id): apart from History,
/// so clearing History can never free a running call's items.
pub const RESERVATIONS: &str = "reservations";
/// localStorage key of the settings.
pub const SETTINGS_KEY: &str = "serpkit.settings";
/// localStorage key of the remembered API key.
pub const API_KEY_KEY: &str = "serpkit.apiKey";

thread_local! {
    static DB: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
    /// Why the connection is gone, once it is ([`lost`]).
    static LOST: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
    static BATCH: RefCell<Option<Batch>> = const { RefCell::new(None) };
}

/// The writes of the current turn of the event loop, not issued yet: they go in one
/// transaction at its end ([`flush`]). A bulk job's next chunk written ahead and the last
/// chunk's commit, issued in the same turn, then cost one transaction instead of two.
struct Batch {
    /// (store, key, text) in the order they were written.
    writes: Vec<(&'static str, JsValue, JsValue)>,
    /// Settles when the batch's transaction commits or aborts.
    done: js_sys::Promise,
    resolve: js_sys::Function,
    reject: js_sys::Function,
}

/// The entries of a store that parsed, and a message per entry that did not.
pub struct Loaded<T> {
    /// Good entries, in key order.
    pub items: Vec<T>,
    /// One message per skipped entry.
    pub skipped: Vec<String>,
}

fn err_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.dyn_ref::<web_sys::DomException>().map(|d| d.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Waits for an IndexedDB request; its result or an error message.
async fn done(req: &IdbRequest) -> Result<JsValue, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let r = req.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = req.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let msg = r
                .error()
                .ok()
                .flatten()
                .map(|e| e.message())
                .unwrap_or_else(|| "IndexedDB request failed".into());
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&msg));
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise).await.map_err(|e| err_text(&e))
}

/// Opens (and on first use creates) the database. Err when IndexedDB is unavailable.
pub async fn open() -> Result<(), String> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(|e| err_text(&e))?
        .ok_or("IndexedDB is not available in this browser")?;
    let req = factory
        .open_with_u32(DB_NAME, DB_VERSION)
        .map_err(|e| err_text(&e))?;
    let r = req.clone();
    let upgrade = Closure::once_into_js(move |_: web_sys::Event| {
        if let Ok(db) = r.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
            for name in [RESULTS, HISTORY, LISTS, RECORDS, JOURNAL, RESERVATIONS] {
                if !db.object_store_names().contains(name) {
                    let _ = db.create_object_store(name);
                }
            }
        }
    });
    req.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    // An older tab that does not close its connection for an upgrade blocks the open: say so
    // instead of loading forever (this tab then works in memory and buys nothing live).
    let r = req.clone();
    let opened = js_sys::Promise::new(&mut |resolve, reject| {
        let ok_req = r.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(
                &JsValue::NULL,
                &ok_req.result().unwrap_or(JsValue::UNDEFINED),
            );
        });
        let fail = reject.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = fail.call1(&JsValue::NULL, &JsValue::from_str("IndexedDB did not open"));
        });
        let on_blocked = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(BLOCKED));
        });
        r.set_onsuccess(Some(ok.unchecked_ref()));
        r.set_onerror(Some(err.unchecked_ref()));
        r.set_onblocked(Some(on_blocked.unchecked_ref()));
    });
    let db = JsFuture::from(opened)
        .await
        .map_err(|e| err_text(&e))?
        .dyn_into::<IdbDatabase>()
        .map_err(|_| "IndexedDB did not open".to_string())?;
    // A newer version of the app opening in another tab needs this connection closed to
    // upgrade the database; this tab is told to reload and buys nothing live meanwhile.
    let this = db.clone();
    let close = Closure::once_into_js(move |_: web_sys::Event| {
        this.close();
        lose(NEWER);
    });
    db.set_onversionchange(Some(close.unchecked_ref()));
    let on_close = Closure::once_into_js(move |_: web_sys::Event| lose(CLOSED));
    db.set_onclose(Some(on_close.unchecked_ref()));
    DB.with(|d| *d.borrow_mut() = Some(db));
    Ok(())
}

/// Why the database could not open: an older tab holds it.
pub const BLOCKED: &str = "another serpkit tab of an older version keeps the browser storage open: close or reload it, then reload this tab";
/// Why the connection closed: a newer version opened in another tab.
pub const NEWER: &str =
    "a newer version of serpkit opened in another tab: reload this tab to go on buying";
/// Why the connection closed: the browser closed it.
pub const CLOSED: &str = "the browser closed this tab's storage: reload this tab to go on buying";

fn lose(why: &'static str) {
    DB.with(|d| *d.borrow_mut() = None);
    LOST.with(|l| l.set(Some(why)));
}

/// True once [`open`] succeeded and while the connection lasts.
pub fn available() -> bool {
    DB.with(|d| d.borrow().is_some())
}

/// Why the connection this tab had is gone (`None`: it never opened, or it still works).
pub fn lost() -> Option<&'static str> {
    LOST.with(|l| l.get())
}

/// A store in a transaction of its own, created after the batched writes (so a read sees
/// them and a delete comes after them, as written).
fn store(name: &str, mode: IdbTransactionMode) -> Result<web_sys::IdbObjectStore, String> {
    flush();
    let db = DB
        .with(|d| d.borrow().clone())
        .ok_or("storage is not available")?;
    db.transaction_with_str_and_mode(name, mode)
        .and_then(|t| t.object_store(name))
        .map_err(|e| err_text(&e))
}

/// Writes one entry (JSON text) under `key`.
pub async fn put<T: Serialize>(
    store_name: &'static str,
    key: &str,
    value: &T,
) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    put_text(store_name, key, &text).await
}

/// Settles when `tx` commits (`resolve`) or aborts (`reject` with the reason). A quota error
/// shows only here: the request itself succeeds before the commit fails.
fn on_commit(tx: &web_sys::IdbTransaction, resolve: js_sys::Function, reject: js_sys::Function) {
    let ok = Closure::once_into_js(move |_: web_sys::Event| {
        let _ = resolve.call0(&JsValue::NULL);
    });
    let t = tx.clone();
    let abort = Closure::once_into_js(move |_: web_sys::Event| {
        let msg = match t.error().map(|e| (e.name(), e.message())) {
            Some((n, _)) if n == "QuotaExceededError" => {
                "the browser's storage for this site is full (QuotaExceededError)".into()
            }
            Some((n, m)) if m.is_empty() => n,
            Some((n, m)) => format!("{n}: {m}"),
            None => "the write was not committed".into(),
        };
        let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&msg));
    });
    tx.set_oncomplete(Some(ok.unchecked_ref()));
    tx.set_onabort(Some(abort.unchecked_ref()));
}

/// Writes raw text under `key` (also used by tests of corrupt entries); Ok once committed.
pub async fn put_text(store_name: &'static str, key: &str, text: &str) -> Result<(), String> {
    committed(enqueue([(store_name, key, text)])).await
}

/// Writes entries (key, JSON text) into several stores in one transaction: all of them are
/// committed, or none. The writes join the current turn's batch when this is called (the
/// caller can go on with other work meanwhile); the future resolves Ok once they are
/// committed. Other writes of the same turn share the transaction, and its outcome.
pub fn put_all(
    writes: &[(&'static str, &[(String, String)])],
) -> impl std::future::Future<Output = Result<(), String>> {
    committed(enqueue(writes.iter().flat_map(|(name, entries)| {
        entries.iter().map(|(k, t)| (*name, k.as_str(), t.as_str()))
    })))
}

/// Ok once the batch of `batched` committed.
async fn committed(batched: Result<Option<js_sys::Promise>, String>) -> Result<(), String> {
    match batched? {
        Some(done) => JsFuture::from(done)
            .await
            .map(|_| ())
            .map_err(|e| err_text(&e)),
        None => Ok(()),
    }
}

/// Adds `writes` (store, key, text) to the current turn's batch, opening one (and queueing
/// its [`flush`]) if there is none; the promise of the batch's commit, `None` when there is
/// nothing to write.
fn enqueue<'a>(
    writes: impl IntoIterator<Item = (&'static str, &'a str, &'a str)>,
) -> Result<Option<js_sys::Promise>, String> {
    let mut writes = writes.into_iter().peekable();
    if writes.peek().is_none() {
        return Ok(None);
    }
    if !available() {
        return Err("storage is not available".into());
    }
    BATCH.with(|b| {
        let mut b = b.borrow_mut();
        let mut batch = match b.take() {
            Some(batch) => batch,
            None => Batch::open()?,
        };
        batch.writes.extend(
            writes.map(|(name, key, text)| (name, JsValue::from_str(key), JsValue::from_str(text))),
        );
        let done = batch.done.clone();
        *b = Some(batch);
        Ok(Some(done))
    })
}

impl Batch {
    /// An empty batch whose [`flush`] is queued for the end of the current turn.
    fn open() -> Result<Batch, String> {
        let window = web_sys::window().ok_or("storage is not available")?;
        let (mut resolve, mut reject) = (None, None);
        let done = js_sys::Promise::new(&mut |res, rej| {
            resolve = Some(res);
            reject = Some(rej);
        });
        // The executor runs at once, so both are set.
        let (Some(resolve), Some(reject)) = (resolve, reject) else {
            return Err("storage is not available".into());
        };
        window.queue_microtask(Closure::once_into_js(flush).unchecked_ref());
        Ok(Batch {
            writes: Vec::new(),
            done,
            resolve,
            reject,
        })
    }
}

/// Issues the current turn's batch in one transaction over the stores it writes.
fn flush() {
    let Some(batch) = BATCH.with(|b| b.borrow_mut().take()) else {
        return;
    };
    let fail = |msg: String| {
        let _ = batch.reject.call1(&JsValue::NULL, &JsValue::from_str(&msg));
    };
    let Some(db) = DB.with(|d| d.borrow().clone()) else {
        return fail("storage is not available".into());
    };
    let names = js_sys::Array::new();
    let mut seen: Vec<&str> = Vec::new();
    for (name, _, _) in &batch.writes {
        if !seen.contains(name) {
            seen.push(name);
            names.push(&JsValue::from_str(name));
        }
    }
    let tx = match db.transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite)
    {
        Ok(tx) => tx,
        Err(e) => return fail(err_text(&e)),
    };
    on_commit(&tx, batch.resolve.clone(), batch.reject.clone());
    for (name, key, text) in &batch.writes {
        let put = tx
            .object_store(name)
            .and_then(|s| s.put_with_key(text, key));
        if let Err(e) = put {
            // Nothing of the batch is kept: the abort rejects every writer with the reason.
            let _ = tx.abort();
            return fail(err_text(&e));
        }
    }
}

/// The entries of `keys` that parse (absent and damaged ones are left out).
pub async fn get_many<T: DeserializeOwned>(
    store_name: &str,
    keys: &[String],
) -> Result<Vec<T>, String> {
    let texts = texts_of(store_name, keys).await?;
    Ok(texts
        .into_iter()
        .filter_map(|t| parse::<T>(t).ok())
        .collect())
}

/// The texts stored under `keys` (`None` where there is none or it is not text).
pub async fn texts_of(store_name: &str, keys: &[String]) -> Result<Vec<Option<String>>, String> {
    let s = store(store_name, IdbTransactionMode::Readonly)?;
    let requests: Vec<IdbRequest> = keys
        .iter()
        .filter_map(|k| s.get(&JsValue::from_str(k)).ok())
        .collect();
    let mut out = Vec::with_capacity(requests.len());
    for r in &requests {
        out.push(done(r).await?.as_string());
    }
    Ok(out)
}

/// The texts of the entries whose key is `from` or after, in key order.
pub async fn texts_from(store_name: &str, from: &str) -> Result<Vec<Option<String>>, String> {
    let s = store(store_name, IdbTransactionMode::Readonly)?;
    let range =
        web_sys::IdbKeyRange::lower_bound(&JsValue::from_str(from)).map_err(|e| err_text(&e))?;
    let req = s.get_all_with_key(&range).map_err(|e| err_text(&e))?;
    let arr: js_sys::Array = done(&req).await?.unchecked_into();
    Ok(arr.iter().map(|v| v.as_string()).collect())
}

/// One stored entry's text as a `T`: the only place entries are parsed (one copy of each
/// type's parser in the wasm, whatever reads it).
fn parse<T: DeserializeOwned>(text: Option<String>) -> Result<T, String> {
    let text = text.ok_or("not text")?;
    serde_json::from_str::<T>(&text).map_err(|e| e.to_string())
}

/// The settings as last saved by any tab (localStorage is shared), if readable.
pub fn stored_settings() -> Option<crate::model::Settings> {
    parse(local_get(SETTINGS_KEY)).ok()
}

/// The settings as last saved by any tab: `Ok(None)` when none are stored, `Err` when a
/// stored value cannot be read (the money machine then decides nothing: a tab's own copy
/// never stands in for the shared cap).
pub fn stored_settings_strict() -> Result<Option<crate::model::Settings>, String> {
    match local_get(SETTINGS_KEY) {
        None => Ok(None),
        text => parse(text).map(Some),
    }
}

/// Deletes one entry.
pub async fn delete(store_name: &str, key: &str) -> Result<(), String> {
    let s = store(store_name, IdbTransactionMode::Readwrite)?;
    let req = s
        .delete(&JsValue::from_str(key))
        .map_err(|e| err_text(&e))?;
    done(&req).await.map(|_| ())
}

/// Deletes every entry of a store.
pub async fn clear(store_name: &str) -> Result<(), String> {
    let s = store(store_name, IdbTransactionMode::Readwrite)?;
    let req = s.clear().map_err(|e| err_text(&e))?;
    done(&req).await.map(|_| ())
}

/// Reads one entry; `Ok(None)` when absent, `Err` when unreadable.
pub async fn get<T: DeserializeOwned>(store_name: &str, key: &str) -> Result<Option<T>, String> {
    let s = store(store_name, IdbTransactionMode::Readonly)?;
    let req = s.get(&JsValue::from_str(key)).map_err(|e| err_text(&e))?;
    let v = done(&req).await?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let text = v.as_string().ok_or("the stored entry is not text")?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("the stored entry is damaged ({e})"))
}

/// Every key of a store.
pub async fn keys(store_name: &str) -> Result<Vec<String>, String> {
    let s = store(store_name, IdbTransactionMode::Readonly)?;
    let req = s.get_all_keys().map_err(|e| err_text(&e))?;
    let arr: js_sys::Array = done(&req).await?.unchecked_into();
    Ok(arr.iter().filter_map(|k| k.as_string()).collect())
}

/// What a store's entries are read as: a JSON type, or a type with its own text form.
pub trait Stored: Sized {
    /// The entry from its stored text.
    fn from_text(text: Option<String>) -> Result<Self, String>;
}

impl<T: DeserializeOwned> Stored for T {
    fn from_text(text: Option<String>) -> Result<T, String> {
        parse(text)
    }
}

/// Every entry of a store that parses, in key order; the others are skipped with a
/// message each.
pub async fn load_all<T: Stored>(store_name: &str, what: &str) -> Result<Loaded<T>, String> {
    let s = store(store_name, IdbTransactionMode::Readonly)?;
    let keys_req = s.get_all_keys().map_err(|e| err_text(&e))?;
    let vals_req = s.get_all().map_err(|e| err_text(&e))?;
    let keys: js_sys::Array = done(&keys_req).await?.unchecked_into();
    let vals: js_sys::Array = done(&vals_req).await?.unchecked_into();
    let mut out = Loaded {
        items: Vec::new(),
        skipped: Vec::new(),
    };
    for (i, v) in vals.iter().enumerate() {
        let key = keys
            .get(i as u32)
            .as_string()
            .unwrap_or_else(|| format!("#{i}"));
        let shown: String = key.chars().take(60).collect();
        match T::from_text(v.as_string()) {
            Ok(item) => out.items.push(item),
            Err(e) => out
                .skipped
                .push(format!("Skipped a damaged {what} (\"{shown}\"): {e}")),
        }
    }
    Ok(out)
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads a localStorage item.
pub fn local_get(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

/// Writes a localStorage item (ignored when storage is unavailable or full).
pub fn local_set(key: &str, value: &str) {
    let _ = local_try_set(key, value);
}

/// Writes a localStorage item; Err with the reason (e.g. the quota is exceeded), which never
/// holds the value.
pub fn local_try_set(key: &str, value: &str) -> Result<(), String> {
    local()
        .ok_or("browser storage is unavailable")?
        .set_item(key, value)
        .map_err(|e| err_text(&e))
}

/// Removes a localStorage item.
pub fn local_remove(key: &str) {
    if let Some(s) = local() {
        let _ = s.remove_item(key);
    }
}
