//! The options of `new Client(...)` and of each call (`{ signal, refresh }`, and the bulk
//! job's). They are read through [`OptionValue`], which the JS value implements in the
//! wasm-only part at the end, and plain data in the unit tests.

use std::time::Duration;

use crate::client::{BulkOptions, ClientConfig, RetryPolicy, ValidationMode};
use crate::money::Usd;

/// The options of `new Client(...)` (`ClientOptions` in `serpkit.d.ts`); any other is an
/// error. `integers` and `account` are read in the package's JS (`exact_json.js`): the wasm
/// only accepts their names.
pub const CLIENT_OPTION_NAMES: [&str; 12] = [
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
    "integers",
    "account",
];

/// The values of the `integers` option: how `data` holds integers beyond ±(2^53 − 1), which a
/// JS number cannot hold exactly. The option is read, checked and applied in the package's JS
/// (`exact_json.js`, the list carried there by static_data.js), where `data` is made from the
/// body text: the wasm only accepts its name (reading it here cost 0.3 kB gzip of the wasm).
///
/// Decided (issue #19): only such integers are converted under "bigint" and "string"; every
/// other number stays a number. "number" (the default) keeps them as rounded numbers but never
/// silently: the reply's report gets one `unsafe_integer` warning per field path pattern.
pub const INTEGER_MODES: [&str; 3] = ["number", "bigint", "string"];

/// The options of a retry policy (`retries: { ... }`, `RetryOptions` in `serpkit.d.ts`); any
/// other is an error.
pub const RETRY_OPTION_NAMES: [&str; 5] = [
    "maxRetries",
    "baseDelayMs",
    "maxDelayMs",
    "maxRetryAfterMs",
    "jitter",
];

/// The options of one call (`CallOptions` in `serpkit.d.ts`); others are ignored.
pub const CALL_OPTION_NAMES: [&str; 2] = ["signal", "refresh"];

/// The options of `searchVolumeBulkChunked` beside a call's (`BulkOptions` in
/// `serpkit.d.ts`); others are ignored.
pub const BULK_OPTION_NAMES: [&str; 3] = ["chunkSize", "concurrency", "onProgress"];

/// What the option reader needs of a JS value: the JS value itself in the package, plain
/// data in the unit tests.
pub(crate) trait OptionValue: Clone {
    /// `undefined` or `null`: absent, as in JSON.
    fn is_absent(&self) -> bool;
    /// A number (NaN and the infinities included).
    fn number(&self) -> Option<f64>;
    /// A string.
    fn text(&self) -> Option<String>;
    /// A boolean.
    fn boolean(&self) -> Option<bool>;
    /// An object that is neither a function nor an array.
    fn is_plain_object(&self) -> bool;
    /// The own string keys (symbols left out); `None` when they cannot be read.
    fn own_keys(&self) -> Option<impl Iterator<Item = String>>;
    /// The property `key`, inherited ones too; `None` when reading it throws.
    fn get(&self, key: &str) -> Option<Self>;
    /// Whether the property `name` is a function (`false` when reading it throws).
    fn has_method(&self, name: &str) -> bool;
}

/// `new Client(options)` read: the client's configuration and the record cache.
pub(crate) struct ClientSetup<V> {
    /// The core client's configuration.
    pub config: ClientConfig,
    /// The record cache (`cache`): records are then paid for once.
    pub cache: Option<V>,
    /// Stored records older than this are bought again (`maxAgeMs`; `None`: no expiry).
    pub max_age_ms: Option<f64>,
}

/// Reads `new Client(options)`: `options` is the object, or JSON text that `parse_text`
/// turns into one. The error is the message of an `invalid_argument` error.
///
/// Decision: read field by field rather than `JSON.stringify` + a serde derive, which (with
/// the untagged `retries`) cost over 10 KB of the package's wasm; the rules stay those of the
/// JSON form: unknown options are errors, `null` and `undefined` mean absent.
pub(crate) fn read_client_options<V: OptionValue>(
    options: &V,
    parse_text: impl FnOnce(&str) -> Option<V>,
) -> Result<ClientSetup<V>, String> {
    // JSON.stringify turns NaN and Infinity into null, which would read as "no budget".
    let budget = options.get("budgetUsd").and_then(|budget| budget.number());
    if budget.is_some_and(|budget| !budget.is_finite()) {
        return Err("budgetUsd must be a finite amount of dollars".into());
    }
    let invalid = |message: String| format!("invalid client options: {message}");
    let value = match options.text() {
        Some(text) => {
            parse_text(&text).ok_or_else(|| invalid("options text is not JSON".into()))?
        }
        None => options.clone(),
    };
    let mut read = ClientOptions::read(value).map_err(invalid)?;
    let cache = read.cache.take();
    let max_age_ms = read.max_age_ms.filter(|max_age| *max_age >= 0.0);
    Ok(ClientSetup {
        config: read.into_config()?,
        cache,
        max_age_ms,
    })
}

/// `new Client(options)`, option by option.
struct ClientOptions<V> {
    key: Option<String>,
    base_url: Option<String>,
    timeout_ms: Option<f64>,
    retries: Option<RetryOptions>,
    validation: Option<String>,
    budget_usd: Option<Usd>,
    max_body_bytes: Option<f64>,
    headers: Vec<(String, String)>,
    cache: Option<V>,
    max_age_ms: Option<f64>,
}

/// `retries`: a number of retries, or a policy.
enum RetryOptions {
    Count(u32),
    Policy(RetryPolicyOptions),
}

/// `retries: { maxRetries, baseDelayMs, maxDelayMs, maxRetryAfterMs, jitter }`.
struct RetryPolicyOptions {
    max_retries: Option<u32>,
    base_delay_ms: Option<f64>,
    max_delay_ms: Option<f64>,
    max_retry_after_ms: Option<f64>,
    jitter: Option<bool>,
}

/// A plain object whose options are read one by one.
struct OptionBag<V>(V);

impl<V: OptionValue> OptionBag<V> {
    /// `value` if it is a plain object whose own string keys are all in `known`.
    fn new(value: V, what: &str, known: &[&str]) -> Result<OptionBag<V>, String> {
        if !value.is_plain_object() {
            return Err(format!("{what} must be an object"));
        }
        let keys = value
            .own_keys()
            .ok_or_else(|| format!("{what}: keys unreadable"))?;
        for key in keys {
            if !known.contains(&key.as_str()) {
                let key: String = key.chars().take(40).collect();
                return Err(format!(
                    "unknown option `{key}` in {what} (known: {known:?})"
                ));
            }
        }
        Ok(OptionBag(value))
    }

    /// The option `key`; `None` when absent, `undefined` or `null` (as in JSON).
    fn get(&self, key: &str) -> Result<Option<V>, String> {
        let value = self
            .0
            .get(key)
            .ok_or_else(|| format!("{key}: unreadable"))?;
        Ok((!value.is_absent()).then_some(value))
    }

    fn string(&self, key: &str) -> Result<Option<String>, String> {
        self.get(key)?
            .map(|value| {
                value
                    .text()
                    .ok_or_else(|| format!("{key} must be a string"))
            })
            .transpose()
    }

    /// A number; NaN and the infinities count as absent (JSON has no such numbers).
    fn number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.get(key)? {
            None => Ok(None),
            Some(value) => match value.number() {
                Some(n) => Ok(n.is_finite().then_some(n)),
                None => Err(format!("{key} must be a number")),
            },
        }
    }

    fn count(&self, key: &str) -> Result<Option<u32>, String> {
        self.get(key)?
            .map(|value| count_of(&value, key))
            .transpose()
    }
}

/// A whole number in `u32`.
fn count_of(value: &impl OptionValue, key: &str) -> Result<u32, String> {
    value
        .number()
        .filter(|number| number.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(number))
        .map(|number| number as u32)
        .ok_or_else(|| format!("{key} must be a whole number from 0"))
}

impl<V: OptionValue> ClientOptions<V> {
    /// Reads the options object.
    fn read(value: V) -> Result<ClientOptions<V>, String> {
        let options = OptionBag::new(value, "options", &CLIENT_OPTION_NAMES)?;
        let retries = match options.get("retries")? {
            None => None,
            Some(count) if count.number().is_some() => {
                Some(RetryOptions::Count(count_of(&count, "retries")?))
            }
            Some(policy) => {
                let policy = OptionBag::new(policy, "retries", &RETRY_OPTION_NAMES)
                    .map_err(|message| format!("{message} (or a number of retries)"))?;
                Some(RetryOptions::Policy(RetryPolicyOptions {
                    max_retries: policy.count("maxRetries")?,
                    base_delay_ms: policy.number("baseDelayMs")?,
                    max_delay_ms: policy.number("maxDelayMs")?,
                    max_retry_after_ms: policy.number("maxRetryAfterMs")?,
                    jitter: policy
                        .get("jitter")?
                        .map(|jitter| jitter.boolean().ok_or("jitter must be a boolean"))
                        .transpose()?,
                }))
            }
        };
        let budget_usd = match options.get("budgetUsd")? {
            None => None,
            Some(budget) => Some(match (budget.number(), budget.text()) {
                (Some(n), _) if (0.0..9.0e12).contains(&n) => {
                    Usd::from_micros((n * 1_000_000.0).round() as i64)
                }
                (_, Some(text)) => text.parse::<Usd>().map_err(|error| error.to_string())?,
                _ => return Err("budgetUsd must be a dollar amount from 0".into()),
            }),
        };
        let headers = match options.get("headers")? {
            None => Vec::new(),
            Some(object) => {
                if !object.is_plain_object() {
                    return Err("headers must be an object of strings".into());
                }
                let names = object.own_keys().ok_or("headers: keys unreadable")?;
                let mut headers = Vec::new();
                for name in names {
                    let value = object
                        .get(&name)
                        .and_then(|value| value.text())
                        .ok_or("headers must be an object of strings")?;
                    headers.push((name, value));
                }
                headers
            }
        };
        Ok(ClientOptions {
            key: options.string("key")?,
            base_url: options.string("baseUrl")?,
            timeout_ms: options.number("timeoutMs")?,
            retries,
            validation: options.string("validation")?,
            budget_usd,
            max_body_bytes: options.number("maxBodyBytes")?,
            headers,
            cache: options.get("cache")?.map(record_cache).transpose()?,
            max_age_ms: options.number("maxAgeMs")?,
        })
    }

    /// The core client's configuration (the error: an `invalid_argument` message).
    fn into_config(self) -> Result<ClientConfig, String> {
        let mut config = ClientConfig::new(self.key.unwrap_or_default());
        if let Some(url) = self.base_url {
            if !crate::ops::check::is_http_url(&url) {
                return Err("baseUrl must be an absolute http(s) URL".into());
            }
            config.base_url = url;
        }
        if let Some(timeout) = self.timeout_ms {
            config.timeout = (timeout > 0.0).then(|| duration_of_ms(timeout));
        }
        match self.retries {
            None => {}
            Some(RetryOptions::Count(n)) => config.retry.max_retries = n,
            Some(RetryOptions::Policy(policy)) => {
                let default = RetryPolicy::default();
                config.retry = RetryPolicy {
                    max_retries: policy.max_retries.unwrap_or(default.max_retries),
                    base_delay: policy
                        .base_delay_ms
                        .map(duration_of_ms)
                        .unwrap_or(default.base_delay),
                    max_delay: policy
                        .max_delay_ms
                        .map(duration_of_ms)
                        .unwrap_or(default.max_delay),
                    max_retry_after: policy
                        .max_retry_after_ms
                        .map(duration_of_ms)
                        .unwrap_or(default.max_retry_after),
                    jitter: policy.jitter.unwrap_or(default.jitter),
                };
            }
        }
        if let Some(mode) = self.validation {
            config.validation = mode.parse::<ValidationMode>()?;
        }
        config.budget = self.budget_usd;
        if let Some(n) = self.max_body_bytes {
            config.max_body_bytes = if n.is_finite() && n > 0.0 {
                n as usize
            } else {
                0
            };
        }
        config.headers = self.headers;
        Ok(config)
    }
}

/// The `cache` option: an object with `get` and `put` methods (`record_client.js` calls
/// them).
fn record_cache<V: OptionValue>(value: V) -> Result<V, String> {
    if value.has_method("get") && value.has_method("put") {
        Ok(value)
    } else {
        Err("cache must be an object with get(kind, keys) and put(kind, entries) methods".into())
    }
}

/// Milliseconds as a duration (NaN, the infinities and negatives as zero).
fn duration_of_ms(ms: f64) -> Duration {
    Duration::from_millis(if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    })
}

/// The `signal` of a call's options: `None` without options or signal; the error is an
/// `invalid_argument` message. (That it is an `AbortSignal` is checked in the wasm part.)
pub(crate) fn signal_of<V: OptionValue>(options: &V) -> Result<Option<V>, String> {
    if options.is_absent() {
        return Ok(None);
    }
    if !options.is_plain_object() {
        return Err("options must be an object such as { signal }".into());
    }
    Ok(options.get("signal").filter(|signal| !signal.is_absent()))
}

/// `chunkSize` and `concurrency` of `searchVolumeBulkChunked` (at least 1 each; anything
/// not a number is left at its default).
pub(crate) fn bulk_options<V: OptionValue>(options: &V) -> BulkOptions {
    let mut bulk = BulkOptions::default();
    if options.is_absent() {
        return bulk;
    }
    let number = |key: &str| options.get(key).and_then(|value| value.number());
    if let Some(n) = number("chunkSize") {
        bulk.chunk_size = n.max(1.0) as usize;
    }
    if let Some(n) = number("concurrency") {
        bulk.concurrency = n.max(1.0) as usize;
    }
    bulk
}

#[cfg(target_arch = "wasm32")]
pub(crate) use wasm::{cancel_from, AbortLink};

/// The options as JS values, and the abort signal of a call (wasm only).
#[cfg(target_arch = "wasm32")]
mod wasm {
    use js_sys::Reflect;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{signal_of, OptionValue};
    use crate::client::Cancel;
    use crate::js::errors::PackageError;

    impl OptionValue for JsValue {
        fn is_absent(&self) -> bool {
            self.is_undefined() || self.is_null()
        }
        fn number(&self) -> Option<f64> {
            self.as_f64()
        }
        fn text(&self) -> Option<String> {
            self.as_string()
        }
        fn boolean(&self) -> Option<bool> {
            self.as_bool()
        }
        fn is_plain_object(&self) -> bool {
            self.is_object() && !self.is_function() && !js_sys::Array::is_array(self)
        }
        fn own_keys(&self) -> Option<impl Iterator<Item = String>> {
            let keys = Reflect::own_keys(self).ok()?;
            Some(keys.into_iter().filter_map(|key| key.as_string()))
        }
        fn get(&self, key: &str) -> Option<JsValue> {
            Reflect::get(self, &JsValue::from_str(key)).ok()
        }
        fn has_method(&self, name: &str) -> bool {
            Reflect::get(self, &name.into()).is_ok_and(|method| method.is_function())
        }
    }

    /// An `AbortSignal` connected to a [`Cancel`] for one call. Dropped when the call ends,
    /// it removes its listener, so a long-lived signal reused for many calls gathers none.
    pub(crate) struct AbortLink {
        /// Cancelled when the signal aborts.
        pub(crate) cancel: Cancel,
        signal: Option<web_sys::AbortSignal>,
        callback: Option<Closure<dyn FnMut()>>,
    }

    impl Drop for AbortLink {
        fn drop(&mut self) {
            if let (Some(signal), Some(callback)) = (&self.signal, self.callback.take()) {
                let _ = signal.remove_event_listener_with_callback(
                    "abort",
                    callback.as_ref().unchecked_ref(),
                );
            }
        }
    }

    /// Connects `options.signal` (if any) to a [`Cancel`].
    pub(crate) fn cancel_from(options: &JsValue) -> Result<Option<AbortLink>, JsValue> {
        let Some(signal) = signal_of(options).map_err(PackageError::invalid_argument)? else {
            return Ok(None);
        };
        let signal: web_sys::AbortSignal = signal
            .dyn_into()
            .map_err(|_| PackageError::invalid_argument("options.signal must be an AbortSignal"))?;
        let cancel = Cancel::new();
        if signal.aborted() {
            cancel.cancel();
            return Ok(Some(AbortLink {
                cancel,
                signal: None,
                callback: None,
            }));
        }
        let on_abort = cancel.clone();
        let callback: Closure<dyn FnMut()> = Closure::once(move || on_abort.cancel());
        let _ = signal.add_event_listener_with_callback("abort", callback.as_ref().unchecked_ref());
        Ok(Some(AbortLink {
            cancel,
            signal: Some(signal),
            callback: Some(callback),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JS value as plain data.
    #[derive(Clone, Debug)]
    enum Value {
        Undefined,
        Null,
        Number(f64),
        Text(&'static str),
        Bool(bool),
        Object(Vec<(&'static str, Value)>),
        Array,
        Function,
    }

    impl OptionValue for Value {
        fn is_absent(&self) -> bool {
            matches!(self, Value::Undefined | Value::Null)
        }
        fn number(&self) -> Option<f64> {
            match self {
                Value::Number(n) => Some(*n),
                _ => None,
            }
        }
        fn text(&self) -> Option<String> {
            match self {
                Value::Text(t) => Some(t.to_string()),
                _ => None,
            }
        }
        fn boolean(&self) -> Option<bool> {
            match self {
                Value::Bool(b) => Some(*b),
                _ => None,
            }
        }
        fn is_plain_object(&self) -> bool {
            matches!(self, Value::Object(_))
        }
        fn own_keys(&self) -> Option<impl Iterator<Item = String>> {
            let members = match self {
                Value::Object(members) => members.clone(),
                _ => Vec::new(),
            };
            Some(members.into_iter().map(|(name, _)| name.to_string()))
        }
        fn get(&self, key: &str) -> Option<Value> {
            match self {
                Value::Object(members) => Some(
                    members
                        .iter()
                        .find(|(name, _)| *name == key)
                        .map_or(Value::Undefined, |(_, value)| value.clone()),
                ),
                // Reflect.get throws on a primitive.
                Value::Text(_) | Value::Number(_) | Value::Bool(_) => None,
                _ => Some(Value::Undefined),
            }
        }
        fn has_method(&self, name: &str) -> bool {
            matches!(self.get(name), Some(Value::Function))
        }
    }

    fn object(members: Vec<(&'static str, Value)>) -> Value {
        Value::Object(members)
    }

    fn read(options: Value) -> Result<ClientSetup<Value>, String> {
        read_client_options(&options, |_| None)
    }

    fn error(options: Value) -> String {
        read(options).err().expect("an error")
    }

    #[test]
    fn every_option_is_read() {
        let cache = object(vec![("get", Value::Function), ("put", Value::Function)]);
        let setup = read(object(vec![
            ("key", Value::Text("k")),
            ("baseUrl", Value::Text("http://127.0.0.1:9")),
            ("timeoutMs", Value::Number(1500.0)),
            (
                "retries",
                object(vec![
                    ("maxRetries", Value::Number(4.0)),
                    ("jitter", Value::Bool(false)),
                ]),
            ),
            ("validation", Value::Text("strict")),
            ("budgetUsd", Value::Text("$1.50")),
            ("maxBodyBytes", Value::Number(1024.0)),
            ("headers", object(vec![("x-trace", Value::Text("1"))])),
            ("cache", cache),
            ("maxAgeMs", Value::Number(-5.0)),
        ]))
        .unwrap();
        let config = setup.config;
        assert_eq!(config.base_url, "http://127.0.0.1:9");
        assert_eq!(config.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(config.retry.max_retries, 4);
        assert!(!config.retry.jitter);
        assert_eq!(config.retry.base_delay, RetryPolicy::default().base_delay);
        assert_eq!(config.validation, ValidationMode::Strict);
        assert_eq!(config.budget, Some(Usd::from_micros(1_500_000)));
        assert_eq!(config.max_body_bytes, 1024);
        assert_eq!(config.headers, [("x-trace".to_string(), "1".to_string())]);
        assert!(setup.cache.is_some());
        assert_eq!(
            setup.max_age_ms, None,
            "a negative maxAgeMs means no expiry"
        );
    }

    #[test]
    fn absent_means_default_and_numbers_are_checked() {
        let setup = read(object(vec![
            ("key", Value::Null),
            ("timeoutMs", Value::Number(0.0)),
            ("retries", Value::Number(0.0)),
            ("budgetUsd", Value::Number(0.25)),
        ]))
        .unwrap();
        assert_eq!(setup.config.timeout, None, "0 waits forever");
        assert_eq!(setup.config.retry.max_retries, 0);
        assert_eq!(setup.config.budget, Some(Usd::from_micros(250_000)));
        assert!(setup.cache.is_none());
        assert_eq!(
            error(object(vec![("budgetUsd", Value::Number(f64::NAN))])),
            "budgetUsd must be a finite amount of dollars"
        );
        assert_eq!(
            error(object(vec![("retries", Value::Number(1.5))])),
            "invalid client options: retries must be a whole number from 0"
        );
        assert_eq!(
            error(object(vec![("budgetUsd", Value::Number(-1.0))])),
            "invalid client options: budgetUsd must be a dollar amount from 0"
        );
        assert_eq!(
            error(object(vec![("timeoutMs", Value::Text("5"))])),
            "invalid client options: timeoutMs must be a number"
        );
    }

    #[test]
    fn wrong_shapes_are_invalid_arguments() {
        assert_eq!(
            error(Value::Array),
            "invalid client options: options must be an object"
        );
        let unknown = error(object(vec![("apiKey", Value::Text("k"))]));
        assert!(unknown.starts_with("invalid client options: unknown option `apiKey` in options"));
        assert_eq!(
            error(object(vec![("retries", object(vec![("tries", Value::Number(1.0))]))])),
            format!(
                "invalid client options: unknown option `tries` in retries (known: {RETRY_OPTION_NAMES:?}) (or a number of retries)"
            )
        );
        assert_eq!(
            error(object(vec![(
                "headers",
                object(vec![("x", Value::Number(1.0))])
            )])),
            "invalid client options: headers must be an object of strings"
        );
        assert!(error(object(vec![(
            "cache",
            object(vec![("get", Value::Function)])
        )]))
        .contains("cache must be an object with get(kind, keys) and put(kind, entries)"));
        assert_eq!(
            error(object(vec![("baseUrl", Value::Text("ftp://x"))])),
            "baseUrl must be an absolute http(s) URL"
        );
        assert!(read(object(vec![("validation", Value::Text("loud"))])).is_err());
        assert_eq!(
            error(Value::Text("{")),
            "invalid client options: options text is not JSON"
        );
        let from_text = read_client_options(&Value::Text("{}"), |_| Some(object(vec![]))).unwrap();
        assert_eq!(
            from_text.config.retry.max_retries,
            RetryPolicy::default().max_retries
        );
    }

    #[test]
    fn every_listed_option_is_known() {
        let all: Vec<(&'static str, Value)> = CLIENT_OPTION_NAMES
            .iter()
            .map(|name| (*name, Value::Undefined))
            .collect();
        assert!(read(object(all)).is_ok());
        let policy: Vec<(&'static str, Value)> = RETRY_OPTION_NAMES
            .iter()
            .map(|name| (*name, Value::Null))
            .collect();
        assert!(read(object(vec![("retries", object(policy))])).is_ok());
    }

    #[test]
    fn call_and_bulk_options() {
        assert!(signal_of(&Value::Undefined).unwrap().is_none());
        assert!(signal_of(&object(vec![])).unwrap().is_none());
        assert!(signal_of(&object(vec![("signal", Value::Function)]))
            .unwrap()
            .is_some());
        assert_eq!(
            signal_of(&Value::Number(1.0)).unwrap_err(),
            "options must be an object such as { signal }"
        );
        let bulk = bulk_options(&object(vec![
            ("chunkSize", Value::Number(0.0)),
            ("concurrency", Value::Number(3.7)),
        ]));
        assert_eq!((bulk.chunk_size, bulk.concurrency), (1, 3));
        let default = BulkOptions::default();
        let bulk = bulk_options(&Value::Null);
        assert_eq!(
            (bulk.chunk_size, bulk.concurrency),
            (default.chunk_size, default.concurrency)
        );
    }
}
