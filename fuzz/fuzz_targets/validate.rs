//! Feeds arbitrary bytes to every operation's validator and typed decoder: the first byte
//! picks the operation and whether a request is passed, the rest is the body. Invariants: no
//! panic, the issue cap holds, "is it JSON" agrees with serde_json, and whatever the
//! validator passes, the typed decoder decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serpkit::ops::{Operation, Request};
use serpkit::validate::{validate, MAX_ISSUES};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let op = Operation::ALL[usize::from(first) % Operation::ALL.len()];
    let request = (first & 0x80 != 0).then(|| {
        let text = match op {
            Operation::SearchVolumeBulk => r#"{"keywords":["a","b"],"ccode":"US"}"#,
            Operation::SearchVolumeSingle | Operation::Related => r#"{"keyword":"a","ccode":"US"}"#,
            Operation::DomainStats => r#"{"domains":["a.com"]}"#,
            Operation::BacklinkMetrics => r#"{"urls":["https://a.com/"]}"#,
            Operation::RankedKeywordsMetrics
            | Operation::RankedKeywordsDomain
            | Operation::BacklinkOverview => r#"{"domain":"a.com"}"#,
            _ => r#"{"keyword":"a"}"#,
        };
        Request::from_json(op, text).ok()
    });
    let text = String::from_utf8_lossy(rest);
    let report = validate(op, &text, request.flatten().as_ref());
    assert!(report.issues.len() <= MAX_ISSUES + 1);
    let is_json = serde_json::from_str::<serde_json::Value>(&text).is_ok();
    assert_eq!(is_json, !report.issues.iter().any(|i| i.code == "json"));
    let decoded = decode_typed(op, &text);
    if report.ok() {
        assert!(decoded, "validator ok but the typed decode failed");
    }
});

/// Decodes `text` as `op`'s typed response; true when it decoded.
fn decode_typed(op: Operation, text: &str) -> bool {
    use serpkit::decode;
    use serpkit::ops::*;
    match op {
        Operation::SearchVolumeBulk => decode::<search_volume_bulk::Response>(text).is_ok(),
        Operation::SearchVolumeSingle => decode::<search_volume_single::Response>(text).is_ok(),
        Operation::DomainStats => decode::<domainstats::Response>(text).is_ok(),
        Operation::BacklinkMetrics => decode::<backlink_metrics::Response>(text).is_ok(),
        Operation::RankedKeywordsMetrics => {
            decode::<ranked_keywords_metrics::Response>(text).is_ok()
        }
        Operation::RankedKeywordsDomain => decode::<ranked_keywords_domain::Response>(text).is_ok(),
        Operation::BacklinkOverview => decode::<backlink_overview::Response>(text).is_ok(),
        Operation::OutlineSeo => decode::<outline_seo::Response>(text).is_ok(),
        Operation::MicroblogPost => decode::<microblog_post::Response>(text).is_ok(),
        Operation::VideoVideo => decode::<video_video::Response>(text).is_ok(),
        Operation::Related => decode::<related::Response>(text).is_ok(),
    }
}
