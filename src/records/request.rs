//! The key of a whole request: what the app and the JS package store a request's result
//! under, so one item asked in another form ("Running  Shoes", `WWW.Example.com.`) finds the
//! result bought before. It uses the record keys' normalisation ([`super::key`]) for every
//! field, lists as sets, and starts with the source, so a result bought from one source
//! (demo mode's sandbox, one base URL) never answers a request to another.

use super::key::{normalize_ccode, normalize_domain, normalize_keyword};
use crate::ops::Request;

/// `source|operation|inputs`, inputs normalised like record keys (keywords: case and white
/// space; domains: case, a trailing `.`, `www.`; country codes: case; URLs as given), lists
/// sorted and without duplicates. `source` is [`super::source_of`] the base URL.
pub fn request_key(request: &Request, source: &str) -> String {
    let set = |items: Vec<String>| {
        let mut items = items;
        items.sort();
        items.dedup();
        items.join("\n")
    };
    let inputs = match request {
        Request::SearchVolumeBulk(q) => format!(
            "{}|{}",
            normalize_ccode(&q.ccode),
            set(q.keywords.iter().map(|k| normalize_keyword(k)).collect())
        ),
        Request::SearchVolumeSingle(q) => {
            format!(
                "{}|{}",
                normalize_ccode(&q.ccode),
                normalize_keyword(&q.keyword)
            )
        }
        Request::Related(q) => {
            format!(
                "{}|{}",
                normalize_ccode(&q.ccode),
                normalize_keyword(&q.keyword)
            )
        }
        Request::DomainStats(q) => set(q.domains.iter().map(|d| normalize_domain(d)).collect()),
        Request::BacklinkMetrics(q) => set(q.urls.clone()),
        Request::RankedKeywordsMetrics(q) => normalize_domain(&q.domain),
        Request::RankedKeywordsDomain(q) => normalize_domain(&q.domain),
        Request::BacklinkOverview(q) => normalize_domain(&q.domain),
        Request::OutlineSeo(q) => normalize_keyword(&q.keyword),
        Request::MicroblogPost(q) => normalize_keyword(&q.keyword),
        Request::VideoVideo(q) => normalize_keyword(&q.keyword),
    };
    // The source may hold `|`; the operation path and the inputs after it cannot make two
    // sources collide, as the source is escaped.
    format!(
        "{}|{}|{inputs}",
        source.replace('%', "%25").replace('|', "%7C"),
        request.operation().path()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{domainstats, related, search_volume_bulk};

    fn related(keyword: &str, ccode: &str) -> Request {
        Request::Related(related::Request {
            key: Default::default(),
            keyword: keyword.into(),
            ccode: ccode.into(),
        })
    }

    #[test]
    fn one_key_per_item_whatever_its_form() {
        let s = "https://api.example.com";
        assert_eq!(
            request_key(&related(" Running  SHOES", "us"), s),
            request_key(&related("running shoes", "US"), s)
        );
        assert_ne!(
            request_key(&related("running shoes", "US"), s),
            request_key(&related("running shoes", "GB"), s)
        );
        assert_ne!(
            request_key(&related("running shoes", "US"), s),
            request_key(&related("running shoes", "US"), "sandbox://demo")
        );
        let domains = |d: &[&str]| {
            Request::DomainStats(domainstats::Request {
                key: Default::default(),
                domains: d.iter().map(|s| s.to_string()).collect(),
            })
        };
        assert_eq!(
            request_key(&domains(&["b.com", "Example.COM."]), s),
            request_key(&domains(&["example.com", "b.com", "example.com"]), s)
        );
        let bulk = |k: &[&str]| {
            Request::SearchVolumeBulk(search_volume_bulk::Request {
                key: Default::default(),
                keywords: k.iter().map(|s| s.to_string()).collect(),
                ccode: "US".into(),
            })
        };
        assert_eq!(
            request_key(&bulk(&["b", "A"]), s),
            request_key(&bulk(&["a", "b"]), s)
        );
        assert!(request_key(&bulk(&["a"]), s)
            .starts_with("https://api.example.com|search_volume/bulk|US|"));
        // A `|` in the source is escaped.
        assert_ne!(
            request_key(&related("x", "US"), "a|related|US"),
            request_key(&related("US|x", "US"), "a")
        );
    }
}
