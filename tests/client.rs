//! The client against a scripted transport: retries, budget, validation modes, errors,
//! timeouts, cancellation, possibly charged calls, the shared account, key redaction and
//! bulk chunking. (Against the sandbox: tests/records.rs in process, the reset fault over TCP
//! in sandbox/tests/server.rs, and in the browser tests/web_client.rs.)
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

use futures_executor::block_on;
use serpkit::client::{
    Account, BulkOptions, Cancel, Client, ClientConfig, Error, HttpRequest, HttpResponse,
    LocalBoxFuture, RetryPolicy, Transport, TransportError, ValidationMode,
};
use serpkit::ops::{related, search_volume_bulk};
use serpkit::{ApiKey, Usd};

type Step = Result<HttpResponse, TransportError>;

/// Answers with scripted steps (the last one repeats) and records every request.
#[derive(Default)]
struct Script {
    steps: RefCell<VecDeque<Step>>,
    seen: RefCell<Vec<HttpRequest>>,
    delay: Option<Duration>,
    /// When set, answers bulk requests by echoing one record per keyword (except the keyword
    /// "skip me", which gets no record).
    echo_bulk: bool,
    /// Requests handed to the transport (counted before any delay).
    started: std::cell::Cell<usize>,
}

fn ok(body: &str) -> Step {
    Ok(HttpResponse {
        status: 200,
        headers: vec![],
        body: body.into(),
    })
}

fn status(code: u16, retry_after: Option<&str>) -> Step {
    Ok(HttpResponse {
        status: code,
        headers: retry_after
            .map(|v| vec![("retry-after".to_string(), v.to_string())])
            .unwrap_or_default(),
        body: format!(
            r#"{{"error":{{"code":"x","message":"status {code} for key SECRET-KEY-1"}}}}"#
        ),
    })
}

const RELATED_OK: &str =
    r#"[{"keyword":"a","competition":0.5,"cpc":1.0,"search_volume":100,"kd":10}]"#;

impl Transport for Script {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        self.started.set(self.started.get() + 1);
        Box::pin(async move {
            if let Some(d) = self.delay {
                serpkit::client::sleep(d).await;
            }
            let body = request.body.clone();
            self.seen.borrow_mut().push(request);
            if self.echo_bulk {
                let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                let recs: Vec<serde_json::Value> = v["keywords"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|k| *k != "skip me")
                    .map(|k| serde_json::json!({"keyword": k, "ccode": "us"}))
                    .collect();
                return ok(&serde_json::to_string(&recs).unwrap());
            }
            let mut steps = self.steps.borrow_mut();
            if steps.len() > 1 {
                steps.pop_front().unwrap()
            } else {
                steps.front().cloned().unwrap()
            }
        })
    }
}

fn client(script: Script, tweak: impl FnOnce(&mut ClientConfig)) -> (Client, Rc<Script>) {
    let mut config = ClientConfig::new("SECRET-KEY-1");
    config.base_url = "http://127.0.0.1:9".into();
    config.retry = RetryPolicy {
        base_delay: Duration::from_millis(10),
        ..RetryPolicy::default()
    };
    tweak(&mut config);
    let script = Rc::new(script);
    (Client::new(config, script.clone()), script)
}

fn script(steps: Vec<Step>) -> Script {
    Script {
        steps: RefCell::new(steps.into()),
        ..Script::default()
    }
}

fn related_req() -> related::Request {
    related::Request {
        key: ApiKey::default(),
        keyword: "a".into(),
        ccode: "US".into(),
    }
}

#[test]
fn success_charges_the_estimate_and_sends_the_key_in_the_body_only() {
    let (c, s) = client(script(vec![ok(RELATED_OK)]), |_| {});
    let reply = block_on(c.related(related_req())).unwrap();
    assert_eq!(reply.data[0].kd, 10);
    assert_eq!(reply.charge, Usd::from_micros(150_000));
    assert_eq!(c.spent(), Usd::from_micros(150_000));
    assert!(reply.report.unwrap().ok());
    let seen = s.seen.borrow();
    assert_eq!(seen[0].url, "http://127.0.0.1:9/v1/related");
    assert!(!seen[0].url.contains("SECRET"));
    assert!(seen[0].body.contains(r#""key":"SECRET-KEY-1""#));
    assert!(!format!("{:?}", seen[0]).contains("SECRET"));
    assert!(!format!("{c:?}").contains("SECRET"));
}

#[test]
fn retries_429_and_503_honouring_retry_after() {
    let (c, s) = client(
        script(vec![
            status(429, Some("1")),
            status(503, None),
            ok(RELATED_OK),
        ]),
        |_| {},
    );
    let t = Instant::now();
    let reply = block_on(c.call_raw(&related_req().into(), None)).unwrap();
    assert!(
        t.elapsed() >= Duration::from_secs(1),
        "Retry-After: 1 was honoured"
    );
    assert_eq!(reply.attempts, 3);
    assert_eq!(s.seen.borrow().len(), 3);
    assert_eq!(c.spent(), Usd::from_micros(150_000), "charged once");
}

#[test]
fn never_retries_other_statuses_and_redacts_the_key() {
    for code in [400u16, 401, 402, 404, 413, 500, 502] {
        let (c, s) = client(script(vec![status(code, None), ok(RELATED_OK)]), |_| {});
        let err = block_on(c.related(related_req())).unwrap_err();
        assert_eq!(s.seen.borrow().len(), 1, "{code} not retried");
        match &err {
            Error::Http { status, body, .. } => {
                assert_eq!(*status, code);
                assert!(
                    body.contains("***") && !body.contains("SECRET-KEY-1"),
                    "{body}"
                );
            }
            e => panic!("{e:?}"),
        }
        assert!(!err.to_string().contains("SECRET-KEY-1"));
        assert_eq!(c.spent(), Usd::ZERO);
    }
}

#[test]
fn gives_up_after_max_retries() {
    let (c, s) = client(script(vec![status(429, Some("0"))]), |cfg| {
        cfg.retry.max_retries = 2
    });
    let err = block_on(c.related(related_req())).unwrap_err();
    assert!(matches!(err, Error::Http { status: 429, .. }));
    assert_eq!(s.seen.borrow().len(), 3);
    // A Retry-After beyond the limit is not waited for.
    let (c, s) = client(script(vec![status(503, Some("3600"))]), |_| {});
    assert!(block_on(c.related(related_req())).is_err());
    assert_eq!(s.seen.borrow().len(), 1);
}

#[test]
fn a_lost_connection_is_possibly_charged_and_never_repeated() {
    let (c, s) = client(
        script(vec![
            Err(TransportError::Network("reset for key SECRET-KEY-1".into())),
            ok(RELATED_OK),
        ]),
        |_| {},
    );
    let err = block_on(c.related(related_req())).unwrap_err();
    let estimate = Usd::from_micros(150_000);
    match &err {
        Error::ConnectionLost {
            message,
            possible_charge,
        } => {
            assert_eq!(*possible_charge, estimate);
            assert!(
                message.contains("***") && !message.contains("SECRET"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(err.code(), "connection_lost");
    assert_eq!((err.charge(), err.possible_charge()), (Usd::ZERO, estimate));
    assert!(!err.to_string().contains("SECRET") && err.to_string().contains("may have been"));
    assert!(err.hint().contains("not repeated"));
    assert_eq!(s.started.get(), 1, "not retried");
    assert_eq!((c.spent(), c.possibly_charged()), (Usd::ZERO, estimate));

    // Never sent, every time: retried per the policy, then a free network error.
    let (c, s) = client(
        script(vec![Err(TransportError::NotSent("refused".into()))]),
        |_| {},
    );
    let err = block_on(c.related(related_req())).unwrap_err();
    assert!(matches!(err, Error::Network(_)), "{err:?}");
    assert_eq!(s.started.get(), 3, "1 + 2 retries");
    assert_eq!((c.spent(), c.possibly_charged()), (Usd::ZERO, Usd::ZERO));
}

#[test]
fn network_errors_are_retried_timeouts_are_not() {
    let (c, s) = client(
        script(vec![
            Err(TransportError::NotSent("refused".into())),
            ok(RELATED_OK),
        ]),
        |_| {},
    );
    assert!(block_on(c.related(related_req())).is_ok());
    assert_eq!(s.seen.borrow().len(), 2);

    let slow = Script {
        delay: Some(Duration::from_millis(300)),
        ..script(vec![ok(RELATED_OK)])
    };
    let (c, s) = client(slow, |cfg| cfg.timeout = Some(Duration::from_millis(50)));
    let err = block_on(c.related(related_req())).unwrap_err();
    assert_eq!(err.code(), "timeout");
    assert_eq!(
        s.seen.borrow().len(),
        0,
        "the slow attempt was dropped, not retried"
    );
    assert_eq!(s.started.get(), 1, "sent once");
    // Sent, outcome unknown: not spent, possibly charged with its estimate.
    assert_eq!(c.spent(), Usd::ZERO);
    assert_eq!(err.charge(), Usd::ZERO);
    assert_eq!(err.possible_charge(), Usd::from_micros(150_000));
    assert_eq!(c.possibly_charged(), Usd::from_micros(150_000));
    assert!(
        err.to_string().contains("may have been charged $0.1500"),
        "{err}"
    );
    assert!(err.hint().contains("may have been charged"));
    // A transport that reports the timeout itself: the same.
    let (c, s) = client(
        script(vec![Err(TransportError::Timeout), ok(RELATED_OK)]),
        |_| {},
    );
    let err = block_on(c.related(related_req())).unwrap_err();
    assert_eq!(err.possible_charge(), Usd::from_micros(150_000));
    assert_eq!(s.seen.borrow().len(), 1, "not retried");
    assert_eq!(c.possibly_charged(), Usd::from_micros(150_000));
}

#[test]
fn budget_stops_a_call_before_it_is_sent() {
    let (c, s) = client(script(vec![ok(RELATED_OK)]), |cfg| {
        cfg.budget = Some("0.20".parse().unwrap())
    });
    block_on(c.related(related_req())).unwrap();
    let err = block_on(c.related(related_req())).unwrap_err();
    match err {
        Error::BudgetExceeded {
            estimate,
            spent,
            budget,
        } => {
            assert_eq!(estimate.to_string(), "$0.1500");
            assert_eq!(spent.to_string(), "$0.1500");
            assert_eq!(budget.to_string(), "$0.2000");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(s.seen.borrow().len(), 1);
    assert_eq!(c.remaining(), Some(Usd::from_micros(50_000)));
}

#[test]
fn invalid_requests_and_missing_keys_are_not_sent() {
    let (c, s) = client(script(vec![ok(RELATED_OK)]), |_| {});
    let mut bad = related_req();
    bad.ccode = "USA".into();
    let err = block_on(c.related(bad)).unwrap_err();
    assert_eq!(err.code(), "invalid_request");
    assert!(err.to_string().contains("/ccode"));
    let (c2, s2) = client(script(vec![ok(RELATED_OK)]), |cfg| {
        cfg.key = ApiKey::default()
    });
    assert_eq!(
        block_on(c2.related(related_req())).unwrap_err().code(),
        "missing_key"
    );
    assert!(s.seen.borrow().is_empty() && s2.seen.borrow().is_empty());
}

#[test]
fn validation_modes() {
    // kd out of the observed range is a warning; competition as a string is an error.
    let odd = r#"[{"keyword":"a","competition":"0.5","cpc":1.0,"search_volume":100,"kd":10}]"#;
    let (c, _) = client(script(vec![ok(odd)]), |cfg| {
        cfg.validation = ValidationMode::Off
    });
    let r = block_on(c.related(related_req())).unwrap();
    assert!(r.report.is_none());
    assert_eq!(r.data[0].competition, 0.5, "lenient decode");

    let (c, _) = client(script(vec![ok(odd)]), |_| {});
    let r = block_on(c.related(related_req())).unwrap();
    let report = r.report.unwrap();
    assert!(!report.ok());
    assert_eq!(report.errors().next().unwrap().path, "/0/competition");

    let (c, _) = client(script(vec![ok(odd)]), |cfg| {
        cfg.validation = ValidationMode::Strict
    });
    let err = block_on(c.related(related_req())).unwrap_err();
    assert_eq!(err.code(), "contract_violation");
    assert_eq!(
        err.charge(),
        Usd::from_micros(150_000),
        "the service answered: charged"
    );
    assert_eq!(c.spent(), Usd::from_micros(150_000));
}

#[test]
fn broken_bodies_are_typed_errors() {
    let (c, _) = client(script(vec![ok("<html>oops</html>")]), |_| {});
    let err = block_on(c.related(related_req())).unwrap_err();
    match &err {
        Error::NotJson { error, .. } => assert_eq!((error.line, error.column), (1, 1)),
        e => panic!("{e:?}"),
    }
    let (c, _) = client(script(vec![ok(&RELATED_OK[..30])]), |_| {});
    assert_eq!(
        block_on(c.related(related_req())).unwrap_err().code(),
        "not_json"
    );
    let (c, _) = client(script(vec![ok(r#"{"not":"an array"}"#)]), |_| {});
    assert_eq!(
        block_on(c.related(related_req())).unwrap_err().code(),
        "decode"
    );
    let (c, _) = client(
        script(vec![Err(TransportError::BodyTooLarge {
            limit: 10,
            status: 200,
        })]),
        |_| {},
    );
    let err = block_on(c.related(related_req())).unwrap_err();
    assert_eq!(err.code(), "body_too_large");
    // The service answered 200: charged, and counted as spent.
    assert_eq!(err.charge(), Usd::from_micros(150_000));
    assert_eq!(c.spent(), Usd::from_micros(150_000));
    let (c, _) = client(
        script(vec![Err(TransportError::BodyTooLarge {
            limit: 10,
            status: 500,
        })]),
        |_| {},
    );
    assert_eq!(
        block_on(c.related(related_req())).unwrap_err().charge(),
        Usd::ZERO
    );
    assert_eq!(c.spent(), Usd::ZERO);
}

#[test]
fn cancel_aborts_a_call_in_flight() {
    let slow = Script {
        delay: Some(Duration::from_millis(500)),
        ..script(vec![ok(RELATED_OK)])
    };
    let (c, _) = client(slow, |_| {});
    let cancel = Cancel::new();
    let c2 = cancel.clone();
    let req = related_req().into();
    let fut = c.call_raw(&req, Some(&cancel));
    // Cancel from a timer on the same task: race the call against a short sleep.
    let both = async {
        let mut fut = std::pin::pin!(fut);
        let mut timer = serpkit::client::sleep(Duration::from_millis(30));
        std::future::poll_fn(|cx| {
            if timer.as_mut().poll(cx).is_ready() {
                c2.cancel();
            }
            fut.as_mut().poll(cx)
        })
        .await
    };
    use std::future::Future;
    let err = block_on(both).unwrap_err();
    assert_eq!(err.code(), "aborted");
    // Cancelled after it was handed to the transport: possibly charged.
    assert_eq!(c.spent(), Usd::ZERO);
    assert_eq!(err.possible_charge(), Usd::from_micros(150_000));
    assert_eq!(c.possibly_charged(), Usd::from_micros(150_000));
}

fn keywords(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("keyword {i}")).collect()
}

#[test]
fn bulk_chunks_merge_in_request_order_with_progress() {
    let (c, s) = client(
        Script {
            echo_bulk: true,
            ..Script::default()
        },
        |cfg| cfg.validation = ValidationMode::Off,
    );
    let kws = keywords(2_500);
    let mut progress = vec![];
    let out = block_on(c.search_volume_bulk_chunked(
        &kws,
        "US",
        BulkOptions {
            chunk_size: 1_000,
            concurrency: 2,
        },
        |p| progress.push(p),
        None,
    ));
    assert!(out.stopped.is_none());
    assert_eq!(s.seen.borrow().len(), 3);
    let got: Vec<_> = out.records.iter().map(|r| r.keyword.clone()).collect();
    assert_eq!(got, kws);
    assert_eq!(progress.len(), 3);
    assert_eq!(progress.last().unwrap().done_keywords, 2_500);
    assert_eq!(out.charge, search_volume_bulk::PRICE.usd.times(2_500));
    assert_eq!(c.spent(), out.charge);
}

#[test]
fn bulk_stops_at_the_budget_and_keeps_what_was_bought() {
    let (c, s) = client(
        Script {
            echo_bulk: true,
            ..Script::default()
        },
        // 1,000 keywords cost $0.30: the budget allows two chunks.
        |cfg| cfg.budget = Some("0.70".parse().unwrap()),
    );
    let kws = keywords(5_000);
    let out = block_on(c.search_volume_bulk_chunked(
        &kws,
        "US",
        BulkOptions {
            chunk_size: 1_000,
            concurrency: 1,
        },
        |_| {},
        None,
    ));
    assert_eq!(out.stopped.as_ref().unwrap().code(), "budget_exceeded");
    assert_eq!(s.seen.borrow().len(), 2);
    assert_eq!(out.records.len(), 2_000);
    assert_eq!(out.missing, kws[2_000..].to_vec());
    assert_eq!(c.spent().to_string(), "$0.6000");
}

#[test]
fn bulk_cancelled_before_start_sends_nothing() {
    let (c, s) = client(
        Script {
            echo_bulk: true,
            ..Script::default()
        },
        |_| {},
    );
    let cancel = Cancel::new();
    cancel.cancel();
    let out = block_on(c.search_volume_bulk_chunked(
        &keywords(10),
        "US",
        BulkOptions::default(),
        |_| {},
        Some(&cancel),
    ));
    assert_eq!(out.stopped.unwrap().code(), "aborted");
    assert_eq!(out.missing.len(), 10);
    assert!(s.seen.borrow().is_empty());
}

#[test]
fn bulk_raw_joins_the_chunks_arrays_as_written() {
    let (c, s) = client(
        Script {
            echo_bulk: true,
            ..Script::default()
        },
        |_| {},
    );
    let kws = keywords(2_500);
    let opts = BulkOptions {
        chunk_size: 1_000,
        concurrency: 2,
    };
    let raw = block_on(c.search_volume_bulk_chunked_raw(&kws, "US", opts, |_| {}, None));
    assert!(raw.stopped.is_none());
    assert_eq!(raw.reports.len(), 3);
    let typed = block_on(c.search_volume_bulk_chunked(&kws, "US", opts, |_| {}, None));
    let parsed: Vec<search_volume_bulk::SearchVolumeRecord> =
        serde_json::from_str(&raw.records).unwrap();
    assert_eq!(parsed, typed.records);
    assert_eq!(raw.charge, typed.charge);
    assert_eq!(s.seen.borrow().len(), 6);
}

#[test]
fn bulk_raw_takes_empty_arrays_and_refuses_a_body_that_is_not_an_array() {
    let (c, _) = client(script(vec![ok(" [ ] "), ok("[]")]), |cfg| {
        cfg.validation = ValidationMode::Off
    });
    let opts = BulkOptions {
        chunk_size: 1,
        concurrency: 1,
    };
    let out = block_on(c.search_volume_bulk_chunked_raw(&keywords(2), "US", opts, |_| {}, None));
    assert!(out.stopped.is_none());
    assert_eq!(out.records, "[]");

    let (c, _) = client(script(vec![ok(r#"{"a":1}"#)]), |cfg| {
        cfg.validation = ValidationMode::Off
    });
    let out = block_on(c.search_volume_bulk_chunked_raw(&keywords(1), "US", opts, |_| {}, None));
    let e = out.stopped.unwrap();
    assert_eq!(e.code(), "decode");
    assert_eq!(out.missing, keywords(1));
    assert_eq!(out.records, "[]");
    assert_eq!(out.charge, search_volume_bulk::PRICE.usd);

    // Refused before sending (an empty keyword): still an empty array, nothing charged.
    let kws = vec!["a".to_string(), String::new()];
    let out = block_on(c.search_volume_bulk_chunked_raw(&kws, "US", opts, |_| {}, None));
    assert_eq!(out.stopped.unwrap().code(), "invalid_request");
    assert_eq!((out.records.as_str(), out.missing), ("[]", kws));
}

/// Polls `fut`, cancelling `cancel` once `after` has passed.
fn cancel_after<F: std::future::Future>(fut: F, cancel: &Cancel, after: Duration) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut timer = serpkit::client::sleep(after);
    block_on(std::future::poll_fn(|cx| {
        if timer.as_mut().poll(cx).is_ready() {
            cancel.cancel();
        }
        fut.as_mut().poll(cx)
    }))
}

const REL: Usd = Usd::from_micros(150_000);

#[test]
fn an_abort_before_sending_or_during_a_retry_wait_is_not_possibly_charged() {
    // Cancelled before the call: nothing handed to the transport.
    let (c, s) = client(script(vec![ok(RELATED_OK)]), |_| {});
    let cancel = Cancel::new();
    cancel.cancel();
    let err = block_on(c.call_raw(&related_req().into(), Some(&cancel))).unwrap_err();
    assert_eq!(err.code(), "aborted");
    assert_eq!(err.possible_charge(), Usd::ZERO);
    assert_eq!(err.to_string(), "aborted");
    assert_eq!(s.started.get(), 0);
    assert_eq!((c.spent(), c.possibly_charged()), (Usd::ZERO, Usd::ZERO));

    // Cancelled while waiting out a 429's Retry-After: the 429 was not charged.
    let (c, s) = client(script(vec![status(429, Some("5")), ok(RELATED_OK)]), |_| {});
    let cancel = Cancel::new();
    let req = related_req().into();
    let t = Instant::now();
    let err = cancel_after(
        c.call_raw(&req, Some(&cancel)),
        &cancel,
        Duration::from_millis(50),
    )
    .unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(2), "aborted the wait");
    assert_eq!(err.code(), "aborted");
    assert_eq!(err.possible_charge(), Usd::ZERO);
    assert_eq!(s.started.get(), 1);
    assert_eq!(c.possibly_charged(), Usd::ZERO);

    // The same after a network error before any response.
    let (c, _) = client(
        script(vec![Err(TransportError::NotSent("refused".into()))]),
        |cfg| cfg.retry.base_delay = Duration::from_secs(5),
    );
    let cancel = Cancel::new();
    let err = cancel_after(
        c.call_raw(&req, Some(&cancel)),
        &cancel,
        Duration::from_millis(50),
    )
    .unwrap_err();
    assert_eq!((err.code(), err.possible_charge()), ("aborted", Usd::ZERO));
}

#[test]
fn a_lost_success_body_is_charged_and_never_retried() {
    let lost = |status| {
        Err(TransportError::BodyLost {
            status,
            message: "connection reset while reading SECRET-KEY-1's answer".into(),
        })
    };
    let (c, s) = client(script(vec![lost(200), ok(RELATED_OK)]), |_| {});
    let err = block_on(c.related(related_req())).unwrap_err();
    match &err {
        Error::BodyLost {
            status,
            message,
            charge,
        } => {
            assert_eq!((*status, *charge), (200, REL));
            assert!(!message.contains("SECRET-KEY-1") && message.contains("***"));
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(err.code(), "body_lost");
    assert_eq!(err.charge(), REL);
    assert_eq!(err.possible_charge(), Usd::ZERO);
    assert_eq!(s.seen.borrow().len(), 1, "never retried");
    assert_eq!(c.spent(), REL);
    assert_eq!(c.charged_calls(), 1);
    assert!(!err.to_string().contains("SECRET-KEY-1"));

    // A 503 whose body was lost: an HTTP 503 with an empty body, retried as a 503 is.
    let (c, s) = client(script(vec![lost(503), ok(RELATED_OK)]), |_| {});
    let reply = block_on(c.call_raw(&related_req().into(), None)).unwrap();
    assert_eq!((reply.attempts, s.seen.borrow().len()), (2, 2));
    assert_eq!(c.spent(), REL, "charged once");
    // A 500 whose body was lost: not charged, not retried.
    let (c, s) = client(script(vec![lost(500), ok(RELATED_OK)]), |_| {});
    match block_on(c.related(related_req())).unwrap_err() {
        Error::Http { status, body, .. } => assert_eq!((status, body.as_str()), (500, "")),
        e => panic!("{e:?}"),
    }
    assert_eq!(s.seen.borrow().len(), 1);
    assert_eq!((c.spent(), c.possibly_charged()), (Usd::ZERO, Usd::ZERO));
}

#[test]
fn possibly_charged_calls_count_against_the_budget() {
    let slow = Script {
        delay: Some(Duration::from_millis(300)),
        ..script(vec![ok(RELATED_OK)])
    };
    // $0.40: a timed-out related ($0.15, possibly charged) and a done one leave $0.10.
    let (c, s) = client(slow, |cfg| {
        cfg.budget = Some("0.40".parse().unwrap());
        cfg.timeout = Some(Duration::from_millis(50));
    });
    assert_eq!(
        block_on(c.related(related_req())).unwrap_err().code(),
        "timeout"
    );
    assert_eq!(c.remaining(), Some(Usd::from_micros(250_000)));
    let fast = Client::with_account(
        ClientConfig {
            timeout: None,
            ..c.config().clone()
        },
        Rc::new(script(vec![ok(RELATED_OK)])),
        c.account().clone(),
    );
    block_on(fast.related(related_req())).unwrap();
    assert_eq!(c.remaining(), Some(Usd::from_micros(100_000)));
    match block_on(fast.related(related_req())).unwrap_err() {
        Error::BudgetExceeded { spent, .. } => {
            assert_eq!(spent, Usd::from_micros(300_000), "spent + possibly charged")
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(s.started.get(), 1);
    assert_eq!(fast.spent(), REL);
    assert_eq!(fast.possibly_charged(), REL);
}

#[test]
fn clients_on_one_account_share_the_spend_and_the_budget() {
    let account = Account::new();
    let config = |budget: &str| {
        let mut cfg = ClientConfig::new("SECRET-KEY-1");
        cfg.budget = Some(budget.parse().unwrap());
        cfg
    };
    let a = Client::with_account(
        config("0.20"),
        Rc::new(script(vec![ok(RELATED_OK)])),
        account.clone(),
    );
    block_on(a.related(related_req())).unwrap();
    // A client rebuilt with new settings on the same account: the same spend.
    let b = Client::with_account(
        config("0.25"),
        Rc::new(script(vec![ok(RELATED_OK)])),
        account.clone(),
    );
    assert_eq!(b.spent(), REL);
    assert_eq!(b.remaining(), Some(Usd::from_micros(100_000)));
    assert_eq!(
        block_on(b.related(related_req())).unwrap_err().code(),
        "budget_exceeded"
    );
    assert_eq!((account.spent(), account.charged_calls()), (REL, 1));
    assert_eq!(account.possibly_charged(), Usd::ZERO);
    // A fresh client has a fresh account.
    let c = Client::new(config("0.20"), Rc::new(script(vec![ok(RELATED_OK)])));
    assert_eq!(c.spent(), Usd::ZERO);
}

#[test]
fn bulk_cancel_lets_chunks_in_flight_finish_and_starts_no_new_one() {
    let (c, s) = client(
        Script {
            echo_bulk: true,
            delay: Some(Duration::from_millis(200)),
            ..Script::default()
        },
        |_| {},
    );
    let kws = keywords(50);
    let cancel = Cancel::new();
    let out = cancel_after(
        c.search_volume_bulk_chunked(
            &kws,
            "US",
            BulkOptions {
                chunk_size: 10,
                concurrency: 2,
            },
            |_| {},
            Some(&cancel),
        ),
        &cancel,
        Duration::from_millis(50),
    );
    assert_eq!(s.started.get(), 2, "no chunk started after the cancel");
    assert_eq!(s.seen.borrow().len(), 2, "both chunks in flight finished");
    let got: Vec<_> = out.records.iter().map(|r| r.keyword.clone()).collect();
    assert_eq!(got, kws[..20].to_vec(), "and their records are kept");
    assert_eq!(out.missing, kws[20..].to_vec());
    assert_eq!(out.stopped.unwrap().code(), "aborted");
    let bought = search_volume_bulk::PRICE.usd.times(20);
    assert_eq!((out.charge, c.spent()), (bought, bought));
    assert_eq!(out.possibly_charged, Usd::ZERO);
}

#[test]
fn a_timed_out_bulk_chunk_is_possibly_charged() {
    let (c, _) = client(
        Script {
            echo_bulk: true,
            delay: Some(Duration::from_millis(300)),
            ..Script::default()
        },
        |cfg| cfg.timeout = Some(Duration::from_millis(50)),
    );
    let kws = keywords(15);
    let opts = BulkOptions {
        chunk_size: 10,
        concurrency: 2,
    };
    let out = block_on(c.search_volume_bulk_chunked_raw(&kws, "US", opts, |_| {}, None));
    assert_eq!(out.stopped.as_ref().unwrap().code(), "timeout");
    assert_eq!(out.charge, Usd::ZERO);
    assert_eq!(
        out.possibly_charged,
        search_volume_bulk::PRICE.usd.times(15)
    );
    assert_eq!(c.possibly_charged(), out.possibly_charged);
    assert_eq!(out.missing, kws);
}

#[test]
fn bulk_reports_say_where_each_chunks_records_start() {
    let (c, _) = client(
        Script {
            echo_bulk: true,
            ..Script::default()
        },
        |_| {},
    );
    // The first chunk's answer is one record short: the second chunk's records start at 9.
    let mut kws = keywords(25);
    kws[3] = "skip me".into();
    let opts = BulkOptions {
        chunk_size: 10,
        concurrency: 2,
    };
    let typed = block_on(c.search_volume_bulk_chunked(&kws, "US", opts, |_| {}, None));
    let raw = block_on(c.search_volume_bulk_chunked_raw(&kws, "US", opts, |_| {}, None));
    assert_eq!(typed.records.len(), 24);
    for reports in [&typed.reports, &raw.reports] {
        let at: Vec<_> = reports.iter().map(|r| (r.chunk, r.first_record)).collect();
        assert_eq!(at, [(0, 0), (1, 9), (2, 19)]);
    }
    assert_eq!(typed.records[9].keyword, "keyword 10");
}

/// [`Transport::after_answer`] exists with the `journal` feature (the app's).
#[cfg(feature = "journal")]
mod hand_over {
    use super::*;

    /// Answers at once, then hands the answer on slowly (as the app's transport yields to a new
    /// task in [`Transport::after_answer`]).
    struct SlowHandOver(Script, Duration);

    impl Transport for SlowHandOver {
        fn post(
            &self,
            request: HttpRequest,
        ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
            self.0.post(request)
        }

        fn after_answer(&self) -> LocalBoxFuture<'_, ()> {
            Box::pin(serpkit::client::sleep(self.1))
        }
    }

    #[test]
    fn an_answer_being_handed_on_is_kept_through_a_cancel_and_the_timeout() {
        let mut config = ClientConfig::new("SECRET-KEY-1");
        config.base_url = "http://127.0.0.1:9".into();
        config.timeout = Some(Duration::from_millis(20));
        let transport = Rc::new(SlowHandOver(
            script(vec![ok(RELATED_OK)]),
            Duration::from_millis(200),
        ));
        let c = Client::new(config, transport.clone());
        let cancel = Cancel::new();
        // Cancelled, and past the timeout, while the answer that arrived is handed on: it was
        // paid for, so it is the call's outcome.
        let reply = cancel_after(
            c.call_raw(&related_req().into(), Some(&cancel)),
            &cancel,
            Duration::from_millis(50),
        )
        .expect("the answer that arrived is kept");
        assert!(cancel.is_cancelled());
        assert_eq!(reply.charge, REL);
        assert_eq!((c.spent(), c.possibly_charged()), (REL, Usd::ZERO));
        assert_eq!(transport.0.started.get(), 1);
    }
}

#[test]
fn a_team_server_answer_counts_what_it_states_it_cost() {
    // The team server answered from its team's records (nothing charged) or says the answer
    // may have been charged (swept while it ran): the meter counts that, never more than the
    // estimate, and only for a client told its base URL is a team server.
    let stated = |cost: &str, possible: &str| {
        Ok(HttpResponse {
            status: 200,
            headers: vec![
                ("x-serpkit-cost".to_string(), cost.to_string()),
                (
                    "x-serpkit-possibly-charged".to_string(),
                    possible.to_string(),
                ),
            ],
            body: RELATED_OK.into(),
        })
    };
    let steps = || {
        vec![
            stated("0.0000", "0.0000"),
            stated("0.0000", "0.1500"),
            stated("9.00", "0"),
        ]
    };
    let (team, _) = client(script(steps()), |c| c.stated_costs = true);
    let charges: Vec<i64> = (0..3)
        .map(|_| {
            block_on(team.related(related_req()))
                .unwrap()
                .charge
                .micros()
        })
        .collect();
    assert_eq!(charges, [0, 0, 150_000]);
    assert_eq!(team.spent(), Usd::from_micros(150_000));
    assert_eq!(team.possibly_charged(), Usd::from_micros(150_000));
    // The service itself (or a client not told otherwise) counts the estimate.
    let (plain, _) = client(script(steps()), |_| {});
    for _ in 0..3 {
        block_on(plain.related(related_req())).unwrap();
    }
    assert_eq!(plain.spent(), Usd::from_micros(450_000));
    assert_eq!(plain.possibly_charged(), Usd::ZERO);
}
