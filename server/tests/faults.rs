//! Bad input and faults: each refused call is a clear error in the service's error shape with
//! nothing stored and nothing charged; a call cut off by SIGKILL or a lost answer is
//! possibly charged, never lost and never repeated by the server.

mod common;

use std::time::Duration;

use common::{micros, post, request, Team};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_clear_error_with_nothing_charged_or_stored() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let token = team.member("ana", None).await;
    let other = team.member("ben", None).await;
    let body = |key: &str| json!({"key": key, "keywords": ["running shoes"], "ccode": "US"});
    let op = "/v1/search_volume/bulk";
    let json_type = ("content-type", "application/json");

    let health = request(&server, "GET", "/health", &[], "").await;
    assert_eq!(health.status, 200, "{}", health.body);
    let missing = post(&server, op, &json!({"keywords": ["x"], "ccode": "US"})).await;
    assert_eq!(
        (missing.status, missing.code().as_str()),
        (401, "unauthorized")
    );
    // The sandbox's own key is not a member token: the service key is the server's alone.
    let service_key = post(&server, op, &body(sandbox::DEFAULT_KEY)).await;
    assert_eq!(service_key.status, 401);
    let mut wrong = token.clone();
    wrong.replace_range(wrong.len() - 4.., "0000");
    assert_eq!(post(&server, op, &body(&wrong)).await.status, 401);
    let revoked = team.member("gone", None).await;
    assert!(serpkit_server::auth::revoke(&team.pool, "gone", 1)
        .await
        .unwrap());
    let r = post(&server, op, &body(&revoked)).await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (401, "unauthorized"),
        "{}",
        r.body
    );

    let big = "x".repeat(300 * 1024);
    let r = request(&server, "POST", op, &[json_type], &big).await;
    assert_eq!((r.status, r.code().as_str()), (413, "payload_too_large"));
    let r = request(
        &server,
        "POST",
        op,
        &[("content-type", "text/plain")],
        &body(&token).to_string(),
    )
    .await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (415, "unsupported_media_type")
    );
    let r = request(
        &server,
        "POST",
        op,
        &[json_type, ("origin", "https://evil.example")],
        &body(&token).to_string(),
    )
    .await;
    assert_eq!((r.status, r.code().as_str()), (403, "forbidden_origin"));
    assert_eq!(r.header("access-control-allow-origin"), None);
    let r = post(
        &server,
        op,
        &json!({"key": token, "keywords": [], "ccode": "US"}),
    )
    .await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (400, "empty_list"),
        "{}",
        r.body
    );
    let r = post(&server, "/v1/nothing", &body(&token)).await;
    assert_eq!(r.status, 404);
    let r = request(
        &server,
        "GET",
        "/team/journal",
        &[("authorization", "Bearer nope")],
        "",
    )
    .await;
    assert_eq!(r.status, 401);
    assert!(team.ledger().entries.is_empty(), "{:?}", team.ledger());
    assert_eq!(team.number("SELECT count(*) FROM entries").await, 0);
    assert_eq!(team.number("SELECT count(*) FROM records").await, 0);

    // The configured app origin is allowed, and reads what a call cost.
    let r = request(
        &server,
        "POST",
        op,
        &[json_type, ("origin", "https://app.example")],
        &body(&token).to_string(),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://app.example")
    );
    assert!(r
        .header("access-control-expose-headers")
        .unwrap()
        .contains("x-serpkit-cost"));
    assert_eq!(r.cost(), micros("0.0003"));

    // A keyword that looks like SQL is a keyword: bought, stored and answered as text.
    let sql = "'); DROP TABLE records; --";
    let r = post(
        &server,
        op,
        &json!({"key": token, "keywords": [sql], "ccode": "US"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(team.number("SELECT count(*) FROM records").await, 2);

    // A member reads its own journal, never another's.
    let auth = format!("Bearer {other}");
    let r = request(
        &server,
        "GET",
        "/team/journal",
        &[("authorization", &auth)],
        "",
    )
    .await;
    assert_eq!(r.status, 200);
    let journal: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(journal["entries"].as_array().unwrap().len(), 0);
    let auth = format!("Bearer {token}");
    let r = request(
        &server,
        "GET",
        "/team/spend",
        &[("authorization", &auth)],
        "",
    )
    .await;
    let spend: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(spend["team"]["spent"], "0.0006");
    assert_eq!(spend["member"]["spent"], "0.0006");
    assert!(!r.body.contains(sandbox::DEFAULT_KEY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_mid_call_leaves_its_entry_possibly_charged() {
    let mut team = Team::new().await;
    // This process's service key asks the sandbox to answer after 5 s (charged on arrival).
    let (slow, slow_url) = team.start(&format!("{}+delay=5000", sandbox::DEFAULT_KEY));
    let other = team.start_default();
    let token = team.member("ana", None).await;
    let call = json!({"key": token, "domains": ["killed.example"]});
    let url = slow_url.clone();
    let body = call.clone();
    let pending = tokio::spawn(async move { post(&url, "/v1/domainstats", &body).await });
    // Wait until the call is written ahead and sent.
    for _ in 0..100 {
        if team.ledger().entries.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(team.ledger().entries.len(), 1);
    team.kill(slow);
    let _ = pending.await;
    // The surviving process notices the dead one and settles its call.
    assert_eq!(settled_state(&team).await, "possibly_charged");
    let possible = team.number("SELECT possible_micros FROM entries").await;
    assert_eq!(possible, team.ledger().total.micros());
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);
    // Nothing is repeated by itself, nor by the member's next call without a yes; with one
    // the record (never received) is bought.
    assert_eq!(team.ledger().entries.len(), 1);
    let again = post(&other, "/v1/domainstats", &call).await;
    assert_eq!(
        (again.status, again.code().as_str()),
        (409, "possibly_charged"),
        "{}",
        again.body
    );
    assert_eq!(team.ledger().entries.len(), 1);
    let yes = [
        ("content-type", "application/json"),
        ("x-serpkit-confirm-possibly", "1"),
    ];
    let again = request(&other, "POST", "/v1/domainstats", &yes, &call.to_string()).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(team.ledger().charged().count(), 1 + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_resetting_after_charging_is_possibly_charged() {
    let mut team = Team::new().await;
    let (_, server) = team.start(&format!("{}+reset", sandbox::DEFAULT_KEY));
    let token = team.member("ana", None).await;
    let r = post(
        &server,
        "/v1/related",
        &json!({"key": token, "keyword": "tents", "ccode": "US"}),
    )
    .await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (502, "upstream_lost"),
        "{}",
        r.body
    );
    assert_eq!(r.header("x-serpkit-possibly-charged"), Some("0.1500"));
    assert_eq!(r.cost(), 0);
    let c = team.pool.get().await.unwrap();
    let row = c
        .query_one("SELECT state, possible_micros FROM entries", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, &str>(0), "possibly_charged");
    assert_eq!(row.get::<_, i64>(1), team.ledger().total.micros());
    assert_eq!(team.number("SELECT count(*) FROM results").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_mid_job_stops_at_the_next_call() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let token = team.member("ana", None).await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        if i == 3 {
            assert!(serpkit_server::auth::revoke(&team.pool, "ana", 1)
                .await
                .unwrap());
        }
        let body = json!({"key": token, "domains": [format!("d{i}.example")]});
        statuses.push(post(&server, "/v1/domainstats", &body).await.status);
    }
    assert_eq!(statuses, [200, 200, 200, 401, 401, 401]);
    assert_eq!(team.ledger().charged().count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_connections_cut_mid_job_lose_nothing_and_repeat_nothing() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let token = team.member("ana", None).await;
    let job = tokio::spawn(async move {
        let mut retried = 0;
        for i in 0..40 {
            let body =
                json!({"key": token, "keywords": [format!("kw {i}"), "shared"], "ccode": "US"});
            let mut r = post(&server, "/v1/search_volume/bulk", &body).await;
            // A 503 is retried, as the service's clients retry it.
            while r.status == 503 {
                retried += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
                r = post(&server, "/v1/search_volume/bulk", &body).await;
            }
            assert_eq!(r.status, 200, "{}", r.body);
        }
        retried
    });
    // Every connection to the database ends, as when PostgreSQL restarts, three times.
    let database = team.database.rsplit("dbname=").next().unwrap().to_string();
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let c = team.pool.get().await.unwrap();
        c.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = $1 AND pid <> pg_backend_pid()",
            &[&database],
        )
        .await
        .unwrap();
    }
    let retried = job.await.unwrap();
    eprintln!("calls retried after a 503: {retried}");
    let ledger = team.ledger();
    // 40 keywords and "shared" once.
    let units: u64 = ledger.charged().map(|e| e.units).sum();
    assert_eq!(units, 41);
    let journal = team
        .number("SELECT (sum(charge_micros) + sum(possible_micros))::bigint FROM entries")
        .await;
    assert_eq!(journal, ledger.total.micros());
    assert_eq!(
        team.number("SELECT count(*) FROM entries WHERE state = 'sent'")
            .await,
        0
    );
    assert_eq!(team.number("SELECT count(*) FROM records").await, 41);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_that_loses_its_liveness_connection_keeps_the_sweeps_verdict() {
    use serpkit::{Operation, Request};
    use serpkit_server::{auth, buy, now_ms};
    use std::sync::Arc;

    let team = Team::new().await;
    // The first process's answers take 3 s (charged on arrival); the second's come at once.
    let slow = team
        .app(
            &format!("{}+delay=3000", sandbox::DEFAULT_KEY),
            Arc::new(now_ms),
        )
        .await;
    let fast = team.app(sandbox::DEFAULT_KEY, Arc::new(now_ms)).await;
    let token = team.member("ana", None).await;
    let member = auth::member(&slow.pool, &token).await.unwrap();
    let request = Request::from_json(
        Operation::DomainStats,
        r#"{"key":"","domains":["cut.example"]}"#,
    )
    .unwrap();
    let old = slow.liveness.current().unwrap();
    let (app, m, r) = (slow.clone(), member.clone(), request.clone());
    let pending = tokio::spawn(async move { buy::call(&app, &m, ask(&r, false)).await.unwrap() });
    for _ in 0..100 {
        if !team.ledger().entries.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(team.ledger().entries.len(), 1, "the call is at the service");

    // Its liveness connection drops while the call goes on: the session holding the lock on
    // its id ends (a bigint advisory key is classid, high 32 bits, and objid, low 32 bits).
    let c = team.pool.get().await.unwrap();
    let ended = c
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'
             AND granted AND ((classid::bigint << 32) | objid::bigint) = $1",
            &[&old],
        )
        .await
        .unwrap();
    assert_eq!(ended.len(), 1);
    // A live process (any of the two) sweeps the call: possibly charged, its reservation
    // freed; the record is bought again by the other process.
    let state = settled_state(&team).await;
    assert_eq!(state, "possibly_charged");
    // (the member says yes: it was possibly charged)
    let again = buy::call(&fast, &member, ask(&request, true))
        .await
        .unwrap();
    assert_eq!((again.status, again.cost.micros()), (200, micros("0.05")));

    // The first call's answer comes back: the sweep's verdict stands (never two charged
    // purchases of one record), what it bought is kept, its member told "possibly".
    let first = pending.await.unwrap();
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(
        (first.cost.micros(), first.possibly_charged.micros()),
        (0, micros("0.05"))
    );
    let states = c
        .query("SELECT state FROM entries ORDER BY id", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect::<Vec<_>>();
    assert_eq!(states, ["possibly_charged", "charged"]);
    let journal = team
        .number("SELECT (sum(charge_micros) + sum(possible_micros))::bigint FROM entries")
        .await;
    assert_eq!(journal, team.ledger().total.micros());
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);

    // The process took a new id with its new connection, and calls again under it.
    let mut new = None;
    for _ in 0..100 {
        new = slow.liveness.current().filter(|id| *id != old);
        if new.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(new.is_some(), "a new liveness id");
    let other = Request::from_json(
        Operation::DomainStats,
        r#"{"key":"","domains":["after.example"]}"#,
    )
    .unwrap();
    let later = buy::call(&slow, &member, ask(&other, false)).await.unwrap();
    assert_eq!(later.status, 200);
    let owner: i64 = c
        .query_one("SELECT owner FROM entries ORDER BY id DESC LIMIT 1", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(Some(owner), new);
}

/// A member's call with no age limit.
fn ask(request: &serpkit::Request, confirm_possibly: bool) -> serpkit_server::buy::Ask<'_> {
    serpkit_server::buy::Ask {
        request,
        max_age_ms: None,
        confirm_possibly,
    }
}

/// The state of the one journal entry once it is no longer `sent` (a live process sweeps a
/// dead one's call within a second), or `sent` after 5 s.
async fn settled_state(team: &Team) -> String {
    let mut state = String::new();
    for _ in 0..100 {
        let c = team.pool.get().await.unwrap();
        state = c
            .query_one("SELECT state FROM entries", &[])
            .await
            .unwrap()
            .get(0);
        if state != "sent" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    state
}
