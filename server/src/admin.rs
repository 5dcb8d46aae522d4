//! What an operator does to a team (the `serpkit-server` commands, `main.rs`): its members
//! with their caps and spend, tokens rotated, caps set, schedules listed and deleted, and
//! how long scheduled runs are kept. Each returns the text to print (tab-separated rows, a
//! header first, so scripts can `cut` them) or an error that says what to do.

use deadpool_postgres::Pool;
use serpkit::machine::Period;
use serpkit::Usd;

use crate::auth;
use crate::errors::cause;

/// A database error, with its cause.
fn pg(e: impl std::error::Error) -> String {
    format!("database: {}", cause(&e))
}

fn usd(micros: Option<i64>) -> String {
    micros.map_or("none".into(), |m| Usd::from_micros(m).decimal())
}

/// Every member (revoked ones too) with its cap and this period's spend and possibly
/// charged: `name  state  cap  spent  possibly_charged  created_at`.
pub async fn members(pool: &Pool, now: i64) -> Result<String, String> {
    let c = pool.get().await.map_err(pg)?;
    let team = c
        .query_one("SELECT period, reset_at FROM team WHERE id = 1", &[])
        .await
        .map_err(pg)?;
    let since = Period::from_name(team.get(0))
        .unwrap_or_default()
        .start(now, team.get(1));
    let rows = c
        .query(
            "SELECT m.name, m.revoked_at IS NULL, m.cap_micros,
                    coalesce(sum(e.charge_micros), 0)::bigint,
                    coalesce(sum(e.possible_micros), 0)::bigint, m.created_at
             FROM members m LEFT JOIN entries e
               ON e.member_id = m.id AND e.at >= $1 AND e.state <> 'sent'
             GROUP BY m.id ORDER BY m.name",
            &[&since],
        )
        .await
        .map_err(pg)?;
    let mut out = String::from("name\tstate\tcap\tspent\tpossibly_charged\tcreated_at\n");
    for r in rows {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\n",
            r.get::<_, &str>(0),
            if r.get(1) { "active" } else { "revoked" },
            usd(r.get(2)),
            usd(Some(r.get(3))),
            usd(Some(r.get(4))),
            r.get::<_, i64>(5),
        ));
    }
    Ok(out)
}

/// A new token for an active member (the old one stops working at once); printed once.
pub async fn rotate_token(pool: &Pool, name: &str) -> Result<String, String> {
    let mut c = pool.get().await.map_err(pg)?;
    let tx = c.transaction().await.map_err(pg)?;
    let id: i64 = tx
        .query_opt(
            "SELECT id FROM members WHERE name = $1 AND revoked_at IS NULL FOR UPDATE",
            &[&name],
        )
        .await
        .map_err(pg)?
        .ok_or_else(|| format!("no active member {name:?} (`serpkit-server members` lists them)"))?
        .get(0);
    let token = auth::new_token(id)?;
    tx.execute(
        "UPDATE members SET token_hash = $2 WHERE id = $1",
        &[&id, &auth::hash(&token)],
    )
    .await
    .map_err(pg)?;
    tx.commit().await.map_err(pg)?;
    Ok(token)
}

/// Sets an active member's own cap (`None`: only the team's applies).
pub async fn member_cap(pool: &Pool, name: &str, cap: Option<i64>) -> Result<String, String> {
    let c = pool.get().await.map_err(pg)?;
    let n = c
        .execute(
            "UPDATE members SET cap_micros = $2 WHERE name = $1 AND revoked_at IS NULL",
            &[&name, &cap],
        )
        .await
        .map_err(pg)?;
    if n == 0 {
        return Err(format!("no active member {name:?}"));
    }
    Ok(format!("{name}: cap {}", usd(cap)))
}

/// Every schedule: `id  member  operation  every  next_at  runs  stored_bytes`.
pub async fn schedules(pool: &Pool) -> Result<String, String> {
    let c = pool.get().await.map_err(pg)?;
    let rows = c
        .query(
            "SELECT s.id, m.name, s.operation, s.every, s.next_at, count(r.id),
                    coalesce(sum(octet_length(r.body)), 0)::bigint
             FROM schedules s JOIN members m ON m.id = s.member_id
             LEFT JOIN schedule_runs r ON r.schedule_id = s.id
             GROUP BY s.id, m.name ORDER BY s.id",
            &[],
        )
        .await
        .map_err(pg)?;
    let mut out = String::from("id\tmember\toperation\tevery\tnext_at\truns\tstored_bytes\n");
    for r in rows {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            r.get::<_, i64>(0),
            r.get::<_, &str>(1),
            r.get::<_, &str>(2),
            r.get::<_, &str>(3),
            r.get::<_, i64>(4),
            r.get::<_, i64>(5),
            r.get::<_, i64>(6),
        ));
    }
    Ok(out)
}

/// Deletes schedule `id` with its stored runs (of `member_id` only, when given: a member
/// deletes its own). False: no such schedule (of that member).
pub async fn delete_schedule(pool: &Pool, id: i64, member_id: Option<i64>) -> Result<bool, String> {
    let mut c = pool.get().await.map_err(pg)?;
    let tx = c.transaction().await.map_err(pg)?;
    let found = tx
        .query_opt(
            "SELECT 1 FROM schedules WHERE id = $1 AND ($2::bigint IS NULL OR member_id = $2)
             FOR UPDATE",
            &[&id, &member_id],
        )
        .await
        .map_err(pg)?;
    if found.is_none() {
        return Ok(false);
    }
    tx.execute("DELETE FROM schedule_runs WHERE schedule_id = $1", &[&id])
        .await
        .map_err(pg)?;
    tx.execute("DELETE FROM schedules WHERE id = $1", &[&id])
        .await
        .map_err(pg)?;
    tx.commit().await.map_err(pg)?;
    Ok(true)
}

/// How many days scheduled runs are kept (`None`: for ever).
pub async fn retention(pool: &Pool) -> Result<Option<i32>, String> {
    let c = pool.get().await.map_err(pg)?;
    Ok(
        c.query_one("SELECT run_retention_days FROM team WHERE id = 1", &[])
            .await
            .map_err(pg)?
            .get(0),
    )
}

/// Keeps scheduled runs `days` days (`None`: for ever).
pub async fn set_retention(pool: &Pool, days: Option<i32>) -> Result<(), String> {
    if days.is_some_and(|d| d < 1) {
        return Err("--days: at least 1 (or \"\" to keep runs for ever)".into());
    }
    let c = pool.get().await.map_err(pg)?;
    c.execute(
        "UPDATE team SET run_retention_days = $1 WHERE id = 1",
        &[&days],
    )
    .await
    .map_err(pg)?;
    Ok(())
}

/// Deletes the scheduled runs older than the retention as of `now`; returns how many. The
/// serving processes run it every hour.
pub async fn apply_retention(pool: &Pool, now: i64) -> Result<u64, String> {
    let c = pool.get().await.map_err(pg)?;
    c.execute(
        "DELETE FROM schedule_runs WHERE at < $1 - (SELECT run_retention_days FROM team
                                                   WHERE id = 1)::bigint * 86400000",
        &[&now],
    )
    .await
    .map_err(pg)
}
