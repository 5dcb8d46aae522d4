//! The JS package's surface: every `#[wasm_bindgen]` function and the `Client` class, with
//! the hand-written TypeScript types (`serpkit.d.ts`, checked against the Rust model and the
//! lists this module's siblings export by `tsc --strict -p tests/ts`, whose
//! `generated/checks.ts` the `pkg_types` example writes from the core). Each export converts
//! its JS arguments and hands over to the module of its job.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::args::{parse_operation, parse_request};
use super::errors::{client_error, request_error, PackageError};
use super::options::cancel_from;
use super::records::{issues_from_rows, RecordCalls};
use super::replies::{estimate_text, json_value, money, report_value, set};
use super::text::text_of;

use crate::client::fetch::FetchWith;
use crate::client::{Client as CoreClient, Error};
use crate::ops::Operation;
use crate::records::StoredRecord;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("serpkit.d.ts");

/// The estimated charge of a request: `{ usd, micros, display, units, unit }`. Throws
/// `invalid_request` (with `field`) when the request fails its checks.
// Its TypeScript declaration is the API types' (`cargo xtask pkg` drops this one).
#[wasm_bindgen(js_name = estimateCost, unchecked_return_type = "CostEstimate")]
pub fn estimate_cost(
    #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let operation = parse_operation(&operation)?;
    let request = parse_request(operation, &request)?;
    request.check().map_err(|error| request_error(&error))?;
    let usd = crate::estimate_cost(&request);
    Ok(json_value(&estimate_text(
        usd,
        request.billable_units(),
        operation.price().unit,
    )))
}

/// A client of the service over `fetch`.
#[wasm_bindgen(js_name = Client)]
pub struct JsClient {
    /// The core client.
    pub(super) inner: CoreClient,
    /// Calls that pay once per record, between their plan and their merge.
    pub(super) calls: RecordCalls,
    /// The `fetch` option (`None`: `globalThis.fetch`, read at each request).
    pub(super) fetch: Option<js_sys::Function>,
}

#[wasm_bindgen(js_class = Client)]
impl JsClient {
    /// A client of the service: one method per operation (`client.related(request)`),
    /// each priced before it is sent and counted in the client's account.
    ///
    /// Options (`ClientOptions`): `key` (required, sent in the body only), `baseUrl`,
    /// `timeoutMs`, `retries`, `validation` (`"warn"`, `"strict"`, `"off"`), `budgetUsd`,
    /// `maxBodyBytes`, `headers`, `cache` and `maxAgeMs` (pay once per record), `integers`
    /// (`"number"`, `"bigint"`, `"string"`: ids beyond 2^53), `account` (share spend and
    /// budget with other clients), `fetch` (the function requests go through). Throws
    /// `SerpkitError` `invalid_argument` for an unknown or bad option.
    ///
    /// @example
    /// const client = new Client({ key: process.env.SERPKIT_KEY ?? "", baseUrl: process.env.SERPKIT_BASE_URL, budgetUsd: 1 });
    /// const reply = await client.related({ keyword: "trail shoes", ccode: "US" });
    /// if (reply.ok) console.log(reply.data[0]?.keyword, client.spent.display);
    // The package's `Client` (exact_json.js) reads the options (client_options.js) and calls
    // this with their compact form; the record cache and `maxAgeMs` stay in JS.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions<I, V>")] options: JsValue,
    ) -> Result<JsClient, JsValue> {
        JsClient::from_options(&options)
    }

    /// Any operation by its path (`"related"`, `"search_volume/bulk"`, ...). Typed by the path
    /// in `serpkit.d.ts` (`Client.call`, over `Operations`).
    #[wasm_bindgen(skip_typescript)]
    pub fn call(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        match parse_operation(&operation) {
            Ok(operation) => {
                self.call_operation(operation, request, options.unwrap_or(JsValue::UNDEFINED))
            }
            Err(error) => Promise::reject(&error),
        }
    }

    /// `search_volume/bulk` over any number of keywords, in chunks with bounded concurrency:
    /// resolves to `{ ok, data, report, missing, charge, possiblyCharged, error }` (`ok` and
    /// `report` as a call's, over all of `data`; never rejects after the start: what was
    /// bought is kept, `error` says why it stopped early). The signal stops starting new
    /// chunks; chunks already sent finish and keep what they bought.
    ///
    /// @example
    /// const job = await client.searchVolumeBulkChunked({ keywords, ccode: "US" }, { chunkSize: 100 });
    /// if (job.ok) for (const record of job.data) console.log(record.keyword);
    /// if (job.error) console.log(`stopped: ${job.error.message}; not bought: ${job.missing.length}`);
    #[wasm_bindgen(js_name = searchVolumeBulkChunked, unchecked_return_type = "Promise<BulkResult<I, V>>")]
    pub fn search_volume_bulk_chunked(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchVolumeBulkRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "BulkOptions")] options: Option<JsValue>,
    ) -> Promise {
        let request = parse_request(Operation::SearchVolumeBulk, &request);
        self.bulk(request, options.unwrap_or(JsValue::UNDEFINED), None, None)
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

    /// Counts this client's calls in the account of `other` (under its budget) from now on:
    /// the `account` option, read by exact_json.js's `Client` (an `Account` there is a
    /// client's account, held through a client).
    #[wasm_bindgen(js_name = __useAccount, skip_typescript)]
    pub fn use_account(&mut self, other: &JsClient) {
        let mut config = self.inner.config().clone();
        config.budget = other.inner.config().budget;
        self.inner = CoreClient::with_account(
            config,
            Rc::new(FetchWith::default()),
            other.inner.account().clone(),
        );
    }

    /// Sends this client's requests with `fetch` (the `fetch` option, read by exact_json.js's
    /// `Client`).
    #[wasm_bindgen(js_name = __useFetch, skip_typescript)]
    pub fn use_fetch(&mut self, fetch: js_sys::Function) {
        self.fetch = Some(fetch);
    }

    /// The place in the list of operations (`Operation::ALL`, the order of `static_data.js`)
    /// of the operation a name stands for, as the core reads names (trimmed, with or without
    /// `/v1/`): `jsonSchema()` (static_api.js) finds its schema by it. Throws
    /// `invalid_argument` or `unknown_operation` as every export does.
    #[wasm_bindgen(js_name = __operationIndex, skip_typescript)]
    pub fn operation_index(operation: JsValue) -> Result<u32, JsValue> {
        // The enum's discriminants are its places in `Operation::ALL` (unit-tested in
        // `errors`).
        Ok(parse_operation(&operation)? as u32)
    }

    /// (A static method of `Client`, so the module exports only the documented names.)
    /// Validates a response body of `operation` in wasm, every rule (text-only ones too): JSON
    /// text or its UTF-8 bytes (`Uint8Array` or `ArrayBuffer`, e.g. from `response.arrayBuffer()`:
    /// the fastest way in, as bytes are copied into wasm as they are while a string must be
    /// encoded); any other value through `JSON.stringify`. With `request`, also the rules tied to
    /// the request. Returns `{ ok, errors, warnings, ... }`. The package's `validateResponse`
    /// (static_api.js) calls this for text and bytes, and the generated JS validator for a parsed
    /// value.
    #[wasm_bindgen(js_name = __validateText, skip_typescript)]
    pub fn validate_text(
        #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | unknown")]
        body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "object | string | null")] request: Option<
            JsValue,
        >,
    ) -> Result<JsValue, JsValue> {
        let operation = parse_operation(&operation)?;
        let text = text_of(&body, "body")?;
        let request = match request {
            Some(request) if !request.is_null() && !request.is_undefined() => {
                Some(parse_request(operation, &request)?)
            }
            _ => None,
        };
        Ok(report_value(&crate::validate::validate(
            operation,
            &text,
            request.as_ref(),
        )))
    }

    /// Reads a request of `operation` as [`Self::validate_text`] does, and throws the same error
    /// for one it cannot read (`invalid_request` with `field`): the parsed-value path
    /// (static_api.js) checks the request here, then gives its own JS view of it to the JS
    /// validator.
    #[wasm_bindgen(js_name = __readRequest, skip_typescript)]
    pub fn read_request(operation: JsValue, request: JsValue) -> Result<(), JsValue> {
        let operation = parse_operation(&operation)?;
        parse_request(operation, &request).map(|_| ())
    }

    // ---- The steps of paying once per record (`super::records`; record_client.js) -------

    /// Starts a call that pays once per record (step 1); stored records older than
    /// `max_age_ms` are bought again (the `maxAgeMs` option; negative: no expiry).
    #[wasm_bindgen(js_name = __begin, skip_typescript)]
    pub fn begin(
        &self,
        operation: JsValue,
        request: JsValue,
        options: JsValue,
        now_ms: f64,
        max_age_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let operation = parse_operation(&operation)?;
        let request = parse_request(operation, &request)?;
        request
            .check()
            .map_err(|error| client_error(&Error::InvalidRequest(error)))?;
        // Rejects bad options (or signal) before the cache is read, as a plain call does.
        cancel_from(&options)?;
        let refresh = || {
            options.is_object()
                && js_sys::Reflect::get(&options, &"refresh".into())
                    .is_ok_and(|refresh| refresh.is_truthy())
        };
        let source = self.inner.record_source();
        let max_age = (max_age_ms >= 0.0).then_some(max_age_ms);
        Ok(
            match self.calls.begin(request, &source, now_ms, max_age, refresh) {
                Some(text) => json_value(&text),
                None => JsValue::NULL,
            },
        )
    }

    /// The stored record the cache found for the call's key `i` (step 2); `issues` holds its
    /// issues' fields in a row, four strings each (`path, code, severity, message`). An
    /// issue with an unknown rule code is left out.
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
        let issues = issues_from_rows(issues.length(), |index| {
            issues.get(index).as_string().unwrap_or_default()
        });
        let record = StoredRecord {
            json,
            bought_at_ms,
            issues,
            imported,
        };
        Ok(self.calls.found(id, i, record)?)
    }

    /// Plans the call (step 3): `{ usd, micros, display, newRecords, fromCache, summary,
    /// send }`. `cache_failed`: the cache could not be read, so every record is bought.
    #[wasm_bindgen(js_name = __plan, skip_typescript)]
    pub fn plan(&self, id: u32, cache_failed: bool) -> Result<JsValue, JsValue> {
        let source = self.inner.record_source();
        let text = self.calls.plan(id, &source, cache_failed)?;
        Ok(json_value(&text))
    }

    /// Buys what a planned call lacks (step 4): in chunks for `searchVolumeBulkChunked`
    /// (`chunked`; `on_chunk` then gets each chunk's new records as it arrives, for
    /// `cache.put`; resolves to why the job stopped, with its `cause`), else in one call.
    #[wasm_bindgen(js_name = __send, skip_typescript)]
    pub fn send_planned(
        &self,
        id: u32,
        options: JsValue,
        chunked: bool,
        on_chunk: JsValue,
    ) -> Promise {
        let request = self
            .calls
            .to_buy(id)
            .and_then(|request| {
                request.ok_or_else(|| PackageError::invalid_argument("nothing to buy"))
            })
            .map_err(JsValue::from);
        if chunked {
            return self.bulk(request, options, Some(id), on_chunk.dyn_into().ok());
        }
        let prepared = request.and_then(|request| Ok((request, cancel_from(&options)?)));
        self.send(prepared, Some(id))
    }

    /// The answer of a planned call (step 5): `{ data, report, fromCache, bought, missing,
    /// charge, possiblyCharged, attempts, entries, error }`. `entries`: `[{ key, json, issues
    /// }]` bought now, for `cache.put`; `error`: why a bulk job stopped, or strict
    /// validation's verdict on the merged answer.
    #[wasm_bindgen(js_name = __merge, skip_typescript)]
    pub fn merge(&self, id: u32) -> Result<JsValue, JsValue> {
        let reply = self
            .calls
            .merge(id, self.inner.config().validation, |merged| {
                let reply: js_sys::Object = json_value(&merged.text).unchecked_into();
                // The body text: record_client.js makes `data` of it (exact integers).
                set(&reply, "data", merged.body);
                set(
                    &reply,
                    "error",
                    merged.error.map(client_error).unwrap_or(JsValue::NULL),
                );
                reply
            })?;
        Ok(reply.into())
    }

    /// Forgets a pending call (step 6; nothing when it is gone already).
    #[wasm_bindgen(js_name = __drop, skip_typescript)]
    pub fn drop_call(&self, id: u32) {
        self.calls.drop_call(id);
    }
}
