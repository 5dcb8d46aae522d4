//! The HTTP server (feature `server`): axum in front of the shared [`Sandbox`] core.
//!
//! Safe to leave running (it is a local dev tool, and a web page visited meanwhile must not
//! be able to use it against its owner):
//! - every `POST` needs `content-type: application/json` (parameters such as
//!   `; charset=utf-8` allowed), else 415: a page can send another content type cross-origin
//!   without a CORS preflight, JSON it cannot;
//! - CORS only for loopback origins and `--allow-origin` ([`cors`]); a `POST` with any other
//!   `Origin` gets 403;
//! - at most [`crate::Config::max_heavy`] `huge`/`delay` answers in flight, holding at most
//!   [`crate::Config::max_huge_bytes`] of `huge` bodies; more get 503 with `Retry-After`
//!   (not charged);
//! - the ledger keeps its last [`crate::Config::max_ledger_entries`] entries.
//!
//! `GET /ledger` here also says how many requests are in flight (`in_flight.rs`).

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, Uri};
use axum::Extension;
use axum::Router;
use serde::Serialize;
use tokio::net::TcpListener;

use crate::faults::FAULT_HEADER;
use crate::ledger::Ledger;
use crate::response::{payload_too_large, SandboxResponse};
use crate::service::{key_id, Sandbox, REDIRECT_TARGET};

mod body;
pub mod cors;
mod in_flight;
mod reset;

pub use body::Heavy;
use body::{Permit, Sent};
use cors::Cors;
use in_flight::InFlight;
use reset::{ResetHandle, Resettable};

struct App {
    sandbox: Arc<Sandbox>,
    heavy: Arc<Heavy>,
    cors: Cors,
    in_flight: InFlight,
}

/// `GET /ledger` over HTTP: the core's ledger and the requests in flight, which only the
/// server knows (the in-process sandbox answers each call before the next).
#[derive(Serialize)]
struct LedgerAnswer {
    #[serde(flatten)]
    ledger: Ledger,
    /// Requests received (but to the control endpoints) whose answer is not fully sent.
    in_flight: usize,
}

/// A router that sends every request to the sandbox core.
pub fn router(sandbox: Arc<Sandbox>) -> Router {
    let c = sandbox.config();
    let app = App {
        heavy: Heavy::new(c.max_heavy, c.max_huge_bytes),
        cors: Cors::new(&c.allow_origins),
        in_flight: InFlight::default(),
        sandbox,
    };
    Router::new().fallback(handle).with_state(Arc::new(app))
}

/// Binds `addr` (e.g. `127.0.0.1:0` for a free port).
pub async fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Serves requests on `listener` until the process ends.
pub async fn serve(listener: TcpListener, sandbox: Arc<Sandbox>) -> io::Result<()> {
    // Every connection carries its reset flag to the handler (the `reset` fault).
    let app = router(sandbox).into_make_service_with_connect_info::<ResetHandle>();
    axum::serve(Resettable(listener), app).await
}

/// Starts the server on a background task; returns its address (tests use port 0).
pub async fn spawn(addr: SocketAddr, sandbox: Arc<Sandbox>) -> io::Result<SocketAddr> {
    let listener = bind(addr).await?;
    let local = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = serve(listener, sandbox).await;
    });
    Ok(local)
}

/// True for `application/json`, with any parameters (`; charset=utf-8`).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

async fn handle(
    State(app): State<Arc<App>>,
    connection: Option<Extension<ConnectInfo<ResetHandle>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response<Body> {
    let entered = in_flight::counted(uri.path()).then(|| app.in_flight.enter());
    let origin = headers.get("origin").and_then(|v| v.to_str().ok());
    let allowed = origin.and_then(|o| app.cors.allow(o));
    let preflight = method == Method::OPTIONS;
    // `/redirected` records whoever arrives, from any origin.
    let foreign = origin.is_some() && allowed.is_none() && uri.path() != REDIRECT_TARGET;
    let mut resp = if method == Method::POST && foreign {
        to_response(
            SandboxResponse::error(
                403,
                "forbidden_origin",
                "this origin may not use the sandbox; start it with --allow-origin ORIGIN",
                None,
            ),
            None,
        )
    } else {
        answer(
            &app,
            method,
            uri,
            &headers,
            body,
            connection.map(|c| c.0 .0),
        )
        .await
    };
    let h = resp.headers_mut();
    h.append("vary", HeaderValue::from_static("origin"));
    // One request per connection: a browser resends a request by itself when a reused
    // keep-alive connection is reset before any byte of the answer (Chromium does, POSTs
    // included), so the `reset` fault on a connection its preflight opened would be charged
    // twice without any client code repeating it. A fresh connection per request keeps the
    // ledger about what the client did.
    h.insert("connection", HeaderValue::from_static("close"));
    if let Some(value) = allowed.and_then(|a| HeaderValue::try_from(a).ok()) {
        h.insert("access-control-allow-origin", value);
        h.insert(
            "access-control-expose-headers",
            HeaderValue::from_static("retry-after"),
        );
        if preflight {
            h.insert(
                "access-control-allow-methods",
                HeaderValue::from_static("GET, POST, OPTIONS"),
            );
            if let Ok(v) = HeaderValue::try_from(format!("content-type, {FAULT_HEADER}")) {
                h.insert("access-control-allow-headers", v);
            }
            h.insert("access-control-max-age", HeaderValue::from_static("600"));
        }
    }
    match entered {
        Some(entered) => resp.map(|body| in_flight::track(body, entered)),
        None => resp,
    }
}

async fn answer(
    app: &Arc<App>,
    method: Method,
    uri: Uri,
    headers: &HeaderMap,
    body: Body,
    connection: Option<ResetHandle>,
) -> Response<Body> {
    let sandbox = &app.sandbox;
    let max = sandbox.config().max_body_bytes;
    let declared = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let path = uri.path().to_owned();
    if method == Method::GET && path == "/ledger" {
        // The count first: 0 then means every request received so far is in the snapshot.
        let in_flight = app.in_flight.count();
        let answer = LedgerAnswer {
            ledger: sandbox.ledger(),
            in_flight,
        };
        let body = serde_json::to_string(&answer).unwrap_or_default();
        return to_response(SandboxResponse::json(200, body), None);
    }
    if method == Method::POST && path != REDIRECT_TARGET && !is_json(headers) {
        let r = SandboxResponse::error(
            415,
            "unsupported_media_type",
            "POST bodies must be sent with content-type: application/json",
            None,
        );
        return to_response(r, None);
    }
    let is_op = method == Method::POST && path.starts_with("/v1/");
    if is_op && declared.is_some_and(|n| n > max as u64) {
        return to_response(payload_too_large(max), None);
    }
    let bytes = match to_bytes(body, max.saturating_add(1)).await {
        Ok(b) => b,
        Err(_) => return to_response(payload_too_large(max), None),
    };
    let hs: Vec<(String, String)> = headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect();
    let fault_key = log_key(&bytes);
    let m = method.as_str().to_owned();
    let p = path.clone();
    let sb = sandbox.clone();
    let heavy = app.heavy.clone();
    let result = tokio::task::spawn_blocking(move || {
        let mut permit = None;
        let r = sb.handle_gated(&m, &p, &hs, &bytes, &mut |f| {
            permit = Some(heavy.take(f)?);
            Ok(())
        });
        (r, permit)
    })
    .await;
    let (r, permit) = match result {
        Ok(r) => r,
        Err(_) => (
            SandboxResponse::error(500, "internal", "the sandbox failed on this request", None),
            None,
        ),
    };
    if path.starts_with("/v1/") || path == REDIRECT_TARGET {
        eprintln!(
            "{method} {path} -> {} ({} bytes){}{}",
            r.status,
            r.body.len(),
            fault_key.map(|k| format!(" key={k}")).unwrap_or_default(),
            if r.delay_ms > 0 {
                format!(" delayed {} ms", r.delay_ms)
            } else {
                String::new()
            }
        );
    }
    if r.delay_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(r.delay_ms)).await;
    }
    if r.reset {
        // Charged already; nothing of this answer is written (a router without connect
        // info, not served by `serve`, answers it as a plain 200).
        if let Some(connection) = connection {
            connection.reset();
        }
    }
    to_response(r, permit)
}

/// The key id of a body, for the log line (never the key itself).
fn log_key(body: &[u8]) -> Option<String> {
    if body.len() > 1 << 20 {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    let k = v.get("key")?.as_str()?;
    Some(key_id(crate::faults::split_key(k).0))
}

fn to_response(r: SandboxResponse, permit: Option<Permit>) -> Response<Body> {
    let full = r.body.len();
    let body = match r.drop_after {
        Some(cut) => {
            let mut b = Bytes::from(r.body);
            b.truncate(cut.min(full));
            Body::new(Sent::dropped(b, permit))
        }
        None => Body::new(Sent::whole(Bytes::from(r.body), permit)),
    };
    let mut resp = Response::new(body);
    *resp.status_mut() =
        StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (n, v) in r.headers {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(n), HeaderValue::try_from(v)) {
            resp.headers_mut().append(n, v);
        }
    }
    if r.drop_after.is_some() {
        // The whole body's length is announced; fewer bytes arrive before the close.
        resp.headers_mut()
            .insert("content-length", HeaderValue::from(full));
    }
    resp
}
