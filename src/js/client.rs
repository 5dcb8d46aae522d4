//! The `Client` class's calls (wasm only): one call, a chunked bulk job, and the sends of
//! planned calls (their plan and merge are in [`super::records`]). The class and its
//! exported methods are in [`super::exports`].

use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::args::parse_request;
use super::errors::{client_error, PackageError};
use super::exports::JsClient;
use super::options::{bulk_options, cancel_from, AbortLink, ClientOptions};
use super::records::Sent;
use super::replies::{json_value, money, report_value, set, to_json};
use crate::client::fetch::FetchWith;
use crate::client::{BulkProgress, BulkReport, Client as CoreClient, Error, ValidationMode};
use crate::money::Usd;
use crate::ops::{Operation, Request};
use crate::validate::Report;

/// A request ready to send, with the call's abort signal.
type Prepared = Result<(Request, Option<AbortLink>), JsValue>;

impl JsClient {
    /// `new Client(options)`, from the compact form client_options.js makes of them.
    pub(super) fn from_options(compact: &JsValue) -> Result<JsClient, JsValue> {
        let config = ClientOptions::from_compact(compact)
            .into_config()
            .map_err(PackageError::invalid_argument)?;
        Ok(JsClient {
            // Calls go through a transport of their own (`for_call`); this one is never used.
            inner: CoreClient::new(config, Rc::new(FetchWith::default())),
            calls: Default::default(),
            fetch: None,
        })
    }

    /// The client of one call (or bulk job): this one's settings and account over a transport
    /// of its own, which keeps the call's last `fetch` rejection for its error's `cause`. A
    /// planned call's validation is judged on the merged answer later.
    fn for_call(&self, planned: bool) -> (CoreClient, Rc<FetchWith>) {
        let base = if planned {
            self.inner.judged_later()
        } else {
            self.inner.clone()
        };
        let transport = Rc::new(FetchWith {
            fetch: self.fetch.clone(),
            rejection: Default::default(),
        });
        let client = base.with_transport(transport.clone());
        (client, transport)
    }

    /// One call of `operation`.
    pub(super) fn call_operation(
        &self,
        operation: Operation,
        request: JsValue,
        options: JsValue,
    ) -> Promise {
        let prepared = parse_request(operation, &request)
            .and_then(|request| Ok((request, cancel_from(&options)?)));
        self.send(prepared, None)
    }

    /// Sends a request: resolves to `{ data, report, charge, attempts }`, or, for a planned
    /// call (`planned`: its id), keeps what was bought for `__merge` (strict validation
    /// judges the merged answer then) and resolves to nothing.
    pub(super) fn send(&self, prepared: Prepared, planned: Option<u32>) -> Promise {
        let (client, transport) = self.for_call(planned.is_some());
        let calls = self.calls.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let (request, abort) = prepared?;
            let cancel = abort.as_ref().map(|link| &link.cancel);
            let reply = client
                .call_raw(&request, cancel)
                .await
                .map_err(|error| error_with_cause(&error, &transport))?;
            if let Some(id) = planned {
                calls.keep(
                    id,
                    Sent {
                        body: reply.body,
                        report: reply.report,
                        charge: reply.charge,
                        possibly_charged: Usd::ZERO,
                        attempts: reply.attempts,
                        stopped: None,
                    },
                );
                return Ok(JsValue::UNDEFINED);
            }
            let value = js_sys::Object::new();
            // The body text: record_client.js makes `data` of it (exact integers).
            set(&value, "data", reply.body.as_str());
            set(
                &value,
                "report",
                reply
                    .report
                    .as_ref()
                    .map(report_value)
                    .unwrap_or(JsValue::NULL),
            );
            set(&value, "charge", money(reply.charge));
            set(&value, "attempts", reply.attempts);
            Ok(value.into())
        })
    }

    /// A chunked bulk job: resolves to its `BulkResult`, or, for a planned call (`planned`:
    /// its id), keeps what was bought for `__merge` and resolves to why the job stopped (its
    /// error with its `cause`, or `undefined`); then `on_chunk`
    /// gets each chunk's new records (`[{ key, json, issues }]`) as the chunk arrives, for
    /// `cache.put`.
    pub(super) fn bulk(
        &self,
        request: Result<Request, JsValue>,
        options: JsValue,
        planned: Option<u32>,
        on_chunk: Option<Function>,
    ) -> Promise {
        let source = self.inner.record_source();
        let (client, transport) = self.for_call(planned.is_some());
        let calls = self.calls.clone();
        let prepared = request.and_then(|request| {
            let Request::SearchVolumeBulk(request) = request else {
                return Err(PackageError::invalid_argument("not a bulk request").into());
            };
            let bulk = bulk_options(&options);
            let on_progress: Option<Function> = if options.is_undefined() || options.is_null() {
                None
            } else {
                Reflect::get(&options, &"onProgress".into())
                    .ok()
                    .and_then(|callback| callback.dyn_into::<Function>().ok())
            };
            Ok::<_, JsValue>((request, bulk, on_progress, cancel_from(&options)?))
        });
        wasm_bindgen_futures::future_to_promise(async move {
            let (request, bulk, on_progress, abort) = prepared?;
            let progress = |progress: BulkProgress| {
                if let Some(callback) = &on_progress {
                    let value = js_sys::Object::new();
                    set(&value, "doneChunks", progress.done_chunks as f64);
                    set(&value, "totalChunks", progress.total_chunks as f64);
                    set(&value, "doneKeywords", progress.done_keywords as f64);
                    set(&value, "totalKeywords", progress.total_keywords as f64);
                    set(&value, "charge", money(progress.charge));
                    let _ = callback.call1(&JsValue::NULL, &value);
                }
            };
            let chunk = |keywords: &[String], body: &str, report: Option<&Report>| {
                let (Some(id), Some(callback)) = (planned, &on_chunk) else {
                    return;
                };
                if let Some(text) = calls.chunk_entries(id, &source, keywords, body, report) {
                    let _ = callback.call1(&JsValue::NULL, &json_value(&text));
                }
            };
            let cancel = abort.as_ref().map(|link| &link.cancel);
            let result = client
                .search_volume_bulk_chunked_raw_each(
                    &request.keywords,
                    &request.ccode,
                    bulk,
                    progress,
                    chunk,
                    cancel,
                )
                .await;
            if let Some(id) = planned {
                // Why the job stopped, as a `SerpkitError` with its `cause`: the merge makes
                // the error again from `stopped`, and only this call's transport knows the
                // `fetch` rejection.
                let stop = result.stopped.as_ref().map_or(JsValue::UNDEFINED, |error| {
                    error_with_cause(error, &transport)
                });
                let validated = client.config().validation != ValidationMode::Off;
                calls.keep(
                    id,
                    Sent {
                        report: validated.then(|| BulkReport::join(&result.reports)),
                        body: result.records,
                        charge: result.charge,
                        possibly_charged: result.possibly_charged,
                        attempts: 0,
                        stopped: result.stopped,
                    },
                );
                return Ok(stop);
            }
            let value = js_sys::Object::new();
            // The records as the service wrote them, like `data` of a single call: the text,
            // which record_client.js makes `data` of (exact integers).
            set(&value, "data", result.records.as_str());
            set(&value, "missing", json_value(&to_json(&result.missing)));
            set(&value, "charge", money(result.charge));
            set(&value, "possiblyCharged", money(result.possibly_charged));
            set(
                &value,
                "error",
                result
                    .stopped
                    .as_ref()
                    .map(|error| error_with_cause(error, &transport))
                    .unwrap_or(JsValue::NULL),
            );
            Ok(value.into())
        })
    }
}

/// A client error as a `SerpkitError`; a network failure (`network`, `connection_lost`) gets
/// the `cause` the call's last failed `fetch` gave (Node's `TypeError: fetch failed` with its
/// own `cause`, a test double's error), as the platform's errors keep theirs.
fn error_with_cause(error: &Error, transport: &FetchWith) -> JsValue {
    let value = client_error(error);
    if matches!(error, Error::Network(_) | Error::ConnectionLost { .. }) {
        if let Some(cause) = transport.rejection.borrow().as_ref() {
            let _ = Reflect::set(&value, &"cause".into(), cause);
        }
    }
    value
}
