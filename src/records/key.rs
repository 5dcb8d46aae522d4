//! Record keys: which bought record answers which requested item.
//!
//! Decisions (the spec says nothing about how the service compares inputs):
//! - **Keyword**: white space at either end is ignored, runs of inner white space count as one
//!   space, and case is ignored (Unicode lower case, per character). `"  Running   SHOES "`
//!   and `"running shoes"` are one record. Anything beyond that (plurals, accents,
//!   punctuation) is a different keyword. The validator's keyword cross-checks, the planner
//!   and the app's lists all use [`normalize_keyword`] / [`same_keyword`].
//! - **Country** (`ccode`): upper case, white space trimmed.
//! - **Domain**: white space trimmed, ASCII lower case, one trailing `.` dropped, and a leading
//!   `www.` dropped: SEO tools report a domain's metrics at the host level without `www`, and
//!   the sandbox answers `www.example.com` and `example.com` with one record. A scheme is kept
//!   (a domain field is not a URL).
//! - **URL** (`backlink/metrics`): exactly as given. URLs are case-sensitive in their path
//!   and the service's own normalisation is not documented, so no two spellings are merged.
//! - **Source**: every key starts with where the record was bought ([`source_of`] the base
//!   URL), so demo records are never reused in live mode, nor one service's records for
//!   another's.

use std::fmt;

pub use crate::keyword::{normalize_keyword, same_keyword};
use crate::ops::{Operation, Request};

/// The kinds of record that are priced one by one and so can be reused one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// A search volume record: `search_volume/bulk` (per keyword and country) and
    /// `search_volume/single` (the same record for one keyword) share them.
    SearchVolume,
    /// A `domainstats` record (per domain).
    DomainStats,
    /// A `backlink/metrics` record (per URL).
    BacklinkMetrics,
}

impl RecordKind {
    /// Every kind.
    pub const ALL: [RecordKind; 3] = [
        RecordKind::SearchVolume,
        RecordKind::DomainStats,
        RecordKind::BacklinkMetrics,
    ];

    /// The kind of record an operation is priced by, if it is priced per record.
    pub fn of(operation: Operation) -> Option<RecordKind> {
        match operation {
            Operation::SearchVolumeBulk | Operation::SearchVolumeSingle => {
                Some(RecordKind::SearchVolume)
            }
            Operation::DomainStats => Some(RecordKind::DomainStats),
            Operation::BacklinkMetrics => Some(RecordKind::BacklinkMetrics),
            _ => None,
        }
    }

    /// Stable name: `search_volume`, `domainstats`, `backlink/metrics` (the record caches'
    /// "operation" argument).
    pub fn name(self) -> &'static str {
        match self {
            RecordKind::SearchVolume => "search_volume",
            RecordKind::DomainStats => "domainstats",
            RecordKind::BacklinkMetrics => "backlink/metrics",
        }
    }

    /// The kind named by [`Self::name`].
    pub fn from_name(name: &str) -> Option<RecordKind> {
        RecordKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What one record is, for people: "keyword", "domain", "URL".
    pub fn noun(self) -> &'static str {
        match self {
            RecordKind::SearchVolume => "keyword",
            RecordKind::DomainStats => "domain",
            RecordKind::BacklinkMetrics => "URL",
        }
    }
}

/// The key of one record: source, kind, and the normalised item
/// (`https://api.example.com|search_volume|US|running shoes`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordKey(String);

impl RecordKey {
    /// The key as text (what record stores index by).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A key read back from a store, as it was written by [`Self::as_str`].
    pub fn from_stored(text: impl Into<String>) -> RecordKey {
        RecordKey(text.into())
    }

    /// The kind and the rest (`US|running shoes`, `example.com`) of a key written from
    /// `source`; `None` for a key of another source or kind. A team server hands its records
    /// on this way, and each client keys them again from its own source ([`Self::from_parts`]).
    pub fn split(&self, source: &str) -> Option<(RecordKind, &str)> {
        let mut prefix = String::with_capacity(source.len() + 1);
        push_escaped(&mut prefix, source);
        prefix.push('|');
        let (kind, rest) = self.0.strip_prefix(&prefix)?.split_once('|')?;
        Some((RecordKind::from_name(kind)?, rest))
    }

    /// The key of a record from `source` whose kind and rest are [`Self::split`]'s.
    pub fn from_parts(source: &str, kind: RecordKind, rest: &str) -> RecordKey {
        RecordKey::new(source, kind, None, rest)
    }

    fn new(source: &str, kind: RecordKind, scope: Option<&str>, item: &str) -> RecordKey {
        let mut s = String::with_capacity(source.len() + item.len() + 24);
        // `|` separates the parts; the item comes last, so only the parts before it escape it.
        push_escaped(&mut s, source);
        s.push('|');
        s.push_str(kind.name());
        s.push('|');
        if let Some(scope) = scope {
            push_escaped(&mut s, scope);
            s.push('|');
        }
        s.push_str(item);
        RecordKey(s)
    }
}

impl fmt::Display for RecordKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn push_escaped(out: &mut String, part: &str) {
    for c in part.chars() {
        match c {
            '|' => out.push_str("%7C"),
            '%' => out.push_str("%25"),
            c => out.push(c),
        }
    }
}

/// A country code as record keys see it: trimmed, upper case.
pub fn normalize_ccode(ccode: &str) -> String {
    ccode.trim().to_ascii_uppercase()
}

/// A domain as record keys see it: trimmed, ASCII lower case, one trailing `.` and a leading
/// `www.` dropped.
pub fn normalize_domain(domain: &str) -> String {
    let d = domain.trim();
    let d = d.strip_suffix('.').unwrap_or(d).to_ascii_lowercase();
    match d.strip_prefix("www.") {
        // `www.` alone is no host: kept as written.
        Some(host) if !host.is_empty() => host.to_string(),
        _ => d,
    }
}

/// Where records come from, from a client's base URL: scheme and host in lower case, the
/// path as it is, without trailing `/` (`HTTPS://API.Example.com/` → `https://api.example.com`).
pub fn source_of(base_url: &str) -> String {
    let url = base_url.trim().trim_end_matches('/');
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (s.to_ascii_lowercase(), r),
        None => return url.to_string(),
    };
    let (host, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    format!("{scheme}://{}{path}", host.to_ascii_lowercase())
}

/// The key of a search volume record.
pub fn search_volume_key(source: &str, ccode: &str, keyword: &str) -> RecordKey {
    RecordKey::new(
        source,
        RecordKind::SearchVolume,
        Some(&normalize_ccode(ccode)),
        &normalize_keyword(keyword),
    )
}

/// The key of a domain stats record.
pub fn domain_key(source: &str, domain: &str) -> RecordKey {
    RecordKey::new(
        source,
        RecordKind::DomainStats,
        None,
        &normalize_domain(domain),
    )
}

/// The key of a page backlink metrics record (the URL as given).
pub fn url_key(source: &str, url: &str) -> RecordKey {
    RecordKey::new(source, RecordKind::BacklinkMetrics, None, url)
}

/// The record kind and one key per requested item, in request order (duplicates included),
/// or `None` for an operation priced per request.
pub fn request_keys(request: &Request, source: &str) -> Option<(RecordKind, Vec<RecordKey>)> {
    let keys = match request {
        Request::SearchVolumeBulk(q) => q
            .keywords
            .iter()
            .map(|k| search_volume_key(source, &q.ccode, k))
            .collect(),
        Request::SearchVolumeSingle(q) => vec![search_volume_key(source, &q.ccode, &q.keyword)],
        Request::DomainStats(q) => q.domains.iter().map(|d| domain_key(source, d)).collect(),
        Request::BacklinkMetrics(q) => q.urls.iter().map(|u| url_key(source, u)).collect(),
        _ => return None,
    };
    Some((RecordKind::of(request.operation())?, keys))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_split_from_one_source_is_the_same_record_from_another() {
        let team = search_volume_key("http://team:9|x", "us", "Running  Shoes");
        let (kind, rest) = team.split("http://team:9|x").unwrap();
        assert_eq!((kind, rest), (RecordKind::SearchVolume, "US|running shoes"));
        assert_eq!(
            RecordKey::from_parts("https://app.example", kind, rest),
            search_volume_key("https://app.example", "US", "running shoes")
        );
        assert_eq!(team.split("http://team:9"), None);
        let d = domain_key("s", "WWW.Example.com");
        assert_eq!(d.split("s"), Some((RecordKind::DomainStats, "example.com")));
    }

    #[test]
    fn keywords_normalise_case_and_white_space() {
        assert_eq!(normalize_keyword("  Running \t  SHOES "), "running shoes");
        assert_eq!(normalize_keyword("ÉTÉ"), "été");
        assert_eq!(normalize_keyword(""), "");
        for (a, b) in [
            ("a  b", "A B"),
            ("a b", "ab"),
            (" x", "x "),
            ("ΣΑΣ", "σας"),
            ("İ", "i̇"),
            ("", " "),
        ] {
            assert_eq!(
                same_keyword(a, b),
                normalize_keyword(a) == normalize_keyword(b),
                "{a:?} {b:?}"
            );
        }
    }

    #[test]
    fn keys_hold_source_kind_and_item() {
        let live = source_of("HTTPS://API.Example.com/Base/");
        assert_eq!(live, "https://api.example.com/Base");
        assert_eq!(
            search_volume_key(&live, "us ", " Trail  Shoes").as_str(),
            "https://api.example.com/Base|search_volume|US|trail shoes"
        );
        assert_ne!(
            search_volume_key("sandbox://demo", "US", "x"),
            search_volume_key(&live, "US", "x")
        );
        assert_ne!(
            search_volume_key(&live, "US", "x"),
            search_volume_key(&live, "GB", "x")
        );
        assert_eq!(
            domain_key(&live, " Example.COM. "),
            domain_key(&live, "example.com")
        );
        assert_eq!(
            domain_key(&live, "WWW.example.com."),
            domain_key(&live, "example.com")
        );
        assert_eq!(normalize_domain(" www. "), "www");
        assert_eq!(normalize_domain("www2.example.com"), "www2.example.com");
        assert_eq!(normalize_domain("https://www.e.com"), "https://www.e.com");
        assert_ne!(
            url_key(&live, "https://e.com/A"),
            url_key(&live, "https://e.com/a")
        );
        // A `|` in the source cannot make two keys collide.
        assert_ne!(
            domain_key("a|domainstats|b", "c"),
            domain_key("a", "b|domainstats|c")
        );
    }
}
