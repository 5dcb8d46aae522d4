//! The team's money across processes: records bought once for everyone, the caps, and the
//! journal equal to the service's ledger.

mod common;

use std::collections::BTreeSet;

use common::{micros, post, request, Team};
use serde_json::json;

/// A deterministic pick of `n` items out of `pool` for call `i` of member `m`.
fn pick(pool: &[String], m: usize, i: usize, n: usize) -> Vec<String> {
    (0..n)
        .map(|k| pool[(m * 7 + i * 13 + k * 29) % pool.len()].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn members_on_two_processes_buy_each_record_once_for_the_team() {
    let mut team = Team::new().await;
    let servers = [team.start_default(), team.start_default()];
    const MEMBERS: usize = 50;
    const CALLS: usize = 100;
    let mut tokens = Vec::new();
    for m in 0..MEMBERS {
        tokens.push(team.member(&format!("member{m}"), None).await);
    }
    // Keyword case and spacing differ between members: the core's keys make them one record.
    let keywords: Vec<String> = (0..400).map(|i| format!("trail shoes {i}")).collect();
    let domains: Vec<String> = (0..150).map(|i| format!("shop{i}.example")).collect();
    let mut tasks = Vec::new();
    for (m, token) in tokens.iter().enumerate() {
        let (token, server) = (token.clone(), servers[m % 2].clone());
        let (keywords, domains) = (keywords.clone(), domains.clone());
        tasks.push(tokio::spawn(async move {
            let mut paid = 0i64;
            for i in 0..CALLS {
                let reply = if i % 3 == 2 {
                    let body = json!({"key": token, "domains": pick(&domains, m, i, 2)});
                    post(&server, "/v1/domainstats", &body).await
                } else {
                    let mut ks = pick(&keywords, m, i, 5);
                    if m % 2 == 1 {
                        ks = ks
                            .iter()
                            .map(|k| format!("  {}", k.to_uppercase()))
                            .collect();
                    }
                    let body = json!({"key": token, "keywords": ks, "ccode": "US"});
                    post(&server, "/v1/search_volume/bulk", &body).await
                };
                assert_eq!(reply.status, 200, "{}", reply.body);
                assert!(!reply.body.contains("sandbox-test-key"));
                paid += reply.cost();
            }
            paid
        }));
    }
    let mut paid_by_headers = 0;
    for t in tasks {
        paid_by_headers += t.await.unwrap();
    }
    let ledger = team.ledger();
    let units = |op: &str| -> u64 {
        ledger
            .charged()
            .filter(|e| e.operation == op)
            .map(|e| e.units)
            .sum()
    };
    // Every distinct record asked for was bought exactly once.
    let mut asked_keywords = BTreeSet::new();
    let mut asked_domains = BTreeSet::new();
    for m in 0..MEMBERS {
        for i in 0..CALLS {
            if i % 3 == 2 {
                asked_domains.extend(pick(&domains, m, i, 2));
            } else {
                asked_keywords.extend(pick(&keywords, m, i, 5));
            }
        }
    }
    assert_eq!(units("search_volume/bulk"), asked_keywords.len() as u64);
    assert_eq!(units("domainstats"), asked_domains.len() as u64);
    assert_eq!(
        team.number("SELECT count(*) FROM records").await,
        (asked_keywords.len() + asked_domains.len()) as i64
    );
    // The journal equals the ledger, and what the headers said.
    let spent = team
        .number("SELECT (sum(charge_micros) + sum(possible_micros))::bigint FROM entries")
        .await;
    assert_eq!(spent, ledger.total.micros());
    assert_eq!(paid_by_headers, ledger.total.micros());
    assert_eq!(team.number("SELECT count(*) FROM reservations").await, 0);
    assert_eq!(
        team.number("SELECT count(*) FROM entries WHERE state = 'sent'")
            .await,
        0
    );

    // Another member asking for records others bought pays nothing and sees them reused.
    let late = team.member("late", None).await;
    let asked: Vec<&String> = asked_keywords.iter().take(10).collect();
    let reply = post(
        &servers[0],
        "/v1/search_volume/bulk",
        &json!({"key": late, "keywords": asked, "ccode": "us"}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.cost(), 0);
    assert_eq!(reply.header("x-serpkit-reused"), Some("10"));
    let records: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(records.as_array().unwrap().len(), 10);
    assert_eq!(team.ledger().total, ledger.total);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_team_cap_and_a_member_cap_are_never_passed() {
    let mut team = Team::new().await;
    let servers = [team.start_default(), team.start_default()];
    // $0.50: five domainstats calls of two domains ($0.10 each).
    team.pool
        .get()
        .await
        .unwrap()
        .execute("UPDATE team SET cap_micros = 500000", &[])
        .await
        .unwrap();
    // Many members at once, each one call after another, so write-aheads of both processes
    // overlap all the time.
    let mut tasks = Vec::new();
    for m in 0..40 {
        let token = team.member(&format!("m{m}"), None).await;
        let server = servers[m % 2].clone();
        tasks.push(tokio::spawn(async move {
            let mut replies = Vec::new();
            for i in 0..4 {
                let domains = [format!("a{m}-{i}.example"), format!("b{m}-{i}.example")];
                replies.push(
                    post(
                        &server,
                        "/v1/domainstats",
                        &json!({"key": token, "domains": domains}),
                    )
                    .await,
                );
            }
            replies
        }));
    }
    let mut ok = 0;
    for t in tasks {
        for r in t.await.unwrap() {
            match r.status {
                200 => ok += 1,
                402 => assert_eq!(r.code(), "budget_exceeded", "{}", r.body),
                s => panic!("unexpected {s}: {}", r.body),
            }
        }
    }
    let ledger = team.ledger();
    assert_eq!(ok, 5);
    assert_eq!(ledger.total.micros(), 500_000);
    assert_eq!(ledger.charged().count(), 5);
    assert_eq!(
        team.number("SELECT sum(charge_micros)::bigint FROM entries")
            .await,
        500_000
    );

    // A member's own cap, under a team without one.
    team.pool
        .get()
        .await
        .unwrap()
        .execute("UPDATE team SET cap_micros = NULL", &[])
        .await
        .unwrap();
    let capped = team.member("capped", Some(micros("0.12"))).await;
    let first = post(
        &servers[0],
        "/v1/domainstats",
        &json!({"key": capped, "domains": ["c.example", "d.example"]}),
    )
    .await;
    assert_eq!(first.status, 200, "{}", first.body);
    let second = post(
        &servers[1],
        "/v1/domainstats",
        &json!({"key": capped, "domains": ["e.example"]}),
    )
    .await;
    assert_eq!(second.status, 402, "{}", second.body);
    assert!(second.body.contains("your budget cap"), "{}", second.body);
    assert_eq!(team.ledger().total.micros(), 600_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_priced_per_request_are_bought_once_for_the_team() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let (ana, ben) = (
        team.member("ana", None).await,
        team.member("ben", None).await,
    );
    let first = post(
        &server,
        "/v1/related",
        &json!({"key": ana, "keyword": "Trail  Shoes", "ccode": "US"}),
    )
    .await;
    assert_eq!(
        (first.status, first.cost()),
        (200, micros("0.15")),
        "{}",
        first.body
    );
    let second = post(
        &server,
        "/v1/related",
        &json!({"key": ben, "keyword": "trail shoes", "ccode": "us"}),
    )
    .await;
    assert_eq!((second.status, second.cost()), (200, 0));
    assert_eq!(second.header("x-serpkit-reused"), Some("1"));
    assert_eq!(second.body, first.body);
    // One keyword by itself is the same record as in a bulk call.
    let single = post(
        &server,
        "/v1/search_volume/single",
        &json!({"key": ben, "keyword": "tents", "ccode": "US"}),
    )
    .await;
    assert_eq!(
        (single.status, single.cost()),
        (200, micros("0.0003")),
        "{}",
        single.body
    );
    let bulk = post(
        &server,
        "/v1/search_volume/bulk",
        &json!({"key": ana, "keywords": ["tents", "poles"], "ccode": "US"}),
    )
    .await;
    assert_eq!(
        (bulk.status, bulk.cost()),
        (200, micros("0.0003")),
        "{}",
        bulk.body
    );
    assert_eq!(bulk.header("x-serpkit-reused"), Some("1"));
    assert_eq!(team.ledger().total.micros(), micros("0.1506"));
}

/// GETs a team resource as the member of `token`.
async fn team_get(server: &str, path: &str, token: &str) -> serde_json::Value {
    let auth = format!("Bearer {token}");
    let r = request(server, "GET", path, &[("authorization", &auth)], "").await;
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

/// The feed's next page after `after`, waiting (up to 20 s) until it holds records: the feed
/// hands out only transactions older than every one still running in the cluster, and the
/// other tests' transactions (other databases of the same cluster) can hold that back for a
/// moment. Its promise is that a reader following `next` misses nothing, not that a commit
/// shows at once.
async fn feed_page(server: &str, after: i64, token: &str) -> serde_json::Value {
    let path = format!("/team/records?after={after}");
    for _ in 0..200 {
        let page = team_get(server, &path, token).await;
        if page["records"].as_array().is_some_and(|r| !r.is_empty()) {
            return page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    team_get(server, &path, token).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_member_reads_who_bought_what_and_the_team_records_as_a_feed() {
    let mut team = Team::new().await;
    let server = team.start_default();
    let (ana, ben) = (
        team.member("ana", None).await,
        team.member("ben", None).await,
    );
    let r = post(
        &server,
        "/v1/search_volume/bulk",
        &json!({"key": ana, "keywords": ["Tents", "poles"], "ccode": "US"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        &server,
        "/v1/related",
        &json!({"key": ben, "keyword": "tents", "ccode": "US"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);

    // Ben sees that Ana bought the two keywords, and his own per-request result.
    let bought = team_get(&server, "/team/purchases", &ben).await;
    let entries = bought["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{bought}");
    assert_eq!(entries[0]["member"], "ben");
    assert_eq!(entries[0]["items"], json!(["US|tents"]));
    assert_eq!(entries[1]["member"], "ana");
    assert_eq!(entries[1]["operation"], "search_volume/bulk");
    assert_eq!(entries[1]["items"], json!(["US|poles", "US|tents"]));
    assert_eq!(entries[1]["charge"], "0.0006");

    // The feed hands Ben Ana's records, keyed without the server's source, once.
    let page = feed_page(&server, 0, &ben).await;
    let records = page["records"].as_array().unwrap();
    let keys: Vec<&str> = records.iter().map(|r| r["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["US|poles", "US|tents"], "{page}");
    assert_eq!(records[0]["kind"], "search_volume");
    assert!(records[0]["json"].as_str().unwrap().contains("poles"));
    let next = page["next"].as_i64().unwrap();
    assert!(next > 0);
    let again = team_get(&server, &format!("/team/records?after={next}"), &ben).await;
    assert_eq!(again["records"], json!([]));
    assert_eq!(again["next"].as_i64(), Some(next));
    // Bought again (a refresh elsewhere), a record comes again.
    let r = post(
        &server,
        "/v1/search_volume/bulk",
        &json!({"key": ana, "keywords": ["tents", "stoves"], "ccode": "US"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let more = feed_page(&server, next, &ben).await;
    let keys: Vec<&str> = more["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["US|stoves"], "{more}");

    let bad = request(
        &server,
        "GET",
        "/team/records?after=x;DROP TABLE records",
        &[("authorization", &format!("Bearer {ben}"))],
        "",
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let none = request(&server, "GET", "/team/purchases", &[], "").await;
    assert_eq!(none.status, 401);
}
