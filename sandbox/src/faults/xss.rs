//! The `xss` fault: scraped text and URLs replaced by attack strings, and the backlink
//! overview's exported text columns by spreadsheet formulas and markup.

use serde_json::Value;

/// Markup and script payloads for scraped text (each sets `window.__xss` if it ever runs).
pub const XSS_CORPUS: &[&str] = &[
    "<script>window.__xss=1</script>",
    "<img src=x onerror=\"window.__xss=1\">",
    "<svg onload=window.__xss=1>",
    "\"><script>window.__xss=1</script>",
    "<a href=\"javascript:window.__xss=1\">click</a>",
    "<iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>",
    "</style><style>body{display:none}</style><b onmouseover=window.__xss=1>broken",
    "<div style=\"background:url(javascript:window.__xss=1)\">&lt;b&gt;entity&amp;</div",
];

/// URL payloads: none of them may become a link.
pub const XSS_URLS: &[&str] = &[
    "javascript:window.__xss=1",
    "JaVaScRiPt:window.__xss=1//https://example.com",
    "data:text/html,<script>window.__xss=1</script>",
    "vbscript:msgbox(1)",
    " javascript:window.__xss=1",
    "//evil.example/x",
];

/// Spreadsheet formula and markup payloads for cells the app exports as CSV text: a
/// spreadsheet must never evaluate them and a page must never render them as markup.
pub const CSV_CORPUS: &[&str] = &[
    "=HYPERLINK(\"http://x.example\",\"click\")",
    "+1+1",
    "@SUM(1+1)",
    "-1+1",
    "<img src=x onerror=window.__xss=1>",
    "\t=1+1",
    "=cmd|' /C calc'!A0",
];

/// The `ref_newlost` fields the app exports as the CSV columns Type, Date and First seen.
const CSV_KEYS: &[&str] = &["new_lost_type", "new_lost_date", "first_seen"];

/// Keys whose string values are URLs (replaced by [`XSS_URLS`]).
const URL_KEYS: &[&str] = &["url", "image", "photo", "user_avatar", "apiUrl"];
/// Keys whose string values are scraped or user-written text (replaced by [`XSS_CORPUS`]).
const TEXT_KEYS: &[&str] = &[
    "text",
    "tweet",
    "title",
    "description",
    "name",
    "fullname",
    "username",
    "keyword",
    "refdomain",
    "domain",
    "betaTTF0Name",
    "betaTTF1Name",
    "betaTTF2Name",
];

/// The body with scraped text and URLs replaced by attack strings, keeping its shape.
/// Hashtags keep their `#` and tags their `@` so the payload reaches the display code.
pub fn xss(body: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<Value>(body) else {
        return body.to_owned();
    };
    let mut n = 0usize;
    xss_walk(&mut v, None, &mut n);
    if let Some(entries) = v.get_mut("ref_newlost").and_then(Value::as_array_mut) {
        // Every other entry (the first included): the rest keep their valid values, so both
        // kinds reach the export.
        let mut m = 0usize;
        for e in entries.iter_mut().step_by(2) {
            for k in CSV_KEYS {
                if let Some(Value::String(s)) = e.get_mut(*k) {
                    *s = pick(CSV_CORPUS, &mut m);
                }
            }
        }
    }
    v.to_string()
}

fn pick(list: &[&str], n: &mut usize) -> String {
    *n += 1;
    list[*n % list.len()].to_owned()
}

fn xss_walk(v: &mut Value, key: Option<&str>, n: &mut usize) {
    match v {
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                xss_walk(child, Some(k.as_str()), n);
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                match (key, item) {
                    (Some("hashtags"), Value::String(s)) => {
                        *s = format!("#{}", pick(XSS_CORPUS, n))
                    }
                    (Some("tagged"), Value::String(s)) => *s = format!("@{}", pick(XSS_CORPUS, n)),
                    (_, item) => xss_walk(item, key, n),
                }
            }
        }
        Value::String(s) => match key {
            Some(k) if URL_KEYS.contains(&k) => *s = pick(XSS_URLS, n),
            Some(k) if TEXT_KEYS.contains(&k) && !s.trim().is_empty() => *s = pick(XSS_CORPUS, n),
            _ => {}
        },
        _ => {}
    }
}
