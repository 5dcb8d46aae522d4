//! Short-budget property tests of the validator (run by `cargo test`): arbitrary bytes and
//! mutated valid bodies, for every operation, with and without a request. Nothing may panic,
//! the issue list stays capped, and "is this JSON?" agrees with `serde_json`.
//! Long runs: the cargo-fuzz target in `fuzz/`.
#![cfg(not(target_arch = "wasm32"))]

mod validate_common;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use serpkit::ops::Operation;
use serpkit::validate::{validate, Report, MAX_ISSUES};

/// `cases` per property (a short CI budget), or `PROPTEST_CASES` when set (long runs).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

fn op_strategy() -> impl Strategy<Value = Operation> {
    (0..Operation::ALL.len()).prop_map(|i| Operation::ALL[i])
}

/// Validates `text` as `op` (with the fixture request when `with_request`) and checks the
/// invariants that hold for any input.
fn check_invariants(op: Operation, text: &str, with_request: bool) -> Report {
    let req = validate_common::request(op);
    let r = validate(op, text, with_request.then_some(&req));
    assert!(r.issues.len() <= MAX_ISSUES + 1);
    assert_eq!(
        r.error_count() + r.warning_count(),
        r.issues.len() + r.omitted()
    );
    assert_eq!(r.ok(), r.error_count() == 0);
    let is_json = serde_json::from_str::<serde_json::Value>(text).is_ok();
    let said_json = !r.issues.iter().any(|i| i.code == "json");
    assert_eq!(
        is_json, said_json,
        "JSON-ness disagrees with serde_json on {text:?}: {r}"
    );
    for i in &r.issues {
        assert!(i.path.is_empty() || i.path.starts_with('/'));
    }
    serde_json::to_string(&r).expect("report serializes");
    // The typed decoder never panics, and whatever the validator passes, it decodes.
    let decoded = decode_typed(op, text);
    if r.ok() {
        assert!(
            decoded.is_ok(),
            "validator ok but decode failed on {text:?}: {decoded:?}"
        );
    }
    r
}

/// Decodes `text` as `op`'s typed response.
fn decode_typed(op: Operation, text: &str) -> Result<(), serpkit::DecodeError> {
    use serpkit::decode;
    use serpkit::ops::*;
    match op {
        Operation::SearchVolumeBulk => decode::<search_volume_bulk::Response>(text).map(drop),
        Operation::SearchVolumeSingle => decode::<search_volume_single::Response>(text).map(drop),
        Operation::DomainStats => decode::<domainstats::Response>(text).map(drop),
        Operation::BacklinkMetrics => decode::<backlink_metrics::Response>(text).map(drop),
        Operation::RankedKeywordsMetrics => {
            decode::<ranked_keywords_metrics::Response>(text).map(drop)
        }
        Operation::RankedKeywordsDomain => {
            decode::<ranked_keywords_domain::Response>(text).map(drop)
        }
        Operation::BacklinkOverview => decode::<backlink_overview::Response>(text).map(drop),
        Operation::OutlineSeo => decode::<outline_seo::Response>(text).map(drop),
        Operation::MicroblogPost => decode::<microblog_post::Response>(text).map(drop),
        Operation::VideoVideo => decode::<video_video::Response>(text).map(drop),
        Operation::Related => decode::<related::Response>(text).map(drop),
    }
}

/// Snippets that make JSON-ish mutations likely to reach deep code paths.
const SNIPPETS: &[&str] = &[
    "null",
    "true",
    "1",
    "-0",
    "1.5",
    "1e400",
    "99999999999999999999",
    "\"\"",
    "\"x\"",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"\\u00e9\"",
    "\"\\ud800\"",
    "\\",
    "[]",
    "{}",
    "\"#a\"",
    "\" \"",
    "\"2024-02-30\"",
    "\"h9\"",
];

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Flip(a, b)),
        (any::<usize>(), 0usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..SNIPPETS.len()).prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), 0usize..200).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in muts {
        let len = b.len().max(1);
        match *m {
            Mutation::Flip(at, v) => {
                if let Some(x) = b.get_mut(at % len) {
                    *x = v;
                }
            }
            Mutation::Delete(at, n) => {
                let s = (at % len).min(b.len());
                let e = (s + n).min(b.len());
                b.drain(s..e);
            }
            Mutation::Insert(at, s) => {
                let at = (at % len).min(b.len());
                b.splice(at..at, SNIPPETS[s].bytes());
            }
            Mutation::Duplicate(at, n) => {
                let s = (at % len).min(b.len());
                let e = (s + n).min(b.len());
                let piece = b[s..e].to_vec();
                b.splice(e..e, piece);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn arbitrary_bytes(op in op_strategy(), bytes in proptest::collection::vec(any::<u8>(), 0..300), req in any::<bool>()) {
        check_invariants(op, &String::from_utf8_lossy(&bytes), req);
    }

    #[test]
    fn json_like_noise(op in op_strategy(), parts in proptest::collection::vec(0..SNIPPETS.len(), 0..60)) {
        let text: String = parts.iter().map(|&i| SNIPPETS[i]).collect();
        check_invariants(op, &text, false);
    }

    #[test]
    fn mutated_valid_bodies(op in op_strategy(), muts in proptest::collection::vec(mutation(), 1..6), req in any::<bool>()) {
        let text = validate_common::valid(op).to_string();
        check_invariants(op, &apply(&text, &muts), req);
    }

    #[test]
    fn valid_json_of_the_wrong_shape(op in op_strategy(), other in op_strategy(), muts in proptest::collection::vec(mutation(), 0..3)) {
        // Another operation's body, re-serialized when the mutation keeps it JSON: never a
        // `json` error, always a clean verdict.
        let text = apply(&validate_common::valid(other).to_string(), &muts);
        let r = check_invariants(op, &text, true);
        if op == other && muts.is_empty() {
            prop_assert!(r.issues.is_empty());
        }
    }
}

/// A decode or request error's path is a JSON Pointer: empty, or `/`-separated segments.
fn is_pointer(p: &str) -> bool {
    p.is_empty() || p.starts_with('/')
}

proptest! {
    #![proptest_config(config(500))]

    // Typed decoding and request parsing name the JSON path of an error from serde_json's
    // position (`json::pointer_at`): any text, no panic, a pointer.
    #[test]
    fn decode_error_paths(op in op_strategy(), other in op_strategy(), muts in proptest::collection::vec(mutation(), 0..6)) {
        let body = apply(&validate_common::valid(other).to_string(), &muts);
        if let Err(e) = serpkit::decode::<serpkit::ops::search_volume_bulk::Response>(&body) {
            prop_assert!(is_pointer(&e.path), "{}", e.path);
        }
        if let Err(e) = serpkit::decode::<serpkit::ops::related::Response>(&body) {
            prop_assert!(is_pointer(&e.path), "{}", e.path);
        }
        let request = apply(&validate_common::request(op).to_json(), &muts);
        if let Err(e) = serpkit::ops::Request::from_json(op, &request) {
            prop_assert!(is_pointer(&e.field), "{}", e.field);
        }
    }

    #[test]
    fn decode_error_paths_of_noise(parts in proptest::collection::vec(0..SNIPPETS.len(), 0..60)) {
        let text: String = parts.iter().map(|&i| SNIPPETS[i]).collect();
        if let Err(e) = serpkit::decode::<serpkit::ops::related::Response>(&text) {
            prop_assert!(is_pointer(&e.path), "{}", e.path);
        }
        if let Err(e) = serpkit::ops::Request::from_json(Operation::Related, &text) {
            prop_assert!(is_pointer(&e.field), "{}", e.field);
        }
    }
}

#[test]
fn hostile_shapes() {
    for op in Operation::ALL {
        // Deep nesting in a field of unknown shape, and at the top.
        for depth in [127, 128, 129, 5_000] {
            check_invariants(op, &"[".repeat(depth), false);
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            check_invariants(op, &nested, false);
            let obj = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
            check_invariants(op, &obj, false);
        }
        // Many issues: capped.
        let many = format!("[{}]", vec!["{\"zz\":0}"; 5_000].join(","));
        let r = check_invariants(op, &many, true);
        assert!(r.issues.len() <= MAX_ISSUES + 1);
        // Huge strings and numbers.
        let long = format!("[\"{}\"]", "é".repeat(100_000));
        check_invariants(op, &long, false);
        check_invariants(op, &format!("[{}]", "9".repeat(10_000)), false);
    }
}
