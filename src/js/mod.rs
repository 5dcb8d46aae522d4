//! The JS package's exports (wasm-bindgen). JSON text crosses the boundary: requests and
//! bodies come in as text (or are `JSON.stringify`-ed once), results go out through
//! `JSON.parse`, which builds JS objects faster than creating them one by one from wasm.
//! The TypeScript types are written by hand in `serpkit.d.ts` (tested against the Rust
//! model by `tests/ts_types.rs`).

mod record_cache;

use std::time::Duration;

use js_sys::{Function, Promise, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::client::{
    BulkOptions, BulkProgress, Cancel, Client as CoreClient, ClientConfig, Error, RetryPolicy,
    ValidationMode,
};
use crate::money::Usd;
use crate::ops::{Operation, Request};

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

/// Strings at least this long are copied into wasm with `TextEncoder.encodeInto` (see
/// [`utf8_of`]).
const ENCODER_MIN_CHARS: u32 = 1 << 16;

#[wasm_bindgen]
extern "C" {
    /// The WHATWG `TextEncoder` (browsers, Node, Deno, workers).
    type TextEncoder;
    #[wasm_bindgen(constructor, catch)]
    fn new() -> Result<TextEncoder, JsValue>;
    /// Takes the string as a plain `JsValue`, so wasm-bindgen adds no conversion of its own.
    #[wasm_bindgen(method, catch, js_name = encodeInto)]
    fn encode_into(
        this: &TextEncoder,
        source: &JsValue,
        destination: &js_sys::Uint8Array,
    ) -> Result<EncodeIntoResult, JsValue>;

    /// `{ read, written }` of `encodeInto`.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> f64;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> f64;
}

thread_local! {
    /// One encoder for every call (`None` where there is no `TextEncoder`).
    static ENCODER: Option<TextEncoder> = TextEncoder::new().ok();
}

/// A large JS string as UTF-8, written by the native `TextEncoder.encodeInto` straight into
/// wasm memory. wasm-bindgen's own string passing copies ASCII text one character at a time
/// in JS, several times slower for a multi-megabyte body (measured in bench/js: 10 MB in
/// about 30 ms in Node and Chromium, against 1.3 ms in Node and 7.5 to 9 ms in Chromium,
/// whose `encodeInto` is a plain loop, for `encodeInto`). `None` when there is no
/// `TextEncoder` or it misbehaves (the caller falls back).
fn utf8_of(value: &js_sys::JsString) -> Option<String> {
    ENCODER.with(|encoder| {
        let encoder = encoder.as_ref()?;
        let mut source = value.clone();
        // ASCII needs one byte per UTF-16 unit; more is reserved when the text is not ASCII.
        let mut buf: Vec<u8> = Vec::new();
        buf.try_reserve_exact(source.length() as usize + 16).ok()?;
        loop {
            let len = buf.len();
            let spare = buf.capacity() - len;
            // SAFETY: the view covers exactly the vector's spare capacity, and is used by the
            // one `encodeInto` call below before anything can allocate (and so move or grow
            // wasm memory).
            let view =
                unsafe { js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr().add(len), spare) };
            let result = encoder.encode_into(&source, &view).ok()?;
            drop(view);
            let read = result.read();
            let written = result.written();
            if !(written >= 0.0 && written <= spare as f64 && read >= 0.0) {
                return None;
            }
            // SAFETY: `encodeInto` initialized `written` bytes of the spare capacity.
            unsafe { buf.set_len(len + written as usize) };
            let total = source.length();
            if read >= f64::from(total) {
                break;
            }
            let read = read as u32;
            source = source.slice(read, total);
            // At most 3 bytes per remaining UTF-16 unit.
            buf.try_reserve((total - read) as usize * 3).ok()?;
        }
        utf8(buf)
    })
}

/// The bytes as a `String`. `encodeInto` writes valid UTF-8 by specification, but it is a
/// global that a page can replace, so the bytes are checked: ASCII (the common case for
/// these bodies) in 8-byte words, several times faster than `from_utf8` in wasm (measured:
/// about 1.4 ms for 10 MB in Node), anything else by `from_utf8`.
fn utf8(buf: Vec<u8>) -> Option<String> {
    // 32 bytes a step, as 4 words: as fast without LLVM's unrolling as with it.
    let blocks = buf.chunks_exact(32);
    let rest = blocks.remainder();
    let mut high = 0u64;
    for b in blocks {
        high |= word(b, 0) | word(b, 8) | word(b, 16) | word(b, 24);
    }
    if high & 0x8080_8080_8080_8080 == 0 && rest.is_ascii() {
        // SAFETY: every byte is ASCII, which is valid UTF-8.
        return Some(unsafe { String::from_utf8_unchecked(buf) });
    }
    String::from_utf8(buf).ok()
}

/// The 8 bytes of `b` at `i` as a word (all high bits set, so "not ASCII", past the end).
#[inline(always)]
fn word(b: &[u8], i: usize) -> u64 {
    b.get(i..)
        .and_then(|t| t.first_chunk::<8>())
        .map_or(u64::MAX, |c| u64::from_le_bytes(*c))
}

/// The UTF-8 bytes of a `Uint8Array` (or a view of an `ArrayBuffer`) as text, copied into
/// wasm by one `Uint8Array.set` (a memcpy: no per-character work at all, unlike a string).
fn text_of_bytes(bytes: &js_sys::Uint8Array, what: &str) -> Result<String, JsValue> {
    let len = bytes.length() as usize;
    let mut buf: Vec<u8> = Vec::new();
    if buf.try_reserve_exact(len).is_err() {
        return Err(error_value(
            "invalid_argument",
            &format!("{what} is too large for memory ({len} bytes)"),
            |_| {},
        ));
    }
    // SAFETY: the view covers exactly the vector's spare capacity (`len` bytes) and is used
    // by the one `set` call before anything can allocate; `set` fills all `len` bytes.
    unsafe {
        js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr(), len).set(bytes, 0);
        buf.set_len(len);
    }
    match utf8(buf) {
        Some(text) => Ok(text),
        None => Err(error_value(
            "invalid_argument",
            &format!("{what} bytes are not UTF-8 (JSON text is UTF-8)"),
            |_| {},
        )),
    }
}

/// A string or UTF-8 bytes (`Uint8Array`, `ArrayBuffer`) as is; anything else through
/// `JSON.stringify`. `what` names the argument.
fn text_of(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if let Some(js) = value.dyn_ref::<js_sys::JsString>() {
        return Ok(string_of(js));
    }
    if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
        return text_of_bytes(bytes, what);
    }
    if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        return text_of_bytes(&js_sys::Uint8Array::new(buffer), what);
    }
    if value.is_undefined() || value.is_function() || value.is_symbol() {
        return Err(error_value(
            "invalid_argument",
            &format!("{what} must be JSON text or a JSON value"),
            |_| {},
        ));
    }
    JSON::stringify(value)
        .ok()
        .filter(|s| s.is_string())
        .map(|s| string_of(&s))
        .ok_or_else(|| {
            error_value(
                "invalid_argument",
                &format!("{what} cannot be converted to JSON (a cycle or a BigInt?)"),
                |_| {},
            )
        })
}

/// A JS string in wasm: large ones through [`utf8_of`].
fn string_of(js: &js_sys::JsString) -> String {
    if js.length() >= ENCODER_MIN_CHARS {
        if let Some(s) = utf8_of(js) {
            return s;
        }
    }
    String::from(js)
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
            Error::Timeout(d) => set(o, "timeoutMs", d.as_millis() as f64),
            Error::BodyTooLarge { limit, .. } => set(o, "limit", *limit as f64),
            Error::MissingKey | Error::Aborted | Error::Network(_) => {}
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

/// All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel }]`.
#[wasm_bindgen(unchecked_return_type = "OperationInfo[]")]
pub fn operations() -> JsValue {
    let items: Vec<String> = Operation::ALL
        .iter()
        .map(|op| {
            let p = op.price();
            format!(
                r#"{{"path":{},"title":{},"price":{{{}}},"unit":{},"unitLabel":{}}}"#,
                to_json(op.path()),
                to_json(op.title()),
                money_members(p.usd),
                to_json(&p.unit),
                to_json(p.unit.label()),
            )
        })
        .collect();
    json_value(&format!("[{}]", items.join(",")))
}

/// The JSON Schema (2020-12) of the operation's response.
#[wasm_bindgen(js_name = jsonSchema, unchecked_return_type = "Record<string, unknown>")]
pub fn json_schema(
    #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
) -> Result<JsValue, JsValue> {
    let op = parse_op(&operation)?;
    Ok(json_value(&crate::validate::json_schema_text(op)))
}

/// `new Client(options)`, read by [`Options::read`].
#[derive(Default)]
struct Options {
    key: Option<String>,
    base_url: Option<String>,
    timeout_ms: Option<f64>,
    retries: Option<RetryOptions>,
    validation: Option<String>,
    budget_usd: Option<Usd>,
    max_body_bytes: Option<f64>,
    headers: Vec<(String, String)>,
    cache: Option<record_cache::JsRecordCache>,
    max_age_ms: Option<f64>,
}

enum RetryOptions {
    Count(u32),
    Policy(RetryPolicyOptions),
}

#[derive(Default)]
struct RetryPolicyOptions {
    max_retries: Option<u32>,
    base_delay_ms: Option<f64>,
    max_delay_ms: Option<f64>,
    max_retry_after_ms: Option<f64>,
    jitter: Option<bool>,
}

/// A plain JS object whose options are read one by one.
struct OptionBag(JsValue);

impl OptionBag {
    /// `value` if it is a plain object whose own string keys are all in `known`.
    fn new(value: JsValue, what: &str, known: &[&str]) -> Result<OptionBag, String> {
        if !value.is_object() || value.is_function() || js_sys::Array::is_array(&value) {
            return Err(format!("{what} must be an object"));
        }
        let keys = Reflect::own_keys(&value).map_err(|_| format!("{what}: keys unreadable"))?;
        for key in keys.iter() {
            if let Some(k) = key.as_string() {
                if !known.contains(&k.as_str()) {
                    let k: String = k.chars().take(40).collect();
                    return Err(format!("unknown option `{k}` in {what} (known: {known:?})"));
                }
            }
        }
        Ok(OptionBag(value))
    }

    /// The option `k`; `None` when absent, `undefined` or `null` (as in JSON).
    fn get(&self, k: &str) -> Result<Option<JsValue>, String> {
        let v =
            Reflect::get(&self.0, &JsValue::from_str(k)).map_err(|_| format!("{k}: unreadable"))?;
        Ok((!v.is_undefined() && !v.is_null()).then_some(v))
    }

    fn string(&self, k: &str) -> Result<Option<String>, String> {
        self.get(k)?
            .map(|v| v.as_string().ok_or_else(|| format!("{k} must be a string")))
            .transpose()
    }

    /// A number; NaN and the infinities count as absent (JSON has no such numbers).
    fn number(&self, k: &str) -> Result<Option<f64>, String> {
        match self.get(k)? {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(n) => Ok(n.is_finite().then_some(n)),
                None => Err(format!("{k} must be a number")),
            },
        }
    }

    fn count(&self, k: &str) -> Result<Option<u32>, String> {
        self.get(k)?.map(|v| count_of(&v, k)).transpose()
    }
}

/// A whole number in `u32`.
fn count_of(v: &JsValue, k: &str) -> Result<u32, String> {
    v.as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| n as u32)
        .ok_or_else(|| format!("{k} must be a whole number from 0"))
}

impl Options {
    /// Reads the options object (or its JSON text). Decision: read field by field through
    /// `Reflect` rather than `JSON.stringify` + a serde derive, which (with the untagged
    /// `retries`) cost over 10 KB of the package's wasm; the rules stay those of the JSON
    /// form: unknown options are errors, `null` and `undefined` mean absent.
    fn read(options: &JsValue) -> Result<Options, String> {
        let value = match options.as_string() {
            Some(text) => JSON::parse(&text).map_err(|_| "options text is not JSON".to_string())?,
            None => options.clone(),
        };
        let o = OptionBag::new(
            value,
            "options",
            &[
                "key",
                "baseUrl",
                "timeoutMs",
                "retries",
                "validation",
                "budgetUsd",
                "maxBodyBytes",
                "headers",
                "cache",
                "maxAgeMs",
            ],
        )?;
        let retries = match o.get("retries")? {
            None => None,
            Some(v) if v.as_f64().is_some() => Some(RetryOptions::Count(count_of(&v, "retries")?)),
            Some(v) => {
                let p = OptionBag::new(
                    v,
                    "retries",
                    &[
                        "maxRetries",
                        "baseDelayMs",
                        "maxDelayMs",
                        "maxRetryAfterMs",
                        "jitter",
                    ],
                )
                .map_err(|e| format!("{e} (or a number of retries)"))?;
                Some(RetryOptions::Policy(RetryPolicyOptions {
                    max_retries: p.count("maxRetries")?,
                    base_delay_ms: p.number("baseDelayMs")?,
                    max_delay_ms: p.number("maxDelayMs")?,
                    max_retry_after_ms: p.number("maxRetryAfterMs")?,
                    jitter: p
                        .get("jitter")?
                        .map(|v| v.as_bool().ok_or("jitter must be a boolean"))
                        .transpose()?,
                }))
            }
        };
        let budget_usd = match o.get("budgetUsd")? {
            None => None,
            Some(v) => Some(match (v.as_f64(), v.as_string()) {
                (Some(n), _) if (0.0..9.0e12).contains(&n) => {
                    Usd::from_micros((n * 1_000_000.0).round() as i64)
                }
                (_, Some(text)) => text.parse::<Usd>().map_err(|e| e.to_string())?,
                _ => return Err("budgetUsd must be a dollar amount from 0".into()),
            }),
        };
        let headers = match o.get("headers")? {
            None => Vec::new(),
            Some(v) => {
                if !v.is_object() || v.is_function() || js_sys::Array::is_array(&v) {
                    return Err("headers must be an object of strings".into());
                }
                let keys = Reflect::own_keys(&v).map_err(|_| "headers: keys unreadable")?;
                let mut out = Vec::new();
                for key in keys.iter() {
                    let Some(name) = key.as_string() else {
                        continue;
                    };
                    let value = Reflect::get(&v, &key)
                        .ok()
                        .and_then(|x| x.as_string())
                        .ok_or("headers must be an object of strings")?;
                    out.push((name, value));
                }
                out
            }
        };
        Ok(Options {
            key: o.string("key")?,
            base_url: o.string("baseUrl")?,
            timeout_ms: o.number("timeoutMs")?,
            retries,
            validation: o.string("validation")?,
            budget_usd,
            max_body_bytes: o.number("maxBodyBytes")?,
            headers,
            cache: o
                .get("cache")?
                .map(record_cache::JsRecordCache::new)
                .transpose()?,
            max_age_ms: o.number("maxAgeMs")?,
        })
    }
}

fn ms(v: f64) -> Duration {
    Duration::from_millis(if v.is_finite() && v > 0.0 {
        v as u64
    } else {
        0
    })
}

impl Options {
    fn into_config(self) -> Result<ClientConfig, JsValue> {
        let invalid = |m: &str| error_value("invalid_argument", m, |_| {});
        let mut c = ClientConfig::new(self.key.unwrap_or_default());
        if let Some(url) = self.base_url {
            if !crate::ops::check::is_http_url(&url) {
                return Err(invalid("baseUrl must be an absolute http(s) URL"));
            }
            c.base_url = url;
        }
        if let Some(t) = self.timeout_ms {
            c.timeout = (t > 0.0).then(|| ms(t));
        }
        match self.retries {
            None => {}
            Some(RetryOptions::Count(n)) => c.retry.max_retries = n,
            Some(RetryOptions::Policy(p)) => {
                let d = RetryPolicy::default();
                c.retry = RetryPolicy {
                    max_retries: p.max_retries.unwrap_or(d.max_retries),
                    base_delay: p.base_delay_ms.map(ms).unwrap_or(d.base_delay),
                    max_delay: p.max_delay_ms.map(ms).unwrap_or(d.max_delay),
                    max_retry_after: p.max_retry_after_ms.map(ms).unwrap_or(d.max_retry_after),
                    jitter: p.jitter.unwrap_or(d.jitter),
                };
            }
        }
        if let Some(v) = self.validation {
            c.validation = v.parse::<ValidationMode>().map_err(|m| invalid(&m))?;
        }
        c.budget = self.budget_usd;
        if let Some(n) = self.max_body_bytes {
            c.max_body_bytes = if n.is_finite() && n > 0.0 {
                n as usize
            } else {
                0
            };
        }
        c.headers = self.headers;
        Ok(c)
    }
}

/// An `AbortSignal` connected to a [`Cancel`] for one call. Dropped when the call ends, it
/// removes its listener, so a long-lived signal reused for many calls gathers none.
struct AbortLink {
    cancel: Cancel,
    signal: Option<web_sys::AbortSignal>,
    callback: Option<Closure<dyn FnMut()>>,
}

impl Drop for AbortLink {
    fn drop(&mut self) {
        if let (Some(signal), Some(cb)) = (&self.signal, self.callback.take()) {
            let _ =
                signal.remove_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
        }
    }
}

/// Connects `options.signal` (if any) to a [`Cancel`].
fn cancel_from(options: &JsValue) -> Result<Option<AbortLink>, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(error_value(
            "invalid_argument",
            "options must be an object such as { signal }",
            |_| {},
        ));
    }
    let signal = Reflect::get(options, &"signal".into()).unwrap_or(JsValue::UNDEFINED);
    if signal.is_undefined() || signal.is_null() {
        return Ok(None);
    }
    let signal: web_sys::AbortSignal = signal.dyn_into().map_err(|_| {
        error_value(
            "invalid_argument",
            "options.signal must be an AbortSignal",
            |_| {},
        )
    })?;
    let cancel = Cancel::new();
    if signal.aborted() {
        cancel.cancel();
        return Ok(Some(AbortLink {
            cancel,
            signal: None,
            callback: None,
        }));
    }
    let c = cancel.clone();
    let cb: Closure<dyn FnMut()> = Closure::once(move || c.cancel());
    let _ = signal.add_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
    Ok(Some(AbortLink {
        cancel,
        signal: Some(signal),
        callback: Some(cb),
    }))
}

/// A client of the service over `fetch`.
#[wasm_bindgen(js_name = Client)]
pub struct JsClient {
    inner: CoreClient,
    /// The record cache (`cache` option): records are then paid for once.
    cache: Option<record_cache::JsRecordCache>,
    /// Stored records older than this are bought again (`maxAgeMs`; default no expiry).
    max_age_ms: Option<f64>,
}

macro_rules! js_methods {
    ($( $js:literal, $rust:ident, $op:ident, $req:literal, $resp:literal; )*) => {
        #[wasm_bindgen(js_class = Client)]
        impl JsClient {
            $(
                #[doc = concat!("Calls `", stringify!($op), "`; resolves to `{ data, report, charge, attempts }`.")]
                #[wasm_bindgen(js_name = $js, unchecked_return_type = $resp)]
                pub fn $rust(
                    &self,
                    #[wasm_bindgen(unchecked_param_type = $req)] request: JsValue,
                    #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
                ) -> Promise {
                    self.call_op(Operation::$op, request, options.unwrap_or(JsValue::UNDEFINED))
                }
            )*
        }
    };
}

js_methods! {
    "searchVolumeBulk", search_volume_bulk, SearchVolumeBulk, "SearchVolumeBulkRequest", "Promise<Reply<SearchVolumeRecord[]>>";
    "searchVolumeSingle", search_volume_single, SearchVolumeSingle, "SearchVolumeSingleRequest", "Promise<Reply<SearchVolumeRecord>>";
    "domainStats", domain_stats, DomainStats, "DomainStatsRequest", "Promise<Reply<DomainStatsRecord[]>>";
    "backlinkMetrics", backlink_metrics, BacklinkMetrics, "BacklinkMetricsRequest", "Promise<Reply<PageBacklinkMetrics[]>>";
    "rankedKeywordsMetrics", ranked_keywords_metrics, RankedKeywordsMetrics, "DomainRequest", "Promise<Reply<RankedKeywordsMetrics[]>>";
    "rankedKeywordsDomain", ranked_keywords_domain, RankedKeywordsDomain, "DomainRequest", "Promise<Reply<RankedKeyword[]>>";
    "backlinkOverview", backlink_overview, BacklinkOverview, "DomainRequest", "Promise<Reply<DomainOverview>>";
    "outlineSeo", outline_seo, OutlineSeo, "KeywordRequest", "Promise<Reply<OutlinePage[]>>";
    "microblogPost", microblog_post, MicroblogPost, "KeywordRequest", "Promise<Reply<MicroblogPost[]>>";
    "videoVideo", video_video, VideoVideo, "KeywordRequest", "Promise<Reply<Video[]>>";
    "related", related, Related, "RelatedRequest", "Promise<Reply<RelatedKeyword[]>>";
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
        let client = self.inner.clone();
        let cache = self.cache.clone();
        let plan = self.plan_options(&options);
        let prepared = parse_request(op, &request).and_then(|r| Ok((r, cancel_from(&options)?)));
        wasm_bindgen_futures::future_to_promise(async move {
            let (req, cancel) = prepared?;
            let cancel = cancel.as_ref().map(|l| &l.cancel);
            let reply = js_sys::Object::new();
            let (body, report, charge, attempts) = match &cache {
                Some(cache) => {
                    let r = client
                        .call_with_records(&req, cache, &plan, cancel)
                        .await
                        .map_err(|e| client_error(&e))?;
                    set(&reply, "fromCache", r.from_store as f64);
                    set(&reply, "bought", r.bought as f64);
                    if let Some(e) = &r.store_error {
                        set(&reply, "cacheError", e.as_str());
                    }
                    (r.body, r.report, r.charge, r.attempts)
                }
                None => {
                    let r = client
                        .call_raw(&req, cancel)
                        .await
                        .map_err(|e| client_error(&e))?;
                    (r.body, r.report, r.charge, r.attempts)
                }
            };
            set(&reply, "data", json_value(&body));
            set(
                &reply,
                "report",
                report.as_ref().map(report_value).unwrap_or(JsValue::NULL),
            );
            set(&reply, "charge", money(charge));
            set(&reply, "attempts", attempts);
            Ok(reply.into())
        })
    }

    /// The plan options of a call: now, the client's max age, and `options.refresh`.
    fn plan_options(&self, options: &JsValue) -> crate::records::PlanOptions {
        crate::records::PlanOptions {
            now_ms: js_sys::Date::now(),
            max_age_ms: self.max_age_ms,
            refresh: options.is_object()
                && Reflect::get(options, &"refresh".into()).is_ok_and(|v| v.is_truthy()),
        }
    }

    /// The price of a call now, before making it: `{ usd, micros, display, newRecords,
    /// fromCache, summary }`. With a record cache, records already bought are not priced
    /// (`summary`: "1 new keyword · 10 already bought"); without one, the whole request is.
    #[wasm_bindgen(unchecked_return_type = "Promise<Quote>")]
    pub fn quote(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] operation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let client = self.inner.clone();
        let cache = self.cache.clone();
        let plan = self.plan_options(&options.unwrap_or(JsValue::UNDEFINED));
        let prepared = parse_op(&operation).and_then(|op| {
            let r = parse_request(op, &request)?;
            r.check().map_err(|e| request_error(&e))?;
            Ok(r)
        });
        wasm_bindgen_futures::future_to_promise(async move {
            let req = prepared?;
            let planned = match &cache {
                Some(c) => client.plan(&req, c, &plan).await.ok().flatten(),
                None => None,
            };
            let (usd, new, stored, summary) = match &planned {
                Some(p) => (p.estimate, p.new_records(), p.reused(), p.summary()),
                None => {
                    let units = req.billable_units() as usize;
                    (crate::estimate_cost(&req), units, 0, String::new())
                }
            };
            Ok(json_value(&format!(
                r#"{{{},"newRecords":{new},"fromCache":{stored},"summary":{}}}"#,
                money_members(usd),
                to_json(&summary)
            )))
        })
    }

    /// `search_volume/bulk` over any number of keywords, in chunks with bounded concurrency:
    /// resolves to `{ data, missing, charge, error }` (never rejects after the start: what
    /// was bought is kept; `error` says why it stopped early).
    #[wasm_bindgen(js_name = searchVolumeBulkChunked, unchecked_return_type = "Promise<BulkResult>")]
    pub fn search_volume_bulk_chunked(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchVolumeBulkRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "BulkOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let client = self.inner.clone();
        let prepared = (|| {
            let req = match parse_request(Operation::SearchVolumeBulk, &request)? {
                Request::SearchVolumeBulk(r) => r,
                _ => unreachable!("parsed as search_volume/bulk"),
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
        })();
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
            let out = client
                .search_volume_bulk_chunked_raw(
                    &req.keywords,
                    &req.ccode,
                    bulk,
                    progress,
                    cancel.as_ref().map(|l| &l.cancel),
                )
                .await;
            let result = js_sys::Object::new();
            // The chunks' arrays as the service wrote them, like `data` of a single call.
            set(&result, "data", json_value(&out.records));
            set(&result, "missing", json_value(&to_json(&out.missing)));
            set(&result, "charge", money(out.charge));
            set(
                &result,
                "error",
                out.stopped
                    .as_ref()
                    .map(client_error)
                    .unwrap_or(JsValue::NULL),
            );
            Ok(result.into())
        })
    }

    /// Total charged so far by this client: `{ usd, micros, display }`.
    #[wasm_bindgen(getter, unchecked_return_type = "Money")]
    pub fn spent(&self) -> JsValue {
        money(self.inner.spent())
    }

    /// What is left of the budget, or `null` without one.
    #[wasm_bindgen(getter, unchecked_return_type = "Money | null")]
    pub fn remaining(&self) -> JsValue {
        self.inner.remaining().map(money).unwrap_or(JsValue::NULL)
    }
}
