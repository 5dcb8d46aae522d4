//! The sandbox server is safe to leave running, and the `drop_body` and
//! `redirect` faults behave as clients need for their tests.

use std::sync::Arc;
use std::time::Duration;

use sandbox::{Config, Date, KeyConfig, Sandbox};
use serde_json::Value;
use serpkit::Usd;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod common;
use common::*;

const JSON: (&str, &str) = ("content-type", "application/json");

#[tokio::test]
async fn posts_without_a_json_content_type_get_415() {
    let addr = start(config()).await;
    let body = related(KEY);
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let hs: Vec<(&str, &str)> = ct.map(|c| ("content-type", c)).into_iter().collect();
        let r = raw(addr, "POST", "/v1/related", &hs, body.as_bytes()).await;
        assert_eq!(r.status, 415, "{ct:?}");
        assert_eq!(r.error_code(), "unsupported_media_type");
        let r = raw(addr, "POST", "/ledger/reset", &hs, b"").await;
        assert_eq!(r.status, 415, "reset with {ct:?}");
    }
    for ct in ["application/json; charset=utf-8", "Application/JSON"] {
        let r = raw(
            addr,
            "POST",
            "/v1/related",
            &[("content-type", ct)],
            body.as_bytes(),
        )
        .await;
        assert_eq!(r.status, 200, "{ct}");
    }
    // The refused reset cleared nothing; GETs need no content type.
    let l = raw(addr, "GET", "/ledger", &[], b"").await;
    assert_eq!(l.status, 200);
    assert_eq!(l.json()["total"], "0.3000", "only the two JSON calls");
    assert_eq!(raw(addr, "GET", "/health", &[], b"").await.status, 200);
    reset(addr).await;
    assert_eq!(ledger(addr).await["total"], "0.0000");
}

async fn preflight(addr: std::net::SocketAddr, origin: &str) -> Resp {
    raw(
        addr,
        "OPTIONS",
        "/v1/related",
        &[
            ("origin", origin),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "content-type, x-sandbox-fault",
            ),
        ],
        b"",
    )
    .await
}

#[tokio::test]
async fn cors_allows_loopback_origins_only_unless_widened() {
    let addr = start(config()).await;
    for origin in [
        "http://localhost:5173",
        "http://127.0.0.1:8080",
        "https://[::1]:3000",
    ] {
        let p = preflight(addr, origin).await;
        assert_eq!(p.status, 204);
        assert_eq!(p.header("access-control-allow-origin"), Some(origin));
        assert_eq!(p.header("vary"), Some("origin"));
        let h = p.header("access-control-allow-headers").unwrap();
        assert!(h.contains("content-type") && h.contains("x-sandbox-fault"));
        let r = raw(
            addr,
            "POST",
            "/v1/related",
            &[JSON, ("origin", origin)],
            related(KEY).as_bytes(),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("access-control-allow-origin"), Some(origin));
        assert_eq!(
            r.header("access-control-expose-headers"),
            Some("retry-after")
        );
    }
    let spent = ledger(addr).await["total"].clone();

    // A foreign page: no CORS headers anywhere, and its POSTs are refused before any charge.
    let evil = "https://evil.example";
    let p = preflight(addr, evil).await;
    assert!(p
        .headers
        .iter()
        .all(|(n, _)| !n.starts_with("access-control-")));
    let r = raw(
        addr,
        "POST",
        "/v1/related",
        &[JSON, ("origin", evil)],
        related(KEY).as_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (403, "forbidden_origin")
    );
    assert_eq!(r.header("access-control-allow-origin"), None);
    let r = raw(
        addr,
        "POST",
        "/ledger/reset",
        &[JSON, ("origin", evil)],
        b"{}",
    )
    .await;
    assert_eq!(r.status, 403);
    let l = raw(addr, "GET", "/ledger", &[("origin", evil)], b"").await;
    assert_eq!(l.header("access-control-allow-origin"), None);
    assert_eq!(l.json()["total"], spent, "nothing charged, nothing reset");
    for o in [
        "http://localhost.evil.example",
        "null",
        "http://127.0.0.1.evil.example",
    ] {
        assert_eq!(
            preflight(addr, o)
                .await
                .header("access-control-allow-origin"),
            None,
            "{o}"
        );
    }

    // --allow-origin widens it: one origin, or any with `*`.
    let mut c = config();
    c.allow_origins = vec!["https://app.example.com".into()];
    let addr = start(c).await;
    let p = preflight(addr, "https://app.example.com").await;
    assert_eq!(
        p.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert_eq!(
        preflight(addr, evil)
            .await
            .header("access-control-allow-origin"),
        None
    );
    assert_eq!(
        preflight(addr, "http://localhost:1")
            .await
            .header("access-control-allow-origin"),
        Some("http://localhost:1")
    );
    let mut c = config();
    c.allow_origins = vec!["*".into()];
    let addr = start(c).await;
    assert_eq!(
        preflight(addr, evil)
            .await
            .header("access-control-allow-origin"),
        Some("*")
    );
    let r = raw(
        addr,
        "POST",
        "/v1/related",
        &[JSON, ("origin", evil)],
        related(KEY).as_bytes(),
    )
    .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn slow_and_huge_answers_are_capped_and_refusals_are_free() {
    let mut c = config();
    c.max_heavy = 2;
    let addr = start(c).await;
    let body = related(KEY);
    let slow = |ms: u32| {
        let body = body.clone();
        tokio::spawn(
            async move { post_fault(addr, "related", &body, &format!("delay={ms}")).await },
        )
    };
    let a = slow(1500);
    let b = slow(1500);
    // Wait until both are accepted (recorded), then a third finds the pool full.
    while ledger(addr).await["entries"].as_array().unwrap().len() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = post_fault(addr, "related", &body, "delay=10").await;
    assert_eq!((r.status, r.error_code().as_str()), (503, "busy"));
    assert_eq!(r.header("retry-after"), Some("1"));
    let r = post_fault(addr, "related", &body, "huge=1").await;
    assert_eq!(r.status, 503, "huge shares the pool");
    // Other calls are not limited.
    assert_eq!(post(addr, "related", &body).await.status, 200);
    assert_eq!(a.await.unwrap().status, 200);
    assert_eq!(b.await.unwrap().status, 200);
    // Places are freed once answers are sent.
    assert_eq!(
        post_fault(addr, "related", &body, "delay=10").await.status,
        200
    );
    let l = ledger(addr).await;
    let refused: Vec<&Value> = l["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == 503)
        .collect();
    assert_eq!(refused.len(), 2);
    assert!(refused.iter().all(|e| e["charge"] == "0.0000"));
    assert_eq!(l["total"], "0.6000", "four answered calls");

    // Memory: a huge body not yet read holds its bytes; another that would pass the cap waits.
    let mut c = config();
    c.max_huge_bytes = 48 << 20;
    let addr = start(c).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /v1/related HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nx-sandbox-fault: huge=32\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut first = [0u8; 12];
    s.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let r = post_fault(addr, "related", &body, "huge=32").await;
    assert_eq!(r.status, 503, "{} bytes", r.body.len());
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("huge"));
    assert_eq!(
        post_fault(addr, "related", &body, "huge=4").await.status,
        200
    );
    drop(s);
    let mut ok = false;
    for _ in 0..100 {
        if post_fault(addr, "related", &body, "huge=32").await.status == 200 {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ok, "the place is freed when the reader goes away");
}

#[tokio::test]
async fn the_ledger_keeps_its_last_entries_and_the_whole_total() {
    let mut c = config();
    c.max_ledger_entries = 5;
    let addr = start(c).await;
    for _ in 0..8 {
        assert_eq!(post(addr, "related", &related(KEY)).await.status, 200);
    }
    let l = ledger(addr).await;
    let entries = l["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 5);
    assert_eq!(entries[0]["seq"], 4);
    assert_eq!(entries[4]["seq"], 8);
    assert_eq!(l["dropped"], 3);
    assert_eq!(l["total"], "1.2000", "every charge counts, dropped or not");
}

#[tokio::test]
async fn concurrent_calls_never_pass_a_budget_together() {
    // Over HTTP: 24 calls at once, $0.50 allows three $0.15 calls.
    let mut c = config();
    c.keys.push(KeyConfig::with_budget(
        "tight-key-0001",
        "0.50".parse().unwrap(),
    ));
    let addr = start(c).await;
    let calls: Vec<_> = (0..24)
        .map(|i| {
            tokio::spawn(async move {
                let body = format!(r#"{{"key":"tight-key-0001","keyword":"kw {i}","ccode":"US"}}"#);
                post(addr, "related", &body).await.status
            })
        })
        .collect();
    let mut ok = 0;
    for c in calls {
        match c.await.unwrap() {
            200 => ok += 1,
            402 => {}
            s => panic!("status {s}"),
        }
    }
    assert_eq!(ok, 3);
    assert_eq!(ledger(addr).await["total"], "0.4500");

    // In the core, from many threads with large answers (slow to generate).
    let sb = Arc::new(Sandbox::new(
        Config::new(Date::new(2024, 3, 5).unwrap()).with_keys(vec![KeyConfig::with_budget(
            "tight-key-0001",
            "0.50".parse().unwrap(),
        )]),
    ));
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let sb = sb.clone();
            std::thread::spawn(move || {
                let body =
                    format!(r#"{{"key":"tight-key-0001","domain":"size-3000.d{i}.example"}}"#);
                sb.handle("POST", "/v1/backlink/overview", &[], body.as_bytes())
                    .status
            })
        })
        .collect();
    let ok = threads
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|s| *s == 200)
        .count();
    let l = sb.ledger();
    assert_eq!(ok, 2, "two $0.25 overviews fit $0.50");
    assert_eq!(l.total, "0.50".parse::<Usd>().unwrap());
}

#[tokio::test]
async fn drop_body_fails_while_reading_the_body_and_is_charged() {
    let addr = start(config()).await;
    let body = related(KEY);
    let whole = post(addr, "related", &body).await.body;
    let r = post_fault(addr, "related", &body, "drop_body").await;
    assert_eq!(r.status, 200);
    let announced: usize = r.header("content-length").unwrap().parse().unwrap();
    assert_eq!(
        announced,
        whole.len(),
        "the whole body's length is announced"
    );
    assert!(!r.body.is_empty(), "part of the body arrives");
    assert!(
        r.body.len() < announced,
        "the body ends early: {}",
        r.body.len()
    );
    assert!(whole.starts_with(&r.body));
    let r = post(addr, "related", &related(&format!("{KEY}+drop_body"))).await;
    assert!(r.body.len() < announced);
    let l = ledger(addr).await;
    assert_eq!(l["total"], "0.4500", "drop_body is a charged 200");
    assert_eq!(l["entries"][1]["fault"], "drop_body");
}

#[tokio::test]
async fn redirect_is_not_charged_and_whoever_follows_it_is_recorded() {
    let addr = start(config()).await;
    let body = related(KEY);
    let r = post_fault(addr, "related", &body, "redirect").await;
    assert_eq!(r.status, 307);
    assert_eq!(r.header("location"), Some("/redirected"));
    let r = post(addr, "related", &related(&format!("{KEY}+redirect"))).await;
    assert_eq!(r.status, 307);
    // A client that followed it: the body (with the key) arrives at /redirected.
    let f = raw(addr, "POST", "/redirected", &[JSON], body.as_bytes()).await;
    assert_eq!(f.status, 410);
    let f = raw(addr, "POST", "/redirected", &[], b"x").await;
    assert_eq!(f.status, 410, "any content type");
    let f = raw(addr, "GET", "/redirected", &[], b"").await;
    assert_eq!(f.status, 410);
    let f = raw(
        addr,
        "POST",
        "/redirected",
        &[("origin", "https://evil.example")],
        b"{}",
    )
    .await;
    assert_eq!(f.status, 410, "any origin");
    let l = ledger(addr).await;
    let e = l["entries"].as_array().unwrap();
    assert_eq!(e.len(), 6);
    assert!(e[..2]
        .iter()
        .all(|x| x["status"] == 307 && x["fault"] == "redirect"));
    assert!(e[..2].iter().all(|x| x.get("key_seen").is_none()));
    for (x, seen) in e[2..].iter().zip([true, false, false, false]) {
        assert_eq!(x["operation"], "redirected");
        assert_eq!(x["fault"], "redirect_followed");
        assert_eq!(x["charge"], "0.0000");
        assert_eq!(x["key_seen"], seen, "{x}");
    }
    assert_eq!(e[2]["key_id"], "test…");
    assert_eq!(l["total"], "0.0000");
    assert!(!l.to_string().contains(KEY));
}

#[tokio::test]
async fn a_client_that_gives_up_during_a_delay_frees_its_place() {
    let mut c = config();
    c.max_heavy = 1;
    let addr = start(c).await;
    let body = related(KEY);
    let gave_up = tokio::time::timeout(
        Duration::from_millis(300),
        post_fault(addr, "related", &body, "delay=5000"),
    )
    .await;
    assert!(gave_up.is_err());
    let started = std::time::Instant::now();
    let mut status = 0;
    while started.elapsed() < Duration::from_secs(3) {
        status = post_fault(addr, "related", &body, "delay=10").await.status;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        status, 200,
        "the place is free well before the 5 s delay ends"
    );
    // The abandoned call was charged when accepted (the client counts it as possibly charged).
    let l = ledger(addr).await;
    assert_eq!(l["entries"][0]["charge"], "0.1500");
    assert_eq!(l["entries"][0]["status"], 200);
}
