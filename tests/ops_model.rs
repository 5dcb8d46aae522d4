//! The typed model: every operation decodes a spec-shaped body (tests/fixtures), re-encodes
//! to the same JSON, prices as the table says, and rejects every bad request field by name.
#![cfg(not(target_arch = "wasm32"))]

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use serpkit::ops::{self, check, OperationRequest};
use serpkit::{decode, estimate_cost, Operation, Request, RequestErrorKind, Usd};

fn fixture(op: Operation) -> String {
    let name = op.path().replace(['/', '-'], "_");
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// JSON equality where 1 and 1.0 are the same number (the model writes numbers as typed).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn round_trip<R: OperationRequest>() -> R::Response
where
    R::Response: Serialize + DeserializeOwned,
{
    let text = fixture(R::OPERATION);
    let typed: R::Response = decode(&text).unwrap_or_else(|e| panic!("{}: {e}", R::OPERATION));
    let again = serde_json::to_value(&typed).unwrap();
    let original: Value = serde_json::from_str(&text).unwrap();
    assert!(
        same(&original, &again),
        "{} did not round-trip:\n{original}\n{again}",
        R::OPERATION
    );
    typed
}

#[test]
fn search_volume_bulk() {
    let rows = round_trip::<ops::search_volume_bulk::Request>();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].targeted_monthly_searches.len(), 12);
    assert_eq!(rows[0].targeted_monthly_searches[11].date, "2024-November");
    assert!((rows[0].yearly_change().unwrap() - (90500.0 - 74000.0) / 74000.0).abs() < 1e-9);
}

#[test]
fn search_volume_single() {
    let rec = round_trip::<ops::search_volume_single::Request>();
    assert_eq!(rec.ccode, "us");
    assert_eq!(rec.average_cpc, 1.42);
}

#[test]
fn domainstats_raw_strings_and_typed_accessors() {
    let rows = round_trip::<ops::domainstats::Request>();
    assert_eq!(rows[0].alpha_da, "93");
    assert_eq!(rows[0].alpha_da(), Some(93.0));
    assert_eq!(
        rows[0].alpha_trust(),
        None,
        "empty string is unavailable, not 0"
    );
    assert_eq!(rows[0].domain_as_entered.as_deref(), Some("Example.com"));
    assert_eq!(rows[1].domain_as_entered, None);
    assert_eq!(rows[1].beta_tf(), None);
    let ttf = rows[0].topical_trust_flow();
    assert_eq!(ttf.len(), 2);
    assert_eq!(ttf[0].name, "Computers/Internet/Web Design");
    assert_eq!(ttf[0].value, Some(55.0));
    assert_eq!(ops::domainstats::DomainStatsRecord::VALUE_FIELDS.len(), 25);
}

#[test]
fn backlink_metrics() {
    let rows = round_trip::<ops::backlink_metrics::Request>();
    assert_eq!(rows[0].refdomains, 420);
}

#[test]
fn ranked_keywords_metrics() {
    let rows = round_trip::<ops::ranked_keywords_metrics::Request>();
    let buckets = rows[0].buckets();
    assert_eq!(buckets.len(), 11);
    assert!(!buckets.iter().any(|(label, _)| *label == "61-70"));
}

#[test]
fn ranked_keywords_domain() {
    let rows = round_trip::<ops::ranked_keywords_domain::Request>();
    assert_eq!(rows[1].competition, 42.5);
}

#[test]
fn backlink_overview() {
    let o = round_trip::<ops::backlink_overview::Request>();
    assert_eq!(o.metrics.id, "65f1c2a9e4b0a1b2c3d4e5f6");
    assert_eq!(o.metrics.version, 0);
    assert_eq!(o.metrics.backlinks.backlinks, 55000);
    assert_eq!(o.stats.len(), 3);
    assert_eq!(o.ref_newlost[1].new_lost_type, "lost");
}

#[test]
fn outline_seo() {
    let pages = round_trip::<ops::outline_seo::Request>();
    assert_eq!(pages[0].headings[1].level(), Some(2));
    assert!(pages[0].headings[1].text.contains("<span"));
}

#[test]
fn microblog_post() {
    let posts = round_trip::<ops::microblog_post::Request>();
    assert_eq!(posts[0].profile.user_id, 123456789);
    assert_eq!(posts[0].hashtags, vec!["#running"]);
    assert_eq!(posts[0].media.len(), 1);
}

#[test]
fn video_video() {
    use ops::video_video::HashtagKind;
    let videos = round_trip::<ops::video_video::Request>();
    let kinds: Vec<_> = videos[0].hashtags.iter().map(|h| h.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            HashtagKind::Tag,
            HashtagKind::Separator,
            HashtagKind::Playlist
        ]
    );
    let playlist = videos[0].hashtags[2].navigation_endpoint.as_ref().unwrap();
    assert_eq!(playlist.browse_endpoint.params, None);
    assert_eq!(videos[0].channel.name, "Shoe Lab");
}

#[test]
fn related() {
    let rows = round_trip::<ops::related::Request>();
    assert_eq!(rows[1].competition, 1.0);
}

#[test]
fn every_operation_has_a_fixture_and_a_decoder() {
    for op in Operation::ALL {
        assert!(!fixture(op).is_empty(), "{op}");
    }
}

#[test]
fn lenient_decode_keeps_usable_values() {
    // A number where the spec says string, a string where it says integer, a missing field.
    let rows: ops::domainstats::Response =
        decode(r#"[{"domain":"a.com","alphaDA":57,"betaTF":null}]"#).unwrap();
    assert_eq!(rows[0].alpha_da, "57");
    assert_eq!(rows[0].beta_tf, "");
    let rows: ops::related::Response =
        decode(r#"[{"keyword":"k","search_volume":"1300","kd":12.0}]"#).unwrap();
    assert_eq!(
        (rows[0].search_volume, rows[0].kd, rows[0].cpc),
        (1300, 12, 0.0)
    );
    // Unsafe guesses are refused, naming the path.
    let err = decode::<ops::related::Response>(r#"[{"keyword":"k"},{"kd":{"x":1}}]"#).unwrap_err();
    assert_eq!(err.path, "/1/kd");
    assert!(!err.syntax);
    let err = decode::<ops::related::Response>("[{\"kd\": 1,\n  \"cpc\" 2}]").unwrap_err();
    assert!(err.syntax);
    assert_eq!((err.line, err.column), (2, 9));
    let err = decode::<ops::related::Response>("[] x").unwrap_err();
    assert!(err.syntax);
}

fn req(op: Operation, json: &str) -> Request {
    Request::from_json(op, json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn prices_per_unit() {
    use Operation::*;
    let bulk = req(
        SearchVolumeBulk,
        &format!(
            r#"{{"keywords":{},"ccode":"US"}}"#,
            serde_json::to_string(&vec!["k"; 100]).unwrap()
        ),
    );
    assert_eq!(estimate_cost(&bulk).to_string(), "$0.0300");
    let cases = [
        (
            req(SearchVolumeSingle, r#"{"keyword":"k","ccode":"US"}"#),
            300,
        ),
        (
            req(DomainStats, r#"{"domains":["a.com","b.com","c.com"]}"#),
            150_000,
        ),
        (RankedKeywordsMetrics.pipe(r#"{"domain":"a.com"}"#), 100_000),
        (RankedKeywordsDomain.pipe(r#"{"domain":"a.com"}"#), 100_000),
        (BacklinkOverview.pipe(r#"{"domain":"a.com"}"#), 250_000),
        (OutlineSeo.pipe(r#"{"keyword":"k"}"#), 500_000),
        (MicroblogPost.pipe(r#"{"keyword":"k"}"#), 250_000),
        (VideoVideo.pipe(r#"{"keyword":"k"}"#), 250_000),
        (Related.pipe(r#"{"keyword":"k","ccode":"US"}"#), 150_000),
    ];
    for (r, micros) in cases {
        assert_eq!(
            estimate_cost(&r),
            Usd::from_micros(micros),
            "{}",
            r.operation()
        );
    }
}

/// Decision (src/ops/backlink_metrics.rs): backlink/metrics is charged per URL, even when
/// several URLs share a domain.
#[test]
fn backlink_metrics_is_charged_per_url() {
    let r = req(
        Operation::BacklinkMetrics,
        r#"{"urls":["https://a.com/1","https://a.com/2","https://b.com/"]}"#,
    );
    assert_eq!(r.billable_units(), 3);
    assert_eq!(estimate_cost(&r).to_string(), "$0.1500");
}

#[test]
fn money_is_exact_over_ten_thousand_keywords() {
    let keywords: Vec<String> = (0..10_000).map(|i| format!("kw {i}")).collect();
    let r = ops::search_volume_bulk::Request {
        key: Default::default(),
        keywords,
        ccode: "US".into(),
    };
    assert_eq!(r.estimate_cost(), Usd::from_micros(3_000_000));
    let sum: Usd = (0..10_000)
        .map(|_| ops::search_volume_bulk::PRICE.usd)
        .sum();
    assert_eq!(sum.to_string(), "$3.0000");
}

trait Pipe {
    fn pipe(self, json: &str) -> Request;
}
impl Pipe for Operation {
    fn pipe(self, json: &str) -> Request {
        req(self, json)
    }
}

fn rejects(op: Operation, json: &str, field: &str, kind: RequestErrorKind) {
    let r = req(op, json);
    let err = r.check().expect_err(json);
    assert_eq!((err.field.as_str(), &err.kind), (field, &kind), "{json}");
    assert!(err.to_string().contains(field), "{err}");
}

#[test]
fn request_checks_name_the_field() {
    use Operation::*;
    use RequestErrorKind::*;
    let many = serde_json::to_string(&vec!["k"; check::MAX_KEYWORDS + 1]).unwrap();
    let long = "k".repeat(check::MAX_KEYWORD_CHARS + 1);
    rejects(
        SearchVolumeBulk,
        r#"{"keywords":[],"ccode":"US"}"#,
        "/keywords",
        EmptyList,
    );
    rejects(
        SearchVolumeBulk,
        r#"{"keywords":["a"," "],"ccode":"US"}"#,
        "/keywords/1",
        EmptyString,
    );
    rejects(
        SearchVolumeBulk,
        r#"{"keywords":["a\nb"],"ccode":"US"}"#,
        "/keywords/0",
        ControlCharacter,
    );
    rejects(
        SearchVolumeBulk,
        &format!(r#"{{"keywords":{many},"ccode":"US"}}"#),
        "/keywords",
        TooMany {
            max: check::MAX_KEYWORDS,
            got: check::MAX_KEYWORDS + 1,
        },
    );
    rejects(
        SearchVolumeSingle,
        &format!(r#"{{"keyword":"{long}","ccode":"US"}}"#),
        "/keyword",
        TooLong {
            max: check::MAX_KEYWORD_CHARS,
            got: check::MAX_KEYWORD_CHARS + 1,
        },
    );
    rejects(
        SearchVolumeBulk,
        r#"{"keywords":["a"],"ccode":"USA"}"#,
        "/ccode",
        CountryCode,
    );
    rejects(
        SearchVolumeSingle,
        r#"{"keyword":"a","ccode":"1A"}"#,
        "/ccode",
        CountryCode,
    );
    rejects(
        Related,
        r#"{"keyword":"a","ccode":""}"#,
        "/ccode",
        CountryCode,
    );
    rejects(
        Related,
        r#"{"keyword":"","ccode":"US"}"#,
        "/keyword",
        EmptyString,
    );
    rejects(DomainStats, r#"{"domains":[]}"#, "/domains", EmptyList);
    rejects(
        DomainStats,
        r#"{"domains":["a.com","https://b.com"]}"#,
        "/domains/1",
        DomainIsUrl,
    );
    rejects(
        DomainStats,
        r#"{"domains":["not a domain"]}"#,
        "/domains/0",
        InvalidDomain,
    );
    rejects(BacklinkMetrics, r#"{"urls":[]}"#, "/urls", EmptyList);
    rejects(
        BacklinkMetrics,
        r#"{"urls":["example.com/page"]}"#,
        "/urls/0",
        NotHttpUrl,
    );
    rejects(
        BacklinkMetrics,
        r#"{"urls":["javascript:alert(1)"]}"#,
        "/urls/0",
        NotHttpUrl,
    );
    rejects(
        BacklinkMetrics,
        r#"{"urls":["ftp://a.com/x"]}"#,
        "/urls/0",
        NotHttpUrl,
    );
    for op in [
        RankedKeywordsMetrics,
        RankedKeywordsDomain,
        BacklinkOverview,
    ] {
        rejects(op, r#"{"domain":"http://a.com/"}"#, "/domain", DomainIsUrl);
        rejects(op, r#"{"domain":""}"#, "/domain", EmptyString);
    }
    for op in [OutlineSeo, MicroblogPost, VideoVideo] {
        rejects(op, r#"{"keyword":"  "}"#, "/keyword", EmptyString);
    }
    // Shapes: unknown and missing fields are malformed requests.
    for (op, json) in [
        (Related, r#"{"keyword":"a"}"#),
        (SearchVolumeBulk, r#"{"keyword":"a","ccode":"US"}"#),
        (DomainStats, r#"{"domains":"a.com"}"#),
    ] {
        assert_eq!(
            Request::from_json(op, json).unwrap_err().code(),
            "malformed",
            "{json}"
        );
    }
}

#[test]
fn valid_requests_pass() {
    use Operation::*;
    for (op, json) in [
        (
            SearchVolumeBulk,
            r#"{"key":"k","keywords":["running shoes"],"ccode":"US"}"#,
        ),
        (
            SearchVolumeSingle,
            r#"{"keyword":"running shoes","ccode":"gb"}"#,
        ),
        (
            DomainStats,
            r#"{"domains":["example.com","blog.example.co.uk"]}"#,
        ),
        (BacklinkMetrics, r#"{"urls":["https://example.com/a?b=c"]}"#),
        (RankedKeywordsMetrics, r#"{"domain":"example.com"}"#),
        (RankedKeywordsDomain, r#"{"domain":"example.com"}"#),
        (BacklinkOverview, r#"{"domain":"example.com"}"#),
        (OutlineSeo, r#"{"keyword":"café au lait"}"#),
        (MicroblogPost, r##"{"keyword":"#running"}"##),
        (VideoVideo, r#"{"keyword":"running shoes review"}"#),
        (Related, r#"{"keyword":"running shoes","ccode":"US"}"#),
    ] {
        let r = req(op, json);
        assert_eq!(r.check(), Ok(()), "{json}");
        assert_eq!(r.operation(), op);
        let again = Request::from_json(op, &r.to_json()).unwrap();
        assert_eq!(again, r);
    }
}

/// ARCHITECTURE.md's table of one operation's names agrees with the one list of operations
/// (`for_each_operation!`): variant, module, path and JS method, in order.
#[test]
fn architecture_names_table_matches_the_list() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/ARCHITECTURE.md")).unwrap();
    let section = text
        .split("## One operation's names")
        .nth(1)
        .expect("ARCHITECTURE.md has the names table");
    let rows: Vec<Vec<String>> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect();
    let expected: Vec<Vec<String>> = Operation::ALL
        .iter()
        .map(|op| {
            vec![
                format!("{op:?}"),
                op.module().to_owned(),
                op.path().to_owned(),
                op.js_method().to_owned(),
            ]
        })
        .collect();
    assert_eq!(rows, expected);
}
