//! One paid call through the server, as the money state machine orders it with PostgreSQL as
//! the store: plan against the team's records, write ahead (reservation, caps and entry in
//! one transaction), send, settle (entry, records, reservation in one transaction).

use std::time::{Duration, Instant};

use axum::body::Bytes;
use deadpool_postgres::{Client, Transaction};
use serpkit::machine::{EntryState, Period, Totals};
use serpkit::records::{request_key, request_keys, Bought, Plan, PlanOptions, StoredRecord};
use serpkit::{ApiKey, Request, Usd};

use crate::auth::Member;
use crate::upstream::{self, Outcome};
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
}

/// Why a call was refused before anything was sent.
#[derive(Debug)]
pub enum Refusal {
    /// A cap would be passed: (whose, committed, estimate, cap).
    Cap(&'static str, Usd, Usd, Usd),
    /// The records stayed reserved by another call for too long.
    Busy,
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
    Result { key: String, stored: Option<String> },
}

impl Planned {
    /// What must be bought, if anything.
    fn to_buy<'a>(&'a self, request: &'a Request) -> Option<&'a Request> {
        match self {
            Planned::Records(p) => p.to_buy.as_ref(),
            Planned::Result { stored: None, .. } => Some(request),
            Planned::Result { .. } => None,
        }
    }

    /// The reservation keys of what is bought.
    fn reservations(&self) -> Vec<String> {
        match self {
            Planned::Records(p) => p.buy_keys.iter().map(|k| k.as_str().to_string()).collect(),
            Planned::Result { key, .. } => vec![format!("result|{key}")],
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

/// The team's records for a request, and whether another call holds a reservation of what
/// it would buy (read without a lock: the write-ahead's own reservation decides; this only
/// spares it a doomed attempt). Both reads pipelined: one round trip.
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
    if let Some((_, keys)) = request_keys(request, source) {
        let names: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        let (records, reserved) = tokio::try_join!(
            c.prepare_cached("SELECT key, json, bought_at FROM records WHERE key = ANY($1)"),
            c.prepare_cached(RESERVED),
        )
        .map_err(db)?;
        let params: [&Param<'_>; 1] = [&names];
        let (rows, reservations) =
            tokio::try_join!(c.query(&records, &params), c.query(&reserved, &params),)
                .map_err(db)?;
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
    let key = request_key(request, source);
    let reservation = Planned::Result {
        key: key.clone(),
        stored: None,
    }
    .reservations();
    let (result, reserved) = tokio::try_join!(
        c.prepare_cached("SELECT body FROM results WHERE request_key = $1 AND bought_at >= $2"),
        c.prepare_cached(RESERVED),
    )
    .map_err(db)?;
    let since = fresh_since(now, max_age_ms);
    let (by_key, by_reservation): ([&Param<'_>; 2], [&Param<'_>; 1]) =
        ([&key, &since], [&reservation]);
    let (stored, reservations) = tokio::try_join!(
        c.query_opt(&result, &by_key),
        c.query(&reserved, &by_reservation),
    )
    .map_err(db)?;
    let reserved = held(&reservations, &reservation);
    let stored = stored.map(|r| r.get(0));
    Ok((Planned::Result { key, stored }, reserved))
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

/// Sums of the period's entries for the team and for one member, as [`Totals`] counts them.
async fn totals(
    tx: &Transaction<'_>,
    since: i64,
    member: i64,
) -> Result<(Totals, Totals), Refusal> {
    let statement = tx
        .prepare_cached(
            "SELECT
               coalesce(sum(estimate_micros) FILTER (WHERE state = 'sent'), 0)::bigint,
               coalesce(sum(charge_micros) FILTER (WHERE state <> 'sent' AND at >= $1), 0)::bigint,
               coalesce(sum(possible_micros) FILTER (WHERE state <> 'sent' AND at >= $1), 0)::bigint,
               coalesce(sum(estimate_micros) FILTER (WHERE state = 'sent' AND member_id = $2), 0)::bigint,
               coalesce(sum(charge_micros) FILTER (WHERE state <> 'sent' AND at >= $1 AND member_id = $2), 0)::bigint,
               coalesce(sum(possible_micros) FILTER (WHERE state <> 'sent' AND at >= $1 AND member_id = $2), 0)::bigint
             FROM entries WHERE state = 'sent' OR at >= $1",
        )
        .await
        .map_err(db)?;
    let row = tx
        .query_one(&statement, &[&since, &member])
        .await
        .map_err(db)?;
    let t = |i: usize| Totals {
        in_flight: Usd::from_micros(row.get(i)),
        spent: Usd::from_micros(row.get(i + 1)),
        possibly_charged: Usd::from_micros(row.get(i + 2)),
    };
    Ok((t(0), t(3)))
}

/// The write-ahead: under the team row's lock (every process's write-aheads in one order),
/// reserve the records, make sure none was stored meanwhile, check both caps, write the
/// entry `sent`. All or nothing.
#[allow(clippy::too_many_arguments)]
async fn write_ahead(
    app: &App,
    owner: i64,
    c: &mut Client,
    member: &Member,
    planned: &Planned,
    request: &Request,
    now: i64,
    max_age_ms: Option<i64>,
) -> Result<WriteAhead, Refusal> {
    let since_fresh = fresh_since(now, max_age_ms);
    let estimate = planned
        .to_buy(request)
        .map_or(Usd::ZERO, serpkit::ops::estimate_cost);
    let tx = c.transaction().await.map_err(db)?;
    let (lock, write, stored) = tokio::try_join!(
        tx.prepare_cached("SELECT cap_micros, period, reset_at FROM team WHERE id = 1 FOR UPDATE"),
        tx.prepare_cached(
            "WITH entry AS (
               INSERT INTO entries (member_id, operation, request_key, estimate_micros, state,
                                    owner, at)
               VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id),
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
    };
    let operation = request.operation().path();
    let key_of_request = request_key(request, &app.source);
    // One round trip, in this order: the team's lock; the entry and its reservations; then,
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
    let (team, written, stored) = tokio::try_join!(
        tx.query_one(&lock, &[]),
        tx.query_one(&write, &entry),
        tx.query_one(&stored, &fresh),
    )
    .map_err(db)?;
    let entry: i64 = written.get(0);
    if written.get::<_, i64>(1) < keys.len() as i64 {
        return Ok(WriteAhead::Reserved);
    }
    if stored.get::<_, i64>(0) > 0 {
        return Ok(WriteAhead::Stored);
    }
    let period = Period::from_name(team.get(1)).unwrap_or_default();
    let since = period.start(now, team.get(2));
    let (team_totals, member_totals) = totals(&tx, since, member.id).await?;
    // The entry just written is in flight in both sums: take it out again.
    let without = |t: Totals| Totals {
        in_flight: t.in_flight - estimate,
        ..t
    };
    let cap = |m: Option<i64>| m.map(Usd::from_micros);
    let team_cap = cap(team.get(0));
    if let Err(committed) = without(team_totals).admits(estimate, team_cap) {
        return Err(Refusal::Cap(
            "the team's",
            committed,
            estimate,
            team_cap.unwrap_or_default(),
        ));
    }
    if let Err(committed) = without(member_totals).admits(estimate, cap(member.cap_micros)) {
        let c = cap(member.cap_micros).unwrap_or_default();
        return Err(Refusal::Cap("your", committed, estimate, c));
    }
    tx.commit().await.map_err(db)?;
    Ok(WriteAhead::Sent(entry))
}

/// Runs one checked request for `member`: answered from the team's records where it can be,
/// the rest bought once. `request` carries the member's token as its key; it is replaced by
/// the service key only in the body sent upstream. `max_age_ms`: records and results older
/// than this are bought again (`None`: any age answers).
pub async fn call(
    app: &App,
    member: &Member,
    request: &Request,
    max_age_ms: Option<i64>,
) -> Result<Answer, Refusal> {
    let deadline = Instant::now() + app.config.reservation_wait;
    let mut pause = Duration::from_millis(5);
    loop {
        // A connection per attempt, none held while waiting: waiters holding the pool kept
        // the buyer they wait for from settling (the benchmark's 50 members on 16
        // connections all ended `busy` after 30 s).
        let mut c = app.pool.get().await.map_err(db)?;
        let now = app.now();
        let (planned, reserved) = plan(&c, request, &app.source, now, max_age_ms).await?;
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
            write_ahead(
                app, owner, &mut c, member, &planned, request, now, max_age_ms,
            )
            .await?
        };
        match outcome {
            WriteAhead::Sent(entry) => {
                drop(c);
                return Ok(send(app, planned, buy, estimate, entry, owner).await);
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
    };
    Answer {
        status: 200,
        body,
        headers: Vec::new(),
        cost: Usd::ZERO,
        possibly_charged: Usd::ZERO,
        reused,
        entry: None,
    }
}

/// Sends the bought part upstream with the service key, settles its entry and answers.
/// Sent only while `owner`, the liveness id it was written ahead with, is still held: once
/// it is lost another process may sweep the entry and free its reservations, so the call is
/// not sent (settled not charged, answered 503).
async fn send(
    app: &App,
    planned: Planned,
    mut buy: Request,
    estimate: Usd,
    entry: i64,
    owner: i64,
) -> Answer {
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
        Planned::Result { .. } => 0,
    };
    let mut answer = Answer {
        status: 200,
        body: String::new(),
        headers: Vec::new(),
        cost: Usd::ZERO,
        possibly_charged: Usd::ZERO,
        reused,
        entry: Some(entry),
    };
    let mut records: Vec<(String, String)> = Vec::new();
    let mut result: Option<(String, String)> = None;
    let status = match outcome {
        Outcome::Answer {
            status: 200, body, ..
        } => {
            answer.cost = estimate;
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
                    result = Some((key.clone(), text.clone()));
                    text
                }
                // Paid for and unreadable: passed on as it came, stored nowhere.
                (_, false) => text,
            };
            Some(200)
        }
        Outcome::Answer {
            status,
            headers,
            body,
        } => {
            // Decided: an answer other than 200 was not charged (the sandbox's rule; the
            // service documents none), and is passed on as it came.
            answer.status = status;
            answer.body = redact(&body, &app.config.service_key);
            answer.headers = headers
                .into_iter()
                .filter(|(n, _)| n == "retry-after")
                .collect();
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
    // A failed settle keeps the answer (it is paid for) and retries for a while; the entry
    // stays `sent` meanwhile, counted in flight.
    for attempt in 0..20u64 {
        match settle(app, &settled).await {
            Ok(true) => break,
            Ok(false) => {
                // Swept as possibly charged while it ran (this process's liveness id was
                // lost): that stands, so no purchase is counted charged twice.
                answer.possibly_charged = estimate;
                answer.cost = Usd::ZERO;
                break;
            }
            Err(e) => {
                tracing::error!(entry, attempt = attempt + 1, error = %e, "settling failed");
                tokio::time::sleep(Duration::from_millis(100 + 50 * attempt)).await;
            }
        }
    }
    answer
}

/// The service's body as text, the service key replaced wherever the service echoed it, in
/// any encoding ([`crate::redact`]): members never see it.
fn redact(body: &[u8], key: &ApiKey) -> String {
    crate::redact::redact(body, key.expose())
}

struct Settled {
    entry: i64,
    /// Known not sent: may correct a sweep's possibly charged.
    unsent: bool,
    state: EntryState,
    charge: Usd,
    possible: Usd,
    status: Option<i32>,
    now: i64,
    records: Vec<(String, String)>,
    result: Option<(String, String)>,
}

/// The entry's outcome, its records or result, and its reservations freed: one transaction.
/// False when the entry had been swept as possibly charged (`db::recover`) while the call
/// ran: the sweep's outcome stands (it freed the reservations, so another call may have
/// bought the same records since) and only what was bought is stored.
async fn settle(app: &App, s: &Settled) -> Result<bool, String> {
    let e = |e: tokio_postgres::Error| crate::errors::cause(&e);
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    // One statement (its own transaction, one round trip): the entry, the records or the
    // result, the reservations freed.
    let statement = c
        .prepare_cached(
            "WITH settled AS (
               UPDATE entries SET state = $2, charge_micros = $3, possible_micros = $4,
                                  status = $5, settled_at = $6
               WHERE id = $1 AND (state = 'sent' OR ($7 AND state = 'possibly_charged'))
               RETURNING id),
             bought AS (
               INSERT INTO records (key, json, bought_at, entry_id)
               SELECT k, j, $6, $1 FROM unnest($8::text[], $9::text[]) AS r (k, j)
               ON CONFLICT (key) DO UPDATE
               SET json = EXCLUDED.json, bought_at = EXCLUDED.bought_at,
                   entry_id = EXCLUDED.entry_id, xid = pg_current_xact_id()),
             result AS (
               INSERT INTO results (request_key, body, bought_at, entry_id)
               SELECT $10::text, $11::text, $6, $1 WHERE $10::text IS NOT NULL
               ON CONFLICT (request_key) DO UPDATE
               SET body = EXCLUDED.body, bought_at = EXCLUDED.bought_at,
                   entry_id = EXCLUDED.entry_id),
             freed AS (DELETE FROM reservations WHERE entry_id = $1)
             SELECT count(*) FROM settled",
        )
        .await
        .map_err(e)?;
    let (keys, jsons): (Vec<&str>, Vec<&str>) = s
        .records
        .iter()
        .map(|(k, j)| (k.as_str(), j.as_str()))
        .unzip();
    let (result_key, result_body) = match &s.result {
        Some((k, b)) => (Some(k.as_str()), Some(b.as_str())),
        None => (None, None),
    };
    let updated: i64 = c
        .query_one(
            &statement,
            &[
                &s.entry,
                &s.state.as_str(),
                &s.charge.micros(),
                &s.possible.micros(),
                &s.status,
                &s.now,
                &s.unsent,
                &keys,
                &jsons,
                &result_key,
                &result_body,
            ],
        )
        .await
        .map_err(e)?
        .get(0);
    if updated == 1 {
        return Ok(true);
    }
    // Not updated: swept, or settled by an earlier attempt whose commit was not heard.
    Ok(c.query_one(
        "SELECT state = $2 AND settled_at = $3 FROM entries WHERE id = $1",
        &[&s.entry, &s.state.as_str(), &s.now],
    )
    .await
    .map_err(e)?
    .get(0))
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
