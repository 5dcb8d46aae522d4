//! Every tab of the browser profile shares one workspace: the browser's own primitives tie
//! them together. Web Locks (`navigator.locks`) make reserving and budget checks atomic
//! across tabs, and tell whether a tab is still open (each holds a lock named after itself
//! for its whole life; a closed or reloaded tab releases it). A `BroadcastChannel` tells the
//! other tabs what changed, after it is committed; they re-read it from IndexedDB.
//!
//! Where a browser lacks Web Locks, locks are skipped and every other tab counts as gone,
//! so its unsettled requests are counted as possibly charged (more, never less).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The lock every write-ahead (budget check, reservation) takes.
pub const JOURNAL_LOCK: &str = "serpkit-journal";
/// Prefix of the lock each open tab holds.
const TAB_LOCK: &str = "serpkit-tab:";
/// The channel's name.
const CHANNEL: &str = "serpkit";

thread_local! {
    // Numbers, set on first use: a `String` here would need a lazily built thread-local and
    // its destructor (std's thread machinery in the first load).
    static TAB: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    static SEQ: RefCell<u64> = const { RefCell::new(0) };
    static BUS: RefCell<Option<web_sys::BroadcastChannel>> = const { RefCell::new(None) };
}

/// This tab's id (new on every load).
pub fn tab_id() -> String {
    let (time, random) = TAB.with(|t| {
        if t.get() == (0, 0) {
            t.set((
                js_sys::Date::now() as u64,
                (js_sys::Math::random() * 1e12) as u64 | 1,
            ));
        }
        t.get()
    });
    format!("{time:x}{random:x}")
}

/// A new id, unique across tabs: the tab's id and a counter.
pub fn next_id() -> String {
    let n = SEQ.with(|s| {
        let mut s = s.borrow_mut();
        *s += 1;
        *s
    });
    format!("{}-{n}", tab_id())
}

fn locks() -> Option<JsValue> {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let locks = Reflect::get(&navigator, &"locks".into()).ok()?;
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// True when this page has Web Locks (a secure origin: https or localhost). Without them the
/// tabs cannot agree, so no live call is sent (the money state machine's rule).
pub fn has_locks() -> bool {
    locks().is_some()
}

fn method(target: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(target, &name.into()).ok()?.dyn_into().ok()
}

/// Holds this tab's own lock until the tab goes away (call once, at start).
pub fn hold_tab_lock() {
    let Some((locks, request)) = locks().and_then(|l| Some((l.clone(), method(&l, "request")?)))
    else {
        return;
    };
    // A promise that never settles: the lock is released when the tab closes or reloads.
    let forever = Closure::<dyn FnMut(JsValue) -> Promise>::new(|_| Promise::new(&mut |_, _| {}));
    let _ = request.call2(
        &locks,
        &JsValue::from_str(&format!("{TAB_LOCK}{}", tab_id())),
        forever.as_ref(),
    );
    forever.forget();
}

/// The ids of the tabs open now (their locks are held); `Ok(None)` without Web Locks, `Err`
/// when the browser could not say (never "none open": that would sweep live tabs).
pub async fn open_tabs() -> Result<Option<HashSet<String>>, JsValue> {
    let Some(locks) = locks() else {
        return Ok(None);
    };
    let query = method(&locks, "query").ok_or_else(|| JsValue::from_str("no locks.query"))?;
    let promise: Promise = query.call0(&locks)?.dyn_into()?;
    let snapshot = JsFuture::from(promise).await?;
    let held: Array = Reflect::get(&snapshot, &"held".into())?.dyn_into()?;
    Ok(Some(
        held.iter()
            .filter_map(|l| Reflect::get(&l, &"name".into()).ok()?.as_string())
            .filter_map(|n| n.strip_prefix(TAB_LOCK).map(str::to_string))
            .collect(),
    ))
}

/// A held lock, released when dropped (also when the future holding it is dropped).
pub struct Held(Option<Function>);

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            let _ = f.call0(&JsValue::NULL);
        }
    }
}

/// Takes the exclusive lock `name` across every tab of the origin, held until the result
/// is dropped. `Err` when the lock request throws or is rejected before it is granted
/// (never a wait that does not end, never work done unlocked: the machine decides what a
/// failed lock means). Without Web Locks nothing is held (`Ok`): the machine knows
/// ([`has_locks`]) and buys nothing live.
pub async fn lock(name: &str) -> Result<Held, JsValue> {
    let Some((locks, request)) = locks().and_then(|l| Some((l.clone(), method(&l, "request")?)))
    else {
        return Ok(Held(None));
    };
    // The callback's promise stays pending while the lock is held; `Held` resolves it.
    let mut release = None;
    let held = Promise::new(&mut |resolve, _| release = Some(resolve));
    let guard = Held(release);
    let mut answer = None;
    let granted = Promise::new(&mut |resolve, reject| answer = Some((resolve, reject)));
    let (grant, refuse) = answer.ok_or_else(|| JsValue::from_str("no promise"))?;
    let callback = Closure::once_into_js(move |_lock: JsValue| -> Promise {
        let _ = grant.call0(&JsValue::NULL);
        held
    });
    let requested = request.call2(&locks, &JsValue::from_str(name), &callback)?;
    // Rejected before the grant (an abort, a security error): the wait ends with it.
    let on_reject = Closure::once_into_js(move |why: JsValue| {
        let _ = refuse.call1(&JsValue::NULL, &why);
    });
    if let Some(catch) = method(&requested, "catch") {
        catch.call1(&requested, &on_reject)?;
    }
    JsFuture::from(granted).await?;
    Ok(guard)
}

fn performance() -> Option<JsValue> {
    Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .filter(|p| !p.is_undefined())
}

/// `performance.now()` (0 where there is none).
pub fn clock() -> f64 {
    performance()
        .and_then(|p| method(&p, "now")?.call0(&p).ok()?.as_f64())
        .unwrap_or(0.0)
}

/// Records `name` from `start` ([`clock`]) to now as a User Timing measure.
pub fn measure(name: &str, start: f64) {
    measure_until(name, start, clock());
}

/// Records `name` from `start` to `end` ([`clock`]) as a User Timing measure.
pub fn measure_until(name: &str, start: f64, end: f64) {
    let Some((p, f)) = performance().and_then(|p| Some((p.clone(), method(&p, "measure")?))) else {
        return;
    };
    let options = js_sys::Object::new();
    let _ = Reflect::set(&options, &"start".into(), &JsValue::from_f64(start));
    let _ = Reflect::set(&options, &"end".into(), &JsValue::from_f64(end));
    let _ = f.call2(&p, &JsValue::from_str(name), &options);
}

fn bus() -> Option<web_sys::BroadcastChannel> {
    BUS.with(|b| {
        let mut b = b.borrow_mut();
        if b.is_none() {
            *b = web_sys::BroadcastChannel::new(CHANNEL).ok();
        }
        b.clone()
    })
}

/// Tells the other tabs what changed (after it is committed). `message` is JSON text.
pub fn post(message: &str) {
    if let Some(b) = bus() {
        let _ = b.post_message(&JsValue::from_str(message));
    }
}

/// Calls `on_message` with every message another tab posts.
pub fn listen(on_message: impl Fn(String) + 'static) {
    let Some(b) = bus() else { return };
    let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if let Some(text) = e.data().as_string() {
            on_message(text);
        }
    });
    b.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
}
