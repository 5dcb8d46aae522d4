//! Money faults of the team server, against server processes of the real binary, a real
//! PostgreSQL and the sandbox server's ledger (what the service charged): a member hanging up
//! mid-purchase, a purchase whose outcome is unknown, a charged answer that is not JSON, a 5xx
//! or 429 after the service may have charged, a settle that keeps failing. Each is bought
//! once, kept, and never bought again silently.

mod common;

use std::time::{Duration, Instant};

use common::{micros, post, request, Reply, Team, METRICS_TOKEN};
use serde_json::json;
use tokio::io::AsyncWriteExt;

const JSON: (&str, &str) = ("content-type", "application/json");
const YES: (&str, &str) = ("x-serpkit-confirm-possibly", "1");

/// A server whose service key asks the sandbox for `fault` on every call.
fn faulty(team: &mut Team, fault: &str) -> String {
    team.start(&format!("{}+{fault}", sandbox::DEFAULT_KEY)).1
}

/// POSTs with the member's yes to buying again what was possibly charged.
async fn post_yes(base: &str, path: &str, body: &serde_json::Value) -> Reply {
    request(base, "POST", path, &[JSON, YES], &body.to_string()).await
}

/// Polls `ready` every 20 ms for up to `within`.
async fn wait_until(within: Duration, mut ready: impl AsyncFnMut() -> bool) -> bool {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if ready().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// One metric's value from a server's `/metrics`.
async fn metric(base: &str, name: &str) -> f64 {
    let auth = format!("Bearer {METRICS_TOKEN}");
    let r = request(base, "GET", "/metrics", &[("authorization", &auth)], "").await;
    r.body
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(-1.0)
}

/// The journal's entries as (state, charge, possible), oldest first.
async fn entries(team: &Team) -> Vec<(String, i64, i64)> {
    let c = team.pool.get().await.unwrap();
    c.query(
        "SELECT state, charge_micros, possible_micros FROM entries ORDER BY id",
        &[],
    )
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2)))
    .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_hanging_up_mid_purchase_abandons_nothing() {
    let mut team = Team::new().await;
    // The service answers after 1.5 s (charged on arrival).
    let server = faulty(&mut team, "delay=1500");
    let ana = team.member("ana", None).await;
    let ben = team.member("ben", None).await;
    let call = |key: &str| json!({"key": key, "domains": ["hangup.example"]});

    // Ana's client sends the call and hangs up once it is at the service.
    hang_up(&team, &server, &call(&ana)).await;

    // Ben asks the same record meanwhile: answered from the store once Ana's purchase is
    // settled, free, well before a reservation's wait (30 s) would give up.
    let started = Instant::now();
    let r = post(&server, "/v1/domainstats", &call(&ben)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!((r.cost(), r.header("x-serpkit-reused")), (0, Some("1")));
    assert!(r.body.contains("hangup.example"), "{}", r.body);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    // Ana's purchase: answered by the service, charged once, settled, its record stored and
    // its reservation freed.
    let ledger = team.ledger();
    assert_eq!(ledger.charged().count(), 1, "{ledger:?}");
    assert_eq!(
        entries(&team).await,
        [("charged".to_string(), micros("0.05"), 0)]
    );
    assert_eq!(team.number("SELECT count(*) FROM records").await, 1);
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);
    let idle = async || metric(&server, "serpkit_calls_in_flight").await == 0.0;
    assert!(wait_until(Duration::from_secs(2), idle).await);
}

/// Sends a domain stats call to `server` and hangs up once it is at the service.
async fn hang_up(team: &Team, server: &str, call: &serde_json::Value) {
    let authority = server.strip_prefix("http://").unwrap().to_string();
    let body = call.to_string();
    let mut s = tokio::net::TcpStream::connect(&authority).await.unwrap();
    let head = format!(
        "POST /v1/domainstats HTTP/1.1\r\nhost: {authority}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    let sent = team.ledger().entries.len();
    let arrived = async || team.ledger().entries.len() > sent;
    assert!(
        wait_until(Duration::from_secs(5), arrived).await,
        "the call reached the service"
    );
    drop(s);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_whose_member_hung_up_is_drained_at_shutdown() {
    let mut team = Team::new().await;
    let (i, server) = team.start(&format!("{}+delay=1500", sandbox::DEFAULT_KEY));
    let ana = team.member("ana", None).await;
    hang_up(
        &team,
        &server,
        &json!({"key": ana, "domains": ["drain.example"]}),
    )
    .await;
    // SIGTERM with no connection left open: the purchase is still waited for and settled.
    team.terminate(i);
    let status = team.wait_exit(i, Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert_eq!(
        entries(&team).await,
        [("charged".to_string(), micros("0.05"), 0)]
    );
    assert_eq!(team.number("SELECT count(*) FROM records").await, 1);
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);
    assert_eq!(team.ledger().charged().count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_possibly_charged_purchase_is_not_bought_again_without_a_yes() {
    let mut team = Team::new().await;
    // Charged, then the connection reset before any byte of the answer.
    let lost = faulty(&mut team, "reset");
    let server = team.start_default();
    let ana = team.member("ana", None).await;
    let domains = |d: &[&str]| json!({"key": ana, "domains": d});

    let r = post(
        &lost,
        "/v1/domainstats",
        &domains(&["x.example", "y.example"]),
    )
    .await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (502, "upstream_lost"),
        "{}",
        r.body
    );
    assert_eq!(team.ledger().charged().count(), 1);

    // Asked again, in part, through another process: refused, the item named, nothing sent.
    let r = post(
        &server,
        "/v1/domainstats",
        &domains(&["y.example", "z.example"]),
    )
    .await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (409, "possibly_charged"),
        "{}",
        r.body
    );
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"]["items"], json!(["domainstats|y.example"]));
    assert!(v["error"]["since"].as_i64().unwrap() > 0);
    assert_eq!(team.ledger().entries.len(), 1);
    // What was not possibly bought goes.
    let r = post(&server, "/v1/domainstats", &domains(&["z.example"])).await;
    assert_eq!((r.status, r.cost()), (200, micros("0.05")), "{}", r.body);

    // With the member's yes it is bought, once; then it is stored.
    let r = post_yes(
        &server,
        "/v1/domainstats",
        &domains(&["y.example", "z.example"]),
    )
    .await;
    assert_eq!((r.status, r.cost()), (200, micros("0.05")), "{}", r.body);
    let r = post(&server, "/v1/domainstats", &domains(&["y.example"])).await;
    assert_eq!((r.status, r.cost()), (200, 0), "{}", r.body);
    // The yes was for that request: x.example still needs one.
    let r = post(&server, "/v1/domainstats", &domains(&["x.example"])).await;
    assert_eq!(r.status, 409, "{}", r.body);

    // A result priced per request, the same way.
    let related = json!({"key": ana, "keyword": "tents", "ccode": "US"});
    assert_eq!(post(&lost, "/v1/related", &related).await.status, 502);
    let r = post(&server, "/v1/related", &related).await;
    assert_eq!(
        (r.status, r.code().as_str()),
        (409, "possibly_charged"),
        "{}",
        r.body
    );
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"]["items"].as_array().unwrap().len(), 1);
    let r = post_yes(&server, "/v1/related", &related).await;
    assert_eq!((r.status, r.cost()), (200, micros("0.15")), "{}", r.body);

    let ledger = team.ledger();
    assert_eq!(ledger.charged().count(), 5, "{ledger:?}");
    let journal = team
        .number("SELECT (sum(charge_micros) + sum(possible_micros))::bigint FROM entries")
        .await;
    assert_eq!(journal, ledger.total.micros());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charged_answer_that_is_not_json_is_kept_and_answered_from_the_store() {
    let mut team = Team::new().await;
    let broken = faulty(&mut team, "not_json");
    let server = team.start_default();
    let ana = team.member("ana", None).await;
    for (path, body, price) in [
        (
            "/v1/domainstats",
            json!({"key": ana, "domains": ["nj.example"]}),
            "0.05",
        ),
        (
            "/v1/related",
            json!({"key": ana, "keyword": "tents", "ccode": "US"}),
            "0.15",
        ),
    ] {
        let first = post(&broken, path, &body).await;
        assert_eq!(first.status, 200, "{}", first.body);
        assert_eq!(first.cost(), micros(price));
        assert_eq!(first.header("x-serpkit-unreadable"), Some("1"));
        assert!(serde_json::from_str::<serde_json::Value>(&first.body).is_err());
        // Asked again (through a process whose service answers JSON): the kept text, free.
        let again = post(&server, path, &body).await;
        assert_eq!((again.status, again.cost()), (200, 0), "{}", again.body);
        assert_eq!(again.header("x-serpkit-unreadable"), Some("1"));
        assert_eq!(again.body, first.body);
    }
    assert_eq!(team.ledger().charged().count(), 2);
    assert_eq!(
        team.number("SELECT count(*) FROM results WHERE unreadable")
            .await,
        2
    );
    let charged = team
        .number("SELECT count(*) FROM entries WHERE state = 'charged'")
        .await;
    assert_eq!(charged, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_or_429_after_the_service_may_have_charged_is_possibly_charged() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let ana = team.member("ana", None).await;
    for (i, fault) in ["server_error", "unavailable", "rate_limit"]
        .into_iter()
        .enumerate()
    {
        let failing = faulty(&mut team, fault);
        let body = json!({"key": ana, "domains": [format!("e{i}.example")]});
        let r = post(&failing, "/v1/domainstats", &body).await;
        assert_eq!(
            (r.status, r.code().as_str()),
            (502, "upstream_possibly_charged"),
            "{fault}: {}",
            r.body
        );
        assert_eq!(r.header("x-serpkit-possibly-charged"), Some("0.0500"));
        assert_eq!((r.cost(), r.header("retry-after")), (0, None));
        let sent = team.ledger().entries.len();
        // Never bought again without the member's yes.
        let r = post(&server, "/v1/domainstats", &body).await;
        assert_eq!(r.status, 409, "{fault}: {}", r.body);
        assert_eq!(team.ledger().entries.len(), sent);
    }
    assert_eq!(
        entries(&team).await,
        vec![("possibly_charged".to_string(), 0, micros("0.05")); 3]
    );
    // A refusal of the request as sent (here a redirect) was not charged: bought at once.
    let moved = faulty(&mut team, "redirect");
    let body = json!({"key": ana, "domains": ["moved.example"]});
    let r = post(&moved, "/v1/domainstats", &body).await;
    assert_eq!((r.status, r.cost()), (307, 0), "{}", r.body);
    let r = post(&server, "/v1/domainstats", &body).await;
    assert_eq!((r.status, r.cost()), (200, micros("0.05")), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settle_that_keeps_failing_never_drops_the_paid_body() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let ana = team.member("ana", None).await;
    // Every settle that stores a record fails (counted), until the trigger goes.
    let c = team.pool.get().await.unwrap();
    c.batch_execute(
        "CREATE SEQUENCE settle_failures;
         CREATE FUNCTION fail_settle() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN PERFORM nextval('settle_failures'); RAISE EXCEPTION 'no settles (test)'; END $$;
         CREATE TRIGGER fail_settle BEFORE INSERT ON records
             FOR EACH ROW EXECUTE FUNCTION fail_settle();",
    )
    .await
    .unwrap();
    let failures = async || {
        let c = team.pool.get().await.unwrap();
        c.query_one(
            "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM settle_failures",
            &[],
        )
        .await
        .unwrap()
        .get::<_, i64>(0)
    };
    let url = server.clone();
    let body = json!({"key": ana, "domains": ["settle.example"]});
    let pending = tokio::spawn(async move { post(&url, "/v1/domainstats", &body).await });

    // Past the 20 attempts after which the body used to be dropped, it is still retried,
    // logged and counted, and the entry still in flight.
    let retried = wait_until(Duration::from_secs(40), async || failures().await > 20).await;
    assert!(retried, "settles retried: {}", failures().await);
    assert!(metric(&server, "serpkit_settle_failures_total").await > 20.0);
    assert_eq!(metric(&server, "serpkit_settles_pending").await, 1.0);
    assert_eq!(entries(&team).await, [("sent".to_string(), 0, 0)]);
    assert_eq!(team.ledger().charged().count(), 1);

    c.batch_execute("DROP TRIGGER fail_settle ON records")
        .await
        .unwrap();
    let r = pending.await.unwrap();
    assert_eq!((r.status, r.cost()), (200, micros("0.05")), "{}", r.body);
    assert_eq!(
        entries(&team).await,
        [("charged".to_string(), micros("0.05"), 0)]
    );
    assert_eq!(team.number("SELECT count(*) FROM records").await, 1);
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);
    assert_eq!(metric(&server, "serpkit_settles_pending").await, 0.0);
    // Stored: asked again, it is free.
    let again = json!({"key": ana, "domains": ["settle.example"]});
    let r = post(&server, "/v1/domainstats", &again).await;
    assert_eq!((r.status, r.cost()), (200, 0), "{}", r.body);
    assert_eq!(team.ledger().charged().count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_left_sent_by_a_process_that_is_gone_is_possibly_bought() {
    use serpkit::{Operation, Request};
    use serpkit_server::buy::{self, Ask, Refusal};
    use serpkit_server::{auth, now_ms};

    let team = Team::new().await;
    let app = team
        .app(sandbox::DEFAULT_KEY, std::sync::Arc::new(now_ms))
        .await;
    let token = team.member("ana", None).await;
    let member = auth::member(&app.pool, &token).await.unwrap();
    let request = |d: &str| {
        let body = json!({"key": "", "domains": [d]}).to_string();
        Request::from_json(Operation::DomainStats, &body).unwrap()
    };
    let ask = |request| Ask {
        request,
        max_age_ms: None,
        confirm_possibly: false,
    };
    let key = |d: &str| serpkit::records::key::domain_key(&app.source, d);
    // Entries still `sent`, as a process leaves them: one by a process that is gone (no one
    // holds its liveness lock, and no sweep has run yet), one by this live process.
    let c = team.pool.get().await.unwrap();
    let live = app.liveness.current().unwrap();
    for (owner, domain) in [(live ^ 1, "gone.example"), (live, "live.example")] {
        let items = vec![key(domain).as_str().to_string()];
        c.execute(
            "INSERT INTO entries (member_id, operation, request_key, estimate_micros, state,
                                  owner, at, items)
             VALUES ($1, 'domainstats', $2, 50000, 'sent', $3, $4, $5)",
            &[&member.id, &domain, &owner, &now_ms(), &items],
        )
        .await
        .unwrap();
    }
    let (gone, live) = (request("gone.example"), request("live.example"));
    let gone = buy::call(&app, &member, ask(&gone)).await;
    match gone {
        Err(Refusal::PossiblyCharged { items, .. }) => {
            assert_eq!(items, ["domainstats|gone.example"]);
        }
        other => panic!("bought again: {other:?}"),
    }
    assert!(team.ledger().entries.is_empty());
    // A live process's call in flight is its own business (its reservation, when it holds
    // one, makes others wait): not possibly bought.
    let live = buy::call(&app, &member, ask(&live)).await.unwrap();
    assert_eq!((live.status, live.cost.micros()), (200, micros("0.05")));
}
