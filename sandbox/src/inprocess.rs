//! [`InProcess`]: a [`Transport`] that answers from a [`Sandbox`] in the same process, for
//! the app's demo mode and for tests: no network, no set-up, real prices on a simulated
//! ledger.

use std::sync::Arc;

use serpkit::client::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};

use crate::date::Date;
use crate::ledger::Ledger;
use crate::service::{Config, Sandbox};

/// A transport backed by an in-process [`Sandbox`] (shares the HTTP server's request core).
///
/// Time is simulated: a `delay=<ms>` fault at least as long as the request's timeout fails
/// at once with [`TransportError::Timeout`] (the call is still charged, as a server that
/// answered late would charge it); a shorter delay answers at once. A body larger than the
/// request's `max_body_bytes` fails with [`TransportError::BodyTooLarge`].
#[derive(Clone, Debug)]
pub struct InProcess {
    sandbox: Arc<Sandbox>,
}

impl InProcess {
    /// Demo mode: accepts [`crate::DEMO_KEY`] and [`crate::DEFAULT_KEY`] with no budget
    /// limit; data as of `today`.
    pub fn demo(today: Date) -> InProcess {
        InProcess::new(Sandbox::new(Config::demo(today)))
    }

    /// A transport over this sandbox.
    pub fn new(sandbox: Sandbox) -> InProcess {
        InProcess {
            sandbox: Arc::new(sandbox),
        }
    }

    /// A transport over a shared sandbox.
    pub fn from_shared(sandbox: Arc<Sandbox>) -> InProcess {
        InProcess { sandbox }
    }

    /// The sandbox behind it.
    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.sandbox
    }

    /// Every call so far and the total charged.
    pub fn ledger(&self) -> Ledger {
        self.sandbox.ledger()
    }

    /// Answers one request synchronously (what [`Transport::post`] resolves to).
    pub fn post_now(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        let path = url_path(&request.url);
        let r = self
            .sandbox
            .handle("POST", path, &request.headers, request.body.as_bytes());
        if r.reset {
            // Charged, then no answer at all: the request may have left, as `fetch` sees it.
            return Err(TransportError::Network(
                "the connection was reset before any response (reset fault)".into(),
            ));
        }
        if r.drop_after.is_some() {
            // `drop_body`: the head arrived, the body did not (as a connection closed
            // mid-body is seen by `fetch`). Charged like any 200.
            return Err(TransportError::BodyLost {
                status: r.status,
                message: "the connection closed while the body was read".into(),
            });
        }
        if let Some(timeout) = request.timeout {
            if u128::from(r.delay_ms) >= timeout.as_millis() {
                return Err(TransportError::Timeout);
            }
        }
        if r.body.len() > request.max_body_bytes {
            return Err(TransportError::BodyTooLarge {
                limit: request.max_body_bytes,
                status: r.status,
            });
        }
        Ok(HttpResponse {
            status: r.status,
            headers: r.headers,
            body: r.body,
        })
    }
}

impl Transport for InProcess {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move { self.post_now(&request) })
    }
}

/// The path of a URL: `http://h:1/v1/related?x` → `/v1/related?x`; a bare path as is.
fn url_path(url: &str) -> &str {
    match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            rest.find('/').map(|j| &rest[j..]).unwrap_or("/")
        }
        None => url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(url_path("http://127.0.0.1:9/v1/related"), "/v1/related");
        assert_eq!(url_path("sandbox://x"), "/");
        assert_eq!(url_path("/v1/related"), "/v1/related");
    }
}
