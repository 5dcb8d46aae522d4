//! The scanner's tests: grammar and positions against `serde_json`, word helpers against
//! byte-by-byte loops, fast paths against the general number reader.

use super::position::*;
use super::token::*;
use super::words::*;
use super::*;

fn skip_all(s: &str) -> ScanResult<()> {
    let mut sc = Scanner::new(s);
    sc.skip()?;
    sc.end()
}

#[test]
fn pointer_at_names_the_value_at_an_offset() {
    let s = r#"{"a":{"b":[1,{"c":"d"}]},"x~/y":true, "e":[ ]}"#;
    let at = |needle: &str| pointer_at(s, s.find(needle).unwrap());
    assert_eq!(pointer_at(s, 0), "");
    assert_eq!(at(r#"{"b""#), "/a");
    assert_eq!(at(r#""b""#), "/a/b");
    assert_eq!(at("[1"), "/a/b");
    assert_eq!(at("1,"), "/a/b/0");
    assert_eq!(at(r#"{"c""#), "/a/b/1");
    assert_eq!(at(r#""d""#), "/a/b/1/c");
    assert_eq!(at("}]"), "/a/b/1");
    assert_eq!(at("]}"), "/a/b");
    assert_eq!(at("true"), "/x~0~1y");
    assert_eq!(at("[ ]"), "/e");
    assert_eq!(at(" ]"), "/e/0");
    assert_eq!(pointer_at(s, s.len() - 1), "");
    assert_eq!(pointer_at(s, usize::MAX), "");
    // Escaped keys are decoded.
    assert_eq!(pointer_at(r#"{"\u0041\"":[0,1]}"#, 14), "/A\"/1");
}

#[test]
fn pointer_at_agrees_with_serde_positions() {
    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct T {
        a: Vec<u8>,
        b: Option<Box<T>>,
        // Read with `deserialize_any`: a container is read, then rejected as a whole.
        n: Option<serde_json::Number>,
    }
    for (text, path) in [
        (r#"{"a":[1,2,"x"]}"#, "/a/2"),
        ("{\n \"a\": [1,\n 300]}", "/a/1"),
        (r#"{"a":[],"b":{"a":[1,{}]}}"#, "/b/a/1"),
        (r#"{"a":[],"b":{}}"#, "/b"),
        (r#"{"a":[],"zz":1}"#, "/zz"),
        (r#"{"a":{"q":1}}"#, "/a"),
        (r#"{"a":[[1]]}"#, "/a/0"),
        (r#"{"a":[1, {}]}"#, "/a/1"),
        ("{\"a\":\n  [1,\n  [ ]]}", "/a/1"),
        (r#"{"a":[],"b":[]}"#, "/b"),
        (r#"{"a": {}}"#, "/a"),
        (r#"{"a":[],"n":{"x":1}}"#, "/n"),
        (r#"{"a":[],"n": { "x" : 1 }}"#, "/n"),
        (r#"{"a":[],"n":[1]}"#, "/n"),
        (r#"{"a":[],"n":[]}"#, "/n"),
        (r#"{"a":[],"n":"1"}"#, "/n"),
        (r#"{"a":[],"b":{"a":[],"n":{}}}"#, "/b/n"),
        // The documented ambiguity: an array read and rejected, whose first element is
        // an array, points at that element.
        (r#"{"a":[],"n":[[1]]}"#, "/n/0"),
    ] {
        let e = serde_json::from_str::<T>(text).unwrap_err();
        let off = offset_of(text, e.line(), e.column(), &e.to_string());
        assert_eq!(pointer_at(text, off), path, "{text}: {e}");
    }
}

#[test]
fn pointer_at_survives_hostile_text() {
    let deep = "[".repeat(100_000);
    assert_eq!(pointer_at(&deep, deep.len()).len(), 2 * 100_000);
    let cases = [
        "",
        "\"",
        "\"\\",
        "{\"",
        "{\"a",
        "{\"a\":",
        "}}}]]]",
        "{]",
        "[}",
        "\"é\\é\"",
        "{\"é\":\"\\\"",
        ",,,::",
        "{\"a\"\"b\":1}",
        "\u{feff}[1]",
        "[1 2 3]",
    ];
    for c in cases {
        for off in 0..=c.len() + 1 {
            let _ = pointer_at(c, off);
        }
    }
    for (line, col) in [(0, 0), (1, 0), (1, 1), (2, 5), (usize::MAX, usize::MAX)] {
        assert!(offset_of("a\nbc", line, col, "") <= 4);
    }
    assert_eq!(offset_of("a\nbc", 2, 2, ""), 3);
    assert_eq!(
        offset_of("[ \n {}]", 1, 1, "invalid type: map, expected"),
        4
    );
    assert_eq!(offset_of("[ \n {}]", 1, 1, "invalid type: sequence"), 0);
    assert_eq!(offset_of("[", 1, 1, "invalid type: map"), 0);
    assert_eq!(offset_of(",", 1, 1, ""), 1);
}

#[test]
fn grammar_agrees_with_serde() {
    let cases = [
        "1",
        "-0",
        "01",
        "1.",
        "1.5e",
        "1e+5",
        "-",
        "[1,]",
        "[,1]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{1:2}",
        "\"\\x\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"\\ud83d\\ude00\"",
        "\"a\tb\"",
        "[true,false,null]",
        "tru",
        "nul",
        "[",
        "]",
        "{}",
        "[[]]",
        "{\"a\":{\"b\":[1,{\"c\":\"d\"}]}}",
        "  [1]  ",
        "[1] x",
        "\u{feff}[]",
        "",
        "\"\\u00e9\"",
        "-1.5E-3",
        "[1 2]",
        "1e400",
        "-1e309",
        "1e-999",
        "1E308",
    ];
    for c in cases {
        let ours = skip_all(c).is_ok();
        let serde = serde_json::from_str::<serde_json::Value>(c).is_ok();
        assert_eq!(ours, serde, "{c:?}");
    }
}

#[test]
fn depth_limit_and_numbers() {
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(skip_all(&deep).is_err());
    let ok = "[".repeat(127) + &"]".repeat(127);
    assert!(skip_all(&ok).is_ok());
    let over = "[".repeat(128) + &"]".repeat(128);
    assert!(skip_all(&over).is_err());
    assert!(serde_json::from_str::<serde_json::Value>(&over).is_err());
    assert!(skip_all("[1e400]").is_err());
    assert!(skip_all("[1e-400, 1.7e308]").is_ok());
    assert!(skip_all(&"9".repeat(400)).is_err());
    let mut sc = Scanner::new("-9223372036854775808");
    assert_eq!(sc.scalar().unwrap(), Scalar::Int(i64::MIN));
    let mut sc = Scanner::new("9223372036854775808");
    assert!(matches!(sc.scalar().unwrap(), Scalar::BigInt(_)));
    let mut sc = Scanner::new("\"a\\n\\ud83d\\ude00\"");
    assert_eq!(sc.scalar().unwrap().as_str().unwrap().text(), "a\n😀");
    assert_eq!(line_col("ab\ncé", 6), (2, 3));
}

#[test]
fn word_scans_agree_with_bytewise() {
    // Every byte value at every position of strings of 0..=20 bytes, over a background
    // of plain, high (UTF-8) and mixed bytes.
    let naive_stop = |b: &[u8], i: usize| {
        i + b[i..]
            .iter()
            .position(|&c| c < 0x20 || c == b'"' || c == b'\\')
            .unwrap_or(b.len() - i)
    };
    for len in 0..=20usize {
        for fill in [b'a', 0xC3, 0x7F, 0x21, 0x5D, 0x80, 0xFF] {
            for pos in 0..len.max(1) {
                for v in 0..=255u8 {
                    let mut b = vec![fill; len];
                    if let Some(x) = b.get_mut(pos) {
                        *x = v;
                    }
                    // The scanner works on `str`; these bytes need not be UTF-8, so go
                    // through the byte-level helpers directly.
                    let sc = Scanner {
                        src: "",
                        b: &b,
                        pos: 0,
                        depth: 0,
                    };
                    for start in [0, pos.min(len)] {
                        assert_eq!(sc.stop_from(start), naive_stop(&b, start), "{b:?} @{start}");
                    }
                    for n in 0..=len {
                        let name = &b[..n];
                        assert!(same_bytes(&b, name));
                        let mut other = name.to_vec();
                        if let Some(x) = other.get_mut(pos.min(n.saturating_sub(1))) {
                            *x ^= 1;
                            assert!(!same_bytes(&b, &other), "{b:?} {other:?}");
                        }
                        let mut longer = b.clone();
                        longer.push(b'x');
                        assert!(!same_bytes(&b, &longer));
                    }
                }
            }
        }
    }
}

#[test]
fn expected_keys_match_exactly() {
    let cases = [
        ("{\"keyword\":1}", Some("keyword"), Key::Expected),
        (
            "{\"keyword2\":1}",
            Some("keyword"),
            Key::Other(RawStr {
                raw: "keyword2",
                escaped: false,
            }),
        ),
        (
            "{\"keywor\":1}",
            Some("keyword"),
            Key::Other(RawStr {
                raw: "keywor",
                escaped: false,
            }),
        ),
        (
            "{\"ke\\u0079word\":1}",
            Some("keyword"),
            Key::Other(RawStr {
                raw: "ke\\u0079word",
                escaped: true,
            }),
        ),
        ("{\"\":1}", Some(""), Key::Expected),
        (
            "{\"total_referring_domains\" :1}",
            Some("total_referring_domains"),
            Key::Expected,
        ),
        (
            "{\"total_referring_domainz\":1}",
            Some("total_referring_domains"),
            Key::Other(RawStr {
                raw: "total_referring_domainz",
                escaped: false,
            }),
        ),
        ("{}", Some("a"), Key::End),
    ];
    for (text, expected, want) in cases {
        let mut sc = Scanner::new(text);
        sc.obj_begin().unwrap();
        assert_eq!(sc.obj_key_or(true, expected).unwrap(), want, "{text}");
    }
    let mut sc = Scanner::new("{\"url\"");
    sc.obj_begin().unwrap();
    assert!(sc.obj_key_or(true, Some("url")).is_err());
    let mut sc = Scanner::new("{\"ur");
    sc.obj_begin().unwrap();
    assert!(sc.obj_key_or(true, Some("url")).is_err());
    assert!(plain_key("total_referring_domains") && !plain_key("a\"b") && !plain_key("a\\b"));
    assert!(!plain_key("a\nb"));
}

#[test]
fn number_fast_paths_agree_with_number() {
    let cases = [
        "0",
        "-0",
        "01",
        "1",
        "-1",
        "1.",
        "1.5",
        "-12.5",
        "0.0",
        "100.00",
        "1e5",
        "1.5e3",
        "-",
        "-a",
        "123456789012345678",
        "1234567890123456789",
        "999999999999999.9",
        "1000000000000000.5",
        "12,",
        "7}",
        "3 ",
        "0.5]",
        "00",
        "-01.5",
        "9.99E1",
    ];
    for text in cases {
        let mut full = Scanner::new(text);
        let want = full.number().ok();
        let mut sc = Scanner::new(text);
        if let Some(i) = sc.small_uint() {
            assert_eq!(want, Some(Scalar::Int(i)), "{text}");
            assert_eq!(sc.pos, full.pos, "{text}");
        } else {
            assert_eq!(sc.pos, 0, "{text}");
        }
        let mut sc = Scanner::new(text);
        if let Some(d) = sc.decimal() {
            assert_eq!(want, Some(d.value), "{text}");
            assert_eq!(sc.pos, full.pos, "{text}");
            let f = d.value.as_f64().unwrap();
            for (min, max) in [(0.0, 100.0), (-20.0, 20.0), (1.0, 1.5), (-13.0, -12.0)] {
                if d.surely_within(min, max) {
                    assert!((min..=max).contains(&f), "{text} {min} {max}");
                }
            }
        } else {
            assert_eq!(sc.pos, 0, "{text}");
        }
    }
}
