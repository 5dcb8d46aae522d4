//! The 11 operations of the service: one module each with its request, response types,
//! request checks, price and response rules (`RESPONSE`, in the rule language
//! [`crate::rules`]), plus [`Operation`] and [`Request`], generated with the client's methods
//! from the one list of operations (`for_each_operation!` below).
//!
//! Adding an operation: its module (`Request` via `request!`, `Response`, `PRICE`,
//! `RESPONSE`, an [`OperationRequest`] impl) and one line in `for_each_operation!`; every
//! match over the list is exhaustive, so a missing item is a compile error.

pub mod check;
pub mod lenient;
mod parse;
mod record;
#[cfg(not(target_arch = "wasm32"))]
pub mod typescript;

pub mod backlink_metrics;
pub mod backlink_overview;
pub mod domainstats;
pub mod microblog_post;
pub mod outline_seo;
pub mod ranked_keywords_domain;
pub mod ranked_keywords_metrics;
pub mod related;
pub mod search_volume_bulk;
pub mod search_volume_single;
pub mod video_video;

use std::fmt;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use check::{RequestError, RequestErrorKind};
pub(crate) use record::record;

use crate::money::Usd;

/// The API key. Its `Debug` and `Display` never show it, so it cannot leak into logs or
/// error messages by accident; only serialization into a request body writes it.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }
    /// The key itself, for the request body only.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// True when no key is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "ApiKey(<none>)"
        } else {
            "ApiKey(<redacted>)"
        })
    }
}

/// A request body's `key`: read as the string it is (`ApiKey` is a transparent `String`).
impl parse::Field for ApiKey {
    const KIND: parse::Kind = parse::Kind::Str;
    fn from_value(v: Option<parse::Value>) -> Self {
        ApiKey(<String as parse::Field>::from_value(v))
    }
}

/// What one unit of an operation's price is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceUnit {
    /// Each keyword in the request.
    PerKeyword,
    /// Each domain in the request.
    PerDomain,
    /// Each URL in the request (`backlink/metrics`; see that module for why).
    PerUrl,
    /// Each request, whatever it holds.
    PerRequest,
}

impl PriceUnit {
    /// Human label: "per keyword", "per request", ...
    pub fn label(self) -> &'static str {
        match self {
            PriceUnit::PerKeyword => "per keyword",
            PriceUnit::PerDomain => "per domain",
            PriceUnit::PerUrl => "per URL",
            PriceUnit::PerRequest => "per request",
        }
    }

    /// What counts as one unit, with the decision taken where the spec's words leave a
    /// choice: shown to JS users beside every price (`operations()`'s `unitNote`,
    /// `estimateCost`'s `explanation`).
    pub fn meaning(self) -> &'static str {
        match self {
            PriceUnit::PerKeyword => "each entry of `keywords` is a unit, a repeated one too",
            PriceUnit::PerDomain => "each entry of `domains` is a unit, a repeated one too",
            PriceUnit::PerUrl => {
                "each entry of `urls` is a unit, two URLs of one domain too: the spec says \
                 \"per domain, per request\" of a request of URLs; decided per URL, the largest \
                 reading (3 URLs of one domain: $0.15, not $0.05), so a budget check never \
                 lets through a call that costs more than its estimate"
            }
            PriceUnit::PerRequest => "one unit per request, whatever it holds",
        }
    }
}

/// An operation's price: dollars per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    /// Dollars charged per unit.
    pub usd: Usd,
    /// What a unit is.
    pub unit: PriceUnit,
}

/// The typed request of one operation.
pub trait OperationRequest: Serialize + DeserializeOwned + Clone + fmt::Debug {
    /// Which operation this request is for.
    const OPERATION: Operation;
    /// The decoded response.
    type Response: Serialize + DeserializeOwned + fmt::Debug;
    /// Checks every field; the error names the first bad field.
    fn check(&self) -> Result<(), RequestError>;
    /// How many price units this request is charged ([`PriceUnit`]).
    fn billable_units(&self) -> u64;
    /// The API key carried in the body.
    fn key(&self) -> &ApiKey;
    /// Sets the API key carried in the body.
    fn set_key(&mut self, key: ApiKey);
    /// The estimated charge: price × billable units.
    fn estimate_cost(&self) -> Usd {
        Self::OPERATION.price().usd.times(self.billable_units())
    }
}

/// Error for a string that names no operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownOperation(pub String);

impl fmt::Display for UnknownOperation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.0.chars().take(60).collect();
        write!(f, "unknown operation {shown:?}; expected one of: ")?;
        for (i, operation) in Operation::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(operation.path())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownOperation {}

/// THE list of operations: one line each with its enum variant, module, path (without
/// `/v1/`), title (the spec's name) and JS method name. Everything that names every operation
/// is generated from it by a callback macro: `for_each_operation!(callback)` expands to
/// `callback! { Variant => module, "path", "title", jsMethod; ... }`. Users: the [`Operation`]
/// and [`Request`] enums here, the client's methods (in `client`) and the JS package's
/// method table ([`Operation::js_method`]). Adding an operation is its module file plus one
/// line here; every match over the list is exhaustive, so nothing can be forgotten.
macro_rules! for_each_operation {
    ($callback:ident) => {
        $callback! {
            SearchVolumeBulk => search_volume_bulk, "search_volume/bulk", "Search volume, bulk", searchVolumeBulk;
            SearchVolumeSingle => search_volume_single, "search_volume/single", "Search volume, single", searchVolumeSingle;
            DomainStats => domainstats, "domainstats", "Domain stats", domainStats;
            BacklinkMetrics => backlink_metrics, "backlink/metrics", "Page backlink metrics", backlinkMetrics;
            RankedKeywordsMetrics => ranked_keywords_metrics, "ranked-keywords/metrics", "Ranked keywords, metrics", rankedKeywordsMetrics;
            RankedKeywordsDomain => ranked_keywords_domain, "ranked-keywords/domain", "Ranked keywords, domain", rankedKeywordsDomain;
            BacklinkOverview => backlink_overview, "backlink/overview", "Backlink domain overview", backlinkOverview;
            OutlineSeo => outline_seo, "outline/seo", "SEO outline", outlineSeo;
            MicroblogPost => microblog_post, "microblog/post", "Microblog post search", microblogPost;
            VideoVideo => video_video, "video/video", "Video SERP", videoVideo;
            Related => related, "related", "Related keywords", related;
        }
    };
}
pub(crate) use for_each_operation;

/// Generates [`Operation`], [`Request`] and their per-operation matches from the list.
macro_rules! operation_enums {
    ($( $variant:ident => $module:ident, $path:literal, $title:literal, $js_method:ident; )*) => {
        /// One of the service's operations (listed in `for_each_operation!`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            $( #[doc = $title] $variant, )*
        }

        impl Operation {
            /// How many operations there are.
            pub const COUNT: usize = [$(stringify!($variant)),*].len();

            /// All operations, in the spec's order.
            pub const ALL: [Operation; Operation::COUNT] = [$(Operation::$variant),*];

            /// The spec's path without `/v1/`, e.g. `search_volume/bulk`.
            pub const fn path(self) -> &'static str {
                match self { $(Operation::$variant => $path,)* }
            }

            /// The spec's name for the operation, e.g. "Search volume, bulk".
            pub const fn title(self) -> &'static str {
                match self { $(Operation::$variant => $title,)* }
            }

            /// The name of the operation's module in [`crate::ops`], which is also the name
            /// of its method on the Rust client (`Client` in `client`), e.g.
            /// `search_volume_bulk`.
            pub const fn module(self) -> &'static str {
                match self { $(Operation::$variant => stringify!($module),)* }
            }

            /// The name of the operation's method in the JS package (camelCase), e.g.
            /// `searchVolumeBulk`.
            pub const fn js_method(self) -> &'static str {
                match self { $(Operation::$variant => stringify!($js_method),)* }
            }

            /// The operation's price, from its module.
            pub const fn price(self) -> Price {
                match self { $(Operation::$variant => $module::PRICE,)* }
            }

            /// The declared response rules, from its module (`RESPONSE`).
            pub fn response(self) -> &'static crate::rules::Node {
                match self { $(Operation::$variant => &$module::RESPONSE,)* }
            }
        }

        /// A request of any operation.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Request {
            $( #[doc = $title] $variant($module::Request), )*
        }

        impl crate::rules::RequestFields for Request {
            fn field(&self, name: &str) -> Option<crate::rules::RequestValue<'_>> {
                match self { $(Request::$variant(request) => request.field(name),)* }
            }
        }

        impl Request {
            /// The operation this request is for.
            pub fn operation(&self) -> Operation {
                match self { $(Request::$variant(_) => Operation::$variant,)* }
            }

            /// Checks every field ([`OperationRequest::check`]).
            pub fn check(&self) -> Result<(), RequestError> {
                match self { $(Request::$variant(request) => request.check(),)* }
            }

            /// Price units this request is charged.
            pub fn billable_units(&self) -> u64 {
                match self { $(Request::$variant(request) => request.billable_units(),)* }
            }

            /// The API key in the body.
            pub fn key(&self) -> &ApiKey {
                match self { $(Request::$variant(request) => request.key(),)* }
            }

            /// Sets the API key in the body.
            pub fn set_key(&mut self, key: ApiKey) {
                match self { $(Request::$variant(request) => request.set_key(key),)* }
            }

            /// The request body as JSON text (with the key).
            pub fn to_json(&self) -> String {
                let text = match self {
                    $(Request::$variant(request) => serde_json::to_string(request),)*
                };
                text.unwrap_or_default()
            }

            /// Parses a request body of `operation` from JSON text. `key` may be absent.
            pub fn from_json(operation: Operation, text: &str) -> Result<Request, RequestError> {
                match operation {
                    $(Operation::$variant => parse::request::<$module::Request>(text).map(Request::$variant),)*
                }
                .map_err(malformed)
            }
        }

        $(
            impl From<$module::Request> for Request {
                fn from(request: $module::Request) -> Request { Request::$variant(request) }
            }
        )*

        impl FromStr for Operation {
            type Err = UnknownOperation;
            /// Accepts `search_volume/bulk`, `/v1/search_volume/bulk` and `v1/search_volume/bulk`.
            fn from_str(text: &str) -> Result<Operation, UnknownOperation> {
                let path = text.trim();
                let path = path.strip_prefix('/').unwrap_or(path);
                let path = path.strip_prefix("v1/").unwrap_or(path);
                match path {
                    $($path => Ok(Operation::$variant),)*
                    _ => Err(UnknownOperation(text.to_owned())),
                }
            }
        }
    };
}

for_each_operation!(operation_enums);

impl Operation {
    /// The path under the base URL: `/v1/search_volume/bulk`.
    pub fn url_path(self) -> String {
        format!("/v1/{}", self.path())
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path())
    }
}

impl Serialize for Operation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.path())
    }
}

impl<'de> Deserialize<'de> for Operation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Operation, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The estimated charge of a request: its operation's price × its billable units.
pub fn estimate_cost(request: &Request) -> Usd {
    request
        .operation()
        .price()
        .usd
        .times(request.billable_units())
}

/// The request error of a body that is not the request.
fn malformed(e: parse::Malformed) -> RequestError {
    RequestError::new(e.field, RequestErrorKind::Malformed(e.message))
}

/// Declares an operation's request struct: `key` (may be absent from a body), then the listed
/// fields, all required, each a `String` or a `Vec<String>`. The serde derive (Rust users),
/// the table the JSON parser of [`Request::from_json`] reads (`parse`, no per-struct
/// deserializer code) and the JS package's TypeScript interface (named after `as`; operations
/// whose requests have the same fields share one) all come from this one list.
macro_rules! request {
    (
        $(#[doc = $doc:literal])*
        Request as $ts:ident { $($(#[doc = $fdoc:literal])* $field:ident: $ty:ty),+ $(,)? }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Request {
            /// The API key.
            #[serde(default)]
            pub key: crate::ops::ApiKey,
            $($(#[doc = $fdoc])* pub $field: $ty,)+
        }

        impl crate::ops::parse::FromFields for Request {
            const NAMES: &'static [&'static str] = &["key", $(stringify!($field)),+];
            const KINDS: &'static [crate::ops::parse::Kind] = &[
                crate::ops::parse::Kind::Str,
                $(<$ty as crate::ops::parse::Field>::KIND),+
            ];
            fn from_values(v: &mut crate::ops::parse::Values) -> Self {
                Request {
                    key: v.take(),
                    $($field: v.take(),)+
                }
            }
        }

        /// Its fields by JSON name, for the response rules that relate to the request.
        impl crate::rules::RequestFields for Request {
            fn field(&self, name: &str) -> Option<crate::rules::RequestValue<'_>> {
                $(if name == stringify!($field) {
                    return crate::ops::RequestValue::value(&self.$field);
                })+
                None
            }
        }

        /// The request's TypeScript interface: its name and its fields' docs (native only).
        #[cfg(not(target_arch = "wasm32"))]
        impl crate::ops::parse::RequestType for Request {
            const NAME: &'static str = stringify!($ts);
            const DOCS: &'static [&'static str] = &[
                "The API key: may be omitted (the client puts its own key in the body).",
                $(concat!($($fdoc, "\n"),*)),+
            ];
        }
    };
}
pub(crate) use request;

/// A request field's value as [`crate::rules::RequestFields`] reads it.
pub(crate) trait RequestValue {
    fn value(&self) -> Option<crate::rules::RequestValue<'_>>;
}

impl RequestValue for String {
    fn value(&self) -> Option<crate::rules::RequestValue<'_>> {
        Some(crate::rules::RequestValue::Text(self))
    }
}

impl RequestValue for Vec<String> {
    fn value(&self) -> Option<crate::rules::RequestValue<'_>> {
        Some(crate::rules::RequestValue::List(self))
    }
}

/// Implements the key accessors of [`OperationRequest`] for a request struct with `key`.
macro_rules! key_accessors {
    () => {
        fn key(&self) -> &crate::ops::ApiKey {
            &self.key
        }
        fn set_key(&mut self, key: crate::ops::ApiKey) {
            self.key = key;
        }
    };
}
pub(crate) use key_accessors;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_field_is_named() {
        let e = Request::from_json(Operation::SearchVolumeBulk, r#"{"ccode":"US"}"#).unwrap_err();
        assert_eq!(e.field, "/keywords");
        assert!(e.to_string().contains("missing field `keywords`"), "{e}");
        let e = Request::from_json(Operation::Related, r#"{"keyword":"x"}"#).unwrap_err();
        assert_eq!(e.field, "/ccode");
    }

    #[test]
    fn paths_round_trip() {
        for operation in Operation::ALL {
            assert_eq!(operation.path().parse::<Operation>().unwrap(), operation);
            assert_eq!(
                operation.url_path().parse::<Operation>().unwrap(),
                operation
            );
            assert_eq!(operation.to_string(), operation.path());
            let json = serde_json::to_string(&operation).unwrap();
            assert_eq!(serde_json::from_str::<Operation>(&json).unwrap(), operation);
        }
        let err = "search_volume".parse::<Operation>().unwrap_err();
        assert!(err.to_string().contains("related"));
    }

    #[test]
    fn names_of_one_operation_are_listed_together() {
        let names: Vec<(&str, &str, &str)> = Operation::ALL
            .iter()
            .map(|o| (o.path(), o.module(), o.js_method()))
            .collect();
        assert_eq!(names.len(), Operation::COUNT);
        assert_eq!(
            names[..3],
            [
                (
                    "search_volume/bulk",
                    "search_volume_bulk",
                    "searchVolumeBulk"
                ),
                (
                    "search_volume/single",
                    "search_volume_single",
                    "searchVolumeSingle"
                ),
                ("domainstats", "domainstats", "domainStats"),
            ]
        );
        for (i, (path, module, js_method)) in names.iter().enumerate() {
            // The JS name is the module's name in camelCase (`domainstats` is the spec's one
            // word, `domainStats` in JS).
            let squashed: String = module.chars().filter(|c| *c != '_').collect();
            assert_eq!(js_method.to_lowercase(), squashed, "{path}");
            assert!(names[..i].iter().all(|other| other.2 != *js_method));
        }
    }

    #[test]
    fn key_is_never_debug_printed() {
        let req = Request::from_json(
            Operation::Related,
            r#"{"key":"SECRET-123","keyword":"x","ccode":"US"}"#,
        )
        .unwrap();
        assert!(!format!("{req:?}").contains("SECRET-123"));
        assert!(req.to_json().contains("SECRET-123"));
    }

    #[test]
    fn price_table() {
        let micros: Vec<(&str, i64, PriceUnit)> = Operation::ALL
            .iter()
            .map(|o| (o.path(), o.price().usd.micros(), o.price().unit))
            .collect();
        use PriceUnit::*;
        assert_eq!(
            micros,
            vec![
                ("search_volume/bulk", 300, PerKeyword),
                ("search_volume/single", 300, PerRequest),
                ("domainstats", 50_000, PerDomain),
                ("backlink/metrics", 50_000, PerUrl),
                ("ranked-keywords/metrics", 100_000, PerRequest),
                ("ranked-keywords/domain", 100_000, PerRequest),
                ("backlink/overview", 250_000, PerRequest),
                ("outline/seo", 500_000, PerRequest),
                ("microblog/post", 250_000, PerRequest),
                ("video/video", 250_000, PerRequest),
                ("related", 150_000, PerRequest),
            ]
        );
    }

    #[test]
    fn malformed_request_names_the_field() {
        let e = Request::from_json(
            Operation::SearchVolumeBulk,
            r#"{"keywords":[1],"ccode":"US"}"#,
        )
        .unwrap_err();
        assert_eq!(e.field, "/keywords/0");
        assert_eq!(e.code(), "malformed");
        // An object where a string belongs is rejected at its bracket, before it is read.
        let e = Request::from_json(Operation::DomainStats, r#"{"domains":[{}]}"#).unwrap_err();
        assert_eq!(e.field, "/domains/0");
        let e = Request::from_json(Operation::Related, r#"{"keyword":"x","ccode":"US","z":1}"#)
            .unwrap_err();
        assert_eq!(e.field, "/z");
        let e = Request::from_json(Operation::Related, "[").unwrap_err();
        assert_eq!(e.code(), "malformed");
    }

    fn bounds(n: &crate::rules::Node, out: &mut Vec<f64>) {
        match n.kind {
            crate::rules::Kind::Int(rules) | crate::rules::Kind::Num(rules) => {
                out.extend(rules.iter().flat_map(|r| [r.min, r.max]));
            }
            crate::rules::Kind::Array(a) => bounds(&a.items, out),
            crate::rules::Kind::Object(o) => {
                for f in o.fields {
                    bounds(&f.node, out);
                }
                if let Some(extra) = o.extra {
                    bounds(extra, out);
                }
            }
            crate::rules::Kind::Any | crate::rules::Kind::Bool | crate::rules::Kind::Str(_) => {}
        }
    }

    #[test]
    fn every_range_bound_is_whole_and_written_as_display_writes_it() {
        let mut all = Vec::new();
        for operation in Operation::ALL {
            bounds(operation.response(), &mut all);
        }
        assert!(!all.is_empty());
        for f in all {
            assert!(f.fract() == 0.0 || f.is_infinite(), "{f}");
            assert_eq!(crate::rules::bound_text(f), f.to_string());
        }
        for f in [0.25, -1.5, 0.000001, 12.3] {
            assert_eq!(crate::rules::bound_text(f), f.to_string());
        }
        assert_eq!(crate::rules::bound_text(f64::INFINITY), "inf");
        assert_eq!(crate::rules::bound_text(f64::NEG_INFINITY), "-inf");
    }

    /// The stable names and JS twins of the checks that stay Rust functions. Native only:
    /// neither is compiled into the wasm.
    #[cfg(not(target_arch = "wasm32"))]
    fn check_names(node: &crate::rules::Node, out: &mut Vec<(&'static str, &'static str)>) {
        use crate::rules::{ArrayRule, Kind, SeqKey};
        match node.kind {
            Kind::Array(array) => {
                for rule in array.rules {
                    match rule {
                        ArrayRule::Seq {
                            key: SeqKey::Custom(key),
                            ..
                        } => out.push((key.name, key.js)),
                        ArrayRule::Each(check) => out.push((check.name, check.js)),
                        ArrayRule::End(check) => out.push((check.name, check.js)),
                        ArrayRule::Seq { .. }
                        | ArrayRule::Len { .. }
                        | ArrayRule::Echo(_)
                        | ArrayRule::Count(_) => {}
                    }
                }
                check_names(&array.items, out);
            }
            Kind::Object(object) => {
                out.extend(object.checks.iter().map(|check| (check.name, check.js)));
                for field in object.fields {
                    check_names(&field.node, out);
                }
                if let Some(extra) = object.extra {
                    check_names(extra, out);
                }
            }
            Kind::Any | Kind::Bool | Kind::Str(_) | Kind::Int(_) | Kind::Num(_) => {}
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn rust_checks_have_stable_names_in_their_operation_module() {
        let mut all = Vec::new();
        for operation in Operation::ALL {
            check_names(operation.response(), &mut all);
        }
        let names: Vec<&str> = all.iter().map(|(name, _)| *name).collect();
        assert!(names.contains(&"serpkit::ops::search_volume_bulk::monthly_entry"));
        assert!(names.contains(&"serpkit::ops::video_video::hashtag_kind"));
        for (name, js) in all {
            // Every Rust check has its JS twin, named by its method in src/rules/twins.js (the
            // generated JS validator calls it; tests/js/differential.test.mjs holds the two to
            // one behaviour; `validate::js` checks the method exists).
            assert!(
                !js.is_empty() && js.chars().all(|c| c.is_ascii_alphanumeric()),
                "{name}: {js}"
            );
            let rest = name.strip_prefix("serpkit::ops::").unwrap_or_default();
            let (module, function) = rest.split_once("::").unwrap_or_default();
            assert!(
                Operation::ALL.iter().any(|o| o.module() == module) && !function.is_empty(),
                "{name}"
            );
        }
    }
}
