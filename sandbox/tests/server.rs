//! The HTTP server end to end: started in-process on port 0 and spoken to over TCP.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::Value;
use serpkit::validate::validate;
use serpkit::{Operation, Usd};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod common;
use common::*;

#[tokio::test]
async fn health_cors_and_all_operations() {
    let addr = start(config()).await;
    let h = raw(addr, "GET", "/health", &[], b"").await;
    assert_eq!((h.status, h.json()), (200, serde_json::json!({"ok": true})));

    let pre = raw(
        addr,
        "OPTIONS",
        "/v1/related",
        &[
            ("origin", "http://localhost:5173"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "content-type, x-sandbox-fault",
            ),
        ],
        b"",
    )
    .await;
    assert_eq!(pre.status, 204);
    // A loopback origin is echoed, never `*`: no other site may call a sandbox left running.
    assert_eq!(
        pre.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert_eq!(pre.header("vary"), Some("origin"));
    assert!(pre
        .header("access-control-allow-methods")
        .unwrap()
        .contains("POST"));
    let allowed = pre.header("access-control-allow-headers").unwrap();
    assert!(allowed.contains("content-type") && allowed.contains("x-sandbox-fault"));
    assert_eq!(
        pre.header("access-control-expose-headers"),
        Some("retry-after")
    );

    let mut expected = Usd::ZERO;
    for op in Operation::ALL {
        let mut req = sandbox::generate::sample_request(op, 5);
        req.set_key(serpkit::ApiKey::new(KEY));
        let r = post(addr, op.path(), &req.to_json()).await;
        assert_eq!(r.status, 200, "{op}: {}", r.body);
        // No Origin (not a browser): no CORS headers at all.
        assert_eq!(r.header("access-control-allow-origin"), None);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let report = validate(op, &r.body, Some(&req));
        assert!(report.ok() && report.warning_count() == 0, "{op}: {report}");
        // Determinism over HTTP.
        let again = post(addr, op.path(), &req.to_json()).await;
        assert_eq!(again.body, r.body, "{op}");
        expected += serpkit::estimate_cost(&req).times(2);
    }
    let l = ledger(addr).await;
    assert_eq!(l["entries"].as_array().unwrap().len(), 22);
    assert_eq!(
        l["total"].as_str().unwrap().parse::<Usd>().unwrap(),
        expected
    );
    assert!(
        !l.to_string().contains(KEY),
        "full key stored in the ledger"
    );
    assert_eq!(l["entries"][0]["key_id"], "test…");
}

#[tokio::test]
async fn bad_requests_get_400_naming_the_field() {
    let addr = start(config()).await;
    let cases: &[(&str, &str, Option<&str>, &str)] = &[
        ("related", "{not json", None, "not JSON"),
        ("related", "[1,2]", None, "JSON object"),
        (
            "related",
            &format!(r#"{{"key":"{KEY}","keyword":"x"}}"#),
            Some("/ccode"),
            "ccode",
        ),
        (
            "search_volume/bulk",
            &format!(r#"{{"key":"{KEY}","ccode":"US"}}"#),
            Some("/keywords"),
            "missing field `keywords`",
        ),
        (
            "backlink/metrics",
            &format!(r#"{{"key":"{KEY}"}}"#),
            Some("/urls"),
            "missing field `urls`",
        ),
        (
            "related",
            &format!(r#"{{"key":"{KEY}","keyword":5,"ccode":"US"}}"#),
            Some("/keyword"),
            "keyword",
        ),
        (
            "related",
            &format!(r#"{{"key":"{KEY}","keyword":"x","ccode":"USA"}}"#),
            Some("/ccode"),
            "country code",
        ),
        (
            "search_volume/bulk",
            &format!(r#"{{"key":"{KEY}","keywords":["a",1],"ccode":"US"}}"#),
            Some("/keywords/1"),
            "keywords/1",
        ),
        (
            "search_volume/bulk",
            &format!(r#"{{"key":"{KEY}","keywords":[],"ccode":"US"}}"#),
            Some("/keywords"),
            "empty",
        ),
        (
            "domainstats",
            &format!(r#"{{"key":"{KEY}","domains":["https://x.com/a"]}}"#),
            Some("/domains/0"),
            "not a URL",
        ),
        (
            "backlink/metrics",
            &format!(r#"{{"key":"{KEY}","urls":"https://x.com"}}"#),
            Some("/urls"),
            "urls",
        ),
        (
            "outline/seo",
            &format!(r#"{{"key":"{KEY}","keyword":"x","extra":1}}"#),
            Some("/extra"),
            "extra",
        ),
        (
            "related",
            r#"{"key":5,"keyword":"x","ccode":"US"}"#,
            Some("/key"),
            "key",
        ),
    ];
    for (op, body, field, needle) in cases {
        let r = post(addr, op, body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        let e = r.json();
        assert_eq!(e["error"]["code"], "bad_request");
        let msg = e["error"]["message"].as_str().unwrap();
        assert!(msg.contains(needle), "{msg:?} lacks {needle:?}");
        if let Some(f) = field {
            assert_eq!(e["error"]["field"], *f, "{body}");
        }
    }
    let json = [("content-type", "application/json")];
    let r = raw(addr, "POST", "/v1/related", &json, &[0xff, 0xfe, b'{']).await;
    assert_eq!(r.status, 400);
    // Garbage of many shapes: always a 4xx with a JSON error body, never a crash.
    let junk = [
        "",
        "null",
        "0",
        "\"s\"",
        "{}",
        "{\"key\":null}",
        "{\"key\":{}}",
        "{\"key\":[]}",
        "{\"key\":\"test-key-123456\"}",
        "{\"key\":\"test-key-123456\",\"keyword\":null,\"ccode\":null}",
        "{\"key\":\"test-key-123456\",\"keyword\":\"\\u0000\",\"ccode\":\"US\"}",
        "{{{{",
        "[[[[[[",
    ];
    for op in Operation::ALL {
        for j in junk {
            let r = post(addr, op.path(), j).await;
            assert!((400..500).contains(&r.status), "{op} {j:?}: {}", r.status);
            r.error_code();
        }
    }
    assert_eq!(post(addr, "nope", "{}").await.status, 404);
    let g = raw(addr, "GET", "/v1/related", &[], b"").await;
    assert_eq!(
        (g.status, g.error_code().as_str()),
        (405, "method_not_allowed")
    );
    assert_eq!(raw(addr, "GET", "/elsewhere", &[], b"").await.status, 404);
    assert_eq!(ledger(addr).await["total"], "0.0000");
}

#[tokio::test]
async fn keys_budgets_and_body_limit() {
    let addr = start(config()).await;
    let r = post(addr, "related", r#"{"keyword":"x","ccode":"US"}"#).await;
    assert_eq!((r.status, r.error_code().as_str()), (401, "unauthorized"));
    let r = post(addr, "related", &related("wrong-key")).await;
    assert_eq!((r.status, r.error_code().as_str()), (401, "unauthorized"));
    assert!(!r.body.contains("wrong-key"));

    // poor-key has $0.30: one overview ($0.25) fits, the next does not.
    let ov = r#"{"key":"poor-key-0001","domain":"example.com"}"#;
    assert_eq!(post(addr, "backlink/overview", ov).await.status, 200);
    let r = post(addr, "backlink/overview", ov).await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (402, "payment_required")
    );
    // A cheap call still fits the remaining $0.05.
    let sv = r#"{"key":"poor-key-0001","keyword":"x","ccode":"US"}"#;
    assert_eq!(post(addr, "search_volume/single", sv).await.status, 200);
    let l = ledger(addr).await;
    assert_eq!(l["total"], "0.2503");

    let big = format!(
        r#"{{"key":"{KEY}","keywords":["{}"],"ccode":"US"}}"#,
        "a".repeat(5000)
    );
    let r = post(addr, "search_volume/bulk", &big).await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (413, "payload_too_large")
    );
    // Without a content-length the limit still holds (chunked upload).
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = "POST /v1/related HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
    s.write_all(head.as_bytes()).await.unwrap();
    let chunk = "x".repeat(3000);
    for _ in 0..3 {
        let _ = s
            .write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes())
            .await;
    }
    let _ = s.write_all(b"0\r\n\r\n").await;
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf).await;
    assert!(String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 413"));

    // Reset clears the ledger and the budgets.
    let r = raw(
        addr,
        "POST",
        "/ledger/reset",
        &[("content-type", "application/json")],
        b"{}",
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(ledger(addr).await["entries"], serde_json::json!([]));
    assert_eq!(post(addr, "backlink/overview", ov).await.status, 200);
}

#[tokio::test]
async fn fault_modes_by_header_and_by_key_suffix() {
    let addr = start(config()).await;
    let body = related(KEY);
    let normal = post(addr, "related", &body).await.body;
    reset(addr).await;

    for (status, fault) in [
        (429, "rate_limit"),
        (500, "server_error"),
        (503, "unavailable"),
    ] {
        for r in [
            post_fault(addr, "related", &body, fault).await,
            post(addr, "related", &related(&format!("{KEY}+{fault}"))).await,
        ] {
            assert_eq!(r.status, status, "{fault}");
            if status != 500 {
                assert_eq!(r.header("retry-after"), Some("1"), "{fault}");
            }
            r.error_code();
        }
    }
    assert_eq!(
        ledger(addr).await["total"],
        "0.0000",
        "faults must not be charged"
    );

    // *_once: the first call fails, the retry of the same call succeeds, one charge.
    for (status, fault) in [(429, "rate_limit_once"), (503, "unavailable_once")] {
        let keyed = related(&format!("{KEY}+{fault}"));
        assert_eq!(post(addr, "related", &keyed).await.status, status);
        let ok = post(addr, "related", &keyed).await;
        assert_eq!((ok.status, ok.body.as_str()), (200, normal.as_str()));
        assert_eq!(
            post_fault(addr, "related", &body, fault).await.status,
            status
        );
        assert_eq!(post_fault(addr, "related", &body, fault).await.status, 200);
    }
    let l = ledger(addr).await;
    let charged: Vec<&Value> = l["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["charge"] != "0.0000")
        .collect();
    assert_eq!(charged.len(), 4);
    assert!(charged.iter().all(|e| e["status"] == 200));
    assert_eq!(l["total"], "0.6000");
    assert!(!l.to_string().contains(KEY));

    // truncate: the first half of the normal body, status 200.
    let r = post_fault(addr, "related", &body, "truncate").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, normal[..normal.len() / 2]);
    assert!(serde_json::from_str::<Value>(&r.body).is_err());
    let r = post(addr, "related", &related(&format!("{KEY}+truncate"))).await;
    assert_eq!(r.body, normal[..normal.len() / 2]);

    // not_json: an HTML page with status 200.
    let r = post_fault(addr, "related", &body, "not_json").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/html"));
    assert!(r.body.starts_with("<!DOCTYPE html>"));

    // break=<rule>: the validator finds it; inapplicable or unknown rules are 400.
    for rule in ["order", "type", "missing_field", "range"] {
        let r = post_fault(addr, "related", &body, &format!("break={rule}")).await;
        assert_eq!(r.status, 200);
        let report = validate(Operation::Related, &r.body, None);
        assert!(report.error_count() + report.warning_count() > 0, "{rule}");
    }
    let sv = format!(r#"{{"key":"{KEY}+break=monthly_count","keyword":"x","ccode":"US"}}"#);
    let r = post(addr, "search_volume/single", &sv).await;
    assert_eq!(
        r.json()["TARGETED_MONTHLY_SEARCHES"]
            .as_array()
            .unwrap()
            .len(),
        11
    );
    let r = post_fault(addr, "related", &body, "break=prefix").await;
    assert_eq!((r.status, r.error_code().as_str()), (400, "unknown_fault"));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("order"));
    let r = post_fault(addr, "related", &body, "explode").await;
    assert_eq!((r.status, r.error_code().as_str()), (400, "unknown_fault"));
    let r = post(addr, "related", &related(&format!("{KEY}+explode"))).await;
    assert_eq!(r.status, 400);

    // huge=<MB>.
    let r = post_fault(addr, "related", &body, "huge=12").await;
    assert_eq!(r.status, 200);
    assert!(r.body.len() >= 12 << 20);
    serde_json::from_str::<Value>(&r.body).unwrap();
    let ov = format!(r#"{{"key":"{KEY}+huge=11","domain":"example.com"}}"#);
    let r = post(addr, "backlink/overview", &ov).await;
    assert!(r.body.len() >= 11 << 20);
    let report = validate(Operation::BacklinkOverview, &r.body, None);
    assert!(report.ok() && report.warning_count() == 0, "{report}");
}

#[tokio::test]
async fn delay_fault_outlasts_a_timeout() {
    let addr = start(config()).await;
    let body = related(KEY);
    let started = Instant::now();
    let timed = tokio::time::timeout(
        Duration::from_millis(150),
        post_fault(addr, "related", &body, "delay=600"),
    )
    .await;
    assert!(timed.is_err(), "answered before the delay");
    let started2 = Instant::now();
    let r = post(addr, "related", &related(&format!("{KEY}+delay=300"))).await;
    assert_eq!(r.status, 200);
    assert!(started2.elapsed() >= Duration::from_millis(300));
    assert!(started.elapsed() >= Duration::from_millis(450));
}

#[tokio::test]
async fn binary_prints_its_address_first() {
    let exe = env!("CARGO_BIN_EXE_sandbox");
    let mut child = tokio::process::Command::new(exe)
        .args([
            "--port",
            "0",
            "--key",
            "k-12345678",
            "--today",
            "2024-03-05",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while out.read_exact(&mut byte).await.is_ok() && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8(line).unwrap();
    let url = line
        .strip_prefix("sandbox listening on http://")
        .expect(&line);
    assert!(url.starts_with("127.0.0.1:"));
    let addr: SocketAddr = url.parse().unwrap();
    let r = post(addr, "related", &related("k-12345678")).await;
    assert_eq!(r.status, 200);
    assert_eq!(post(addr, "related", &related(KEY)).await.status, 401);
    child.kill().await.unwrap();
}

/// A tiny HTTP/1.1 transport for the Rust client over tokio's TCP: a refused connect never
/// sent anything (`NotSent`); a connection that ends before a status line may have carried
/// the request (`Network`). Counts its attempts.
#[derive(Default)]
struct Tcp {
    attempts: std::cell::Cell<u32>,
}

impl serpkit::client::Transport for Tcp {
    fn post(
        &self,
        r: serpkit::client::HttpRequest,
    ) -> serpkit::client::LocalBoxFuture<
        '_,
        Result<serpkit::client::HttpResponse, serpkit::client::TransportError>,
    > {
        use serpkit::client::{HttpResponse, TransportError};
        self.attempts.set(self.attempts.get() + 1);
        Box::pin(async move {
            let lost = |e: std::io::Error| TransportError::Network(e.to_string());
            let rest = r.url.strip_prefix("http://").unwrap_or(&r.url);
            let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let mut s = TcpStream::connect(host)
                .await
                .map_err(|e| TransportError::NotSent(e.to_string()))?;
            let mut head = format!(
                "POST {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\
                 content-type: application/json\r\ncontent-length: {}\r\n",
                r.body.len()
            );
            for (n, v) in &r.headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str("\r\n");
            s.write_all(head.as_bytes()).await.map_err(lost)?;
            s.write_all(r.body.as_bytes()).await.map_err(lost)?;
            let mut buf = Vec::new();
            let read = s.read_to_end(&mut buf).await;
            let Some(split) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                return Err(match read {
                    Err(e) => lost(e),
                    Ok(_) => TransportError::Network("closed before a response".into()),
                });
            };
            let head = String::from_utf8_lossy(&buf[..split]).to_string();
            let status = head
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            if let Err(e) = read {
                return Err(TransportError::BodyLost {
                    status,
                    message: e.to_string(),
                });
            }
            let headers = head
                .lines()
                .skip(1)
                .filter_map(|l| l.split_once(':'))
                .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
                .collect();
            Ok(HttpResponse {
                status,
                headers,
                body: String::from_utf8_lossy(&buf[split + 4..]).to_string(),
            })
        })
    }
}

fn tcp_client(
    base_url: String,
    fault: Option<&str>,
) -> (serpkit::client::Client, std::rc::Rc<Tcp>) {
    let mut c = serpkit::client::ClientConfig::new(KEY);
    c.base_url = base_url;
    c.retry.base_delay = Duration::from_millis(5);
    c.retry.jitter = false;
    c.headers = fault
        .map(|f| vec![(sandbox::faults::FAULT_HEADER.to_string(), f.to_string())])
        .unwrap_or_default();
    let t = std::rc::Rc::new(Tcp::default());
    (serpkit::client::Client::new(c, t.clone()), t)
}

/// `reset`: charged once, then the connection reset before any byte of the answer; the
/// client counts it possibly charged and does not repeat it. A refused connection (a closed
/// port) is retried and free.
#[tokio::test]
async fn reset_fault_charges_then_resets_and_the_client_does_not_repeat_it() {
    let addr = start(config()).await;
    let body = related(KEY);

    // A raw TCP client sees a reset and not one byte.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /v1/related HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         x-sandbox-fault: reset\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let read = s.read_to_end(&mut buf).await;
    assert!(buf.is_empty(), "{}", String::from_utf8_lossy(&buf));
    assert_eq!(
        read.map_err(|e| e.kind()),
        Err(std::io::ErrorKind::ConnectionReset)
    );
    let l = ledger(addr).await;
    assert_eq!(l["entries"].as_array().unwrap().len(), 1);
    assert_eq!(l["entries"][0]["fault"], "reset");
    reset(addr).await;

    // The Rust client: one attempt, possibly charged with the estimate.
    let (client, tcp) = tcp_client(format!("http://{addr}"), Some("reset"));
    let request = serpkit::Request::Related(serpkit::ops::related::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
        ccode: "US".into(),
    });
    let estimate = serpkit::estimate_cost(&request);
    let err = client.call_raw(&request, None).await.unwrap_err();
    match &err {
        serpkit::client::Error::ConnectionLost {
            possible_charge, ..
        } => assert_eq!(*possible_charge, estimate),
        other => panic!("{other:?}"),
    }
    assert_eq!(tcp.attempts.get(), 1, "never repeated");
    assert_eq!(
        (client.spent(), client.possibly_charged()),
        (Usd::ZERO, estimate)
    );
    let l = ledger(addr).await;
    assert_eq!(l["entries"].as_array().unwrap().len(), 1, "charged once");
    assert_eq!(
        l["total"].as_str().unwrap().parse::<Usd>().unwrap(),
        estimate
    );

    // A closed port: refused, so never sent: retried per the policy, free.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let (client, tcp) = tcp_client(format!("http://127.0.0.1:{port}"), None);
    let err = client.call_raw(&request, None).await.unwrap_err();
    assert!(matches!(err, serpkit::client::Error::Network(_)), "{err:?}");
    assert_eq!(tcp.attempts.get(), 3, "1 + 2 retries");
    assert_eq!(
        (client.spent(), client.possibly_charged()),
        (Usd::ZERO, Usd::ZERO)
    );
}
