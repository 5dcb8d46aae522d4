//! The requests in flight: received by the server, their answer not yet fully sent.
//!
//! `GET /ledger` reports the count as `in_flight`, so a test can wait until the sandbox is
//! quiet and then read the ledger as final ("no further call was made") instead of sleeping.
//! A request counts from the moment its headers are handled until its response body is
//! dropped by the server: after its last byte was written, or when the connection failed (a
//! client that gave up, the `reset` and `drop_body` faults). Its ledger entry is written
//! inside that span, so a count of 0 read before the ledger means the ledger holds every
//! request received until then.

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};

/// The number of requests in flight.
#[derive(Debug, Default)]
pub struct InFlight(Arc<AtomicUsize>);

/// One request in flight; it ends when dropped.
#[derive(Debug)]
pub struct Entered(Arc<AtomicUsize>);

impl Drop for Entered {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl InFlight {
    /// Counts one more request until the returned guard is dropped.
    pub fn enter(&self) -> Entered {
        self.0.fetch_add(1, Ordering::SeqCst);
        Entered(self.0.clone())
    }

    /// Requests in flight now.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// The control endpoints (`/health`, `/ledger`, `/ledger/reset`) are the test harness's own
/// and are not counted: a `GET /ledger` would otherwise always see itself in flight.
pub fn counted(path: &str) -> bool {
    !matches!(path, "/health" | "/ledger" | "/ledger/reset")
}

/// A response body that keeps its request counted until the server drops it.
struct Tracked {
    body: Body,
    _entered: Entered,
}

/// `body`, its request counted by `entered` for as long as the body lives.
pub fn track(body: Body, entered: Entered) -> Body {
    Body::new(Tracked {
        body,
        _entered: entered,
    })
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        http_body::Body::poll_frame(Pin::new(&mut self.body), cx)
    }

    fn is_end_stream(&self) -> bool {
        http_body::Body::is_end_stream(&self.body)
    }

    fn size_hint(&self) -> SizeHint {
        http_body::Body::size_hint(&self.body)
    }
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;
    use std::time::Duration;

    use serde_json::Value;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use crate::{Config, Date, Sandbox, DEFAULT_KEY};

    async fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> String {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\
             content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out).await;
        out
    }

    async fn ledger(addr: SocketAddr) -> Value {
        let r = request(addr, "GET", "/ledger", "").await;
        let body = r.split("\r\n\r\n").nth(1).unwrap_or_default();
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {r}"))
    }

    #[tokio::test]
    async fn ledger_counts_requests_until_their_answer_is_sent() {
        let sb = std::sync::Arc::new(Sandbox::new(Config::new(Date::new(2024, 3, 5).unwrap())));
        let addr = crate::server::spawn("127.0.0.1:0".parse().unwrap(), sb)
            .await
            .unwrap();
        let l = ledger(addr).await;
        assert_eq!(
            l["in_flight"], 0,
            "the ledger's own request is not counted: {l}"
        );
        assert_eq!(l["entries"], serde_json::json!([]));

        let body =
            format!(r#"{{"key":"{DEFAULT_KEY}+delay=700","keyword":"trail shoes","ccode":"US"}}"#);
        let slow = tokio::spawn(async move { request(addr, "POST", "/v1/related", &body).await });
        // Charged on arrival, answered 700 ms later: in flight meanwhile.
        let mut seen = Value::Null;
        for _ in 0..100 {
            seen = ledger(addr).await;
            if seen["entries"].as_array().is_some_and(|e| !e.is_empty()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(seen["in_flight"], 1, "charged, not answered yet: {seen}");

        let answer = slow.await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let l = ledger(addr).await;
        assert_eq!(l["in_flight"], 0, "answered: {l}");
        assert_eq!(l["entries"].as_array().map(Vec::len), Some(1));
    }
}
