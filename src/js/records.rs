//! Pay once per record in the JS package. The planner and the merge are the core's
//! ([`crate::records`]); JS (`record_client.js`) moves records between the client's record
//! cache and these synchronous steps, and sends the sub-request through the client:
//!
//! 1. `__begin(op, request, options, now)`: checks the request; `null` when the operation is
//!    priced per request, else `{ id, kind, keys }` (a pending call).
//! 2. `__found(id, i, json, boughtAt, imported, issues)`: the records `cache.get` found.
//! 3. `__plan(id, cacheFailed)`: the plan's price and summary, and whether to send.
//! 4. `__send(id, options, chunked)`: buys the missing records, in chunks for
//!    `searchVolumeBulkChunked` (strict validation is judged after the merge).
//! 5. `__merge(id)`: the answer in request order, the records to `cache.put`, the verdict.
//! 6. `__drop(id)`: forgets the pending call (always, in a `finally`).
//!
//! Measured: the same steps as async Rust driving a JS cache through `RecordStore` cost the
//! wasm about 14 kB gzip (future state machines, per-field `Reflect` marshalling).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{client_error, error_value, money_members, parse_op, parse_request, to_json, JsClient};
use crate::client::{Error, ValidationMode};
use crate::money::Usd;
use crate::ops::Request;
use crate::records::{request_keys, Bought, Plan, PlanOptions, StoredRecord};
use crate::validate::{rule_code, Issue, Report, Severity};

/// What a send bought, kept for the merge.
pub(super) struct Sent {
    pub body: String,
    pub report: Option<Report>,
    pub charge: Usd,
    pub possibly_charged: Usd,
    pub attempts: u32,
    pub stopped: Option<Error>,
}

/// A call between `__begin` and `__merge`.
pub(super) struct Pending {
    request: Request,
    options: PlanOptions,
    found: Vec<Option<StoredRecord>>,
    plan: Option<Plan>,
    pub sent: Option<Sent>,
}

/// The pending calls of one client, by id (a slot is `None` once dropped).
pub(super) type Calls = Rc<RefCell<Vec<Option<Pending>>>>;

fn no_call() -> JsValue {
    error_value("invalid_argument", "no such record call", |_| {})
}

impl JsClient {
    fn with_call<R>(&self, id: u32, f: impl FnOnce(&mut Pending) -> R) -> Result<R, JsValue> {
        let mut calls = self.calls.borrow_mut();
        let call = calls.get_mut(id as usize).and_then(Option::as_mut);
        call.map(f).ok_or_else(no_call)
    }

    /// The request a planned call sends (`None` when nothing is to buy).
    pub(super) fn to_buy(&self, id: u32) -> Result<Option<Request>, JsValue> {
        self.with_call(id, |c| c.plan.as_ref().and_then(|p| p.to_buy.clone()))
    }
}

#[wasm_bindgen(js_class = Client)]
impl JsClient {
    /// The record cache given to the constructor (`undefined` without one).
    #[wasm_bindgen(js_name = __cache, skip_typescript)]
    pub fn cache(&self) -> JsValue {
        self.cache.clone().unwrap_or(JsValue::UNDEFINED)
    }

    /// Starts a call that pays once per record (see the module's doc).
    #[wasm_bindgen(js_name = __begin, skip_typescript)]
    pub fn begin(
        &self,
        operation: JsValue,
        request: JsValue,
        options: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let op = parse_op(&operation)?;
        let request = parse_request(op, &request)?;
        request
            .check()
            .map_err(|e| client_error(&Error::InvalidRequest(e)))?;
        // Rejects bad options (or signal) before the cache is read, as a plain call does.
        super::options::cancel_from(&options)?;
        let Some((kind, keys)) = request_keys(&request, &self.inner.record_source()) else {
            return Ok(JsValue::NULL);
        };
        let refresh = options.is_object()
            && js_sys::Reflect::get(&options, &"refresh".into()).is_ok_and(|v| v.is_truthy());
        let mut calls = self.calls.borrow_mut();
        let id = calls
            .iter()
            .position(Option::is_none)
            .unwrap_or(calls.len());
        let call = Pending {
            request,
            options: PlanOptions {
                now_ms,
                max_age_ms: self.max_age_ms,
                refresh,
            },
            found: vec![None; keys.len()],
            plan: None,
            sent: None,
        };
        if id == calls.len() {
            calls.push(Some(call));
        } else {
            calls[id] = Some(call);
        }
        let mut text = format!(r#"{{"id":{id},"kind":"{}","keys":["#, kind.name());
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&to_json(k.as_str()));
        }
        text.push_str("]}");
        Ok(super::json_value(&text))
    }

    /// The stored record the cache found for the call's key `i`; `issues` holds its issues'
    /// fields in a row, four strings each (`path, code, severity, message`). An issue with
    /// an unknown rule code is left out.
    #[wasm_bindgen(js_name = __found, skip_typescript)]
    pub fn found(
        &self,
        id: u32,
        i: u32,
        json: String,
        bought_at_ms: f64,
        imported: bool,
        issues: js_sys::Array,
    ) -> Result<(), JsValue> {
        let text = |k: u32| issues.get(k).as_string().unwrap_or_default();
        let issues = (0..issues.length() / 4)
            .filter_map(|n| {
                let code = rule_code(&text(n * 4 + 1))?;
                Some(Issue {
                    path: text(n * 4),
                    code,
                    severity: if text(n * 4 + 2) == "error" {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    message: text(n * 4 + 3),
                })
            })
            .collect();
        self.with_call(id, |c| {
            if let Some(slot) = c.found.get_mut(i as usize) {
                *slot = Some(StoredRecord {
                    json,
                    bought_at_ms,
                    issues,
                    imported,
                });
            }
        })
    }

    /// Plans the call: `{ usd, micros, display, newRecords, fromCache, summary, send }`.
    /// `cache_failed`: the cache could not be read, so every record is bought.
    #[wasm_bindgen(js_name = __plan, skip_typescript)]
    pub fn plan(&self, id: u32, cache_failed: bool) -> Result<JsValue, JsValue> {
        let source = self.inner.record_source();
        let text = self.with_call(id, |c| {
            let found = if cache_failed {
                Vec::new()
            } else {
                std::mem::take(&mut c.found)
            };
            let plan = Plan::new(&c.request, &source, found, &c.options)?;
            let text = format!(
                r#"{{{},"newRecords":{},"fromCache":{},"summary":{},"send":{}}}"#,
                money_members(plan.estimate),
                plan.new_records(),
                plan.reused(),
                to_json(&plan.summary()),
                plan.to_buy.is_some()
            );
            c.plan = Some(plan);
            Some(text)
        })?;
        text.map(|t| super::json_value(&t)).ok_or_else(no_call)
    }

    /// The answer of a planned call: `{ data, report, fromCache, bought, missing, charge,
    /// possiblyCharged, attempts, entries, error }`. `entries`: `[{ key, json, issues }]`
    /// bought now, for `cache.put`; `error`: why a bulk job stopped, or strict validation's
    /// verdict on the merged answer.
    #[wasm_bindgen(js_name = __merge, skip_typescript)]
    pub fn merge(&self, id: u32) -> Result<JsValue, JsValue> {
        let call = self
            .calls
            .borrow_mut()
            .get_mut(id as usize)
            .and_then(Option::take)
            .ok_or_else(no_call)?;
        let plan = call.plan.as_ref().ok_or_else(no_call)?;
        let mode = self.inner.config().validation;
        let sent = call.sent.as_ref();
        let merged = plan.merge(
            sent.map(|s| Bought {
                body: &s.body,
                report: s.report.as_ref(),
                at_ms: call.options.now_ms,
            }),
            mode != ValidationMode::Off,
        );
        let charge = sent.map_or(Usd::ZERO, |s| s.charge);
        let mut text = format!(
            r#"{{"fromCache":{},"bought":{},"charge":{{{}}},"possiblyCharged":{{{}}},"attempts":{},"report":{},"missing":["#,
            merged.from_store,
            merged.fresh.len(),
            money_members(charge),
            money_members(sent.map_or(Usd::ZERO, |s| s.possibly_charged)),
            sent.map_or(0, |s| s.attempts),
            merged.report.as_ref().map_or("null".into(), to_json),
        );
        if let Request::SearchVolumeBulk(r) = &call.request {
            for (n, &p) in merged.missing.iter().enumerate() {
                if n > 0 {
                    text.push(',');
                }
                text.push_str(&to_json(r.keywords.get(p).map_or("", String::as_str)));
            }
        }
        text.push_str(r#"],"entries":["#);
        for (n, (key, record)) in merged.fresh.iter().enumerate() {
            if n > 0 {
                text.push(',');
            }
            text.push_str(&format!(
                r#"{{"key":{},"json":{},"issues":{}}}"#,
                to_json(key.as_str()),
                to_json(&record.json),
                to_json(&record.issues)
            ));
        }
        text.push_str("]}");
        let out: js_sys::Object = super::json_value(&text).unchecked_into();
        super::set(&out, "data", super::json_value(&merged.body));
        let stopped = sent.and_then(|s| s.stopped.as_ref());
        let verdict = match (mode, &merged.report) {
            (ValidationMode::Strict, Some(r)) if stopped.is_none() && !r.ok() => {
                Some(Error::ContractViolation {
                    report: Box::new(r.clone()),
                    charge,
                })
            }
            _ => None,
        };
        let error = stopped.or(verdict.as_ref());
        super::set(
            &out,
            "error",
            error.map(client_error).unwrap_or(JsValue::NULL),
        );
        Ok(out.into())
    }

    /// Forgets a pending call (nothing when it is gone already).
    #[wasm_bindgen(js_name = __drop, skip_typescript)]
    pub fn drop_call(&self, id: u32) {
        if let Some(slot) = self.calls.borrow_mut().get_mut(id as usize) {
            *slot = None;
        }
    }
}
