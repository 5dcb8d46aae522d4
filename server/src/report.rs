//! The team's own reads: the period's spend (team and member) and a member's journal. A
//! member reads its own journal only; the team's spend is everyone's business.

use serde_json::{json, Value};
use serpkit::machine::Period;

use crate::auth::Member;
use crate::App;

/// `GET /team/spend`: the period's totals for the team and for the caller, with the caps.
pub async fn spend(app: &App, member: &Member) -> Result<Value, String> {
    let c = app.pool.get().await.map_err(|e| e.to_string())?;
    let team = c
        .query_one(
            "SELECT cap_micros, period, reset_at FROM team WHERE id = 1",
            &[],
        )
        .await
        .map_err(|e| e.to_string())?;
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
        .map_err(|e| e.to_string())?;
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
    let c = app.pool.get().await.map_err(|e| e.to_string())?;
    let rows = c
        .query(
            "SELECT id, operation, state, estimate_micros, charge_micros, possible_micros, at
             FROM entries WHERE member_id = $1 ORDER BY id DESC LIMIT 500",
            &[&member.id],
        )
        .await
        .map_err(|e| e.to_string())?;
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
