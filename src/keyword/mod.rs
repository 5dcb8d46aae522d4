//! Keywords as the service's records and the validator's cross-checks compare them: white
//! space at either end ignored, inner runs of white space as one space, case ignored
//! (Unicode lower case, per character). The decision is documented with the record keys
//! (`records::key`); this leaf holds the one implementation, so the rule language, the
//! validator, the record planner and the app's lists share it.

mod lower;

/// A keyword as record keys and keyword comparisons see it: trimmed, inner white space runs
/// as one space, lower case (per character, as [`char::to_lowercase`]).
pub fn normalize_keyword(keyword: &str) -> String {
    let mut out = String::with_capacity(keyword.len());
    for (i, word) in keyword.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.extend(lower::lower_chars(word));
    }
    out
}

/// Whether two keywords are the same keyword: `normalize_keyword(keyword) == normalize_keyword(other)`,
/// without allocating.
pub fn same_keyword(keyword: &str, other: &str) -> bool {
    let mut wa = keyword.split_whitespace();
    let mut wb = other.split_whitespace();
    loop {
        match (wa.next(), wb.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => {
                if x != y && !lower::lower_chars(x).eq(lower::lower_chars(y)) {
                    return false;
                }
            }
            _ => return false,
        }
    }
}
