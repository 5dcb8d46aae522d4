//! Lower case per character, exactly as [`char::to_lowercase`], from a compact table: runs
//! of characters whose lower case is the same distance away (every one, or every other
//! one). The standard library's table is 11.7 kB (4.3 kB gzip) of the JS package's wasm;
//! this one is 2.2 kB. `lower_matches_std` (below) checks every character against the
//! standard library; if a toolchain's Unicode update fails it, regenerate the table from
//! `char::to_lowercase` the same way.

/// Runs `(first, count << 1 | (stride - 1), distance)`, sorted by `first`, non-ASCII only
/// (generated from `char::to_lowercase` of Rust 1.95: every non-ASCII character whose lower
/// case is one other character, grouped into runs).
const RUNS: [(u32, u16, i32); 184] = [
    (0xC0, 46, 32),
    (0xD8, 14, 32),
    (0x100, 49, 1),
    (0x132, 7, 1),
    (0x139, 17, 1),
    (0x14A, 47, 1),
    (0x178, 2, -121),
    (0x179, 7, 1),
    (0x181, 2, 210),
    (0x182, 5, 1),
    (0x186, 2, 206),
    (0x187, 2, 1),
    (0x189, 4, 205),
    (0x18B, 2, 1),
    (0x18E, 2, 79),
    (0x18F, 2, 202),
    (0x190, 2, 203),
    (0x191, 2, 1),
    (0x193, 2, 205),
    (0x194, 2, 207),
    (0x196, 2, 211),
    (0x197, 2, 209),
    (0x198, 2, 1),
    (0x19C, 2, 211),
    (0x19D, 2, 213),
    (0x19F, 2, 214),
    (0x1A0, 7, 1),
    (0x1A6, 2, 218),
    (0x1A7, 2, 1),
    (0x1A9, 2, 218),
    (0x1AC, 2, 1),
    (0x1AE, 2, 218),
    (0x1AF, 2, 1),
    (0x1B1, 4, 217),
    (0x1B3, 5, 1),
    (0x1B7, 2, 219),
    (0x1B8, 2, 1),
    (0x1BC, 2, 1),
    (0x1C4, 2, 2),
    (0x1C5, 2, 1),
    (0x1C7, 2, 2),
    (0x1C8, 2, 1),
    (0x1CA, 2, 2),
    (0x1CB, 19, 1),
    (0x1DE, 19, 1),
    (0x1F1, 2, 2),
    (0x1F2, 5, 1),
    (0x1F6, 2, -97),
    (0x1F7, 2, -56),
    (0x1F8, 41, 1),
    (0x220, 2, -130),
    (0x222, 19, 1),
    (0x23A, 2, 10795),
    (0x23B, 2, 1),
    (0x23D, 2, -163),
    (0x23E, 2, 10792),
    (0x241, 2, 1),
    (0x243, 2, -195),
    (0x244, 2, 69),
    (0x245, 2, 71),
    (0x246, 11, 1),
    (0x370, 5, 1),
    (0x376, 2, 1),
    (0x37F, 2, 116),
    (0x386, 2, 38),
    (0x388, 6, 37),
    (0x38C, 2, 64),
    (0x38E, 4, 63),
    (0x391, 34, 32),
    (0x3A3, 18, 32),
    (0x3CF, 2, 8),
    (0x3D8, 25, 1),
    (0x3F4, 2, -60),
    (0x3F7, 2, 1),
    (0x3F9, 2, -7),
    (0x3FA, 2, 1),
    (0x3FD, 6, -130),
    (0x400, 32, 80),
    (0x410, 64, 32),
    (0x460, 35, 1),
    (0x48A, 55, 1),
    (0x4C0, 2, 15),
    (0x4C1, 15, 1),
    (0x4D0, 97, 1),
    (0x531, 76, 48),
    (0x10A0, 76, 7264),
    (0x10C7, 2, 7264),
    (0x10CD, 2, 7264),
    (0x13A0, 160, 38864),
    (0x13F0, 12, 8),
    (0x1C89, 2, 1),
    (0x1C90, 86, -3008),
    (0x1CBD, 6, -3008),
    (0x1E00, 151, 1),
    (0x1E9E, 2, -7615),
    (0x1EA0, 97, 1),
    (0x1F08, 16, -8),
    (0x1F18, 12, -8),
    (0x1F28, 16, -8),
    (0x1F38, 16, -8),
    (0x1F48, 12, -8),
    (0x1F59, 9, -8),
    (0x1F68, 16, -8),
    (0x1F88, 16, -8),
    (0x1F98, 16, -8),
    (0x1FA8, 16, -8),
    (0x1FB8, 4, -8),
    (0x1FBA, 4, -74),
    (0x1FBC, 2, -9),
    (0x1FC8, 8, -86),
    (0x1FCC, 2, -9),
    (0x1FD8, 4, -8),
    (0x1FDA, 4, -100),
    (0x1FE8, 4, -8),
    (0x1FEA, 4, -112),
    (0x1FEC, 2, -7),
    (0x1FF8, 4, -128),
    (0x1FFA, 4, -126),
    (0x1FFC, 2, -9),
    (0x2126, 2, -7517),
    (0x212A, 2, -8383),
    (0x212B, 2, -8262),
    (0x2132, 2, 28),
    (0x2160, 32, 16),
    (0x2183, 2, 1),
    (0x24B6, 52, 26),
    (0x2C00, 96, 48),
    (0x2C60, 2, 1),
    (0x2C62, 2, -10743),
    (0x2C63, 2, -3814),
    (0x2C64, 2, -10727),
    (0x2C67, 7, 1),
    (0x2C6D, 2, -10780),
    (0x2C6E, 2, -10749),
    (0x2C6F, 2, -10783),
    (0x2C70, 2, -10782),
    (0x2C72, 2, 1),
    (0x2C75, 2, 1),
    (0x2C7E, 4, -10815),
    (0x2C80, 101, 1),
    (0x2CEB, 5, 1),
    (0x2CF2, 2, 1),
    (0xA640, 47, 1),
    (0xA680, 29, 1),
    (0xA722, 15, 1),
    (0xA732, 63, 1),
    (0xA779, 5, 1),
    (0xA77D, 2, -35332),
    (0xA77E, 11, 1),
    (0xA78B, 2, 1),
    (0xA78D, 2, -42280),
    (0xA790, 5, 1),
    (0xA796, 21, 1),
    (0xA7AA, 2, -42308),
    (0xA7AB, 2, -42319),
    (0xA7AC, 2, -42315),
    (0xA7AD, 2, -42305),
    (0xA7AE, 2, -42308),
    (0xA7B0, 2, -42258),
    (0xA7B1, 2, -42282),
    (0xA7B2, 2, -42261),
    (0xA7B3, 2, 928),
    (0xA7B4, 17, 1),
    (0xA7C4, 2, -48),
    (0xA7C5, 2, -42307),
    (0xA7C6, 2, -35384),
    (0xA7C7, 5, 1),
    (0xA7CB, 2, -42343),
    (0xA7CC, 17, 1),
    (0xA7DC, 2, -42561),
    (0xA7F5, 2, 1),
    (0xFF21, 52, 32),
    (0x10400, 80, 40),
    (0x104B0, 72, 40),
    (0x10570, 22, 39),
    (0x1057C, 30, 39),
    (0x1058C, 14, 39),
    (0x10594, 4, 39),
    (0x10C80, 102, 64),
    (0x10D50, 44, 32),
    (0x118A0, 64, 32),
    (0x16E40, 64, 32),
    (0x16EA0, 50, 27),
    (0x1E900, 68, 34),
];

/// The lower case of `character`: one or two characters (`[lower, '\0']` and 1, or 2 for `İ`).
pub(crate) fn lower(character: char) -> ([char; 2], usize) {
    if character.is_ascii() {
        return ([character.to_ascii_lowercase(), '\0'], 1);
    }
    if character == '\u{130}' {
        return (['i', '\u{307}'], 2);
    }
    let u = character as u32;
    let i = RUNS.partition_point(|r| r.0 <= u);
    if let Some(&(first, packed, distance)) = i.checked_sub(1).and_then(|i| RUNS.get(i)) {
        let (count, stride) = (u32::from(packed >> 1), u32::from(packed & 1) + 1);
        let k = u - first;
        if k % stride == 0 && k / stride < count {
            if let Some(l) = char::from_u32(u.wrapping_add_signed(distance)) {
                return ([l, '\0'], 1);
            }
        }
    }
    ([character, '\0'], 1)
}

/// The characters of `text` in lower case (as `text.chars().flat_map(char::to_lowercase)`).
pub(crate) fn lower_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(|c| {
        let (l, n) = lower(c);
        l.into_iter().take(n)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn lower_matches_std() {
        for u in 0..=0x10FFFF {
            let Some(c) = char::from_u32(u) else { continue };
            let (l, n) = super::lower(c);
            let std: Vec<char> = c.to_lowercase().collect();
            assert_eq!(&l[..n], &std[..], "U+{u:04X}");
        }
    }
}
