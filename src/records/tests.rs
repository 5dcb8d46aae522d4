//! The planner and the merge on hand-written bodies (the client's use of them, against the
//! sandbox, is tested in `tests/records.rs`).

use std::collections::HashMap;

use super::*;
use crate::ops::{backlink_metrics, domainstats, search_volume_bulk, search_volume_single};
use crate::validate::{Issue, Report, Severity};
use crate::{Request, Usd};

const LIVE: &str = "https://api.example.com";

fn bulk(keywords: &[&str], ccode: &str) -> Request {
    Request::SearchVolumeBulk(search_volume_bulk::Request {
        key: Default::default(),
        keywords: keywords.iter().map(|k| k.to_string()).collect(),
        ccode: ccode.into(),
    })
}

fn single(keyword: &str) -> Request {
    Request::SearchVolumeSingle(search_volume_single::Request {
        key: Default::default(),
        keyword: keyword.into(),
        ccode: "US".into(),
    })
}

fn sv(keyword: &str, volume: i64) -> String {
    format!(r#"{{"ccode":"us","keyword":"{keyword}","SEARCH_VOLUME":{volume}}}"#)
}

fn record(json: String, at: f64) -> StoredRecord {
    StoredRecord {
        json,
        bought_at_ms: at,
        issues: Vec::new(),
        imported: false,
    }
}

/// A store as a map, filled by buying `keywords` (US) from `source` at time `at`.
fn store_of(source: &str, keywords: &[&str], at: f64) -> HashMap<RecordKey, StoredRecord> {
    keywords
        .iter()
        .map(|k| {
            (
                key::search_volume_key(source, "US", k),
                record(sv(k, 10), at),
            )
        })
        .collect()
}

fn plan(
    request: &Request,
    source: &str,
    store: &HashMap<RecordKey, StoredRecord>,
    options: PlanOptions,
) -> Plan {
    let (_, keys) = request_keys(request, source).expect("per-record operation");
    let found = keys.iter().map(|k| store.get(k).cloned()).collect();
    Plan::new(request, source, found, &options).expect("per-record operation")
}

fn keywords_of(request: &Option<Request>) -> Vec<String> {
    match request {
        Some(Request::SearchVolumeBulk(q)) => q.keywords.clone(),
        other => panic!("not a bulk request: {other:?}"),
    }
}

#[test]
fn ten_bought_plus_one_new_costs_one_keyword() {
    let ten: Vec<String> = (0..10).map(|i| format!("kw {i}")).collect();
    let ten_refs: Vec<&str> = ten.iter().map(String::as_str).collect();
    let store = store_of(LIVE, &ten_refs, 1.0);
    let mut asked = ten_refs.clone();
    asked.push("new one");
    let p = plan(&bulk(&asked, "US"), LIVE, &store, PlanOptions::default());
    assert_eq!(keywords_of(&p.to_buy), vec!["new one"]);
    assert_eq!(p.estimate, Usd::from_micros(300));
    assert_eq!((p.new_records(), p.reused()), (1, 10));
    assert_eq!(p.summary(), "1 new keyword · 10 already bought");

    let all = plan(&bulk(&ten_refs, "US"), LIVE, &store, PlanOptions::default());
    assert!(all.to_buy.is_none());
    assert_eq!(all.estimate, Usd::ZERO);
    assert_eq!(all.summary(), "all 10 keywords already bought");
    let merged = all.merge(None, false);
    assert_eq!(merged.from_store, 10);
    assert!(merged.report.is_none());
    let expected: Vec<String> = ten.iter().map(|k| sv(k, 10)).collect();
    assert_eq!(merged.body, format!("[{}]", expected.join(",")));
}

#[test]
fn keys_normalise_keywords_and_countries_and_keep_sources_apart() {
    let store = store_of(LIVE, &["Running Shoes"], 1.0);
    let p = plan(
        &bulk(&["  running   SHOES "], "us"),
        LIVE,
        &store,
        PlanOptions::default(),
    );
    assert_eq!(p.reused(), 1);
    // Another country, another source: bought again.
    let gb = plan(
        &bulk(&["running shoes"], "GB"),
        LIVE,
        &store,
        PlanOptions::default(),
    );
    assert_eq!(gb.new_records(), 1);
    let demo = plan(
        &bulk(&["running shoes"], "US"),
        "sandbox://demo",
        &store,
        PlanOptions::default(),
    );
    assert_eq!(demo.new_records(), 1);
}

#[test]
fn stale_imported_and_refreshed_records_are_bought_again() {
    let mut store = store_of(LIVE, &["a", "b"], 1_000.0);
    store
        .get_mut(&key::search_volume_key(LIVE, "US", "b"))
        .unwrap()
        .bought_at_ms = 9_000.0;
    let opts = PlanOptions {
        now_ms: 10_000.0,
        max_age_ms: Some(5_000.0),
        refresh: false,
    };
    let p = plan(&bulk(&["a", "b"], "US"), LIVE, &store, opts);
    assert_eq!(keywords_of(&p.to_buy), vec!["a"]);
    assert_eq!(p.stale, 1);
    // No expiry by default.
    let p = plan(
        &bulk(&["a", "b"], "US"),
        LIVE,
        &store,
        PlanOptions {
            now_ms: 1e15,
            ..PlanOptions::default()
        },
    );
    assert!(p.to_buy.is_none());
    let refresh = plan(
        &bulk(&["a", "b"], "US"),
        LIVE,
        &store,
        PlanOptions {
            refresh: true,
            ..PlanOptions::default()
        },
    );
    assert_eq!(keywords_of(&refresh.to_buy), vec!["a", "b"]);
    assert_eq!(refresh.estimate, Usd::from_micros(600));
    for r in store.values_mut() {
        r.imported = true;
    }
    let imported = plan(
        &bulk(&["a", "b"], "US"),
        LIVE,
        &store,
        PlanOptions::default(),
    );
    assert_eq!(imported.new_records(), 2);
}

#[test]
fn single_and_bulk_share_records() {
    let store = store_of(LIVE, &["trail shoes"], 1.0);
    let p = plan(&single("Trail Shoes"), LIVE, &store, PlanOptions::default());
    assert!(p.to_buy.is_none());
    let merged = p.merge(None, true);
    assert_eq!(merged.body, sv("trail shoes", 10));
    assert!(merged.report.as_ref().is_some_and(Report::ok));

    // A bought single record answers a later bulk call.
    let empty = HashMap::new();
    let p = plan(
        &single("hiking boots"),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    assert!(matches!(p.to_buy, Some(Request::SearchVolumeSingle(_))));
    assert_eq!(p.estimate, Usd::from_micros(300));
    let body = sv("hiking boots", 70);
    let merged = p.merge(
        Some(Bought {
            body: &body,
            report: None,
            at_ms: 5.0,
        }),
        true,
    );
    assert_eq!(merged.body, body);
    assert_eq!(merged.fresh.len(), 1);
    let store: HashMap<_, _> = merged.fresh.into_iter().collect();
    let p = plan(
        &bulk(&["hiking boots", "trail shoes"], "US"),
        LIVE,
        &store,
        PlanOptions::default(),
    );
    assert_eq!(keywords_of(&p.to_buy), vec!["trail shoes"]);
}

#[test]
fn merge_puts_records_in_request_order_and_maps_issue_paths() {
    let mut store = store_of(LIVE, &["b"], 1.0);
    store
        .get_mut(&key::search_volume_key(LIVE, "US", "b"))
        .unwrap()
        .issues
        .push(Issue {
            path: "/SEARCH_VOLUME".into(),
            code: "range",
            severity: Severity::Warning,
            message: "stored".into(),
        });
    let p = plan(
        &bulk(&["a", "b", "c"], "US"),
        LIVE,
        &store,
        PlanOptions::default(),
    );
    assert_eq!(keywords_of(&p.to_buy), vec!["a", "c"]);
    // The service answers the sub-request [a, c] (in its order) with an issue on `c`.
    let body = format!("[{},{}]", sv("a", 1), sv("c", 3));
    let sub = Report::from_parts(
        vec![
            Issue {
                path: "/1/keyword".into(),
                code: "type",
                severity: Severity::Error,
                message: "new".into(),
            },
            Issue {
                path: String::new(),
                code: "record_count",
                severity: Severity::Error,
                message: "whole".into(),
            },
        ],
        0,
        0,
    );
    let m = p.merge(
        Some(Bought {
            body: &body,
            report: Some(&sub),
            at_ms: 2.0,
        }),
        true,
    );
    assert_eq!(
        m.body,
        format!("[{},{},{}]", sv("a", 1), sv("b", 10), sv("c", 3))
    );
    let report = m.report.expect("validated");
    let paths: Vec<(&str, &str)> = report
        .issues
        .iter()
        .map(|i| (i.path.as_str(), i.code))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("/1/SEARCH_VOLUME", "range"),
            ("/2/keyword", "type"),
            ("", "record_count")
        ]
    );
    assert_eq!((report.error_count(), report.warning_count()), (2, 1));
    // New records keep their own issues, relative to the record.
    let c = m
        .fresh
        .iter()
        .find(|(k, _)| *k == key::search_volume_key(LIVE, "US", "c"))
        .unwrap();
    assert_eq!(c.1.issues[0].path, "/keyword");
    assert_eq!(c.1.bought_at_ms, 2.0);
    assert_eq!(m.fresh.len(), 2);
}

#[test]
fn duplicates_are_bought_once_and_answered_everywhere() {
    let empty = HashMap::new();
    let p = plan(
        &bulk(&["a", "A ", "b"], "US"),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    assert_eq!(keywords_of(&p.to_buy), vec!["a", "b"]);
    assert_eq!(p.estimate, Usd::from_micros(600));
    let body = format!("[{},{}]", sv("a", 1), sv("b", 2));
    let m = p.merge(
        Some(Bought {
            body: &body,
            report: None,
            at_ms: 1.0,
        }),
        false,
    );
    assert_eq!(
        m.body,
        format!("[{},{},{}]", sv("a", 1), sv("a", 1), sv("b", 2))
    );
    assert!(m.report.is_none());
}

#[test]
fn unmatched_and_claimed_twice_records_stay_but_are_not_stored() {
    let empty = HashMap::new();
    let p = plan(
        &bulk(&["a", "b"], "US"),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    // `a` comes twice, `b` not at all, and a stranger `z`.
    let body = format!("[{},{},{}]", sv("a", 1), sv("z", 9), sv("A", 2));
    let sub = Report::from_parts(Vec::new(), 0, 0);
    let m = p.merge(
        Some(Bought {
            body: &body,
            report: Some(&sub),
            at_ms: 1.0,
        }),
        true,
    );
    assert!(m.fresh.is_empty());
    assert_eq!(m.unmatched, 3);
    assert_eq!(m.missing, vec![0, 1]);
    assert_eq!(m.body, body);
    let report = m.report.unwrap();
    assert_eq!(
        report
            .warnings()
            .map(|i| (i.path.as_str(), i.code))
            .collect::<Vec<_>>(),
        vec![
            ("/0", "record_unmatched"),
            ("/1", "record_unmatched"),
            ("/2", "record_unmatched")
        ]
    );
}

#[test]
fn domains_and_urls() {
    let d = Request::DomainStats(domainstats::Request {
        key: Default::default(),
        domains: vec!["Example.com".into(), "other.org".into()],
    });
    let empty = HashMap::new();
    let p = plan(&d, LIVE, &empty, PlanOptions::default());
    assert_eq!(p.estimate, Usd::from_micros(100_000));
    // `domainAsEntered` names the requested domain where the service sends it.
    let body =
        r#"[{"domain":"example.com","domainAsEntered":"Example.com"},{"domain":"other.org"}]"#;
    let m = p.merge(
        Some(Bought {
            body,
            report: None,
            at_ms: 1.0,
        }),
        false,
    );
    assert_eq!(m.fresh.len(), 2);
    let store: HashMap<_, _> = m.fresh.into_iter().collect();
    let one = Request::DomainStats(domainstats::Request {
        key: Default::default(),
        domains: vec!["example.com.".into()],
    });
    assert!(plan(&one, LIVE, &store, PlanOptions::default())
        .to_buy
        .is_none());

    let u = Request::BacklinkMetrics(backlink_metrics::Request {
        key: Default::default(),
        urls: vec!["https://e.com/A".into()],
    });
    let p = plan(&u, LIVE, &empty, PlanOptions::default());
    let m = p.merge(
        Some(Bought {
            body: r#"[{"url":"https://e.com/a"}]"#,
            report: None,
            at_ms: 1.0,
        }),
        false,
    );
    // URLs are taken as given: another spelling is not the requested record.
    assert_eq!(m.unmatched, 1);
    assert!(m.fresh.is_empty());
}

#[test]
fn per_request_operations_are_not_planned() {
    let r = Request::Related(crate::ops::related::Request {
        key: Default::default(),
        keyword: "x".into(),
        ccode: "US".into(),
    });
    assert!(Plan::new(&r, LIVE, Vec::new(), &PlanOptions::default()).is_none());
}

#[test]
fn paths_shift_only_under_a_record() {
    assert_eq!(shift_path("/3/keyword", 200), "/203/keyword");
    assert_eq!(shift_path("/3", 2), "/5");
    assert_eq!(shift_path("", 2), "");
    assert_eq!(shift_path("/x/3", 2), "/x/3");
    assert_eq!(shift_path("/03/a", 2), "/03/a");
    assert_eq!(shift_path("/+3/a", 2), "/+3/a");
}

#[test]
fn tens_of_thousands_of_keywords_plan_in_linear_time() {
    let many: Vec<String> = (0..50_000).map(|i| format!("kw {}", i % 40_000)).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let empty = HashMap::new();
    let started = std::time::Instant::now();
    let p = plan(&bulk(&refs, "US"), LIVE, &empty, PlanOptions::default());
    assert_eq!(p.new_records(), 40_000);
    assert_eq!(keywords_of(&p.to_buy)[39_999], "kw 39999");
    let body = format!(
        "[{}]",
        (0..40_000)
            .map(|i| sv(&format!("kw {i}"), i))
            .collect::<Vec<_>>()
            .join(",")
    );
    let m = p.merge(
        Some(Bought {
            body: &body,
            report: None,
            at_ms: 1.0,
        }),
        false,
    );
    assert_eq!(
        (m.fresh.len(), m.unmatched, m.missing.len()),
        (40_000, 0, 0)
    );
    // Quadratic matching would take minutes here; linear takes well under a second even
    // unoptimised.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn search_volume_matches_by_position_when_every_keyword_has_its_record() {
    let empty = HashMap::new();
    let p = plan(
        &bulk(&["a", "b", "c"], "US"),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    // The service changed `b`'s echo: one record per keyword, in order, so it is `b`'s.
    let body = format!("[{},{},{}]", sv("a", 1), sv("b!", 2), sv("c", 3));
    fn bought(body: &str) -> Bought<'_> {
        Bought {
            body,
            report: None,
            at_ms: 1.0,
        }
    }
    let m = p.merge(Some(bought(&body)), false);
    assert_eq!((m.fresh.len(), m.unmatched, m.missing.len()), (3, 0, 0));
    assert_eq!(m.fresh[1].0, key::search_volume_key(LIVE, "US", "b"));
    assert!(m.fresh[1].1.json.contains("b!"));

    // A record short: echoes decide, as before.
    let body = format!("[{},{}]", sv("a", 1), sv("b!", 2));
    let m = p.merge(Some(bought(&body)), false);
    assert_eq!((m.fresh.len(), m.unmatched, m.missing), (1, 1, vec![1, 2]));

    // Reordered but every echo right: echoes decide (position would swap them).
    let body = format!("[{},{},{}]", sv("c", 3), sv("b", 2), sv("a", 1));
    let m = p.merge(Some(bought(&body)), false);
    let a = m
        .fresh
        .iter()
        .find(|(k, _)| *k == key::search_volume_key(LIVE, "US", "a"))
        .unwrap();
    assert!(a.1.json.contains(r#""SEARCH_VOLUME":1"#));
}

#[test]
fn a_backlink_record_echoing_the_domain_of_one_queried_url_is_that_urls() {
    let urls = |u: &[&str]| {
        Request::BacklinkMetrics(backlink_metrics::Request {
            key: Default::default(),
            urls: u.iter().map(|s| s.to_string()).collect(),
        })
    };
    let empty = HashMap::new();
    let bought = |body: &'static str| Bought {
        body,
        report: None,
        at_ms: 1.0,
    };
    let p = plan(
        &urls(&["https://www.e.com:8443/A?x#y", "https://f.org/b"]),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    let m = p.merge(
        Some(bought(r#"[{"url":"E.com"},{"url":"https://f.org/b"}]"#)),
        false,
    );
    assert_eq!((m.fresh.len(), m.unmatched), (2, 0));
    assert_eq!(
        m.fresh[0].0,
        key::url_key(LIVE, "https://www.e.com:8443/A?x#y")
    );

    // Two queried URLs on that host, one answered by its own URL: the domain is the other's.
    let p = plan(
        &urls(&["https://e.com/a", "https://e.com/b"]),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    let m = p.merge(
        Some(bought(r#"[{"url":"e.com"},{"url":"https://e.com/b"}]"#)),
        false,
    );
    assert_eq!((m.fresh.len(), m.unmatched), (2, 0));
    // Both open: the echo says not which, so it stays unmatched.
    let m = p.merge(
        Some(bought(r#"[{"url":"e.com"},{"url":"https://e.com/c"}]"#)),
        false,
    );
    assert_eq!((m.fresh.len(), m.unmatched, m.missing), (0, 2, vec![0, 1]));

    // Two records echoing one domain: neither is stored.
    let p = plan(
        &urls(&["https://e.com/a"]),
        LIVE,
        &empty,
        PlanOptions::default(),
    );
    let m = p.merge(
        Some(bought(r#"[{"url":"e.com"},{"url":"www.e.com"}]"#)),
        false,
    );
    assert_eq!((m.fresh.len(), m.unmatched), (0, 2));
}
