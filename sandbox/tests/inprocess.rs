//! The in-process transport: demo mode with no set-up, real prices on the ledger, simulated
//! timeouts and body limits, and the same answers as the HTTP server's core.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use sandbox::{Date, InProcess, DEMO_KEY};
use serpkit::client::{HttpRequest, Transport, TransportError};
use serpkit::{Operation, Usd};

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn request(op: Operation, body: String) -> HttpRequest {
    HttpRequest {
        url: format!("sandbox://demo{}", op.url_path()),
        headers: vec![],
        body,
        timeout: Some(Duration::from_secs(30)),
        max_body_bytes: 64 << 20,
    }
}

fn today() -> Date {
    Date::new(2024, 3, 5).unwrap()
}

#[test]
fn demo_mode_answers_every_operation_and_charges_real_prices() {
    let t = InProcess::demo(today());
    let mut expected = Usd::ZERO;
    for op in Operation::ALL {
        let mut req = sandbox::generate::sample_request(op, 3);
        req.set_key(serpkit::ApiKey::new(DEMO_KEY));
        let r = block_on(t.post(request(op, req.to_json()))).unwrap();
        assert_eq!(r.status, 200, "{op}: {}", r.body);
        assert_eq!(r.body, sandbox::generate::body(&req, today()));
        let report = serpkit::validate::validate(op, &r.body, Some(&req));
        assert!(report.ok() && report.warning_count() == 0, "{op}: {report}");
        expected += serpkit::estimate_cost(&req);
    }
    let l = t.ledger();
    assert_eq!(l.entries.len(), 11);
    assert_eq!(l.total, expected);
    assert!(l.entries.iter().all(|e| e.charge
        == Operation::ALL[e.seq as usize - 1]
            .price()
            .usd
            .times(e.units)));
}

#[test]
fn errors_faults_and_simulated_time() {
    let t = InProcess::demo(today());
    let body = |key: &str| format!(r#"{{"key":"{key}","keyword":"x","ccode":"US"}}"#);
    let post = |b: String| block_on(t.post(request(Operation::Related, b)));
    assert_eq!(post(body("nope")).unwrap().status, 401);
    assert_eq!(post("{".into()).unwrap().status, 400);
    let r = post(body(&format!("{DEMO_KEY}+rate_limit_once"))).unwrap();
    assert_eq!((r.status, r.header("retry-after")), (429, Some("1")));
    assert_eq!(
        post(body(&format!("{DEMO_KEY}+rate_limit_once")))
            .unwrap()
            .status,
        200
    );
    // A delay at least as long as the timeout is a timeout, at once.
    let mut req = request(Operation::Related, body(DEMO_KEY));
    req.headers
        .push(("x-sandbox-fault".into(), "delay=5000".into()));
    req.timeout = Some(Duration::from_millis(100));
    assert_eq!(block_on(t.post(req.clone())), Err(TransportError::Timeout));
    req.timeout = Some(Duration::from_secs(10));
    assert_eq!(block_on(t.post(req)).unwrap().status, 200);
    // A body over the caller's limit.
    let mut req = request(Operation::Related, body(&format!("{DEMO_KEY}+huge=2")));
    req.max_body_bytes = 1 << 20;
    assert_eq!(
        block_on(t.post(req)),
        Err(TransportError::BodyTooLarge {
            limit: 1 << 20,
            status: 200
        })
    );
    let l = t.ledger();
    let statuses: Vec<u16> = l.entries.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [401, 400, 429, 200, 200, 200, 200]);
    // Charged: the success after the 429, both delayed answers (the service answered,
    // late) and the huge body; $0.15 each.
    assert_eq!(l.total, Usd::from_micros(4 * 150_000));
    assert_eq!(l.charged().count(), 4);
}

#[test]
fn drop_body_in_process_is_a_lost_body_and_charged() {
    let t = InProcess::demo(today());
    let body = format!(r#"{{"key":"{DEMO_KEY}","keyword":"trail shoes","ccode":"US"}}"#);
    block_on(t.post(request(Operation::Related, body.clone()))).unwrap();
    let cut = body.replace(DEMO_KEY, &format!("{DEMO_KEY}+drop_body"));
    let r = block_on(t.post(request(Operation::Related, cut)));
    assert!(
        matches!(
            r,
            Err(serpkit::client::TransportError::BodyLost { status: 200, .. })
        ),
        "{r:?}"
    );
    assert_eq!(t.ledger().total, Operation::Related.price().usd.times(2));
    // redirect: a 307 to /redirected, not charged.
    let moved = body.replace(DEMO_KEY, &format!("{DEMO_KEY}+redirect"));
    let r = block_on(t.post(request(Operation::Related, moved))).unwrap();
    assert_eq!(r.status, 307);
    assert_eq!(
        r.headers.iter().find(|(n, _)| n == "location").unwrap().1,
        "/redirected"
    );
    assert_eq!(t.ledger().total, Operation::Related.price().usd.times(2));
}

#[test]
fn reset_in_process_is_a_lost_connection_and_charged() {
    let t = InProcess::demo(today());
    let body = format!(r#"{{"key":"{DEMO_KEY}+reset","keyword":"trail shoes","ccode":"US"}}"#);
    let r = block_on(t.post(request(Operation::Related, body)));
    assert!(
        matches!(r, Err(serpkit::client::TransportError::Network(_))),
        "{r:?}"
    );
    assert_eq!(t.ledger().total, Operation::Related.price().usd);
}

/// `www.` is not another domain: one answer for both spellings, valid for the request as sent.
#[test]
fn www_and_the_bare_domain_get_one_answer() {
    use serpkit::ops::{
        backlink_overview, domainstats, ranked_keywords_domain, ranked_keywords_metrics,
    };
    use serpkit::Request;
    let day = today();
    let make = |d: &str| -> Vec<Request> {
        vec![
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: vec![d.into()],
            }),
            Request::RankedKeywordsMetrics(ranked_keywords_metrics::Request {
                key: Default::default(),
                domain: d.into(),
            }),
            Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
                key: Default::default(),
                domain: d.into(),
            }),
            Request::BacklinkOverview(backlink_overview::Request {
                key: Default::default(),
                domain: d.into(),
            }),
        ]
    };
    for (bare, www) in make("example.com").iter().zip(make("WWW.Example.com")) {
        let (a, b) = (
            sandbox::generate::body(bare, day),
            sandbox::generate::body(&www, day),
        );
        let strip = |s: &str| s.replace(r#","domainAsEntered":"WWW.Example.com""#, "");
        assert_eq!(strip(&a), strip(&b), "{}", bare.operation());
        let report = serpkit::validate::validate(www.operation(), &b, Some(&www));
        assert!(report.ok(), "{}: {report}", www.operation());
    }
}

#[test]
fn demo_mode_answers_a_repeated_ranked_keywords_request_a_day_later() {
    // A Refresh in demo mode buys a domain's ranked keywords again: answered as of the next
    // day, so the position changes show the same day (the HTTP server answers by its date).
    let t = InProcess::demo(today());
    let ranked = |domain: &str| {
        let body = format!(r#"{{"key":"{DEMO_KEY}","domain":"{domain}"}}"#);
        let r = block_on(t.post(request(Operation::RankedKeywordsDomain, body))).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    };
    let req = |domain: &str| {
        serpkit::Request::from_json(
            Operation::RankedKeywordsDomain,
            &format!(r#"{{"domain":"{domain}"}}"#),
        )
        .unwrap()
    };
    let first = ranked("example.com");
    assert_eq!(first, sandbox::generate::body(&req("example.com"), today()));
    let second = ranked("Example.com");
    assert_eq!(
        second,
        sandbox::generate::body(&req("example.com"), today().add_days(1))
    );
    assert_ne!(first, second, "ranks drift from one day to the next");
    // Another domain's first purchase is as of today.
    assert_eq!(
        ranked("example.org"),
        sandbox::generate::body(&req("example.org"), today())
    );
    let server = sandbox::Config::new(today());
    assert!(!server.day_per_repeat && sandbox::Config::demo(today()).day_per_repeat);
}

#[test]
fn later_answers_as_of_days_after_the_sandbox_date_and_is_charged() {
    // A test of tracking over time asks for the service's data a day later with `+later=1`
    // (the HTTP server's date is fixed when it starts).
    let t = InProcess::new(sandbox::Sandbox::new(sandbox::Config::new(today())));
    let ranked = |key: &str| {
        let body = format!(r#"{{"key":"{key}","domain":"example.com"}}"#);
        let r = block_on(t.post(request(Operation::RankedKeywordsDomain, body))).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    };
    let req = serpkit::Request::from_json(
        Operation::RankedKeywordsDomain,
        r#"{"domain":"example.com"}"#,
    )
    .unwrap();
    let key = sandbox::DEFAULT_KEY;
    assert_eq!(ranked(key), sandbox::generate::body(&req, today()));
    assert_eq!(
        ranked(&format!("{key}+later=1")),
        sandbox::generate::body(&req, today().add_days(1))
    );
    assert_eq!(ranked(&format!("{key}+later=0")), ranked(key));
    assert_eq!(t.ledger().charged().count(), 4);
    assert!("later=3651".parse::<sandbox::faults::Fault>().is_err());
}
