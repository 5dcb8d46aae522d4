//! Response validation: given an operation, a response body as text and optionally the
//! request that produced it, say precisely what breaks the contract of the spec.
//!
//! ```
//! use serpkit::ops::Operation;
//! use serpkit::validate::{validate, Severity};
//!
//! let body = r#"[{"keyword":"shoes","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]"#;
//! let report = validate(Operation::Related, body, None);
//! assert!(!report.ok());
//! let issue = report.errors().next().unwrap();
//! assert_eq!((issue.path.as_str(), issue.code), ("/0/kd", "type"));
//! assert_eq!(issue.severity, Severity::Error);
//! ```
//!
//! - **Errors** are what the spec states (types, presence, formats, orders, counts, request
//!   cross-checks). **Warnings** are what the spec only says was *observed* (ranges, orders
//!   "in observed output", constant values) and unknown fields (forward compatible).
//! - One pass over the text, no `serde_json::Value` tree (see [`crate::json`]); the rules
//!   come from the operation ([`Operation::response`]: `RESPONSE` in its module of
//!   [`crate::ops`], written in the rule language [`crate::rules`]), which also generate the
//!   JSON Schema ([`json_schema`]). The engine knows no operation by name.
//! - At most [`MAX_ISSUES`] issues are kept, errors first: the first errors in text order,
//!   then as many of the first warnings as fit (a warning never hides an error); the counts
//!   include the rest.
//! - Text that is not JSON gives exactly one error, code `json`, with the byte offset, line
//!   and column (also in [`Report::position`]).
//!
//! Rule codes (stable): errors `json`, `type` (including a float or string where an integer
//! belongs), `missing_field`, `duplicate_field`, `monthly_count`, `order`, `date`,
//! `month_name`, `consecutive_months`, `range` (four-digit year, SERP positions),
//! `lowercase`, `number_text` (domain stats' numbers as text), `date_format`, `timestamp`,
//! `enum` (`new_lost_type`), `prefix`, `max_items`, `min_items`, `hashtag_shape`, and with a
//! request `record_count`, `request_keyword`, `request_ccode`, `request_url`,
//! `request_domain`; warnings `unknown_field`, `record_count` (domain stats),
//! `range` (observed ranges), `order` (observed orders), `count_value`, `consecutive_days`,
//! `stats_count`, `enum` (heading types, `betaStatReturned`), `hashtag_shape` (undescribed text-only entry),
//! `record_error`, `request_operation`, `record_unmatched` (a merged answer's record that
//! answers no requested item: the record planner), and `unsafe_integer` (only from the JS
//! package's parsed-value validator: an integer beyond 2^53 that `JSON.parse` may have
//! rounded). In code they are [`RuleCode`]
//! (a test checks this list against it). Each rule's declaration and decision sits in its
//! operation's module (`RESPONSE` and the items it names).

pub mod breaking;
mod engine;
mod issue;
#[cfg(not(target_arch = "wasm32"))]
mod js;
mod messages;

mod schema;

pub use issue::{Issue, MAX_ISSUES};
#[cfg(not(target_arch = "wasm32"))]
pub use js::js_validators;

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::ops::{Operation, Request};
pub use crate::rules::Severity;
use crate::rules::{Node, RuleCode};

/// Where in the text a syntax error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TextPosition {
    /// 0-based byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The result of validating one response body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The issues, in text order (at most [`MAX_ISSUES`]: the first errors, then the first
    /// warnings that fit).
    pub issues: Vec<Issue>,
    /// For text that is not JSON: where the syntax error is.
    pub position: Option<TextPosition>,
    error_count: usize,
    warning_count: usize,
}

impl Report {
    /// True when there is no error (warnings allowed).
    pub fn ok(&self) -> bool {
        self.error_count == 0
    }
    /// The listed errors.
    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.severity == Severity::Error)
    }
    /// The listed warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Issue> {
        self.issues
            .iter()
            .filter(|i| i.severity == Severity::Warning)
    }
    /// All errors, including those omitted from the list by the cap.
    pub fn error_count(&self) -> usize {
        self.error_count
    }
    /// All warnings, including those omitted from the list by the cap.
    pub fn warning_count(&self) -> usize {
        self.warning_count
    }
    /// How many issues were counted but not listed.
    pub fn omitted(&self) -> usize {
        (self.error_count + self.warning_count).saturating_sub(self.issues.len())
    }

    /// A report of these issues, plus errors and warnings counted but not listed (a report
    /// merged from stored records and a new answer by the record planner, `records`).
    pub fn from_parts(
        issues: Vec<Issue>,
        unlisted_errors: usize,
        unlisted_warnings: usize,
    ) -> Report {
        let errors = issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .count();
        Report {
            error_count: errors + unlisted_errors,
            warning_count: issues.len() - errors + unlisted_warnings,
            issues,
            position: None,
        }
    }
}

/// Every rule code a report can hold (stable strings; see the module doc and
/// [`RuleCode`]), for reading stored issues back: `rule_code("type") == Some("type")`.
pub fn rule_code(code: &str) -> Option<&'static str> {
    RuleCode::NAMES.iter().copied().find(|name| *name == code)
}

impl Serialize for Report {
    /// `{"ok", "errors", "warnings", "error_count", "warning_count", "omitted"}` plus
    /// `"position"` for a syntax error.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let errors: Vec<&Issue> = self.errors().collect();
        let warnings: Vec<&Issue> = self.warnings().collect();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("ok", &self.ok())?;
        m.serialize_entry("errors", &errors)?;
        m.serialize_entry("warnings", &warnings)?;
        m.serialize_entry("error_count", &self.error_count)?;
        m.serialize_entry("warning_count", &self.warning_count)?;
        m.serialize_entry("omitted", &self.omitted())?;
        if let Some(p) = &self.position {
            m.serialize_entry("position", p)?;
        }
        m.end()
    }
}

impl fmt::Display for Report {
    /// One line per issue (`error /0/kd [type] expected ...`), then a summary line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in &self.issues {
            let path = if i.path.is_empty() { "/" } else { &i.path };
            writeln!(
                f,
                "{:<7} {} [{}] {}",
                i.severity.as_str(),
                path,
                i.code,
                i.message
            )?;
        }
        if self.omitted() > 0 {
            writeln!(f, "... {} more issues not listed", self.omitted())?;
        }
        write!(
            f,
            "{}: {} error(s), {} warning(s)",
            if self.ok() { "ok" } else { "FAILED" },
            self.error_count,
            self.warning_count
        )
    }
}

/// The declared response shape of an operation: [`Operation::response`], its module's
/// `RESPONSE`.
pub fn response_shape(operation: Operation) -> &'static Node {
    operation.response()
}

/// Validates a response body of `operation`. With `request`, also checks what the spec ties
/// to the request (one bulk record per keyword in order, `ccode`, the searched keyword, the
/// URLs and domains asked for).
/// A request of another operation is ignored with a `request_operation` warning.
pub fn validate(operation: Operation, body: &str, request: Option<&Request>) -> Report {
    let mismatch = request.filter(|r| r.operation() != operation);
    let request = request.filter(|r| r.operation() == operation);
    let mut engine = engine::Engine::new(body, request);
    let result = engine
        .value(response_shape(operation))
        .and_then(|_| engine.scanner.end());
    let mut report = match result {
        Ok(()) => Report {
            issues: engine.sink.issues,
            position: None,
            error_count: engine.sink.errors,
            warning_count: engine.sink.warnings,
        },
        Err(err) => {
            let (line, column) = crate::json::line_col(body, err.offset);
            Report {
                issues: vec![Issue {
                    path: String::new(),
                    code: RuleCode::Json.as_str(),
                    severity: Severity::Error,
                    message: format!(
                        "not valid JSON at byte {} (line {line}, column {column}): {}",
                        err.offset, err.message
                    ),
                }],
                position: Some(TextPosition {
                    offset: err.offset,
                    line,
                    column,
                }),
                error_count: 1,
                warning_count: 0,
            }
        }
    };
    if let Some(r) = mismatch {
        report.warning_count += 1;
        report.issues.push(Issue {
            path: String::new(),
            code: RuleCode::RequestOperation.as_str(),
            severity: Severity::Warning,
            message: format!(
                "the request is for {}, not {operation}; request checks skipped",
                r.operation()
            ),
        });
    }
    report
}

/// The JSON Schema (2020-12) of an operation's response: the part of the rules a schema can
/// express (types, presence, formats as patterns, enums, error-level ranges and counts),
/// generated from the same declarations the validator runs.
pub fn json_schema(operation: Operation) -> serde_json::Value {
    serde_json::from_str(&json_schema_text(operation)).unwrap_or_default()
}

/// [`json_schema`] as JSON text (the JS package ships it as static data, written at build
/// time by `examples/pkg_data.rs`).
pub fn json_schema_text(operation: Operation) -> String {
    schema::document(operation, response_shape(operation))
}

#[cfg(test)]
mod tests {
    use super::{validate, RuleCode, Severity, MAX_ISSUES};
    use crate::ops::Operation;

    /// `related` records: `bad` of them with a type error (`kd` a string), every one
    /// with an unknown field.
    fn related_body(rows: usize, bad: impl Fn(usize) -> bool) -> String {
        let rows: Vec<String> = (0..rows)
            .map(|i| {
                let kd = if bad(i) { "\"7\"" } else { "7" };
                format!(
                    r#"{{"keyword":"k{i}","competition":0.4,"cpc":1.2,"search_volume":90,"kd":{kd},"new":1}}"#
                )
            })
            .collect();
        format!("[{}]", rows.join(","))
    }

    /// A later error is listed though the warnings before it fill the list.
    #[test]
    fn warnings_never_hide_errors() {
        let report = validate(
            Operation::Related,
            &related_body(5_000, |i| i == 4_000),
            None,
        );
        assert!(!report.ok());
        let errors: Vec<_> = report.errors().collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path, "/4000/kd");
        assert_eq!(report.issues.len(), MAX_ISSUES);
        assert_eq!((report.error_count(), report.warning_count()), (1, 5_000));
        assert_eq!(report.omitted(), 5_001 - MAX_ISSUES);
        // The first warnings that fit, in text order, and the error in its text place.
        assert_eq!(report.issues[0].path, "/0/new");
        assert_eq!(
            report.issues[MAX_ISSUES - 2].path,
            format!("/{}/new", MAX_ISSUES - 2)
        );
        assert_eq!(report.issues[MAX_ISSUES - 1].severity, Severity::Error);

        // More errors than the list holds: the first of them, no warning.
        let report = validate(Operation::Related, &related_body(3_000, |i| i >= 500), None);
        let errors: Vec<_> = report.errors().collect();
        assert_eq!(errors.len(), MAX_ISSUES);
        assert_eq!(errors[0].path, "/500/kd");
        assert_eq!(report.warnings().count(), 0);
        assert_eq!(report.error_count(), 2_500);
    }

    /// The codes the module documentation lists (its "Rule codes (stable)" paragraph) are
    /// exactly the codes of [`RuleCode`].
    #[test]
    fn documented_rule_codes_are_the_enum() {
        let source = include_str!("mod.rs");
        let start = source.find("//! Rule codes (stable):").unwrap();
        let paragraph: String = source[start..]
            .lines()
            .take_while(|line| line.starts_with("//!") && line.trim() != "//!")
            .collect::<Vec<_>>()
            .join(" ");
        let mut documented: Vec<&str> = paragraph
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|code| code.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .collect();
        // `new_lost_type` is a field name in the text, not a code.
        documented.retain(|code| *code != "new_lost_type");
        documented.sort_unstable();
        documented.dedup();
        let mut codes: Vec<&str> = RuleCode::ALL.iter().map(|code| code.as_str()).collect();
        codes.sort_unstable();
        assert_eq!(documented, codes);
    }
}
