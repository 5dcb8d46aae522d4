//! The messages of the declared rules, written once: the wasm engine ([`super::engine`])
//! formats them with the values it met, and the JS generator (`super::js`) with placeholders
//! it turns into JS string concatenations, so both validators say exactly the same.

use std::fmt::Display;

use crate::rules::{bound_text, Echo, NumberRule, Severity, StringRule};

/// A number outside a range rule: `"150 is outside 0..=100 (observed values are in that range)"`.
pub(crate) fn range(shown: impl Display, rule: &NumberRule) -> String {
    let (min, max) = (bound_text(rule.min), bound_text(rule.max));
    let what = match rule.severity {
        Severity::Error => "must be",
        Severity::Warning => "observed values are",
    };
    format!("{shown} is outside {min}..={max} ({what} in that range)")
}

/// A string that breaks a string rule; `shown` is the quoted (and shortened) value.
pub(crate) fn string_rule(rule: &StringRule, shown: impl Display) -> String {
    let v = shown;
    match rule {
        StringRule::Prefix(p, _) => format!("{v} does not start with {p:?}"),
        // Written as `{:?}` writes the list (its values need no escape), without the slice
        // `Debug` machinery in the JS package's wasm.
        StringRule::OneOf(vals, _) => format!("{v} is not one of [\"{}\"]", vals.join("\", \"")),
        StringRule::Date => format!("{v} is not a YYYY-MM-DD calendar date"),
        StringRule::Timestamp { millis: true } => format!(
            "{v} is not an ISO 8601 UTC timestamp with milliseconds \
             (YYYY-MM-DDTHH:MM:SS.sssZ)"
        ),
        StringRule::Timestamp { millis: false } => {
            format!("{v} is not an ISO 8601 UTC timestamp (YYYY-MM-DDTHH:MM:SS[.fff]Z)")
        }
        StringRule::Lowercase => format!("{v} is not lower case"),
        StringRule::MonthName => format!("{v} is not an English full month name"),
        StringRule::NumberText => format!("{v} is not a number as text"),
    }
}

/// A value of the wrong type.
pub(crate) fn type_error(expected: &str, found: impl Display) -> String {
    format!("expected {expected}, found {found}")
}

/// A required field that is missing.
pub(crate) fn missing_field(name: &str) -> String {
    format!("required field {name:?} is missing")
}

/// A key the declaration does not name; `shown` is the quoted key.
pub(crate) fn unknown_field(shown: impl Display) -> String {
    format!("unknown field {shown} (not in the spec; ignored)")
}

/// An array of `count` elements where `min..=max` belong.
pub(crate) fn count(count: impl Display, min: usize, max: usize) -> String {
    let want = if min == max {
        format!("exactly {min}")
    } else if max == usize::MAX {
        format!("at least {min}")
    } else if min == 0 {
        format!("at most {max}")
    } else {
        format!("{min} to {max}")
    };
    format!("{count} entries; {want} expected")
}

/// Element `index` out of the order `what` after element `previous`.
pub(crate) fn order(index: impl Display, previous: impl Display, what: &str) -> String {
    format!("element {index} breaks the order after element {previous}: {what}")
}

/// A response value (`got`, quoted) that does not echo the request ([`Echo`]). Decided: one
/// short form for every kind: the code and the path (the field, the index) say which rule and
/// which request item it is, and each extra part costs the JS package's wasm.
pub(crate) fn echo(echo: &Echo, got: impl Display) -> String {
    format!("{got} is not what the request's {} asks for", echo.request)
}

/// `count` records where the request's list `list` has `want` items.
pub(crate) fn request_count(count: impl Display, want: impl Display, list: &str) -> String {
    format!("{count} records for {want} items of the request's {list} (one per item expected)")
}
