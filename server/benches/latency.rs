//! The team server's cost over calling the service directly (`cargo xtask bench` runs it with
//! a throwaway PostgreSQL in `SERPKIT_TEST_PG`): the latency one member adds per call,
//! p50/p95, each call buying new records (plan, write-ahead, send, settle) and each answered
//! from the team's records; then calls per second with 50 members at once on one process;
//! then what one commit costs on this database (a purchase commits twice: its write-ahead and
//! its settle), so what the server adds beyond its commits shows. `cargo xtask bench` runs
//! the cluster with `fsync` on, as in production. Prints a Markdown table.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use common::{post, Team};
use serde_json::json;

const CALLS: usize = 400;

/// The sequential calls per path: [`CALLS`], or `SERPKIT_BENCH_CALLS` (a brief check that the
/// benchmark runs; its figures then mean little).
fn calls() -> usize {
    std::env::var("SERPKIT_BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CALLS)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Milliseconds of each of [`calls`] sequential calls to `base`, keywords `prefix <i>`.
async fn timed(base: &str, key: &str, prefix: &str) -> Vec<f64> {
    let mut ms = Vec::with_capacity(calls());
    for i in 0..calls() {
        let body = json!({"key": key, "keywords": [format!("{prefix} {i}")], "ccode": "US"});
        let t = Instant::now();
        let r = post(base, "/v1/search_volume/bulk", &body).await;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    ms.sort_by(f64::total_cmp);
    ms
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let token = team.member("bench", None).await;
    let upstream = team.upstream.clone();
    // Warm both paths (connections, the pool).
    timed(&upstream, sandbox::DEFAULT_KEY, "warm direct").await;
    let direct = timed(&upstream, sandbox::DEFAULT_KEY, "direct").await;
    let buying = timed(&server, &token, "through").await;
    let reusing = timed(&server, &token, "through").await;
    // The same purchases with commits that do not wait for the disk (`synchronous_commit`
    // off, every session of the cluster, for this measurement only): what the server adds
    // beyond syncing its two commits.
    let admin = team.pool.get().await.unwrap();
    let synchronous = |on: bool| {
        let admin = &admin;
        async move {
            let set = if on {
                "ALTER SYSTEM RESET synchronous_commit"
            } else {
                "ALTER SYSTEM SET synchronous_commit = off"
            };
            admin.batch_execute(set).await.unwrap();
            admin
                .batch_execute("SELECT pg_reload_conf()")
                .await
                .unwrap();
            // Sessions take a reload at their next statement; give the postmaster a moment.
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        }
    };
    synchronous(false).await;
    let unsynced = timed(&server, &token, "unsynced").await;
    synchronous(true).await;
    drop(admin);

    let members = 50;
    let per_member = (calls() / 10).max(1);
    let mut tokens = Vec::new();
    for m in 0..members {
        tokens.push(team.member(&format!("load{m}"), None).await);
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (m, token) in tokens.into_iter().enumerate() {
        let server = server.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..per_member {
                // Half the records are others' (bought once for the team), half its own.
                let kw = if i % 2 == 0 {
                    format!("shared {i}")
                } else {
                    format!("own {m} {i}")
                };
                let body = json!({"key": token, "keywords": [kw], "ccode": "US"});
                let r = post(&server, "/v1/search_volume/bulk", &body).await;
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let per_second = (members * per_member) as f64 / started.elapsed().as_secs_f64();

    // One commit: an autocommitted one-row INSERT, as small as a settle's writes get.
    let c = team.pool.get().await.unwrap();
    let setting = |name: &'static str| {
        let c = &c;
        async move {
            let row = c.query_one(&format!("SHOW {name}"), &[]).await.unwrap();
            row.get::<_, String>(0)
        }
    };
    let (fsync, synchronous_commit) = (setting("fsync").await, setting("synchronous_commit").await);
    c.batch_execute("CREATE TABLE bench_commit (id bigserial PRIMARY KEY, v bigint)")
        .await
        .unwrap();
    let insert = c
        .prepare("INSERT INTO bench_commit (v) VALUES ($1)")
        .await
        .unwrap();
    let mut commit = Vec::with_capacity(calls());
    for i in 0..calls() as i64 {
        let t = Instant::now();
        c.execute(&insert, &[&i]).await.unwrap();
        commit.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    commit.sort_by(f64::total_cmp);

    let row = |name: &str, ms: &[f64]| {
        let (p50, p95) = (percentile(ms, 0.5), percentile(ms, 0.95));
        let (d50, d95) = (percentile(&direct, 0.5), percentile(&direct, 0.95));
        println!(
            "| {name} | {p50:.2} | {p95:.2} | {:.2} | {:.2} |",
            p50 - d50,
            p95 - d95
        );
    };
    println!(
        "| path ({} sequential calls, 1 keyword) | p50 ms | p95 ms | added p50 ms | added p95 ms |",
        calls()
    );
    println!("| --- | --- | --- | --- | --- |");
    row("sandbox directly", &direct);
    row("through the server, buying", &buying);
    row("through the server, from the team's records", &reusing);
    row(
        "through the server, buying, commits not waiting for the disk",
        &unsynced,
    );
    println!();
    println!("{members} members × {per_member} calls at once on one server process: {per_second:.0} calls/s");
    let (c50, c95) = (percentile(&commit, 0.5), percentile(&commit, 0.95));
    println!();
    println!(
        "| database (`fsync` {fsync}, `synchronous_commit` {synchronous_commit}) | p50 ms | p95 ms |"
    );
    println!("| --- | --- | --- |");
    println!("| one commit (a one-row INSERT, autocommitted) | {c50:.2} | {c95:.2} |");
}
