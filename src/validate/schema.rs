//! JSON Schema (2020-12) export of the response declarations.
//!
//! Only error-level rules go into the schema (warnings describe observed behaviour and are
//! not part of the contract). What a schema cannot express (orders, counts tied to the
//! request, cross-field equalities, real calendar dates) stays in the validator. Note that a
//! schema `integer` also matches `1.0`, which the validator reports as a `type` error.

use serde_json::{json, Map, Value};

use super::shape::{ArrRule, Kind, Node, StrRule};
use super::Severity;
use crate::ops::search_volume_bulk::MONTH_NAMES;
use crate::ops::Operation;

const DATE: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
const TIMESTAMP: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|\\+00:00)$";
const TIMESTAMP_MS: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}(Z|\\+00:00)$";

pub(crate) fn document(op: Operation, root: &Node) -> Value {
    let mut v = node(root);
    if let Value::Object(m) = &mut v {
        let mut top = Map::new();
        top.insert(
            "$schema".into(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        top.insert(
            "title".into(),
            json!(format!("{} response ({})", op.title(), op.url_path())),
        );
        top.extend(std::mem::take(m));
        return Value::Object(top);
    }
    v
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

fn str_rule(r: &StrRule) -> Option<Value> {
    if r.severity() != Severity::Error {
        return None;
    }
    Some(match r {
        StrRule::Prefix(p, _) => json!({ "pattern": format!("^{}", regex_escape(p)) }),
        StrRule::OneOf(vals, _) => json!({ "enum": vals }),
        StrRule::Date => json!({ "pattern": DATE }),
        StrRule::Timestamp { millis: true } => json!({ "pattern": TIMESTAMP_MS }),
        StrRule::Timestamp { millis: false } => json!({ "pattern": TIMESTAMP }),
        StrRule::Lowercase => json!({ "pattern": "^[^A-Z]*$" }),
        StrRule::MonthName => json!({ "enum": MONTH_NAMES }),
    })
}

fn node(n: &Node) -> Value {
    let mut m = Map::new();
    if !n.doc.is_empty() {
        m.insert("description".into(), json!(n.doc));
    }
    match n.kind {
        Kind::Any => {}
        Kind::Bool => {
            m.insert("type".into(), json!("boolean"));
        }
        Kind::Str(rules) => {
            m.insert("type".into(), json!("string"));
            let parts: Vec<Value> = rules.iter().filter_map(str_rule).collect();
            match parts.len() {
                0 => {}
                1 => {
                    if let Some(Value::Object(p)) = parts.into_iter().next() {
                        m.extend(p);
                    }
                }
                _ => {
                    m.insert("allOf".into(), Value::Array(parts));
                }
            }
        }
        Kind::Int(rules) | Kind::Num(rules) => {
            let ty = if matches!(n.kind, Kind::Int(_)) {
                "integer"
            } else {
                "number"
            };
            m.insert("type".into(), json!(ty));
            for r in rules.iter().filter(|r| r.severity == Severity::Error) {
                m.insert("minimum".into(), number(r.min));
                m.insert("maximum".into(), number(r.max));
            }
        }
        Kind::Array(a) => {
            m.insert("type".into(), json!("array"));
            m.insert("items".into(), node(&a.items));
            for r in a.rules {
                if let ArrRule::Len {
                    min,
                    max,
                    severity: Severity::Error,
                    ..
                } = *r
                {
                    if min > 0 {
                        m.insert("minItems".into(), json!(min));
                    }
                    if max < usize::MAX {
                        m.insert("maxItems".into(), json!(max));
                    }
                }
            }
        }
        Kind::Object(o) => {
            m.insert("type".into(), json!("object"));
            let mut props = Map::new();
            let mut required = Vec::new();
            for f in o.fields {
                props.insert(f.name.into(), node(&f.node));
                if f.required {
                    required.push(json!(f.name));
                }
            }
            m.insert("properties".into(), Value::Object(props));
            if !required.is_empty() {
                m.insert("required".into(), Value::Array(required));
            }
            if let Some(extra) = o.extra {
                m.insert("additionalProperties".into(), node(extra));
            }
        }
    }
    Value::Object(m)
}

fn number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9e15 {
        json!(f as i64)
    } else {
        json!(f)
    }
}
