//! Declarative response shapes: each operation's module in [`crate::ops`] declares its
//! response as a [`Node`] tree (types, presence, per-value rules, per-array rules, and small
//! per-object or per-element checks for rules that relate several values or the request).
//! The validator engine and the JSON Schema export both read these declarations; neither
//! knows any operation by name.

use std::borrow::Cow;

use super::Severity;
use crate::json::Scalar;
use crate::ops::Request;

/// A JSON value's expected shape.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The type and its rules.
    pub kind: Kind,
    /// A short description (goes into the JSON Schema).
    pub doc: &'static str,
}

/// The expected type of a value, with its rules.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A string.
    Str(&'static [StrRule]),
    /// An integer (a JSON number without fraction or exponent).
    Int(&'static [NumRule]),
    /// Any JSON number.
    Num(&'static [NumRule]),
    /// A boolean.
    Bool,
    /// An array.
    Array(&'static Array),
    /// An object.
    Object(&'static Object),
    /// Anything (the spec does not show the shape).
    Any,
}

/// An array: element shape and rules over the whole array.
#[derive(Clone, Copy, Debug)]
pub struct Array {
    /// Shape of every element.
    pub items: Node,
    /// Rules over the elements.
    pub rules: &'static [ArrRule],
}

/// An object: its known fields, what other keys may hold, and checks across fields.
#[derive(Clone, Copy, Debug)]
pub struct Object {
    /// Known fields (at most [`MAX_FIELDS`]).
    pub fields: &'static [Field],
    /// Shape that values of unknown keys must have (`None`: anything). Unknown keys are
    /// always reported as an `unknown_field` warning (forward compatible).
    pub extra: Option<&'static Node>,
    /// Checks run when the object closes, over its scalar field values.
    pub checks: &'static [ObjCheck],
}

/// Most fields an [`Object`] may declare (the seen-set is a 64-bit mask).
pub const MAX_FIELDS: usize = 64;

/// A known field of an object.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The JSON key: no quote, backslash or control character (keys are matched against it
    /// byte for byte; [`dsl::req`] and [`dsl::opt`] check it).
    pub name: &'static str,
    /// Its shape.
    pub node: Node,
    /// A missing required field is an error (`missing_field`); an optional one is fine.
    pub required: bool,
}

/// A rule on a string value. Codes: `prefix`, `enum`, `date_format`, `timestamp`,
/// `lowercase`, `month_name`.
#[derive(Clone, Copy, Debug)]
pub enum StrRule {
    /// Starts with the text.
    Prefix(&'static str, Severity),
    /// One of the values.
    OneOf(&'static [&'static str], Severity),
    /// A calendar date `YYYY-MM-DD`.
    Date,
    /// An ISO 8601 UTC timestamp `YYYY-MM-DDTHH:MM:SS[.fff]Z` (see [`super::formats`]);
    /// `millis: true` requires exactly three fraction digits.
    Timestamp {
        /// Milliseconds required.
        millis: bool,
    },
    /// No upper-case letters.
    Lowercase,
    /// An English full month name.
    MonthName,
}

impl StrRule {
    /// The stable rule code.
    pub fn code(&self) -> &'static str {
        match self {
            StrRule::Prefix(..) => "prefix",
            StrRule::OneOf(..) => "enum",
            StrRule::Date => "date_format",
            StrRule::Timestamp { .. } => "timestamp",
            StrRule::Lowercase => "lowercase",
            StrRule::MonthName => "month_name",
        }
    }
    /// How serious a violation is.
    pub fn severity(&self) -> Severity {
        match self {
            StrRule::Prefix(_, s) | StrRule::OneOf(_, s) => *s,
            _ => Severity::Error,
        }
    }
}

/// A rule on a number. Code: `range`.
#[derive(Clone, Copy, Debug)]
pub struct NumRule {
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// How serious a value outside is.
    pub severity: Severity,
}

/// A range bound as text, for messages and the JSON Schema: `100`, `-3`, `0.25`, `inf`.
///
/// Decision: written without float formatting (core's or zmij's, about 8 KB of the JS
/// package's gzipped wasm together), as every bound of the spec's ranges is a whole number
/// (a test checks); another bound is written with up to 6 decimals.
pub(crate) fn bound_text(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        return (f as i64).to_string();
    }
    let micros = (f.abs() * 1e6).round() as u64;
    let sign = if f < 0.0 { "-" } else { "" };
    let (whole, frac) = (micros / 1_000_000, micros % 1_000_000);
    let frac = format!("{frac:06}");
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
        .trim_end_matches('.')
        .to_owned()
}

/// The order a [`ArrRule::Seq`] requires of consecutive keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Each key ≥ the previous.
    Asc,
    /// Each key ≤ the previous.
    Desc,
    /// Each key > the previous.
    StrictAsc,
    /// Each key < the previous.
    StrictDesc,
    /// Each key moves from the previous by exactly the step, when it moves in the step's
    /// direction at all (a move the other way, or none, is left to an order rule).
    Step(i64),
}

/// A rule over an array's elements.
#[derive(Clone, Copy, Debug)]
pub enum ArrRule {
    /// The number of elements is within `min..=max`.
    Len {
        /// Fewest elements.
        min: usize,
        /// Most elements.
        max: usize,
        /// How serious a violation is.
        severity: Severity,
        /// Rule code.
        code: &'static str,
    },
    /// Consecutive elements' keys follow `order`. Elements whose key is `None` are skipped.
    Seq {
        /// Field named in the issue path (`/3/rank`).
        field: &'static str,
        /// The key of an element (`None` when it cannot be computed).
        key: fn(&Record<'_, '_>) -> Option<i64>,
        /// The required order.
        order: Order,
        /// How serious a violation is.
        severity: Severity,
        /// Rule code.
        code: &'static str,
        /// What the order is, for the message ("ordered by rank ascending").
        what: &'static str,
    },
    /// A check of each element (with its index), e.g. against the request.
    Each(fn(&mut Cx<'_>, usize, &Record<'_, '_>)),
    /// A check of the element count, e.g. against the request.
    End(fn(&mut Cx<'_>, usize)),
}

/// A check run when an object closes.
pub type ObjCheck = fn(&mut Cx<'_>, &Record<'_, '_>);

/// The values of an object's fields (scalars; containers show as [`Scalar::Array`] /
/// [`Scalar::Object`]), or one scalar array element.
pub struct Record<'r, 'a> {
    pub(crate) fields: &'static [Field],
    pub(crate) vals: &'r [Scalar<'a>],
    pub(crate) value: Scalar<'a>,
}

impl<'r, 'a> Record<'r, 'a> {
    /// The value of a field ([`Scalar::Absent`] when missing or not declared).
    pub fn get(&self, name: &str) -> Scalar<'a> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| self.vals.get(i).copied())
            .unwrap_or(Scalar::Absent)
    }
    /// True when the field is present (any value, `null` included).
    pub fn has(&self, name: &str) -> bool {
        !matches!(self.get(name), Scalar::Absent)
    }
    /// A field's integer value.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.get(name).as_int()
    }
    /// A field's string value, decoded.
    pub fn str(&self, name: &str) -> Option<Cow<'a, str>> {
        self.get(name).as_str().map(|s| s.text())
    }
    /// The element itself, for arrays of scalars.
    pub fn value(&self) -> Scalar<'a> {
        self.value
    }
}

/// Where a check reports, relative to the current value.
#[derive(Clone, Copy, Debug)]
pub enum At<'s> {
    /// The current value.
    Here,
    /// A key of the current object.
    Key(&'s str),
    /// An element of the current array.
    Index(usize),
    /// A key of an element of the current array.
    IndexKey(usize, &'s str),
}

/// What a check can see and do: the request, and reporting issues.
pub struct Cx<'e> {
    pub(crate) request: Option<&'e Request>,
    pub(crate) sink: &'e mut dyn FnMut(At<'_>, Severity, &'static str, String),
}

impl<'e> Cx<'e> {
    /// The request that produced the response, when the caller gave it.
    pub fn request(&self) -> Option<&'e Request> {
        self.request
    }
    /// Reports an error.
    pub fn error(&mut self, at: At<'_>, code: &'static str, message: String) {
        (self.sink)(at, Severity::Error, code, message);
    }
    /// Reports a warning.
    pub fn warning(&mut self, at: At<'_>, code: &'static str, message: String) {
        (self.sink)(at, Severity::Warning, code, message);
    }
}

/// Whether a response keyword is the requested one: one function for the validator's
/// cross-checks, the record planner and the app's lists (the decision is documented at
/// [`crate::records::key`]).
pub use crate::records::same_keyword;

/// Declaration helpers, so the per-operation tables read like the spec's tables.
pub mod dsl {
    use super::*;
    use crate::json::plain_key;

    /// A string.
    pub const STR: Node = Node {
        kind: Kind::Str(&[]),
        doc: "",
    };
    /// An integer.
    pub const INT: Node = Node {
        kind: Kind::Int(&[]),
        doc: "",
    };
    /// A number.
    pub const NUM: Node = Node {
        kind: Kind::Num(&[]),
        doc: "",
    };
    /// A boolean.
    pub const BOOL: Node = Node {
        kind: Kind::Bool,
        doc: "",
    };
    /// Anything.
    pub const ANY: Node = Node {
        kind: Kind::Any,
        doc: "",
    };
    /// An array of anything.
    pub const ANY_ARRAY: Node = Node {
        kind: Kind::Array(&Array {
            items: ANY,
            rules: &[],
        }),
        doc: "",
    };
    /// An array of strings.
    pub const STR_ARRAY: Node = Node {
        kind: Kind::Array(&Array {
            items: STR,
            rules: &[],
        }),
        doc: "",
    };

    /// A required field. The name may not hold a quote, a backslash or a control character
    /// (checked when the declaration is compiled): the validator matches keys against it
    /// byte for byte.
    pub const fn req(name: &'static str, node: Node) -> Field {
        assert!(
            plain_key(name),
            "a field name may not hold `\"`, `\\` or a control character"
        );
        Field {
            name,
            node,
            required: true,
        }
    }
    /// An optional field (the name as for [`req`]).
    pub const fn opt(name: &'static str, node: Node) -> Field {
        assert!(
            plain_key(name),
            "a field name may not hold `\"`, `\\` or a control character"
        );
        Field {
            name,
            node,
            required: false,
        }
    }
    /// A string with rules.
    pub const fn string(rules: &'static [StrRule]) -> Node {
        Node {
            kind: Kind::Str(rules),
            doc: "",
        }
    }
    /// An integer with rules.
    pub const fn int(rules: &'static [NumRule]) -> Node {
        Node {
            kind: Kind::Int(rules),
            doc: "",
        }
    }
    /// A number with rules.
    pub const fn num(rules: &'static [NumRule]) -> Node {
        Node {
            kind: Kind::Num(rules),
            doc: "",
        }
    }
    /// A range rule.
    pub const fn range(min: f64, max: f64, severity: Severity) -> NumRule {
        NumRule { min, max, severity }
    }
    /// An array node.
    pub const fn array(a: &'static Array) -> Node {
        Node {
            kind: Kind::Array(a),
            doc: "",
        }
    }
    /// An object node.
    pub const fn object(o: &'static Object) -> Node {
        Node {
            kind: Kind::Object(o),
            doc: "",
        }
    }
    /// An object of known fields, no checks.
    pub const fn fields(fields: &'static [Field]) -> Object {
        Object {
            fields,
            extra: None,
            checks: &[],
        }
    }
    /// `a` followed by `b`, as an array of exactly `N` fields (`N` = `a.len() + b.len()`,
    /// checked at compile time).
    pub const fn concat<const N: usize>(a: &[Field], b: &[Field]) -> [Field; N] {
        assert!(a.len() + b.len() == N, "concat: wrong N");
        let mut out = [req("", ANY); N];
        let mut i = 0;
        while i < a.len() {
            out[i] = a[i];
            i += 1;
        }
        let mut j = 0;
        while j < b.len() {
            out[i + j] = b[j];
            j += 1;
        }
        out
    }
    /// Attaches a description.
    pub const fn doc(mut node: Node, doc: &'static str) -> Node {
        node.doc = doc;
        node
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(n: &Node, out: &mut Vec<f64>) {
        match n.kind {
            Kind::Int(rules) | Kind::Num(rules) => {
                out.extend(rules.iter().flat_map(|r| [r.min, r.max]));
            }
            Kind::Array(a) => bounds(&a.items, out),
            Kind::Object(o) => {
                for f in o.fields {
                    bounds(&f.node, out);
                }
                if let Some(extra) = o.extra {
                    bounds(extra, out);
                }
            }
            Kind::Any | Kind::Bool | Kind::Str(_) => {}
        }
    }

    #[test]
    fn every_range_bound_is_whole_and_written_as_display_writes_it() {
        let mut all = Vec::new();
        for op in crate::Operation::ALL {
            bounds(crate::validate::response_shape(op), &mut all);
        }
        assert!(!all.is_empty());
        for f in all {
            assert!(f.fract() == 0.0 || f.is_infinite(), "{f}");
            assert_eq!(bound_text(f), f.to_string());
        }
        for f in [0.25, -1.5, 0.000001, 12.3] {
            assert_eq!(bound_text(f), f.to_string());
        }
        assert_eq!(bound_text(f64::INFINITY), "inf");
        assert_eq!(bound_text(f64::NEG_INFINITY), "-inf");
    }
}
