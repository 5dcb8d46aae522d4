//! The client in a real browser (wasm-bindgen-test in headless Chromium) against the sandbox
//! HTTP server: every operation through `fetch`, each fault mode's error, abort (a
//! [`Cancel`] and a DOM `AbortSignal` through the JS-facing `Client`), retries that honour
//! `Retry-After` without a double charge in the sandbox ledger, and a budget that stops a
//! call before it is sent.
//!
//! The sandbox URL is baked in at compile time: `SANDBOX_URL=http://127.0.0.1:PORT cargo test
//! --target wasm32-unknown-unknown -p serpkit --features js --test web_client` (`cargo xtask test` does
//! this). Without it every test fails, naming the variable.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use js_sys::{Object, Reflect};
use serde_json::{json, Value};
use serpkit::client::{sleep, Cancel, Client, ClientConfig, Error, RetryPolicy, ValidationMode};
use serpkit::ops::{outline_seo, related};
use serpkit::{estimate_cost, Operation, Request, Usd};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const KEY: &str = "sandbox-test-key";
const POOR_KEY: &str = "poor-test-key";

fn sandbox_url() -> &'static str {
    match option_env!("SANDBOX_URL") {
        Some(u) if !u.is_empty() => u.trim_end_matches('/'),
        _ => panic!(
            "SANDBOX_URL was not set when tests/web_client.rs was compiled: start the sandbox \
             (`cargo run -p sandbox -- --port 0 --key sandbox-test-key --key poor-test-key:0.50`) \
             and build the browser tests with SANDBOX_URL=http://127.0.0.1:PORT, or run \
             `cargo xtask test`"
        ),
    }
}

fn config(key: &str) -> ClientConfig {
    let mut c = ClientConfig::new(key);
    c.base_url = sandbox_url().to_string();
    c.retry = RetryPolicy::none();
    c.timeout = Some(Duration::from_secs(20));
    c
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A plain `fetch` to the sandbox (for the ledger): status and body text.
async fn sandbox_http(method: &str, path: &str) -> (u16, String) {
    let init = Object::new();
    Reflect::set(&init, &"method".into(), &method.into()).unwrap();
    if method == "POST" {
        // The sandbox takes only JSON POSTs.
        let headers = Object::new();
        Reflect::set(&headers, &"content-type".into(), &"application/json".into()).unwrap();
        Reflect::set(&init, &"headers".into(), &headers).unwrap();
        Reflect::set(&init, &"body".into(), &"{}".into()).unwrap();
    }
    let global = js_sys::global();
    let fetch: js_sys::Function = Reflect::get(&global, &"fetch".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let url = format!("{}{path}", sandbox_url());
    let p = fetch.call2(&global, &url.into(), &init).unwrap();
    let resp: web_sys::Response = JsFuture::from(js_sys::Promise::from(p))
        .await
        .unwrap_or_else(|e| panic!("the sandbox at {} is not reachable: {e:?}", sandbox_url()))
        .unchecked_into();
    let text = JsFuture::from(resp.text().unwrap()).await.unwrap();
    (resp.status(), text.as_string().unwrap())
}

async fn reset_ledger() {
    let (status, _) = sandbox_http("POST", "/ledger/reset").await;
    assert_eq!(status, 200, "POST /ledger/reset");
}

/// `(operation, status, charge, fault)` of every ledger entry, and the total.
async fn ledger() -> (Vec<(String, u16, Usd, Option<String>)>, Usd) {
    let (status, text) = sandbox_http("GET", "/ledger").await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&text).unwrap();
    let usd = |v: &Value| -> Usd {
        match v {
            Value::String(s) => s.parse().unwrap(),
            other => serde_json::from_value(other.clone()).unwrap(),
        }
    };
    let entries = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["operation"].as_str().unwrap().to_string(),
                e["status"].as_u64().unwrap() as u16,
                usd(&e["charge"]),
                e["fault"].as_str().map(str::to_string),
            )
        })
        .collect();
    (entries, usd(&v["total"]))
}

fn sample(op: Operation) -> Request {
    use Operation::*;
    let body = match op {
        SearchVolumeBulk => json!({"keywords": ["trail shoes", "running shoes"], "ccode": "US"}),
        SearchVolumeSingle => json!({"keyword": "trail shoes", "ccode": "US"}),
        DomainStats => json!({"domains": ["example.com", "example.org"]}),
        BacklinkMetrics => json!({"urls": ["https://example.com/a", "https://example.org/"]}),
        RankedKeywordsMetrics => json!({"domain": "example.com"}),
        RankedKeywordsDomain | BacklinkOverview => json!({"domain": "size-200.example.com"}),
        OutlineSeo | MicroblogPost | VideoVideo => json!({"keyword": "trail shoes"}),
        Related => json!({"keyword": "trail shoes", "ccode": "US"}),
    };
    Request::from_json(op, &body.to_string()).unwrap()
}

fn related_req() -> related::Request {
    related::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
        ccode: "US".into(),
    }
}

const RELATED: Usd = Usd::from_micros(150_000);

#[wasm_bindgen_test]
async fn every_operation_through_fetch() {
    reset_ledger().await;
    let client = Client::with_fetch(config(KEY));
    let mut total = Usd::ZERO;
    for op in Operation::ALL {
        let req = sample(op);
        let reply = client
            .call_raw(&req, None)
            .await
            .unwrap_or_else(|e| panic!("{op}: {e}"));
        let report = reply.report.expect("validation is on by default");
        assert!(report.ok(), "{op}: {report}");
        assert_eq!(report.error_count(), 0);
        assert_eq!(reply.charge, estimate_cost(&req), "{op}");
        assert_eq!(reply.attempts, 1);
        total += reply.charge;
    }
    // Typed methods decode into the model.
    let typed = client.related(related_req()).await.unwrap();
    assert!(!typed.data.is_empty());
    assert!(typed.data.iter().all(|r| (0..=100).contains(&r.kd)));
    total += typed.charge;
    let overview = client
        .backlink_overview(serpkit::ops::backlink_overview::Request {
            key: Default::default(),
            domain: "size-40.example.com".into(),
        })
        .await
        .unwrap();
    assert_eq!(overview.data.ref_newlost.len(), 40);
    total += overview.charge;

    assert_eq!(client.spent(), total);
    let (entries, charged) = ledger().await;
    assert_eq!(entries.len(), Operation::ALL.len() + 2);
    assert!(entries.iter().all(|e| e.1 == 200));
    assert_eq!(
        charged, total,
        "the client counts exactly what the sandbox charged"
    );
}

#[wasm_bindgen_test]
async fn fault_modes_map_to_errors() {
    reset_ledger().await;
    let with = |fault: &str| config(&format!("{KEY}+{fault}"));
    let call = |c: ClientConfig| async move {
        Client::with_fetch(c)
            .related(related_req())
            .await
            .map(|r| r.report)
    };

    match call(with("rate_limit")).await {
        Err(Error::Http {
            status: 429,
            retry_after,
            body,
        }) => {
            assert_eq!(retry_after, Some(Duration::from_secs(1)));
            assert!(!body.contains(KEY), "the key is redacted");
        }
        other => panic!("rate_limit: {other:?}"),
    }
    let mut retrying = with("server_error");
    retrying.retry = RetryPolicy::default();
    assert!(matches!(
        call(retrying).await,
        Err(Error::Http { status: 500, .. })
    ));
    assert!(matches!(
        call(with("unavailable")).await,
        Err(Error::Http {
            status: 503,
            retry_after: Some(_),
            ..
        })
    ));
    let mut header = config(KEY);
    header.headers = vec![("x-sandbox-fault".into(), "server_error".into())];
    assert!(matches!(
        call(header).await,
        Err(Error::Http { status: 500, .. })
    ));

    for mode in ["truncate", "not_json"] {
        match call(with(mode)).await {
            Err(e @ Error::NotJson { .. }) => assert_eq!(e.charge(), RELATED, "{mode} is charged"),
            other => panic!("{mode}: {other:?}"),
        }
    }
    let mut strict = with("break=type");
    strict.validation = ValidationMode::Strict;
    match call(strict).await {
        Err(Error::ContractViolation { report, charge, .. }) => {
            assert_eq!(report.errors().next().unwrap().code, "type");
            assert_eq!(charge, RELATED);
        }
        other => panic!("break=type strict: {other:?}"),
    }
    let warned = call(with("break=missing_field")).await.unwrap().unwrap();
    assert!(!warned.ok(), "warn mode returns the failing report");

    let mut slow = with("delay=3000");
    slow.timeout = Some(Duration::from_millis(200));
    let t0 = now_ms();
    assert!(matches!(
        call(slow).await,
        Err(Error::Timeout { possible_charge, .. }) if possible_charge == RELATED
    ));
    assert!(now_ms() - t0 < 2000.0);

    let mut small = with("huge=2");
    small.max_body_bytes = 1 << 20;
    assert!(matches!(
        call(small).await,
        Err(Error::BodyTooLarge { limit, charge }) if limit == 1 << 20 && charge > serpkit::Usd::ZERO
    ));

    assert!(matches!(
        call(config("wrong-key-1234")).await,
        Err(Error::Http { status: 401, .. })
    ));
    let mut nowhere = config(KEY);
    nowhere.base_url = "http://127.0.0.1:9".into();
    // A browser cannot tell a refusal from a reset: possibly charged, never repeated.
    assert!(matches!(
        call(nowhere).await,
        Err(Error::ConnectionLost { possible_charge, .. }) if possible_charge == RELATED
    ));

    // The sandbox's own budget: 402 once the poor key is spent.
    let poor = Client::with_fetch(config(POOR_KEY));
    poor.outline_seo(outline_seo::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
    })
    .await
    .unwrap();
    assert!(matches!(
        poor.related(related_req()).await,
        Err(Error::Http { status: 402, .. })
    ));

    let (entries, _) = ledger().await;
    let count = |f: &str| entries.iter().filter(|e| e.3.as_deref() == Some(f)).count();
    assert_eq!(count("server_error"), 2, "a 500 is never retried");
    assert_eq!(count("rate_limit"), 1);
}

#[wasm_bindgen_test]
async fn cancel_aborts_a_call_in_flight() {
    let client = Client::with_fetch(config(&format!("{KEY}+delay=5000")));
    let cancel = Cancel::new();
    let c2 = cancel.clone();
    wasm_bindgen_futures::spawn_local(async move {
        sleep(Duration::from_millis(100)).await;
        c2.cancel();
    });
    let t0 = now_ms();
    let r = client.call_raw(&related_req().into(), Some(&cancel)).await;
    assert!(matches!(r, Err(Error::Aborted { .. })), "{r:?}");
    assert!(now_ms() - t0 < 2000.0, "aborted promptly");
    // Sent, then aborted: not confirmed, possibly charged.
    assert_eq!(client.spent(), Usd::ZERO);
    assert_eq!(client.possibly_charged(), r.unwrap_err().possible_charge());
    assert!(client.possibly_charged() > Usd::ZERO);
}

/// The options of the package's `Client` in the compact form its JS side hands the wasm
/// constructor (`client_options.js`): key, base URL, then `undefined` for the defaults but the
/// retry count.
fn compact_options(key: &str, retries: Option<u32>) -> JsValue {
    let list = js_sys::Array::new_with_length(12);
    list.set(0, key.into());
    list.set(1, sandbox_url().into());
    if let Some(n) = retries {
        list.set(6, n.into());
    }
    list.into()
}

#[wasm_bindgen_test]
async fn abort_signal_through_the_js_client() {
    reset_ledger().await;
    let client =
        serpkit::js::JsClient::new(compact_options(&format!("{KEY}+delay=5000"), Some(0))).unwrap();
    let controller = web_sys::AbortController::new().unwrap();
    let call_options = Object::new();
    Reflect::set(&call_options, &"signal".into(), &controller.signal()).unwrap();
    let request = JsValue::from_str(r#"{"keyword":"trail shoes","ccode":"US"}"#);
    let promise = client.call("related".into(), request.clone(), Some(call_options.into()));
    // Abort once the request is at the sandbox (waiting out its delay).
    let t0 = now_ms();
    while ledger().await.0.is_empty() {
        assert!(now_ms() - t0 < 3000.0, "the request reached the sandbox");
        sleep(Duration::from_millis(20)).await;
    }
    let aborting = now_ms();
    controller.abort();
    let err = JsFuture::from(promise).await.unwrap_err();
    assert!(now_ms() - aborting < 1000.0, "aborted promptly");
    let code = Reflect::get(&err, &"code".into()).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("aborted"));
    let name = Reflect::get(&err, &"name".into()).unwrap();
    assert_eq!(name.as_string().as_deref(), Some("SerpkitError"));
    // Sent, then aborted: possibly charged with the estimate, on the error and the client.
    let micros = |v: &JsValue| Reflect::get(v, &"micros".into()).unwrap().as_f64();
    let possibly = Reflect::get(&err, &"possiblyCharged".into()).unwrap();
    assert_eq!(micros(&possibly), Some(150_000.0));
    assert_eq!(micros(&client.possibly_charged()), Some(150_000.0));
    assert_eq!(micros(&client.spent()), Some(0.0));

    // Already aborted: rejected without sending anything.
    let fast = serpkit::js::JsClient::new(compact_options(KEY, None)).unwrap();
    let done = Object::new();
    Reflect::set(&done, &"signal".into(), &controller.signal()).unwrap();
    let err = JsFuture::from(fast.call("related".into(), request, Some(done.into())))
        .await
        .unwrap_err();
    assert_eq!(
        Reflect::get(&err, &"code".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("aborted")
    );
    sleep(Duration::from_millis(50)).await;
    // Only the delayed call reached the sandbox. (The sandbox charges it on arrival, as a
    // service may charge a request whose answer the caller gave up on; the client counts it
    // as possibly charged.)
    let (entries, _) = ledger().await;
    let faults: Vec<Option<&str>> = entries.iter().map(|e| e.3.as_deref()).collect();
    assert_eq!(faults, [Some("delay=5000")]);
}

#[wasm_bindgen_test]
async fn retries_honour_retry_after_without_double_charge() {
    reset_ledger().await;
    let mut c = config(&format!("{KEY}+rate_limit_once"));
    c.retry = RetryPolicy::default();
    let client = Client::with_fetch(c);
    let t0 = now_ms();
    let reply = client.call_raw(&related_req().into(), None).await.unwrap();
    let took = now_ms() - t0;
    assert_eq!(reply.attempts, 2);
    assert!(took >= 950.0, "waited the 1 s Retry-After ({took} ms)");
    assert!(took < 5000.0);
    let (entries, total) = ledger().await;
    let statuses: Vec<(u16, Usd)> = entries.iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(statuses, vec![(429, Usd::ZERO), (200, RELATED)]);
    assert_eq!(total, RELATED, "charged once");
    assert_eq!(client.spent(), RELATED);
}

#[wasm_bindgen_test]
async fn budget_stops_a_call_before_it_is_sent() {
    reset_ledger().await;
    let mut c = config(KEY);
    c.budget = Some(Usd::from_micros(600_000));
    let client = Client::with_fetch(c);
    client
        .outline_seo(outline_seo::Request {
            key: Default::default(),
            keyword: "trail shoes".into(),
        })
        .await
        .unwrap();
    match client.related(related_req()).await {
        Err(Error::BudgetExceeded {
            estimate,
            spent,
            budget,
        }) => {
            assert_eq!(estimate, RELATED);
            assert_eq!(spent, Usd::from_micros(500_000));
            assert_eq!(budget, Usd::from_micros(600_000));
        }
        other => panic!("expected budget_exceeded: {other:?}"),
    }
    let (entries, _) = ledger().await;
    let ops: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(ops, ["outline/seo"], "the related call was never sent");
}

/// `drop_body` and `redirect` through the real `fetch`: a 200 whose body is cut off is
/// `body_lost`, charged and not retried; a redirect is never followed (the key stays put),
/// never retried and not charged: the answer it is (`redirect: "manual"`, which a browser
/// shows as an `opaqueredirect` of status 0), a `redirect` error.
#[wasm_bindgen_test]
async fn lost_bodies_and_redirects_through_fetch() {
    reset_ledger().await;
    let mut c = config(&format!("{KEY}+drop_body"));
    c.retry = RetryPolicy::default();
    let client = Client::with_fetch(c);
    match client.related(related_req()).await {
        Err(e @ Error::BodyLost { status: 200, .. }) => assert_eq!(e.charge(), RELATED),
        other => panic!("drop_body: {other:?}"),
    }
    assert_eq!(client.spent(), RELATED);
    let (entries, total) = ledger().await;
    assert_eq!(entries.len(), 1, "not retried");
    assert_eq!(total, client.spent() + client.possibly_charged());

    reset_ledger().await;
    let mut c = config(&format!("{KEY}+redirect"));
    c.retry = RetryPolicy::default();
    let client = Client::with_fetch(c);
    let r = client.related(related_req()).await;
    match &r {
        Err(e @ Error::Http { status: 0, .. }) => assert_eq!(e.code(), "redirect"),
        other => panic!("redirect: {other:?}"),
    }
    let (entries, total) = ledger().await;
    assert!(
        entries.iter().all(|e| e.0 != "redirected"),
        "the redirect was not followed: {entries:?}"
    );
    assert_eq!(entries.len(), 1, "one arrival: not retried");
    assert_eq!((total, client.spent()), (Usd::ZERO, Usd::ZERO));
    assert_eq!(client.possibly_charged(), Usd::ZERO);
}
