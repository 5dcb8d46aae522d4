//! The request-handling core shared by the in-process transport and the HTTP server:
//! routing, request checks, keys and budgets, faults, generation and the ledger.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::{Mutex, MutexGuard};

use serpkit::{estimate_cost, Operation, Request, Usd};

use crate::date::Date;
use crate::faults::{self, Fault};
use crate::generate;
use crate::ledger::{Book, Ledger, LedgerEntry, DEFAULT_MAX_LEDGER_ENTRIES};
use crate::response::{payload_too_large, rate_limited, unavailable, SandboxResponse};
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
    /// The ledger keeps this many entries (the oldest are dropped; its total still counts
    /// every charge). Default [`DEFAULT_MAX_LEDGER_ENTRIES`].
    pub max_ledger_entries: usize,
    /// HTTP server only: browser origins allowed by CORS besides loopback ones
    /// (`--allow-origin`; `*` allows any).
    pub allow_origins: Vec<String>,
    /// HTTP server only: most `huge`/`delay` answers in flight at once; more get 503.
    pub max_heavy: usize,
    /// HTTP server only: most bytes of `huge` bodies in flight at once; more get 503.
    pub max_huge_bytes: usize,
    /// Demo only: each repeated `ranked-keywords/domain` request of a domain is answered as
    /// of one day after the previous one, so a Refresh in demo mode shows position changes
    /// the same day (the demo compresses the days between two real purchases).
    pub day_per_repeat: bool,
}

/// Default [`Config::max_heavy`].
pub const DEFAULT_MAX_HEAVY: usize = 4;

/// Default [`Config::max_huge_bytes`]: 1 GiB.
pub const DEFAULT_MAX_HUGE_BYTES: usize = 1 << 30;

impl Config {
    /// [`DEFAULT_KEY`] with no budget limit, a 1 MiB body limit, data as of `today`.
    pub fn new(today: Date) -> Config {
        Config {
            keys: vec![KeyConfig::unlimited(DEFAULT_KEY)],
            today,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_ledger_entries: DEFAULT_MAX_LEDGER_ENTRIES,
            allow_origins: Vec::new(),
            max_heavy: DEFAULT_MAX_HEAVY,
            max_huge_bytes: DEFAULT_MAX_HUGE_BYTES,
            day_per_repeat: false,
        }
    }

    /// Like [`Config::new`] but also accepting [`DEMO_KEY`] (no budget limit).
    pub fn demo(today: Date) -> Config {
        let mut c = Config::new(today);
        c.keys.push(KeyConfig::unlimited(DEMO_KEY));
        c.day_per_repeat = true;
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

#[derive(Default)]
struct State {
    book: Book,
    spent: HashMap<String, Usd>,
    faulted_once: HashSet<u64>,
    /// Demo: `ranked-keywords/domain` requests answered so far per domain (lower case).
    ranked_repeats: HashMap<String, i64>,
}

/// How many `*_once` requests are remembered before the memory is cleared (a bound, so a
/// long-running server cannot grow without limit; after a clear a `*_once` fault may fail
/// once more).
const MAX_ONCE_MEMORY: usize = 100_000;

/// Decides whether a `huge`/`delay` answer may start ([`Sandbox::handle_gated`]): `Err`
/// carries the refusal (answered as is, not charged).
pub type Gate<'a> = &'a mut dyn FnMut(Fault) -> Result<(), SandboxResponse>;

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
    /// The entry is in the ledger already (a charged call records itself when accepted).
    recorded: bool,
}

impl Call {
    fn entry(&self, charge: Usd, status: u16) -> LedgerEntry {
        LedgerEntry {
            seq: 0,
            operation: self.operation.clone(),
            key_id: self.key_id.clone(),
            units: self.units,
            charge,
            status,
            fault: self.fault.clone(),
            key_seen: None,
        }
    }
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

    /// A copy of the ledger (its last [`Config::max_ledger_entries`] entries and the total).
    pub fn ledger(&self) -> Ledger {
        self.state().book.snapshot()
    }

    /// Clears the ledger, every key's spending and the memory of `*_once` faults.
    pub fn reset(&self) {
        *self.state() = State::default();
    }

    /// Handles one HTTP request: `POST /v1/<operation>`, `GET /health`, `GET /ledger`,
    /// `POST /ledger/reset`, any request to `/redirected` (recorded, 410) and CORS
    /// preflight (`OPTIONS`, answered 204; the HTTP server adds the CORS headers). Never
    /// panics. `huge`/`delay` answers are not limited here: see [`Sandbox::handle_gated`].
    pub fn handle(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> SandboxResponse {
        self.handle_gated(method, path, headers, body, &mut |_| Ok(()))
    }

    /// [`Sandbox::handle`], asking `gate` before a `huge`/`delay` answer is accepted (after
    /// the key and request checks, before the budget check and the charge). A refusal is
    /// answered as is, recorded with no charge.
    pub fn handle_gated(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: &[u8],
        gate: Gate<'_>,
    ) -> SandboxResponse {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let method = method.to_ascii_uppercase();
        if path == REDIRECT_TARGET {
            return self.redirected(body);
        }
        if method == "OPTIONS" {
            return SandboxResponse {
                headers: vec![],
                ..SandboxResponse::new(204, "text/plain", String::new())
            };
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
            recorded: false,
        };
        let resp = self.operation(&method, op_path, headers, body, &mut call, gate);
        if !call.recorded {
            let entry = call.entry(Usd::ZERO, resp.status);
            self.state()
                .book
                .push(entry, self.config.max_ledger_entries);
        }
        resp
    }

    /// A request that arrived at [`REDIRECT_TARGET`]: a client followed the `redirect`
    /// fault (which it must not: the redirected request carries the body, key included).
    fn redirected(&self, body: &[u8]) -> SandboxResponse {
        let text = String::from_utf8_lossy(body);
        let json_key = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("key").and_then(|k| k.as_str()).map(str::to_owned));
        let key_seen = json_key.is_some()
            || text.contains("\"key\"")
            || self.config.keys.iter().any(|k| text.contains(&k.key));
        let entry = LedgerEntry {
            seq: 0,
            operation: "redirected".into(),
            key_id: json_key.map(|k| key_id(faults::split_key(&k).0)),
            units: 0,
            charge: Usd::ZERO,
            status: 410,
            fault: Some("redirect_followed".into()),
            key_seen: Some(key_seen),
        };
        self.state()
            .book
            .push(entry, self.config.max_ledger_entries);
        SandboxResponse::error(
            410,
            "redirect_followed",
            "this request followed the sandbox's redirect fault; clients must not follow redirects",
            None,
        )
    }

    fn operation(
        &self,
        method: &str,
        op_path: &str,
        headers: &[(String, String)],
        body: &[u8],
        call: &mut Call,
        gate: Gate<'_>,
    ) -> SandboxResponse {
        let Ok(op) = op_path.parse::<Operation>() else {
            let known: Vec<&str> = Operation::ALL.iter().map(|o| o.path()).collect();
            return SandboxResponse::error(
                404,
                "not_found",
                &format!("unknown operation; operations: {}", known.join(", ")),
                None,
            );
        };
        if method != "POST" {
            return SandboxResponse::error(
                405,
                "method_not_allowed",
                "operations take POST with a JSON body",
                None,
            )
            .with_header("allow", "POST, OPTIONS");
        }
        if body.len() > self.config.max_body_bytes {
            return payload_too_large(self.config.max_body_bytes);
        }
        let bad =
            |msg: &str, field: Option<&str>| SandboxResponse::error(400, "bad_request", msg, field);
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
                return SandboxResponse::error(
                    401,
                    "unauthorized",
                    "missing API key: put it in the body's \"key\" field",
                    None,
                )
            }
            Some(serde_json::Value::String(k)) => k.as_str(),
            Some(_) => return bad("/key: the API key must be a string", Some("/key")),
        };
        let (key, key_fault) = faults::split_key(full_key);
        call.key_id = Some(key_id(key));
        let Some(key_config) = self.config.keys.iter().find(|k| k.key == key) else {
            return SandboxResponse::error(401, "unauthorized", "unknown API key", None);
        };
        let request = match Request::from_json(op, text).and_then(|r| r.check().map(|()| r)) {
            Ok(r) => r,
            // The field's JSON Pointer (`/ccode` also when it is missing; `""` for the body).
            Err(e) => return bad(&e.to_string(), Some(&e.field)),
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
                    Err(m) => return SandboxResponse::error(400, "unknown_fault", &m, None),
                }
            }
        };
        if let Some(Fault::Break(rule)) = fault {
            if let Err(m) = faults::check_break(op, rule) {
                return SandboxResponse::error(400, "unknown_fault", &m, None);
            }
        }
        let once = |status: u16, this: &Self| -> bool {
            let h = hash_parts(&[
                full_key,
                &status.to_string(),
                &generate::request_seed(&request).to_string(),
            ]);
            let mut st = this.state();
            if st.faulted_once.len() >= MAX_ONCE_MEMORY {
                st.faulted_once.clear();
            }
            st.faulted_once.insert(h)
        };
        match fault {
            Some(Fault::RateLimit) => return rate_limited(),
            Some(Fault::RateLimitOnce) if once(429, self) => return rate_limited(),
            Some(Fault::ServerError) => {
                return SandboxResponse::error(
                    500,
                    "internal",
                    "simulated internal server error",
                    None,
                )
            }
            Some(Fault::Unavailable) => return unavailable(),
            Some(Fault::UnavailableOnce) if once(503, self) => return unavailable(),
            Some(Fault::Redirect) => {
                return SandboxResponse::error(
                    307,
                    "redirect",
                    "simulated redirect; a client must not follow it",
                    None,
                )
                .with_header("location", REDIRECT_TARGET)
            }
            Some(f) if f.is_heavy() => {
                if let Err(refused) = gate(f) {
                    return refused;
                }
            }
            _ => {}
        }
        // The budget check and the charge are one step under one lock, so concurrent calls
        // can never together pass a budget. The charge is recorded when the call is
        // accepted, before any delay: a client that gives up waiting was still charged.
        let cost = estimate_cost(&request);
        {
            let mut st = self.state();
            let spent = st.spent.get(key).copied().unwrap_or(Usd::ZERO);
            if let Some(budget) = key_config.budget {
                if spent + cost > budget {
                    return SandboxResponse::error(
                        402,
                        "payment_required",
                        &format!(
                            "budget spent: this call costs {cost}, {} of {budget} is left",
                            budget.saturating_sub(spent)
                        ),
                        None,
                    );
                }
            }
            st.spent.insert(key.to_owned(), spent + cost);
            st.book
                .push(call.entry(cost, 200), self.config.max_ledger_entries);
            call.recorded = true;
        }
        let mut today = self.config.today;
        if let (true, Request::RankedKeywordsDomain(r)) = (self.config.day_per_repeat, &request) {
            let mut st = self.state();
            let n = st
                .ranked_repeats
                .entry(r.domain.trim().to_ascii_lowercase())
                .or_insert(0);
            today = today.add_days(*n);
            *n += 1;
        }
        if let Some(Fault::Later(days)) = fault {
            today = today.add_days(days as i64);
        }
        let mut out = match fault {
            Some(Fault::NotJson) => SandboxResponse::new(200, "text/html", faults::html_page()),
            Some(Fault::Huge(mb)) => SandboxResponse::json(200, huge_body(&request, mb, today)),
            _ => SandboxResponse::json(200, generate::body(&request, today)),
        };
        match fault {
            Some(Fault::Truncate) => out.body = faults::truncate(&out.body),
            Some(Fault::Break(rule)) => {
                // Checked above; a failure here would still be a charged 200.
                if let Ok(b) = faults::break_body(op, rule, &out.body) {
                    out.body = b;
                }
            }
            Some(Fault::Delay(ms)) => out.delay_ms = ms,
            Some(Fault::Xss) => out.body = faults::xss(&out.body),
            Some(Fault::DropBody) => out.drop_after = Some(faults::truncate(&out.body).len()),
            Some(Fault::Reset) => out.reset = true,
            _ => {}
        }
        out
    }
}

/// Where the `redirect` fault points (same origin). Any request arriving here is recorded.
pub const REDIRECT_TARGET: &str = "/redirected";

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
