//! Request bodies from JSON text ([`Request::from_json`](super::Request::from_json)): one
//! table-driven visitor for all 11 request structs instead of 11 monomorphized `Deserialize`
//! derives (26 KB of the JS package's wasm, 2.3 KB gzipped). Each struct's table
//! ([`FromFields`]) comes from its declaration (`ops::request!`). The visitor makes the calls
//! the derives make, in the same order, so results, errors, messages and positions are the
//! derives' own; the derives stay for Rust users (`OperationRequest: DeserializeOwned`), and a
//! test compares the two on many bodies (`tests` below).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Expected, MapAccess, SeqAccess, Visitor};

use super::ApiKey;

/// A request field's type.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// `String` (the key too: `ApiKey` is a transparent `String`).
    Str,
    /// `Vec<String>`.
    List,
}

/// A parsed field value.
pub(crate) enum Value {
    Str(String),
    List(Vec<String>),
}

/// A type a request field may have.
pub(crate) trait Field: Sized {
    const KIND: Kind;
    fn from_value(v: Option<Value>) -> Self;
}

impl Field for String {
    const KIND: Kind = Kind::Str;
    fn from_value(v: Option<Value>) -> Self {
        match v {
            Some(Value::Str(s)) => s,
            _ => String::new(),
        }
    }
}

impl Field for ApiKey {
    const KIND: Kind = Kind::Str;
    fn from_value(v: Option<Value>) -> Self {
        ApiKey(String::from_value(v))
    }
}

impl Field for Vec<String> {
    const KIND: Kind = Kind::List;
    fn from_value(v: Option<Value>) -> Self {
        match v {
            Some(Value::List(l)) => l,
            _ => Vec::new(),
        }
    }
}

/// The values of a parsed request, taken in field order.
pub(crate) struct Values(std::vec::IntoIter<Value>);

impl Values {
    /// The next field's value.
    pub(crate) fn take<T: Field>(&mut self) -> T {
        T::from_value(self.0.next())
    }
}

/// A request struct the visitor builds: its field names and types in declaration order (the
/// first is `key`, `#[serde(default)]`; every other field is required).
pub(crate) trait FromFields: Sized {
    const NAMES: &'static [&'static str];
    const KINDS: &'static [Kind];
    fn from_values(values: &mut Values) -> Self;
}

/// Parses a request `T` (errors as `serde_json::from_str::<T>` gives them).
pub(super) fn request<T: FromFields>(text: &str) -> Result<T, serde_json::Error> {
    let shape = Shape {
        fields: T::NAMES,
        kinds: T::KINDS,
    };
    let values = shape.parse(text)?;
    Ok(T::from_values(&mut Values(values.into_iter())))
}

/// One request struct's fields (names and types, in the same order).
struct Shape {
    fields: &'static [&'static str],
    kinds: &'static [Kind],
}

impl Shape {
    /// The field values of `text` (the part not specific to one struct).
    fn parse(self, text: &str) -> Result<Vec<Value>, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let values = self.deserialize(&mut de)?;
        de.end()?;
        Ok(values)
    }
}

/// What the derive's `visit_seq` names in `invalid_length`: `struct Request with N elements`.
struct Elements(usize);

impl Expected for Elements {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct Request with {} elements", self.0)
    }
}

/// What the derive's field visitor names for an out-of-range index: `field index 0 <= i < N`.
struct FieldIndex(usize);

impl Expected for FieldIndex {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "field index 0 <= i < {}", self.0)
    }
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Vec<Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Value>, D::Error> {
        let fields = self.fields;
        d.deserialize_struct("Request", fields, self)
    }
}

/// The value of one field, by its type.
struct FieldValue(Kind);

impl<'de> DeserializeSeed<'de> for FieldValue {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        use serde::Deserialize;
        Ok(match self.0 {
            Kind::Str => Value::Str(String::deserialize(d)?),
            Kind::List => Value::List(Vec::<String>::deserialize(d)?),
        })
    }
}

/// A field name: its index in the shape.
struct FieldName(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldName {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldName {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<usize, E> {
        match usize::try_from(v) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(
                de::Unexpected::Unsigned(v),
                &FieldIndex(self.0.len()),
            )),
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        match self.0.iter().position(|f| *f == v) {
            Some(i) => Ok(i),
            None => Err(E::unknown_field(v, self.0)),
        }
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<usize, E> {
        match self.0.iter().position(|f| f.as_bytes() == v) {
            Some(i) => Ok(i),
            None => Err(E::unknown_field(&String::from_utf8_lossy(v), self.0)),
        }
    }
}

impl<'de> Visitor<'de> for Shape {
    type Value = Vec<Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct Request")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Value>, A::Error> {
        let mut out = Vec::with_capacity(self.fields.len());
        for (i, kind) in self.kinds.iter().enumerate() {
            match seq.next_element_seed(FieldValue(*kind))? {
                Some(v) => out.push(v),
                // `key` has a default.
                None if i == 0 => out.push(Value::Str(String::new())),
                None => return Err(de::Error::invalid_length(i, &Elements(self.fields.len()))),
            }
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<Value>, A::Error> {
        let mut slots: Vec<Option<Value>> = self.fields.iter().map(|_| None).collect();
        while let Some(i) = map.next_key_seed(FieldName(self.fields))? {
            // `FieldName` gives an index of `fields`, which `slots` and `kinds` match.
            let (Some(slot), Some(kind)) = (slots.get_mut(i), self.kinds.get(i)) else {
                continue;
            };
            if slot.is_some() {
                return Err(de::Error::duplicate_field(self.fields[i]));
            }
            *slot = Some(map.next_value_seed(FieldValue(*kind))?);
        }
        let mut out = Vec::with_capacity(self.fields.len());
        for (i, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(v) => out.push(v),
                None if i == 0 => out.push(Value::Str(String::new())),
                None => return Err(de::Error::missing_field(self.fields[i])),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use serde::de::DeserializeOwned;

    /// The table-driven parser's answer for `text` and the derive's, as results or
    /// "message / category".
    fn both<T>(text: &str) -> [Result<Request, String>; 2]
    where
        T: DeserializeOwned + super::FromFields + Into<Request>,
    {
        let show = |e: serde_json::Error| format!("{e} / {:?}", e.classify());
        [
            super::request::<T>(text).map(Into::into).map_err(show),
            serde_json::from_str::<T>(text)
                .map(Into::into)
                .map_err(show),
        ]
    }

    fn answers(op: Operation, text: &str) -> [Result<Request, String>; 2] {
        use Operation::*;
        match op {
            SearchVolumeBulk => both::<search_volume_bulk::Request>(text),
            SearchVolumeSingle => both::<search_volume_single::Request>(text),
            DomainStats => both::<domainstats::Request>(text),
            BacklinkMetrics => both::<backlink_metrics::Request>(text),
            RankedKeywordsMetrics => both::<ranked_keywords_metrics::Request>(text),
            RankedKeywordsDomain => both::<ranked_keywords_domain::Request>(text),
            BacklinkOverview => both::<backlink_overview::Request>(text),
            OutlineSeo => both::<outline_seo::Request>(text),
            MicroblogPost => both::<microblog_post::Request>(text),
            VideoVideo => both::<video_video::Request>(text),
            Related => both::<related::Request>(text),
        }
    }

    /// Bodies of every shape: objects and arrays of every field name (and unknown ones) with
    /// values of every type, duplicates, escapes, truncations, other JSON values.
    fn bodies() -> Vec<String> {
        let keys = [
            "key",
            "keyword",
            "keywords",
            "ccode",
            "domain",
            "domains",
            "urls",
            "z",
            "k\\u0065y",
            "",
        ];
        let values = [
            "\"x\"",
            "\"\\u00e9\\n\"",
            "[\"a\",\"b\"]",
            "[]",
            "1",
            "-2",
            "1.5",
            "1e400",
            "null",
            "true",
            "{}",
            "[1]",
            "[\"a\",2]",
            "[[]]",
            "\"",
            "18446744073709551616",
        ];
        let mut out: Vec<String> = [
            "",
            " ",
            "1",
            "\"s\"",
            "null",
            "true",
            "[",
            "{",
            "{\"key\":",
            "{\"key\":\"a\",}",
            "{} x",
            "[] x",
            "{}",
            "[]",
            "{\"key\":\"a\"}}",
            "[\"a\",[\"b\"],\"US\",4]",
            "[\"a\",\"b\",\"c\",]",
            "{\"key\" \"a\"}",
            "{1:2}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..4000 {
            let members = next(5);
            let text = if next(4) == 0 {
                let items: Vec<&str> = (0..members).map(|_| values[next(values.len())]).collect();
                format!("[{}]", items.join(","))
            } else {
                let items: Vec<String> = (0..members)
                    .map(|_| {
                        format!(
                            "\"{}\":{}",
                            keys[next(keys.len())],
                            values[next(values.len())]
                        )
                    })
                    .collect();
                format!("{{{}}}", items.join(","))
            };
            // Sometimes cut short or followed by more text.
            let text = match next(8) {
                0 => text[..next(text.len() + 1)].to_string(),
                1 => format!("{text} ,"),
                _ => text,
            };
            out.push(text);
        }
        // Well-formed requests of every operation.
        out.push(r#"{"key":"k","keywords":["a","b"],"ccode":"US"}"#.into());
        out.push(r#"{"keyword":"a","ccode":"US"}"#.into());
        out.push(r#"{"domains":["a.com"]}"#.into());
        out.push(r#"{"key":"k","urls":["https://a.com/"]}"#.into());
        out.push(r#"{"domain":"a.com"}"#.into());
        out.push(r#"{"keyword":"a"}"#.into());
        out
    }

    #[test]
    fn same_as_the_derives() {
        let bodies = bodies();
        let mut ok = 0;
        for op in Operation::ALL {
            for text in &bodies {
                let [ours, derived] = answers(op, text);
                assert_eq!(ours, derived, "{op} {text:?}");
                ok += usize::from(ours.is_ok());
            }
        }
        assert!(ok > 100, "too few valid bodies: {ok}");
    }
}
