//! Feeds arbitrary bytes to every operation's validator: the first byte picks the operation
//! and whether a request is passed, the rest is the body.
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
});
