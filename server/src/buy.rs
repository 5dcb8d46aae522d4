//! One paid call through the server, as the money state machine orders it with PostgreSQL as
//! the store: plan against the team's records, write ahead (reservation, caps and entry in
//! one transaction, what may have been bought already asked of the machine's rule), send,
//! settle (entry, records, reservation in one transaction, retried until stored).

use std::time::{Duration, Instant};

use axum::body::Bytes;
use deadpool_postgres::Client;
use serpkit::machine::{EntryState, Period};
use serpkit::records::{request_key, request_keys, Bought, Plan, PlanOptions, StoredRecord};
use serpkit::{ApiKey, Request, Usd};

use crate::auth::Member;
use crate::db::Settled;
use crate::host::{self, Read};
use crate::upstream::{self, Billed, Outcome};
use crate::App;

/// What a call answers: a status, a body and what it cost.
#[derive(Debug)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// Body (the service's, merged with the team's records, or the server's error).
    pub body: String,
    /// Headers to pass on from the service (`retry-after`).
    pub headers: Vec<(String, String)>,
    /// What this call was charged.
    pub cost: Usd,
    /// What this call may have been charged (its answer was lost).
    pub possibly_charged: Usd,
    /// Requested positions answered from the team's records.
    pub reused: usize,
    /// The journal entry, when something was sent.
    pub entry: Option<i64>,
    /// The body is a charged answer that is not JSON, passed on as its text.
    pub unreadable: bool,
}

/// Why a call was refused before anything was sent.
#[derive(Debug)]
pub enum Refusal {
    /// A cap would be passed: (whose, committed, estimate, cap).
    Cap(&'static str, Usd, Usd, Usd),
    /// The records stayed reserved by another call for too long.
    Busy,
    /// Some items were possibly charged by a call whose outcome is unknown: not bought again
    /// without the member's yes (`x-serpkit-confirm-possibly: 1`).
    PossiblyCharged {
        /// Those items, as a member reads them ([`host::shown`]).
        items: Vec<String>,
        /// When the latest of those calls was written ahead (ms since the epoch).
        since: i64,
    },
    /// The database failed.
    Database(String),
}

fn db(e: impl std::error::Error) -> Refusal {
    Refusal::Database(crate::errors::cause(&e))
}

/// The team's records for a request: per record (priced per item) or the whole result
/// (priced per request).
enum Planned {
    Records(Plan),
    Result {
        key: String,
        stored: Option<String>,
    },
    /// A charged answer to this very request that was not JSON, kept with its text.
    Unreadable(String),
}

impl Planned {
    /// What must be bought, if anything.
    fn to_buy<'a>(&'a self, request: &'a Request) -> Option<&'a Request> {
        match self {
            Planned::Records(p) => p.to_buy.as_ref(),
            Planned::Result { stored: None, .. } => Some(request),
            Planned::Result { .. } | Planned::Unreadable(_) => None,
        }
    }

    /// The reservation keys of what is bought.
    fn reservations(&self) -> Vec<String> {
        match self {
            Planned::Records(p) => p.buy_keys.iter().map(|k| k.as_str().to_string()).collect(),
            Planned::Result { key, .. } => vec![format!("result|{key}")],
            Planned::Unreadable(_) => Vec::new(),
        }
    }
}

/// The oldest purchase that still answers a call: records and results bought before it are
/// bought again (`i64::MIN`: any).
fn fresh_since(now: i64, max_age_ms: Option<i64>) -> i64 {
    max_age_ms.map_or(i64::MIN, |age| now.saturating_sub(age))
}

/// A statement's parameter.
type Param<'a> = dyn tokio_postgres::types::ToSql + Sync + 'a;

/// Reservations held of these keys.
const RESERVED: &str = "SELECT key FROM reservations WHERE key = ANY($1)";

/// The result kept for a request's key, and whether it is a charged answer that was not
/// JSON (kept for any request, per item priced or not: its text answers the same request).
const KEPT: &str =
    "SELECT body, unreadable FROM results WHERE request_key = $1 AND bought_at >= $2";

/// The team's records for a request, and whether another call holds a reservation of what
/// it would buy (read without a lock: the write-ahead's own reservation decides; this only
/// spares it a doomed attempt), and a kept unreadable answer to this request: the reads
/// pipelined, one round trip.
async fn plan(
    c: &Client,
    request: &Request,
    source: &str,
    now: i64,
    max_age_ms: Option<i64>,
) -> Result<(Planned, bool), Refusal> {
    let held = |rows: &[tokio_postgres::Row], keys: &[String]| {
        rows.iter()
            .any(|r| keys.iter().any(|k| k == r.get::<_, &str>(0)))
    };
    let key = request_key(request, source);
    let since = fresh_since(now, max_age_ms);
    if let Some((_, keys)) = request_keys(request, source) {
        let names: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        let (records, reserved, kept) = tokio::try_join!(
            c.prepare_cached("SELECT key, json, bought_at FROM records WHERE key = ANY($1)"),
            c.prepare_cached(RESERVED),
            c.prepare_cached(KEPT),
        )
        .map_err(db)?;
        let params: [&Param<'_>; 1] = [&names];
        let by_key: [&Param<'_>; 2] = [&key, &since];
        let (rows, reservations, kept) = tokio::try_join!(
            c.query(&records, &params),
            c.query(&reserved, &params),
            c.query_opt(&kept, &by_key),
        )
        .map_err(db)?;
        if let Some(text) = kept.filter(|r| r.get(1)).map(|r| r.get(0)) {
            return Ok((Planned::Unreadable(text), false));
        }
        let found = |name: &str| {
            rows.iter()
                .find(|r| r.get::<_, &str>(0) == name)
                .map(|r| StoredRecord {
                    json: r.get(1),
                    bought_at_ms: r.get::<_, i64>(2) as f64,
                    issues: Vec::new(),
                    imported: false,
                })
        };
        let stored = names.iter().map(|n| found(n)).collect();
        // Decided: a member's call takes the team's records at any age (as the app does by
        // default); a scheduled run wants them fresher than half its period.
        let options = PlanOptions {
            now_ms: now as f64,
            max_age_ms: max_age_ms.map(|a| a as f64),
            refresh: false,
        };
        if let Some(p) = Plan::new(request, source, stored, &options) {
            let planned = Planned::Records(p);
            let reserved = held(&reservations, &planned.reservations());
            return Ok((planned, reserved));
        }
    }
    let reservation = Planned::Result {
        key: key.clone(),
        stored: None,
    }
    .reservations();
    let (result, reserved) =
        tokio::try_join!(c.prepare_cached(KEPT), c.prepare_cached(RESERVED),).map_err(db)?;
    let (by_key, by_reservation): ([&Param<'_>; 2], [&Param<'_>; 1]) =
        ([&key, &since], [&reservation]);
    let (stored, reservations) = tokio::try_join!(
        c.query_opt(&result, &by_key),
        c.query(&reserved, &by_reservation),
    )
    .map_err(db)?;
    let reserved = held(&reservations, &reservation);
    match stored.map(|r| (r.get(0), r.get(1))) {
        Some((text, true)) => Ok((Planned::Unreadable(text), false)),
        stored => Ok((
            Planned::Result {
                key,
                stored: stored.map(|(body, _)| body),
            },
            reserved,
        )),
    }
}

/// What a write-ahead came to.
enum WriteAhead {
    /// Entry written, records reserved: send.
    Sent(i64),
    /// Another call holds a reservation: wait for it and plan again.
    Reserved,
    /// A record was stored meanwhile: plan again.
    Stored,
}

/// What a call asks, as the member sent it.
#[derive(Clone, Copy)]
pub struct Ask<'a> {
    /// The request (the member's token as its key).
    pub request: &'a Request,
    /// Records and results older than this are bought again (`None`: any age answers).
    pub max_age_ms: Option<i64>,
    /// The member said yes to buying again what was possibly charged
    /// (`x-serpkit-confirm-possibly: 1`): a yes for this one request.
    pub confirm_possibly: bool,
}

/// The write-ahead: under the team row's lock (every process's write-aheads in one order),
/// ask the machine whether an interrupted call may have bought any of it, reserve the
/// records, make sure none was stored meanwhile, check both caps, write the entry `sent`
/// with its items. All or nothing.
async fn write_ahead(
    app: &App,
    owner: i64,
    c: &mut Client,
    member: &Member,
    planned: &Planned,
    ask: Ask<'_>,
    now: i64,
) -> Result<WriteAhead, Refusal> {
    let (request, max_age_ms) = (ask.request, ask.max_age_ms);
    let since_fresh = fresh_since(now, max_age_ms);
    let estimate = planned
        .to_buy(request)
        .map_or(Usd::ZERO, serpkit::ops::estimate_cost);
    let tx = c.transaction().await.map_err(db)?;
    let (lock, doubtful, write, stored) = tokio::try_join!(
        tx.prepare_cached("SELECT cap_micros, period, reset_at FROM team WHERE id = 1 FOR UPDATE"),
        tx.prepare_cached(host::DOUBTFUL),
        tx.prepare_cached(
            "WITH entry AS (
               INSERT INTO entries (member_id, operation, request_key, estimate_micros, state,
                                    owner, at, items)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id),
             reserved AS (
               INSERT INTO reservations (key, entry_id)
               SELECT k, entry.id FROM unnest($8::text[]) AS k, entry
               ON CONFLICT (key) DO NOTHING RETURNING key)
             SELECT (SELECT id FROM entry), (SELECT count(*) FROM reserved)"
        ),
        tx.prepare_cached(
            "SELECT (SELECT count(*) FROM records WHERE key = ANY($1) AND bought_at >= $3)
                  + (SELECT count(*) FROM results WHERE request_key = ANY($2) AND bought_at >= $3)"
        ),
    )
    .map_err(db)?;
    let keys = planned.reservations();
    let (records, results): (Vec<&str>, Vec<&str>) = match planned {
        Planned::Records(p) => (p.buy_keys.iter().map(|k| k.as_str()).collect(), Vec::new()),
        Planned::Result { key, .. } => (Vec::new(), vec![key.as_str()]),
        // Nothing to buy: never written ahead.
        Planned::Unreadable(_) => (Vec::new(), Vec::new()),
    };
    let operation = request.operation().path();
    let key_of_request = request_key(request, &app.source);
    // One round trip, in this order: the team's lock; the entries that may have bought any of
    // it (read under the lock, before this one's); the entry and its reservations; then,
    // as a statement of its own (so it sees every settle committed before the reservation
    // was made: reserving first makes this check race-free), what was stored meanwhile.
    let (micros, sent) = (estimate.micros(), EntryState::Sent.as_str());
    let entry: [&Param<'_>; 8] = [
        &member.id,
        &operation,
        &key_of_request,
        &micros,
        &sent,
        &owner,
        &now,
        &keys,
    ];
    let fresh: [&Param<'_>; 3] = [&records, &results, &since_fresh];
    let items: [&Param<'_>; 2] = [&keys, &since_fresh];
    let (team, doubtful, written, stored) = tokio::try_join!(
        tx.query_one(&lock, &[]),
        tx.query(&doubtful, &items),
        tx.query_one(&write, &entry),
        tx.query_one(&stored, &fresh),
    )
    .map_err(db)?;
    // The machine decides (an entry older than the records' freshness is as stale as they
    // are: a scheduled run buys again what is older than half its period).
    if !ask.confirm_possibly {
        let read = Read::doubtful(&doubtful, &app.source);
        if let Some((items, since)) = read.possibly_bought(&keys) {
            let items = items.iter().map(|i| host::shown(i, &app.source)).collect();
            return Err(Refusal::PossiblyCharged { items, since });
        }
    }
    let entry: i64 = written.get(0);
    if written.get::<_, i64>(1) < keys.len() as i64 {
        return Ok(WriteAhead::Reserved);
    }
    if stored.get::<_, i64>(0) > 0 {
        return Ok(WriteAhead::Stored);
    }
    // The period's entries, read under the lock; the machine's cap rule decides, for the
    // team and for the member (whose cap runs over the team's period).
    let (period, reset_at): (Period, i64) = (
        Period::from_name(team.get(1)).unwrap_or_default(),
        team.get(2),
    );
    let since = period.start(now, reset_at);
    let statement = tx.prepare_cached(host::PERIOD).await.map_err(db)?;
    let rows = tx
        .query(&statement, &[&since, &member.id, &entry])
        .await
        .map_err(db)?;
    let cap = |m: Option<i64>| m.map(Usd::from_micros);
    let team_read = Read::period(&rows, false, cap(team.get(0)), period, reset_at);
    if let Err((committed, cap)) = team_read.admit(now, estimate) {
        return Err(Refusal::Cap("the team's", committed, estimate, cap));
    }
    let member_read = Read::period(&rows, true, cap(member.cap_micros), period, reset_at);
    if let Err((committed, cap)) = member_read.admit(now, estimate) {
        return Err(Refusal::Cap("your", committed, estimate, cap));
    }
    tx.commit().await.map_err(db)?;
    Ok(WriteAhead::Sent(entry))
}

/// Runs one checked request for `member`: answered from the team's records where it can be,
/// the rest bought once. `ask.request` carries the member's token as its key; it is replaced
/// by the service key only in the body sent upstream.
pub async fn call(app: &App, member: &Member, ask: Ask<'_>) -> Result<Answer, Refusal> {
    let request = ask.request;
    let deadline = Instant::now() + app.config.reservation_wait;
    let mut pause = Duration::from_millis(5);
    loop {
        // A connection per attempt, none held while waiting: waiters holding the pool kept
        // the buyer they wait for from settling (the benchmark's 50 members on 16
        // connections all ended `busy` after 30 s).
        let mut c = app.pool.get().await.map_err(db)?;
        let now = app.now();
        let (planned, reserved) = plan(&c, request, &app.source, now, ask.max_age_ms).await?;
        let Some(buy) = planned.to_buy(request).cloned() else {
            return Ok(answer_stored(&planned));
        };
        let estimate = serpkit::ops::estimate_cost(&buy);
        // The liveness id the entry is owned by: none held (its connection is being made
        // again) refuses the call before anything is written.
        let owner = app.liveness.current().ok_or_else(|| {
            Refusal::Database("this process's liveness connection is being made again".into())
        })?;
        // A call waiting for another's purchase looks without the team's lock: only a call
        // that may buy takes it.
        let outcome = if reserved {
            WriteAhead::Reserved
        } else {
            write_ahead(app, owner, &mut c, member, &planned, ask, now).await?
        };
        match outcome {
            WriteAhead::Sent(entry) => {
                drop(c);
                let sent = Sent {
                    planned,
                    request_key: request_key(request, &app.source),
                    estimate,
                    entry,
                    owner,
                };
                return Ok(send(app, sent, buy).await);
            }
            WriteAhead::Reserved | WriteAhead::Stored if Instant::now() < deadline => {
                drop(c);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            WriteAhead::Reserved | WriteAhead::Stored => return Err(Refusal::Busy),
        }
    }
}

fn answer_stored(planned: &Planned) -> Answer {
    let (body, reused) = match planned {
        Planned::Records(p) => (p.merge(None, false).body, p.reused()),
        Planned::Result { stored, .. } => (stored.clone().unwrap_or_default(), 1),
        Planned::Unreadable(text) => (text.clone(), 0),
    };
    Answer {
        status: 200,
        body,
        headers: Vec::new(),
        cost: Usd::ZERO,
        possibly_charged: Usd::ZERO,
        reused,
        entry: None,
        unreadable: matches!(planned, Planned::Unreadable(_)),
    }
}

/// A call written ahead: what it plans, the member's request's key (an unreadable answer is
/// kept under it), its price, its entry and the liveness id it was written ahead under.
struct Sent {
    planned: Planned,
    request_key: String,
    estimate: Usd,
    entry: i64,
    owner: i64,
}

/// Sends the bought part upstream with the service key, settles its entry and answers.
/// Sent only while `owner`, the liveness id it was written ahead with, is still held: once
/// it is lost another process may sweep the entry and free its reservations, so the call is
/// not sent (settled not charged, answered 503).
async fn send(app: &App, sent: Sent, mut buy: Request) -> Answer {
    let Sent {
        planned,
        request_key,
        estimate,
        entry,
        owner,
    } = sent;
    buy.set_key(app.config.service_key.clone());
    let path = buy.operation().url_path();
    let body = Bytes::from(buy.to_json());
    let withheld = app.liveness.current() != Some(owner);
    let outcome = if withheld {
        Outcome::Withheld
    } else {
        upstream::post(&app.upstream, &path, body, app.config.upstream_timeout).await
    };
    let now = app.now();
    let reused = match &planned {
        Planned::Records(p) => p.reused(),
        Planned::Result { .. } | Planned::Unreadable(_) => 0,
    };
    let mut answer = Answer {
        status: 200,
        body: String::new(),
        headers: Vec::new(),
        cost: Usd::ZERO,
        possibly_charged: Usd::ZERO,
        reused,
        entry: Some(entry),
        unreadable: false,
    };
    let mut records: Vec<(String, String)> = Vec::new();
    let mut result: Option<(String, String, bool)> = None;
    let status = match outcome {
        Outcome::Answer { status, body, .. } if upstream::billed(status) == Billed::Charged => {
            answer.cost = estimate;
            answer.status = status;
            let text = redact(&body, &app.config.service_key);
            let is_json = serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok();
            answer.body = match (&planned, is_json) {
                (Planned::Records(p), true) => {
                    let bought = Bought {
                        body: &text,
                        report: None,
                        at_ms: now as f64,
                    };
                    let merged = p.merge(Some(bought), false);
                    records = merged
                        .fresh
                        .into_iter()
                        .map(|(k, r)| (k.as_str().to_string(), r.json))
                        .collect();
                    merged.body
                }
                (Planned::Result { key, .. }, true) => {
                    result = Some((key.clone(), text.clone(), false));
                    text
                }
                // Paid for and unreadable: kept with its text under the request's key, so
                // the same request is answered from it, not bought again.
                _ => {
                    answer.unreadable = true;
                    result = Some((request_key, text.clone(), true));
                    text
                }
            };
            Some(i32::from(status))
        }
        Outcome::Answer {
            status,
            headers,
            body,
        } if upstream::billed(status) == Billed::NotCharged => {
            // A refusal of the request as sent: not charged, passed on as it came.
            answer.status = status;
            answer.body = redact(&body, &app.config.service_key);
            answer.headers = headers
                .into_iter()
                .filter(|(n, _)| n == "retry-after")
                .collect();
            Some(i32::from(status))
        }
        Outcome::Answer { status, .. } => {
            // The service may have charged before it failed: possibly charged, and not
            // passed on as it came (its retry-after would invite buying it again).
            answer.status = 502;
            answer.possibly_charged = estimate;
            answer.body = crate::errors::error_body(
                "upstream_possibly_charged",
                &format!(
                    "the service answered {status} after the request reached it: it may have \
                     charged {estimate}, so it counts possibly charged; buying it again needs \
                     the header x-serpkit-confirm-possibly: 1"
                ),
                None,
            );
            Some(i32::from(status))
        }
        Outcome::NotSent(message) => {
            answer.status = 502;
            answer.body = crate::errors::error_body("upstream_unreachable", &message, None);
            None
        }
        Outcome::Withheld => {
            answer.status = 503;
            answer.body = crate::errors::error_body(
                "unavailable",
                "the server lost its database session before sending; nothing was charged; retry",
                None,
            );
            None
        }
        Outcome::Lost(message) => {
            answer.status = 502;
            answer.possibly_charged = estimate;
            answer.body = crate::errors::error_body("upstream_lost", &message, None);
            None
        }
    };
    let state = EntryState::of(answer.cost, answer.possibly_charged);
    let settled = Settled {
        entry,
        unsent: withheld,
        state,
        charge: answer.cost,
        possible: answer.possibly_charged,
        status,
        now,
        records,
        result,
    };
    // Retried until stored: the answer is paid for; the entry stays `sent` meanwhile,
    // counted in flight.
    if !crate::db::settle_until_stored(&app.pool, &settled).await {
        // Swept as possibly charged while it ran (this process's liveness id was lost):
        // that stands, so no purchase is counted charged twice.
        answer.possibly_charged = estimate;
        answer.cost = Usd::ZERO;
    }
    answer
}

/// The service's body as text, the service key replaced wherever the service echoed it, in
/// any encoding ([`crate::redact`]): members never see it.
fn redact(body: &[u8], key: &ApiKey) -> String {
    crate::redact::redact(body, key.expose())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_key_never_reaches_a_member() {
        let key = ApiKey::new("sk-live-1234");
        let echoed = br#"{"error":{"message":"key sk-live-1234 is expired"}}"#;
        let shown = redact(echoed, &key);
        assert!(!shown.contains("sk-live-1234"), "{shown}");
        assert_eq!(redact(b"[1,2]", &key), "[1,2]");
        assert_eq!(redact(b"[1,2]", &ApiKey::default()), "[1,2]");
    }
}
