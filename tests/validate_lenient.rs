//! "Lenient decode, strict report": a deviating body still decodes via `serpkit::decode`
//! where that is safe (policy in `src/ops/lenient.rs`), and the validator reports exactly
//! what deviated. Decided per field, one test each.
#![cfg(not(target_arch = "wasm32"))]

mod validate_common;

use serde_json::json;
use serpkit::ops::{self, Operation};
use serpkit::validate::Severity::{Error, Warning};
use validate_common::*;

fn body_of(op: Operation, mutate: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut b = valid(op);
    mutate(&mut b);
    b.to_string()
}

#[test]
fn integer_sent_as_string() {
    let body = body_of(Operation::SearchVolumeBulk, |b| {
        b[0]["SEARCH_VOLUME"] = json!("1200")
    });
    let decoded: ops::search_volume_bulk::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].search_volume, 1200);
    only(
        &serpkit::validate(Operation::SearchVolumeBulk, &body, None),
        "type",
        Error,
        "/0/SEARCH_VOLUME",
    );
}

#[test]
fn integer_sent_as_integral_float() {
    let body = body_of(Operation::VideoVideo, |b| b[0]["views"] = json!(1000.0));
    let decoded: ops::video_video::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].views, 1000);
    only(
        &serpkit::validate(Operation::VideoVideo, &body, None),
        "type",
        Error,
        "/0/views",
    );
}

#[test]
fn integer_with_a_fraction_is_not_decoded() {
    // Not safe to guess: decode fails, the report says the same thing.
    let body = body_of(Operation::Related, |b| b[0]["kd"] = json!(40.5));
    assert_eq!(
        serpkit::decode::<ops::related::Response>(&body)
            .unwrap_err()
            .path,
        "/0/kd"
    );
    only(
        &serpkit::validate(Operation::Related, &body, None),
        "type",
        Error,
        "/0/kd",
    );
}

#[test]
fn non_numeric_string_for_integer_is_not_decoded() {
    let body = body_of(Operation::Related, |b| {
        b[1]["search_volume"] = json!("many")
    });
    assert_eq!(
        serpkit::decode::<ops::related::Response>(&body)
            .unwrap_err()
            .path,
        "/1/search_volume"
    );
    only(
        &serpkit::validate(Operation::Related, &body, None),
        "type",
        Error,
        "/1/search_volume",
    );
}

#[test]
fn number_sent_as_string() {
    let body = body_of(Operation::Related, |b| b[0]["cpc"] = json!("1.10"));
    let decoded: ops::related::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].cpc, 1.1);
    only(
        &serpkit::validate(Operation::Related, &body, None),
        "type",
        Error,
        "/0/cpc",
    );
}

#[test]
fn missing_number_decodes_to_zero() {
    let body = body_of(Operation::SearchVolumeBulk, |b| {
        b[0].as_object_mut().unwrap().remove("COMPETITION");
    });
    let decoded: ops::search_volume_bulk::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].competition, 0.0);
    only(
        &serpkit::validate(Operation::SearchVolumeBulk, &body, None),
        "missing_field",
        Error,
        "/0/COMPETITION",
    );
}

#[test]
fn domain_stat_sent_as_number() {
    let body = body_of(Operation::DomainStats, |b| b[0]["alphaDA"] = json!(35));
    let decoded: ops::domainstats::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].alpha_da, "35");
    assert_eq!(decoded[0].alpha_da(), Some(35.0));
    only(
        &serpkit::validate(Operation::DomainStats, &body, None),
        "type",
        Error,
        "/0/alphaDA",
    );
}

#[test]
fn boolean_sent_as_string() {
    let body = body_of(Operation::MicroblogPost, |b| {
        b[0]["profile"]["verified"] = json!("true")
    });
    let decoded: ops::microblog_post::Response = serpkit::decode(&body).unwrap();
    assert!(decoded[0].profile.verified);
    only(
        &serpkit::validate(Operation::MicroblogPost, &body, None),
        "type",
        Error,
        "/0/profile/verified",
    );
}

#[test]
fn null_string_decodes_to_empty() {
    let body = body_of(Operation::OutlineSeo, |b| b[0]["url"] = json!(null));
    let decoded: ops::outline_seo::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[0].url, "");
    only(
        &serpkit::validate(Operation::OutlineSeo, &body, None),
        "type",
        Error,
        "/0/url",
    );
}

#[test]
fn null_list_decodes_to_empty() {
    let body = body_of(Operation::VideoVideo, |b| b[0]["hashtags"] = json!(null));
    let decoded: ops::video_video::Response = serpkit::decode(&body).unwrap();
    assert!(decoded[0].hashtags.is_empty());
    only(
        &serpkit::validate(Operation::VideoVideo, &body, None),
        "type",
        Error,
        "/0/hashtags",
    );
}

#[test]
fn missing_nested_object_decodes_to_default() {
    let body = body_of(Operation::MicroblogPost, |b| {
        b[1].as_object_mut().unwrap().remove("profile");
    });
    let decoded: ops::microblog_post::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded[1].profile.user_id, 0);
    only(
        &serpkit::validate(Operation::MicroblogPost, &body, None),
        "missing_field",
        Error,
        "/1/profile",
    );
}

#[test]
fn unknown_field_decodes_and_warns() {
    let body = body_of(Operation::BacklinkOverview, |b| {
        b["pagination"] = json!({"next": null})
    });
    let decoded: ops::backlink_overview::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded.stats.len(), 64);
    only(
        &serpkit::validate(Operation::BacklinkOverview, &body, None),
        "unknown_field",
        Warning,
        "/pagination",
    );
}

#[test]
fn rule_violations_still_decode() {
    // Shape is fine, a stated rule is not: decode succeeds, the report has the error.
    let body = body_of(Operation::SearchVolumeSingle, |b| {
        b["TARGETED_MONTHLY_SEARCHES"]
            .as_array_mut()
            .unwrap()
            .truncate(11);
    });
    let decoded: ops::search_volume_single::Response = serpkit::decode(&body).unwrap();
    assert_eq!(decoded.targeted_monthly_searches.len(), 11);
    only(
        &serpkit::validate(Operation::SearchVolumeSingle, &body, None),
        "monthly_count",
        Error,
        "/TARGETED_MONTHLY_SEARCHES",
    );
}

#[test]
fn wrong_container_is_not_decoded() {
    // Note: serde's derived structs also accept an *array* (fields by position), so
    // `"channel": ["x"]` decodes to a channel named "x"; the validator reports that as `type`.
    let body = body_of(Operation::VideoVideo, |b| b[0]["channel"] = json!(["x"]));
    only(
        &serpkit::validate(Operation::VideoVideo, &body, None),
        "type",
        Error,
        "/0/channel",
    );
    let body = body_of(Operation::VideoVideo, |b| b[0]["channel"] = json!(5));
    assert_eq!(
        serpkit::decode::<ops::video_video::Response>(&body)
            .unwrap_err()
            .path,
        "/0/channel"
    );
    only(
        &serpkit::validate(Operation::VideoVideo, &body, None),
        "type",
        Error,
        "/0/channel",
    );
}

#[test]
fn duplicate_field_is_not_decoded() {
    let body = r#"[{"keyword":"a","competition":0.1,"cpc":1,"search_volume":5,"kd":3,"cpc":2}]"#;
    assert!(serpkit::decode::<ops::related::Response>(body).is_err());
    only(
        &serpkit::validate(Operation::Related, body, None),
        "duplicate_field",
        Error,
        "/0/cpc",
    );
}

#[test]
fn syntax_errors_agree_on_position() {
    let body = "[{\"keyword\": \"a\"\n  \"kd\": 1}]";
    let e = serpkit::decode::<ops::related::Response>(body).unwrap_err();
    let r = serpkit::validate(Operation::Related, body, None);
    only(&r, "json", Error, "");
    let p = r.position.unwrap();
    assert!(e.syntax);
    assert_eq!((p.line, p.column), (e.line, e.column));
}
