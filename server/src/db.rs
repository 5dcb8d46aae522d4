//! PostgreSQL: the connection (TLS as `sslmode` says), the pool, the migrations (applied at
//! start) and the liveness of server processes (each holds a session advisory lock on its id
//! for as long as it runs).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use serpkit::machine::EntryState;
use tokio_postgres_rustls::MakeRustlsConnect;

/// The migrations, in order; each runs once per database (`schema_migrations`).
const MIGRATIONS: &[(i32, &str)] = &[
    (1, include_str!("../migrations/0001_team.sql")),
    (2, include_str!("../migrations/0002_schedules.sql")),
    (3, include_str!("../migrations/0003_records_feed.sql")),
    (4, include_str!("../migrations/0004_retention.sql")),
    (5, include_str!("../migrations/0005_money_faults.sql")),
];

/// Any two server processes serialise their migrations on this advisory lock.
const MIGRATION_LOCK: i64 = 0x5e5b_0041;

/// A database error as text (the service key is never in a query, so never in one).
pub type DbError = String;

fn err(e: impl std::fmt::Display) -> DbError {
    format!("database: {e}")
}

/// A database or pool error with its causes (`db error: ERROR: …`, not only `db error`).
fn pg(e: impl std::error::Error) -> DbError {
    err(crate::errors::cause(&e))
}

/// `url` without its parameter `name`, and that parameter's value: in a URL's query
/// (`postgres://…?sslmode=verify-full`) or as a `key=value` word (`host=… sslmode=require`).
fn take_param(url: &str, name: &str) -> (String, Option<String>) {
    let prefix = format!("{name}=");
    if let Some((base, query)) = url.split_once('?').filter(|_| url.contains("://")) {
        let (mut kept, mut value) = (Vec::new(), None);
        for pair in query.split('&') {
            match pair.strip_prefix(&prefix) {
                Some(v) => value = Some(v.to_string()),
                None => kept.push(pair),
            }
        }
        let url = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        return (url, value);
    }
    let (mut kept, mut value) = (Vec::new(), None);
    for word in url.split_whitespace() {
        match word.strip_prefix(&prefix) {
            Some(v) => value = Some(v.trim_matches('\'').to_string()),
            None => kept.push(word),
        }
    }
    (kept.join(" "), value)
}

/// How to reach the database: its configuration and its TLS client.
#[derive(Clone)]
pub struct Database {
    config: tokio_postgres::Config,
    tls: MakeRustlsConnect,
}

impl Database {
    /// Reads `url` (a `postgres://` URL or a key=value string). `sslmode` as libpq means it:
    /// `disable`; `prefer` (the default) and `require` encrypt without checking the
    /// certificate; `verify-ca` checks its chain and `verify-full` its host name too,
    /// against the bundled roots, `sslrootcert` (in the URL) and `ca` (`--database-ca`).
    pub fn new(url: &str, ca: Option<&Path>) -> Result<Database, DbError> {
        let (url, mode) = take_param(url, "sslmode");
        let (mut url, root_file) = take_param(&url, "sslrootcert");
        let (verify, check_name) = match mode.as_deref() {
            Some("verify-full") => (true, true),
            Some("verify-ca") => (true, false),
            _ => (false, false),
        };
        if let Some(m) = &mode {
            let sent = if verify { "require" } else { m.as_str() };
            let sep = if !url.contains("://") {
                " "
            } else if url.contains('?') {
                "&"
            } else {
                "?"
            };
            url = format!("{url}{sep}sslmode={sent}");
        }
        let config: tokio_postgres::Config = url.parse().map_err(pg)?;
        let mut files: Vec<PathBuf> = root_file.map(PathBuf::from).into_iter().collect();
        files.extend(ca.map(Path::to_path_buf));
        let tls = if verify {
            let mut roots = crate::tls::roots(None).map_err(err)?;
            for file in &files {
                let extra = crate::tls::roots(Some(file)).map_err(err)?;
                roots.roots.extend(extra.roots);
            }
            crate::tls::client(Some(roots), check_name).map_err(err)?
        } else {
            crate::tls::client(None, false).map_err(err)?
        };
        Ok(Database {
            config,
            tls: MakeRustlsConnect::new(tls),
        })
    }

    /// A pool of `size` connections.
    pub fn pool(&self, size: usize) -> Result<Pool, DbError> {
        let manager = Manager::from_config(
            self.config.clone(),
            self.tls.clone(),
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        Pool::builder(manager).max_size(size).build().map_err(pg)
    }
}

/// A pool of connections to `url` (a `postgres://` URL or a key=value string; see
/// [`Database::new`]).
pub fn pool(url: &str, size: usize) -> Result<Pool, DbError> {
    Database::new(url, None)?.pool(size)
}

/// Applies the migrations not applied yet, under an advisory lock so that processes
/// starting at once apply each exactly once.
pub async fn migrate(pool: &Pool) -> Result<(), DbError> {
    let mut c = pool.get().await.map_err(pg)?;
    let tx = c.transaction().await.map_err(pg)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(pg)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)")
        .await
        .map_err(pg)?;
    for (version, sql) in MIGRATIONS {
        let done = tx
            .query_opt(
                "SELECT 1 FROM schema_migrations WHERE version = $1",
                &[version],
            )
            .await
            .map_err(pg)?;
        if done.is_none() {
            tx.batch_execute(sql).await.map_err(pg)?;
            tx.execute(
                "INSERT INTO schema_migrations (version) VALUES ($1)",
                &[version],
            )
            .await
            .map_err(pg)?;
        }
    }
    tx.commit().await.map_err(pg)
}

/// Which liveness id this process holds now: 0 while it holds none (between a lost liveness
/// connection and the next one). Ids are random and never 0.
#[derive(Debug, Default)]
pub struct Liveness(AtomicI64);

impl Liveness {
    /// The id held now, if any: the owner a call writes ahead with, and must still be held
    /// when it sends.
    pub fn current(&self) -> Option<i64> {
        Some(self.0.load(Ordering::SeqCst)).filter(|&id| id != 0)
    }

    fn set(&self, id: i64) {
        self.0.store(id, Ordering::SeqCst);
    }
}

/// A fresh liveness id (random, never 0).
pub fn new_id() -> Result<i64, DbError> {
    loop {
        let mut id = [0u8; 8];
        getrandom::fill(&mut id).map_err(|e| format!("no randomness: {e}"))?;
        let id = i64::from_le_bytes(id);
        if id != 0 {
            return Ok(id);
        }
    }
}

/// Holds this process's liveness lock on its own connection (not the pool's) for as long as
/// the process runs. When that connection drops (PostgreSQL restarted, the session ended),
/// another process may sweep the calls sent under the id at once, while they go on here: so
/// the id is never held again. The next connection locks a new id, and a call checks that
/// the id it wrote ahead with is still held before it sends (`buy`); a call swept meanwhile
/// keeps the sweep's possibly charged. `ready` hears whether the first lock was taken.
pub async fn hold_liveness(
    database: Database,
    liveness: std::sync::Arc<Liveness>,
    ready: tokio::sync::oneshot::Sender<Result<(), DbError>>,
) {
    let mut ready = Some(ready);
    loop {
        let connected = match new_id() {
            Ok(id) => database
                .config
                .connect(database.tls.clone())
                .await
                .map(|c| (id, c))
                .map_err(pg),
            Err(e) => Err(e),
        };
        let failed = match connected {
            Ok((id, (client, connection))) => {
                let connection = tokio::spawn(connection);
                match client.execute("SELECT pg_advisory_lock($1)", &[&id]).await {
                    Ok(_) => {
                        liveness.set(id);
                        if let Some(r) = ready.take() {
                            let _ = r.send(Ok(()));
                        }
                        // Until the connection ends; the lock ends with it.
                        let _ = connection.await;
                        liveness.set(0);
                        drop(client);
                        None
                    }
                    Err(e) => Some(err(e)),
                }
            }
            Err(e) => Some(e),
        };
        if let (Some(e), Some(r)) = (failed, ready.take()) {
            let _ = r.send(Err(e));
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Settles the entries left `sent` by server processes that are gone (their liveness lock
/// is free): possibly charged (the request may have reached the service), reservations
/// freed so the records can be bought again, as the machine's sweep decides
/// ([`crate::host::sweep`]). Returns how many entries it settled.
pub async fn recover(pool: &Pool, now: i64) -> Result<u64, DbError> {
    let mut c = pool.get().await.map_err(pg)?;
    let owners = c
        .query(
            "SELECT DISTINCT owner FROM entries WHERE state = 'sent'",
            &[],
        )
        .await
        .map_err(pg)?;
    let mut settled = 0;
    for row in owners {
        let owner: i64 = row.get(0);
        let free: bool = c
            .query_one("SELECT pg_try_advisory_lock($1)", &[&owner])
            .await
            .map_err(pg)?
            .get(0);
        if !free {
            continue;
        }
        let result = settle_dead(&mut c, owner, now).await;
        c.execute("SELECT pg_advisory_unlock($1)", &[&owner])
            .await
            .map_err(pg)?;
        settled += result?;
    }
    Ok(settled)
}

async fn settle_dead(
    c: &mut deadpool_postgres::Client,
    owner: i64,
    now: i64,
) -> Result<u64, DbError> {
    let tx = c.transaction().await.map_err(pg)?;
    // What the gone process left, read here; the machine's sweep decides what it comes to.
    let sent: Vec<(i64, i64)> = tx
        .query(
            "SELECT id, estimate_micros FROM entries WHERE owner = $1 AND state = 'sent'
             FOR UPDATE",
            &[&owner],
        )
        .await
        .map_err(pg)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let reserving: Vec<i64> = tx
        .query(
            "SELECT DISTINCT r.entry_id FROM reservations r JOIN entries e ON e.id = r.entry_id
             WHERE e.owner = $1",
            &[&owner],
        )
        .await
        .map_err(pg)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let (settled, freed) = crate::host::sweep(owner, &sent, &reserving);
    let ids: Vec<i64> = settled.iter().map(|(id, ..)| *id).collect();
    let states: Vec<&str> = settled.iter().map(|(_, s, _)| s.as_str()).collect();
    let possible: Vec<i64> = settled.iter().map(|(.., p)| p.micros()).collect();
    tx.execute(
        "UPDATE entries SET state = s.state, possible_micros = s.possible, settled_at = $4
         FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS s (id, state, possible)
         WHERE entries.id = s.id AND entries.state = 'sent'",
        &[&ids, &states, &possible, &now],
    )
    .await
    .map_err(pg)?;
    tx.execute(
        "DELETE FROM reservations WHERE entry_id = ANY($1)",
        &[&freed],
    )
    .await
    .map_err(pg)?;
    tx.commit().await.map_err(pg)?;
    Ok(settled.len() as u64)
}

/// What a sent call came to, as its settle stores it.
#[derive(Debug)]
pub struct Settled {
    /// Its entry.
    pub entry: i64,
    /// Known not sent: may correct a sweep's possibly charged.
    pub unsent: bool,
    /// Its outcome.
    pub state: EntryState,
    /// What it was charged.
    pub charge: serpkit::Usd,
    /// What it may have been charged.
    pub possible: serpkit::Usd,
    /// The service's status, if it answered.
    pub status: Option<i32>,
    /// When it settled.
    pub now: i64,
    /// Records bought: (key, JSON).
    pub records: Vec<(String, String)>,
    /// A result bought: (request key, body, unreadable: a charged answer that is not JSON).
    pub result: Option<(String, String, bool)>,
}

/// The first pause between settle attempts, doubled after each failure up to
/// [`SETTLE_PAUSE_MAX`].
const SETTLE_PAUSE: Duration = Duration::from_millis(50);
/// The longest pause between settle attempts.
const SETTLE_PAUSE_MAX: Duration = Duration::from_secs(1);

/// Settles `s` until it is stored, however long that takes: the call is paid for, so its
/// body is never dropped. Each failure is logged and counted
/// (`serpkit_settle_failures_total`); the calls waiting meanwhile are a gauge
/// (`serpkit_settles_pending`) and stay in flight, so shutdown waits for them within its
/// grace period (what outlives it is swept possibly charged by the next process). False
/// when the entry had been swept as possibly charged meanwhile ([`settle`]).
pub async fn settle_until_stored(pool: &Pool, s: &Settled) -> bool {
    use crate::metrics::METRICS;
    let mut pause = SETTLE_PAUSE;
    let mut failures = 0u64;
    loop {
        match settle(pool, s).await {
            Ok(done) => {
                if failures > 0 {
                    METRICS.settles_pending.fetch_sub(1, Ordering::Relaxed);
                    tracing::warn!(entry = s.entry, failures, "settled after failures");
                }
                return done;
            }
            Err(e) => {
                if failures == 0 {
                    METRICS.settles_pending.fetch_add(1, Ordering::Relaxed);
                }
                failures += 1;
                METRICS.settle_failures.fetch_add(1, Ordering::Relaxed);
                tracing::error!(
                    entry = s.entry,
                    failures,
                    error = %e,
                    "settling a paid call failed; its answer is kept and the settle retried"
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(SETTLE_PAUSE_MAX);
            }
        }
    }
}

/// The entry's outcome, its records or result, and its reservations freed: one transaction.
/// False when the entry had been swept as possibly charged ([`recover`]) while the call
/// ran: the sweep's outcome stands (it freed the reservations, so another call may have
/// bought the same records since) and only what was bought is stored.
pub async fn settle(pool: &Pool, s: &Settled) -> Result<bool, DbError> {
    let c = pool.get().await.map_err(pg)?;
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
               INSERT INTO results (request_key, body, bought_at, entry_id, unreadable)
               SELECT $10::text, $11::text, $6, $1, $12 WHERE $10::text IS NOT NULL
               ON CONFLICT (request_key) DO UPDATE
               SET body = EXCLUDED.body, bought_at = EXCLUDED.bought_at,
                   entry_id = EXCLUDED.entry_id, unreadable = EXCLUDED.unreadable),
             freed AS (DELETE FROM reservations WHERE entry_id = $1)
             SELECT count(*) FROM settled",
        )
        .await
        .map_err(pg)?;
    let (keys, jsons): (Vec<&str>, Vec<&str>) = s
        .records
        .iter()
        .map(|(k, j)| (k.as_str(), j.as_str()))
        .unzip();
    let (result_key, result_body, unreadable) = match &s.result {
        Some((k, b, u)) => (Some(k.as_str()), Some(b.as_str()), *u),
        None => (None, None, false),
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
                &unreadable,
            ],
        )
        .await
        .map_err(pg)?
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
    .map_err(pg)?
    .get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_and_sslrootcert_are_read_in_both_forms() {
        let (url, mode) = take_param("postgres://u@h/db?sslmode=verify-full&x=1", "sslmode");
        assert_eq!(
            (url.as_str(), mode.as_deref()),
            ("postgres://u@h/db?x=1", Some("verify-full"))
        );
        let (url, mode) = take_param("host=h sslmode=require user=u", "sslmode");
        assert_eq!(
            (url.as_str(), mode.as_deref()),
            ("host=h user=u", Some("require"))
        );
        let (url, mode) = take_param("postgres://u@h/db", "sslmode");
        assert_eq!((url.as_str(), mode), ("postgres://u@h/db", None));
        // tokio-postgres knows only disable/prefer/require: the verifying modes are ours.
        assert!(Database::new("host=h user=u sslmode=verify-full", None).is_ok());
        assert!(Database::new("postgres://u@h/db?sslmode=verify-ca", None).is_ok());
        assert!(
            Database::new("host=h sslmode=verify-full sslrootcert=/nonexistent", None).is_err()
        );
    }
}
