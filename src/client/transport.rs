//! How a request reaches the service: the [`Transport`] trait and its plain data types.
//!
//! Implementations: browser `fetch` (wasm32), the sandbox's in-process transport (the app's
//! demo mode), and test doubles. Futures are not `Send`, so the same trait serves wasm32.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A boxed, non-`Send` future (what [`Transport::post`] returns).
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// One HTTP POST of a JSON body.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// Full URL: base URL + `/v1/<operation>`. Never carries the key.
    pub url: String,
    /// Extra request headers (the JSON content type is implied).
    pub headers: Vec<(String, String)>,
    /// JSON body, including the `key` field.
    pub body: String,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// Refuse response bodies larger than this many bytes.
    pub max_body_bytes: usize,
}

/// The body is not printed: it holds the API key.
impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpRequest")
            .field("url", &self.url)
            .field("headers", &self.headers)
            .field("body", &format_args!("<{} bytes>", self.body.len()))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// An HTTP response as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Response headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

impl HttpResponse {
    /// The first header of that (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The header a team server states a call's charge in (decimal dollars).
pub const COST: &str = "x-serpkit-cost";
/// The header a team server states a call's possible charge in (its answer was lost).
pub const POSSIBLY_CHARGED: &str = "x-serpkit-possibly-charged";

/// Why no response arrived. Serializable, so a transport in another thread (the app's demo
/// worker) can pass it back as it is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportError {
    /// The timeout passed before the response was complete.
    Timeout,
    /// The caller cancelled.
    Aborted,
    /// The request provably never left (connection refused, host not found, no `fetch`):
    /// nothing can have been charged, so it is retried per the policy.
    NotSent(String),
    /// The connection failed before any response, after the request may have left (a
    /// reset, a CORS failure after the preflight, anything `fetch` does not tell apart): the
    /// service may have charged it, so it is never retried.
    Network(String),
    /// The response body was larger than allowed.
    BodyTooLarge {
        /// The limit in bytes.
        limit: usize,
        /// The status of the response whose body was refused (a 2xx was charged).
        status: u16,
    },
    /// The response head arrived, then reading its body failed (a 2xx was charged: never
    /// retried).
    BodyLost {
        /// The status of the response.
        status: u16,
        /// Why the body could not be read.
        message: String,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Timeout => f.write_str("the request timed out"),
            TransportError::Aborted => f.write_str("the request was cancelled"),
            TransportError::NotSent(m) => write!(f, "not sent: {m}"),
            TransportError::Network(m) => write!(f, "network error: {m}"),
            TransportError::BodyTooLarge { limit, .. } => {
                write!(f, "the response body is larger than {limit} bytes")
            }
            TransportError::BodyLost { status, message } => {
                write!(
                    f,
                    "the body of the HTTP {status} response was lost: {message}"
                )
            }
        }
    }
}

impl std::error::Error for TransportError {}

/// Error codes of a rejected `fetch` that prove the request never left: Node's undici sets
/// them (on the error's `cause`) when the connection was refused or the host not found.
pub const NOT_SENT_CODES: [&str; 3] = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"];

impl TransportError {
    /// A rejected `fetch`, from its message and the `code`s of the error and of its `cause`:
    /// [`TransportError::NotSent`] only for a code of [`NOT_SENT_CODES`], else
    /// [`TransportError::Network`] (browsers give no code, and cannot tell a refusal from a
    /// reset or a CORS failure after the preflight: the request may have left).
    pub fn of_rejection(message: String, codes: &[Option<&str>]) -> TransportError {
        let refused = codes
            .iter()
            .flatten()
            .any(|code| NOT_SENT_CODES.contains(&code.trim()));
        if refused {
            TransportError::NotSent(message)
        } else {
            TransportError::Network(message)
        }
    }
}

/// Sends one POST and returns the whole response.
pub trait Transport {
    /// POSTs `request.body` to `request.url`.
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>>;

    /// Awaited once [`Transport::post`] has finished, before its outcome is read. A transport
    /// may hand the rest of the call on to a new task here (the app does, so its journal's
    /// commits run first). Neither the timeout nor a cancel races it: an answer that
    /// arrived, perhaps paid for, is never dropped while it waits. With the `journal`
    /// feature only: the JS package's wasm does not carry it.
    #[cfg(feature = "journal")]
    fn after_answer(&self) -> LocalBoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::TransportError;

    #[test]
    fn only_codes_proving_nothing_left_are_not_sent() {
        let of = |codes: &[Option<&str>]| TransportError::of_rejection("m".into(), codes);
        for code in ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"] {
            assert_eq!(of(&[None, Some(code)]), TransportError::NotSent("m".into()));
            assert_eq!(of(&[Some(code), None]), TransportError::NotSent("m".into()));
        }
        for codes in [
            &[][..],
            &[None, None],
            &[Some("ECONNRESET"), None],
            &[None, Some("UND_ERR_SOCKET")],
            &[Some("econnrefused"), None],
            &[Some(""), Some("ETIMEDOUT")],
        ] {
            assert_eq!(of(codes), TransportError::Network("m".into()), "{codes:?}");
        }
    }
}
