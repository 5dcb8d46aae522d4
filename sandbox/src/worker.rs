//! The demo sandbox in a Web Worker: the message protocol between the app's demo transport
//! and the worker (`src/bin/sandbox-worker.rs`, built by Trunk from `index.html`).
//!
//! Why a worker: the sandbox (generator, word lists, request core) is ~55 KB of the app's
//! gzipped wasm. In a worker it is fetched on the first demo call instead of with the page,
//! and generating a large body (100,000 rows) does not block the page.
//!
//! Messages are plain objects `{ meta, body }`:
//! - app → worker: `meta` is the JSON of a [`Call`], `body` the request body text;
//! - worker → app: `meta` is the JSON of a [`Reply`], `body` the response body as UTF-8
//!   bytes in a transferred `Uint8Array` (a 10 MB body is moved, not copied or re-encoded).
//!
//! On start the worker posts one [`Reply::ready`]; the app holds its calls until then. The
//! answers are exactly [`InProcess::post_now`]'s, so demo mode behaves as before.

use serde::{Deserialize, Serialize};
use serpkit::client::{HttpRequest, HttpResponse, TransportError};
use serpkit::Usd;
use std::time::Duration;

use crate::{Date, InProcess};

/// One request, app → worker (the body travels beside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// Matches the reply to the call.
    pub id: u32,
    /// The app's date (days since 1970-01-01): the sandbox's "today", set by the first call.
    pub today: i64,
    /// Full URL (`.../v1/<operation>`).
    pub url: String,
    /// Request headers (fault injection uses one).
    pub headers: Vec<(String, String)>,
    /// The request's timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// The largest body accepted.
    pub max_body_bytes: usize,
}

impl Call {
    /// The call for `request` (its body is sent separately).
    pub fn of(id: u32, today: Date, request: &HttpRequest) -> Call {
        Call {
            id,
            today: today.to_days(),
            url: request.url.clone(),
            headers: request.headers.clone(),
            timeout_ms: request
                .timeout
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            max_body_bytes: request.max_body_bytes,
        }
    }

    /// The request again, with its body.
    pub fn request(&self, body: String) -> HttpRequest {
        HttpRequest {
            url: self.url.clone(),
            headers: self.headers.clone(),
            body,
            timeout: self.timeout_ms.map(Duration::from_millis),
            max_body_bytes: self.max_body_bytes,
        }
    }
}

/// One answer, worker → app (the body travels beside it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The call's id (0 for the ready message).
    pub id: u32,
    /// The worker has started and takes calls.
    pub ready: bool,
    /// HTTP status (when there is a response).
    pub status: u16,
    /// Response headers.
    pub headers: Vec<(String, String)>,
    /// Set when there is no response.
    pub error: Option<TransportError>,
    /// The demo ledger's total after this call, in micro-dollars.
    pub ledger_micros: i64,
    /// Charged calls in the demo ledger after this call.
    pub ledger_calls: usize,
}

impl Reply {
    /// The message a started worker posts first.
    pub fn ready() -> Reply {
        Reply {
            ready: true,
            ..Reply::default()
        }
    }

    /// The demo ledger after this reply: total and charged calls.
    pub fn ledger(&self) -> (Usd, usize) {
        (Usd::from_micros(self.ledger_micros), self.ledger_calls)
    }

    /// The transport result, with the body that came beside the reply.
    pub fn result(self, body: String) -> Result<HttpResponse, TransportError> {
        match self.error {
            None => Ok(HttpResponse {
                status: self.status,
                headers: self.headers,
                body,
            }),
            Some(e) => Err(e),
        }
    }
}

/// The worker's side: one demo sandbox, made on the first call with the app's date.
#[derive(Debug, Default)]
pub struct WorkerState {
    demo: Option<InProcess>,
}

impl WorkerState {
    /// Answers one message: returns the reply's `meta` JSON and the response body. A message
    /// that is not a [`Call`] gets a network error naming the problem (id 0).
    pub fn answer(&mut self, meta: &str, body: String) -> (String, String) {
        let (reply, body) = match serde_json::from_str::<Call>(meta) {
            Err(e) => (
                Reply {
                    // Never reached the sandbox: nothing was charged.
                    error: Some(TransportError::NotSent(format!(
                        "the demo sandbox got a malformed message: {e}"
                    ))),
                    ..Reply::default()
                },
                String::new(),
            ),
            Ok(call) => {
                let demo = self
                    .demo
                    .get_or_insert_with(|| InProcess::demo(Date::from_days(call.today)));
                let result = demo.post_now(&call.request(body));
                let ledger = demo.ledger();
                let mut reply = Reply {
                    id: call.id,
                    ledger_micros: ledger.total.micros(),
                    ledger_calls: ledger.charged().count(),
                    ..Reply::default()
                };
                let body = match result {
                    Ok(r) => {
                        reply.status = r.status;
                        reply.headers = r.headers;
                        r.body
                    }
                    Err(e) => {
                        reply.error = Some(e);
                        String::new()
                    }
                };
                (reply, body)
            }
        };
        (to_json(&reply), body)
    }
}

/// The JSON of a reply (plain data: serializing it cannot fail).
pub fn to_json(reply: &Reply) -> String {
    serde_json::to_string(reply).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serpkit::client::Transport;

    fn request(body: &str, timeout_ms: Option<u64>, max: usize) -> HttpRequest {
        HttpRequest {
            url: "sandbox://demo/v1/related".into(),
            headers: vec![],
            body: body.into(),
            timeout: timeout_ms.map(Duration::from_millis),
            max_body_bytes: max,
        }
    }

    /// Through the protocol, a call answers exactly what the in-process transport answers.
    #[test]
    fn same_answers_as_in_process() {
        let today = Date::new(2024, 3, 5).unwrap();
        let body = format!(
            r#"{{"key":"{}","keyword":"trail shoes","ccode":"US"}}"#,
            crate::DEMO_KEY
        );
        let cases = [
            request(&body, Some(30_000), 1 << 20),
            request(&body, Some(30_000), 10),
            request(
                r#"{"key":"nope","keyword":"x","ccode":"US"}"#,
                None,
                1 << 20,
            ),
            request("not json", None, 1 << 20),
        ];
        let mut state = WorkerState::default();
        let direct = InProcess::demo(today);
        for (i, req) in cases.iter().enumerate() {
            let call = Call::of(i as u32 + 1, today, req);
            let (meta, out) =
                state.answer(&serde_json::to_string(&call).unwrap(), req.body.clone());
            let reply: Reply = serde_json::from_str(&meta).unwrap();
            assert_eq!(reply.id, i as u32 + 1);
            let expected = futures_lite(direct.post(req.clone()));
            assert_eq!(reply.clone().result(out), expected, "case {i}");
            let ledger = direct.ledger();
            assert_eq!(reply.ledger(), (ledger.total, ledger.charged().count()));
        }
        assert!(state.demo.as_ref().unwrap().ledger().total > Usd::ZERO);
    }

    #[test]
    fn malformed_message_is_an_error_not_a_panic() {
        let mut state = WorkerState::default();
        for meta in ["", "{", "[]", r#"{"id":-1}"#] {
            let (meta, body) = state.answer(meta, String::new());
            let reply: Reply = serde_json::from_str(&meta).unwrap();
            assert!(matches!(reply.error, Some(TransportError::NotSent(_))));
            assert!(body.is_empty());
        }
        assert_eq!(
            serde_json::from_str::<Reply>(&to_json(&Reply::ready())).unwrap(),
            Reply::ready()
        );
    }

    /// Polls a future that is ready at once (the in-process transport's are).
    fn futures_lite<T>(f: impl std::future::Future<Output = T>) -> T {
        let mut f = std::pin::pin!(f);
        let waker = std::task::Waker::noop();
        match f.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => unreachable!("the in-process transport answers at once"),
        }
    }
}
