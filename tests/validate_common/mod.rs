//! Hand-written valid response bodies and requests for every operation, used by the
//! validator tests (each test mutates one of these to break exactly one rule).
#![allow(dead_code)]

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::Mutex;

use serde_json::{json, Value};
use serpkit::ops::{Operation, Request};
use serpkit::validate::{validate, Issue, Report, Severity};

/// The core's month names (one place: `ops::search_volume_bulk::MONTH_NAMES`).
pub use serpkit::ops::search_volume_bulk::MONTH_NAMES as MONTHS;

/// 12 monthly entries from 2023-April to 2024-March.
pub fn monthly() -> Value {
    let mut out = Vec::new();
    for i in 0..12 {
        let m = (3 + i) % 12;
        let y = if 3 + i >= 12 { 2024 } else { 2023 };
        let v = 100 + i * 10;
        out.push(
            json!({"month": MONTHS[m], "year": y, "value": v, "count": v,
                        "date": format!("{y}-{}", MONTHS[m])}),
        );
    }
    Value::Array(out)
}

pub fn sv_record(keyword: &str) -> Value {
    json!({"ccode": "us", "keyword": keyword, "AVERAGE_CPC": 1.25, "COMPETITION": 0.4,
           "SEARCH_VOLUME": 1200, "TARGETED_MONTHLY_SEARCHES": monthly()})
}

pub fn domain_stats_record() -> Value {
    let mut m = serde_json::Map::new();
    m.insert("domain".into(), json!("example.com"));
    for f in serpkit::ops::domainstats::DomainStatsRecord::VALUE_FIELDS {
        m.insert((*f).into(), json!("12"));
    }
    m.insert("alphaTrust".into(), json!(""));
    m.insert("betaStatReturned".into(), json!("root"));
    m.insert("betaTTF0Name".into(), json!("Computers/Internet"));
    Value::Object(m)
}

pub fn page_metrics(url: &str) -> Value {
    json!({"backlinks": 10, "dofollow_backlinks": 7, "nofollow_backlinks": 3, "edu_backlinks": 0,
           "gov_backlinks": 0, "ips": 5, "refdomains": 4, "subnets": 3, "url": url})
}

/// 64 consecutive days, newest first, from 2024-03-04 back.
pub fn stats() -> Value {
    let start = 19_786i64; // 2024-03-04
    Value::Array(
        (0..64)
            .map(|i| json!({"date": ymd(start - i), "new": 3 + i, "lost": i % 5}))
            .collect(),
    )
}

pub fn ymd(days: i64) -> String {
    // civil_from_days (H. Hinnant)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}-{:02}-{:02}", if m <= 2 { y + 1 } else { y }, m, d)
}

pub fn overview() -> Value {
    let mut metrics = page_metrics("example.com");
    let m = metrics.as_object_mut().unwrap();
    m.insert("_id".into(), json!("65f0c0ffee"));
    m.insert("__v".into(), json!(0));
    m.insert("createdAt".into(), json!("2024-01-02T03:04:05.678Z"));
    m.insert("updatedAt".into(), json!("2024-03-04T00:00:00Z"));
    json!({
        "metrics": metrics,
        "stats": stats(),
        "ref_newlost": [
            {"new_lost_date": "2024-03-01", "new_lost_type": "new", "refdomain": "a.com",
             "backlinks": 3, "dofollow_backlinks": 2, "first_seen": "2023-11-02", "domain_inlink_rank": 80},
            {"new_lost_date": "2024-02-11", "new_lost_type": "lost", "refdomain": "b.org",
             "backlinks": 1, "dofollow_backlinks": 0, "first_seen": "2022-05-06", "domain_inlink_rank": 40},
            {"new_lost_date": "2024-02-12", "new_lost_type": "new", "refdomain": "a.com",
             "backlinks": 1, "dofollow_backlinks": 1, "first_seen": "2024-02-12", "domain_inlink_rank": 40}
        ]
    })
}

pub fn outline() -> Value {
    json!([
        {"headings": [{"type": "h1", "text": "Best shoes"}, {"type": "h2", "text": "<b>Why</b>"}],
         "url": "https://a.com/x", "rank": 1},
        {"headings": [], "url": "https://b.com/y", "rank": 2},
        {"headings": [{"type": "h4", "text": "x"}], "url": "https://c.com/z", "rank": 3}
    ])
}

pub fn microblog() -> Value {
    json!([{
        "url": "https://microblog.example/p/1", "retweets": 2, "likes": 10, "replies": 1,
        "tweet": "New #shoes for @bob", "hashtags": ["#shoes"],
        "profile": {"user_avatar": "https://img.example/a.png", "user_id": 42,
                    "fullname": "Alice", "username": "alice", "verified": false},
        "tagged": ["@bob"], "posted_on": "2024-03-01T12:34:56.789Z", "media": [{"any": 1}]
    }, {
        "url": "https://microblog.example/p/2", "retweets": 0, "likes": 0, "replies": 0,
        "tweet": "plain", "hashtags": [], "profile": {"user_avatar": "https://img.example/b.png", "user_id": 7,
        "fullname": "B", "username": "b", "verified": true},
        "tagged": [], "posted_on": "2024-03-01T00:00:00.000Z", "media": []
    }])
}

pub fn nav(params: bool) -> Value {
    let mut browse = json!({"browseId": "FEhashtag"});
    if params {
        browse["params"] = json!("6gQ");
    }
    json!({"clickTrackingParams": "CAE", "commandMetadata": {"webCommandMetadata":
        {"url": "/hashtag/shoes", "webPageType": "WEB_PAGE_TYPE_BROWSE", "rootVe": 6827,
         "apiUrl": "/v1/browse"}}, "browseEndpoint": browse})
}

pub fn video() -> Value {
    json!([{
        "url": "https://video.example/watch?v=1", "image": "https://img.example/1.jpg",
        "hashtags": [
            {"text": "#shoes", "navigationEndpoint": nav(true),
             "loggingDirectives": {"trackingParams": "CAE", "visibility": {"types": "12"},
                                   "enableDisplayloggerExperiment": true}},
            {"text": " "},
            {"text": "Shoe reviews playlist", "navigationEndpoint": nav(false)}
        ],
        "posted_on": "2024-03-01T12:00:00Z", "title": "Best running shoes", "views": 1000,
        "likes": 0, "dislikes": 0, "description": "",
        "channel": {"id": "UC1", "name": "Shoes TV", "photo": "https://img.example/c.png",
                    "is_monetized": true, "is_verified": false, "is_family_safe": true,
                    "avatar": [{"url": "x"}], "banner": [], "tags": ["a"], "available_countries": ["US"]},
        "error": false, "keywords": ["running shoes", "shoes"], "language": ["en"]
    }])
}

pub fn related() -> Value {
    json!([
        {"keyword": "running shoes men", "competition": 0.8, "cpc": 1.1, "search_volume": 900, "kd": 40},
        {"keyword": "running shoes sale", "competition": 1, "cpc": 0, "search_volume": 900, "kd": 0},
        {"keyword": "best running shoes", "competition": 0.1, "cpc": 2.5, "search_volume": 10, "kd": 100}
    ])
}

/// A valid body of every operation (no errors, no warnings).
pub fn valid(op: Operation) -> Value {
    match op {
        Operation::SearchVolumeBulk => {
            json!([sv_record("running shoes"), sv_record("Trail  Shoes ")])
        }
        Operation::SearchVolumeSingle => sv_record("running shoes"),
        Operation::DomainStats => {
            let mut second = domain_stats_record();
            second["domainAsEntered"] = json!("www.example.com");
            json!([domain_stats_record(), second])
        }
        Operation::BacklinkMetrics => json!([
            page_metrics("https://a.com/"),
            page_metrics("https://b.com/x")
        ]),
        Operation::RankedKeywordsMetrics => json!([{
            "domain": "example.com", "total_ranked_keywords": 100, "position_1": 1, "position_2_3": 2,
            "position_4_10": 3, "position_11_20": 4, "position_21_30": 5, "position_31_40": 6,
            "position_41_50": 7, "position_51_60": 8, "position_71_80": 9, "position_81_90": 10,
            "position_91_100": 11}]),
        Operation::RankedKeywordsDomain => json!([
            {"keyword": "shoes", "competition": 55.5, "search_volume": 1000, "total_backlinks": 10,
             "total_referring_domains": 3, "rank": 4, "url": "https://example.com/shoes"},
            {"keyword": "boots", "competition": 0, "search_volume": 10, "total_backlinks": 0,
             "total_referring_domains": 0, "rank": 1, "url": "https://example.com/boots"}]),
        Operation::BacklinkOverview => overview(),
        Operation::OutlineSeo => outline(),
        Operation::MicroblogPost => microblog(),
        Operation::VideoVideo => video(),
        Operation::Related => related(),
    }
}

/// The request text that produced [`valid`] (where the operation has cross-checks).
pub fn request_text(op: Operation) -> &'static str {
    match op {
        Operation::SearchVolumeBulk => {
            r#"{"keywords":["running shoes","trail shoes"],"ccode":"US"}"#
        }
        Operation::SearchVolumeSingle => r#"{"keyword":"Running Shoes","ccode":"US"}"#,
        Operation::DomainStats => r#"{"domains":["example.com","www.example.com"]}"#,
        Operation::BacklinkMetrics => r#"{"urls":["https://a.com/","https://b.com/x"]}"#,
        Operation::RankedKeywordsMetrics
        | Operation::RankedKeywordsDomain
        | Operation::BacklinkOverview => r#"{"domain":"example.com"}"#,
        Operation::OutlineSeo | Operation::MicroblogPost | Operation::VideoVideo => {
            r#"{"keyword":"running shoes"}"#
        }
        Operation::Related => r#"{"keyword":"running shoes","ccode":"US"}"#,
    }
}

/// The request that produced [`valid`], parsed from [`request_text`].
pub fn request(op: Operation) -> Request {
    Request::from_json(op, request_text(op)).expect("fixture request")
}

/// Validates `body` as text (with the fixture request when `with_request`). With the
/// environment variable [`CORPUS_ENV`] naming a file, also records the call there
/// ([`record_breaking_body`]).
pub fn check(op: Operation, body: &Value, with_request: bool) -> Report {
    record_breaking_body(op, body, with_request);
    let req = request(op);
    validate(op, &body.to_string(), with_request.then_some(&req))
}

/// Names the file that [`check`] appends its calls to (the JS differential test's corpus,
/// written by `cargo xtask js`); unset, nothing is written.
pub const CORPUS_ENV: &str = "SERPKIT_BREAKING_CORPUS";

/// Serialises appends from the parallel test threads, so lines never interleave.
static CORPUS_LOCK: Mutex<()> = Mutex::new(());

/// Appends `{"op", "body", "request"}` (the request object or null) as one line to the file
/// named by [`CORPUS_ENV`], when it is set. A failure to write panics: the corpus run is a
/// test run, and a silently short corpus would make the differential test prove less.
fn record_breaking_body(op: Operation, body: &Value, with_request: bool) {
    let Some(file) = std::env::var_os(CORPUS_ENV) else {
        return;
    };
    let request = if with_request {
        serde_json::from_str(request_text(op)).expect("fixture request is JSON")
    } else {
        Value::Null
    };
    let mut line = json!({"op": op.path(), "body": body, "request": request}).to_string();
    line.push('\n');
    // A test that panicked while holding the lock leaves it poisoned; the file is still whole.
    let _guard = CORPUS_LOCK
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .and_then(|mut out| out.write_all(line.as_bytes()))
        .unwrap_or_else(|e| panic!("{CORPUS_ENV}={}: {e}", file.to_string_lossy()));
}

/// Asserts that the report holds exactly one issue, with this code, severity and path.
#[track_caller]
pub fn only(report: &Report, code: &str, severity: Severity, path: &str) -> Issue {
    assert_eq!(
        report.issues.len(),
        1,
        "expected exactly one issue ({code} at {path}), got: {:#?}",
        report.issues
    );
    let i = report.issues[0].clone();
    assert_eq!(
        (i.code, i.severity, i.path.as_str()),
        (code, severity, path),
        "{i:#?}"
    );
    assert!(!i.message.is_empty());
    assert_eq!(report.ok(), severity == Severity::Warning);
    i
}

/// Asserts that the report holds an issue with this code, severity and path.
#[track_caller]
pub fn has(report: &Report, code: &str, severity: Severity, path: &str) {
    assert!(
        report
            .issues
            .iter()
            .any(|i| i.code == code && i.severity == severity && i.path == path),
        "expected {code} {severity:?} at {path}, got: {:#?}",
        report.issues
    );
}
