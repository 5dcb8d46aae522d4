//! The options of `new Client(...)` and of each call (`{ signal }`).

use std::time::Duration;

use js_sys::{Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::error_value;
use crate::client::{Cancel, ClientConfig, RetryPolicy, ValidationMode};
use crate::money::Usd;

/// `new Client(options)`, read by [`Options::read`].
#[derive(Default)]
pub(super) struct Options {
    key: Option<String>,
    base_url: Option<String>,
    timeout_ms: Option<f64>,
    retries: Option<RetryOptions>,
    validation: Option<String>,
    budget_usd: Option<Usd>,
    max_body_bytes: Option<f64>,
    headers: Vec<(String, String)>,
    /// The record cache (`cache`).
    pub(super) cache: Option<JsValue>,
    /// `maxAgeMs` of stored records.
    pub(super) max_age_ms: Option<f64>,
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
    pub(super) fn read(options: &JsValue) -> Result<Options, String> {
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
            cache: o.get("cache")?.map(record_cache).transpose()?,
            max_age_ms: o.number("maxAgeMs")?,
        })
    }
}

/// The `cache` option: an object with `get` and `put` methods (`record_client.js` calls them).
fn record_cache(value: JsValue) -> Result<JsValue, String> {
    let method = |name: &str| Reflect::get(&value, &name.into()).is_ok_and(|f| f.is_function());
    if method("get") && method("put") {
        Ok(value)
    } else {
        Err("cache must be an object with get(kind, keys) and put(kind, entries) methods".into())
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
    pub(super) fn into_config(self) -> Result<ClientConfig, JsValue> {
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
pub(super) struct AbortLink {
    pub(super) cancel: Cancel,
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
pub(super) fn cancel_from(options: &JsValue) -> Result<Option<AbortLink>, JsValue> {
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
