//! JS text and bytes into wasm: strings (large ones through `TextEncoder.encodeInto`),
//! `Uint8Array` / `ArrayBuffer` by one copy, anything else through `JSON.stringify`. The
//! UTF-8 check of the copied bytes ([`utf8`]) is plain Rust; the JS side is wasm only.

/// Strings at least this long are copied into wasm with `TextEncoder.encodeInto` (see
/// `utf8_of` in the wasm part).
pub(crate) const ENCODER_MIN_CHARS: u32 = 1 << 16;

/// The bytes as a `String`. `encodeInto` writes valid UTF-8 by specification, but it is a
/// global that a page can replace, so the bytes are checked: ASCII (the common case for
/// these bodies) in 8-byte words, several times faster than `from_utf8` in wasm (measured:
/// about 1.4 ms for 10 MB in Node), anything else by `from_utf8`.
pub(crate) fn utf8(bytes: Vec<u8>) -> Option<String> {
    // 32 bytes a step, as 4 words: as fast without LLVM's unrolling as with it.
    let blocks = bytes.chunks_exact(32);
    let rest = blocks.remainder();
    let mut high = 0u64;
    for block in blocks {
        high |= word(block, 0) | word(block, 8) | word(block, 16) | word(block, 24);
    }
    if high & 0x8080_8080_8080_8080 == 0 && rest.is_ascii() {
        // SAFETY: every byte is ASCII, which is valid UTF-8.
        return Some(unsafe { String::from_utf8_unchecked(bytes) });
    }
    String::from_utf8(bytes).ok()
}

/// The 8 bytes of `bytes` at `at` as a word (all high bits set, so "not ASCII", past the
/// end).
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .and_then(|tail| tail.first_chunk::<8>())
        .map_or(u64::MAX, |chunk| u64::from_le_bytes(*chunk))
}

#[cfg(target_arch = "wasm32")]
pub(crate) use wasm::text_of;

/// Copying JS strings and bytes into wasm (wasm only).
#[cfg(target_arch = "wasm32")]
mod wasm {
    use js_sys::JSON;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{utf8, ENCODER_MIN_CHARS};
    use crate::js::errors::PackageError;

    #[wasm_bindgen]
    extern "C" {
        /// The WHATWG `TextEncoder` (browsers, Node, Deno, workers).
        type TextEncoder;
        #[wasm_bindgen(constructor, catch)]
        fn new() -> Result<TextEncoder, JsValue>;
        /// Takes the string as a plain `JsValue`, so wasm-bindgen adds no conversion of its
        /// own.
        #[wasm_bindgen(method, catch, js_name = encodeInto)]
        fn encode_into(
            this: &TextEncoder,
            source: &JsValue,
            destination: &js_sys::Uint8Array,
        ) -> Result<EncodeIntoResult, JsValue>;

        /// `{ read, written }` of `encodeInto`.
        type EncodeIntoResult;
        #[wasm_bindgen(method, getter)]
        fn read(this: &EncodeIntoResult) -> f64;
        #[wasm_bindgen(method, getter)]
        fn written(this: &EncodeIntoResult) -> f64;
    }

    thread_local! {
        /// One encoder for every call (`None` where there is no `TextEncoder`).
        static ENCODER: Option<TextEncoder> = TextEncoder::new().ok();
    }

    /// A large JS string as UTF-8, written by the native `TextEncoder.encodeInto` straight
    /// into wasm memory. wasm-bindgen's own string passing copies ASCII text one character at
    /// a time in JS, several times slower for a multi-megabyte body (measured in bench/js:
    /// 10 MB in about 30 ms in Node and Chromium, against 1.3 ms in Node and 7.5 to 9 ms in
    /// Chromium, whose `encodeInto` is a plain loop, for `encodeInto`). `None` when there is
    /// no `TextEncoder` or it misbehaves (the caller falls back).
    fn utf8_of(value: &js_sys::JsString) -> Option<String> {
        ENCODER.with(|encoder| {
            let encoder = encoder.as_ref()?;
            let mut source = value.clone();
            // ASCII needs one byte per UTF-16 unit; more is reserved when the text is not
            // ASCII.
            let mut buffer: Vec<u8> = Vec::new();
            buffer
                .try_reserve_exact(source.length() as usize + 16)
                .ok()?;
            loop {
                let len = buffer.len();
                let spare = buffer.capacity() - len;
                // SAFETY: the view covers exactly the vector's spare capacity, and is used by
                // the one `encodeInto` call below before anything can allocate (and so move or
                // grow wasm memory).
                let view = unsafe {
                    js_sys::Uint8Array::view_mut_raw(buffer.as_mut_ptr().add(len), spare)
                };
                let result = encoder.encode_into(&source, &view).ok()?;
                drop(view);
                let read = result.read();
                let written = result.written();
                if !(written >= 0.0 && written <= spare as f64 && read >= 0.0) {
                    return None;
                }
                // SAFETY: `encodeInto` initialized `written` bytes of the spare capacity.
                unsafe { buffer.set_len(len + written as usize) };
                let total = source.length();
                if read >= f64::from(total) {
                    break;
                }
                let read = read as u32;
                source = source.slice(read, total);
                // At most 3 bytes per remaining UTF-16 unit.
                buffer.try_reserve((total - read) as usize * 3).ok()?;
            }
            utf8(buffer)
        })
    }

    /// The UTF-8 bytes of a `Uint8Array` (or a view of an `ArrayBuffer`) as text, copied into
    /// wasm by one `Uint8Array.set` (a memcpy: no per-character work at all, unlike a
    /// string).
    fn text_of_bytes(bytes: &js_sys::Uint8Array, what: &str) -> Result<String, JsValue> {
        let len = bytes.length() as usize;
        let mut buffer: Vec<u8> = Vec::new();
        if buffer.try_reserve_exact(len).is_err() {
            return Err(PackageError::invalid_argument(format!(
                "{what} is too large for memory ({len} bytes)"
            ))
            .into());
        }
        // SAFETY: the view covers exactly the vector's spare capacity (`len` bytes) and is
        // used by the one `set` call before anything can allocate; `set` fills all `len`
        // bytes.
        unsafe {
            js_sys::Uint8Array::view_mut_raw(buffer.as_mut_ptr(), len).set(bytes, 0);
            buffer.set_len(len);
        }
        utf8(buffer).ok_or_else(|| {
            PackageError::invalid_argument(format!("{what} bytes are not UTF-8")).into()
        })
    }

    /// A string or UTF-8 bytes (`Uint8Array`, `ArrayBuffer`) as is; anything else through
    /// `JSON.stringify`. `what` names the argument.
    pub(crate) fn text_of(value: &JsValue, what: &str) -> Result<String, JsValue> {
        if let Some(js) = value.dyn_ref::<js_sys::JsString>() {
            return Ok(string_of(js));
        }
        if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
            return text_of_bytes(bytes, what);
        }
        if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
            return text_of_bytes(&js_sys::Uint8Array::new(buffer), what);
        }
        if value.is_undefined() || value.is_function() || value.is_symbol() {
            return Err(PackageError::invalid_argument(format!(
                "{what} must be JSON text or a JSON value"
            ))
            .into());
        }
        JSON::stringify(value)
            .ok()
            .filter(|text| text.is_string())
            .map(|text| string_of(&text))
            .ok_or_else(|| {
                PackageError::invalid_argument(format!(
                    "{what} cannot be converted to JSON (a cycle or a BigInt?)"
                ))
                .into()
            })
    }

    /// A JS string in wasm: large ones through [`utf8_of`].
    fn string_of(js: &js_sys::JsString) -> String {
        if js.length() >= ENCODER_MIN_CHARS {
            if let Some(text) = utf8_of(js) {
                return text;
            }
        }
        String::from(js)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_passes_in_words_and_the_rest_through_from_utf8() {
        for len in [0, 1, 7, 8, 31, 32, 33, 64, 100] {
            let text = "a".repeat(len);
            assert_eq!(utf8(text.clone().into_bytes()), Some(text));
        }
        // A non-ASCII character in a full block, in the remainder, and at a word's edge.
        for at in [0, 7, 8, 31, 32, 40] {
            let mut text = "b".repeat(48);
            text.insert(at, 'é');
            assert_eq!(utf8(text.clone().into_bytes()), Some(text));
        }
        // Not UTF-8: a lone continuation byte, in a block and in the remainder.
        for at in [3, 35] {
            let mut bytes = vec![b'c'; 40];
            bytes[at] = 0x80;
            assert_eq!(utf8(bytes), None);
        }
    }

    #[test]
    fn a_word_past_the_end_reads_as_not_ascii() {
        assert_eq!(word(b"abcdefgh", 0), u64::from_le_bytes(*b"abcdefgh"));
        assert_eq!(word(b"abc", 0), u64::MAX);
        assert_eq!(word(b"abcdefgh", 4), u64::MAX);
    }
}
