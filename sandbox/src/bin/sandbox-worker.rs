//! The demo sandbox as a Web Worker. Trunk builds it from `index.html`
//! (`data-type="worker"`, feature `worker`) next to the app, which starts it on the first demo
//! call. The protocol is in `sandbox::worker`.

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;

    use js_sys::Reflect;
    use sandbox::worker::{to_json, Reply, WorkerState};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// Posts `{ meta, body }`, the body's bytes transferred.
    fn post(scope: &DedicatedWorkerGlobalScope, meta: &str, body: &[u8]) {
        let msg = js_sys::Object::new();
        let bytes = js_sys::Uint8Array::from(body);
        let _ = Reflect::set(&msg, &"meta".into(), &meta.into());
        let _ = Reflect::set(&msg, &"body".into(), &bytes);
        let _ = scope.post_message_with_transfer(&msg, &js_sys::Array::of1(&bytes.buffer()));
    }

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state = RefCell::new(WorkerState::default());
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let data = e.data();
        let field = |name: &str| {
            Reflect::get(&data, &name.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let (meta, body) = state.borrow_mut().answer(&field("meta"), field("body"));
        post(&reply_to, &meta, body.as_bytes());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &to_json(&Reply::ready()), &[]);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("sandbox-worker runs in a browser: Trunk builds it for wasm32 (see index.html)");
    std::process::exit(2);
}
