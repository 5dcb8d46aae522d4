//! The HTTP side: the service's 11 operations at the service's paths, the team's own
//! `GET /team/spend`, `GET /team/journal`, `GET /team/purchases` (who bought what),
//! `GET /team/records?after=<n>` (the team's records as a feed), `GET` and `POST
//! /team/schedules`, `DELETE /team/schedules/<id>` (the caller's own), `GET
//! /team/history?domain=<d>&limit=<n>` (a domain's scheduled ranked keywords, the history
//! position changes read) (token in `authorization: Bearer …`), `GET /health` (any origin, no
//! token) and `GET /metrics` (Prometheus; the token in `SERPKIT_METRICS_TOKEN`).
//!
//! One log line per request: method, route, status, member, cost, possibly charged and
//! duration; never a key or a token (the route of an unknown path is `other`).
//!
//! A purchase may be refused 409 `possibly_charged` (its `items` may have been bought by a call
//! whose outcome is unknown); the same request with `x-serpkit-confirm-possibly: 1` buys them.
//!
//! Every error is the service's error shape as the sandbox writes it,
//! `{"error":{"code":…,"message":…}}` (`field` for a bad request field), and nothing is
//! charged for any of them. A `POST` needs `content-type: application/json` (a page can send
//! other types cross-origin without a preflight); CORS allows the configured origins only,
//! and a `POST` with any other `Origin` is refused (403).

use std::str::FromStr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use axum::Router;
use serpkit::{Operation, Request};

use crate::auth::{self, AuthError};
use crate::buy::{self, Answer, Refusal};
use crate::errors::error_body;
use crate::metrics::METRICS;
use crate::App;

/// Who made a call and what it cost, for the request's log line (a response extension).
#[derive(Clone, Debug, Default)]
struct Logged {
    member: Option<String>,
    cost: Option<String>,
    possibly_charged: Option<String>,
}

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
/// On an answer: its body is a charged answer of the service that is not JSON, passed on
/// as its text (kept, so the same request is answered with it again, free).
pub const UNREADABLE: &str = "x-serpkit-unreadable";
/// On a request, `1`: the member says yes to buying again what a call whose outcome is
/// unknown may have bought (the answer without it is 409 `possibly_charged`, listing those
/// items). A yes for that one request.
pub const CONFIRM_POSSIBLY: &str = "x-serpkit-confirm-possibly";

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

/// The route a path is counted and logged under: an operation's path or a fixed name,
/// never the client's own text.
fn route(method: &Method, path: &str) -> &'static str {
    if let Ok(op) = Operation::from_str(path) {
        if op.url_path() == path {
            return op.path();
        }
    }
    match (method.as_str(), path) {
        (_, "/health") => "/health",
        (_, "/metrics") => "/metrics",
        ("DELETE", p) if p.starts_with("/team/schedules/") => "/team/schedules/{id}",
        (_, p) if p.starts_with("/team/") => match p {
            "/team/spend" => "/team/spend",
            "/team/journal" => "/team/journal",
            "/team/purchases" => "/team/purchases",
            "/team/records" => "/team/records",
            "/team/schedules" => "/team/schedules",
            "/team/history" => "/team/history",
            _ => "other",
        },
        _ => "other",
    }
}

async fn handle(
    State(app): State<Arc<App>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response<Body> {
    let started = Instant::now();
    let route = route(&method, uri.path());
    let mut resp = respond(&app, &method, &uri, &headers, body).await;
    let status = resp.status().as_u16();
    METRICS.request(route, status);
    let logged = resp.extensions_mut().remove::<Logged>().unwrap_or_default();
    tracing::info!(
        method = %method,
        route,
        status,
        member = logged.member.as_deref().unwrap_or("-"),
        cost = logged.cost.as_deref().unwrap_or("0"),
        possibly_charged = logged.possibly_charged.as_deref().unwrap_or("0"),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "request"
    );
    resp
}

async fn respond(
    app: &Arc<App>,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: Body,
) -> Response<Body> {
    // Health and metrics are read by probes and scrapers, never by a page: any origin.
    if method == Method::GET && uri.path() == "/health" {
        return health(app).await;
    }
    if method == Method::GET && uri.path() == "/metrics" {
        return metrics(app, headers).await;
    }
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
    } else if (method == Method::GET && uri.path().starts_with("/team/"))
        || (method == Method::POST && uri.path() == "/team/schedules")
        || (method == Method::DELETE && uri.path().starts_with("/team/schedules/"))
    {
        match bearer(app, headers).await {
            Ok(member) => {
                let mut r = if method == Method::GET {
                    team(app, &member, uri.path(), uri.query()).await
                } else if method == Method::POST {
                    add_schedule(app, &member, headers, body).await
                } else {
                    delete_schedule(app, &member, uri.path()).await
                };
                r.extensions_mut().insert(Logged {
                    member: Some(member.name),
                    ..Logged::default()
                });
                r
            }
            Err(r) => r,
        }
    } else if method == Method::POST {
        operation(app, uri.path(), headers, body).await
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
                "retry-after, x-serpkit-cost, x-serpkit-reused, x-serpkit-possibly-charged, x-serpkit-entry, x-serpkit-unreadable",
            ),
        );
        if method == Method::OPTIONS {
            h.insert(
                "access-control-allow-methods",
                HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
            );
            h.insert(
                "access-control-allow-headers",
                HeaderValue::from_static("content-type, authorization, x-serpkit-confirm-possibly"),
            );
            h.insert("access-control-max-age", HeaderValue::from_static("600"));
        }
    }
    resp
}

/// The request body, within the size limit and the body timeout.
async fn read_body(app: &App, body: Body) -> Result<axum::body::Bytes, Response<Body>> {
    let max = app.config.max_body_bytes;
    match tokio::time::timeout(app.config.body_timeout, to_bytes(body, max)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(error(
            413,
            "payload_too_large",
            &format!("the request body is larger than {max} bytes"),
        )),
        Err(_) => {
            let mut r = error(
                408,
                "request_timeout",
                &format!(
                    "the request body did not arrive within {} s",
                    app.config.body_timeout.as_secs_f64()
                ),
            );
            r.headers_mut()
                .insert("connection", HeaderValue::from_static("close"));
            Err(r)
        }
    }
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
    tracing::error!(error = %e, "database");
    error(
        503,
        "unavailable",
        "the team's database is unavailable; retry later",
    )
}

async fn operation(app: &Arc<App>, path: &str, headers: &HeaderMap, body: Body) -> Response<Body> {
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
    let declared = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return error(
            413,
            "payload_too_large",
            &format!("the request body is larger than {max} bytes"),
        );
    }
    let bytes = match read_body(app, body).await {
        Ok(b) => b,
        Err(r) => return r,
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
    let confirm_possibly = headers
        .get(CONFIRM_POSSIBLY)
        .is_some_and(|v| v.as_bytes().trim_ascii() == b"1");
    // The purchase runs apart from this request, as a task the server owns, counted in
    // flight: a client that hangs up drops only this handler (and the task's handle), never
    // the purchase between its write-ahead and its settle; its records are stored and its
    // reservation freed for whoever asks next, and shutdown waits for it.
    let call = {
        let (app, member, request) = (app.clone(), member.clone(), request.clone());
        tokio::spawn(async move {
            let _in_flight = app.in_flight.enter();
            let ask = buy::Ask {
                request: &request,
                max_age_ms: None,
                confirm_possibly,
            };
            buy::call(&app, &member, ask).await
        })
    };
    let outcome = call
        .await
        .unwrap_or_else(|e| Err(Refusal::Database(format!("the call's task failed: {e}"))));
    let mut logged = Logged {
        member: Some(member.name.clone()),
        ..Logged::default()
    };
    let mut resp = match outcome {
        Ok(answer) => {
            METRICS
                .charged_micros
                .fetch_add(answer.cost.micros().max(0) as u64, Ordering::Relaxed);
            METRICS.possibly_charged_micros.fetch_add(
                answer.possibly_charged.micros().max(0) as u64,
                Ordering::Relaxed,
            );
            logged.cost = Some(answer.cost.decimal());
            logged.possibly_charged = Some(answer.possibly_charged.decimal());
            answered(answer)
        }
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
        Err(Refusal::PossiblyCharged { items, since }) => {
            let error = serde_json::json!({ "error": {
                "code": "possibly_charged",
                "message": format!(
                    "{} of this request may have been charged already by a call whose outcome \
                     is unknown: not bought again unless you send {CONFIRM_POSSIBLY}: 1",
                    items.len()
                ),
                "items": items,
                "since": since,
            }});
            json(409, error.to_string())
        }
        Err(Refusal::Database(e)) => database(&e),
    };
    resp.extensions_mut().insert(logged);
    resp
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
    if a.unreadable {
        h.insert(UNREADABLE, HeaderValue::from_static("1"));
        h.insert(
            "content-type",
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
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

/// `GET /health`: the database answers, this process holds its liveness lock, and the
/// service accepts a connection (nothing is sent to it): 200, else 503; each check's result
/// in the body.
async fn health(app: &App) -> Response<Body> {
    let database = async {
        let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
        c.query_one("SELECT 1", &[])
            .await
            .map(|_| ())
            .map_err(|e| crate::errors::cause(&e))
    };
    let (database, upstream) = tokio::join!(
        tokio::time::timeout(Duration::from_secs(2), database),
        app.upstream.reachable(Duration::from_secs(2)),
    );
    let database = database.unwrap_or_else(|_| Err("timed out".into()));
    let lock = if app.liveness.current().is_some() {
        Ok(())
    } else {
        Err("this process's liveness connection is being made again".to_string())
    };
    let show = |r: &Result<(), String>| match r {
        Ok(()) => "ok".to_string(),
        Err(e) => e.clone(),
    };
    let ok = database.is_ok() && lock.is_ok() && upstream.is_ok();
    if !ok {
        tracing::warn!(
            database = %show(&database),
            lock = %show(&lock),
            upstream = %show(&upstream),
            "health check failed"
        );
    }
    let body = serde_json::json!({
        "status": if ok { "ok" } else { "unavailable" },
        "database": show(&database),
        "liveness_lock": show(&lock),
        "upstream": show(&upstream),
    });
    json(if ok { 200 } else { 503 }, body.to_string())
}

/// `GET /metrics`: Prometheus's text format, for `authorization: Bearer
/// $SERPKIT_METRICS_TOKEN`. Decided: spend is the team's business, so metrics need a token
/// of their own (none set: 404), compared in constant time as member tokens are.
async fn metrics(app: &App, headers: &HeaderMap) -> Response<Body> {
    let Some(token) = app.config.metrics_token.as_deref() else {
        return error(
            404,
            "not_found",
            "metrics are off (set SERPKIT_METRICS_TOKEN)",
        );
    };
    let given = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !auth::same(&auth::hash(given), &auth::hash(token)) {
        return error(401, "unauthorized", "missing or wrong metrics token");
    }
    let reservations = match app.pool.get().await {
        Ok(c) => c
            .query_one("SELECT count(*) FROM reservations", &[])
            .await
            .ok()
            .map(|r| r.get(0)),
        Err(_) => None,
    };
    let mut r = Response::new(Body::from(
        METRICS.render(app.in_flight.count(), reservations),
    ));
    r.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/plain; version=0.0.4"),
    );
    r
}

/// `DELETE /team/schedules/<id>`: the caller's own schedule and its stored runs.
async fn delete_schedule(app: &App, member: &auth::Member, path: &str) -> Response<Body> {
    let Some(id) = path
        .strip_prefix("/team/schedules/")
        .and_then(|id| id.parse::<i64>().ok())
    else {
        return error(404, "not_found", "no such schedule");
    };
    match crate::admin::delete_schedule(&app.pool, id, Some(member.id)).await {
        Ok(true) => json(204, String::new()),
        Ok(false) => error(404, "not_found", "no such schedule of yours"),
        Err(e) => database(&e),
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
async fn add_schedule(
    app: &App,
    member: &auth::Member,
    headers: &HeaderMap,
    body: Body,
) -> Response<Body> {
    if !is_json(headers) {
        return error(415, "unsupported_media_type", "send JSON");
    }
    let bytes = match read_body(app, body).await {
        Ok(b) => b,
        Err(r) => return r,
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
    match crate::schedule::add(app, member, &request, every, app.now()).await {
        Ok(id) => json(201, serde_json::json!({ "id": id }).to_string()),
        Err(e) => database(&e),
    }
}

async fn team(app: &App, member: &auth::Member, path: &str, query: Option<&str>) -> Response<Body> {
    let result = match path {
        "/team/spend" => crate::report::spend(app, member).await,
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
        "/team/journal" => crate::report::journal(app, member).await,
        "/team/schedules" => crate::schedule::list(app, member).await,
        _ => return error(404, "not_found", "no such team resource"),
    };
    match result {
        Ok(v) => json(200, v.to_string()),
        Err(e) => database(&e),
    }
}
