//! Word-at-a-time helpers: 8 (or 4) bytes per step for string scanning, key comparison and
//! digit runs (SWAR, "SIMD within a register", which also suits WebAssembly).

// Byte classes for the string slow path: true = stop (quote, backslash, control character).
pub(super) static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// `0x01` in every byte of a word.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte of a word.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// SWAR ("SIMD within a register") test of 8 string bytes, loaded little-endian: the high
/// bit of byte `i` of the result is set when byte `i` is a stop byte (`"`, `\` or below
/// 0x20); in bytes above the first stop byte the result may hold false positives (borrows),
/// so only its lowest set bit is meaningful. Each test is the classic "has a zero byte"
/// (`(x - 0x01..) & !x & 0x80..`) or "has a byte below n" (`(x - n..) & !x & 0x80..`, valid
/// for n <= 0x80): a borrow only propagates upwards from a byte that is itself a hit.
#[inline(always)]
pub(super) fn stop_bits(w: u64) -> u64 {
    // `"` and `\` are below 0x80, so a byte's high bit is the same in `w` and in the XORs:
    // one `!w` masks all three tests.
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let control = w.wrapping_sub(ONES * 0x20);
    (quote | backslash | control) & !w & HIGHS
}

/// The 8 bytes of `b` at `i`, as a little-endian word (`None` near the end).
#[inline(always)]
pub(super) fn word_at(b: &[u8], i: usize) -> Option<u64> {
    b.get(i..)
        .and_then(|t| t.first_chunk::<8>())
        .map(|c| u64::from_le_bytes(*c))
}

/// True when `text` starts with `name`: a word at a time (the last word overlapping the
/// previous one), which beats a general `memcmp` for short keys, notably in WebAssembly.
#[inline(always)]
pub(super) fn same_bytes(text: &[u8], name: &[u8]) -> bool {
    let n = name.len();
    let Some(t) = text.get(..n) else {
        return false;
    };
    if n >= 8 {
        let mut i = 0;
        while i + 8 <= n {
            if word_at(t, i) != word_at(name, i) {
                return false;
            }
            i += 8;
        }
        word_at(t, n - 8) == word_at(name, n - 8)
    } else if n >= 4 {
        half_at(t, 0) == half_at(name, 0) && half_at(t, n - 4) == half_at(name, n - 4)
    } else {
        let mut i = 0;
        while i < n {
            if t.get(i) != name.get(i) {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// The 4 bytes of `b` at `i`, as a little-endian word (`None` near the end).
#[inline(always)]
fn half_at(b: &[u8], i: usize) -> Option<u32> {
    b.get(i..)
        .and_then(|t| t.first_chunk::<4>())
        .map(|c| u32::from_le_bytes(*c))
}

/// True when `name` can be matched byte for byte against a raw key: it holds no byte that
/// would end or escape a JSON string (quote, backslash, control character).
pub(crate) const fn plain_key(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] < 0x20 || b[i] == b'"' || b[i] == b'\\' {
            return false;
        }
        i += 1;
    }
    true
}

/// The ASCII digits of `b` from `i`: the index after them and their value, accumulated with
/// wrapping arithmetic (exact up to 19 digits; callers bound the count they trust). The one
/// digit loop of the scanner's number fast paths.
#[inline(always)]
pub(super) fn digit_run(b: &[u8], mut i: usize) -> (usize, u64) {
    let mut v: u64 = 0;
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    (i, v)
}
