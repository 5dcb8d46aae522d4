//! Request bodies from JSON text ([`Request::from_json`](super::Request::from_json)): one
//! table-driven visitor for all 11 request structs instead of 11 monomorphized `Deserialize`
//! derives (26 KB of the JS package's wasm, 2.3 KB gzipped). It makes the calls the derives
//! make, in the same order, so results, errors, messages and positions are the derives' own;
//! the derives stay for Rust users (`OperationRequest: DeserializeOwned`), and a test
//! compares the two on many bodies (`tests` below).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Operation, Request};

/// A request field's type: `String` (the key too: `ApiKey` is a transparent `String`) or
/// `Vec<String>`.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    List,
}

enum Value {
    Str(String),
    List(Vec<String>),
}

/// One request struct: its field names in declaration order (the first is always `key`,
/// `#[serde(default)]`; every other field is required) and their types.
struct Shape {
    fields: &'static [&'static str],
    kinds: &'static [Kind],
}

use Kind::{List, Str};

impl Shape {
    fn of(operation: Operation) -> Shape {
        use Operation::*;
        let (fields, kinds): (&'static [&'static str], &'static [Kind]) = match operation {
            SearchVolumeBulk => (&["key", "keywords", "ccode"], &[Str, List, Str]),
            SearchVolumeSingle | Related => (&["key", "keyword", "ccode"], &[Str, Str, Str]),
            DomainStats => (&["key", "domains"], &[Str, List]),
            BacklinkMetrics => (&["key", "urls"], &[Str, List]),
            RankedKeywordsMetrics | RankedKeywordsDomain | BacklinkOverview => {
                (&["key", "domain"], &[Str, Str])
            }
            OutlineSeo | MicroblogPost | VideoVideo => (&["key", "keyword"], &[Str, Str]),
        };
        Shape { fields, kinds }
    }

    /// What the derive's `visit_seq` names in `invalid_length`.
    fn with_elements(&self) -> &'static str {
        if self.fields.len() == 2 {
            "struct Request with 2 elements"
        } else {
            "struct Request with 3 elements"
        }
    }
}

/// Parses a request of `operation` (errors as `serde_json::from_str` of its struct gives them).
pub(super) fn request(operation: Operation, text: &str) -> Result<Request, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let values = Shape::of(operation).deserialize(&mut de)?;
    de.end()?;
    let mut values = values.into_iter();
    let key = ApiKey(str_of(values.next()));
    use super::*;
    Ok(match operation {
        Operation::SearchVolumeBulk => {
            let keywords = list(values.next());
            Request::SearchVolumeBulk(search_volume_bulk::Request {
                key,
                keywords,
                ccode: str_of(values.next()),
            })
        }
        Operation::SearchVolumeSingle => {
            Request::SearchVolumeSingle(search_volume_single::Request {
                key,
                keyword: str_of(values.next()),
                ccode: str_of(values.next()),
            })
        }
        Operation::Related => Request::Related(related::Request {
            key,
            keyword: str_of(values.next()),
            ccode: str_of(values.next()),
        }),
        Operation::DomainStats => Request::DomainStats(domainstats::Request {
            key,
            domains: list(values.next()),
        }),
        Operation::BacklinkMetrics => Request::BacklinkMetrics(backlink_metrics::Request {
            key,
            urls: list(values.next()),
        }),
        Operation::RankedKeywordsMetrics => {
            Request::RankedKeywordsMetrics(ranked_keywords_metrics::Request {
                key,
                domain: str_of(values.next()),
            })
        }
        Operation::RankedKeywordsDomain => {
            Request::RankedKeywordsDomain(ranked_keywords_domain::Request {
                key,
                domain: str_of(values.next()),
            })
        }
        Operation::BacklinkOverview => Request::BacklinkOverview(backlink_overview::Request {
            key,
            domain: str_of(values.next()),
        }),
        Operation::OutlineSeo => Request::OutlineSeo(outline_seo::Request {
            key,
            keyword: str_of(values.next()),
        }),
        Operation::MicroblogPost => Request::MicroblogPost(microblog_post::Request {
            key,
            keyword: str_of(values.next()),
        }),
        Operation::VideoVideo => Request::VideoVideo(video_video::Request {
            key,
            keyword: str_of(values.next()),
        }),
    })
}

fn str_of(v: Option<Value>) -> String {
    match v {
        Some(Value::Str(s)) => s,
        _ => String::new(),
    }
}

fn list(v: Option<Value>) -> Vec<String> {
    match v {
        Some(Value::List(l)) => l,
        _ => Vec::new(),
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
                &if self.0.len() == 2 {
                    "field index 0 <= i < 2"
                } else {
                    "field index 0 <= i < 3"
                },
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
                None => return Err(de::Error::invalid_length(i, &self.with_elements())),
            }
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<Value>, A::Error> {
        let mut slots: [Option<Value>; 3] = [None, None, None];
        while let Some(i) = map.next_key_seed(FieldName(self.fields))? {
            // `FieldName` gives an index of `fields`, which has at most 3.
            let (Some(slot), Some(kind)) = (slots.get_mut(i), self.kinds.get(i)) else {
                continue;
            };
            if slot.is_some() {
                return Err(de::Error::duplicate_field(self.fields[i]));
            }
            *slot = Some(map.next_value_seed(FieldValue(*kind))?);
        }
        let mut out = Vec::with_capacity(self.fields.len());
        for (i, slot) in slots.into_iter().take(self.fields.len()).enumerate() {
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

    /// The derive's answer for `text`, in the shape `from_json` gives.
    fn derived<T: DeserializeOwned + Into<Request>>(text: &str) -> Result<Request, String> {
        serde_json::from_str::<T>(text)
            .map(Into::into)
            .map_err(|e| format!("{e} / {:?}", e.classify()))
    }

    fn by_derive(op: Operation, text: &str) -> Result<Request, String> {
        use Operation::*;
        match op {
            SearchVolumeBulk => derived::<search_volume_bulk::Request>(text),
            SearchVolumeSingle => derived::<search_volume_single::Request>(text),
            DomainStats => derived::<domainstats::Request>(text),
            BacklinkMetrics => derived::<backlink_metrics::Request>(text),
            RankedKeywordsMetrics => derived::<ranked_keywords_metrics::Request>(text),
            RankedKeywordsDomain => derived::<ranked_keywords_domain::Request>(text),
            BacklinkOverview => derived::<backlink_overview::Request>(text),
            OutlineSeo => derived::<outline_seo::Request>(text),
            MicroblogPost => derived::<microblog_post::Request>(text),
            VideoVideo => derived::<video_video::Request>(text),
            Related => derived::<related::Request>(text),
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
                let ours =
                    super::request(op, text).map_err(|e| format!("{e} / {:?}", e.classify()));
                assert_eq!(ours, by_derive(op, text), "{op} {text:?}");
                ok += usize::from(ours.is_ok());
            }
        }
        assert!(ok > 100, "too few valid bodies: {ok}");
    }
}
