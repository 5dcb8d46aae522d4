//! Positions and JSON Pointers: line and column of an offset, the offset a `serde_json` error
//! is about, and the pointer of the value at an offset.

use super::token::RawStr;

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(src.len());
    while !src.is_char_boundary(off) {
        off -= 1;
    }
    let before = &src[..off];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Byte offset of the value a `serde_json` error (its 1-based `line` and byte `column`, and
/// its `message`) is about. Its column counts the bytes read on that line, so the last byte
/// it read is at `column - 1`, usually the end of the offending value. Two cases differ:
/// - after a `,` or `:` it read, the value is the next one (it was only peeked at);
/// - after a `[`, `{` or white space, it is the next value only when that is the array or
///   object the message rejects (`invalid type: sequence` / `map`: a typed field peeks at
///   the bracket without reading it). Otherwise the container just opened is the value (a
///   container that was read and then rejected as a whole: the offset stays inside it).
///
/// The one ambiguity left, an array read and rejected whose first element is an array,
/// points at that element. Clamped to the text; never panics.
pub(crate) fn offset_of(src: &str, line: usize, column: usize, message: &str) -> usize {
    let b = src.as_bytes();
    let off = last_read(src, line, column);
    let mut next = off + 1;
    while matches!(b.get(next), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        next += 1;
    }
    let peeked = match b.get(next) {
        Some(b'[') => message.starts_with("invalid type: sequence"),
        Some(b'{') => message.starts_with("invalid type: map"),
        _ => false,
    };
    let off = match b.get(off) {
        Some(b',' | b':') => next,
        Some(b'[' | b'{' | b' ' | b'\t' | b'\n' | b'\r') if peeked => next,
        _ => off,
    };
    off.min(b.len())
}

/// Byte offset of a 1-based `line` and byte `column` (clamped to the text).
fn last_read(src: &str, line: usize, column: usize) -> usize {
    let b = src.as_bytes();
    let mut start = 0;
    let mut newlines = 1;
    while newlines < line {
        match b[start..].iter().position(|&c| c == b'\n') {
            Some(i) => {
                start += i + 1;
                newlines += 1;
            }
            None => return b.len(),
        }
    }
    (start + column.saturating_sub(1)).min(b.len())
}

/// Appends `name` to a JSON Pointer as one reference token: `/`, then the name with `~`
/// written `~0` and `/` written `~1` (RFC 6901).
pub(crate) fn push_token(out: &mut String, name: &str) {
    out.push('/');
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// The JSON Pointer of the innermost value at byte `offset` of `src`: the value whose text
/// covers the offset (for a container, its brackets), or the member whose key covers it
/// (`/keywords/3`, `/name~1x`; empty for the whole text). `serde_json` reports where a
/// typed decode failed only as a position; this turns it back into a path without tracking
/// one during every decode (which `serde_path_to_error` did, at the cost of a second copy of
/// every `Deserialize` impl).
///
/// Any text is accepted: the walk is a tolerant tokenizer that stops at the offset, so
/// invalid JSON yields the path of what was read so far. The path stack lives on the heap
/// and grows with the nesting actually read, so hostile nesting cannot overflow anything.
pub(crate) fn pointer_at(src: &str, offset: usize) -> String {
    /// One open container: an array with the index of its current element, or an object
    /// with its current key (`None` before the first key) and whether the value of that
    /// key has begun (after the `:`).
    enum Frame<'a> {
        Arr(usize),
        Obj(Option<RawStr<'a>>, bool),
    }
    fn render(frames: &[Frame<'_>]) -> String {
        let mut out = String::new();
        for f in frames {
            match f {
                Frame::Arr(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
                Frame::Obj(Some(k), _) => push_token(&mut out, &k.text()),
                Frame::Obj(None, _) => {}
            }
        }
        out
    }
    let b = src.as_bytes();
    let offset = offset.min(b.len());
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut i = 0;
    while i < b.len() && i <= offset {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' => {
                let top = frames.last_mut();
                match (b[i], top) {
                    (b',', Some(Frame::Arr(n))) => *n += 1,
                    (b',', Some(Frame::Obj(k, v))) => {
                        *k = None;
                        *v = false;
                    }
                    (b':', Some(Frame::Obj(_, v))) => *v = true,
                    _ => {}
                }
                i += 1;
            }
            b'{' | b'[' => {
                if i == offset {
                    break;
                }
                frames.push(if b[i] == b'{' {
                    Frame::Obj(None, false)
                } else {
                    Frame::Arr(0)
                });
                i += 1;
            }
            b'}' | b']' => {
                // The closing bracket belongs to the container itself.
                frames.pop();
                if i == offset {
                    break;
                }
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        escaped = true;
                        j += 1;
                    }
                    j += 1;
                }
                let end = j.min(b.len());
                // Quotes and backslashes are ASCII, so both ends are char boundaries.
                let raw = src.get(start..end).unwrap_or("");
                if let Some(Frame::Obj(k, false)) = frames.last_mut() {
                    *k = Some(RawStr { raw, escaped });
                }
                if offset <= j {
                    break;
                }
                i = j + 1;
            }
            _ => {
                // A number, literal or stray byte: up to the next delimiter.
                let mut j = i;
                while j < b.len() && !b" \t\n\r,:{}[]\"".contains(&b[j]) {
                    j += 1;
                }
                if offset < j {
                    break;
                }
                i = j;
            }
        }
    }
    render(&frames)
}
