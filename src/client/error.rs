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
        /// Already spent (and reserved by calls in flight).
        spent: Usd,
        /// The budget.
        budget: Usd,
    },
    /// The service answered with a non-success status (after any retries).
    Http {
        /// HTTP status (401, 402, 413, 429, 5xx, ...).
        status: u16,
        /// The start of the response body (at most [`BODY_EXCERPT_CHARS`]), key removed.
        body: String,
        /// The `Retry-After` the service sent, if any.
        retry_after: Option<Duration>,
    },
    /// No complete response within the timeout.
    Timeout(Duration),
    /// The caller cancelled.
    Aborted,
    /// The connection failed before a response.
    Network(String),
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
        /// What the call was charged.
        charge: Usd,
    },
}

impl Error {
    /// A stable machine-readable code: `invalid_request`, `missing_key`, `budget_exceeded`,
    /// `http`, `timeout`, `aborted`, `network`, `body_too_large`, `not_json`, `decode`,
    /// `contract_violation`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidRequest(_) => "invalid_request",
            Error::MissingKey => "missing_key",
            Error::BudgetExceeded { .. } => "budget_exceeded",
            Error::Http { .. } => "http",
            Error::Timeout(_) => "timeout",
            Error::Aborted => "aborted",
            Error::Network(_) => "network",
            Error::BodyTooLarge { .. } => "body_too_large",
            Error::NotJson { .. } => "not_json",
            Error::Decode { .. } => "decode",
            Error::ContractViolation { .. } => "contract_violation",
        }
    }

    /// What the failed call was charged (only calls the service answered with 200).
    pub fn charge(&self) -> Usd {
        match self {
            Error::NotJson { charge, .. }
            | Error::BodyTooLarge { charge, .. }
            | Error::Decode { charge, .. }
            | Error::ContractViolation { charge, .. } => *charge,
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
            Error::Http { status: 402, .. } => {
                "The account has no credit left: top it up with the service."
            }
            Error::Http { status: 413, .. } => {
                "The request is too large: split it into smaller ones."
            }
            Error::Http { status: 429, .. } => {
                "The service is rate limiting: wait a moment and try again."
            }
            Error::Http {
                status: 500..=599, ..
            } => "The service had a problem: try again later.",
            Error::Http { .. } => "The service refused the request.",
            Error::Timeout(_) => {
                "The service did not answer in time: try again, or raise the timeout."
            }
            Error::Aborted => "The call was cancelled.",
            Error::Network(_) => "Check the network connection and the base URL.",
            Error::BodyTooLarge { .. } => "The answer was larger than the size limit.",
            Error::NotJson { .. } | Error::Decode { .. } => {
                "The service sent a broken answer; it was charged. Report it to the service."
            }
            Error::ContractViolation { .. } => {
                "The answer breaks the documented contract; see the validation report."
            }
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
            Error::Timeout(d) => {
                // `d.as_millis()` written as its seconds then 3 digits of milliseconds: the
                // same text without `u128` formatting (1.3 KB of the JS package's wasm).
                let (secs, ms) = (d.as_secs(), d.subsec_millis());
                if secs == 0 {
                    write!(f, "timed out after {ms} ms")
                } else {
                    write!(f, "timed out after {secs}{ms:03} ms")
                }
            }
            Error::Aborted => f.write_str("aborted"),
            Error::Network(m) => write!(f, "network error: {m}"),
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
        }
    }
}

impl std::error::Error for Error {}

/// `text` with every occurrence of `key` replaced by `***`, cut to `max` characters.
pub fn redact(text: &str, key: &str, max: usize) -> String {
    let cleaned = if key.len() >= 4 {
        text.replace(key, "***")
    } else {
        text.to_owned()
    };
    let mut out: String = cleaned.chars().take(max).collect();
    if cleaned.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Error;
    use std::time::Duration;

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
            assert_eq!(Error::Timeout(d).to_string(), want);
        }
    }
}
