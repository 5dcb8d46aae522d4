//! A small zero-allocation JSON scanner over bytes, used by the validator, the request parser and the
//! decoders.
//!
//! It checks the full JSON grammar (RFC 8259, as `serde_json` does: no BOM, no trailing
//! commas, no lone surrogates in `\u` escapes, no raw control characters in strings), records
//! the byte offset of every error, classifies numbers as integer or float per the grammar and
//! limits nesting to [`MAX_DEPTH`]. Skipping a value is iterative (a bit stack), so hostile
//! nesting cannot overflow the call stack.
//!
//! Split by job: `reader` (position, white space, errors), `token` (what it hands out),
//! `grammar` (objects, arrays, strings, skipping), `number`, `float` (number text as `f64`),
//! `words` (word-at-a-time helpers) and `position` (line and column, JSON Pointers). A leaf:
//! it imports nothing of the crate.

mod float;
mod grammar;
mod number;
mod position;
mod reader;
mod token;
mod words;

pub(crate) use float::json_f64;
pub(crate) use number::Decimal;
pub(crate) use position::{line_col, offset_of, pointer_at, push_token};
pub(crate) use reader::Scanner;
pub(crate) use token::{Key, Start};
pub use token::{RawStr, Scalar};
pub(crate) use words::plain_key;

/// Deepest nesting of arrays and objects accepted: the same as `serde_json`, whose recursion
/// limit of 128 rejects the 128th nested container.
pub const MAX_DEPTH: u32 = 127;

/// A syntax error: what and where (byte offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// Byte offset of the error.
    pub offset: usize,
    /// What is wrong (`expected \`,\` or \`}\``, ...).
    pub message: &'static str,
}

/// The result of a scanner step.
pub(crate) type ScanResult<T> = Result<T, SyntaxError>;

#[cfg(test)]
mod tests;
