//! The errors the package throws: a JS `Error` named `SerpkitError` with a `code` and the
//! fields of its kind. Which code, message and fields an error carries is decided here over
//! plain Rust types ([`PackageError`], [`describe_client_error`]); the JS values are made in
//! the wasm-only part at the end.

use std::borrow::Cow;

use crate::client::Error;
use crate::money::Usd;
use crate::ops::{Operation, RequestError};
use crate::validate::Report;

/// `invalid_argument`: an argument of the wrong kind (not a string, an unknown option, ...).
pub const INVALID_ARGUMENT: &str = "invalid_argument";
/// `unknown_operation`: a string that names no operation.
pub const UNKNOWN_OPERATION: &str = "unknown_operation";
/// `cache`: the browser's IndexedDB failed under `IndexedDbRecordCache` (record_cache.js; its
/// `cause` is the `DOMException`).
pub const CACHE: &str = "cache";
/// `not_initialized`: an export that needs the wasm, called before `init()` or `initSync()`
/// (browsers and bundlers; the Node, Deno, Bun and Workers entries initialise on import).
/// Thrown by the package's JS (`serpkit_error.js`, `notReady`), never by the wasm.
pub const NOT_INITIALIZED: &str = "not_initialized";
/// `init_failed`: `init()` or `initSync()` could not load the wasm (a missing or unreachable
/// `serpkit_bg.wasm`, bytes that are not it); its `cause` is what the platform threw. Thrown
/// by the package's JS (`serpkit_error.js`, `initFailed`), never by the wasm.
pub const INIT_FAILED: &str = "init_failed";
/// `invalid_request`: a request that does not parse or fails its checks (also a client code).
pub const INVALID_REQUEST: &str = "invalid_request";

/// The codes only the JS layer gives; every other code is a client error's
/// ([`Error::code`]).
pub const JS_ERROR_CODES: [&str; 5] = [
    INVALID_ARGUMENT,
    UNKNOWN_OPERATION,
    CACHE,
    NOT_INITIALIZED,
    INIT_FAILED,
];

/// Every `code` a `SerpkitError` can carry, in the order of `ErrorCode` in `serpkit.d.ts`:
/// the JS layer's own, then the client's ([`Error::code`]).
pub const ERROR_CODES: [&str; 19] = [
    INVALID_ARGUMENT,
    UNKNOWN_OPERATION,
    CACHE,
    NOT_INITIALIZED,
    INIT_FAILED,
    INVALID_REQUEST,
    "missing_key",
    "budget_exceeded",
    "http",
    "redirect",
    "timeout",
    "aborted",
    "network",
    "connection_lost",
    "body_too_large",
    "body_lost",
    "not_json",
    "decode",
    "contract_violation",
];

/// An error of the JS layer itself, before it becomes a `SerpkitError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PackageError {
    /// `invalid_argument`, with its message.
    InvalidArgument(Cow<'static, str>),
    /// `unknown_operation`, with its message.
    UnknownOperation(String),
}

impl PackageError {
    /// An `invalid_argument` error.
    pub(crate) fn invalid_argument(message: impl Into<Cow<'static, str>>) -> PackageError {
        PackageError::InvalidArgument(message.into())
    }

    /// The error's code (one of [`JS_ERROR_CODES`]).
    pub(crate) fn code(&self) -> &'static str {
        match self {
            PackageError::InvalidArgument(_) => INVALID_ARGUMENT,
            PackageError::UnknownOperation(_) => UNKNOWN_OPERATION,
        }
    }

    /// The error's message.
    pub(crate) fn message(&self) -> &str {
        match self {
            PackageError::InvalidArgument(message) => message,
            PackageError::UnknownOperation(message) => message,
        }
    }
}

/// The operation a JS argument names: `name` is the argument as a string, `None` when it is
/// not one.
pub(crate) fn operation_named(name: Option<String>) -> Result<Operation, PackageError> {
    // The argument arrives as a `JsValue`, not `&str`: wasm-bindgen's string glue traps
    // (out-of-bounds memory access) on a number, symbol or object passed where a string
    // belongs.
    let Some(name) = name else {
        return Err(PackageError::invalid_argument(
            "the operation must be a string (\"related\")",
        ));
    };
    name.parse::<Operation>()
        .map_err(|error| PackageError::UnknownOperation(error.to_string()))
}

/// The message of an `invalid_request` error the JS layer gives (a request that fails to
/// parse or its checks before any call).
pub(crate) fn request_error_message(error: &RequestError) -> String {
    format!("invalid request: {error}")
}

/// Receives the fields of an error one by one (the wasm part sets them on the JS `Error`;
/// the unit tests record them).
pub(crate) trait ErrorFields {
    /// A string field.
    fn text(&mut self, name: &'static str, value: &str);
    /// A number field.
    fn number(&mut self, name: &'static str, value: f64);
    /// A money field (`{ usd, micros, display }`).
    fn money(&mut self, name: &'static str, value: Usd);
    /// A validation report field.
    fn report(&mut self, name: &'static str, value: &Report);
}

/// The fields of an `invalid_request` error: `field` (a JSON Pointer) and `reason`.
pub(crate) fn describe_request_error(error: &RequestError, fields: &mut impl ErrorFields) {
    fields.text("field", error.field.as_str());
    fields.text("reason", error.code());
}

/// The fields of a client error: `hint`, `charge`, `possiblyCharged`, then those of its kind.
pub(crate) fn describe_client_error(error: &Error, fields: &mut impl ErrorFields) {
    fields.text("hint", error.hint());
    fields.money("charge", error.charge());
    fields.money("possiblyCharged", error.possible_charge());
    match error {
        Error::InvalidRequest(request_error) => describe_request_error(request_error, fields),
        Error::Http {
            status,
            body,
            retry_after,
        } => {
            fields.number("status", f64::from(*status));
            fields.text("body", body);
            if let Some(delay) = retry_after {
                fields.number("retryAfterMs", delay.as_millis() as f64);
            }
        }
        Error::BudgetExceeded {
            estimate,
            spent,
            budget,
        } => {
            fields.money("estimate", *estimate);
            fields.money("spent", *spent);
            fields.money("budget", *budget);
        }
        Error::NotJson { error, .. } | Error::Decode { error, .. } => {
            fields.text("path", &error.path);
            fields.number("line", error.line as f64);
            fields.number("column", error.column as f64);
        }
        Error::ContractViolation { report, body, .. } => {
            fields.report("report", report);
            // The body that was paid for, as text: the package's JS makes `data` of it under
            // the client's `integers` mode (exact_json.js `settleError`).
            fields.text("data", body);
        }
        Error::Timeout { after, .. } => fields.number("timeoutMs", after.as_millis() as f64),
        Error::BodyTooLarge { limit, .. } => fields.number("limit", *limit as f64),
        Error::BodyLost { status, .. } => fields.number("status", f64::from(*status)),
        Error::MissingKey
        | Error::Aborted { .. }
        | Error::Network(_)
        | Error::ConnectionLost { .. } => {}
        // The package has no journal; a native build with every feature has the variant.
        #[cfg(feature = "journal")]
        Error::Journal(_) => {}
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) use wasm::{client_error, request_error};

/// The JS values of the errors (wasm only).
#[cfg(target_arch = "wasm32")]
mod wasm {
    use js_sys::{Object, Reflect};
    use wasm_bindgen::JsValue;

    use super::{
        describe_client_error, describe_request_error, request_error_message, ErrorFields,
        PackageError, INVALID_REQUEST,
    };
    use crate::client::Error;
    use crate::js::replies::{money, report_value, set};
    use crate::money::Usd;
    use crate::ops::RequestError;
    use crate::validate::Report;

    /// A JS `Error` named `SerpkitError` with a `code`; its other fields are set on it next.
    fn serpkit_error(code: &str, message: &str) -> js_sys::Error {
        let error = js_sys::Error::new(message);
        error.set_name("SerpkitError");
        let _ = Reflect::set(&error, &"code".into(), &code.into());
        error
    }

    /// Sets the fields on the JS `Error`.
    struct OnObject<'a>(&'a Object);

    impl ErrorFields for OnObject<'_> {
        fn text(&mut self, name: &'static str, value: &str) {
            set(self.0, name, value);
        }
        fn number(&mut self, name: &'static str, value: f64) {
            set(self.0, name, value);
        }
        fn money(&mut self, name: &'static str, value: Usd) {
            set(self.0, name, money(value));
        }
        fn report(&mut self, name: &'static str, value: &Report) {
            set(self.0, name, report_value(value));
        }
    }

    impl From<PackageError> for JsValue {
        fn from(error: PackageError) -> JsValue {
            serpkit_error(error.code(), error.message()).into()
        }
    }

    /// An `invalid_request` error for a request that fails to parse or its checks.
    pub(crate) fn request_error(error: &RequestError) -> JsValue {
        let object = serpkit_error(INVALID_REQUEST, &request_error_message(error));
        describe_request_error(error, &mut OnObject(&object));
        object.into()
    }

    /// A client error as a `SerpkitError`.
    pub(crate) fn client_error(error: &Error) -> JsValue {
        let object = serpkit_error(error.code(), &error.to_string());
        describe_client_error(error, &mut OnObject(&object));
        object.into()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Records the fields as `name=value` lines.
    #[derive(Default)]
    struct Recorded(Vec<String>);

    impl ErrorFields for Recorded {
        fn text(&mut self, name: &'static str, value: &str) {
            self.0.push(format!("{name}={value}"));
        }
        fn number(&mut self, name: &'static str, value: f64) {
            self.0.push(format!("{name}={value}"));
        }
        fn money(&mut self, name: &'static str, value: Usd) {
            self.0.push(format!("{name}={value}"));
        }
        fn report(&mut self, name: &'static str, value: &Report) {
            self.0.push(format!("{name}=ok:{}", value.ok()));
        }
    }

    fn fields_of(error: &Error) -> Vec<String> {
        let mut recorded = Recorded::default();
        describe_client_error(error, &mut recorded);
        recorded.0
    }

    #[test]
    fn every_error_code_is_listed_once() {
        let mut codes = ERROR_CODES.to_vec();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ERROR_CODES.len());
        for code in JS_ERROR_CODES {
            assert!(ERROR_CODES.contains(&code));
        }
        assert!(ERROR_CODES.contains(&Error::MissingKey.code()));
    }

    #[test]
    fn operation_names_and_non_strings() {
        assert_eq!(
            operation_named(Some(" /v1/related ".into())),
            Ok(Operation::Related)
        );
        let not_a_string = operation_named(None).unwrap_err();
        assert_eq!(not_a_string.code(), INVALID_ARGUMENT);
        assert!(not_a_string.message().contains("must be a string"));
        // `Client.__operationIndex` gives `operation as u32`: its place in `Operation::ALL`,
        // the order of the schemas in static_data.js.
        for (index, operation) in Operation::ALL.into_iter().enumerate() {
            assert_eq!(operation as usize, index);
        }
        let unknown = operation_named(Some("nope".into())).unwrap_err();
        assert_eq!(unknown.code(), UNKNOWN_OPERATION);
        assert!(unknown.message().contains("nope"), "{}", unknown.message());
    }

    #[test]
    fn client_errors_carry_the_fields_of_their_kind() {
        let http = Error::Http {
            status: 429,
            body: "slow down".into(),
            retry_after: Some(Duration::from_millis(1500)),
        };
        let fields = fields_of(&http);
        assert_eq!(fields[1..3], ["charge=$0.0000", "possiblyCharged=$0.0000"]);
        assert_eq!(
            fields[3..],
            ["status=429", "body=slow down", "retryAfterMs=1500"]
        );
        assert!(fields[0].starts_with("hint="));

        let refused = Error::ContractViolation {
            report: Box::new(crate::validate::validate(Operation::Related, "[1]", None)),
            body: "[1]".into(),
            charge: Usd::from_micros(150_000),
        };
        let fields = fields_of(&refused);
        assert_eq!(fields[3..], ["report=ok:false", "data=[1]"]);

        let lost = Error::ConnectionLost {
            message: "socket hang up".into(),
            possible_charge: Usd::from_micros(150_000),
        };
        let fields = fields_of(&lost);
        assert_eq!(fields[1..], ["charge=$0.0000", "possiblyCharged=$0.1500"]);
        assert_eq!(lost.code(), "connection_lost");
        assert!(ERROR_CODES.contains(&lost.code()));

        let timeout = Error::Timeout {
            after: Duration::from_secs(2),
            possible_charge: Usd::from_micros(150_000),
        };
        let fields = fields_of(&timeout);
        assert_eq!(fields[2], "possiblyCharged=$0.1500");
        assert_eq!(fields[3..], ["timeoutMs=2000"]);
        assert_eq!(fields_of(&Error::MissingKey).len(), 3);
    }

    #[test]
    fn a_redirect_has_its_own_code_and_is_neither_charged_nor_possibly_charged() {
        for status in [301, 307, 308, 0] {
            let redirect = Error::Http {
                status,
                body: String::new(),
                retry_after: None,
            };
            assert_eq!(redirect.code(), "redirect", "{status}");
            assert!(ERROR_CODES.contains(&redirect.code()));
            assert!(
                redirect.hint().contains("server redirected"),
                "{}",
                redirect.hint()
            );
            let fields = fields_of(&redirect);
            assert_eq!(fields[1..3], ["charge=$0.0000", "possiblyCharged=$0.0000"]);
            assert!(fields.contains(&format!("status={status}")), "{fields:?}");
        }
        let refused = Error::Http {
            status: 404,
            body: String::new(),
            retry_after: None,
        };
        assert_eq!(refused.code(), "http");
    }

    #[test]
    fn request_errors_name_the_field_and_reason() {
        let error = crate::ops::Request::from_json(Operation::Related, "[").unwrap_err();
        assert!(request_error_message(&error).starts_with("invalid request: "));
        let mut recorded = Recorded::default();
        describe_request_error(&error, &mut recorded);
        assert_eq!(recorded.0.len(), 2);
        assert_eq!(recorded.0[0], format!("field={}", error.field));
        assert_eq!(recorded.0[1], format!("reason={}", error.code()));
    }
}
