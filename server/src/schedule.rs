//! Scheduled tracking: a member's request (a domain's ranked keywords, a keyword list, …)
//! bought again every day or week within the budgets, each run's answer kept as history.
//!
//! Any server process runs what is due: a schedule is claimed (`FOR UPDATE SKIP LOCKED`, its
//! next time moved on) before it runs, so two processes never run one twice. Decided: runs
//! missed while no server ran are not made up (the next time moves past now); a run takes
//! records and results bought within half its period (a member's purchase this morning
//! answers today's daily run); a run refused by a cap is kept with its status and no body; a
//! revoked member's schedules stop.

use serde_json::{json, Value};
use serpkit::{ApiKey, Operation, Request};

use crate::auth::Member;
use crate::buy::{self, Refusal};
use crate::App;

const DAY: i64 = 86_400_000;

/// How often a schedule runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// Every day.
    Day,
    /// Every week.
    Week,
}

impl Every {
    /// Stable name (`day`, `week`).
    pub fn as_str(self) -> &'static str {
        match self {
            Every::Day => "day",
            Every::Week => "week",
        }
    }

    /// The period named by [`Self::as_str`].
    pub fn from_name(name: &str) -> Option<Every> {
        [Every::Day, Every::Week]
            .into_iter()
            .find(|e| e.as_str() == name)
    }

    /// Its length in milliseconds.
    pub fn ms(self) -> i64 {
        match self {
            Every::Day => DAY,
            Every::Week => 7 * DAY,
        }
    }
}

/// Schedules `request` (checked) for `member`, first run due at `first_at`.
pub async fn add(
    app: &App,
    member: &Member,
    request: &Request,
    every: Every,
    first_at: i64,
) -> Result<i64, String> {
    let mut stored = request.clone();
    stored.set_key(ApiKey::default());
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let row = c
        .query_one(
            "INSERT INTO schedules (member_id, operation, body, every, next_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            &[
                &member.id,
                &request.operation().path(),
                &stored.to_json(),
                &every.as_str(),
                &first_at,
                &app.now(),
            ],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    Ok(row.get(0))
}

/// A due schedule, claimed.
struct Due {
    id: i64,
    member: Member,
    request: Request,
    every: Every,
}

/// Claims the next schedule due at `now`, moving its next time on; `None` when none is.
async fn claim(app: &App, now: i64) -> Result<Option<Due>, String> {
    let e = |e: tokio_postgres::Error| crate::errors::cause(&e);
    let mut c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let tx = c.transaction().await.map_err(e)?;
    let Some(row) = tx
        .query_opt(
            "SELECT s.id, s.operation, s.body, s.every, s.next_at, m.id, m.name, m.cap_micros
             FROM schedules s JOIN members m ON m.id = s.member_id
             WHERE s.next_at <= $1 AND m.revoked_at IS NULL
             ORDER BY s.next_at LIMIT 1 FOR UPDATE OF s SKIP LOCKED",
            &[&now],
        )
        .await
        .map_err(e)?
    else {
        return Ok(None);
    };
    let id: i64 = row.get(0);
    let every = Every::from_name(row.get(3)).ok_or("unknown period")?;
    let mut next: i64 = row.get(4);
    while next <= now {
        next += every.ms();
    }
    tx.execute(
        "UPDATE schedules SET next_at = $2 WHERE id = $1",
        &[&id, &next],
    )
    .await
    .map_err(e)?;
    tx.commit().await.map_err(e)?;
    let operation: Operation = row
        .get::<_, &str>(1)
        .parse()
        .map_err(|e: serpkit::ops::UnknownOperation| e.to_string())?;
    let request =
        Request::from_json(operation, row.get(2)).map_err(|e| crate::errors::cause(&e))?;
    Ok(Some(Due {
        id,
        member: Member {
            id: row.get(5),
            name: row.get(6),
            cap_micros: row.get(7),
        },
        request,
        every,
    }))
}

/// Runs every schedule due at `now`; returns how many ran.
pub async fn run_due(app: &App, now: i64) -> Result<usize, String> {
    let mut ran = 0;
    while !app.in_flight.stopping() {
        let Some(due) = claim(app, now).await? else {
            break;
        };
        // Counted in flight until its run is stored: shutdown waits for it.
        let _in_flight = app.in_flight.enter();
        // A schedule's yes covers buying again what is older than half its period, not what
        // a call whose outcome is unknown may have bought: that run is refused (409).
        let ask = buy::Ask {
            request: &due.request,
            max_age_ms: Some(due.every.ms() / 2),
            confirm_possibly: false,
        };
        let answer = buy::call(app, &due.member, ask).await;
        let (status, cost, body) = match answer {
            Ok(a) => (
                i32::from(a.status),
                a.cost.micros(),
                (a.status == 200).then_some(a.body),
            ),
            Err(Refusal::Cap(..)) => (402, 0, None),
            Err(Refusal::Busy) => (503, 0, None),
            Err(Refusal::PossiblyCharged { .. }) => (409, 0, None),
            Err(Refusal::Database(e)) => return Err(e),
        };
        let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
        c.execute(
            "INSERT INTO schedule_runs (schedule_id, at, status, cost_micros, body)
             VALUES ($1, $2, $3, $4, $5)",
            &[&due.id, &now, &status, &cost, &body],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
        ran += 1;
    }
    Ok(ran)
}

/// `GET /team/schedules`: the caller's schedules with their runs (newest first, no bodies).
pub async fn list(app: &App, member: &Member) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let rows = c
        .query(
            "SELECT s.id, s.operation, s.every, s.next_at,
                    coalesce(json_agg(json_build_object('at', r.at, 'status', r.status,
                        'cost_micros', r.cost_micros) ORDER BY r.at DESC)
                        FILTER (WHERE r.id IS NOT NULL), '[]')::text
             FROM schedules s LEFT JOIN schedule_runs r ON r.schedule_id = s.id
             WHERE s.member_id = $1 GROUP BY s.id ORDER BY s.id",
            &[&member.id],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let schedules: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.get::<_, i64>(0),
                "operation": r.get::<_, &str>(1),
                "every": r.get::<_, &str>(2),
                "next_at": r.get::<_, i64>(3),
                "runs": serde_json::from_str::<Value>(r.get(4)).unwrap_or_default(),
            })
        })
        .collect();
    Ok(json!({ "schedules": schedules }))
}

/// Most runs `GET /team/history` answers with at once (each may be a large body).
pub const HISTORY_MAX: i64 = 10;

/// `GET /team/history?domain=<d>&limit=<n>`: the team's scheduled purchases of a domain's
/// ranked keywords that were answered, newest first, at most `limit` (1..=[`HISTORY_MAX`]),
/// each with its time, the member whose schedule it was and the answer's text. Decided: the
/// history is the team's (any member's schedule of the domain), as its records are; a
/// member's schedules themselves stay its own (`GET /team/schedules`). The domain is matched
/// by the core's request key, so `www.` and case do not matter.
pub async fn history(app: &App, domain: &str, limit: i64) -> Result<Value, String> {
    let wanted = Request::RankedKeywordsDomain(serpkit::ops::ranked_keywords_domain::Request {
        key: ApiKey::default(),
        domain: domain.to_string(),
    });
    let key = serpkit::records::request_key(&wanted, &app.source);
    let op = Operation::RankedKeywordsDomain;
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    // A team has few schedules: each one's request is keyed as a call would be.
    let ids: Vec<i64> = c
        .query(
            "SELECT id, body FROM schedules WHERE operation = $1",
            &[&op.path()],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?
        .iter()
        .filter(|r| {
            Request::from_json(op, r.get(1))
                .is_ok_and(|q| serpkit::records::request_key(&q, &app.source) == key)
        })
        .map(|r| r.get(0))
        .collect();
    let rows = c
        .query(
            "SELECT r.id, r.at, m.name, r.body FROM schedule_runs r
             JOIN schedules s ON s.id = r.schedule_id JOIN members m ON m.id = s.member_id
             WHERE r.schedule_id = ANY($1) AND r.status = 200 AND r.body IS NOT NULL
             ORDER BY r.at DESC, r.id DESC LIMIT $2",
            &[&ids, &limit.clamp(1, HISTORY_MAX)],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let runs: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.get::<_, i64>(0),
                "at": r.get::<_, i64>(1),
                "member": r.get::<_, &str>(2),
                "body": r.get::<_, &str>(3),
            })
        })
        .collect();
    Ok(json!({ "operation": op.path(), "runs": runs }))
}
