//! JSON Schema (2020-12) export of the response declarations.
//!
//! Only error-level rules go into the schema (warnings describe observed behaviour and are
//! not part of the contract). What a schema cannot express (orders, counts tied to the
//! request, cross-field equalities, real calendar dates) stays in the validator. Note that a
//! schema `integer` also matches `1.0`, which the validator reports as a `type` error.

use crate::ops::Operation;
use crate::rules::formats::MONTH_NAMES;
use crate::rules::{bound_text, ArrayRule, Kind, Node, Severity, StringRule};

const DATE: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
const TIMESTAMP: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|\\+00:00)$";
const TIMESTAMP_MS: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}(Z|\\+00:00)$";

/// The schema document as JSON text. Decision: written as text, member by member, rather
/// than built as a `serde_json::Value`: the JS package hands the text to `JSON.parse`, and
/// without `Value` (and the `BTreeMap` behind its objects) its wasm is about 6 KB smaller.
/// Members come in a fixed order (`$schema`, `title`, then each node's `description`,
/// `type`, its rules, `properties`, `required`, `additionalProperties`).
pub(crate) fn document(operation: Operation, root: &Node) -> String {
    let mut top = Obj::new();
    top.str("$schema", "https://json-schema.org/draft/2020-12/schema");
    top.str(
        "title",
        &format!("{} response ({})", operation.title(), operation.url_path()),
    );
    node(root, top)
}

/// A JSON object being written: `{` and the members so far.
struct Obj(String);

impl Obj {
    fn new() -> Obj {
        Obj(String::from("{"))
    }

    /// A member whose value is JSON text.
    fn raw(&mut self, key: &str, json: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push_str(&quote(key));
        self.0.push(':');
        self.0.push_str(json);
    }

    /// A member whose value is a string.
    fn str(&mut self, key: &str, value: &str) {
        self.raw(key, &quote(value));
    }

    fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// A string as JSON text.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A JSON array of the items' JSON texts.
fn array(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(","))
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        // Only the characters that are special in ECMA-262 regexes (what JSON Schema uses):
        // escaping others (`\#`, `\-`) is invalid under the `u` flag that Ajv compiles with.
        if "\\.+*?()|[]{}^$/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The one keyword (name, JSON text) of an error-level string rule.
fn str_rule(r: &StringRule) -> Option<(&'static str, String)> {
    if r.severity() != Severity::Error {
        return None;
    }
    let strings = |vals: &[&str]| array(vals.iter().map(|v| quote(v)));
    Some(match r {
        StringRule::Prefix(p, _) => ("pattern", quote(&format!("^{}", regex_escape(p)))),
        StringRule::OneOf(vals, _) => ("enum", strings(vals)),
        StringRule::Date => ("pattern", quote(DATE)),
        StringRule::Timestamp { millis: true } => ("pattern", quote(TIMESTAMP_MS)),
        StringRule::Timestamp { millis: false } => ("pattern", quote(TIMESTAMP)),
        StringRule::Lowercase => ("pattern", quote("^[^A-Z]*$")),
        StringRule::MonthName => ("enum", strings(&MONTH_NAMES)),
        StringRule::NumberText => ("pattern", quote(r"^(-?[0-9]+(\.[0-9]+)?)?$")),
    })
}

/// The schema of `n`, written after the members already in `m`.
fn node(n: &Node, mut m: Obj) -> String {
    if !n.doc.is_empty() {
        m.str("description", n.doc);
    }
    match n.kind {
        Kind::Any => {}
        Kind::Bool => m.str("type", "boolean"),
        Kind::Str(rules) => {
            m.str("type", "string");
            let parts: Vec<(&str, String)> = rules.iter().filter_map(str_rule).collect();
            match parts.as_slice() {
                [] => {}
                [(k, v)] => m.raw(k, v),
                _ => m.raw(
                    "allOf",
                    &array(parts.iter().map(|(k, v)| {
                        let mut o = Obj::new();
                        o.raw(k, v);
                        o.end()
                    })),
                ),
            }
        }
        Kind::Int(rules) | Kind::Num(rules) => {
            let ty = if matches!(n.kind, Kind::Int(_)) {
                "integer"
            } else {
                "number"
            };
            m.str("type", ty);
            // Every error-level range must hold: the schema's range is their intersection.
            // An unbounded side (infinite) has no keyword: JSON has no infinity.
            let (min, max) = rules
                .iter()
                .filter(|r| r.severity == Severity::Error)
                .fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), r| {
                    (lo.max(r.min), hi.min(r.max))
                });
            if min.is_finite() {
                m.raw("minimum", &bound_text(min));
            }
            if max.is_finite() {
                m.raw("maximum", &bound_text(max));
            }
        }
        Kind::Array(a) => {
            m.str("type", "array");
            m.raw("items", &node(&a.items, Obj::new()));
            for r in a.rules {
                if let ArrayRule::Len {
                    min,
                    max,
                    severity: Severity::Error,
                    ..
                } = *r
                {
                    if min > 0 {
                        m.raw("minItems", &min.to_string());
                    }
                    if max < usize::MAX {
                        m.raw("maxItems", &max.to_string());
                    }
                }
            }
        }
        Kind::Object(o) => {
            m.str("type", "object");
            let mut props = Obj::new();
            for f in o.fields {
                props.raw(f.name, &node(&f.node, Obj::new()));
            }
            m.raw("properties", &props.end());
            let required: Vec<String> = o
                .fields
                .iter()
                .filter(|f| f.required)
                .map(|f| quote(f.name))
                .collect();
            if !required.is_empty() {
                m.raw("required", &array(required));
            }
            if let Some(extra) = o.extra {
                m.raw("additionalProperties", &node(extra, Obj::new()));
            }
        }
    }
    m.end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dsl::{int, range};
    use crate::rules::NumberRule;
    use Severity::{Error, Warning};

    fn schema_of(n: Node) -> serde_json::Value {
        serde_json::from_str(&node(&n, Obj::new())).expect("valid JSON")
    }

    #[test]
    fn ranges_are_the_intersection_of_error_rules_and_skip_unbounded_sides() {
        const BOTH: &[NumberRule] = &[
            range(0.0, 100.0, Error),
            range(10.0, f64::INFINITY, Error),
            range(50.0, 60.0, Warning),
        ];
        const UNBOUNDED: &[NumberRule] = &[range(f64::NEG_INFINITY, f64::INFINITY, Error)];
        const WARNING: &[NumberRule] = &[range(0.0, 1.0, Warning)];

        let v = schema_of(int(BOTH));
        assert_eq!(
            (v["minimum"].as_i64(), v["maximum"].as_i64()),
            (Some(10), Some(100))
        );
        for rules in [UNBOUNDED, WARNING] {
            let v = schema_of(int(rules));
            assert!(
                v.get("minimum").is_none() && v.get("maximum").is_none(),
                "{v}"
            );
        }
    }
}
