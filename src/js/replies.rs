//! What the package hands back: JSON text written here, turned into JS values by one
//! `JSON.parse` (faster than building them one by one from wasm). The text is made over
//! plain Rust types; the JS values in the wasm-only part at the end.

use crate::money::Usd;
use crate::ops::PriceUnit;

/// A value as JSON text (a string quoted and escaped, a unit as its name, a report).
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// The members `"usd":…,"micros":…,"display":"…"` of a money object, as JSON text. `usd` is
/// written from the exact decimal ([`Usd::decimal`]), so no float is formatted in wasm
/// (core's float printing costs about 20 KB of the package).
pub(crate) fn money_members(usd: Usd) -> String {
    format!(
        r#""usd":{},"micros":{},"display":"{}""#,
        usd.decimal(),
        usd.micros(),
        usd
    )
}

/// A money object `{ usd, micros, display }` as JSON text.
pub(crate) fn money_text(usd: Usd) -> String {
    format!("{{{}}}", money_members(usd))
}

/// `estimateCost`'s answer `{ usd, micros, display, units, unit }` as JSON text.
pub(crate) fn estimate_text(usd: Usd, units: u64, unit: PriceUnit) -> String {
    format!(
        r#"{{{},"units":{},"unit":{}}}"#,
        money_members(usd),
        units,
        to_json(&unit)
    )
}

#[cfg(target_arch = "wasm32")]
pub(crate) use wasm::{json_value, money, report_value, set};

/// JS values from the JSON text (wasm only).
#[cfg(target_arch = "wasm32")]
mod wasm {
    use js_sys::{Object, Reflect, JSON};
    use wasm_bindgen::JsValue;

    use super::{money_text, to_json};
    use crate::money::Usd;
    use crate::validate::Report;

    /// Sets the property `key` of `object`.
    pub(crate) fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
        let _ = Reflect::set(object, &JsValue::from_str(key), &value.into());
    }

    /// The JS value of JSON text (`null` if it does not parse, which the text written here
    /// always does).
    pub(crate) fn json_value(text: &str) -> JsValue {
        JSON::parse(text).unwrap_or(JsValue::NULL)
    }

    /// A money object `{ usd, micros, display }`.
    pub(crate) fn money(usd: Usd) -> JsValue {
        json_value(&money_text(usd))
    }

    /// A validation report `{ ok, errors, warnings, ... }`.
    pub(crate) fn report_value(report: &Report) -> JsValue {
        json_value(&to_json(report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_exact_decimal_text() {
        assert_eq!(
            money_text(Usd::from_micros(1_500)),
            r#"{"usd":0.0015,"micros":1500,"display":"$0.0015"}"#
        );
        let estimate = estimate_text(Usd::from_micros(600), 2, PriceUnit::PerKeyword);
        let value: serde_json::Value = serde_json::from_str(&estimate).unwrap();
        assert_eq!(value["units"], 2);
        assert_eq!(value["micros"], 600);
        assert_eq!(
            value["unit"],
            to_json(&PriceUnit::PerKeyword).trim_matches('"')
        );
    }
}
