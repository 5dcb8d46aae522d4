//! Generated data against the spec: zero validator findings for every operation across many
//! seeds and dates, typed decoding, determinism, and the variety the app's views need to show.

use std::collections::HashSet;

use sandbox::generate::{self, sample_request};
use sandbox::{faults, BreakRule, Date};
use serde_json::Value;
use serpkit::ops::{self, Operation};
use serpkit::validate::validate;
use serpkit::Request;

const SEEDS: u64 = 40;

fn dates() -> [Date; 4] {
    [
        Date::new(2024, 3, 5).unwrap(),
        Date::new(2024, 2, 29).unwrap(),
        Date::new(2025, 1, 1).unwrap(),
        Date::new(2026, 12, 31).unwrap(),
    ]
}

fn decode_ok(op: Operation, body: &str) -> Result<(), serpkit::DecodeError> {
    use serpkit::decode;
    match op {
        Operation::SearchVolumeBulk => decode::<ops::search_volume_bulk::Response>(body).map(drop),
        Operation::SearchVolumeSingle => {
            decode::<ops::search_volume_single::Response>(body).map(drop)
        }
        Operation::DomainStats => decode::<ops::domainstats::Response>(body).map(drop),
        Operation::BacklinkMetrics => decode::<ops::backlink_metrics::Response>(body).map(drop),
        Operation::RankedKeywordsMetrics => {
            decode::<ops::ranked_keywords_metrics::Response>(body).map(drop)
        }
        Operation::RankedKeywordsDomain => {
            decode::<ops::ranked_keywords_domain::Response>(body).map(drop)
        }
        Operation::BacklinkOverview => decode::<ops::backlink_overview::Response>(body).map(drop),
        Operation::OutlineSeo => decode::<ops::outline_seo::Response>(body).map(drop),
        Operation::MicroblogPost => decode::<ops::microblog_post::Response>(body).map(drop),
        Operation::VideoVideo => decode::<ops::video_video::Response>(body).map(drop),
        Operation::Related => decode::<ops::related::Response>(body).map(drop),
    }
}

fn assert_clean(op: Operation, body: &str, request: Option<&Request>, what: &str) {
    let report = validate(op, body, request);
    assert!(
        report.error_count() == 0 && report.warning_count() == 0,
        "{op} {what}: {report}\nbody starts: {}",
        &body[..body.len().min(600)]
    );
}

#[test]
fn zero_validator_findings_for_all_operations_many_seeds() {
    for op in Operation::ALL {
        for seed in 0..SEEDS {
            let today = dates()[(seed % 4) as usize];
            let req = sample_request(op, seed);
            req.check().unwrap();
            let body = generate::body(&req, today);
            assert_clean(op, &body, Some(&req), &format!("seed {seed}"));
            decode_ok(op, &body).unwrap_or_else(|e| panic!("{op} seed {seed}: {e}"));
        }
    }
}

#[test]
fn sized_generators_are_clean() {
    let today = dates()[0];
    let rk = generate::ranked_keywords_domain("size-test.example.com", 50_000, 7);
    assert_clean(Operation::RankedKeywordsDomain, &rk, None, "50,000 rows");
    let v: Value = serde_json::from_str(&rk).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 50_000);
    // About 170 bytes per ref_newlost entry: 70,000 make a body over 10 MiB.
    let ov = generate::backlink_overview("example.com", 70_000, today, 9);
    assert!(ov.len() > 10 << 20, "{} bytes", ov.len());
    assert_clean(Operation::BacklinkOverview, &ov, None, "70,000 ref_newlost");
    let v: Value = serde_json::from_str(&ov).unwrap();
    assert_eq!(v["ref_newlost"].as_array().unwrap().len(), 70_000);
    // The size convention in the domain.
    assert_eq!(
        generate::ranked_keywords_size("size-1234.example.com"),
        1234
    );
    assert_eq!(generate::ref_newlost_size("size-77.example.org"), 77);
    let req = Request::from_json(
        Operation::RankedKeywordsDomain,
        r#"{"domain":"size-321.example.com"}"#,
    )
    .unwrap();
    let v: Value = serde_json::from_str(&generate::body(&req, today)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 321);
    for d in ["example.com", "nova.io", "a.b.c.de", "shop.example.co.uk"] {
        assert!((200..=20_000).contains(&generate::ranked_keywords_size(d)));
        assert!((2..=3_000).contains(&generate::ref_newlost_size(d)));
    }
}

#[test]
fn odd_but_valid_requests_are_clean() {
    let today = dates()[0];
    let cases: &[(Operation, &str)] = &[
        (
            Operation::SearchVolumeBulk,
            r#"{"keywords":["ÉTÉ café","x","x","\"quoted\" <b>","🚀 rocket"],"ccode":"gb"}"#,
        ),
        (
            Operation::SearchVolumeSingle,
            r#"{"keyword":"a","ccode":"zz"}"#,
        ),
        (
            Operation::DomainStats,
            r#"{"domains":["WWW.Example.COM","example.com","www.shop.example.com"]}"#,
        ),
        (
            Operation::BacklinkMetrics,
            r#"{"urls":["https://example.com/?q=\"x\"","http://a.b/c#d"]}"#,
        ),
        (
            Operation::RankedKeywordsMetrics,
            r#"{"domain":"example.com"}"#,
        ),
        (
            Operation::RankedKeywordsDomain,
            r#"{"domain":"size-1.example.com"}"#,
        ),
        (
            Operation::BacklinkOverview,
            r#"{"domain":"size-1.example.com"}"#,
        ),
        (Operation::OutlineSeo, r#"{"keyword":"!!!"}"#),
        (Operation::MicroblogPost, r#"{"keyword":"!!!"}"#),
        (Operation::VideoVideo, r#"{"keyword":"!!! ???"}"#),
        (
            Operation::Related,
            r#"{"keyword":"日本語 キーワード","ccode":"JP"}"#,
        ),
    ];
    for (op, json) in cases {
        let req = Request::from_json(*op, json).unwrap();
        req.check().unwrap();
        let body = generate::body(&req, today);
        assert_clean(*op, &body, Some(&req), json);
        decode_ok(*op, &body).unwrap();
    }
}

#[test]
fn deterministic_and_key_independent() {
    for op in Operation::ALL {
        for seed in 0..5 {
            let mut req = sample_request(op, seed);
            let a = generate::body(&req, dates()[0]);
            req.set_key(serpkit::ApiKey::new("another-key"));
            assert_eq!(a, generate::body(&req, dates()[0]), "{op}");
            assert_eq!(
                generate::request_seed(&req),
                generate::request_seed(&sample_request(op, seed))
            );
        }
    }
    let a = sample_request(Operation::Related, 1);
    let b = sample_request(Operation::Related, 2);
    assert_ne!(generate::request_seed(&a), generate::request_seed(&b));
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().expect("array")
}

#[test]
fn shapes_and_variety_the_app_needs() {
    let today = Date::new(2024, 3, 5).unwrap();
    let body = |op: Operation, seed: u64| -> Value {
        serde_json::from_str(&generate::body(&sample_request(op, seed), today)).unwrap()
    };
    // Search volume: 12 months oldest first ending at today's month; bulk in request order.
    let mut seasonal = false;
    for seed in 0..20 {
        let req = sample_request(Operation::SearchVolumeBulk, seed);
        let v: Value = serde_json::from_str(&generate::body(&req, today)).unwrap();
        let Request::SearchVolumeBulk(r) = &req else {
            unreachable!()
        };
        assert_eq!(arr(&v).len(), r.keywords.len());
        for (rec, k) in arr(&v).iter().zip(&r.keywords) {
            assert_eq!(rec["keyword"], k.as_str());
            assert_eq!(rec["ccode"], r.ccode.to_lowercase());
            let m = arr(&rec["TARGETED_MONTHLY_SEARCHES"]);
            assert_eq!(m.len(), 12);
            assert_eq!(m[11]["date"], "2024-March");
            assert_eq!(m[0]["date"], "2023-April");
            let vals: HashSet<i64> = m.iter().map(|e| e["value"].as_i64().unwrap()).collect();
            seasonal |= vals.len() > 3;
        }
    }
    assert!(seasonal);
    // Domain stats: all strings, some empty, domainAsEntered on some records only.
    let (mut with, mut without, mut empty) = (0, 0, 0);
    for seed in 0..20 {
        for rec in arr(&body(Operation::DomainStats, seed)) {
            let o = rec.as_object().unwrap();
            assert!(o.values().all(Value::is_string));
            if o.contains_key("domainAsEntered") {
                with += 1
            } else {
                without += 1
            }
            empty += o.values().filter(|v| v.as_str() == Some("")).count();
        }
    }
    assert!(with > 0 && without > 0 && empty > 0);
    // Overview: 64 consecutive days newest first ending today; repeats; rank descending.
    let v = body(Operation::BacklinkOverview, 3);
    let stats = arr(&v["stats"]);
    assert_eq!(stats.len(), 64);
    assert_eq!(stats[0]["date"], "2024-03-05");
    assert_eq!(stats[63]["date"], today.add_days(-63).to_string());
    let refs = arr(&v["ref_newlost"]);
    let names: HashSet<&str> = refs
        .iter()
        .map(|r| r["refdomain"].as_str().unwrap())
        .collect();
    assert!(names.len() < refs.len(), "no repeated referring domain");
    let types: HashSet<&str> = refs
        .iter()
        .map(|r| r["new_lost_type"].as_str().unwrap())
        .collect();
    assert_eq!(types.len(), 2);
    assert!(refs
        .windows(2)
        .all(|w| w[0]["domain_inlink_rank"].as_i64() >= w[1]["domain_inlink_rank"].as_i64()));
    // Outline: ≤ 10 pages by rank, stray markup somewhere.
    let mut stray = false;
    for seed in 0..10 {
        let v = body(Operation::OutlineSeo, seed);
        assert!(arr(&v).len() <= 10);
        assert!(arr(&v)
            .windows(2)
            .all(|w| w[0]["rank"].as_i64() < w[1]["rank"].as_i64()));
        stray |= v.to_string().contains("<span") || v.to_string().contains("css-");
    }
    assert!(stray);
    // Microblog: hashtags and tags, some empty.
    let (mut tags, mut no_tags, mut tagged) = (0, 0, 0);
    for seed in 0..10 {
        for p in arr(&body(Operation::MicroblogPost, seed)) {
            let h = arr(&p["hashtags"]);
            if h.is_empty() {
                no_tags += 1
            } else {
                tags += 1
            }
            tagged += arr(&p["tagged"]).len();
            assert!(h.iter().all(|t| t.as_str().unwrap().starts_with('#')));
        }
    }
    assert!(tags > 0 && no_tags > 0 && tagged > 0);
    // Video: separators, playlist entries, channel key order varies, keywords[0].
    let (mut seps, mut playlists) = (0, 0);
    let mut orders = HashSet::new();
    for seed in 0..10 {
        let req = sample_request(Operation::VideoVideo, seed);
        let Request::VideoVideo(r) = &req else {
            unreachable!()
        };
        let v: Value = serde_json::from_str(&generate::body(&req, today)).unwrap();
        for rec in arr(&v) {
            assert_eq!(rec["keywords"][0], r.keyword.as_str());
            for h in arr(&rec["hashtags"]) {
                let o = h.as_object().unwrap();
                if o.len() == 1 && o["text"] == " " {
                    seps += 1;
                }
                if o.contains_key("navigationEndpoint") && !o.contains_key("loggingDirectives") {
                    playlists += 1;
                }
            }
        }
        // Key order survives only in the text (serde_json::Value sorts keys).
        let text = generate::body(&req, today);
        for chunk in text.split("\"channel\":{").skip(1) {
            let first_key: String = chunk.chars().skip(1).take_while(|c| *c != '"').collect();
            orders.insert(first_key);
        }
    }
    assert!(seps > 0 && playlists > 0);
    assert!(orders.len() > 3, "{orders:?}");
    // Related: by volume descending.
    for seed in 0..10 {
        let v = body(Operation::Related, seed);
        assert!(arr(&v)
            .windows(2)
            .all(|w| w[0]["search_volume"].as_i64() >= w[1]["search_volume"].as_i64()));
    }
}

#[test]
fn every_break_rule_is_caught_by_the_validator() {
    let today = dates()[0];
    for op in Operation::ALL {
        let req = sample_request(op, 11);
        let good = generate::body(&req, today);
        for rule in BreakRule::ALL {
            let broken = faults::break_body(op, rule, &good);
            if !rule.applies_to(op) {
                assert!(broken.is_err(), "{op} {rule}");
                continue;
            }
            let broken = broken.unwrap();
            let report = validate(op, &broken, Some(&req));
            assert!(
                report.error_count() + report.warning_count() > 0,
                "{op} break={rule} not detected"
            );
        }
    }
}

/// The keywords of a `ranked-keywords/domain` body, as generated for `domain`.
fn ranked_keywords(domain: &str, today: Date) -> Vec<(String, i64)> {
    let req = Request::from_json(
        Operation::RankedKeywordsDomain,
        &serde_json::json!({ "domain": domain }).to_string(),
    )
    .unwrap();
    let v: Value = serde_json::from_str(&generate::body(&req, today)).unwrap();
    arr(&v)
        .iter()
        .map(|r| {
            (
                r["keyword"].as_str().unwrap().to_owned(),
                r["search_volume"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The app's seasonality rule (`SEASON_RULE`): at least half of the 12-month volume in at most 3
/// consecutive months (wrapping over the year end); never with zero volume.
fn seasonal(months: &[i64]) -> bool {
    let total: i64 = months.iter().sum();
    total > 0
        && (0..12).any(|start| (0..3).map(|k| months[(start + k) % 12]).sum::<i64>() * 2 >= total)
}

#[test]
fn demo_domains_of_one_topic_share_part_of_their_keywords() {
    let today = dates()[0];
    // The domains the app's demo placeholders and e2e tests use: one topic (site "example").
    let demo = [
        "example.com",
        "example.org",
        "shop.example.org",
        "news.example.net",
    ];
    let topic = generate::domain_topic(demo[0]);
    let sets: Vec<HashSet<String>> = demo
        .iter()
        .map(|d| {
            assert_eq!(generate::domain_topic(d), topic, "{d}");
            ranked_keywords(d, today)
                .into_iter()
                .map(|(k, _)| k)
                .collect()
        })
        .collect();
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            let shared = sets[i].intersection(&sets[j]).count();
            let smaller = sets[i].len().min(sets[j].len());
            assert!(
                shared > 0 && shared < smaller,
                "{} and {}: {shared} shared of {smaller}",
                demo[i],
                demo[j]
            );
        }
    }
    // Keywords are distinct within a domain while its universe allows (a repeat is the
    // keyword ranking with a second URL): nearly all of 18,000 here.
    let rows = ranked_keywords(demo[0], today);
    assert!(
        sets[0].len() * 100 >= rows.len() * 90,
        "{} of {}",
        sets[0].len(),
        rows.len()
    );
}

#[test]
fn volumes_follow_a_long_tail_and_a_quarter_of_keywords_are_seasonal() {
    let today = dates()[2];
    let mut keywords: Vec<String> = Vec::new();
    for d in ["example.com", "nova.io", "peakcraft.de", "running-hub.com"] {
        keywords.extend(
            ranked_keywords(d, today)
                .into_iter()
                .map(|(k, _)| k)
                .take(600),
        );
    }
    let body = generate::search_volume_bulk(&keywords, "US", today);
    let v: Value = serde_json::from_str(&body).unwrap();
    // Mean log volume by word count: each longer form smaller on average.
    let mut by_words: std::collections::BTreeMap<usize, (f64, usize)> = Default::default();
    let mut seasonal_count = 0;
    for rec in arr(&v) {
        let k = rec["keyword"].as_str().unwrap();
        let volume = rec["SEARCH_VOLUME"].as_i64().unwrap();
        let months: Vec<i64> = arr(&rec["TARGETED_MONTHLY_SEARCHES"])
            .iter()
            .map(|m| m["value"].as_i64().unwrap())
            .collect();
        seasonal_count += usize::from(seasonal(&months));
        if volume > 0 {
            let e = by_words.entry(k.split_whitespace().count()).or_default();
            e.0 += (volume as f64).ln();
            e.1 += 1;
        }
    }
    let means: Vec<(usize, f64)> = by_words
        .iter()
        .filter(|(_, (_, n))| *n >= 20)
        .map(|(w, (sum, n))| (*w, sum / *n as f64))
        .collect();
    assert!(means.len() >= 3, "{means:?}");
    assert!(means.windows(2).all(|w| w[0].1 > w[1].1), "{means:?}");
    let share = seasonal_count as f64 / keywords.len() as f64;
    // About a fifth of the head terms peak; a domain ranks mostly in its topic, so the share
    // follows its topics' seasonal heads.
    assert!((0.15..=0.3).contains(&share), "seasonal share {share}");
    // A keyword's volume agrees across operations: ranked (its mean month) and searched.
    let ranked = ranked_keywords("example.com", today);
    let searched: Value = serde_json::from_str(&generate::search_volume_bulk(
        &ranked
            .iter()
            .take(200)
            .map(|(k, _)| k.clone())
            .collect::<Vec<_>>(),
        "us",
        today,
    ))
    .unwrap();
    for ((k, rv), rec) in ranked.iter().zip(arr(&searched)) {
        let sv = rec["SEARCH_VOLUME"].as_i64().unwrap() as f64;
        let rv = *rv as f64;
        assert!(
            (sv - rv).abs() <= 0.4 * rv.max(sv) + 10.0,
            "{k}: ranked {rv}, searched {sv}"
        );
    }
}
