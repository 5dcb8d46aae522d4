//! Rules that relate a response to its request, declared as data: "one record per requested
//! keyword" ([`Count`]), "record `i` is for the request's keyword `i`", "`keywords` starts with
//! the searched keyword", "`url` is one of the requested URLs" ([`Echo`]). The rule language
//! knows no request type: it reads a request's fields by name through [`RequestFields`]
//! (implemented by `ops::Request`), and the generated JS validator reads the parsed request
//! the same way (`cx.request[name]`, `echo` in `twins.js`), so neither needs a hand-written twin.

use crate::keyword::same_keyword;

use super::{RuleCode, Severity};

/// A request field's value, as [`RequestFields`] gives it.
#[derive(Clone, Copy, Debug)]
pub enum RequestValue<'r> {
    /// A string field (`keyword`, `ccode`, `domain`).
    Text(&'r str),
    /// A list field (`keywords`, `urls`, `domains`).
    List(&'r [String]),
}

/// A request's fields, by their JSON name.
pub trait RequestFields {
    /// The field `name`; `None` when the request has none by that name.
    fn field(&self, name: &str) -> Option<RequestValue<'_>>;
    /// A string field; `None` when the request has none by that name.
    fn text(&self, name: &str) -> Option<&str> {
        match self.field(name)? {
            RequestValue::Text(text) => Some(text),
            RequestValue::List(_) => None,
        }
    }
    /// A list field; `None` when the request has none by that name.
    fn list(&self, name: &str) -> Option<&[String]> {
        match self.field(name)? {
            RequestValue::List(list) => Some(list),
            RequestValue::Text(_) => None,
        }
    }
}

/// Which request value a record's field must match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// The request's string field (`keyword` of `search_volume/single`).
    Same,
    /// The request's string field, for the array's first element only (the searched keyword
    /// first in a video's `keywords`).
    First,
    /// The request list's item at the element's index (bulk: record `i` for keyword `i`).
    At,
    /// Any item of the request's list (the spec states no order).
    AnyOf,
}

/// How a response value is compared with a request value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// [`same_keyword`]: case, outer and repeated inner white space ignored.
    Keyword,
    /// Byte for byte.
    Exact,
    /// [`same_target`]: the same host (case, one trailing dot and `www.` ignored) and path.
    Target,
}

impl Compare {
    /// True when the response value `got` matches the request value `want`.
    pub fn holds(self, got: &str, want: &str) -> bool {
        match self {
            Compare::Keyword => same_keyword(got, want),
            Compare::Exact => got == want,
            Compare::Target => same_target(got, want),
        }
    }
    /// The JS function (of `twins.js`, or the validator's runtime) that tests the same.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn js(self) -> &'static str {
        match self {
            Compare::Keyword => "sameKeyword",
            Compare::Exact => "sameText",
            Compare::Target => "sameTarget",
        }
    }
}

/// A field of a record (or an array's string element) that echoes the request.
#[derive(Clone, Copy, Debug)]
pub struct Echo {
    /// The record's field; `None`: the element itself (an array of strings).
    pub field: Option<&'static str>,
    /// The request's field (a string for [`Match::Same`] / [`Match::First`], else a list).
    pub request: &'static str,
    /// Which request value it must match.
    pub how: Match,
    /// How it is compared.
    pub compare: Compare,
    /// How serious a mismatch is.
    pub severity: Severity,
    /// Rule code.
    pub code: RuleCode,
}

/// The element count equals the length of a request list.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    /// The request's list (`keywords`, `urls`).
    pub request: &'static str,
    /// How serious another count is.
    pub severity: Severity,
    /// Rule code.
    pub code: RuleCode,
}

/// The same target: `got` (a URL, or a bare domain) names what `want` (a URL, or a domain)
/// names. Hosts compare as the record keys' domains do (trimmed of ASCII white space, any case, one trailing dot
/// and a leading `www.` dropped); the scheme is ignored, and a path (with its query) must be
/// the same but for a trailing `/`. A bare domain also matches any URL of that host: the spec
/// says a metrics record's `url` is "the URL or domain queried".
pub fn same_target(got: &str, want: &str) -> bool {
    if got == want {
        return true;
    }
    let (got_url, got_host, got_path) = split_target(got);
    let (_, want_host, want_path) = split_target(want);
    got_host.eq_ignore_ascii_case(want_host)
        && (got_path == want_path || (!got_url && got_path.is_empty()))
}

/// Whether the text has a scheme, its host (one trailing dot and a leading `www.` dropped;
/// compared ignoring ASCII case) and its path (no trailing `/`). On bytes, with ASCII white
/// space and no slice that can panic: what a URL or domain holds, and no Unicode tables,
/// substring searcher or panic formatting in the JS package's wasm (measured: 0.4 kB gzip).
fn split_target(text: &str) -> (bool, &[u8], &[u8]) {
    let text = text.as_bytes().trim_ascii();
    let (url, rest) = match text.windows(3).position(|w| w == b"://") {
        Some(i) => (true, text.get(i + 3..).unwrap_or_default()),
        None => (false, text),
    };
    let end = rest
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let (host, mut path) = (
        rest.get(..end).unwrap_or_default(),
        rest.get(end..).unwrap_or_default(),
    );
    let host = host.strip_suffix(b".").unwrap_or(host);
    let host = match host.split_at_checked(4) {
        Some((www, bare)) if www.eq_ignore_ascii_case(b"www.") && !bare.is_empty() => bare,
        _ => host,
    };
    while let Some(rest) = path.strip_suffix(b"/") {
        path = rest;
    }
    (url, host, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        for (got, want) in [
            ("https://a.com/x", "https://a.com/x"),
            ("https://A.com/x/", "http://www.a.com/x"),
            ("a.com", "https://a.com/x?q=1"),
            ("example.com", "Example.COM."),
            ("https://example.com/", "www.example.com"),
            ("greenzone.com", "WWW.GREENZONE.COM"),
        ] {
            assert!(same_target(got, want), "{got} {want}");
        }
        for (got, want) in [
            ("https://a.com/y", "https://a.com/x"),
            ("b.com", "https://a.com/x"),
            ("https://a.com/x", "a.com"),
            ("www.", "a.com"),
        ] {
            assert!(!same_target(got, want), "{got} {want}");
        }
    }
}
