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
//!   error naming the JSON path: guessing there would not be safe;
//! - a record (a struct) must be a JSON object. serde's derives also accept an array of the
//!   fields in declaration order; that is refused ([`from_str`], and the records of
//!   [`list`]): `["trail shoes", 0.5]` is not a record, and reading it by position would
//!   put values in the wrong fields.

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
pub fn string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    deserializer.deserialize_any(StringV)
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
            .ok()
            .or_else(|| number_in(t).and_then(|f| self.visit_f64::<E>(f).ok()))
            .ok_or_else(|| E::custom("a string that is not an integer"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<i64, E> {
        Ok(0)
    }
    fn visit_none<E: de::Error>(self) -> Result<i64, E> {
        Ok(0)
    }
}

/// An integer; also an integral float or a string holding an integer; `null` as 0.
pub fn int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    deserializer.deserialize_any(IntV)
}

/// A number written in a string (`"1.5"`, `"-2"`, `"+.5"`, `"1e3"`) as `f64`, through the
/// parser of JSON numbers ([`crate::json::json_f64`]), so a number in a string
/// decodes to the same value as the number itself. Accepts the finite numbers
/// `str::parse::<f64>` accepts (a `+` sign, no digit on one side of the point, leading
/// zeros) by rewriting them in JSON's grammar; `None` for anything else.
fn number_in(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut json = String::with_capacity(t.len() + 2);
    let mut i = match b.first() {
        Some(b'-') => {
            json.push('-');
            1
        }
        Some(b'+') => 1,
        _ => 0,
    };
    // Every index below is just past an ASCII byte, so every slice is on char boundaries.
    let int_end = digits(i);
    let int = t.get(i..int_end)?;
    i = int_end;
    let mut frac = "";
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        frac = t.get(i + 1..end)?;
        i = end;
    }
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let int = int.trim_start_matches('0');
    json.push_str(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        json.push('e');
        if let Some(&sign @ (b'+' | b'-')) = b.get(i) {
            json.push(char::from(sign));
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return None;
        }
        json.push_str(t.get(i..end)?);
        i = end;
    }
    if i != b.len() {
        return None;
    }
    crate::json::json_f64(&json)
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
        match number_in(t) {
            Some(f) if f.is_finite() => Ok(f),
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
pub fn float<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    deserializer.deserialize_any(FloatV)
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
pub fn boolean<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    deserializer.deserialize_any(BoolV)
}

/// A list; `null` as an empty list. Records in it must be objects ([`Objects`]).
pub fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(Objects(deserializer))?.unwrap_or_default())
}

/// Decodes `text` as `serde_json::from_str` does, except that every struct, however deep,
/// must be a JSON object: an array in its place is an `invalid type: sequence, expected
/// struct ...` error at the array's position (so the path names it).
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Objects(&mut de))?;
    de.end()?;
    Ok(value)
}

/// A deserializer that reads structs (and maps) only from objects, and passes itself on to
/// every nested value (map values, sequence elements, `Some` contents). Everything else is
/// the inner deserializer's.
pub struct Objects<D>(pub D);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value, D::Error> {
                self.0.$method($($arg,)* v)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Objects<D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(v))
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(v))
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_seq(Wrap(v))
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_option(Wrap(v))
    }

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_unit();
        deserialize_identifier();
        deserialize_ignored_any();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }
}

/// A visitor, seed or access whose nested values are read through [`Objects`]. As a
/// visitor it takes only maps, sequences and options (what it is asked for with); anything
/// else is the usual `invalid type` error.
struct Wrap<T>(T);

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrap(seq))
    }
    fn visit_some<E: Deserializer<'de>>(self, d: E) -> Result<V::Value, E::Error> {
        self.0.visit_some(Objects(d))
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }
    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(Wrap(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn next_element_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_element_seed(Wrap(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, S: de::DeserializeSeed<'de>> de::DeserializeSeed<'de> for Wrap<S> {
    type Value = S::Value;
    fn deserialize<E: Deserializer<'de>>(self, d: E) -> Result<S::Value, E::Error> {
        self.0.deserialize(Objects(d))
    }
}

/// A list of strings whose elements are decoded leniently ([`string`]); `null` as empty.
pub fn strings<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    struct S(#[serde(deserialize_with = "string")] String);
    Ok(list::<D, S>(deserializer)?
        .into_iter()
        .map(|s| s.0)
        .collect())
}

/// An optional string (a field only some records carry); `null` as absent.
pub fn opt_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
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
        fn visit_some<D: Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<Self::Value, D::Error> {
            string(deserializer).map(Some)
        }
    }
    deserializer.deserialize_option(OptV)
}

/// A response field's type: how it decodes (the policy above), whether it is left out when
/// written, and which rule shape it can hold. Implemented for the field types of the records
/// `ops::record!` declares (which also implements it for each record, its lists and options),
/// so a record's field list names each field's type once and the decoder follows from it.
pub trait Lenient: Sized {
    /// The shape of value it holds: a declaration whose rule node is of another shape does not
    /// compile (`ops::record!` asserts [`Shape::fits`]).
    const SHAPE: Shape;
    /// An `Option` (an optional field, `opt` in the declaration).
    const OPTIONAL: bool = false;
    /// Decodes leniently.
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
    /// True when the field is left out when written (an absent optional field).
    #[inline(always)]
    fn absent(&self) -> bool {
        false
    }
}

/// What a [`Lenient`] type holds, as the rule language's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A string (`Kind::Str`).
    Str,
    /// An integer (`Kind::Int`).
    Int,
    /// A number (`Kind::Num`).
    Num,
    /// A boolean (`Kind::Bool`).
    Bool,
    /// A list (`Kind::Array`).
    List,
    /// A record (`Kind::Object`).
    Record,
}

impl Shape {
    /// True when a value of this shape can hold what `node` declares.
    pub const fn fits(self, node: &crate::rules::Node) -> bool {
        use crate::rules::Kind;
        matches!(
            (self, node.kind),
            (Shape::Str, Kind::Str(_))
                | (Shape::Int, Kind::Int(_))
                | (Shape::Num, Kind::Num(_))
                | (Shape::Bool, Kind::Bool)
                | (Shape::List, Kind::Array(_))
                | (Shape::Record, Kind::Object(_))
        )
    }
}

macro_rules! lenient {
    ($($ty:ty => $shape:ident, $read:path;)*) => {
        $(
            impl Lenient for $ty {
                const SHAPE: Shape = Shape::$shape;
                #[inline(always)]
                fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    $read(deserializer)
                }
            }
        )*
    };
}

lenient! {
    String => Str, string;
    i64 => Int, int;
    f64 => Num, float;
    bool => Bool, boolean;
    Vec<String> => List, strings;
    Vec<serde_json::Value> => List, list;
}

impl Lenient for Option<String> {
    const SHAPE: Shape = Shape::Str;
    const OPTIONAL: bool = true;
    #[inline(always)]
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        opt_string(deserializer)
    }
    #[inline(always)]
    fn absent(&self) -> bool {
        self.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::{from_str, number_in};
    use crate::json;
    use crate::ops::{outline_seo, related, search_volume_single, video_video};

    /// The path and message of a decode error, as the decoder (`decode`) derives them.
    fn refused<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> (String, String) {
        let e = from_str::<T>(text).unwrap_err();
        let msg = e.to_string();
        let at = json::offset_of(text, e.line(), e.column(), &msg);
        (json::pointer_at(text, at), msg)
    }

    #[test]
    fn an_array_is_not_a_record() {
        // Top level, a record in a list, a nested record, a record in a record's list.
        let (path, msg) = refused::<related::Response>(r#"[["trail shoes",0.5,1.2,100,10]]"#);
        assert_eq!(path, "/0");
        assert!(
            msg.contains("invalid type: sequence, expected struct RelatedKeyword"),
            "{msg}"
        );
        let (path, _) = refused::<search_volume_single::Response>(r#"["kw","us"]"#);
        assert_eq!(path, "");
        let ok = r#"{"url":"u","title":"t","description":"d","image":"i","views":"1",
            "posted_on":"p","channel":{"name":"n"},"hashtags":[]}"#;
        from_str::<video_video::Response>(&format!("[{ok}]")).unwrap();
        let (path, msg) = refused::<video_video::Response>(&format!(
            "[{ok},{}]",
            ok.replace(r#"{"name":"n"}"#, r#"["n"]"#)
        ));
        assert!(path.ends_with("/channel"), "{path}");
        assert!(msg.contains("expected struct"), "{msg}");
        let (path, _) = refused::<outline_seo::Response>(
            r#"[{"url":"u","title":"t","rank":1,"headings":[{"tag":"h1","text":"x"},["h2","y"]]}]"#,
        );
        assert_eq!(path, "/0/headings/1");
        // (`decode` refuses records in a `list` field too: tested there.)
        // Objects, nulls for records and lists, and lists of strings still decode.
        let v: related::Response = from_str(r#"[{"keyword":"a","kd":"5"}]"#).unwrap();
        assert_eq!((v[0].keyword.as_str(), v[0].kd), ("a", 5));
        let v: video_video::Response = from_str(&format!(
            "[{}]",
            ok.replace(r#""hashtags":[]"#, r#""hashtags":null"#)
        ))
        .unwrap();
        assert!(v[0].hashtags.is_empty());
    }

    #[test]
    fn numbers_in_strings_read_as_str_parse_did() {
        for s in [
            "1.5",
            "-2",
            "+.5",
            "1.",
            "007.25",
            "1e3",
            "1E-2",
            "-0",
            "0",
            "+0.0",
            ".",
            "+",
            "-",
            "e5",
            "1e",
            "1e+",
            "1.5x",
            "inf",
            "NaN",
            "infinity",
            "-inf",
            "1_0",
            " 1",
            "١",
            "1e400",
            "-.5e-3",
            "0.1",
            "123456789012345",
            "--1",
            "+-1",
            "1..2",
            "1e5.5",
            "é",
            "9007199254740993",
            "",
        ] {
            let core = s.parse::<f64>().ok().filter(|f| f.is_finite());
            assert_eq!(number_in(s), core, "{s:?}");
        }
    }
}
