//! The reader: a position in the text, white space, the next value's kind, the end of the
//! text and errors at the current position.

use super::token::Start;
use super::{ScanResult, SyntaxError, MAX_DEPTH};

/// A cursor over JSON text. The grammar ([`super::grammar`]) and the numbers
/// ([`super::number`]) are its other methods.
pub(crate) struct Scanner<'a> {
    /// The text.
    pub(super) src: &'a str,
    /// The text's bytes.
    pub(super) b: &'a [u8],
    /// Byte offset of the next unread byte.
    pub pos: usize,
    /// How many arrays and objects are open.
    pub depth: u32,
}

impl<'a> Scanner<'a> {
    /// A reader at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Scanner {
            src,
            b: src.as_bytes(),
            pos: 0,
            depth: 0,
        }
    }

    /// An error at the current position.
    #[inline]
    pub(super) fn err<T>(&self, message: &'static str) -> ScanResult<T> {
        Err(SyntaxError {
            offset: self.pos.min(self.b.len()),
            message,
        })
    }

    /// Skips white space.
    #[inline(always)]
    pub fn ws(&mut self) {
        // Fast path: every byte that can start a token is above the space character, and
        // compact JSON has no white space between tokens.
        if let Some(&c) = self.b.get(self.pos) {
            if c <= b' ' {
                self.ws_run();
            }
        }
    }

    /// Skips a run of white space.
    fn ws_run(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b' ' || c == b'\n' || c == b'\r' || c == b'\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// The byte at the position, if any.
    #[inline(always)]
    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// After the top-level value: only white space may follow.
    pub fn end(&mut self) -> ScanResult<()> {
        self.ws();
        if self.pos < self.b.len() {
            return self.err("trailing characters after the JSON value");
        }
        Ok(())
    }

    /// Skips white space and classifies the next value (without consuming it).
    #[inline(always)]
    pub fn start(&mut self) -> ScanResult<Start> {
        self.ws();
        match self.peek() {
            Some(b'{') => Ok(Start::Object),
            Some(b'[') => Ok(Start::Array),
            Some(_) => Ok(Start::Scalar),
            None => self.err("unexpected end of input, expected a value"),
        }
    }

    /// The next byte (after white space was skipped), if any.
    #[inline(always)]
    pub fn next_byte(&self) -> Option<u8> {
        self.peek()
    }

    /// Enters an array or object (at its bracket), refusing nesting beyond [`MAX_DEPTH`].
    pub(super) fn enter(&mut self) -> ScanResult<()> {
        if self.depth >= MAX_DEPTH {
            return self.err("nesting deeper than 127 levels");
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }
}
