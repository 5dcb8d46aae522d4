//! The `fetch` transport (wasm32): browsers, workers and Node 20 (it calls
//! `globalThis.fetch`, so no `window` is needed).

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::transport::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};

/// Sends requests with the global `fetch`. Dropping the future aborts the request.
#[derive(Clone, Copy, Debug, Default)]
pub struct FetchTransport;

/// Aborts the fetch when dropped before it completed (timeout, cancel, drop).
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            c.abort();
        }
    }
}

fn js_message(v: &JsValue) -> String {
    v.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| v.as_string())
        .unwrap_or_else(|| "fetch failed".into())
}

impl Transport for FetchTransport {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let controller = web_sys::AbortController::new()
                .map_err(|e| TransportError::Network(js_message(&e)))?;
            let mut guard = AbortOnDrop(Some(controller.clone()));

            let headers = Object::new();
            let set = |o: &Object, k: &str, v: &JsValue| {
                let _ = Reflect::set(o, &JsValue::from_str(k), v);
            };
            set(&headers, "content-type", &"application/json".into());
            for (k, v) in &request.headers {
                set(&headers, k, &JsValue::from_str(v));
            }
            let init = Object::new();
            set(&init, "method", &"POST".into());
            set(&init, "headers", &headers);
            set(&init, "body", &JsValue::from_str(&request.body));
            set(&init, "signal", &controller.signal());

            let global = js_sys::global();
            let fetch = Reflect::get(&global, &"fetch".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(|| TransportError::Network("no global fetch".into()))?;
            let promise = fetch
                .call2(&global, &JsValue::from_str(&request.url), &init)
                .map_err(|e| TransportError::Network(js_message(&e)))?;
            let resp = JsFuture::from(js_sys::Promise::from(promise))
                .await
                .map_err(|e| TransportError::Network(js_message(&e)))?;
            let resp: web_sys::Response = resp.unchecked_into();

            let status = resp.status();
            let mut headers = Vec::new();
            for name in ["retry-after", "content-type", "content-length"] {
                if let Ok(Some(v)) = resp.headers().get(name) {
                    headers.push((name.to_string(), v));
                }
            }
            let declared = headers
                .iter()
                .find(|(n, _)| n == "content-length")
                .and_then(|(_, v)| v.parse::<usize>().ok());
            if declared.is_some_and(|n| n > request.max_body_bytes) {
                return Err(TransportError::BodyTooLarge {
                    limit: request.max_body_bytes,
                    status,
                });
            }
            // The body as bytes, copied into wasm once: `text()` would decode it to a JS
            // string that wasm-bindgen then re-encodes into wasm, slowly for large bodies.
            let buffer = resp
                .array_buffer()
                .map_err(|e| TransportError::Network(js_message(&e)))?;
            let buffer = JsFuture::from(buffer)
                .await
                .map_err(|e| TransportError::Network(js_message(&e)))?;
            guard.0 = None;
            let bytes = js_sys::Uint8Array::new(&buffer);
            if bytes.length() as usize > request.max_body_bytes {
                return Err(TransportError::BodyTooLarge {
                    limit: request.max_body_bytes,
                    status,
                });
            }
            // As `text()` does: UTF-8, invalid sequences replaced.
            let body = match String::from_utf8(bytes.to_vec()) {
                Ok(s) => s,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            };
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }
}
