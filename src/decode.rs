//! Typed decoding of response bodies, leniently (see [`crate::ops::lenient`]), with errors
//! that name the JSON path.

use std::fmt;

use serde::de::DeserializeOwned;

/// A response body that could not be decoded into the typed model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// JSON Pointer of the value that failed (empty for the whole body or a syntax error).
    pub path: String,
    /// What went wrong.
    pub message: String,
    /// 1-based line of the error in the text.
    pub line: usize,
    /// 1-based column of the error in the text.
    pub column: usize,
    /// True when the text is not valid JSON at all (as opposed to JSON of the wrong shape).
    pub syntax: bool,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        if self.syntax {
            write!(
                f,
                "not JSON at line {} column {}: {}",
                self.line, self.column, self.message
            )
        } else {
            write!(
                f,
                "{path}: {} (line {} column {})",
                self.message, self.line, self.column
            )
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a response body of type `T` (e.g. `ops::related::Response`).
///
/// A record must be a JSON object: an array in its place (which serde's derives would read
/// field by field) is refused at its path ([`crate::ops::lenient::from_str`]).
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    crate::ops::lenient::from_str(text).map_err(|e| {
        let path = pointer_of(text, &e);
        from_serde(e, path)
    })
}

/// Checks that `text` is one JSON value (the full grammar, as `serde_json` reads it), by the
/// validator's scanner: what [`decode`] would say of its syntax, without building anything.
pub fn check_syntax(text: &str) -> Result<(), DecodeError> {
    use crate::json::{line_col, Scanner};
    let mut sc = Scanner::new(text);
    sc.skip().and_then(|()| sc.end()).map_err(|e| {
        let (line, column) = line_col(text, e.offset);
        DecodeError {
            path: String::new(),
            message: e.message.to_owned(),
            line,
            column,
            syntax: true,
        }
    })
}

/// The JSON Pointer of the value a `serde_json` error points at (from its position).
fn pointer_of(text: &str, e: &serde_json::Error) -> String {
    use crate::json;
    json::pointer_at(
        text,
        json::offset_of(text, e.line(), e.column(), &e.to_string()),
    )
}

fn from_serde(e: serde_json::Error, path: String) -> DecodeError {
    let syntax = matches!(
        e.classify(),
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof
    );
    let message = e.to_string();
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message,
    };
    DecodeError {
        path: if syntax { String::new() } else { path },
        message,
        line: e.line(),
        column: e.column(),
        syntax,
    }
}

#[cfg(test)]
mod tests {
    use crate::ops::outline_seo;

    #[test]
    fn an_array_in_a_list_of_records_is_refused_at_its_path() {
        // Records in a `list` field are refused too (`ops::lenient` tests the rest).
        let e = crate::decode::<outline_seo::Response>(
            r#"[{"url":"u","title":"t","rank":1,"headings":[["h2","y"]]}]"#,
        )
        .unwrap_err();
        assert_eq!(e.path, "/0/headings/0", "{e}");
    }
}
