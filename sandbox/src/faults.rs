//! Fault injection: a request asks for a fault with the `x-sandbox-fault: <mode>` header or by
//! appending `+<mode>` to its key (`test-key+rate_limit`), so even an unmodified client can
//! trigger one.
//!
//! | mode | response | charged |
//! |---|---|---|
//! | `rate_limit` | 429, `Retry-After: 1` | no |
//! | `rate_limit_once` | 429 with `Retry-After: 1` the first time a key sends that operation and body; the retry succeeds | the success only |
//! | `server_error` | 500 | no |
//! | `unavailable` | 503, `Retry-After: 1` | no |
//! | `unavailable_once` | like `rate_limit_once` with 503 | the success only |
//! | `delay=<ms>` | the normal 200 after `<ms>` ms (at most 600,000) | yes |
//! | `truncate` | 200, the valid body cut in half | yes |
//! | `not_json` | 200, an HTML error page (`text/html`) | yes |
//! | `break=<rule>` | 200, a body that breaks one rule ([`BreakRule`]) | yes |
//! | `huge=<MB>` | 200, a valid-looking body of at least `<MB>` MiB (1..=512) | yes |
//! | `xss` | 200, the normal body with every scraped text and URL replaced by attack strings ([`XSS_CORPUS`], [`XSS_URLS`]); in `backlink/overview` also `new_lost_type`, `new_lost_date` and `first_seen` of every other `ref_newlost` entry by formula and markup payloads ([`CSV_CORPUS`]; the body then fails validation) | yes |
//! | `drop_body` | 200 with a `Content-Length` of the whole body, then the first half of it, then the connection is closed (a client fails while reading the body, not at the headers). In-process: the half body, like `truncate` | yes |
//! | `reset` | charged as a 200, then the connection is reset (TCP RST) before any byte of the answer: the client sees no status line. In-process: [`serpkit::client::TransportError::Network`] | yes |
//! | `later=<days>` | 200, the normal answer as of `<days>` days after the sandbox's date (0..=3650): the service's data that much later, for tests of tracking over time (the HTTP server's date is fixed at its start) | yes |
//! | `redirect` | 307 with `Location: /redirected` (same origin). Any request arriving at `/redirected` is recorded in the ledger (operation `redirected`, fault `redirect_followed`, `key_seen`) and answered 410 | no |
//!
//! A 200 is charged whatever its body: the real service would charge a request it answered,
//! so the client must be able to see that a broken or unreadable answer still cost money.

use std::fmt;
use std::str::FromStr;

mod xss;
pub use xss::{xss, CSV_CORPUS, XSS_CORPUS, XSS_URLS};

use serde_json::Value;
use serpkit::ops::Operation;

/// Request header that asks for a fault.
pub const FAULT_HEADER: &str = "x-sandbox-fault";

/// Largest `huge=<MB>`.
pub const MAX_HUGE_MB: u64 = 512;

/// Longest `delay=<ms>`.
pub const MAX_DELAY_MS: u64 = 600_000;

/// A fault mode (see the module docs for what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 429 with `Retry-After: 1`.
    RateLimit,
    /// 429 the first time per key, operation and body; then success.
    RateLimitOnce,
    /// 500.
    ServerError,
    /// 503 with `Retry-After: 1`.
    Unavailable,
    /// 503 the first time per key, operation and body; then success.
    UnavailableOnce,
    /// The normal response after this many milliseconds.
    Delay(u64),
    /// The valid body cut in half (status 200).
    Truncate,
    /// An HTML error page with status 200.
    NotJson,
    /// A 200 body that breaks one rule.
    Break(BreakRule),
    /// A valid-looking body of at least this many MiB.
    Huge(u64),
    /// The normal body with scraped text and URLs replaced by attack strings.
    Xss,
    /// Status 200 and the whole body's length, then half the body and a closed connection.
    DropBody,
    /// 307 to `/redirected`, which records whoever follows it.
    Redirect,
    /// Charged, then the connection reset before any byte of the answer.
    Reset,
    /// The normal answer as of this many days after the sandbox's date.
    Later(u64),
}

impl Fault {
    /// `huge` and `delay`: the answers that hold memory or a connection for long, limited by
    /// the HTTP server ([`crate::Config::max_heavy`]).
    pub fn is_heavy(self) -> bool {
        matches!(self, Fault::Huge(_) | Fault::Delay(_))
    }
}

/// The rules `break=<rule>` can break (each the change of the core's rule-breaking bodies
/// named so for the operation). Not every rule applies to every operation; asking for one
/// that does not gives 400 listing the ones that do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakRule {
    /// An ordering rule: monthly entries newest first (search volume), stats oldest first
    /// (overview), a page before one of a smaller rank (outline), a record with more volume
    /// than the one before (related).
    Order,
    /// 11 monthly entries instead of 12 (search volume).
    MonthlyCount,
    /// Monthly entries that skip a month (search volume).
    ConsecutiveMonths,
    /// `count` differs from `value` in a monthly entry (search volume).
    Count,
    /// A value of the wrong JSON type (an integer sent as a string; in domain stats a
    /// number where a string belongs). All operations.
    Type,
    /// A required field removed from the first record (`stats` of the overview). All
    /// operations.
    MissingField,
    /// A hashtag without `#` and a tag without `@` (microblog).
    Prefix,
    /// A value out of its observed range: COMPETITION 1.7 (search volume), competition 250
    /// (ranked keywords), domain_inlink_rank 150 (overview), kd 140 (related).
    Range,
    /// A malformed date: monthly `date` (search volume), stats `date` (overview),
    /// `posted_on` (microblog, video).
    Date,
    /// An upper-case `ccode` (search volume).
    Ccode,
}

impl BreakRule {
    /// Every rule, in documentation order.
    pub const ALL: [BreakRule; 10] = [
        BreakRule::Order,
        BreakRule::MonthlyCount,
        BreakRule::ConsecutiveMonths,
        BreakRule::Count,
        BreakRule::Type,
        BreakRule::MissingField,
        BreakRule::Prefix,
        BreakRule::Range,
        BreakRule::Date,
        BreakRule::Ccode,
    ];

    /// The rule's name in `break=<rule>`.
    pub fn name(self) -> &'static str {
        match self {
            BreakRule::Order => "order",
            BreakRule::MonthlyCount => "monthly_count",
            BreakRule::ConsecutiveMonths => "consecutive_months",
            BreakRule::Count => "count",
            BreakRule::Type => "type",
            BreakRule::MissingField => "missing_field",
            BreakRule::Prefix => "prefix",
            BreakRule::Range => "range",
            BreakRule::Date => "date",
            BreakRule::Ccode => "ccode",
        }
    }

    /// True when the rule can be broken in a response of `op`: the core's set of
    /// rule-breaking bodies has one for it ([`serpkit::validate::breaking::for_fault`]).
    pub fn applies_to(self, op: Operation) -> bool {
        serpkit::validate::breaking::for_fault(op, self.name()).is_some()
    }

    /// The rules that apply to `op`.
    pub fn for_operation(op: Operation) -> Vec<BreakRule> {
        BreakRule::ALL
            .into_iter()
            .filter(|r| r.applies_to(op))
            .collect()
    }
}

impl fmt::Display for BreakRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::RateLimit => f.write_str("rate_limit"),
            Fault::RateLimitOnce => f.write_str("rate_limit_once"),
            Fault::ServerError => f.write_str("server_error"),
            Fault::Unavailable => f.write_str("unavailable"),
            Fault::UnavailableOnce => f.write_str("unavailable_once"),
            Fault::Delay(ms) => write!(f, "delay={ms}"),
            Fault::Truncate => f.write_str("truncate"),
            Fault::NotJson => f.write_str("not_json"),
            Fault::Break(r) => write!(f, "break={r}"),
            Fault::Huge(mb) => write!(f, "huge={mb}"),
            Fault::Xss => f.write_str("xss"),
            Fault::DropBody => f.write_str("drop_body"),
            Fault::Redirect => f.write_str("redirect"),
            Fault::Reset => f.write_str("reset"),
            Fault::Later(days) => write!(f, "later={days}"),
        }
    }
}

/// The list of modes, for error messages.
pub const MODES: &str = "rate_limit, rate_limit_once, server_error, unavailable, \
unavailable_once, delay=<ms>, truncate, not_json, break=<rule>, huge=<MB>, xss, drop_body, \
redirect, reset, later=<days>";

/// Largest `later=<days>`.
pub const MAX_LATER_DAYS: u64 = 3650;

impl FromStr for Fault {
    type Err = String;
    fn from_str(s: &str) -> Result<Fault, String> {
        let t = s.trim().to_ascii_lowercase();
        let shown: String = s.chars().take(40).collect();
        let (name, arg) = match t.split_once('=') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (t.as_str(), None),
        };
        let number = |max: u64, what: &str| -> Result<u64, String> {
            let a = arg.ok_or_else(|| format!("fault {name} needs ={what}"))?;
            match a.parse::<u64>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(format!("fault {name}: {what} must be an integer 0..={max}")),
            }
        };
        let plain = |f: Fault| match arg {
            None => Ok(f),
            Some(_) => Err(format!("fault {name} takes no value")),
        };
        match name {
            "rate_limit" => plain(Fault::RateLimit),
            "rate_limit_once" => plain(Fault::RateLimitOnce),
            "server_error" => plain(Fault::ServerError),
            "unavailable" => plain(Fault::Unavailable),
            "unavailable_once" => plain(Fault::UnavailableOnce),
            "truncate" => plain(Fault::Truncate),
            "not_json" => plain(Fault::NotJson),
            "xss" => plain(Fault::Xss),
            "drop_body" => plain(Fault::DropBody),
            "redirect" => plain(Fault::Redirect),
            "reset" => plain(Fault::Reset),
            "delay" => number(MAX_DELAY_MS, "<ms>").map(Fault::Delay),
            "huge" => number(MAX_HUGE_MB, "<MB>").map(|mb| Fault::Huge(mb.max(1))),
            "later" => number(MAX_LATER_DAYS, "<days>").map(Fault::Later),
            "break" => {
                let a = arg.unwrap_or("");
                BreakRule::ALL
                    .into_iter()
                    .find(|r| r.name() == a)
                    .map(Fault::Break)
                    .ok_or_else(|| {
                        let names: Vec<&str> = BreakRule::ALL.iter().map(|r| r.name()).collect();
                        format!(
                            "unknown rule {:?} for break=<rule>; rules: {}",
                            a.chars().take(40).collect::<String>(),
                            names.join(", ")
                        )
                    })
            }
            _ => Err(format!("unknown fault mode {shown:?}; modes: {MODES}")),
        }
    }
}

/// Splits `key+mode` into the key and the fault text; `None` when there is no `+`.
pub fn split_key(key: &str) -> (&str, Option<&str>) {
    match key.split_once('+') {
        Some((k, f)) => (k, Some(f)),
        None => (key, None),
    }
}

/// The first half of a body, cut at a character boundary.
pub fn truncate(body: &str) -> String {
    let mut cut = body.len() / 2;
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    body[..cut].to_owned()
}

/// The HTML page `not_json` returns.
pub fn html_page() -> String {
    "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad \
     Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>\n"
        .to_owned()
}

/// Err naming the rules that apply to `op` when `rule` does not.
pub fn check_break(op: Operation, rule: BreakRule) -> Result<(), String> {
    if rule.applies_to(op) {
        return Ok(());
    }
    let names: Vec<&str> = BreakRule::for_operation(op)
        .iter()
        .map(|r| r.name())
        .collect();
    Err(format!(
        "break={rule} does not apply to {op}; rules for it: {}",
        names.join(", ")
    ))
}

/// A body of `op` that breaks `rule`, from a valid body: the change of the core's one set of
/// rule-breaking bodies (`serpkit::validate::breaking`, which the validator's rule tests
/// prove), so the fault breaks what the tests break. Err when the rule does not apply.
pub fn break_body(op: Operation, rule: BreakRule, body: &str) -> Result<String, String> {
    check_break(op, rule)?;
    let breaking = serpkit::validate::breaking::for_fault(op, rule.name())
        .ok_or_else(|| format!("break={rule} does not apply to {op}"))?;
    let mut v: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    (breaking.apply)(&mut v);
    Ok(v.to_string())
}

/// A valid-looking body of `op` of at least `mb` MiB, built from a normal `body`: array
/// records repeated, or for an object body (`search_volume/single`) trailing white space.
/// (`ranked-keywords/domain` and `backlink/overview` are made large by the generator instead.)
pub fn inflate(body: &str, mb: u64) -> String {
    let target = (mb as usize).saturating_mul(1 << 20);
    let t = body.trim();
    if t.len() > 2 && t.starts_with('[') && t.ends_with(']') {
        let inner = &t[1..t.len() - 1];
        let mut out = String::with_capacity(target + inner.len() + 2);
        out.push('[');
        out.push_str(inner);
        while out.len() < target {
            out.push(',');
            out.push_str(inner);
        }
        out.push(']');
        out
    } else {
        let mut out = String::with_capacity(target + t.len());
        out.push_str(t);
        while out.len() < target {
            out.push_str("                                                                ");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each `break=<rule>` on a generated body gives issues of the rule's code only, as the
    /// same change does on the rule tests' body (`tests/validate_rules.rs`).
    #[test]
    fn each_break_gives_its_rule_on_generated_bodies() {
        let today = crate::date::Date::from_days(19_787);
        for op in Operation::ALL {
            for seed in 0..4 {
                let request = crate::generate::sample_request(op, seed);
                let good = crate::generate::body(&request, today);
                for rule in BreakRule::for_operation(op) {
                    let wanted = serpkit::validate::breaking::for_fault(op, rule.name()).unwrap();
                    let broken = break_body(op, rule, &good).unwrap();
                    let report = serpkit::validate::validate(op, &broken, None);
                    assert!(!report.issues.is_empty(), "{op} break={rule}: no issue");
                    for issue in &report.issues {
                        assert_eq!(
                            issue.code,
                            wanted.code.as_str(),
                            "{op} break={rule}: {report}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn parses_modes() {
        for m in [
            "rate_limit",
            "rate_limit_once",
            "server_error",
            "unavailable",
            "unavailable_once",
            "delay=250",
            "truncate",
            "not_json",
            "break=order",
            "huge=3",
            "xss",
            "drop_body",
            "redirect",
        ] {
            let f: Fault = m.parse().unwrap();
            assert_eq!(f.to_string(), m);
        }
        assert!("delay".parse::<Fault>().is_err());
        assert!("break=nothing".parse::<Fault>().is_err());
        assert!("huge=100000".parse::<Fault>().is_err());
        assert!("boom".parse::<Fault>().unwrap_err().contains("rate_limit"));
        assert_eq!(split_key("k+truncate"), ("k", Some("truncate")));
        assert_eq!(truncate("aé"), "a");
    }
}
