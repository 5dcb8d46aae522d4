//! The service key kept out of everything a member sees: a service's body (an error naming
//! the key it refused, say) is passed on with the key replaced in every form it could take
//! there: as written, JSON-escaped (`\/`, `\u0073…`: found by reading the JSON's strings),
//! percent-encoded (upper or lower hex, any characters encoded), base64 (standard or URL-safe,
//! at any alignment within the encoded text).
//!
//! Decided: a body in which the key is found in a JSON string is written again from its
//! parsed form (its spelling may change, not its meaning); one in which it is found nowhere
//! passes untouched, as do paid bodies (the common case costs one search per form).

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::Value;

/// What the key is replaced with.
pub const MASK: &str = "[the team's service key]";

/// Shortest key part searched for in a base64 or encoded form; shorter keys are only
/// searched for as written (a 3-character "key" would match everywhere).
const MIN_FORM_LEN: usize = 8;

/// The spellings of `key` that a text can hold.
fn forms(key: &str) -> Vec<String> {
    let mut forms = vec![key.to_string()];
    if key.len() < MIN_FORM_LEN {
        return forms;
    }
    // JSON with `/` escaped (the only escape of a printable ASCII key besides `\uXXXX`,
    // which `in_json` handles).
    forms.push(key.replace('/', "\\/"));
    // Percent-encoded: only what must be, or every byte (hex of either case: the search
    // ignores case).
    {
        let hex = |b: u8| format!("%{b:02X}");
        let needed: String = key
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    (b as char).to_string()
                } else {
                    hex(b)
                }
            })
            .collect();
        forms.push(needed);
        forms.push(key.bytes().map(hex).collect());
    }
    // base64 of a text holding the key at any of the three alignments: the characters that
    // depend on the key's bytes only (those mixing in a neighbour's bits are left out).
    for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
        for lead in 0..3usize {
            let mut bytes = vec![0u8; lead];
            bytes.extend_from_slice(key.as_bytes());
            let encoded = engine.encode(&bytes);
            // The first character after the lead's bits is whole from the key's only when
            // the lead is aligned; otherwise skip the mixed one.
            let start = (lead * 4).div_ceil(3);
            // The last whole group of three key bytes ends here.
            let whole = (lead + key.len()) / 3 * 4;
            if whole > start {
                let part = &encoded[start..whole];
                if part.len() >= MIN_FORM_LEN {
                    forms.push(part.to_string());
                }
            }
        }
    }
    forms.sort();
    forms.dedup();
    forms
}

/// `text` with every form of the key replaced by [`MASK`]; `None` when none was found.
/// Matched regardless of ASCII case (percent-encoding's hex may be either, even mixed): a
/// text that differs from the key only in case is masked too, which hides nothing a member
/// needs.
fn replace_forms(text: &str, forms: &[String]) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let mut found: Vec<(usize, usize)> = forms
        .iter()
        .flat_map(|f| {
            let f = f.to_ascii_lowercase();
            lower
                .match_indices(f.as_str())
                .map(|(i, m)| (i, i + m.len()))
                .collect::<Vec<_>>()
        })
        .collect();
    if found.is_empty() {
        return None;
    }
    found.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in found {
        if end <= at {
            continue;
        }
        if start >= at {
            out.push_str(&text[at..start]);
            out.push_str(MASK);
        }
        at = end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Every string (and key) of a JSON value with the key's forms replaced; true if any was.
fn in_json(value: &mut Value, forms: &[String]) -> bool {
    match value {
        Value::String(s) => match replace_forms(s, forms) {
            Some(r) => {
                *s = r;
                true
            }
            None => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| in_json(v, forms) | changed),
        Value::Object(map) => {
            let old = std::mem::take(map);
            let mut changed = false;
            for (k, mut v) in old {
                changed |= in_json(&mut v, forms);
                let k = match replace_forms(&k, forms) {
                    Some(r) => {
                        changed = true;
                        r
                    }
                    None => k,
                };
                map.insert(k, v);
            }
            changed
        }
        _ => false,
    }
}

/// The service's body as text for a member: the service key replaced in every form.
pub fn redact(body: &[u8], key: &str) -> String {
    let text = String::from_utf8_lossy(body);
    if key.is_empty() {
        return text.into_owned();
    }
    let forms = forms(key);
    let text = replace_forms(&text, &forms).unwrap_or_else(|| text.into_owned());
    // A JSON escape can spell any character (`\u0073`): only the parsed strings tell. Only
    // a body with an escape in it can hide the key so.
    if text.contains('\\') {
        if let Ok(mut value) = serde_json::from_str::<Value>(&text) {
            if in_json(&mut value, &forms) {
                return value.to_string();
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-live/Ab+9xY=q_7";

    fn hidden(shown: &str) {
        assert!(!shown.contains(KEY), "{shown}");
        for form in forms(KEY) {
            assert!(!shown.contains(&form), "{form} in {shown}");
        }
    }

    #[test]
    fn every_form_of_the_key_is_replaced() {
        let escaped = KEY.replace('/', "\\/");
        let body = format!(r#"{{"error":{{"message":"key {escaped} refused"}}}}"#);
        hidden(&redact(body.as_bytes(), KEY));
        let unicode: String = KEY
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let body = format!(r#"{{"error":{{"message":"key {unicode} refused"}}}}"#);
        let shown = redact(body.as_bytes(), KEY);
        assert!(shown.contains(MASK), "{shown}");
        hidden(&shown);
        for lead in ["", "a", "ab", "abc"] {
            for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
                let b64 = engine.encode(format!("{lead}{KEY}!").as_bytes());
                let shown = redact(format!("token={b64}").as_bytes(), KEY);
                assert!(shown.contains(MASK), "{lead:?}: {shown}");
                hidden(&shown);
            }
        }
        let mixed = KEY
            .replace('/', "%2F")
            .replace('+', "%2b")
            .replace('=', "%3d");
        let every: String = KEY.bytes().map(|b| format!("%{b:02x}")).collect();
        for encoded in [mixed, every] {
            let shown = redact(format!("https://x/?key={encoded}").as_bytes(), KEY);
            assert_eq!(shown, format!("https://x/?key={MASK}"));
        }
        assert_eq!(redact(b"[1,2]", KEY), "[1,2]");
        assert_eq!(redact(b"[1,2]", ""), "[1,2]");
    }
}
