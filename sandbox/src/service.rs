//! The request-handling core shared by the in-process transport and the HTTP server:
//! routing, request checks, keys and budgets, faults, generation and the ledger.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;
use serpkit::{estimate_cost, Operation, Request, Usd};

use crate::date::Date;
use crate::faults::{self, Fault};
use crate::generate;
use crate::json::push_str;
use crate::rng::hash_parts;

/// The key accepted when no key is configured (the server with no `--key` flags).
pub const DEFAULT_KEY: &str = "sandbox-test-key";

/// The key of the demo mode (accepted by [`Config::demo`] and [`crate::InProcess::demo`]).
pub const DEMO_KEY: &str = "demo-key";

/// Default request body limit: 1 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// An accepted key and its budget.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyConfig {
    /// The key.
    pub key: String,
    /// Most it may spend in total; `None` for no limit.
    pub budget: Option<Usd>,
}

impl std::fmt::Debug for KeyConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyConfig")
            .field("key", &key_id(&self.key))
            .field("budget", &self.budget)
            .finish()
    }
}

impl KeyConfig {
    /// A key without a budget limit.
    pub fn unlimited(key: impl Into<String>) -> KeyConfig {
        KeyConfig {
            key: key.into(),
            budget: None,
        }
    }

    /// A key with a budget in dollars.
    pub fn with_budget(key: impl Into<String>, budget: Usd) -> KeyConfig {
        KeyConfig {
            key: key.into(),
            budget: Some(budget),
        }
    }

    /// Parses the `--key` flag: `KEY` (no limit) or `KEY:BUDGET` (dollars, e.g. `poor:0.50`).
    pub fn parse(spec: &str) -> Result<KeyConfig, String> {
        let (key, budget) = match spec.rsplit_once(':') {
            Some((k, b)) => (
                k,
                Some(
                    b.parse::<Usd>()
                        .map_err(|e| format!("--key {}: {e}", key_id(k)))?,
                ),
            ),
            None => (spec, None),
        };
        if key.is_empty() || key.contains('+') || key.chars().any(char::is_whitespace) {
            return Err("a key must be non-empty, without '+' or white space".into());
        }
        Ok(KeyConfig {
            key: key.into(),
            budget,
        })
    }
}

/// How a [`Sandbox`] behaves.
#[derive(Clone, Debug)]
pub struct Config {
    /// Accepted keys.
    pub keys: Vec<KeyConfig>,
    /// The date the data ends at (monthly searches, daily stats, posts).
    pub today: Date,
    /// Larger request bodies get 413.
    pub max_body_bytes: usize,
}

impl Config {
    /// [`DEFAULT_KEY`] with no budget limit, a 1 MiB body limit, data as of `today`.
    pub fn new(today: Date) -> Config {
        Config {
            keys: vec![KeyConfig::unlimited(DEFAULT_KEY)],
            today,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }

    /// Like [`Config::new`] but also accepting [`DEMO_KEY`] (no budget limit).
    pub fn demo(today: Date) -> Config {
        let mut c = Config::new(today);
        c.keys.push(KeyConfig::unlimited(DEMO_KEY));
        c
    }

    /// Replaces the keys.
    pub fn with_keys(mut self, keys: Vec<KeyConfig>) -> Config {
        self.keys = keys;
        self
    }
}

/// A key for logs and the ledger: its first 4 characters and `…` (fewer for short keys), so
/// full keys are never printed or stored.
pub fn key_id(key: &str) -> String {
    let n = key.chars().count();
    let shown = if n >= 8 { 4 } else { n / 2 };
    let mut s: String = key.chars().take(shown).collect();
    s.push('…');
    s
}

/// One recorded call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    /// 1, 2, 3, ... in arrival order.
    pub seq: u64,
    /// Operation path (`search_volume/bulk`), or the unknown path asked for.
    pub operation: String,
    /// [`key_id`] of the key (fault suffix removed), `None` without a key.
    pub key_id: Option<String>,
    /// Billable units of the request (0 when it did not parse).
    pub units: u64,
    /// What was charged: the estimate for a 200, zero otherwise.
    pub charge: Usd,
    /// The status answered.
    pub status: u16,
    /// The fault asked for, if any (`rate_limit`, `break=order`, ...).
    pub fault: Option<String>,
}

/// The ledger: every call and the total charged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    /// Calls in arrival order.
    pub entries: Vec<LedgerEntry>,
    /// Sum of the charges.
    pub total: Usd,
}

impl Ledger {
    /// Entries answered 200 (the charged ones).
    pub fn charged(&self) -> impl Iterator<Item = &LedgerEntry> {
        self.entries.iter().filter(|e| e.status == 200)
    }
}

/// A response of the sandbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxResponse {
    /// HTTP status.
    pub status: u16,
    /// Headers, names lower case (CORS included).
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
    /// Answer only after this many milliseconds (the `delay=<ms>` fault); 0 otherwise.
    pub delay_ms: u64,
}

impl SandboxResponse {
    fn new(status: u16, content_type: &str, body: String) -> SandboxResponse {
        let mut r = SandboxResponse {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body,
            delay_ms: 0,
        };
        r.headers.extend(cors_headers());
        r
    }

    fn json(status: u16, body: String) -> SandboxResponse {
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

    fn with_header(mut self, name: &str, value: &str) -> SandboxResponse {
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

/// CORS headers on every response: any origin; `Retry-After` readable by browsers.
fn cors_headers() -> Vec<(String, String)> {
    vec![
        ("access-control-allow-origin".into(), "*".into()),
        ("access-control-expose-headers".into(), "retry-after".into()),
    ]
}

#[derive(Default)]
struct State {
    entries: Vec<LedgerEntry>,
    spent: HashMap<String, Usd>,
    faulted_once: HashSet<u64>,
}

/// The sandbox service. Shareable across threads; all state is behind one mutex.
pub struct Sandbox {
    config: Config,
    state: Mutex<State>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

struct Call {
    operation: String,
    key_id: Option<String>,
    units: u64,
    fault: Option<String>,
}

impl Sandbox {
    /// A sandbox with this configuration and an empty ledger.
    pub fn new(config: Config) -> Sandbox {
        Sandbox {
            config,
            state: Mutex::new(State::default()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A copy of the ledger.
    pub fn ledger(&self) -> Ledger {
        let st = self.state();
        Ledger {
            entries: st.entries.clone(),
            total: st.entries.iter().map(|e| e.charge).sum(),
        }
    }

    /// Clears the ledger, every key's spending and the memory of `*_once` faults.
    pub fn reset(&self) {
        *self.state() = State::default();
    }

    /// Handles one HTTP request: `POST /v1/<operation>`, `GET /health`, `GET /ledger`,
    /// `POST /ledger/reset` and CORS preflight (`OPTIONS`). Never panics.
    pub fn handle(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> SandboxResponse {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let method = method.to_ascii_uppercase();
        if method == "OPTIONS" {
            let mut r = SandboxResponse::new(204, "text/plain", String::new());
            r.headers.retain(|(n, _)| n != "content-type");
            return r
                .with_header("access-control-allow-methods", "GET, POST, OPTIONS")
                .with_header(
                    "access-control-allow-headers",
                    &format!("content-type, {}", faults::FAULT_HEADER),
                )
                .with_header("access-control-max-age", "600");
        }
        match (method.as_str(), path) {
            ("GET", "/health") => return SandboxResponse::json(200, "{\"ok\":true}".into()),
            ("GET", "/ledger") => {
                let body = serde_json::to_string(&self.ledger()).unwrap_or_default();
                return SandboxResponse::json(200, body);
            }
            ("POST", "/ledger/reset") => {
                self.reset();
                return SandboxResponse::json(200, "{\"ok\":true}".into());
            }
            (_, "/health" | "/ledger" | "/ledger/reset") => {
                let allow = if path == "/ledger/reset" {
                    "POST"
                } else {
                    "GET"
                };
                return SandboxResponse::error(
                    405,
                    "method_not_allowed",
                    &format!("{path} takes {allow}"),
                    None,
                )
                .with_header("allow", allow);
            }
            _ => {}
        }
        let Some(op_path) = path.strip_prefix("/v1/") else {
            return SandboxResponse::error(
                404,
                "not_found",
                "no such endpoint; operations are POST /v1/<operation>",
                None,
            );
        };
        let mut call = Call {
            operation: op_path.chars().take(80).collect(),
            key_id: None,
            units: 0,
            fault: None,
        };
        let (resp, charge) = self.operation(&method, op_path, headers, body, &mut call);
        let mut st = self.state();
        let seq = st.entries.len() as u64 + 1;
        st.entries.push(LedgerEntry {
            seq,
            operation: call.operation,
            key_id: call.key_id,
            units: call.units,
            charge,
            status: resp.status,
            fault: call.fault,
        });
        resp
    }

    fn operation(
        &self,
        method: &str,
        op_path: &str,
        headers: &[(String, String)],
        body: &[u8],
        call: &mut Call,
    ) -> (SandboxResponse, Usd) {
        let fail = |r: SandboxResponse| (r, Usd::ZERO);
        let Ok(op) = op_path.parse::<Operation>() else {
            let known: Vec<&str> = Operation::ALL.iter().map(|o| o.path()).collect();
            return fail(SandboxResponse::error(
                404,
                "not_found",
                &format!("unknown operation; operations: {}", known.join(", ")),
                None,
            ));
        };
        if method != "POST" {
            return fail(
                SandboxResponse::error(
                    405,
                    "method_not_allowed",
                    "operations take POST with a JSON body",
                    None,
                )
                .with_header("allow", "POST, OPTIONS"),
            );
        }
        if body.len() > self.config.max_body_bytes {
            return fail(too_large(self.config.max_body_bytes));
        }
        let bad = |msg: &str, field: Option<&str>| {
            fail(SandboxResponse::error(400, "bad_request", msg, field))
        };
        let Ok(text) = std::str::from_utf8(body) else {
            return bad("the body is not UTF-8 text", None);
        };
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return bad(&format!("the body is not JSON: {e}"), None),
        };
        let Some(obj) = value.as_object() else {
            return bad("the body must be a JSON object", None);
        };
        let full_key = match obj.get("key") {
            None | Some(serde_json::Value::Null) => {
                return fail(SandboxResponse::error(
                    401,
                    "unauthorized",
                    "missing API key: put it in the body's \"key\" field",
                    None,
                ))
            }
            Some(serde_json::Value::String(k)) => k.as_str(),
            Some(_) => return bad("/key: the API key must be a string", Some("/key")),
        };
        let (key, key_fault) = faults::split_key(full_key);
        call.key_id = Some(key_id(key));
        let Some(key_config) = self.config.keys.iter().find(|k| k.key == key) else {
            return fail(SandboxResponse::error(
                401,
                "unauthorized",
                "unknown API key",
                None,
            ));
        };
        let request = match Request::from_json(op, text).and_then(|r| r.check().map(|()| r)) {
            Ok(r) => r,
            Err(e) => {
                let field = if e.field.is_empty() {
                    missing_field(&e.to_string())
                } else {
                    Some(e.field.clone())
                };
                return bad(&e.to_string(), field.as_deref().or(Some("")));
            }
        };
        call.units = request.billable_units();
        let header_fault = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(faults::FAULT_HEADER))
            .map(|(_, v)| v.as_str());
        let fault = match header_fault.or(key_fault) {
            None => None,
            Some(text) => {
                call.fault = Some(text.chars().take(40).collect());
                match text.parse::<Fault>() {
                    Ok(f) => {
                        call.fault = Some(f.to_string());
                        Some(f)
                    }
                    Err(m) => return fail(SandboxResponse::error(400, "unknown_fault", &m, None)),
                }
            }
        };
        let cost = estimate_cost(&request);
        if let Some(budget) = key_config.budget {
            let spent = self.state().spent.get(key).copied().unwrap_or(Usd::ZERO);
            if spent + cost > budget {
                return fail(SandboxResponse::error(
                    402,
                    "payment_required",
                    &format!(
                        "budget spent: this call costs {cost}, {} of {budget} is left",
                        budget.saturating_sub(spent)
                    ),
                    None,
                ));
            }
        }
        let once = |status: u16, this: &Self| -> bool {
            let h = hash_parts(&[
                full_key,
                &status.to_string(),
                &generate::request_seed(&request).to_string(),
            ]);
            this.state().faulted_once.insert(h)
        };
        let mut delay_ms = 0;
        let mut out = match fault {
            Some(Fault::RateLimit) => return fail(rate_limited()),
            Some(Fault::RateLimitOnce) if once(429, self) => return fail(rate_limited()),
            Some(Fault::ServerError) => {
                return fail(SandboxResponse::error(
                    500,
                    "internal",
                    "simulated internal server error",
                    None,
                ))
            }
            Some(Fault::Unavailable) => return fail(unavailable()),
            Some(Fault::UnavailableOnce) if once(503, self) => return fail(unavailable()),
            Some(Fault::NotJson) => SandboxResponse::new(200, "text/html", faults::html_page()),
            Some(Fault::Huge(mb)) => {
                SandboxResponse::json(200, huge_body(&request, mb, self.config.today))
            }
            _ => SandboxResponse::json(200, generate::body(&request, self.config.today)),
        };
        match fault {
            Some(Fault::Truncate) => out.body = faults::truncate(&out.body),
            Some(Fault::Break(rule)) => match faults::break_body(op, rule, &out.body) {
                Ok(b) => out.body = b,
                Err(m) => return fail(SandboxResponse::error(400, "unknown_fault", &m, None)),
            },
            Some(Fault::Delay(ms)) => delay_ms = ms,
            Some(Fault::Xss) => out.body = faults::xss(&out.body),
            _ => {}
        }
        out.delay_ms = delay_ms;
        let mut st = self.state();
        *st.spent.entry(key.to_owned()).or_insert(Usd::ZERO) += cost;
        (out, cost)
    }
}

fn too_large(max: usize) -> SandboxResponse {
    SandboxResponse::error(
        413,
        "payload_too_large",
        &format!("the request body is larger than {max} bytes"),
        None,
    )
}

/// The 413 response for a body over `max` bytes (the server uses it before reading all).
pub fn payload_too_large(max: usize) -> SandboxResponse {
    too_large(max)
}

fn rate_limited() -> SandboxResponse {
    SandboxResponse::error(
        429,
        "rate_limited",
        "simulated rate limit; retry later",
        None,
    )
    .with_header("retry-after", "1")
}

fn unavailable() -> SandboxResponse {
    SandboxResponse::error(503, "unavailable", "simulated outage; retry later", None)
        .with_header("retry-after", "1")
}

/// `/name` from serde's "missing field `name`" message.
fn missing_field(message: &str) -> Option<String> {
    let rest = &message[message.find("missing field `")? + 15..];
    Some(format!("/{}", &rest[..rest.find('`')?]))
}

fn huge_body(request: &Request, mb: u64, today: Date) -> String {
    let target = (mb as usize) << 20;
    // Measure a sample, then ask the generator for enough rows.
    let rows = |sample: &str, n: usize| (target / (sample.len() / n).max(1)) * 21 / 20 + 1;
    match request {
        Request::RankedKeywordsDomain(r) => {
            let seed = crate::rng::fnv1a(r.domain.as_bytes());
            let n = rows(&generate::ranked_keywords_domain(&r.domain, 500, seed), 500);
            generate::ranked_keywords_domain(&r.domain, n.min(generate::MAX_ROWS * 4), seed)
        }
        Request::BacklinkOverview(r) => {
            let seed = crate::rng::fnv1a(r.domain.as_bytes());
            let n = rows(
                &generate::backlink_overview(&r.domain, 500, today, seed),
                500,
            );
            generate::backlink_overview(&r.domain, n.min(generate::MAX_ROWS * 4), today, seed)
        }
        _ => faults::inflate(&generate::body(request, today), mb),
    }
}

/// Writes `n` bytes as a human size (for logs).
pub fn human_bytes(n: usize) -> String {
    let mut s = String::new();
    if n >= 1 << 20 {
        let _ = write!(s, "{:.1} MiB", n as f64 / f64::from(1 << 20));
    } else if n >= 1024 {
        let _ = write!(s, "{:.1} KiB", n as f64 / 1024.0);
    } else {
        let _ = write!(s, "{n} B");
    }
    s
}
