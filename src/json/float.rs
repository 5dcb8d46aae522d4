//! JSON number text as `f64`, shared by the number scanner (`number.rs`) and the tokens it
//! hands out (`token.rs`, [`super::Scalar::as_f64`]).

/// A JSON number's text as `f64`, by `serde_json`: the parser that decodes every JSON number
/// of a typed body, so the validator judges the value the decoder produces, and "beyond the
/// f64 range" is exactly `serde_json`'s error. `None` when the text is not a JSON number or is
/// out of range.
///
/// Decision: not `str::parse::<f64>`. Its correctly rounded parser and tables cost 13 KB of
/// the JS package's gzipped wasm (measured: 145.6 -> 132.3 KB without it); `serde_json`'s
/// is exact up to 15 significant digits and powers of ten up to 22, and may differ from it
/// in the last bit beyond that, which no range in the spec is sensitive to.
///
/// Through `serde_json::Number`'s `FromStr` (the same number parser as `from_str::<f64>`),
/// which, unlike a deserializer, reaches none of serde's `invalid type` messages and so
/// leaves core's float printing out of the JS package.
pub(crate) fn json_f64(text: &str) -> Option<f64> {
    text.parse::<serde_json::Number>().ok()?.as_f64()
}
