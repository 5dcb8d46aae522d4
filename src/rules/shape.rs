//! Declarative response shapes: each operation's module (in `ops`, above this module)
//! declares its response as a [`Node`] tree (types, presence, per-value rules, per-array rules, and small
//! per-object or per-element checks for rules that relate several values or the request).
//! The validator engine and the JSON Schema export both read these declarations; neither
//! knows any operation by name.

use std::borrow::Cow;

use std::any::Any;

use super::{formats, Count, Echo, RuleCode, Severity};
use crate::json::Scalar;

/// A JSON value's expected shape.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The type and its rules.
    pub kind: Kind,
    /// A short description (goes into the JSON Schema).
    pub doc: &'static str,
    /// An integer that may exceed ±(2^53 − 1) (a 64-bit id), which a JS number cannot hold
    /// exactly: the JS package's types let it be a `bigint` or its digits under the client's
    /// `integers` mode, and the package's runtime converts only these ([`super::dsl::ID`]).
    /// Native only: only the package's generators read it (its types and static data).
    #[cfg(not(target_arch = "wasm32"))]
    pub big: bool,
}

/// The expected type of a value, with its rules.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A string.
    Str(&'static [StringRule]),
    /// An integer (a JSON number without fraction or exponent).
    Int(&'static [NumberRule]),
    /// Any JSON number.
    Num(&'static [NumberRule]),
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
    pub rules: &'static [ArrayRule],
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
    pub checks: &'static [ObjectCheck],
    /// Fields that echo the request ([`super::Match::Same`]), checked when the object closes.
    pub echoes: &'static [Echo],
    /// The record's type name (its Rust struct and its TypeScript interface), empty for an
    /// anonymous object. Native only, as [`Self::doc`].
    #[cfg(not(target_arch = "wasm32"))]
    pub name: &'static str,
    /// The record's description (the struct's doc comment, for the TypeScript types). Native
    /// only: the type generator runs natively, so the wasm packages carry neither.
    #[cfg(not(target_arch = "wasm32"))]
    pub doc: &'static str,
}

/// Most fields an [`Object`] may declare (the seen-set is a 64-bit mask).
pub const MAX_FIELDS: usize = 64;

/// A known field of an object.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The JSON key: no quote, backslash or control character (keys are matched against it
    /// byte for byte; [`super::dsl::req`] and [`super::dsl::opt`] check it).
    pub name: &'static str,
    /// Its shape.
    pub node: Node,
    /// A missing required field is an error (`missing_field`); an optional one is fine.
    pub required: bool,
    /// Its description (the struct field's doc comment, for the TypeScript types). Native
    /// only, as [`Object::doc`].
    #[cfg(not(target_arch = "wasm32"))]
    pub doc: &'static str,
}

/// A rule on a string value. Codes: `prefix`, `enum`, `date_format`, `timestamp`,
/// `lowercase`, `month_name`, `number_text`.
#[derive(Clone, Copy, Debug)]
pub enum StringRule {
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
    /// A number written as text, or empty (see [`formats::is_number_text`]).
    NumberText,
}

impl StringRule {
    /// The stable rule code.
    pub fn code(&self) -> RuleCode {
        match self {
            StringRule::Prefix(..) => RuleCode::Prefix,
            StringRule::OneOf(..) => RuleCode::Enum,
            StringRule::Date => RuleCode::DateFormat,
            StringRule::Timestamp { .. } => RuleCode::Timestamp,
            StringRule::Lowercase => RuleCode::Lowercase,
            StringRule::MonthName => RuleCode::MonthName,
            StringRule::NumberText => RuleCode::NumberText,
        }
    }
    /// How serious a violation is.
    pub fn severity(&self) -> Severity {
        match self {
            StringRule::Prefix(_, s) | StringRule::OneOf(_, s) => *s,
            _ => Severity::Error,
        }
    }
    /// True when `text` keeps the rule (the wasm engine's test).
    #[inline]
    pub fn holds(&self, text: &str) -> bool {
        match self {
            StringRule::Prefix(prefix, _) => text.starts_with(prefix),
            StringRule::OneOf(values, _) => values.contains(&text),
            StringRule::Date => formats::is_date(text),
            StringRule::Timestamp { millis } => formats::is_utc_timestamp(text, *millis),
            StringRule::Lowercase => !text.chars().any(char::is_uppercase),
            StringRule::MonthName => formats::MONTH_NAMES.contains(&text),
            StringRule::NumberText => formats::is_number_text(text),
        }
    }
    /// [`Self::holds`] as a JS expression on the string `x`, for the generated JS validator
    /// (`validate::js`; its runtime `src/js/validate_value.js` ports [`formats`], and the
    /// generated module declares `MONTH_NAMES` from it). Native only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn js_test(&self, x: &str) -> String {
        match self {
            StringRule::Prefix(prefix, _) => prefix_test(prefix, x),
            StringRule::OneOf(values, _) => {
                let tests: Vec<String> = values
                    .iter()
                    .map(|value| format!("{x} === {}", js_string(value)))
                    .collect();
                format!("({})", tests.join(" || "))
            }
            StringRule::Date => format!("isDate({x})"),
            StringRule::Timestamp { millis } => format!("isTimestamp({x}, {millis})"),
            StringRule::Lowercase => format!("!hasUpper({x})"),
            StringRule::MonthName => format!("MONTH_NAMES.includes({x})"),
            StringRule::NumberText => format!("numberText({x})"),
        }
    }
}

/// `x` starts with `prefix`, as JS. A short prefix is compared code unit by code unit: in V8
/// that is about half the time of `startsWith` per value (measured on the 50,000 ranking URLs
/// of the package benchmark), and the fast path runs it on every record. Two units or more are
/// tested without a branch per unit, `(x.charCodeAt(0) ^ u0 | x.charCodeAt(1) ^ u1 ...) === 0`:
/// 2–4 % less time for the whole ranked-keywords/domain validator than `&&` between the units
/// in Node 20, 1–3 % in Chromium (both bodies of the package benchmark, A/B in one process).
/// `charCodeAt` is `NaN` past the end and `NaN ^ u` is `u`, so a shorter string fails, except
/// where a unit is 0: such a prefix keeps a length test first. Native only.
#[cfg(not(target_arch = "wasm32"))]
fn prefix_test(prefix: &str, x: &str) -> String {
    let units: Vec<u16> = prefix.encode_utf16().collect();
    if units.is_empty() || units.len() > 8 {
        return format!("{x}.startsWith({})", js_string(prefix));
    }
    if let [unit] = units[..] {
        return format!("({x}.charCodeAt(0) === {unit})");
    }
    let tests: Vec<String> = units
        .iter()
        .enumerate()
        .map(|(i, unit)| format!("{x}.charCodeAt({i}) ^ {unit}"))
        .collect();
    let length = if units.contains(&0) {
        format!("{x}.length >= {} && ", units.len())
    } else {
        String::new()
    };
    format!("({length}({}) === 0)", tests.join(" | "))
}

/// A JS string literal (JSON's, which JS reads the same). Native only.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn js_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A rule on a number. Code: `range`.
#[derive(Clone, Copy, Debug)]
pub struct NumberRule {
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
pub(crate) fn bound_text(bound: f64) -> String {
    if bound.is_nan() {
        return "NaN".into();
    }
    if bound.is_infinite() {
        return if bound > 0.0 { "inf" } else { "-inf" }.into();
    }
    if bound.fract() == 0.0 && bound.abs() < 9_007_199_254_740_992.0 {
        return (bound as i64).to_string();
    }
    let micros = (bound.abs() * 1e6).round() as u64;
    let sign = if bound < 0.0 { "-" } else { "" };
    let (whole, frac) = (micros / 1_000_000, micros % 1_000_000);
    let frac = format!("{frac:06}");
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
        .trim_end_matches('.')
        .to_owned()
}

/// The order a [`ArrayRule::Seq`] requires of consecutive keys.
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

impl Order {
    /// True when `key` may follow `previous` (the wasm engine's test).
    #[inline]
    pub fn holds(self, key: i64, previous: i64) -> bool {
        match self {
            Order::Asc => key >= previous,
            Order::Desc => key <= previous,
            Order::StrictAsc => key > previous,
            Order::StrictDesc => key < previous,
            Order::Step(step) => {
                let moved = key.saturating_sub(previous);
                moved.signum() != step.signum() || moved == step
            }
        }
    }
    /// [`Self::holds`] as a JS expression on two keys (numbers, or BigInts beyond 2^53, which
    /// compare exactly with each other; `stepOk` of the runtime saturates as Rust does).
    /// Native only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn js_test(self, key: &str, previous: &str) -> String {
        match self {
            Order::Asc => format!("{key} >= {previous}"),
            Order::Desc => format!("{key} <= {previous}"),
            Order::StrictAsc => format!("{key} > {previous}"),
            Order::StrictDesc => format!("{key} < {previous}"),
            Order::Step(step) => format!("stepOk({step}, {key}, {previous})"),
        }
    }
}

/// The key a [`ArrayRule::Seq`] orders elements by. Declared where it can be, so both
/// validators (the wasm engine and the generated JS one) read it from the declaration.
#[derive(Clone, Copy, Debug)]
pub enum SeqKey {
    /// An integer field of the element (`None` when it is not an integer fitting `i64`).
    Int(&'static str),
    /// A `YYYY-MM-DD` field of the element, as days since 1970-01-01 (`None` when it is not
    /// a calendar date).
    Date(&'static str),
    /// Computed by a Rust function with a JS twin.
    Custom(Named<fn(&Record<'_, '_>) -> Option<i64>>),
}

impl SeqKey {
    /// The key of an element.
    pub fn of(&self, record: &Record<'_, '_>) -> Option<i64> {
        match self {
            SeqKey::Int(field) => record.int(field),
            SeqKey::Date(field) => formats::parse_date(&record.str(field)?),
            SeqKey::Custom(key) => (key.run)(record),
        }
    }
}

/// A rule over an array's elements.
#[derive(Clone, Copy, Debug)]
pub enum ArrayRule {
    /// The number of elements is within `min..=max`.
    Len {
        /// Fewest elements.
        min: usize,
        /// Most elements.
        max: usize,
        /// How serious a violation is.
        severity: Severity,
        /// Rule code.
        code: RuleCode,
    },
    /// Consecutive elements' keys follow `order`. Elements whose key is `None` are skipped.
    Seq {
        /// Field named in the issue path (`/3/rank`).
        field: &'static str,
        /// The key of an element (`None` when it cannot be computed).
        key: SeqKey,
        /// The required order.
        order: Order,
        /// How serious a violation is.
        severity: Severity,
        /// Rule code.
        code: RuleCode,
        /// What the order is, for the message ("ordered by rank ascending").
        what: &'static str,
    },
    /// A check of each element (with its index), e.g. against the request.
    Each(Named<fn(&mut CheckContext<'_>, usize, &Record<'_, '_>)>),
    /// A check of the element count, e.g. against the request.
    End(Named<fn(&mut CheckContext<'_>, usize)>),
    /// Each element's field (or the element) echoes the request ([`Echo`]).
    Echo(Echo),
    /// As many elements as a request list has items ([`Count`]).
    Count(Count),
}

/// A check run when an object closes.
pub type ObjectCheck = Named<fn(&mut CheckContext<'_>, &Record<'_, '_>)>;

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
///
/// Decision: the request is held as `dyn Any`, so the rule language knows no request type
/// (it sits below `ops`); a check, written in its operation's module, asks for that
/// module's request type ([`Self::request`]) and gets `None` for any other.
pub struct CheckContext<'e> {
    pub(crate) request: Option<&'e dyn Any>,
    pub(crate) sink: &'e mut dyn FnMut(At<'_>, Severity, RuleCode, String),
}

impl<'e> CheckContext<'e> {
    /// The request that produced the response, when the caller gave it and it is an `R`.
    pub fn request<R: Any>(&self) -> Option<&'e R> {
        self.request.and_then(|request| request.downcast_ref::<R>())
    }
    /// Reports an error. (Not inlined: a call per check is smaller in the JS package's wasm
    /// than the sink call inlined into each check, measured.)
    #[inline(never)]
    pub fn error(&mut self, at: At<'_>, code: RuleCode, message: String) {
        (self.sink)(at, Severity::Error, code, message);
    }
    /// Reports a warning (not inlined, as [`Self::error`]).
    #[inline(never)]
    pub fn warning(&mut self, at: At<'_>, code: RuleCode, message: String) {
        (self.sink)(at, Severity::Warning, code, message);
    }
}

/// A rule that stays a Rust function, with its stable name (`<module path>::<function>`,
/// e.g. `serpkit::ops::search_volume_bulk::monthly_entry`) and its JS twin: the same rule
/// written in JavaScript in `src/rules/twins.js` (a real module, type-checked with `tsc
/// --checkJs`), named here by its method of `twins(…)` there (`"monthlyEntry"`), which the
/// generated JS validator calls (`validate::js` inlines the file; the differential tests hold
/// the two to one behaviour). Declared with the crate's `named!` macro. Name and twin exist in
/// native builds only (the generator runs natively), so the wasm packages carry neither.
/// A rule that relates a record to the request is no `Named` rule but data
/// ([`super::Echo`], [`super::Count`]): both validators read it from the declaration.
///
/// A twin is called as the Rust function is: an object check `(cx, record)`, an element
/// check `(cx, index, element)`, an element-count check `(cx, count)`, an order key
/// `(element) => key | undefined` (a number, or a `BigInt` beyond 2^53). `cx` has
/// `operation` (the path, `search_volume/bulk`), `request` (the parsed request or
/// `undefined`), `error(at, code, message)` and `warning(at, code, message)`, where `at` is
/// `null` (here) or a key, and `code` one of `C` (`C.CountValue`: the [`super::RuleCode`]
/// variants). The runtime gives the record helpers the Rust checks use (`int`, `str`, `has`,
/// `get`, `sameKeyword`, `debug` for Rust's `{:?}`).
#[derive(Clone, Copy, Debug)]
pub struct Named<F> {
    /// The stable name.
    #[cfg(not(target_arch = "wasm32"))]
    pub name: &'static str,
    /// The JS twin's name: its method of `twins(…)` in `src/rules/twins.js`.
    #[cfg(not(target_arch = "wasm32"))]
    pub js: &'static str,
    /// The function.
    pub run: F,
}

/// A [`Named`] function with its JS twin's name in `twins.js`: `named!(monthly_entry, "monthlyEntry")`.
macro_rules! named {
    ($function:ident, $js:expr) => {
        $crate::rules::Named {
            #[cfg(not(target_arch = "wasm32"))]
            name: concat!(module_path!(), "::", stringify!($function)),
            #[cfg(not(target_arch = "wasm32"))]
            js: $js,
            run: $function,
        }
    };
}
pub(crate) use named;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::prefix_test;

    /// The three forms of the prefix test (the differential JS tests hold their behaviour to
    /// the wasm engine's; no declared prefix has a NUL, so its form is pinned here).
    #[test]
    fn prefix_test_forms() {
        assert_eq!(prefix_test("#", "x"), "(x.charCodeAt(0) === 35)");
        assert_eq!(
            prefix_test("http", "x"),
            "((x.charCodeAt(0) ^ 104 | x.charCodeAt(1) ^ 116 | x.charCodeAt(2) ^ 116 | x.charCodeAt(3) ^ 112) === 0)"
        );
        // `NaN ^ 0` is 0: a string one unit short would pass without the length test.
        assert_eq!(
            prefix_test("a\0", "x"),
            "(x.length >= 2 && (x.charCodeAt(0) ^ 97 | x.charCodeAt(1) ^ 0) === 0)"
        );
        assert_eq!(prefix_test("", "x"), "x.startsWith(\"\")");
    }
}
