//! The options of `new Client(...)` and of each call (`{ signal, refresh }`, and the bulk
//! job's). The client's are read and checked in the package's JS (`client_options.js`) and
//! arrive here in a compact form ([`ClientOptions`]); a call's are read through
//! [`OptionValue`], which the JS value implements in the wasm-only part at the end, and plain
//! data in the unit tests.

use std::time::Duration;

use crate::client::{BulkOptions, ClientConfig, ValidationMode};
use crate::money::Usd;

/// The options of `new Client(...)` (`ClientOptions` in `serpkit.d.ts`); any other is an
/// error. Read in the package's JS, which holds the same list (`client_options.js`, which
/// hands `fetch` to the wasm client by `__useFetch`;
/// `integers` and `account` in `exact_json.js`).
pub const CLIENT_OPTION_NAMES: [&str; 13] = [
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
    "fetch",
];

/// The values of the `integers` option: how `data` holds integers beyond ±(2^53 − 1), which a
/// JS number cannot hold exactly. The option is read, checked and applied in the package's JS
/// (`exact_json.js`, the list carried there by static_data.js), where `data` is made from the
/// body text: the wasm only accepts its name (reading it here cost 0.3 kB gzip of the wasm).
///
/// Decided: under "bigint" and "string" only such integers in the fields the core declares as
/// ids ([`crate::rules::dsl::ID`], listed per operation in static_data.js) are converted; every
/// other number stays a number, as the generated types say. An integer beyond that range
/// elsewhere, or under "number" (the default), stays a rounded number but never silently: the
/// reply's report gets one `unsafe_integer` warning per field path pattern.
pub const INTEGER_MODES: [&str; 3] = ["number", "bigint", "string"];

/// The options of a retry policy (`retries: { ... }`, `RetryOptions` in `serpkit.d.ts`); any
/// other is an error (read in `client_options.js`, which holds the same list).
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

/// What the readers of a call's options need of a JS value: the JS value itself in the
/// package, plain data in the unit tests.
pub(crate) trait OptionValue: Clone {
    /// `undefined` or `null`: absent, as in JSON.
    fn is_absent(&self) -> bool;
    /// A number (NaN and the infinities included).
    fn number(&self) -> Option<f64>;
    /// An object that is neither a function nor an array.
    fn is_plain_object(&self) -> bool;
    /// The property `key`, inherited ones too; `None` when reading it throws.
    fn get(&self, key: &str) -> Option<Self>;
}

/// `new Client(options)` as the wasm constructor gets it: read and checked by the package's
/// JS (`client_options.js`: each option's type, unknown options, the retry policy's shape,
/// the record cache), which hands over this compact form; what needs the core is checked
/// here. `None` (JS `undefined`) is an absent option; numbers are finite.
///
/// Decision: the options were read here field by field over JS values, which cost about
/// 3 kB gzip of the package's wasm (a serde derive over `JSON.stringify` cost over 10 kB).
#[derive(Debug, Default)]
pub(crate) struct ClientOptions {
    pub key: String,
    pub base_url: Option<String>,
    pub validation: Option<String>,
    /// `budgetUsd` in text (`"$1.50"`), read by [`budget_of_text`] (client_options.js checks
    /// it in its turn by a constructor given it alone).
    pub budget_text: Option<String>,
    /// `budgetUsd` as a number of dollars, from 0 and under 9e12.
    pub budget_number: Option<f64>,
    pub timeout_ms: Option<f64>,
    pub max_retries: Option<u32>,
    pub base_delay_ms: Option<f64>,
    pub max_delay_ms: Option<f64>,
    pub max_retry_after_ms: Option<f64>,
    pub jitter: Option<bool>,
    pub max_body_bytes: Option<f64>,
    pub headers: Vec<(String, String)>,
}

/// A `budgetUsd` in text: the error is an `invalid_argument` message.
pub(crate) fn budget_of_text(text: &str) -> Result<Usd, String> {
    text.parse::<Usd>()
        .map_err(|error| format!("invalid client options: {error}"))
}

impl ClientOptions {
    /// The core client's configuration (the error: an `invalid_argument` message).
    pub(crate) fn into_config(self) -> Result<ClientConfig, String> {
        let mut config = ClientConfig::new(self.key);
        config.budget = match (self.budget_text, self.budget_number) {
            (Some(text), _) => Some(budget_of_text(&text)?),
            (None, Some(n)) => Some(Usd::from_micros((n * 1_000_000.0).round() as i64)),
            (None, None) => None,
        };
        if let Some(url) = self.base_url {
            if !crate::ops::check::is_http_url(&url) {
                return Err("baseUrl must be an absolute http(s) URL".into());
            }
            config.base_url = url;
        }
        if let Some(timeout) = self.timeout_ms {
            config.timeout = (timeout > 0.0).then(|| duration_of_ms(timeout));
        }
        // `retries: n` is the default policy with `maxRetries: n`.
        let retry = &mut config.retry;
        if let Some(n) = self.max_retries {
            retry.max_retries = n;
        }
        if let Some(ms) = self.base_delay_ms {
            retry.base_delay = duration_of_ms(ms);
        }
        if let Some(ms) = self.max_delay_ms {
            retry.max_delay = duration_of_ms(ms);
        }
        if let Some(ms) = self.max_retry_after_ms {
            retry.max_retry_after = duration_of_ms(ms);
        }
        if let Some(jitter) = self.jitter {
            retry.jitter = jitter;
        }
        if let Some(mode) = self.validation {
            config.validation = mode.parse::<ValidationMode>()?;
        }
        if let Some(n) = self.max_body_bytes {
            config.max_body_bytes = if n > 0.0 { n as usize } else { 0 };
        }
        config.headers = self.headers;
        Ok(config)
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

    use super::{signal_of, ClientOptions, OptionValue};
    use crate::client::Cancel;
    use crate::js::errors::PackageError;

    impl OptionValue for JsValue {
        fn is_absent(&self) -> bool {
            self.is_undefined() || self.is_null()
        }
        fn number(&self) -> Option<f64> {
            self.as_f64()
        }
        fn is_plain_object(&self) -> bool {
            self.is_object() && !self.is_function() && !js_sys::Array::is_array(self)
        }
        fn get(&self, key: &str) -> Option<JsValue> {
            Reflect::get(self, &JsValue::from_str(key)).ok()
        }
    }

    impl ClientOptions {
        /// The compact form client_options.js makes of the options: `[key, baseUrl,
        /// validation, budgetText, budgetNumber, timeoutMs, maxRetries, baseDelayMs,
        /// maxDelayMs, maxRetryAfterMs, jitter, maxBodyBytes, ...headers]`, a header's name
        /// and value in a row each, `undefined` for an absent option.
        pub(crate) fn from_compact(compact: &JsValue) -> ClientOptions {
            let list: &js_sys::Array = compact.unchecked_ref();
            let text = |i: u32| list.get(i).as_string();
            let number = |i: u32| list.get(i).as_f64();
            let mut headers = Vec::new();
            let mut i = 12;
            while i < list.length() {
                headers.push((text(i).unwrap_or_default(), text(i + 1).unwrap_or_default()));
                i += 2;
            }
            ClientOptions {
                key: text(0).unwrap_or_default(),
                base_url: text(1),
                validation: text(2),
                budget_text: text(3),
                budget_number: number(4),
                timeout_ms: number(5),
                max_retries: number(6).map(|n| n as u32),
                base_delay_ms: number(7),
                max_delay_ms: number(8),
                max_retry_after_ms: number(9),
                jitter: list.get(10).as_bool(),
                max_body_bytes: number(11),
                headers,
            }
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
    use crate::client::RetryPolicy;

    /// A JS value as plain data.
    #[derive(Clone, Debug)]
    enum Value {
        Undefined,
        Null,
        Number(f64),
        Object(Vec<(&'static str, Value)>),
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
        fn is_plain_object(&self) -> bool {
            matches!(self, Value::Object(_))
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
                Value::Number(_) => None,
                _ => Some(Value::Undefined),
            }
        }
    }

    fn object(members: Vec<(&'static str, Value)>) -> Value {
        Value::Object(members)
    }

    #[test]
    fn every_option_is_applied() {
        let config = ClientOptions {
            key: "k".into(),
            base_url: Some("http://127.0.0.1:9".into()),
            validation: Some("strict".into()),
            budget_text: Some("$1.50".into()),
            timeout_ms: Some(1500.0),
            max_retries: Some(4),
            jitter: Some(false),
            max_body_bytes: Some(1024.0),
            headers: vec![("x-trace".into(), "1".into())],
            ..ClientOptions::default()
        }
        .into_config()
        .unwrap();
        assert_eq!(config.base_url, "http://127.0.0.1:9");
        assert_eq!(config.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(config.retry.max_retries, 4);
        assert!(!config.retry.jitter);
        assert_eq!(config.retry.base_delay, RetryPolicy::default().base_delay);
        assert_eq!(config.validation, ValidationMode::Strict);
        assert_eq!(config.budget, Some(Usd::from_micros(1_500_000)));
        assert_eq!(config.max_body_bytes, 1024);
        assert_eq!(config.headers, [("x-trace".to_string(), "1".to_string())]);
    }

    #[test]
    fn absent_means_default() {
        let default = ClientConfig::new("");
        let config = ClientOptions::default().into_config().unwrap();
        assert_eq!(config.base_url, default.base_url);
        assert_eq!(config.timeout, default.timeout);
        assert_eq!(config.retry, RetryPolicy::default());
        assert_eq!(config.budget, None);
        assert_eq!(config.max_body_bytes, default.max_body_bytes);
        let config = ClientOptions {
            timeout_ms: Some(0.0),
            max_retries: Some(0),
            budget_number: Some(0.25),
            base_delay_ms: Some(-5.0),
            max_body_bytes: Some(-1.0),
            ..ClientOptions::default()
        }
        .into_config()
        .unwrap();
        assert_eq!(config.timeout, None, "0 waits forever");
        assert_eq!(config.retry.max_retries, 0);
        assert_eq!(config.retry.base_delay, Duration::ZERO);
        assert_eq!(config.retry.max_delay, RetryPolicy::default().max_delay);
        assert_eq!(config.budget, Some(Usd::from_micros(250_000)));
        assert_eq!(config.max_body_bytes, 0);
    }

    #[test]
    fn what_the_core_checks() {
        let error = |options: ClientOptions| options.into_config().expect_err("an error");
        assert_eq!(
            error(ClientOptions {
                base_url: Some("ftp://x".into()),
                ..ClientOptions::default()
            }),
            "baseUrl must be an absolute http(s) URL"
        );
        assert!(error(ClientOptions {
            validation: Some("loud".into()),
            ..ClientOptions::default()
        })
        .contains("validation mode must be"));
        // The budget's text is read first, as the JS reader checks it in its turn.
        assert_eq!(
            error(ClientOptions {
                budget_text: Some("lots".into()),
                base_url: Some("ftp://x".into()),
                ..ClientOptions::default()
            }),
            "invalid client options: not a dollar amount: lots"
        );
        assert_eq!(budget_of_text(" $2 "), Ok(Usd::from_micros(2_000_000)));
        assert!(budget_of_text("-1").is_err());
    }

    /// client_options.js holds the same lists of option names.
    #[test]
    fn the_js_reader_knows_the_same_options() {
        let js = include_str!("client_options.js");
        let list = |names: &[&str]| {
            let quoted: Vec<String> = names.iter().map(|name| format!("'{name}'")).collect();
            format!("[{}];", quoted.join(", "))
        };
        assert!(js.contains(&format!(
            "export const CLIENT_OPTION_NAMES = {}",
            list(&CLIENT_OPTION_NAMES)
        )));
        assert!(js.contains(&format!(
            "export const RETRY_OPTION_NAMES = {}",
            list(&RETRY_OPTION_NAMES)
        )));
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
