//! The `fetch` transport (wasm32): browsers, workers and Node 20 (it calls
//! `globalThis.fetch`, so no `window` is needed).
//!
//! The key is in the body, so the request never follows a redirect (`redirect: "manual"`: a
//! 307/308 would resend the body to another place). A redirect is passed on as the answer it
//! is (the request reached a server): Node gives its 3xx, a browser an `opaqueredirect` of
//! status 0; the client makes either a `redirect` error, not retried (`"error"` would reject
//! like a failed connection, which a browser cannot tell apart). It sends no referrer, no cookies or other
//! credentials, and skips the HTTP cache. The body is read from the stream into wasm chunk by
//! chunk, stopping at `max_body_bytes`; a failure while reading it after the head arrived is
//! [`TransportError::BodyLost`] (a 2xx was charged).
//!
//! A rejected `fetch` is [`TransportError::Network`] (the request may have left: a browser
//! says "Failed to fetch" for a refusal, a reset and a CORS failure after the preflight
//! alike) unless Node's undici names a refusal or an unknown host in the error's `code` or
//! its `cause.code` ([`TransportError::NotSent`], retried). A throw before `fetch` returned a
//! promise is also `NotSent`. [`FetchWith`] sends the same way through a given `fetch` (the
//! JS package's `fetch` option) and keeps what a failed one threw, for the error's `cause`.

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::transport::{
    HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError, COST, POSSIBLY_CHARGED,
};

/// Sends requests with the global `fetch`. Dropping the future aborts the request.
#[derive(Clone, Copy, Debug, Default)]
pub struct FetchTransport;

/// Sends requests with a given `fetch` function (the JS package's `fetch` option: a fetch
/// with an undici dispatcher or a proxy, a test double), or the global one when `None`, and
/// keeps what the last rejected (or throwing) `fetch` gave: the JS package hands it over as its
/// error's `cause`. Otherwise as [`FetchTransport`].
#[derive(Debug, Default)]
pub struct FetchWith {
    /// The function, called as `fetch(url, init)` (`None`: `globalThis.fetch`).
    pub fetch: Option<Function>,
    /// What the last failed `fetch` threw or rejected with.
    pub rejection: RefCell<Option<JsValue>>,
}

/// Aborts the fetch when dropped before it completed (timeout, cancel, drop).
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

/// The message of a thrown value, with its `cause`'s (Node's `fetch failed` says why only
/// there, e.g. `unexpected redirect`).
fn js_message(thrown: &JsValue) -> String {
    let message = |value: &JsValue| {
        value
            .dyn_ref::<js_sys::Error>()
            .map(|error| String::from(error.message()))
            .or_else(|| value.as_string())
    };
    let mut text = message(thrown).unwrap_or_else(|| "fetch failed".into());
    let cause = Reflect::get(thrown, &"cause".into()).ok();
    if let Some(cause) = cause.as_ref().and_then(message) {
        text = format!("{text} ({cause})");
    }
    text
}

/// The `code` of a thrown value, if it is a string (Node's `err.code`, `err.cause.code`).
fn js_code(value: &JsValue) -> Option<String> {
    Reflect::get(value, &"code".into()).ok()?.as_string()
}

/// A rejection of `fetch`: not sent only when Node says the connection was refused or the
/// host not found; anything else may have left ([`TransportError::of_rejection`]).
fn rejection(thrown: &JsValue) -> TransportError {
    let own = js_code(thrown);
    let cause = Reflect::get(thrown, &"cause".into())
        .ok()
        .filter(|c| c.is_object());
    let message = js_message(thrown);
    let cause = cause.and_then(|c| js_code(&c));
    TransportError::of_rejection(message, &[own.as_deref(), cause.as_deref()])
}

impl Transport for FetchTransport {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(post(None, None, request))
    }
}

impl Transport for FetchWith {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(post(self.fetch.as_ref(), Some(&self.rejection), request))
    }
}

/// One request through `fetch` (the global one when `None`); a failed `fetch`'s value is kept
/// in `rejection` when there is one.
async fn post(
    fetch: Option<&Function>,
    rejection_slot: Option<&RefCell<Option<JsValue>>>,
    request: HttpRequest,
) -> Result<HttpResponse, TransportError> {
    let keep = |thrown: &JsValue| {
        if let Some(slot) = rejection_slot {
            *slot.borrow_mut() = Some(thrown.clone());
        }
    };
    // Failures before `fetch` has the request: nothing left.
    let controller = web_sys::AbortController::new()
        .map_err(|error| TransportError::NotSent(js_message(&error)))?;
    let mut guard = AbortOnDrop(Some(controller.clone()));

    let headers = Object::new();
    let set = |object: &Object, key: &str, value: &JsValue| {
        let _ = Reflect::set(object, &JsValue::from_str(key), value);
    };
    set(&headers, "content-type", &"application/json".into());
    for (name, value) in &request.headers {
        set(&headers, name, &JsValue::from_str(value));
    }
    let init = Object::new();
    set(&init, "method", &"POST".into());
    set(&init, "headers", &headers);
    set(&init, "body", &JsValue::from_str(&request.body));
    set(&init, "signal", &controller.signal());
    set(&init, "redirect", &"manual".into());
    set(&init, "referrerPolicy", &"no-referrer".into());
    set(&init, "credentials", &"omit".into());
    set(&init, "cache", &"no-store".into());

    let global = js_sys::global();
    let fetch = match fetch {
        Some(fetch) => fetch.clone(),
        None => Reflect::get(&global, &"fetch".into())
            .ok()
            .and_then(|fetch| fetch.dyn_into::<js_sys::Function>().ok())
            .ok_or_else(|| TransportError::NotSent("no global fetch".into()))?,
    };
    // A synchronous throw (a bad URL, a bad header) happens before anything is sent.
    let promise = fetch
        .call2(&global, &JsValue::from_str(&request.url), &init)
        .map_err(|error| {
            keep(&error);
            TransportError::NotSent(js_message(&error))
        })?;
    // `Promise.resolve` of what it returned: an injected fetch may return a thenable.
    let response = JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(|error| {
            keep(&error);
            rejection(&error)
        })?;
    let response: web_sys::Response = response.unchecked_into();

    let status = response.status();
    let mut headers = Vec::new();
    // A team server's stated costs only with the journal (the app): the JS package, built
    // without it, stays within its size budget and counts estimates.
    let names: &[&str] = if cfg!(feature = "journal") {
        &[
            "retry-after",
            "content-type",
            "content-length",
            COST,
            POSSIBLY_CHARGED,
        ]
    } else {
        &["retry-after", "content-type", "content-length"]
    };
    for &name in names {
        if let Ok(Some(value)) = response.headers().get(name) {
            headers.push((name.to_string(), value));
        }
    }
    let declared = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok());
    if declared.is_some_and(|length| length > request.max_body_bytes) {
        return Err(TransportError::BodyTooLarge {
            limit: request.max_body_bytes,
            status,
        });
    }
    let lost = |error: JsValue| TransportError::BodyLost {
        status,
        message: js_message(&error),
    };
    let too_large = TransportError::BodyTooLarge {
        limit: request.max_body_bytes,
        status,
    };
    // The stream's chunks appended to one Vec by `Uint8Array.set` into wasm memory (a
    // memcpy per chunk), stopping at the limit instead of buffering first.
    let mut body: Vec<u8> = Vec::new();
    if let Some(length) = declared {
        let _ = body.try_reserve_exact(length);
    }
    if let Some(stream) = response.body() {
        let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
        loop {
            let step = JsFuture::from(reader.read()).await.map_err(lost)?;
            let done = Reflect::get(&step, &"done".into()).map_err(lost)?;
            if done.as_bool() != Some(false) {
                break;
            }
            let value = Reflect::get(&step, &"value".into()).map_err(lost)?;
            let Some(chunk) = value.dyn_ref::<js_sys::Uint8Array>() else {
                return Err(lost(
                    "the body stream gave something other than bytes".into(),
                ));
            };
            let len = chunk.length() as usize;
            let have = body.len();
            if len > request.max_body_bytes.saturating_sub(have) {
                let _ = reader.cancel();
                return Err(too_large);
            }
            if body.try_reserve(len).is_err() {
                let _ = reader.cancel();
                return Err(lost("out of memory for the body".into()));
            }
            // SAFETY: the view covers `len` bytes of the vector's spare capacity and
            // is used by the one `set` call before anything can allocate (and so move
            // or grow wasm memory); `set` fills all `len` bytes.
            unsafe {
                js_sys::Uint8Array::view_mut_raw(body.as_mut_ptr().add(have), len).set(chunk, 0);
                body.set_len(have + len);
            }
        }
    }
    guard.0 = None;
    // As `text()` does: UTF-8, invalid sequences replaced.
    let body = match String::from_utf8(body) {
        Ok(s) => s,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}
