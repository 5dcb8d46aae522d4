//! Demo mode's transport: the sandbox in a Web Worker (`sandbox-worker`, which Trunk builds
//! from `index.html`; protocol in [`sandbox::worker`]).
//!
//! The worker is started on the first demo call, so the sandbox (~55 KB of gzipped wasm) is
//! not part of the app's first load, and generating a large body does not block the page.
//! Nothing leaves the browser: the worker is the same sandbox that answered in-page before.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use sandbox::worker::{Call, Reply};
use serpkit::client::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};
use serpkit::Usd;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

/// How every demo-sandbox failure message starts.
const FAILURE: &str = "the demo sandbox";

/// Where Trunk puts the worker's loader (`data-loader-shim`; Trunk does not hash worker names).
const WORKER_URL: &str = "/sandbox-worker_loader.js";

/// A call's message, held until the worker says it is ready.
type Queued = js_sys::Object;

#[derive(Default)]
struct State {
    worker: Option<Worker>,
    ready: bool,
    queue: Vec<Queued>,
    /// Resolve functions of the calls in flight, by id.
    waiting: HashMap<u32, Function>,
    next_id: u32,
    ledger: (Usd, usize),
    /// Keeps the worker's handlers alive.
    handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
}

/// The demo transport (cheap to clone; clones share the worker and its ledger).
#[derive(Clone, Default)]
pub struct DemoTransport(Rc<RefCell<State>>);

impl DemoTransport {
    /// A transport whose worker starts on the first call.
    pub fn new() -> DemoTransport {
        DemoTransport::default()
    }

    /// The demo ledger as of the last answer: total charged and charged calls.
    pub fn ledger(&self) -> (Usd, usize) {
        self.0.borrow().ledger
    }

    /// Starts the worker if it is not running.
    fn start(&self) -> Result<(), TransportError> {
        if self.0.borrow().worker.is_some() {
            return Ok(());
        }
        let worker = Worker::new(WORKER_URL).map_err(|e| start_failed(&e))?;
        let me = self.clone();
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            if let Some(e) = e.dyn_ref::<MessageEvent>() {
                me.on_message(e.data());
            }
        });
        let me = self.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            me.fail_all(&e);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut s = self.0.borrow_mut();
        s.worker = Some(worker);
        s.ready = false;
        s.handlers = vec![on_message, on_error];
        Ok(())
    }

    fn on_message(&self, data: JsValue) {
        let meta = Reflect::get(&data, &"meta".into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        let Ok(reply) = serde_json::from_str::<Reply>(&meta) else {
            return;
        };
        if reply.ready {
            let mut s = self.0.borrow_mut();
            s.ready = true;
            let queue = std::mem::take(&mut s.queue);
            if let Some(w) = &s.worker {
                for msg in queue {
                    let _ = w.post_message(&msg);
                }
            }
            return;
        }
        let resolve = {
            let mut s = self.0.borrow_mut();
            if reply.id != 0 {
                s.ledger = reply.ledger();
            }
            s.waiting.remove(&reply.id)
        };
        if let Some(resolve) = resolve {
            let _ = resolve.call1(&JsValue::NULL, &data);
        }
    }

    /// The worker failed (could not load, or crashed): every call in flight gets a network
    /// error, and the next call starts a new worker.
    fn fail_all(&self, e: &web_sys::Event) {
        let reason = Reflect::get(e, &"message".into())
            .ok()
            .and_then(|v| v.as_string());
        let (message, waiting): (String, Vec<Function>) = {
            let mut s = self.0.borrow_mut();
            let message = match (s.ready, reason) {
                (false, r) => format!(
                    "{FAILURE} could not start: {}",
                    r.unwrap_or_else(|| format!("{WORKER_URL} could not be loaded"))
                ),
                (true, r) => format!(
                    "{FAILURE} stopped: {}",
                    r.unwrap_or_else(|| "it crashed".into())
                ),
            };
            if let Some(w) = s.worker.take() {
                w.terminate();
            }
            s.ready = false;
            s.queue.clear();
            (message, s.waiting.drain().map(|(_, f)| f).collect())
        };
        let failure = js_sys::Object::new();
        let _ = Reflect::set(&failure, &"failed".into(), &message.into());
        for resolve in waiting {
            let _ = resolve.call1(&JsValue::NULL, &failure);
        }
    }

    async fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.start()?;
        let id = {
            let mut s = self.0.borrow_mut();
            s.next_id = s.next_id.wrapping_add(1).max(1);
            s.next_id
        };
        let call = Call::of(id, super::today(), &request);
        let msg = js_sys::Object::new();
        let meta = serde_json::to_string(&call).unwrap_or_default();
        let _ = Reflect::set(&msg, &"meta".into(), &meta.into());
        let _ = Reflect::set(&msg, &"body".into(), &request.body.as_str().into());
        let me = self.clone();
        let answered = Promise::new(&mut |resolve, _reject| {
            let mut s = me.0.borrow_mut();
            s.waiting.insert(id, resolve);
            match (&s.worker, s.ready) {
                (Some(w), true) => {
                    let _ = w.post_message(&msg);
                }
                _ => s.queue.push(msg.clone()),
            }
        });
        let data = JsFuture::from(answered)
            .await
            .map_err(|e| start_failed(&e))?;
        if let Some(m) = Reflect::get(&data, &"failed".into())
            .ok()
            .and_then(|v| v.as_string())
        {
            // The sandbox did not run: nothing was charged.
            return Err(TransportError::NotSent(m));
        }
        let meta = Reflect::get(&data, &"meta".into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        let reply: Reply = serde_json::from_str(&meta)
            .map_err(|e| TransportError::Network(format!("{FAILURE} answered oddly: {e}")))?;
        let bytes = Reflect::get(&data, &"body".into())
            .ok()
            .and_then(|v| v.dyn_into::<Uint8Array>().ok())
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let body = String::from_utf8(bytes).map_err(|_| {
            TransportError::Network(format!("{FAILURE} answered with invalid UTF-8"))
        })?;
        reply.result(body)
    }
}

fn start_failed(e: &JsValue) -> TransportError {
    let what = Reflect::get(e, &"message".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "unknown error".into());
    TransportError::NotSent(format!("{FAILURE} could not start: {what}"))
}

impl Transport for DemoTransport {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(self.call(request))
    }
}
