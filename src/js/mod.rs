//! The JS package's exports (wasm-bindgen). JSON text crosses the boundary: requests and
//! bodies come in as text (or are `JSON.stringify`-ed once), results go out through
//! `JSON.parse`, which builds JS objects faster than creating them one by one from wasm.
//! The TypeScript types are written by hand in `serpkit.d.ts` (tested against the Rust
//! model by `tests/ts_types.rs`).

mod options;
mod records;
mod text;

use js_sys::{Function, Promise, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::client::{BulkOptions, BulkProgress, BulkReport, Client as CoreClient, Error};
use crate::money::Usd;
use crate::ops::{Operation, Request};
use options::{cancel_from, Options};
use text::text_of;

/// The package's allocator: talc, about 1.9 kB gzip smaller than the standard dlmalloc
/// (measurements in xtask's `pkg`).
#[global_allocator]
// SAFETY: the package runs on one thread (wasm32 without atomics), which is what
// `TalckWasm` (talc's unsynchronised wasm allocator) requires.
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("serpkit.d.ts");

fn parse_op(operation: &JsValue) -> Result<Operation, JsValue> {
    // A `JsValue`, not `&str`: wasm-bindgen's string glue traps (out-of-bounds memory
    // access) on a number, symbol or object passed where a string belongs.
    let Some(name) = operation.as_string() else {
        return Err(error_value(
            "invalid_argument",
            "the operation must be a string such as \"related\" or \"search_volume/bulk\"",
            |_| {},
        ));
    };
    name.parse::<Operation>()
        .map_err(|e| error_value("unknown_operation", &e.to_string(), |_| {}))
}

/// A JS `Error` named `SerpkitError` with a `code` and extra fields set by `extra`.
fn error_value(code: &str, message: &str, extra: impl FnOnce(&js_sys::Object)) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name("SerpkitError");
    let _ = Reflect::set(&e, &"code".into(), &code.into());
    extra(&e);
    e.into()
}

fn set(o: &js_sys::Object, k: &str, v: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from_str(k), &v.into());
}

/// A value as JSON text (a string quoted and escaped, a unit as its name, a report).
fn to_json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn json_value(text: &str) -> JsValue {
    JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// The members `"usd":…,"micros":…,"display":"…"` of a money object, as JSON text. `usd` is
/// written from the exact decimal ([`Usd::decimal`]), so no float is formatted in wasm
/// (core's float printing costs about 20 KB of the package).
fn money_members(usd: Usd) -> String {
    format!(
        r#""usd":{},"micros":{},"display":"{}""#,
        usd.decimal(),
        usd.micros(),
        usd
    )
}

fn money(usd: Usd) -> JsValue {
    json_value(&format!("{{{}}}", money_members(usd)))
}

fn parse_request(operation: Operation, request: &JsValue) -> Result<Request, JsValue> {
    let text = text_of(request, "request")?;
    Request::from_json(operation, &text).map_err(|e| request_error(&e))
}

fn request_error(e: &crate::RequestError) -> JsValue {
    error_value("invalid_request", &format!("invalid request: {e}"), |o| {
        set(o, "field", e.field.as_str());
        set(o, "reason", e.code());
    })
}

/// Converts a client error to a `SerpkitError`.
fn client_error(e: &Error) -> JsValue {
    let msg = e.to_string();
    error_value(e.code(), &msg, |o| {
        set(o, "hint", e.hint());
        set(o, "charge", money(e.charge()));
        set(o, "possiblyCharged", money(e.possible_charge()));
        match e {
            Error::InvalidRequest(r) => {
                set(o, "field", r.field.as_str());
                set(o, "reason", r.code());
            }
            Error::Http {
                status,
                body,
                retry_after,
            } => {
                set(o, "status", *status);
                set(o, "body", body.as_str());
                if let Some(d) = retry_after {
                    set(o, "retryAfterMs", d.as_millis() as f64);
                }
            }
            Error::BudgetExceeded {
                estimate,
                spent,
                budget,
            } => {
                set(o, "estimate", money(*estimate));
                set(o, "spent", money(*spent));
                set(o, "budget", money(*budget));
            }
            Error::NotJson { error, .. } | Error::Decode { error, .. } => {
                set(o, "path", error.path.as_str());
                set(o, "line", error.line as f64);
                set(o, "column", error.column as f64);
            }
            Error::ContractViolation { report, .. } => {
                set(o, "report", report_value(report));
            }
            Error::Timeout { after, .. } => set(o, "timeoutMs", after.as_millis() as f64),
            Error::BodyTooLarge { limit, .. } => set(o, "limit", *limit as f64),
            Error::BodyLost { status, .. } => set(o, "status", *status),
            Error::MissingKey | Error::Aborted { .. } | Error::Network(_) => {}
        }
    })
}

fn report_value(report: &crate::validate::Report) -> JsValue {
    json_value(&to_json(report))
}

/// Validates a response body of `operation`: JSON text, its UTF-8 bytes (`Uint8Array` or
/// `ArrayBuffer`, e.g. from `response.arrayBuffer()`: the fastest way in, as bytes are copied
/// into wasm as they are while a string must be encoded), or an already parsed value. With
/// `request`, also the rules tied to the request. Returns `{ ok, errors, warnings, ... }`.
#[wasm_bindgen(js_name = validateResponse, unchecked_return_type = "ValidationReport")]
pub fn validate_response(
    #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | unknown")]
    body: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "object | string | null")] request: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    let op = parse_op(&operation)?;
    let text = text_of(&body, "body")?;
    let request = match request {
        Some(r) if !r.is_null() && !r.is_undefined() => Some(parse_request(op, &r)?),
        _ => None,
    };
    Ok(report_value(&crate::validate::validate(
        op,
        &text,
        request.as_ref(),
    )))
}

/// The estimated charge of a request: `{ usd, micros, display, units, unit }`. Throws
/// `invalid_request` (with `field`) when the request fails its checks.
#[wasm_bindgen(js_name = estimateCost, unchecked_return_type = "CostEstimate")]
pub fn estimate_cost(
    #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let op = parse_op(&operation)?;
    let req = parse_request(op, &request)?;
    req.check().map_err(|e| request_error(&e))?;
    let usd = crate::estimate_cost(&req);
    Ok(json_value(&format!(
        r#"{{{},"units":{},"unit":{}}}"#,
        money_members(usd),
        req.billable_units(),
        to_json(&op.price().unit)
    )))
}

/// A client of the service over `fetch`.
#[wasm_bindgen(js_name = Client)]
pub struct JsClient {
    inner: CoreClient,
    /// The record cache (`cache` option): records are then paid for once (driven from JS,
    /// `record_client.js`, through the steps in [`records`]).
    cache: Option<JsValue>,
    /// Stored records older than this are bought again (`maxAgeMs`; default no expiry).
    max_age_ms: Option<f64>,
    /// Calls that pay once per record, between their plan and their merge.
    calls: records::Calls,
}

#[wasm_bindgen(js_class = Client)]
impl JsClient {
    /// `new Client({ key, baseUrl?, timeoutMs?, retries?, validation?, budgetUsd?,
    /// maxBodyBytes?, headers? })`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
    ) -> Result<JsClient, JsValue> {
        // JSON.stringify turns NaN and Infinity into null, which would read as "no budget".
        let budget = Reflect::get(&options, &"budgetUsd".into()).unwrap_or(JsValue::UNDEFINED);
        if budget.as_f64().is_some_and(|b| !b.is_finite()) {
            return Err(error_value(
                "invalid_argument",
                "budgetUsd must be a finite amount of dollars",
                |_| {},
            ));
        }
        let mut opts = Options::read(&options).map_err(|e| {
            error_value(
                "invalid_argument",
                &format!("invalid client options: {e}"),
                |_| {},
            )
        })?;
        let cache = opts.cache.take();
        let max_age_ms = opts.max_age_ms.filter(|m| *m >= 0.0);
        let config = opts.into_config()?;
        Ok(JsClient {
            inner: CoreClient::with_fetch(config),
            cache,
            max_age_ms,
            calls: Default::default(),
        })
    }

    /// Any operation by its path (`"related"`, `"search_volume/bulk"`, ...).
    #[wasm_bindgen(unchecked_return_type = "Promise<Reply<unknown>>")]
    pub fn call(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        match parse_op(&operation) {
            Ok(op) => self.call_op(op, request, options.unwrap_or(JsValue::UNDEFINED)),
            Err(e) => Promise::reject(&e),
        }
    }

    fn call_op(&self, op: Operation, request: JsValue, options: JsValue) -> Promise {
        let prepared = parse_request(op, &request).and_then(|r| Ok((r, cancel_from(&options)?)));
        self.send(prepared, None)
    }

    /// Sends a request: resolves to `{ data, report, charge, attempts }`, or, for a planned
    /// call (`planned`: its id), keeps what was bought for `__merge` (strict validation
    /// judges the merged answer then) and resolves to nothing.
    fn send(
        &self,
        prepared: Result<(Request, Option<options::AbortLink>), JsValue>,
        planned: Option<u32>,
    ) -> Promise {
        let client = match planned {
            Some(_) => self.inner.judged_later(),
            None => self.inner.clone(),
        };
        let calls = self.calls.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let (req, cancel) = prepared?;
            let cancel = cancel.as_ref().map(|l| &l.cancel);
            let r = client
                .call_raw(&req, cancel)
                .await
                .map_err(|e| client_error(&e))?;
            if let Some(id) = planned {
                keep(
                    &calls,
                    id,
                    records::Sent {
                        body: r.body,
                        report: r.report,
                        charge: r.charge,
                        possibly_charged: Usd::ZERO,
                        attempts: r.attempts,
                        stopped: None,
                    },
                );
                return Ok(JsValue::UNDEFINED);
            }
            let reply = js_sys::Object::new();
            set(&reply, "data", json_value(&r.body));
            set(
                &reply,
                "report",
                r.report.as_ref().map(report_value).unwrap_or(JsValue::NULL),
            );
            set(&reply, "charge", money(r.charge));
            set(&reply, "attempts", r.attempts);
            Ok(reply.into())
        })
    }

    /// Buys what a planned call lacks (see [`records`]): in chunks for
    /// `searchVolumeBulkChunked` (`chunked`), else in one call.
    #[wasm_bindgen(js_name = __send, skip_typescript)]
    pub fn send_planned(&self, id: u32, options: JsValue, chunked: bool) -> Promise {
        let request = self.to_buy(id).and_then(|r| {
            r.ok_or_else(|| error_value("invalid_argument", "nothing to buy", |_| {}))
        });
        if chunked {
            return self.bulk(request, options, Some(id));
        }
        let prepared = request.and_then(|r| Ok((r, cancel_from(&options)?)));
        self.send(prepared, Some(id))
    }

    /// `search_volume/bulk` over any number of keywords, in chunks with bounded concurrency:
    /// resolves to `{ data, missing, charge, possiblyCharged, error }` (never rejects after the
    /// start: what was bought is kept; `error` says why it stopped early). The signal stops
    /// starting new chunks; chunks already sent finish and keep what they bought.
    #[wasm_bindgen(js_name = searchVolumeBulkChunked, unchecked_return_type = "Promise<BulkResult>")]
    pub fn search_volume_bulk_chunked(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchVolumeBulkRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "BulkOptions")] options: Option<JsValue>,
    ) -> Promise {
        let request = parse_request(Operation::SearchVolumeBulk, &request);
        self.bulk(request, options.unwrap_or(JsValue::UNDEFINED), None)
    }

    /// A chunked bulk job: resolves to its `BulkResult`, or, for a planned call (`planned`:
    /// its id), keeps what was bought for `__merge` and resolves to nothing.
    fn bulk(
        &self,
        request: Result<Request, JsValue>,
        options: JsValue,
        planned: Option<u32>,
    ) -> Promise {
        let client = match planned {
            Some(_) => self.inner.judged_later(),
            None => self.inner.clone(),
        };
        let calls = self.calls.clone();
        let prepared = request.and_then(|request| {
            let Request::SearchVolumeBulk(req) = request else {
                return Err(error_value(
                    "invalid_argument",
                    "not a bulk request",
                    |_| {},
                ));
            };
            let mut bulk = BulkOptions::default();
            let mut on_progress: Option<Function> = None;
            if !options.is_undefined() && !options.is_null() {
                let num = |k: &str| {
                    Reflect::get(&options, &k.into())
                        .ok()
                        .and_then(|v| v.as_f64())
                };
                if let Some(n) = num("chunkSize") {
                    bulk.chunk_size = n.max(1.0) as usize;
                }
                if let Some(n) = num("concurrency") {
                    bulk.concurrency = n.max(1.0) as usize;
                }
                on_progress = Reflect::get(&options, &"onProgress".into())
                    .ok()
                    .and_then(|f| f.dyn_into::<Function>().ok());
            }
            Ok::<_, JsValue>((req, bulk, on_progress, cancel_from(&options)?))
        });
        wasm_bindgen_futures::future_to_promise(async move {
            let (req, bulk, on_progress, cancel) = prepared?;
            let progress = |p: BulkProgress| {
                if let Some(f) = &on_progress {
                    let o = js_sys::Object::new();
                    set(&o, "doneChunks", p.done_chunks as f64);
                    set(&o, "totalChunks", p.total_chunks as f64);
                    set(&o, "doneKeywords", p.done_keywords as f64);
                    set(&o, "totalKeywords", p.total_keywords as f64);
                    set(&o, "charge", money(p.charge));
                    let _ = f.call1(&JsValue::NULL, &o);
                }
            };
            let cancel = cancel.as_ref().map(|l| &l.cancel);
            let r = client
                .search_volume_bulk_chunked_raw(&req.keywords, &req.ccode, bulk, progress, cancel)
                .await;
            if let Some(id) = planned {
                let validated = client.config().validation != crate::client::ValidationMode::Off;
                keep(
                    &calls,
                    id,
                    records::Sent {
                        report: validated.then(|| BulkReport::join(&r.reports)),
                        body: r.records,
                        charge: r.charge,
                        possibly_charged: r.possibly_charged,
                        attempts: 0,
                        stopped: r.stopped,
                    },
                );
                return Ok(JsValue::UNDEFINED);
            }
            let result = js_sys::Object::new();
            // The records as the service wrote them, like `data` of a single call.
            set(&result, "data", json_value(&r.records));
            set(&result, "missing", json_value(&to_json(&r.missing)));
            set(&result, "charge", money(r.charge));
            set(&result, "possiblyCharged", money(r.possibly_charged));
            set(
                &result,
                "error",
                r.stopped
                    .as_ref()
                    .map(client_error)
                    .unwrap_or(JsValue::NULL),
            );
            Ok(result.into())
        })
    }

    /// Total charged so far by this client (confirmed): `{ usd, micros, display }`.
    #[wasm_bindgen(getter, unchecked_return_type = "Money")]
    pub fn spent(&self) -> JsValue {
        money(self.inner.spent())
    }

    /// Estimates of calls sent whose outcome is unknown (timed out or aborted after sending):
    /// the service may have charged them. They count against `budgetUsd`.
    #[wasm_bindgen(getter, js_name = possiblyCharged, unchecked_return_type = "Money")]
    pub fn possibly_charged(&self) -> JsValue {
        money(self.inner.possibly_charged())
    }

    /// What is left of the budget after what was spent and possibly charged, or `null`
    /// without one.
    #[wasm_bindgen(getter, unchecked_return_type = "Money | null")]
    pub fn remaining(&self) -> JsValue {
        self.inner.remaining().map(money).unwrap_or(JsValue::NULL)
    }
}

/// Keeps what a planned call bought for its merge (nothing when the call was dropped).
fn keep(calls: &records::Calls, id: u32, sent: records::Sent) {
    if let Some(Some(call)) = calls.borrow_mut().get_mut(id as usize) {
        call.sent = Some(sent);
    }
}
