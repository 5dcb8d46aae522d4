//! The JSON Schema export: every valid fixture and every sandbox body passes it, the
//! validator agrees with the sandbox (no errors, request cross-checks included), and the
//! schema rejects what it can express.
#![cfg(not(target_arch = "wasm32"))]

mod validate_common;

use sandbox::date::Date;
use sandbox::generate;
use serde_json::json;
use serpkit::ops::Operation;
use serpkit::validate::{json_schema, validate};
use validate_common::valid;

fn compiled(op: Operation) -> jsonschema::Validator {
    let schema = json_schema(op);
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

#[test]
fn valid_fixtures_pass_the_schema() {
    for op in Operation::ALL {
        let v = compiled(op);
        let body = valid(op);
        let errors: Vec<String> = v.iter_errors(&body).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{op}: {errors:?}");
    }
}

#[test]
fn sandbox_bodies_pass_the_schema_and_the_validator() {
    let today = Date::new(2024, 3, 5).unwrap();
    for op in Operation::ALL {
        let v = compiled(op);
        for seed in 0..12 {
            let req = generate::sample_request(op, seed);
            let body = generate::body(&req, today);
            let value: serde_json::Value = serde_json::from_str(&body).unwrap();
            let errors: Vec<String> = v.iter_errors(&value).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{op} seed {seed}: {errors:?}");
            let report = validate(op, &body, Some(&req));
            assert!(
                report.issues.is_empty(),
                "{op} seed {seed}: {:#?}",
                report.issues
            );
        }
    }
}

#[test]
fn schema_rejects_what_it_expresses() {
    let cases = [
        (
            Operation::Related,
            json!([{"keyword": 1, "competition": 0.1, "cpc": 1, "search_volume": 5, "kd": 3}]),
        ),
        (
            Operation::Related,
            json!([{"keyword": "a", "competition": 0.1, "cpc": 1, "search_volume": 5}]),
        ),
        (Operation::MicroblogPost, {
            let mut b = valid(Operation::MicroblogPost);
            b[0]["hashtags"][0] = json!("shoes");
            b
        }),
        (Operation::MicroblogPost, {
            let mut b = valid(Operation::MicroblogPost);
            b[0]["posted_on"] = json!("2024-03-01T12:34:56Z");
            b
        }),
        (Operation::BacklinkOverview, {
            let mut b = valid(Operation::BacklinkOverview);
            b["ref_newlost"][0]["new_lost_type"] = json!("gone");
            b
        }),
        (Operation::SearchVolumeSingle, {
            let mut b = valid(Operation::SearchVolumeSingle);
            b["TARGETED_MONTHLY_SEARCHES"].as_array_mut().unwrap().pop();
            b
        }),
        (Operation::SearchVolumeSingle, {
            let mut b = valid(Operation::SearchVolumeSingle);
            b["ccode"] = json!("US");
            b
        }),
        (Operation::DomainStats, {
            let mut b = valid(Operation::DomainStats);
            b[0]["newStat"] = json!(3);
            b
        }),
        (
            Operation::OutlineSeo,
            json!((1..=11)
                .map(|r| json!({"headings": [], "url": "u", "rank": r}))
                .collect::<Vec<_>>()),
        ),
    ];
    for (op, body) in cases {
        assert!(!compiled(op).is_valid(&body), "{op}: {body}");
        assert!(!validate(op, &body.to_string(), None).ok(), "{op}: {body}");
    }
    // Warnings are not part of the schema: an unknown field and an observed range pass.
    let mut b = valid(Operation::Related);
    b[0]["kd"] = json!(150);
    b[0]["new_field"] = json!(true);
    assert!(compiled(Operation::Related).is_valid(&b));
}
