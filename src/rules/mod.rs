//! The rule language: how an operation declares its response (shapes, formats, severities,
//! rule codes). Operations (`ops`, above) write their `RESPONSE` with it; the validator engine
//! and the JSON Schema export (`validate`, above `ops`) interpret the declarations and know
//! no operation by name. A leaf: it imports only [`crate::json`] and [`crate::keyword`].
//!
//! Declarations are data ([`Node`] trees built with [`dsl`]) so that a generator can also
//! turn them into other validators (the package's JS validators for parsed values). A
//! rule that relates a record to the request is data too ([`Echo`], [`Count`]); a rule that
//! relates several values in another way stays a Rust function, wrapped in [`Named`] (its
//! stable name and its JS twin's, in `twins.js`).

mod code;
pub mod dsl;
mod echo;
pub mod formats;
mod shape;

use serde::Serialize;

pub use crate::keyword::same_keyword;
pub use code::RuleCode;
pub use echo::{same_target, Compare, Count, Echo, Match, RequestFields, RequestValue};
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use shape::js_string;
pub(crate) use shape::{bound_text, named};
pub use shape::{
    Array, ArrayRule, At, CheckContext, Field, Kind, Named, Node, NumberRule, Object, ObjectCheck,
    Order, Record, SeqKey, StringRule, MAX_FIELDS,
};

/// How serious an issue is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The spec states the rule: the response breaks the contract.
    Error,
    /// The spec only describes observed behaviour, or the field is unknown.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}
