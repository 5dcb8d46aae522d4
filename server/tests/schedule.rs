//! Scheduled tracking with an injected clock: a daily schedule runs when due and not before,
//! buys again what is older than half its period, keeps every run as history, and stops at
//! the team's cap.

mod common;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use common::{micros, Team};
use serpkit::{Operation, Request};
use serpkit_server::auth;
use serpkit_server::schedule::{self, Every};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_schedule_runs_on_time_within_the_budget_and_keeps_its_history() {
    let team = Team::new().await;
    let t0 = 1_795_000_000_000;
    let now = Arc::new(AtomicI64::new(t0));
    let clock = now.clone();
    let app = team
        .app(
            sandbox::DEFAULT_KEY,
            Arc::new(move || clock.load(Ordering::SeqCst)),
        )
        .await;
    let token = team.member("ana", None).await;
    let member = auth::member(&app.pool, &token).await.unwrap();
    let request = Request::from_json(
        Operation::RankedKeywordsDomain,
        r#"{"key":"","domain":"example.com"}"#,
    )
    .unwrap();
    let id = schedule::add(&app, &member, &request, Every::Day, t0)
        .await
        .unwrap();

    let at = |t: i64| {
        now.store(t, Ordering::SeqCst);
        t
    };
    assert_eq!(schedule::run_due(&app, at(t0)).await.unwrap(), 1);
    assert_eq!(schedule::run_due(&app, at(t0 + HOUR)).await.unwrap(), 0);
    assert_eq!(schedule::run_due(&app, at(t0 + DAY - 1)).await.unwrap(), 0);
    assert_eq!(schedule::run_due(&app, at(t0 + DAY)).await.unwrap(), 1);
    // Bought again on the second day: the first day's result was older than half a day.
    assert_eq!(team.ledger().charged().count(), 2);
    // A member's call the same day reuses the run's purchase.
    let ask = serpkit_server::buy::Ask {
        request: &request,
        max_age_ms: None,
        confirm_possibly: false,
    };
    let again = serpkit_server::buy::call(&app, &member, ask).await.unwrap();
    assert_eq!((again.status, again.cost.micros()), (200, 0));

    // The team's cap stops the third day's run; it is kept, refused.
    team.pool
        .get()
        .await
        .unwrap()
        .execute("UPDATE team SET cap_micros = $1", &[&micros("0.25")])
        .await
        .unwrap();
    // Runs missed for two days are not made up: one run, then the next is a day later.
    assert_eq!(schedule::run_due(&app, at(t0 + 4 * DAY)).await.unwrap(), 1);
    assert_eq!(team.ledger().charged().count(), 2);
    assert_eq!(
        team.number(&format!("SELECT next_at FROM schedules WHERE id = {id}"))
            .await,
        t0 + 5 * DAY
    );

    // The history: every run, its time and status, and the answers of the bought ones.
    let c = team.pool.get().await.unwrap();
    let runs = c
        .query(
            "SELECT at, status, cost_micros, body FROM schedule_runs WHERE schedule_id = $1 ORDER BY at",
            &[&id],
        )
        .await
        .unwrap();
    let statuses: Vec<(i64, i32, i64)> = runs
        .iter()
        .map(|r| (r.get::<_, i64>(0) - t0, r.get(1), r.get(2)))
        .collect();
    assert_eq!(
        statuses,
        [
            (0, 200, micros("0.10")),
            (DAY, 200, micros("0.10")),
            (4 * DAY, 402, 0)
        ]
    );
    for r in &runs[..2] {
        let body: &str = r.get(3);
        let rows: serpkit::ops::ranked_keywords_domain::Response = serpkit::decode(body).unwrap();
        assert!(!rows.is_empty());
    }
    assert!(runs[2].get::<_, Option<&str>>(3).is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_schedules_over_http_and_reads_only_its_own_schedules() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let ana = format!("Bearer {}", team.member("ana", None).await);
    let ben = format!("Bearer {}", team.member("ben", None).await);
    let json_type = ("content-type", "application/json");
    let body = serde_json::json!({
        "operation": "search_volume/bulk",
        "request": {"keywords": ["tents", "poles"], "ccode": "US"},
        "every": "week",
    });
    let r = common::request(
        &server,
        "POST",
        "/team/schedules",
        &[json_type, ("authorization", &ana)],
        &body.to_string(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut bad = body.clone();
    bad["every"] = "hourly".into();
    let r = common::request(
        &server,
        "POST",
        "/team/schedules",
        &[json_type, ("authorization", &ana)],
        &bad.to_string(),
    )
    .await;
    assert_eq!((r.status, r.code().as_str()), (400, "malformed"));
    let r = common::request(
        &server,
        "POST",
        "/team/schedules",
        &[json_type],
        &body.to_string(),
    )
    .await;
    assert_eq!(r.status, 401);
    let list = |auth: String| {
        let server = server.clone();
        async move {
            let r = common::request(
                &server,
                "GET",
                "/team/schedules",
                &[("authorization", &auth)],
                "",
            )
            .await;
            let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            v["schedules"].as_array().unwrap().len()
        }
    };
    assert_eq!(list(ana).await, 1);
    assert_eq!(list(ben).await, 0);
    assert_eq!(team.number("SELECT count(*) FROM schedules").await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn position_changes_read_a_domains_scheduled_history_over_http() {
    // The service's data moves on between the runs: each repeated ranked-keywords request
    // is answered as of a day later.
    let mut config = sandbox::Config::new(sandbox::Date::new(2026, 11, 1).unwrap());
    config.day_per_repeat = true;
    let team = Team::with_sandbox(config).await;
    let t0 = 1_795_000_000_000;
    let now = Arc::new(AtomicI64::new(t0));
    let clock = now.clone();
    let app = team
        .app(
            sandbox::DEFAULT_KEY,
            Arc::new(move || clock.load(Ordering::SeqCst)),
        )
        .await;
    let listener = serpkit_server::bind(([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(serpkit_server::serve(listener, app.clone()));
    let ana = team.member("ana", None).await;
    let ben = format!("Bearer {}", team.member("ben", None).await);
    let member = auth::member(&app.pool, &ana).await.unwrap();
    let ranked = |domain: &str| {
        Request::from_json(
            Operation::RankedKeywordsDomain,
            &format!(r#"{{"key":"","domain":"{domain}"}}"#),
        )
        .unwrap()
    };
    schedule::add(&app, &member, &ranked("example.com"), Every::Day, t0)
        .await
        .unwrap();
    schedule::add(&app, &member, &ranked("example.org"), Every::Day, t0)
        .await
        .unwrap();
    for t in [t0, t0 + DAY] {
        now.store(t, Ordering::SeqCst);
        assert_eq!(schedule::run_due(&app, t).await.unwrap(), 2);
    }
    assert_eq!(team.ledger().charged().count(), 4);

    // Another member reads the team's history of the domain (any spelling of it).
    let get = |path: &str, auth: &str| {
        let (base, path, auth) = (base.clone(), path.to_string(), auth.to_string());
        async move { common::request(&base, "GET", &path, &[("authorization", &auth)], "").await }
    };
    let r = get("/team/history?domain=WWW.Example.com", &ben).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    let runs = v["runs"].as_array().unwrap();
    let at: Vec<i64> = runs.iter().map(|r| r["at"].as_i64().unwrap()).collect();
    assert_eq!(at, [t0 + DAY, t0], "both runs, newest first");
    assert!(runs.iter().all(|r| r["member"] == "ana"));
    let rows = |i: usize| -> serpkit::ops::ranked_keywords_domain::Response {
        serpkit::decode(runs[i]["body"].as_str().unwrap()).unwrap()
    };
    let (after, before) = (rows(0), rows(1));
    assert!(!after.is_empty() && !before.is_empty());
    assert_ne!(
        runs[0]["body"], runs[1]["body"],
        "the ranks moved between the two days"
    );
    // Bounded: one run when asked for one; the other domain's runs are its own.
    let r = get("/team/history?domain=example.com&limit=1", &ben).await;
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
    let r = get("/team/history?domain=example.net", &ben).await;
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 0);
    // Reading the history buys nothing; no token, no history; a URL is no domain.
    assert_eq!(team.ledger().charged().count(), 4);
    assert_eq!(
        get("/team/history?domain=example.com", "").await.status,
        401
    );
    let r = get("/team/history?domain=https%3A%2F%2Fexample.com%2F", &ben).await;
    assert_eq!(r.status, 400, "{}", r.body);
}
