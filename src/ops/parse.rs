//! Request bodies from JSON text ([`Request::from_json`](super::Request::from_json)): one
//! table-driven parser for all 11 request structs, on the validator's JSON scanner. Each
//! struct's table ([`FromFields`]) comes from its declaration (`ops::request!`).
//!
//! It accepts exactly what the structs' serde derives accept (a test compares the two on
//! many bodies): an object with each required field once, `key` optional, no other field; or
//! an array of all fields in declaration order; strings where a `String` is declared, arrays
//! of strings where a `Vec<String>` is. The derives stay for Rust users
//! (`OperationRequest: DeserializeOwned`).
//!
//! Decision: not `serde_json` with the derives or a serde visitor. Either brings serde's
//! `invalid type` messages, whose float printing (core's Grisu and Dragon with their tables)
//! and the deserializer cost about 15 KB of the JS package's gzipped wasm. The messages are
//! serde's in form (`missing field \`keywords\``, `unknown field \`z\`, expected one of ...`,
//! `invalid type: integer, expected a string`, then `at line L column C`), and every error
//! carries the JSON Pointer of the value it is about.

use crate::json::{line_col, push_token, Scalar, Scanner, Start, SyntaxError};

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

/// A request struct the parser builds: its field names and types in declaration order (the
/// first is `key`, `#[serde(default)]`; every other field is required).
pub(crate) trait FromFields: Sized {
    const NAMES: &'static [&'static str];
    const KINDS: &'static [Kind];
    fn from_values(values: &mut Values) -> Self;
}

/// A request struct's TypeScript interface (written by `request!`, read by
/// `ops::typescript`). Native only.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) trait RequestType {
    /// The interface's name (operations whose requests have the same fields share one).
    const NAME: &'static str;
    /// Each field's doc, `key` first, in the order of [`FromFields::NAMES`].
    const DOCS: &'static [&'static str];
}

/// Why a body is not a request: the message and the JSON Pointer of the value it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Malformed {
    /// JSON Pointer (`""`: the whole body; `/keywords` also for a missing field, in the
    /// object and the array form).
    pub field: String,
    /// What is wrong, and where (`at line L column C`).
    pub message: String,
}

/// Parses a request `T`.
pub(super) fn request<T: FromFields>(text: &str) -> Result<T, Malformed> {
    let values = Parser::new(text).request(T::NAMES, T::KINDS)?;
    Ok(T::from_values(&mut Values(values.into_iter())))
}

/// The JSON Pointer of a top-level field.
fn pointer(name: &str) -> String {
    let mut out = String::new();
    push_token(&mut out, name);
    out
}

struct Parser<'a> {
    text: &'a str,
    sc: Scanner<'a>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            sc: Scanner::new(text),
        }
    }

    /// An error about the value at `offset`, whose pointer is `field`.
    fn error(&self, field: String, offset: usize, message: &str) -> Malformed {
        let (line, column) = line_col(self.text, offset);
        Malformed {
            field,
            message: format!("{message} at line {line} column {column}"),
        }
    }

    fn syntax(&self, field: &str, e: SyntaxError) -> Malformed {
        self.error(field.to_owned(), e.offset, e.message)
    }

    /// The next value's start; a syntax error is about `field`.
    fn start(&mut self, field: &str) -> Result<Start, Malformed> {
        self.sc.start().map_err(|e| self.syntax(field, e))
    }

    /// A value of another type than `expected`, at the scanner's position (not consumed).
    fn wrong_type(&mut self, field: &str, start: Start, expected: &str) -> Malformed {
        let at = self.sc.pos;
        let found = match start {
            Start::Object => "map",
            Start::Array => "sequence",
            Start::Scalar => match self.sc.scalar() {
                Ok(v) => type_of(&v),
                Err(e) => return self.syntax(field, e),
            },
        };
        self.error(
            field.to_owned(),
            at,
            &format!("invalid type: {found}, expected {expected}"),
        )
    }

    fn request(
        mut self,
        names: &'static [&'static str],
        kinds: &'static [Kind],
    ) -> Result<Vec<Value>, Malformed> {
        let values = match self.start("")? {
            Start::Object => self.object(names, kinds)?,
            Start::Array => self.array(names, kinds)?,
            start @ Start::Scalar => return Err(self.wrong_type("", start, "struct Request")),
        };
        self.sc.end().map_err(|e| self.syntax("", e))?;
        Ok(values)
    }

    /// `{ "name": value, ... }`: each field at most once, every one but `key` required.
    fn object(
        &mut self,
        names: &'static [&'static str],
        kinds: &'static [Kind],
    ) -> Result<Vec<Value>, Malformed> {
        self.sc.obj_begin().map_err(|e| self.syntax("", e))?;
        let mut slots: Vec<Option<Value>> = names.iter().map(|_| None).collect();
        let mut first = true;
        loop {
            let key = self.sc.obj_key(first).map_err(|e| self.syntax("", e))?;
            first = false;
            let Some(key) = key else { break };
            // The key's opening quote (its raw text is a slice of `text`).
            let at = (key.raw().as_ptr() as usize - self.text.as_ptr() as usize).saturating_sub(1);
            let name = key.text();
            let field = pointer(&name);
            let Some(i) = names.iter().position(|n| *n == name) else {
                let known: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                let message = format!(
                    "unknown field `{}`, expected one of {}",
                    name.chars().take(60).collect::<String>(),
                    known.join(", ")
                );
                return Err(self.error(field, at, &message));
            };
            if slots[i].is_some() {
                let message = format!("duplicate field `{}`", names[i]);
                return Err(self.error(field, at, &message));
            }
            slots[i] = Some(self.value(&field, kinds[i])?);
        }
        let end = self.sc.pos.saturating_sub(1);
        slots
            .into_iter()
            .enumerate()
            .map(|(i, slot)| match slot {
                Some(v) => Ok(v),
                None if i == 0 => Ok(Value::Str(String::new())),
                None => Err(self.error(
                    pointer(names[i]),
                    end,
                    &format!("missing field `{}`", names[i]),
                )),
            })
            .collect()
    }

    /// `[key, field, ...]`: every field, in declaration order. A value's pointer is its index
    /// (`/1`); a missing one's is its field's name (`/ccode`), as in the object form: that
    /// names the field to fill in.
    fn array(
        &mut self,
        names: &'static [&'static str],
        kinds: &'static [Kind],
    ) -> Result<Vec<Value>, Malformed> {
        self.sc.arr_begin().map_err(|e| self.syntax("", e))?;
        let mut out = Vec::with_capacity(kinds.len());
        for (i, kind) in kinds.iter().enumerate() {
            let at = self.sc.pos;
            if !self.sc.arr_next(i == 0).map_err(|e| self.syntax("", e))? {
                let message = format!(
                    "invalid length {i}, expected struct Request with {} elements",
                    kinds.len()
                );
                let missing = names.get(i).map_or_else(String::new, |n| pointer(n));
                return Err(self.error(missing, at, &message));
            }
            out.push(self.value(&format!("/{i}"), *kind)?);
        }
        let at = self.sc.pos;
        if self.sc.arr_next(false).map_err(|e| self.syntax("", e))? {
            return Err(self.error(String::new(), at, "trailing characters"));
        }
        Ok(out)
    }

    /// A field's value: a string, or an array of strings.
    fn value(&mut self, field: &str, kind: Kind) -> Result<Value, Malformed> {
        match (kind, self.start(field)?) {
            (Kind::Str, Start::Scalar) => self.string(field).map(Value::Str),
            (Kind::List, Start::Array) => {
                self.sc.arr_begin().map_err(|e| self.syntax(field, e))?;
                let mut items = Vec::new();
                let mut first = true;
                while self.sc.arr_next(first).map_err(|e| self.syntax(field, e))? {
                    first = false;
                    let item = format!("{field}/{}", items.len());
                    self.start(&item)?;
                    items.push(self.string(&item)?);
                }
                Ok(Value::List(items))
            }
            (Kind::Str, start) => Err(self.wrong_type(field, start, "a string")),
            (Kind::List, start) => Err(self.wrong_type(field, start, "a sequence")),
        }
    }

    /// A string (after [`Self::start`]).
    fn string(&mut self, field: &str) -> Result<String, Malformed> {
        let at = self.sc.pos;
        match self.sc.scalar() {
            Ok(Scalar::Str(s)) => Ok(s.text().into_owned()),
            Ok(v) => Err(self.error(
                field.to_owned(),
                at,
                &format!("invalid type: {}, expected a string", type_of(&v)),
            )),
            Err(e) => Err(self.syntax(field, e)),
        }
    }
}

/// A scalar's type as serde names it in `invalid type` messages.
fn type_of(v: &Scalar<'_>) -> &'static str {
    match v {
        Scalar::Null | Scalar::Absent => "null",
        Scalar::Bool(_) => "boolean",
        Scalar::Int(_) | Scalar::BigInt(_) => "integer",
        Scalar::Float(_) => "floating point",
        Scalar::Str(_) => "string",
        Scalar::Array => "sequence",
        Scalar::Object => "map",
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use serde::de::DeserializeOwned;

    /// The table-driven parser's answer for `text` and the derive's: the request, or (for
    /// the derive) just that it failed, and (for ours) that the error is well formed.
    fn both<T>(text: &str) -> [Result<Request, String>; 2]
    where
        T: DeserializeOwned + super::FromFields + Into<Request>,
    {
        let ours = super::request::<T>(text).map(Into::into).map_err(|e| {
            assert!(e.message.contains(" at line "), "{text:?}: {e:?}");
            assert!(e.field.is_empty() || e.field.starts_with('/'), "{e:?}");
            "error".to_string()
        });
        let derived = serde_json::from_str::<T>(text)
            .map(Into::into)
            .map_err(|_| "error".to_string());
        [ours, derived]
    }

    fn answers(operation: Operation, text: &str) -> [Result<Request, String>; 2] {
        use Operation::*;
        match operation {
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
    fn messages_name_the_problem_and_the_place() {
        use Operation::*;
        // (operation, body, field, the message's end)
        let cases = [
            (Related, r#"{"keyword":1,"ccode":"US"}"#, "/keyword",
             "/keyword: invalid type: integer, expected a string at line 1 column 12"),
            (Related, r#"{"keyword":"a","ccode":"US","z~/":1}"#, "/z~0~1",
             "unknown field `z~/`, expected one of `key`, `keyword`, `ccode` at line 1 column 29"),
            (Related, r#"{"keyword":"a","keyword":"b","ccode":"US"}"#, "/keyword",
             "duplicate field `keyword` at line 1 column 16"),
            (Related, r#"{"keyword":"a"}"#, "/ccode", "missing field `ccode` at line 1 column 15"),
            (SearchVolumeBulk, "{\"keywords\":[\"a\",\n null],\"ccode\":\"US\"}", "/keywords/1",
             "invalid type: null, expected a string at line 2 column 2"),
            (SearchVolumeBulk, r#"{"keywords":"a","ccode":"US"}"#, "/keywords",
             "invalid type: string, expected a sequence at line 1 column 13"),
            (Related, r#"["k","a"]"#, "/ccode",
             "invalid length 2, expected struct Request with 3 elements at line 1 column 9"),
            (SearchVolumeBulk, r#"["k"]"#, "/keywords",
             "invalid length 1, expected struct Request with 3 elements at line 1 column 5"),
            (Related, "[]", "/key",
             "invalid length 0, expected struct Request with 3 elements at line 1 column 2"),
            (Related, r#"["k","a","US","x"]"#, "", "trailing characters at line 1 column 14"),
            (Related, "1.5", "", "invalid type: floating point, expected struct Request at line 1 column 1"),
            (Related, r#"{"keyword":"a","ccode":"US"} x"#, "",
             "trailing characters after the JSON value at line 1 column 30"),
            (Related, r#"{"keyword":"a\u00"}"#, "/keyword", "invalid \\u escape at line 1 column 18"),
        ];
        for (operation, text, field, end) in cases {
            let e = Request::from_json(operation, text).unwrap_err();
            assert_eq!(e.field, field, "{text}");
            assert!(e.to_string().ends_with(end), "{text}: {e}");
        }
    }

    #[test]
    fn same_as_the_derives() {
        let bodies = bodies();
        let mut ok = 0;
        for operation in Operation::ALL {
            for text in &bodies {
                let [ours, derived] = answers(operation, text);
                assert_eq!(ours, derived, "{operation} {text:?}");
                ok += usize::from(ours.is_ok());
            }
        }
        assert!(ok > 100, "too few valid bodies: {ok}");
    }
}
