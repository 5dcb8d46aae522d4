//! For every rule: a valid body that passes and a body that breaks exactly that rule, with
//! the code, severity and path asserted.
#![cfg(not(target_arch = "wasm32"))]

mod validate_common;

use serde_json::json;
use serpkit::ops::Operation::{self, *};
use serpkit::validate::Severity::{Error, Warning};
use validate_common::*;

#[test]
fn every_valid_fixture_passes_cleanly() {
    for op in Operation::ALL {
        for with_request in [false, true] {
            let r = check(op, &valid(op), with_request);
            assert!(
                r.issues.is_empty(),
                "{op} (request: {with_request}): {:#?}",
                r.issues
            );
            assert!(r.ok());
        }
    }
}

/// The one set of rule-breaking bodies (`serpkit::validate::breaking`, which the sandbox's
/// `break=<rule>` also applies): each, applied to the valid body, gets issues of its rule only
/// (its code and severity), the first at its path. A rule that reported nothing would fail
/// here, so each rule the set names is proven to check what it says.
#[test]
fn every_breaking_body_breaks_only_its_rule() {
    let mut count = 0;
    for b in serpkit::validate::breaking::all() {
        let mut body = valid(b.op);
        (b.apply)(&mut body);
        let r = check(b.op, &body, b.request);
        let what = format!(
            "{} {} at {:?} (request: {})",
            b.op, b.code, b.path, b.request
        );
        assert!(!r.issues.is_empty(), "{what}: no issue");
        for i in &r.issues {
            assert_eq!(
                (i.code, i.severity),
                (b.code.as_str(), b.severity),
                "{what}: {r:#?}"
            );
        }
        assert_eq!(r.issues[0].path, b.path, "{what}: {r:#?}");
        count += 1;
    }
    assert!(count >= 60, "{count}");
}

/// Mutates the valid body of `op`, validates it (with the request when `req`), and asserts
/// that exactly one issue comes back with this code, severity and path.
#[track_caller]
fn breaks(
    op: Operation,
    req: bool,
    mutate: impl FnOnce(&mut serde_json::Value),
    code: &str,
    sev: serpkit::validate::Severity,
    path: &str,
) -> serpkit::validate::Issue {
    let mut body = valid(op);
    mutate(&mut body);
    only(&check(op, &body, req), code, sev, path)
}

fn text(op: Operation, body: &str) -> serpkit::validate::Report {
    serpkit::validate::validate(op, body, None)
}

// ---- generic rules -------------------------------------------------------------------

#[test]
fn type_string_for_integer() {
    let i = breaks(
        SearchVolumeBulk,
        false,
        |b| b[0]["SEARCH_VOLUME"] = json!("1200"),
        "type",
        Error,
        "/0/SEARCH_VOLUME",
    );
    assert!(i.message.contains("integer"), "{}", i.message);
}

#[test]
fn type_float_for_integer() {
    breaks(
        VideoVideo,
        false,
        |b| b[0]["views"] = json!(1000.0),
        "type",
        Error,
        "/0/views",
    );
    breaks(
        Related,
        false,
        |b| b[0]["kd"] = json!(4e1),
        "type",
        Error,
        "/0/kd",
    );
}

#[test]
fn type_null_for_string() {
    breaks(
        Related,
        false,
        |b| b[1]["keyword"] = json!(null),
        "type",
        Error,
        "/1/keyword",
    );
}

#[test]
fn type_integer_beyond_64_bits() {
    let body = valid(Related).to_string().replace(
        "\"search_volume\":10}",
        "\"search_volume\":123456789012345678901234}",
    );
    only(&text(Related, &body), "type", Error, "/2/search_volume");
}

#[test]
fn type_of_the_whole_body() {
    breaks(
        Related,
        false,
        |b| *b = json!({"keyword": "x"}),
        "type",
        Error,
        "",
    );
    breaks(
        SearchVolumeSingle,
        false,
        |b| *b = json!([]),
        "type",
        Error,
        "",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["stats"] = json!({}),
        "type",
        Error,
        "/stats",
    );
}

#[test]
fn number_accepts_integers() {
    // `AVERAGE_CPC` is a number: an integer literal is fine.
    let mut b = valid(SearchVolumeSingle);
    b["AVERAGE_CPC"] = json!(2);
    assert!(check(SearchVolumeSingle, &b, true).issues.is_empty());
}

#[test]
fn missing_field() {
    breaks(
        SearchVolumeBulk,
        false,
        |b| {
            b[0].as_object_mut().unwrap().remove("COMPETITION");
        },
        "missing_field",
        Error,
        "/0/COMPETITION",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| {
            b["metrics"].as_object_mut().unwrap().remove("__v");
        },
        "missing_field",
        Error,
        "/metrics/__v",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| {
            b.as_object_mut().unwrap().remove("ref_newlost");
        },
        "missing_field",
        Error,
        "/ref_newlost",
    );
}

#[test]
fn unknown_field_is_a_warning() {
    breaks(
        Related,
        false,
        |b| b[2]["trend"] = json!([1, 2]),
        "unknown_field",
        Warning,
        "/2/trend",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["next_page"] = json!("x"),
        "unknown_field",
        Warning,
        "/next_page",
    );
    breaks(
        RankedKeywordsMetrics,
        false,
        |b| b[0]["position_61_70"] = json!(3),
        "unknown_field",
        Warning,
        "/0/position_61_70",
    );
    // JSON Pointer escaping of the key.
    breaks(
        Related,
        false,
        |b| b[0]["a/b~c"] = json!(1),
        "unknown_field",
        Warning,
        "/0/a~1b~0c",
    );
}

#[test]
fn duplicate_field() {
    let body = r#"[{"keyword":"a","competition":0.1,"cpc":1,"search_volume":5,"kd":3,"kd":4}]"#;
    only(&text(Related, body), "duplicate_field", Error, "/0/kd");
}

#[test]
fn escaped_keys_match_fields() {
    let body = r#"[{"ke\u0079word":"a","competition":0.1,"cpc":1,"search_volume":5,"kd":3}]"#;
    assert!(text(Related, body).issues.is_empty());
}

#[test]
fn syntax_error_is_one_error_with_position() {
    let body = "[\n  {\"keyword\": \"a\",}\n]";
    let r = text(Related, body);
    let i = only(&r, "json", Error, "");
    let p = r.position.unwrap();
    assert_eq!((p.offset, p.line, p.column), (20, 2, 19));
    assert!(
        i.message.contains("line 2") && i.message.contains("byte 20"),
        "{}",
        i.message
    );
    // Issues found before the syntax error are dropped: the body is just not JSON.
    let r = text(Related, r#"[{"keyword": 1}, ]"#);
    only(&r, "json", Error, "");
    for bad in [
        "",
        "[",
        "\u{feff}[]",
        "[1] 2",
        "[\"\\ud800\"]",
        "{\"a\":\"b\u{1}\"}",
        "nul",
    ] {
        only(&text(Related, bad), "json", Error, "");
    }
}

#[test]
fn nesting_limit() {
    let deep = format!("[{}{}]", "[".repeat(300), "]".repeat(300));
    let r = text(Related, &deep);
    only(&r, "json", Error, "");
    assert!(r.issues[0].message.contains("127"));
    let deep_unknown = format!(r#"[{{"x":{}{}}}]"#, "{\"a\":".repeat(200), "}".repeat(200));
    only(&text(Related, &deep_unknown), "json", Error, "");
}

#[test]
fn issues_are_capped_but_counted() {
    let mut s = String::from("[");
    for i in 0..3000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r#"{"keyword":1,"competition":0.1,"cpc":1,"search_volume":5,"kd":3,"x":0}"#);
    }
    s.push(']');
    let r = text(Related, &s);
    assert_eq!(r.issues.len(), serpkit::validate::MAX_ISSUES);
    assert_eq!(r.error_count(), 3000);
    assert_eq!(r.warning_count(), 3000);
    assert_eq!(r.omitted(), 5000);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["omitted"], 5000);
}

#[test]
fn request_of_another_operation_is_ignored_with_a_warning() {
    let other = request(Related);
    let r = serpkit::validate::validate(VideoVideo, &valid(VideoVideo).to_string(), Some(&other));
    only(&r, "request_operation", Warning, "");
}

#[test]
fn report_json_form() {
    let mut b = valid(Related);
    b[0]["kd"] = json!("7");
    b[0]["extra"] = json!(1);
    let r = check(Related, &b, false);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(
        v["errors"][0],
        json!({"path": "/0/kd", "code": "type", "severity": "error", "message": v["errors"][0]["message"]})
    );
    assert_eq!(v["warnings"][0]["code"], "unknown_field");
    assert_eq!(v["warnings"][0]["severity"], "warning");
    assert_eq!(
        (v["error_count"].as_u64(), v["warning_count"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(r.to_string().contains("error   /0/kd [type]"));
}

// ---- search volume -------------------------------------------------------------------

const TMS: &str = "TARGETED_MONTHLY_SEARCHES";

#[test]
fn monthly_count() {
    breaks(
        SearchVolumeBulk,
        false,
        |b| {
            b[1][TMS].as_array_mut().unwrap().pop();
        },
        "monthly_count",
        Error,
        "/1/TARGETED_MONTHLY_SEARCHES",
    );
    breaks(
        SearchVolumeSingle,
        false,
        |b| b[TMS] = json!([]),
        "monthly_count",
        Error,
        "/TARGETED_MONTHLY_SEARCHES",
    );
}

#[test]
fn monthly_order_oldest_first() {
    // Two months swapped: out of order, and two steps over a month (`consecutive_months`).
    let mut b = valid(SearchVolumeBulk);
    b[0][TMS].as_array_mut().unwrap().swap(2, 3);
    let r = check(SearchVolumeBulk, &b, false);
    assert_eq!(r.error_count(), 3, "{r:#?}");
    has(&r, "order", Error, "/0/TARGETED_MONTHLY_SEARCHES/3/date");
    has(
        &r,
        "consecutive_months",
        Error,
        "/0/TARGETED_MONTHLY_SEARCHES/2/date",
    );
    // A repeated month is not chronological either (the month after it is then a skip).
    let mut b = valid(SearchVolumeSingle);
    let e = b[TMS][4].clone();
    b[TMS][5] = e;
    let r = check(SearchVolumeSingle, &b, false);
    assert_eq!(r.error_count(), 2, "{r:#?}");
    has(&r, "order", Error, "/TARGETED_MONTHLY_SEARCHES/5/date");
}

#[test]
fn monthly_date_is_year_dash_month_name() {
    breaks(
        SearchVolumeBulk,
        false,
        |b| b[0][TMS][3]["date"] = json!("2023-June"),
        "date",
        Error,
        "/0/TARGETED_MONTHLY_SEARCHES/3/date",
    );
    breaks(
        SearchVolumeBulk,
        false,
        |b| b[0][TMS][3]["date"] = json!("2022-July"),
        "date",
        Error,
        "/0/TARGETED_MONTHLY_SEARCHES/3/date",
    );
    breaks(
        SearchVolumeBulk,
        false,
        |b| b[0][TMS][3]["date"] = json!("2023-07"),
        "date",
        Error,
        "/0/TARGETED_MONTHLY_SEARCHES/3/date",
    );
}

#[test]
fn month_name() {
    breaks(
        SearchVolumeSingle,
        false,
        |b| {
            b[TMS][0]["month"] = json!("april");
            b[TMS][0]["date"] = json!("2023-april");
        },
        "month_name",
        Error,
        "/TARGETED_MONTHLY_SEARCHES/0/month",
    );
}

#[test]
fn four_digit_year() {
    // Every entry 2,000 years earlier: still 12 consecutive months, none of a 4-digit year.
    let mut b = valid(SearchVolumeSingle);
    for e in b[TMS].as_array_mut().unwrap() {
        let y = e["year"].as_i64().unwrap() - 2000;
        e["date"] = json!(format!("{y:04}-{}", e["month"].as_str().unwrap()));
        e["year"] = json!(y);
    }
    let r = check(SearchVolumeSingle, &b, false);
    assert_eq!(r.issues.len(), 12, "{r:#?}");
    assert!(r.issues.iter().all(|i| i.code == "range"), "{r:#?}");
    has(&r, "range", Error, "/TARGETED_MONTHLY_SEARCHES/0/year");
}

#[test]
fn monthly_entries_are_consecutive_months() {
    // A month left out (chronological still): 12 entries over 13 months.
    breaks(
        SearchVolumeBulk,
        false,
        |b| {
            let m = b[1][TMS].as_array_mut().unwrap();
            m.remove(3);
            let e = m[10].clone();
            let (y, month) = (e["year"].as_i64().unwrap(), e["month"].as_str().unwrap());
            let next = (MONTHS.iter().position(|n| *n == month).unwrap() + 1) % 12;
            let y = if next == 0 { y + 1 } else { y };
            m.push(
                json!({"month": MONTHS[next], "year": y, "value": 5, "count": 5,
                          "date": format!("{y}-{}", MONTHS[next])}),
            );
        },
        "consecutive_months",
        Error,
        "/1/TARGETED_MONTHLY_SEARCHES/3/date",
    );
}

#[test]
fn count_equals_value_is_observed() {
    breaks(
        SearchVolumeSingle,
        false,
        |b| b[TMS][7]["count"] = json!(1),
        "count_value",
        Warning,
        "/TARGETED_MONTHLY_SEARCHES/7/count",
    );
}

#[test]
fn ccode_lower_case() {
    breaks(
        SearchVolumeBulk,
        false,
        |b| b[1]["ccode"] = json!("US"),
        "lowercase",
        Error,
        "/1/ccode",
    );
}

#[test]
fn ccode_matches_request() {
    breaks(
        SearchVolumeBulk,
        true,
        |b| b[1]["ccode"] = json!("gb"),
        "request_ccode",
        Error,
        "/1/ccode",
    );
    breaks(
        SearchVolumeSingle,
        true,
        |b| b["ccode"] = json!("gb"),
        "request_ccode",
        Error,
        "/ccode",
    );
}

#[test]
fn competition_0_to_1_is_observed() {
    breaks(
        SearchVolumeBulk,
        false,
        |b| b[0]["COMPETITION"] = json!(1.5),
        "range",
        Warning,
        "/0/COMPETITION",
    );
}

#[test]
fn bulk_one_record_per_keyword_in_request_order() {
    breaks(
        SearchVolumeBulk,
        true,
        |b| b[1]["keyword"] = json!("hiking shoes"),
        "request_keyword",
        Error,
        "/1/keyword",
    );
    breaks(
        SearchVolumeBulk,
        true,
        |b| {
            b.as_array_mut().unwrap().pop();
        },
        "record_count",
        Error,
        "",
    );
    let mut b = valid(SearchVolumeBulk);
    b.as_array_mut().unwrap().swap(0, 1);
    let r = check(SearchVolumeBulk, &b, true);
    has(&r, "request_keyword", Error, "/0/keyword");
    has(&r, "request_keyword", Error, "/1/keyword");
    // Without the request there is nothing to compare with.
    assert!(check(SearchVolumeBulk, &b, false).issues.is_empty());
}

#[test]
fn single_keyword_matches_request() {
    breaks(
        SearchVolumeSingle,
        true,
        |b| b["keyword"] = json!("running shoe"),
        "request_keyword",
        Error,
        "/keyword",
    );
}

// ---- domain stats --------------------------------------------------------------------

#[test]
fn domain_stats_values_are_strings() {
    breaks(
        DomainStats,
        false,
        |b| b[0]["alphaDA"] = json!(35),
        "type",
        Error,
        "/0/alphaDA",
    );
    breaks(
        DomainStats,
        false,
        |b| b[1]["domainAsEntered"] = json!(null),
        "type",
        Error,
        "/1/domainAsEntered",
    );
    breaks(
        DomainStats,
        false,
        |b| {
            b[0].as_object_mut().unwrap().remove("betaCF");
        },
        "missing_field",
        Error,
        "/0/betaCF",
    );
}

#[test]
fn domain_stats_relations_to_the_request_are_warnings_never_errors() {
    // The spec says only that `domainAsEntered` is "present only on some records": a value
    // in another form of a requested domain (case, `www.`, a trailing dot) is no issue, and
    // one naming no requested domain is a warning, so strict mode keeps the answer. The
    // audit's rule made the first an error (TESTING.md, "Rules downgraded").
    let mut body = valid(DomainStats);
    body[0]["domainAsEntered"] = json!("WWW.Example.com.");
    body[1]["domain"] = json!("Example.COM");
    let report = check(DomainStats, &body, true);
    assert!(
        report.ok() && report.warnings().next().is_none(),
        "{report:?}"
    );
    for field in ["domain", "domainAsEntered"] {
        let mut body = valid(DomainStats);
        body[1][field] = json!("unrequested.example");
        let report = check(DomainStats, &body, true);
        assert!(report.ok(), "{field}: {report:?}");
        only(&report, "request_domain", Warning, &format!("/1/{field}"));
    }
}

#[test]
fn domain_stats_numbers_are_sent_as_strings() {
    // "numbers are sent as strings; unavailable values are empty strings": a numeric value
    // that is neither is an error; the name-like values are any text.
    for bad in ["12k", " 12", "NaN", "inf", "1.", ".5", "--1", "1,234"] {
        breaks(
            DomainStats,
            false,
            |b| b[0]["alphaLinks"] = json!(bad),
            "number_text",
            Error,
            "/0/alphaLinks",
        );
    }
    breaks(
        DomainStats,
        false,
        |b| b[1]["betaTTF0Value"] = json!("high"),
        "number_text",
        Error,
        "/1/betaTTF0Value",
    );
    let mut body = valid(DomainStats);
    for (field, value) in [
        ("alphaLinks", "-3"),
        ("betaCF", "12.5"),
        // Other spellings of a number: a sign, an exponent.
        ("betaLinks", "1.2E+7"),
        ("alphaRank", "+5"),
        // Unavailable: empty, also the scope.
        ("betaStatReturned", ""),
        ("alphaTrust", ""),
        ("betaTTF0Name", "Arts/Music 1.5k"),
    ] {
        body[0][field] = json!(value);
    }
    let report = check(DomainStats, &body, false);
    assert!(
        report.ok() && report.warnings().next().is_none(),
        "{report:?}"
    );
}

#[test]
fn url_fields_are_http_urls() {
    // Each field the spec calls a URL: a value that is not an absolute http(s) URL is a
    // `prefix` warning (every URL the spec shows is http(s); it states no syntax).
    type Mutate = fn(&mut serde_json::Value);
    let cases: [(Operation, &str, Mutate); 7] = [
        (OutlineSeo, "/0/url", |b| {
            b[0]["url"] = json!("example.com/a")
        }),
        (MicroblogPost, "/0/url", |b| {
            b[0]["url"] = json!("/status/1")
        }),
        (MicroblogPost, "/0/profile/user_avatar", |b| {
            b[0]["profile"]["user_avatar"] = json!("javascript:alert(1)")
        }),
        (VideoVideo, "/0/url", |b| b[0]["url"] = json!("watch?v=1")),
        (VideoVideo, "/0/image", |b| {
            b[0]["image"] = json!("//i.example.com/1.jpg")
        }),
        (VideoVideo, "/0/channel/photo", |b| {
            b[0]["channel"]["photo"] = json!("")
        }),
        (RankedKeywordsDomain, "/0/url", |b| {
            b[0]["url"] = json!("ftp://example.com/")
        }),
    ];
    for (op, path, mutate) in cases {
        breaks(op, false, mutate, "prefix", Warning, path);
    }
}

#[test]
fn domain_stats_scope_root_is_observed() {
    breaks(
        DomainStats,
        false,
        |b| b[0]["betaStatReturned"] = json!("subdomain"),
        "enum",
        Warning,
        "/0/betaStatReturned",
    );
}

#[test]
fn domain_stats_unknown_keys() {
    breaks(
        DomainStats,
        false,
        |b| b[0]["gammaRank"] = json!("4"),
        "unknown_field",
        Warning,
        "/0/gammaRank",
    );
    let mut b = valid(DomainStats);
    b[0]["gammaRank"] = json!(4);
    let r = check(DomainStats, &b, false);
    assert_eq!(r.issues.len(), 2);
    has(&r, "unknown_field", Warning, "/0/gammaRank");
    has(&r, "type", Error, "/0/gammaRank");
}

// ---- backlink metrics / ranked keywords ----------------------------------------------

#[test]
fn backlink_metrics_one_record_per_url() {
    breaks(
        BacklinkMetrics,
        true,
        |b| {
            b.as_array_mut().unwrap().pop();
        },
        "record_count",
        Error,
        "",
    );
    breaks(
        BacklinkMetrics,
        false,
        |b| b[1]["ips"] = json!("5"),
        "type",
        Error,
        "/1/ips",
    );
}

#[test]
fn ranked_keyword_competition_0_to_100_is_observed() {
    breaks(
        RankedKeywordsDomain,
        false,
        |b| b[1]["competition"] = json!(100.5),
        "range",
        Warning,
        "/1/competition",
    );
    breaks(
        RankedKeywordsDomain,
        false,
        |b| b[1]["rank"] = json!(1.5),
        "type",
        Error,
        "/1/rank",
    );
}

// ---- backlink overview ---------------------------------------------------------------

#[test]
fn stats_newest_first() {
    let mut b = valid(BacklinkOverview);
    b["stats"].as_array_mut().unwrap().swap(10, 11);
    let r = check(BacklinkOverview, &b, false);
    assert_eq!(r.error_count(), 1, "{:#?}", r.issues);
    has(&r, "order", Error, "/stats/11/date");
    // A repeated day is not newest-first either (the gap after it is only observed).
    let mut b = valid(BacklinkOverview);
    let d = b["stats"][5]["date"].clone();
    b["stats"][6]["date"] = d;
    let r = check(BacklinkOverview, &b, false);
    assert_eq!(r.error_count(), 1, "{:#?}", r.issues);
    has(&r, "order", Error, "/stats/6/date");
}

#[test]
fn stats_dates() {
    let mut b = valid(BacklinkOverview);
    b["stats"][0]["date"] = json!("2024-3-4");
    let r = check(BacklinkOverview, &b, false);
    assert_eq!(r.error_count(), 1);
    has(&r, "date_format", Error, "/stats/0/date");
}

#[test]
fn stats_consecutive_days_are_observed() {
    breaks(
        BacklinkOverview,
        false,
        |b| {
            for (i, e) in b["stats"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .enumerate()
                .skip(20)
            {
                e["date"] = json!(ymd(19_786 - i as i64 - 1));
            }
        },
        "consecutive_days",
        Warning,
        "/stats/20/date",
    );
}

#[test]
fn stats_64_entries_are_observed() {
    breaks(
        BacklinkOverview,
        false,
        |b| {
            b["stats"].as_array_mut().unwrap().pop();
        },
        "stats_count",
        Warning,
        "/stats",
    );
}

#[test]
fn ref_newlost_rules() {
    breaks(
        BacklinkOverview,
        false,
        |b| b["ref_newlost"][1]["new_lost_type"] = json!("gained"),
        "enum",
        Error,
        "/ref_newlost/1/new_lost_type",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["ref_newlost"][2]["first_seen"] = json!("2024-02-30"),
        "date_format",
        Error,
        "/ref_newlost/2/first_seen",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["ref_newlost"][0]["new_lost_date"] = json!("2024-03-01T00:00:00Z"),
        "date_format",
        Error,
        "/ref_newlost/0/new_lost_date",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["ref_newlost"][0]["domain_inlink_rank"] = json!(101),
        "range",
        Warning,
        "/ref_newlost/0/domain_inlink_rank",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["ref_newlost"].as_array_mut().unwrap().swap(0, 1),
        "order",
        Warning,
        "/ref_newlost/1/domain_inlink_rank",
    );
}

#[test]
fn overview_metrics_timestamps() {
    breaks(
        BacklinkOverview,
        false,
        |b| b["metrics"]["createdAt"] = json!("2024-01-02 03:04:05"),
        "timestamp",
        Error,
        "/metrics/createdAt",
    );
    breaks(
        BacklinkOverview,
        false,
        |b| b["metrics"]["updatedAt"] = json!("2024-01-02T03:04:05+01:00"),
        "timestamp",
        Error,
        "/metrics/updatedAt",
    );
}

// ---- outline -------------------------------------------------------------------------

#[test]
fn outline_at_most_10_pages() {
    breaks(
        OutlineSeo,
        false,
        |b| {
            let a = b.as_array_mut().unwrap();
            // 11 pages, ranks 1 to 10 (an equal rank is in order).
            for rank in 4..=11 {
                a.push(json!({"headings": [], "url": "https://x.com", "rank": rank.min(10)}));
            }
        },
        "max_items",
        Error,
        "",
    );
}

#[test]
fn outline_rank_ascending() {
    breaks(
        OutlineSeo,
        false,
        |b| b.as_array_mut().unwrap().swap(1, 2),
        "order",
        Error,
        "/2/rank",
    );
}

#[test]
fn heading_types_h1_to_h4_are_observed() {
    breaks(
        OutlineSeo,
        false,
        |b| b[0]["headings"][1]["type"] = json!("h5"),
        "enum",
        Warning,
        "/0/headings/1/type",
    );
}

// ---- microblog -----------------------------------------------------------------------

#[test]
fn microblog_prefixes() {
    breaks(
        MicroblogPost,
        false,
        |b| b[0]["hashtags"][0] = json!("shoes"),
        "prefix",
        Error,
        "/0/hashtags/0",
    );
    breaks(
        MicroblogPost,
        false,
        |b| b[0]["tagged"][0] = json!("bob"),
        "prefix",
        Error,
        "/0/tagged/0",
    );
}

#[test]
fn microblog_posted_on_with_milliseconds() {
    breaks(
        MicroblogPost,
        false,
        |b| b[1]["posted_on"] = json!("2024-03-01T00:00:00Z"),
        "timestamp",
        Error,
        "/1/posted_on",
    );
    breaks(
        MicroblogPost,
        false,
        |b| b[1]["posted_on"] = json!("2024-03-01T00:00:00.000"),
        "timestamp",
        Error,
        "/1/posted_on",
    );
}

#[test]
fn microblog_profile_types() {
    breaks(
        MicroblogPost,
        false,
        |b| b[0]["profile"]["verified"] = json!("true"),
        "type",
        Error,
        "/0/profile/verified",
    );
    breaks(
        MicroblogPost,
        false,
        |b| b[0]["profile"]["user_id"] = json!("42"),
        "type",
        Error,
        "/0/profile/user_id",
    );
}

// ---- video ---------------------------------------------------------------------------

#[test]
fn video_posted_on_utc() {
    breaks(
        VideoVideo,
        false,
        |b| b[0]["posted_on"] = json!("2024-03-01T12:00:00+02:00"),
        "timestamp",
        Error,
        "/0/posted_on",
    );
    let mut b = valid(VideoVideo);
    b[0]["posted_on"] = json!("2024-03-01T12:00:00.5Z");
    assert!(check(VideoVideo, &b, false).issues.is_empty());
}

#[test]
fn video_observed_values() {
    breaks(
        VideoVideo,
        false,
        |b| b[0]["likes"] = json!(5),
        "range",
        Warning,
        "/0/likes",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["dislikes"] = json!(1),
        "range",
        Warning,
        "/0/dislikes",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["error"] = json!(true),
        "record_error",
        Warning,
        "/0/error",
    );
}

#[test]
fn video_keywords_start_with_the_searched_keyword() {
    breaks(
        VideoVideo,
        false,
        |b| b[0]["keywords"] = json!([]),
        "min_items",
        Error,
        "/0/keywords",
    );
    breaks(
        VideoVideo,
        true,
        |b| b[0]["keywords"] = json!(["shoes", "running shoes"]),
        "request_keyword",
        Error,
        "/0/keywords/0",
    );
    let mut b = valid(VideoVideo);
    b[0]["keywords"] = json!(["  RUNNING   Shoes "]);
    assert!(check(VideoVideo, &b, true).issues.is_empty());
}

#[test]
fn video_hashtag_shapes() {
    let logging = json!({"trackingParams": "x", "visibility": {"types": "1"}, "enableDisplayloggerExperiment": false});
    let l2 = logging.clone();
    breaks(
        VideoVideo,
        false,
        move |b| b[0]["hashtags"][1]["loggingDirectives"] = l2,
        "hashtag_shape",
        Error,
        "/0/hashtags/1",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["hashtags"][1]["navigationEndpoint"] = nav(true),
        "hashtag_shape",
        Error,
        "/0/hashtags/1",
    );
    breaks(
        VideoVideo,
        false,
        move |b| {
            b[0]["hashtags"]
                .as_array_mut()
                .unwrap()
                .push(json!({"text": "#x", "loggingDirectives": logging}))
        },
        "hashtag_shape",
        Error,
        "/0/hashtags/3/loggingDirectives",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["hashtags"][1]["text"] = json!("  "),
        "hashtag_shape",
        Warning,
        "/0/hashtags/1",
    );
    breaks(
        VideoVideo,
        false,
        |b| {
            b[0]["hashtags"][0].as_object_mut().unwrap().remove("text");
        },
        "missing_field",
        Error,
        "/0/hashtags/0/text",
    );
    breaks(
        VideoVideo,
        false,
        |b| {
            b[0]["hashtags"][0]["navigationEndpoint"]["browseEndpoint"]
                .as_object_mut()
                .unwrap()
                .remove("browseId");
        },
        "missing_field",
        Error,
        "/0/hashtags/0/navigationEndpoint/browseEndpoint/browseId",
    );
    breaks(
        VideoVideo,
        false,
        |b| {
            b[0]["hashtags"][0]["navigationEndpoint"]["commandMetadata"]["webCommandMetadata"]
                ["rootVe"] = json!("6827")
        },
        "type",
        Error,
        "/0/hashtags/0/navigationEndpoint/commandMetadata/webCommandMetadata/rootVe",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["hashtags"][0]["loggingDirectives"]["visibility"]["types"] = json!(12),
        "type",
        Error,
        "/0/hashtags/0/loggingDirectives/visibility/types",
    );
}

#[test]
fn video_channel() {
    breaks(
        VideoVideo,
        false,
        |b| b[0]["channel"]["is_verified"] = json!(0),
        "type",
        Error,
        "/0/channel/is_verified",
    );
    breaks(
        VideoVideo,
        false,
        |b| {
            b[0]["channel"].as_object_mut().unwrap().remove("banner");
        },
        "missing_field",
        Error,
        "/0/channel/banner",
    );
    breaks(
        VideoVideo,
        false,
        |b| b[0]["language"] = json!(["en", 1]),
        "type",
        Error,
        "/0/language/1",
    );
}

// ---- related -------------------------------------------------------------------------

#[test]
fn related_observed_rules() {
    breaks(
        Related,
        false,
        |b| b.as_array_mut().unwrap().swap(1, 2),
        "order",
        Warning,
        "/2/search_volume",
    );
    breaks(
        Related,
        false,
        |b| b[0]["kd"] = json!(101),
        "range",
        Warning,
        "/0/kd",
    );
    breaks(
        Related,
        false,
        |b| b[0]["competition"] = json!(-0.1),
        "range",
        Warning,
        "/0/competition",
    );
}

#[test]
fn huge_years_do_not_overflow_the_order_rule() {
    let month =
        |y: &str| format!(r#"{{"month":"May","year":{y},"value":1,"count":1,"date":"{y}-May"}}"#);
    let months: Vec<String> = ["9223372036854775807", "-9223372036854775808"]
        .iter()
        .cycle()
        .take(12)
        .map(|y| month(y))
        .collect();
    let body = format!(
        r#"[{{"ccode":"us","keyword":"k","AVERAGE_CPC":1.0,"COMPETITION":0.5,"SEARCH_VOLUME":1,"TARGETED_MONTHLY_SEARCHES":[{}]}}]"#,
        months.join(",")
    );
    let r = serpkit::validate::validate(serpkit::Operation::SearchVolumeBulk, &body, None);
    assert!(!r.ok());
    assert!(r.errors().any(|i| i.code == "order"), "{r}");
}
