//! Lenient field decoders: the typed model accepts a value the spec types differently when
//! the meaning is unambiguous, while the validator reports the deviation.
//!
//! Policy (the one place it is decided):
//! - a missing field or `null` decodes to the type's default (`""`, `0`, `false`, `[]`);
//! - a string field accepts a number or boolean (its JSON text);
//! - an integer field accepts a float with no fraction and a string holding an integer;
//! - a number field accepts an integer and a string holding a number;
//! - a boolean field accepts the strings `"true"` / `"false"`;
//! - anything else (an object where a number belongs, `"abc"` for an integer) is a decode
//!   error naming the JSON path: guessing there would not be safe.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

struct StringV;
impl<'de> Visitor<'de> for StringV {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
}

/// A string; numbers and booleans as their text; `null` as `""`.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_any(StringV)
}

struct IntV;
impl<'de> Visitor<'de> for IntV {
    type Value = i64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        Ok(i64::try_from(v).unwrap_or(i64::MAX))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e18 {
            Ok(v as i64)
        } else {
            Err(E::custom(format_args!("{v} is not an integer")))
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
        let t = v.trim();
        if t.is_empty() {
            return Ok(0);
        }
        t.parse::<i64>()
            .or_else(|_| {
                t.parse::<f64>()
                    .map_err(|_| ())
                    .and_then(|f| self.visit_f64::<E>(f).map_err(|_| ()))
            })
            .map_err(|_| E::custom("a string that is not an integer"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<i64, E> {
        Ok(0)
    }
    fn visit_none<E: de::Error>(self) -> Result<i64, E> {
        Ok(0)
    }
}

/// An integer; also an integral float or a string holding an integer; `null` as 0.
pub fn int<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(IntV)
}

struct FloatV;
impl<'de> Visitor<'de> for FloatV {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        let t = v.trim();
        if t.is_empty() {
            return Ok(0.0);
        }
        match t.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(f),
            _ => Err(E::custom("a string that is not a number")),
        }
    }
    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(0.0)
    }
    fn visit_none<E: de::Error>(self) -> Result<f64, E> {
        Ok(0.0)
    }
}

/// A number; also a string holding a number; `null` as 0.
pub fn float<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(FloatV)
}

struct BoolV;
impl<'de> Visitor<'de> for BoolV {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a boolean")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        match v {
            "true" => Ok(true),
            "false" | "" => Ok(false),
            _ => Err(E::custom("a string that is not a boolean")),
        }
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// A boolean; also `"true"` / `"false"`; `null` as false.
pub fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    d.deserialize_any(BoolV)
}

/// A list; `null` as an empty list.
pub fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// A list of strings whose elements are decoded leniently ([`string`]); `null` as empty.
pub fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    struct S(#[serde(deserialize_with = "string")] String);
    Ok(list::<D, S>(d)?.into_iter().map(|s| s.0).collect())
}

/// An optional string (a field only some records carry); `null` as absent.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct OptV;
    impl<'de> Visitor<'de> for OptV {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            string(d).map(Some)
        }
    }
    d.deserialize_option(OptV)
}
