//! The HTTP server (feature `server`): axum in front of the shared [`Sandbox`] core.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, Uri};
use axum::Router;
use tokio::net::TcpListener;

use crate::service::{key_id, payload_too_large, Sandbox, SandboxResponse};

/// A router that sends every request to the sandbox core.
pub fn router(sandbox: Arc<Sandbox>) -> Router {
    Router::new().fallback(handle).with_state(sandbox)
}

/// Binds `addr` (e.g. `127.0.0.1:0` for a free port).
pub async fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Serves requests on `listener` until the process ends.
pub async fn serve(listener: TcpListener, sandbox: Arc<Sandbox>) -> io::Result<()> {
    axum::serve(listener, router(sandbox)).await
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

async fn handle(
    State(sandbox): State<Arc<Sandbox>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response<Body> {
    let max = sandbox.config().max_body_bytes;
    let declared = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let path = uri.path().to_owned();
    let is_op = method == Method::POST && path.starts_with("/v1/");
    if is_op && declared.is_some_and(|n| n > max as u64) {
        return to_response(payload_too_large(max));
    }
    let bytes = match to_bytes(body, max.saturating_add(1)).await {
        Ok(b) => b,
        Err(_) => return to_response(payload_too_large(max)),
    };
    let hs: Vec<(String, String)> = headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect();
    let fault_key = log_key(&bytes);
    let m = method.as_str().to_owned();
    let p = path.clone();
    let sb = sandbox.clone();
    let result = tokio::task::spawn_blocking(move || sb.handle(&m, &p, &hs, &bytes)).await;
    let r = match result {
        Ok(r) => r,
        Err(_) => {
            SandboxResponse::error(500, "internal", "the sandbox failed on this request", None)
        }
    };
    if path.starts_with("/v1/") {
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
    to_response(r)
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

fn to_response(r: SandboxResponse) -> Response<Body> {
    let mut resp = Response::new(Body::from(r.body));
    *resp.status_mut() =
        StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (n, v) in r.headers {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(n), HeaderValue::try_from(v)) {
            resp.headers_mut().append(n, v);
        }
    }
    resp
}
