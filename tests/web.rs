//! Browser tests (wasm-bindgen-test in headless Chromium): the core works in a real browser.
#![cfg(target_arch = "wasm32")]

use serpkit::ops::{self, OperationRequest};
use serpkit::{decode, estimate_cost, Operation, Request};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn runs_in_a_browser() {
    let window = web_sys::window().expect("a browser window");
    assert!(window.navigator().user_agent().unwrap().contains("Chrome"));
}

#[wasm_bindgen_test]
fn prices_and_checks_in_the_browser() {
    let req = Request::from_json(
        Operation::SearchVolumeBulk,
        r#"{"keywords":["a","b","c"],"ccode":"US"}"#,
    )
    .unwrap();
    assert_eq!(estimate_cost(&req).to_string(), "$0.0009");
    let bad = ops::domainstats::Request {
        key: Default::default(),
        domains: vec!["https://example.com".into()],
    };
    assert_eq!(bad.check().unwrap_err().field, "/domains/0");
}

#[wasm_bindgen_test]
fn decodes_in_the_browser() {
    let body = r#"[{"keyword":"x","competition":0.5,"cpc":1.25,"search_volume":90,"kd":12}]"#;
    let rows: ops::related::Response = decode(body).unwrap();
    assert_eq!(rows[0].search_volume, 90);
    assert!(decode::<ops::related::Response>("[{").unwrap_err().syntax);
}
