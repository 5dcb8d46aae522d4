//! The `serpkit` command line (feature `cli`): exit codes, formats, standard input.
#![cfg(not(target_arch = "wasm32"))]
#![cfg(feature = "cli")]

mod validate_common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::json;
use serpkit::ops::Operation;

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_serpkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may exit before reading its input (usage errors): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file for the CLI to read, under the target directory (Cargo's scratch space for
/// integration tests), so no run leaves anything in the system's temp folder.
fn temp(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serpkit-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn validate_exit_codes_and_formats() {
    let good = validate_common::valid(Operation::Related).to_string();
    let (code, out, _) = run(&["validate", "related", "-"], &good);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok: 0 error(s), 0 warning(s)"));

    let mut bad = validate_common::valid(Operation::Related);
    bad[0]["kd"] = json!("7");
    let path = temp("bad.json", &bad.to_string());
    let (code, out, _) = run(&["validate", "/v1/related", &path, "--format", "json"], "");
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["errors"][0]["path"], "/0/kd");
    assert_eq!(v["errors"][0]["code"], "type");
    assert_eq!(v["errors"][0]["severity"], "error");
    assert!(v["warnings"].as_array().unwrap().is_empty());

    let (code, out, _) = run(&["validate", "related", "-", "--format=text"], "[1,");
    assert_eq!(code, 1);
    assert!(out.contains("[json]") && out.contains("line 1"), "{out}");
}

#[test]
fn validate_with_request() {
    let body = validate_common::valid(Operation::SearchVolumeBulk).to_string();
    let req = temp("req.json", r#"{"keywords":["running shoes"],"ccode":"US"}"#);
    let (code, out, _) = run(
        &["validate", "search_volume/bulk", "-", "--request", &req],
        &body,
    );
    assert_eq!(code, 1);
    assert!(out.contains("[record_count]"), "{out}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    for args in [
        vec!["validate", "nope", "-"],
        vec!["validate", "related"],
        vec!["validate", "related", "/nonexistent/file.json"],
        vec!["validate", "related", "-", "--format", "xml"],
        vec!["validate", "related", "-", "--request", "-"],
        vec!["frobnicate"],
        vec![],
    ] {
        let (code, _, err) = run(&args, "[]");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("usage"), "{args:?}: {err}");
    }
    let (code, out, _) = run(&["--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("serpkit validate"));
}

#[test]
fn price_and_schema() {
    let (code, out, _) = run(
        &["price", "search_volume/bulk", "-"],
        r#"{"keywords":["a","b","c"],"ccode":"US"}"#,
    );
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "$0.0009 (3 × $0.0003 per keyword)");
    let (code, out, _) = run(
        &["price", "related", "-", "--format", "json"],
        r#"{"keyword":"a","ccode":"USA"}"#,
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["estimate"], "$0.1500");
    assert_eq!(v["request_ok"], false);
    let (code, _, _) = run(&["price", "related", "-"], "not json");
    assert_eq!(code, 2);

    let (code, out, _) = run(&["schema", "video/video"], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v, serpkit::validate::json_schema(Operation::VideoVideo));
}
