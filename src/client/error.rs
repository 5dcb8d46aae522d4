//! The client's one error type.

use std::fmt;
use std::time::Duration;

use crate::decode::DecodeError;
use crate::money::Usd;
use crate::ops::RequestError;
use crate::validate::Report;

/// Longest excerpt of an error response body kept in [`Error::Http`].
pub const BODY_EXCERPT_CHARS: usize = 500;

/// Everything a call can fail with. Messages never contain the API key.
#[derive(Clone, Debug)]
pub enum Error {
    /// A request field failed its check; nothing was sent.
    InvalidRequest(RequestError),
    /// No API key is configured; nothing was sent.
    MissingKey,
    /// The estimate would exceed the budget; nothing was sent.
    BudgetExceeded {
        /// Estimated charge of this call.
        estimate: Usd,
        /// Already committed: spent, possibly charged and reserved by calls in flight.
        spent: Usd,
        /// The budget.
        budget: Usd,
    },
    /// The service answered with a non-success status (after any retries). A 3xx is a
    /// redirect (code `redirect`): never followed (the key is in the body), never retried,
    /// and, like every answer other than a success, not charged. Status 0 is one too: what a
    /// browser shows of a redirect under `redirect: "manual"` (an `opaqueredirect`); no other
    /// answer the transport passes on has it.
    Http {
        /// HTTP status (401, 402, 413, 429, 5xx, ...); 3xx for a redirect, 0 for one whose
        /// status a browser hides (an `opaqueredirect` answer).
        status: u16,
        /// The start of the response body (at most [`BODY_EXCERPT_CHARS`]), key removed.
        body: String,
        /// The `Retry-After` the service sent, if any.
        retry_after: Option<Duration>,
    },
    /// No complete response within the timeout. Not retried: the request was sent, so the
    /// service may have charged it.
    Timeout {
        /// The timeout.
        after: Duration,
        /// The estimate counted as possibly charged (the request was sent).
        possible_charge: Usd,
    },
    /// The caller cancelled.
    Aborted {
        /// The estimate counted as possibly charged: zero when the cancel came before the
        /// request was sent (or during a wait between retries).
        possible_charge: Usd,
    },
    /// A success status arrived, then reading its body failed. Charged (the service
    /// answered) and never retried (that would buy the same data again).
    BodyLost {
        /// The response's status.
        status: u16,
        /// Why the body could not be read, key removed.
        message: String,
        /// What the call was charged.
        charge: Usd,
    },
    /// The request never left (refused, host not found), also after the retries: free.
    Network(String),
    /// The connection failed after the request may have left, before any response (a reset,
    /// a failure `fetch` cannot tell from a refusal). Not retried: the service may have
    /// charged it.
    ConnectionLost {
        /// Why, key removed.
        message: String,
        /// The estimate counted as possibly charged.
        possible_charge: Usd,
    },
    /// The response body exceeded the size limit.
    BodyTooLarge {
        /// The limit in bytes.
        limit: usize,
        /// What the call was charged (the service answered with success: charged).
        charge: Usd,
    },
    /// A success status with a body that is not JSON (charged: the service answered 200).
    NotJson {
        /// Where the text stops being JSON.
        error: DecodeError,
        /// The text that was paid for, so the app's journal keeps it and it is not bought
        /// again unasked (only with the `journal` feature: the JS package's wasm has no room).
        #[cfg(feature = "journal")]
        body: String,
        /// What the call was charged.
        charge: Usd,
    },
    /// JSON that does not fit the typed model even leniently (charged).
    Decode {
        /// The path and reason.
        error: DecodeError,
        /// What the call was charged.
        charge: Usd,
    },
    /// Strict validation found contract errors (charged).
    ContractViolation {
        /// The validation report.
        report: Box<Report>,
        /// The body that was paid for (for a planned call: the merged answer), so a strict
        /// refusal never throws bought data away.
        body: String,
        /// What the call was charged.
        charge: Usd,
    },
    /// The purchase journal stopped the request before it left, so nothing was charged: it
    /// could not be written ahead (storage closed or full, a newer version in another tab,
    /// no Web Locks to agree with the other tabs), or where it would go changed while it
    /// waited. The reason says which, and what to do.
    #[cfg(feature = "journal")]
    Journal(String),
}

impl Error {
    /// A stable machine-readable code: `invalid_request`, `missing_key`, `budget_exceeded`,
    /// `http`, `redirect`, `timeout`, `aborted`, `network`, `connection_lost`, `body_too_large`,
    /// `body_lost`, `not_json`, `decode`, `contract_violation`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidRequest(_) => "invalid_request",
            Error::MissingKey => "missing_key",
            Error::BudgetExceeded { .. } => "budget_exceeded",
            Error::Http {
                status: 0 | 300..=399,
                ..
            } => "redirect",
            Error::Http { .. } => "http",
            Error::Timeout { .. } => "timeout",
            Error::Aborted { .. } => "aborted",
            Error::Network(_) => "network",
            Error::ConnectionLost { .. } => "connection_lost",
            Error::BodyTooLarge { .. } => "body_too_large",
            Error::BodyLost { .. } => "body_lost",
            Error::NotJson { .. } => "not_json",
            Error::Decode { .. } => "decode",
            Error::ContractViolation { .. } => "contract_violation",
            #[cfg(feature = "journal")]
            Error::Journal(_) => "journal",
        }
    }

    /// What the failed call was charged, confirmed (only calls the service answered with a
    /// success status).
    pub fn charge(&self) -> Usd {
        match self {
            Error::NotJson { charge, .. }
            | Error::BodyTooLarge { charge, .. }
            | Error::BodyLost { charge, .. }
            | Error::Decode { charge, .. }
            | Error::ContractViolation { charge, .. } => *charge,
            _ => Usd::ZERO,
        }
    }

    /// What the failed call may have been charged: its estimate when it was sent and then
    /// timed out, was aborted or lost its connection (the outcome is unknown); zero
    /// otherwise.
    pub fn possible_charge(&self) -> Usd {
        match self {
            Error::Timeout {
                possible_charge, ..
            }
            | Error::ConnectionLost {
                possible_charge, ..
            }
            | Error::Aborted { possible_charge } => *possible_charge,
            _ => Usd::ZERO,
        }
    }

    /// A hint for people: what to do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            Error::InvalidRequest(_) => "Fix the field named and try again.",
            Error::MissingKey => "Set the API key.",
            Error::BudgetExceeded { .. } => "Raise the budget cap, or run a smaller request.",
            Error::Http { status: 401, .. } => "The API key was refused: check the key.",
            Error::Http { status: 402, .. } => "No credit left on the account: top it up.",
            Error::Http { status: 413, .. } => "The request is too large: split it.",
            Error::Http { status: 429, .. } => "Rate limited: wait a moment and try again.",
            Error::Http {
                status: 500..=599, ..
            } => "The service had a problem: try again later.",
            Error::Http {
                status: 0 | 300..=399,
                ..
            } => "The server redirected it: check the base URL.",
            Error::Http { .. } => "The service refused the request.",
            Error::Timeout {
                possible_charge, ..
            } if *possible_charge > Usd::ZERO => {
                "No answer in time; it may have been charged, so it was not repeated. Raise the \
                 timeout before running it again."
            }
            Error::Timeout { .. } => "No answer in time: raise the timeout.",
            Error::Aborted { possible_charge } if *possible_charge > Usd::ZERO => {
                "Cancelled after sending: it may have been charged."
            }
            Error::Aborted { .. } => "The call was cancelled.",
            Error::Network(_) => "Check the network connection and the base URL.",
            Error::ConnectionLost { .. } => {
                "The connection failed after sending; it may have been charged, so it was not \
                 repeated. Check the connection before running it again."
            }
            Error::BodyTooLarge { .. } => "The answer was larger than the size limit.",
            Error::BodyLost { .. } => "Charged, but the answer was lost; it was not repeated.",
            Error::NotJson { .. } | Error::Decode { .. } => {
                "A broken answer, charged: report it to the service."
            }
            Error::ContractViolation { .. } => {
                "The answer breaks the contract: see the validation report."
            }
            #[cfg(feature = "journal")]
            Error::Journal(_) => "Nothing was sent or charged; do what the message says.",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRequest(e) => write!(f, "invalid request: {e}"),
            Error::MissingKey => f.write_str("no API key configured"),
            Error::BudgetExceeded {
                estimate,
                spent,
                budget,
            } => write!(
                f,
                "budget exceeded: this call costs {estimate}, {spent} of the {budget} budget is spent"
            ),
            Error::Http { status, body, .. } => {
                write!(f, "HTTP {status}")?;
                if !body.is_empty() {
                    write!(f, ": {body}")?;
                }
                Ok(())
            }
            Error::Timeout {
                after,
                possible_charge,
            } => {
                // `after.as_millis()` written as its seconds then 3 digits of milliseconds:
                // the same text without `u128` formatting (1.3 KB of the JS package's wasm).
                let (secs, ms) = (after.as_secs(), after.subsec_millis());
                if secs == 0 {
                    write!(f, "timed out after {ms} ms")?;
                } else {
                    write!(f, "timed out after {secs}{ms:03} ms")?;
                }
                may_have_been_charged(f, *possible_charge)
            }
            Error::Aborted { possible_charge } => {
                f.write_str("aborted")?;
                may_have_been_charged(f, *possible_charge)
            }
            Error::BodyLost {
                status, message, ..
            } => write!(
                f,
                "HTTP {status} answered (charged), then its body was lost: {message}"
            ),
            Error::Network(m) => write!(f, "network error: {m}"),
            Error::ConnectionLost {
                message,
                possible_charge,
            } => {
                write!(f, "connection lost: {message}")?;
                may_have_been_charged(f, *possible_charge)
            }
            Error::BodyTooLarge { limit, .. } => {
                write!(f, "response body larger than {limit} bytes")
            }
            Error::NotJson { error, .. } => write!(f, "response is not JSON: {error}"),
            Error::Decode { error, .. } => write!(f, "response does not fit the model: {error}"),
            Error::ContractViolation { report, .. } => write!(
                f,
                "response breaks the contract: {} error(s), first: {}",
                report.error_count(),
                report
                    .errors()
                    .next()
                    .map(|i| format!("{} {}", i.path, i.message))
                    .unwrap_or_default()
            ),
            #[cfg(feature = "journal")]
            Error::Journal(reason) => write!(f, "not sent: {reason}"),
        }
    }
}

impl std::error::Error for Error {}

/// The tail of a message of a call that was sent and whose outcome is unknown.
fn may_have_been_charged(f: &mut fmt::Formatter<'_>, possible: Usd) -> fmt::Result {
    if possible > Usd::ZERO {
        write!(
            f,
            " after the request was sent: it may have been charged {possible}"
        )?;
    }
    Ok(())
}

/// `text` with every occurrence of `key` replaced by `***`, cut to `max` characters. Also
/// replaced: the key's JSON-escaped form (as `serde_json` and `JSON.stringify` write it inside
/// a string) and its URL-encoded forms (percent-encoding with upper- or lower-case hex, space
/// as `%20` or `+`, with or without `!'()*` escaped), so a service that echoes the request
/// body or a query string in an error cannot leak it. Keys under 4 bytes are not searched
/// for (they would match ordinary text).
pub fn redact(text: &str, key: &str, max: usize) -> String {
    let mut cleaned = text.to_owned();
    if key.len() >= 4 {
        for form in key_forms(key) {
            if cleaned.contains(form.as_str()) {
                cleaned = cleaned.replace(form.as_str(), "***");
            }
        }
    }
    let mut out: String = cleaned.chars().take(max).collect();
    if cleaned.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// The forms of `key` that [`redact`] removes: the URL-encoded ones first, then the
/// JSON-escaped one, then the key as it is (longer forms first, so a form that holds a
/// shorter one is removed whole; forms equal to the key are removed by the first).
fn key_forms(key: &str) -> Vec<String> {
    let mut forms = Vec::new();
    // (lower-case hex, space as `+`, keep `!'()*` as encodeURIComponent does)
    for flags in [0u8, 0b010, 0b001, 0b011, 0b100, 0b110] {
        let hex: &[u8; 16] = if flags & 0b100 == 0 {
            b"0123456789ABCDEF"
        } else {
            b"0123456789abcdef"
        };
        let mut out = String::new();
        for &b in key.as_bytes() {
            if b.is_ascii_alphanumeric()
                || b"-._~".contains(&b)
                || (flags & 1 != 0 && b"!'()*".contains(&b))
            {
                out.push(char::from(b));
            } else if b == b' ' && flags & 0b010 != 0 {
                out.push('+');
            } else {
                out.push('%');
                out.push(char::from(hex[usize::from(b >> 4)]));
                out.push(char::from(hex[usize::from(b & 15)]));
            }
        }
        forms.push(out);
    }
    if let Ok(json) = serde_json::to_string(key) {
        forms.push(json[1..json.len() - 1].to_owned());
    }
    forms.push(key.to_owned());
    forms
}

#[cfg(test)]
mod tests {
    use super::{redact, Error};
    use std::time::Duration;

    #[test]
    fn redact_removes_the_raw_json_escaped_and_url_encoded_key() {
        let key = r#"my "secret" key/ü+!"#;
        let texts = [
            format!("raw {key} end"),
            format!("json {} end", serde_json::to_string(key).unwrap()),
            "pct my%20%22secret%22%20key%2F%C3%BC%2B%21 end".to_string(),
            "lower my%20%22secret%22%20key%2f%c3%bc%2b%21 end".to_string(),
            "form my+%22secret%22+key%2F%C3%BC%2B%21 end".to_string(),
            "uri my%20%22secret%22%20key%2F%C3%BC%2B! end".to_string(),
        ];
        for t in &texts {
            let r = redact(t, key, 500);
            assert!(!r.contains("secret"), "{t} -> {r}");
            assert!(r.ends_with(" end") && r.contains("***"), "{t} -> {r}");
        }
        // A key with a backslash and a tab: serde_json writes `\\` and `\t`.
        let key = "a\\b\tc-key";
        let json = serde_json::to_string(key).unwrap();
        assert!(json.contains(r"\\") && json.contains(r"\t"));
        assert_eq!(redact(&format!("x{json}y"), key, 500), "x\"***\"y");
        // Short keys are left alone; text is cut to `max` characters.
        assert_eq!(redact("abc abc", "abc", 500), "abc abc");
        assert_eq!(redact("0123456789", "zzzz", 4), "0123…");
    }

    #[test]
    fn timeout_message_shows_as_millis() {
        let durations = [0, 1, 999, 1_000, 1_001, 60_000, 12_345_678]
            .map(Duration::from_millis)
            .into_iter()
            .chain([
                Duration::from_nanos(1_500_000),
                Duration::from_nanos(999_999),
                Duration::new(u64::MAX, 999_999_999),
            ]);
        for d in durations {
            let want = format!("timed out after {} ms", d.as_millis());
            let e = Error::Timeout {
                after: d,
                possible_charge: crate::money::Usd::ZERO,
            };
            assert_eq!(e.to_string(), want);
        }
    }
}
