//! [`SandboxResponse`] and the sandbox's error answers.

use crate::json::push_str;

/// A response of the sandbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxResponse {
    /// HTTP status.
    pub status: u16,
    /// Headers, names lower case. CORS headers are not here: the HTTP server adds them
    /// by the request's `Origin` ([`crate::server`]).
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
    /// Answer only after this many milliseconds (the `delay=<ms>` fault); 0 otherwise.
    pub delay_ms: u64,
    /// The `drop_body` fault: the HTTP server announces the whole body's length, sends only
    /// this many bytes of it and closes the connection. `None` for a whole answer.
    /// (The in-process transport answers the cut body as it is, like `truncate`.)
    pub drop_after: Option<usize>,
    /// The `reset` fault: the HTTP server resets the connection instead of answering (the
    /// call was charged); the in-process transport fails with a lost connection.
    pub reset: bool,
}

impl SandboxResponse {
    /// A response with this status, `content-type` and body.
    pub(crate) fn new(status: u16, content_type: &str, body: String) -> SandboxResponse {
        SandboxResponse {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body,
            delay_ms: 0,
            drop_after: None,
            reset: false,
        }
    }

    pub(crate) fn json(status: u16, body: String) -> SandboxResponse {
        SandboxResponse::new(status, "application/json", body)
    }

    /// The sandbox's error body: `{"error":{"code":..,"message":..}}` (plus `field` for a
    /// bad request field). The real service's error shape is not documented: clients must
    /// not depend on this one.
    pub fn error(status: u16, code: &str, message: &str, field: Option<&str>) -> SandboxResponse {
        let mut b = String::from("{\"error\":{\"code\":");
        push_str(&mut b, code);
        b.push_str(",\"message\":");
        push_str(&mut b, message);
        if let Some(f) = field {
            b.push_str(",\"field\":");
            push_str(&mut b, f);
        }
        b.push_str("}}");
        SandboxResponse::json(status, b)
    }

    pub(crate) fn with_header(mut self, name: &str, value: &str) -> SandboxResponse {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The first header of that name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The 413 response for a body over `max` bytes (the server uses it before reading all).
pub fn payload_too_large(max: usize) -> SandboxResponse {
    SandboxResponse::error(
        413,
        "payload_too_large",
        &format!("the request body is larger than {max} bytes"),
        None,
    )
}

pub(crate) fn rate_limited() -> SandboxResponse {
    SandboxResponse::error(
        429,
        "rate_limited",
        "simulated rate limit; retry later",
        None,
    )
    .with_header("retry-after", "1")
}

pub(crate) fn unavailable() -> SandboxResponse {
    SandboxResponse::error(503, "unavailable", "simulated outage; retry later", None)
        .with_header("retry-after", "1")
}

/// 503 for a `huge`/`delay` answer refused because too many are in flight (not charged).
pub fn busy(message: &str) -> SandboxResponse {
    SandboxResponse::error(503, "busy", message, None).with_header("retry-after", "1")
}
