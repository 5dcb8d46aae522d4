//! The HTTP side: the service's 11 operations at the service's paths, the team's own
//! `GET /team/spend`, `GET /team/journal`, `GET /team/purchases` (who bought what),
//! `GET /team/records?after=<n>` (the team's records as a feed), `GET` and `POST
//! /team/schedules`, `GET /team/history?domain=<d>&limit=<n>` (a domain's scheduled ranked
//! keywords, the history position changes read) (token in
//! `authorization: Bearer …`), and `GET /health`.
//!
//! Every error is the service's error shape as the sandbox writes it,
//! `{"error":{"code":…,"message":…}}` (`field` for a bad request field), and nothing is
//! charged for any of them. A `POST` needs `content-type: application/json` (a page can send
//! other types cross-origin without a preflight); CORS allows the configured origins only,
//! and a `POST` with any other `Origin` is refused (403).

use std::str::FromStr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use axum::Router;
use serpkit::{Operation, Request};

use crate::auth::{self, AuthError};
use crate::buy::{self, Answer, Refusal};
use crate::App;

/// The headers every answer of an operation carries: what it cost, how many requested
/// positions the team's records answered, what it may have cost (its answer was lost) and
/// its journal entry.
pub const COST: &str = "x-serpkit-cost";
/// See [`COST`].
pub const REUSED: &str = "x-serpkit-reused";
/// See [`COST`].
pub const POSSIBLY_CHARGED: &str = "x-serpkit-possibly-charged";
/// See [`COST`].
pub const ENTRY: &str = "x-serpkit-entry";

/// The error body: `{"error":{"code":…,"message":…,"field":…}}`.
pub fn error_body(code: &str, message: &str, field: Option<&str>) -> String {
    let mut error = serde_json::json!({ "code": code, "message": message });
    if let Some(f) = field {
        error["field"] = f.into();
    }
    serde_json::json!({ "error": error }).to_string()
}

fn json(status: u16, body: String) -> Response<Body> {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    r
}

fn error(status: u16, code: &str, message: &str) -> Response<Body> {
    json(status, error_body(code, message, None))
}

/// The router of one server process.
pub fn router(app: Arc<App>) -> Router {
    Router::new().fallback(handle).with_state(app)
}

async fn handle(
    State(app): State<Arc<App>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response<Body> {
    let origin = headers.get("origin").and_then(|v| v.to_str().ok());
    let allowed = origin.filter(|o| app.config.allow_origins.iter().any(|a| a == o));
    let mut resp = if origin.is_some() && allowed.is_none() && method != Method::OPTIONS {
        error(
            403,
            "forbidden_origin",
            "this origin may not use the team server",
        )
    } else if method == Method::OPTIONS {
        json(204, String::new())
    } else if method == Method::GET && uri.path() == "/health" {
        health(&app).await
    } else if method == Method::GET && uri.path().starts_with("/team/") {
        team(&app, uri.path(), uri.query(), &headers).await
    } else if method == Method::POST && uri.path() == "/team/schedules" {
        add_schedule(&app, &headers, body).await
    } else if method == Method::POST {
        operation(&app, uri.path(), &headers, body).await
    } else {
        error(405, "method_not_allowed", "operations are POSTs")
    };
    let h = resp.headers_mut();
    h.append("vary", HeaderValue::from_static("origin"));
    if let Some(v) = allowed.and_then(|a| HeaderValue::try_from(a).ok()) {
        h.insert("access-control-allow-origin", v);
        h.insert(
            "access-control-expose-headers",
            HeaderValue::from_static(
                "retry-after, x-serpkit-cost, x-serpkit-reused, x-serpkit-possibly-charged, x-serpkit-entry",
            ),
        );
        if method == Method::OPTIONS {
            h.insert(
                "access-control-allow-methods",
                HeaderValue::from_static("GET, POST, OPTIONS"),
            );
            h.insert(
                "access-control-allow-headers",
                HeaderValue::from_static("content-type, authorization"),
            );
            h.insert("access-control-max-age", HeaderValue::from_static("600"));
        }
    }
    resp
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

fn unauthorized(e: AuthError) -> Response<Body> {
    match e {
        AuthError::Refused => error(
            401,
            "unauthorized",
            "missing, wrong or revoked member token (send it where the service takes its key)",
        ),
        AuthError::Database(e) => database(&e),
    }
}

fn database(e: &str) -> Response<Body> {
    eprintln!("database: {e}");
    error(
        503,
        "unavailable",
        "the team's database is unavailable; retry later",
    )
}

async fn operation(app: &App, path: &str, headers: &HeaderMap, body: Body) -> Response<Body> {
    let Ok(op) = Operation::from_str(path).map_err(|_| ()).and_then(|op| {
        // Only the exact service paths (`/v1/…`), not the short forms `from_str` accepts.
        if op.url_path() == path {
            Ok(op)
        } else {
            Err(())
        }
    }) else {
        return error(404, "not_found", "no such operation");
    };
    if !is_json(headers) {
        return error(
            415,
            "unsupported_media_type",
            "POST bodies must be sent with content-type: application/json",
        );
    }
    let max = app.config.max_body_bytes;
    let too_large = || {
        error(
            413,
            "payload_too_large",
            &format!("the request body is larger than {max} bytes"),
        )
    };
    let declared = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return too_large();
    }
    let Ok(bytes) = to_bytes(body, max).await else {
        return too_large();
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return error(400, "malformed", "the body is not UTF-8");
    };
    let request = match Request::from_json(op, text) {
        Ok(r) => r,
        Err(e) => return json(400, error_body(e.code(), &e.to_string(), Some(&e.field))),
    };
    let member = match auth::member(&app.pool, request.key().expose()).await {
        Ok(m) => m,
        Err(e) => return unauthorized(e),
    };
    if let Err(e) = request.check() {
        return json(400, error_body(e.code(), &e.to_string(), Some(&e.field)));
    }
    if !app.limiter.admit(member.id) {
        let mut r = error(
            429,
            "rate_limited",
            "too many calls from this member; retry later",
        );
        r.headers_mut()
            .insert("retry-after", HeaderValue::from_static("1"));
        return r;
    }
    match buy::call(app, &member, &request, None).await {
        Ok(answer) => answered(answer),
        Err(Refusal::Cap(whose, committed, estimate, cap)) => error(
            402,
            "budget_exceeded",
            &format!(
                "{whose} budget cap {cap} would be passed: {committed} committed this period, this call {estimate}"
            ),
        ),
        Err(Refusal::Busy) => {
            let mut r = error(503, "busy", "another member is buying these records; retry");
            r.headers_mut().insert("retry-after", HeaderValue::from_static("1"));
            r
        }
        Err(Refusal::Database(e)) => database(&e),
    }
}

fn answered(a: Answer) -> Response<Body> {
    let mut r = json(a.status, a.body);
    let h = r.headers_mut();
    for (n, v) in [
        (COST, a.cost.decimal()),
        (REUSED, a.reused.to_string()),
        (POSSIBLY_CHARGED, a.possibly_charged.decimal()),
    ] {
        if let Ok(v) = HeaderValue::try_from(v) {
            h.insert(n, v);
        }
    }
    if let Some(e) = a.entry {
        h.insert(ENTRY, HeaderValue::from(e));
    }
    for (n, v) in a.headers {
        if let (Ok(n), Ok(v)) = (
            axum::http::HeaderName::try_from(n),
            HeaderValue::try_from(v),
        ) {
            h.insert(n, v);
        }
    }
    r
}

/// `GET /health`: 200 when the database answers, 503 otherwise.
async fn health(app: &App) -> Response<Body> {
    let ok = match app.pool.get().await {
        Ok(c) => c.query_one("SELECT 1", &[]).await.is_ok(),
        Err(_) => false,
    };
    if ok {
        json(200, r#"{"status":"ok"}"#.into())
    } else {
        database("health check failed")
    }
}

/// The value of `name` in a query string, percent-decoded (`+` is a space); `None` when
/// missing or not UTF-8.
fn param(query: Option<&str>, name: &str) -> Option<String> {
    let raw = query?
        .split('&')
        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The member of an `authorization: Bearer …` header.
async fn bearer(app: &App, headers: &HeaderMap) -> Result<auth::Member, Response<Body>> {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    auth::member(&app.pool, token).await.map_err(unauthorized)
}

/// `POST /team/schedules` `{"operation": "ranked-keywords/domain", "request": {…}, "every":
/// "day"}`: the request (without a key) checked as a call would be, first run now.
async fn add_schedule(app: &App, headers: &HeaderMap, body: Body) -> Response<Body> {
    let member = match bearer(app, headers).await {
        Ok(m) => m,
        Err(r) => return r,
    };
    if !is_json(headers) {
        return error(415, "unsupported_media_type", "send JSON");
    }
    let Ok(bytes) = to_bytes(body, app.config.max_body_bytes).await else {
        return error(413, "payload_too_large", "the request body is too large");
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let Some(op) = v["operation"]
        .as_str()
        .and_then(|o| Operation::from_str(o).ok())
    else {
        return json(
            400,
            error_body("malformed", "no such operation", Some("/operation")),
        );
    };
    let Some(every) = v["every"]
        .as_str()
        .and_then(crate::schedule::Every::from_name)
    else {
        return json(
            400,
            error_body("malformed", "every: day or week", Some("/every")),
        );
    };
    let mut fields = v["request"].clone();
    fields["key"] = "".into();
    let request = match Request::from_json(op, &fields.to_string()) {
        Ok(r) => r,
        Err(e) => return json(400, error_body(e.code(), &e.to_string(), Some(&e.field))),
    };
    if let Err(e) = request.check() {
        return json(400, error_body(e.code(), &e.to_string(), Some(&e.field)));
    }
    match crate::schedule::add(app, &member, &request, every, app.now()).await {
        Ok(id) => json(201, serde_json::json!({ "id": id }).to_string()),
        Err(e) => database(&e),
    }
}

async fn team(app: &App, path: &str, query: Option<&str>, headers: &HeaderMap) -> Response<Body> {
    let member = match bearer(app, headers).await {
        Ok(m) => m,
        Err(r) => return r,
    };
    let result = match path {
        "/team/spend" => crate::report::spend(app, &member).await,
        "/team/purchases" => crate::report::purchases(app).await,
        "/team/records" => {
            // `after=<n>`, the `next` of the page before (0 or missing: from the first).
            match param(query, "after").map_or(Ok(0), |a| a.parse::<i64>()) {
                Ok(n) if n >= 0 => crate::report::records(app, n).await,
                _ => {
                    return json(
                        400,
                        error_body("malformed", "after: a whole number", Some("after")),
                    )
                }
            }
        }
        "/team/history" => {
            let domain = param(query, "domain").unwrap_or_default();
            if let Err(e) = serpkit::ops::check::domain("domain", &domain) {
                return json(400, error_body(e.code(), &e.to_string(), Some("domain")));
            }
            let Ok(limit) = param(query, "limit").map_or(Ok(2), |l| l.parse::<i64>()) else {
                return json(
                    400,
                    error_body("malformed", "limit: a whole number", Some("limit")),
                );
            };
            crate::schedule::history(app, &domain, limit).await
        }
        "/team/journal" => crate::report::journal(app, &member).await,
        "/team/schedules" => crate::schedule::list(app, &member).await,
        _ => return error(404, "not_found", "no such team resource"),
    };
    match result {
        Ok(v) => json(200, v.to_string()),
        Err(e) => database(&e),
    }
}
