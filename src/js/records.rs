//! Pay once per record in the JS package. The planner and the merge are the core's
//! ([`crate::records`]); JS (`record_client.js`) moves records between the client's record
//! cache and these synchronous steps (the `Client`'s `__` methods in `exports`), and sends the
//! sub-request through the client:
//!
//! 1. `__begin(operation, request, options, now, maxAgeMs)`: checks the request; `null` when
//!    the operation is priced per request, else `{ id, kind, keys }` (a pending call).
//! 2. `__found(id, i, json, boughtAt, imported, issues)`: the records `cache.get` found.
//! 3. `__plan(id, cacheFailed)`: the plan's price and summary, and whether to send.
//! 4. `__send(id, options, chunked)`: buys the missing records, in chunks for
//!    `searchVolumeBulkChunked` (strict validation is judged after the merge).
//! 5. `__merge(id)`: the answer in request order, the records to `cache.put`, the verdict.
//! 6. `__drop(id)`: forgets the pending call (always, in a `finally`).
//!
//! The steps' logic is here over plain Rust types ([`RecordCalls`]); `exports` converts the
//! JS arguments. Measured: the same steps as async Rust driving a JS cache through
//! `RecordStore` cost the wasm about 14 kB gzip (future state machines, per-field `Reflect`
//! marshalling).

use std::cell::RefCell;
use std::rc::Rc;

use super::errors::PackageError;
use super::replies::{money_members, to_json};
use crate::client::{Error, ValidationMode};
use crate::money::Usd;
use crate::ops::Request;
use crate::records::{request_keys, Bought, Plan, PlanOptions, StoredRecord};
use crate::validate::{rule_code, Issue, Severity};

/// What a send bought, kept for the merge.
pub(crate) struct Sent {
    /// The response body (a bulk job's records joined).
    pub body: String,
    /// Its validation report, when validated.
    pub report: Option<crate::validate::Report>,
    /// What the send was charged.
    pub charge: Usd,
    /// What it may have been charged (a bulk job's chunks that timed out or were aborted).
    pub possibly_charged: Usd,
    /// Attempts of a single call (0 for a bulk job).
    pub attempts: u32,
    /// Why a bulk job stopped early.
    pub stopped: Option<Error>,
}

/// A call between `__begin` and `__merge`.
struct Pending {
    request: Request,
    options: PlanOptions,
    found: Vec<Option<StoredRecord>>,
    plan: Option<Plan>,
    sent: Option<Sent>,
}

/// The merged answer of a planned call, before it becomes a JS value.
pub(crate) struct MergedReply<'a> {
    /// `{ fromCache, bought, charge, possiblyCharged, attempts, report, missing, entries }`
    /// as JSON text (`data` and `error` are added to it as JS values).
    pub text: String,
    /// `data`: the answer's JSON in request order.
    pub body: &'a str,
    /// `error`: why a bulk job stopped, or strict validation's verdict on the merged answer.
    pub error: Option<&'a Error>,
}

/// The pending calls of one client with their ids. Ids are never reused: a call that is still
/// storing what it bought (awaiting `cache.put` after its merge) drops its id afterwards, and
/// that must never forget another call that took the same id meanwhile.
#[derive(Clone, Default)]
pub(crate) struct RecordCalls(Rc<RefCell<Calls>>);

#[derive(Default)]
struct Calls {
    /// The id the next call gets.
    next: u32,
    /// The calls between `__begin` and `__merge` (or `__drop`), by id.
    pending: Vec<(u32, Pending)>,
}

impl Calls {
    fn position(&self, id: u32) -> Option<usize> {
        self.pending.iter().position(|(call, _)| *call == id)
    }
}

fn no_call() -> PackageError {
    PackageError::invalid_argument("no such record call")
}

/// The issues of a stored record from their fields in a row, four each (`path, code,
/// severity, message`; `field(k)` is the `k`-th string, `count` how many there are). An
/// issue with an unknown rule code is left out.
pub(crate) fn issues_from_rows(count: u32, field: impl Fn(u32) -> String) -> Vec<Issue> {
    (0..count / 4)
        .filter_map(|row| {
            let code = rule_code(&field(row * 4 + 1))?;
            Some(Issue {
                path: field(row * 4),
                code,
                severity: if field(row * 4 + 2) == "error" {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                message: field(row * 4 + 3),
            })
        })
        .collect()
}

/// `[{ key, json, issues }]`: records bought now, for `cache.put`.
fn push_entries(text: &mut String, fresh: &[(crate::records::RecordKey, StoredRecord)]) {
    text.push('[');
    for (n, (key, record)) in fresh.iter().enumerate() {
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
    text.push(']');
}

impl RecordCalls {
    fn with_call<R>(&self, id: u32, f: impl FnOnce(&mut Pending) -> R) -> Result<R, PackageError> {
        let mut calls = self.0.borrow_mut();
        let at = calls.position(id).ok_or_else(no_call)?;
        Ok(f(&mut calls.pending[at].1))
    }

    /// Starts a call of a checked `request` for records bought from `source`: `{ id, kind,
    /// keys }` as JSON text, or `None` when the operation is priced per request (then
    /// `refresh`, the call's option, is not read).
    pub(crate) fn begin(
        &self,
        request: Request,
        source: &str,
        now_ms: f64,
        max_age_ms: Option<f64>,
        refresh: impl FnOnce() -> bool,
    ) -> Option<String> {
        let (kind, keys) = request_keys(&request, source)?;
        let refresh = refresh();
        let mut calls = self.0.borrow_mut();
        // Monotonic; after 2^32 calls it wraps, past any id still pending.
        let mut id = calls.next;
        while calls.position(id).is_some() {
            id = id.wrapping_add(1);
        }
        calls.next = id.wrapping_add(1);
        let call = Pending {
            request,
            options: PlanOptions {
                now_ms,
                max_age_ms,
                refresh,
            },
            found: vec![None; keys.len()],
            plan: None,
            sent: None,
        };
        calls.pending.push((id, call));
        let mut text = format!(r#"{{"id":{id},"kind":"{}","keys":["#, kind.name());
        for (i, key) in keys.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&to_json(key.as_str()));
        }
        text.push_str("]}");
        Some(text)
    }

    /// The stored record the cache found for the call's key `index`.
    pub(crate) fn found(
        &self,
        id: u32,
        index: u32,
        record: StoredRecord,
    ) -> Result<(), PackageError> {
        self.with_call(id, |call| {
            if let Some(slot) = call.found.get_mut(index as usize) {
                *slot = Some(record);
            }
        })
    }

    /// Plans the call: `{ usd, micros, display, newRecords, fromCache, summary, send }` as
    /// JSON text. `cache_failed`: the cache could not be read, so every record is bought.
    pub(crate) fn plan(
        &self,
        id: u32,
        source: &str,
        cache_failed: bool,
    ) -> Result<String, PackageError> {
        let text = self.with_call(id, |call| {
            let found = if cache_failed {
                Vec::new()
            } else {
                std::mem::take(&mut call.found)
            };
            let plan = Plan::new(&call.request, source, found, &call.options)?;
            let text = format!(
                r#"{{{},"newRecords":{},"fromCache":{},"summary":{},"send":{}}}"#,
                money_members(plan.estimate),
                plan.new_records(),
                plan.reused(),
                to_json(&plan.summary()),
                plan.to_buy.is_some()
            );
            call.plan = Some(plan);
            Some(text)
        })?;
        text.ok_or_else(no_call)
    }

    /// The request a planned call sends (`None` when nothing is to buy).
    pub(crate) fn to_buy(&self, id: u32) -> Result<Option<Request>, PackageError> {
        self.with_call(id, |call| {
            call.plan.as_ref().and_then(|plan| plan.to_buy.clone())
        })
    }

    /// Keeps what a planned call bought for its merge (nothing when the call was dropped).
    pub(crate) fn keep(&self, id: u32, sent: Sent) {
        let _ = self.with_call(id, |call| call.sent = Some(sent));
    }

    /// The answer of a planned call, handed to `reply` (the call is forgotten): `{ data,
    /// report, fromCache, bought, missing, charge, possiblyCharged, attempts, entries, error
    /// }`. `entries`: `[{ key, json, issues }]` bought now, for `cache.put`.
    pub(crate) fn merge<R>(
        &self,
        id: u32,
        validation: ValidationMode,
        reply: impl FnOnce(MergedReply<'_>) -> R,
    ) -> Result<R, PackageError> {
        let call = {
            let mut calls = self.0.borrow_mut();
            let at = calls.position(id).ok_or_else(no_call)?;
            calls.pending.swap_remove(at).1
        };
        let plan = call.plan.as_ref().ok_or_else(no_call)?;
        let sent = call.sent.as_ref();
        let merged = plan.merge(
            sent.map(|sent| Bought {
                body: &sent.body,
                report: sent.report.as_ref(),
                at_ms: call.options.now_ms,
            }),
            validation != ValidationMode::Off,
        );
        let charge = sent.map_or(Usd::ZERO, |sent| sent.charge);
        let mut text = format!(
            r#"{{"fromCache":{},"bought":{},"charge":{{{}}},"possiblyCharged":{{{}}},"attempts":{},"report":{},"missing":["#,
            merged.from_store,
            merged.fresh.len(),
            money_members(charge),
            money_members(sent.map_or(Usd::ZERO, |sent| sent.possibly_charged)),
            sent.map_or(0, |sent| sent.attempts),
            merged.report.as_ref().map_or("null".into(), to_json),
        );
        if let Request::SearchVolumeBulk(bulk) = &call.request {
            for (n, &position) in merged.missing.iter().enumerate() {
                if n > 0 {
                    text.push(',');
                }
                text.push_str(&to_json(
                    bulk.keywords.get(position).map_or("", String::as_str),
                ));
            }
        }
        text.push_str(r#"],"entries":"#);
        push_entries(&mut text, &merged.fresh);
        text.push('}');
        let stopped = sent.and_then(|sent| sent.stopped.as_ref());
        let verdict = match (validation, &merged.report) {
            (ValidationMode::Strict, Some(report)) if stopped.is_none() && !report.ok() => {
                Some(Error::ContractViolation {
                    report: Box::new(report.clone()),
                    body: merged.body.clone(),
                    charge,
                })
            }
            _ => None,
        };
        Ok(reply(MergedReply {
            text,
            body: &merged.body,
            error: stopped.or(verdict.as_ref()),
        }))
    }

    /// The records one chunk of a planned bulk call bought, as it arrives: `[{ key, json,
    /// issues }]` as JSON text for `cache.put` (`None` when the call is gone). `keywords` are
    /// the chunk's, `body` and `report` its answer.
    pub(crate) fn chunk_entries(
        &self,
        id: u32,
        source: &str,
        keywords: &[String],
        body: &str,
        report: Option<&crate::validate::Report>,
    ) -> Option<String> {
        let calls = self.0.borrow();
        let call = &calls.pending[calls.position(id)?].1;
        let mut chunk = call.request.clone();
        if let Request::SearchVolumeBulk(bulk) = &mut chunk {
            bulk.keywords = keywords.to_vec();
        }
        let plan = Plan::new(&chunk, source, Vec::new(), &call.options)?;
        let bought = Bought {
            body,
            report,
            at_ms: call.options.now_ms,
        };
        let mut text = String::new();
        push_entries(&mut text, &plan.merge(Some(bought), report.is_some()).fresh);
        Some(text)
    }

    /// Forgets a pending call (nothing when it is gone already).
    pub(crate) fn drop_call(&self, id: u32) {
        let mut calls = self.0.borrow_mut();
        if let Some(at) = calls.position(id) {
            calls.pending.swap_remove(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Operation;

    fn bulk_request(keywords: &[&str]) -> Request {
        let body = serde_json::json!({"keywords": keywords, "ccode": "US"});
        Request::from_json(Operation::SearchVolumeBulk, &body.to_string()).unwrap()
    }

    #[test]
    fn a_call_priced_per_request_is_not_planned() {
        let calls = RecordCalls::default();
        let request = Request::from_json(
            Operation::Related,
            r#"{"keyword":"trail shoes","ccode":"US"}"#,
        )
        .unwrap();
        let began = calls.begin(request, "s", 0.0, None, || panic!("refresh is not read"));
        assert!(began.is_none());
    }

    #[test]
    fn a_fully_stored_call_buys_nothing_and_answers_from_the_cache() {
        let calls = RecordCalls::default();
        let began = calls
            .begin(bulk_request(&["a", "b"]), "s", 1000.0, None, || false)
            .unwrap();
        let began: serde_json::Value = serde_json::from_str(&began).unwrap();
        assert_eq!(began["id"], 0);
        assert_eq!(began["kind"], "search_volume");
        assert_eq!(began["keys"].as_array().unwrap().len(), 2);
        for (i, keyword) in ["a", "b"].iter().enumerate() {
            let record = StoredRecord {
                json: format!(r#"{{"keyword":"{keyword}","search_volume":10}}"#),
                bought_at_ms: 500.0,
                issues: issues_from_rows(4, |index| {
                    ["/keyword", "type", "warning", "m"][index as usize].into()
                }),
                imported: false,
            };
            calls.found(0, i as u32, record).unwrap();
        }
        let plan: serde_json::Value =
            serde_json::from_str(&calls.plan(0, "s", false).unwrap()).unwrap();
        assert_eq!(plan["send"], false);
        assert_eq!(plan["fromCache"], 2);
        assert_eq!(plan["micros"], 0);
        assert!(calls.to_buy(0).unwrap().is_none());
        let (text, body, error) = calls
            .merge(0, ValidationMode::Warn, |merged| {
                (merged.text, merged.body.to_string(), merged.error.is_some())
            })
            .unwrap();
        let text: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text["fromCache"], 2);
        assert_eq!(text["bought"], 0);
        assert_eq!(text["entries"], serde_json::json!([]));
        assert!(body.contains(r#""keyword":"b""#));
        assert!(!error);
        // Merged calls are forgotten.
        assert_eq!(
            calls.merge(0, ValidationMode::Warn, |_| ()).err(),
            Some(no_call())
        );
        // Ids are never reused: dropping a merged call's id (as its `finally` does, after a
        // slow `cache.put`) cannot forget the call begun meanwhile.
        let again = calls
            .begin(bulk_request(&["c"]), "s", 0.0, None, || true)
            .unwrap();
        assert!(again.starts_with(r#"{"id":1,"#), "{again}");
        calls.drop_call(0);
        assert!(calls.plan(1, "s", false).is_ok());
        calls.drop_call(1);
        assert_eq!(calls.plan(1, "s", false), Err(no_call()));
    }

    #[test]
    fn issue_rows_with_unknown_codes_are_left_out() {
        let rows = [
            "/a",
            "type",
            "error",
            "bad",
            "/b",
            "no_such_rule",
            "error",
            "x",
        ];
        let issues = issues_from_rows(rows.len() as u32 + 1, |index| rows[index as usize].into());
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].path, "/a");
        assert_eq!(issues[0].severity, Severity::Error);
    }
}
