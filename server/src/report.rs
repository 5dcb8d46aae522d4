//! The team's own reads: the period's spend (team and member) and a member's journal. A
//! member reads its own journal only; the team's spend is everyone's business.

use serde_json::{json, Value};
use serpkit::machine::Period;
use serpkit::records::RecordKey;

use crate::auth::Member;
use crate::App;

/// `GET /team/spend`: the period's totals for the team and for the caller, with the caps.
pub async fn spend(app: &App, member: &Member) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let team = c
        .query_one(
            "SELECT cap_micros, period, reset_at FROM team WHERE id = 1",
            &[],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let period = Period::from_name(team.get(1)).unwrap_or_default();
    let since = period.start(app.now(), team.get(2));
    let row = c
        .query_one(
            "SELECT
               coalesce(sum(charge_micros) FILTER (WHERE state <> 'sent'), 0)::bigint,
               coalesce(sum(possible_micros) FILTER (WHERE state <> 'sent'), 0)::bigint,
               coalesce(sum(charge_micros) FILTER (WHERE state <> 'sent' AND member_id = $2), 0)::bigint,
               coalesce(sum(possible_micros) FILTER (WHERE state <> 'sent' AND member_id = $2), 0)::bigint
             FROM entries WHERE at >= $1",
            &[&since, &member.id],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let usd = |m: i64| serpkit::Usd::from_micros(m).decimal();
    let cap = |m: Option<i64>| m.map(usd);
    Ok(json!({
        "period": period.as_str(),
        "since": since,
        "team": { "spent": usd(row.get(0)), "possibly_charged": usd(row.get(1)), "cap": cap(team.get(0)) },
        "member": {
            "name": member.name,
            "spent": usd(row.get(2)),
            "possibly_charged": usd(row.get(3)),
            "cap": cap(member.cap_micros),
        },
    }))
}

/// `GET /team/journal`: the caller's last 500 entries, newest first.
pub async fn journal(app: &App, member: &Member) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let rows = c
        .query(
            "SELECT id, operation, state, estimate_micros, charge_micros, possible_micros, at
             FROM entries WHERE member_id = $1 ORDER BY id DESC LIMIT 500",
            &[&member.id],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let usd = |m: i64| serpkit::Usd::from_micros(m).decimal();
    let entries: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.get::<_, i64>(0),
                "operation": r.get::<_, &str>(1),
                "state": r.get::<_, &str>(2),
                "estimate": usd(r.get(3)),
                "charge": usd(r.get(4)),
                "possibly_charged": usd(r.get(5)),
                "at": r.get::<_, i64>(6),
            })
        })
        .collect();
    Ok(json!({ "member": member.name, "entries": entries }))
}

/// `GET /team/purchases`: who bought what, the team's last 200 entries that charged or may
/// have charged, newest first: the member's name, the operation, what it cost and what it
/// bought (the records' items, or the request's inputs for an operation priced per
/// request). The team's records are everyone's: what a member bought is no secret to the
/// team, while its own journal (states, estimates) stays its own.
pub async fn purchases(app: &App) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let rows = c
        .query(
            "SELECT e.id, m.name, e.operation, e.state, e.charge_micros, e.possible_micros, e.at,
                    e.request_key,
                    coalesce(array(SELECT r.key FROM records r WHERE r.entry_id = e.id
                                   ORDER BY r.key LIMIT 50), '{}')
             FROM entries e JOIN members m ON m.id = e.member_id
             WHERE e.state IN ('charged', 'possibly_charged')
             ORDER BY e.id DESC LIMIT 200",
            &[],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let usd = |m: i64| serpkit::Usd::from_micros(m).decimal();
    let source = app.source.as_str();
    let entries: Vec<Value> = rows
        .iter()
        .map(|r| {
            let keys: Vec<String> = r.get(8);
            let mut items: Vec<String> = keys
                .into_iter()
                .filter_map(|k| {
                    let key = RecordKey::from_stored(k);
                    key.split(source).map(|(_, rest)| rest.to_string())
                })
                .collect();
            if items.is_empty() {
                // `source|operation|inputs`: the inputs, one per line.
                let request: &str = r.get(7);
                let inputs = request.splitn(3, '|').nth(2).unwrap_or("");
                items = inputs.lines().take(50).map(str::to_string).collect();
            }
            json!({
                "id": r.get::<_, i64>(0),
                "member": r.get::<_, &str>(1),
                "operation": r.get::<_, &str>(2),
                "state": r.get::<_, &str>(3),
                "charge": usd(r.get(4)),
                "possibly_charged": usd(r.get(5)),
                "at": r.get::<_, i64>(6),
                "items": items,
            })
        })
        .collect();
    Ok(json!({ "entries": entries }))
}

/// At most this many transactions' records per `GET /team/records` page.
pub const RECORDS_PAGE: i64 = 20;

/// `GET /team/records?after=<n>`: the team's records written by transactions after `n` (0:
/// from the first), a page of [`RECORDS_PAGE`] transactions at a time, each record as its
/// kind, its key without the server's source (a client keys it again from its own:
/// [`RecordKey::from_parts`]), its JSON and when it was bought; `next` is the `after` of the
/// next page (equal to `after` when there is nothing new). A record bought again comes
/// again, newer. Only transactions older than every one still running are handed out, so a
/// reader that follows `next` misses none.
pub async fn records(app: &App, after: i64) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| crate::errors::cause(&e))?;
    let rows = c
        .query(
            "WITH page AS (
               SELECT DISTINCT xid FROM records
               WHERE xid > $1::bigint::text::xid8
                 AND xid < pg_snapshot_xmin(pg_current_snapshot())
               ORDER BY xid LIMIT $2)
             SELECT xid::text::bigint, key, json, bought_at FROM records
             WHERE xid IN (SELECT xid FROM page) ORDER BY xid, key",
            &[&after, &RECORDS_PAGE],
        )
        .await
        .map_err(|e| crate::errors::cause(&e))?;
    let mut next = after;
    let records: Vec<Value> = rows
        .iter()
        .filter_map(|r| {
            next = next.max(r.get::<_, i64>(0));
            let key = RecordKey::from_stored(r.get::<_, String>(1));
            let (kind, rest) = key.split(&app.source)?;
            Some(json!({
                "kind": kind.name(),
                "key": rest,
                "json": r.get::<_, &str>(2),
                "at": r.get::<_, i64>(3),
            }))
        })
        .collect();
    Ok(json!({ "records": records, "next": next }))
}
