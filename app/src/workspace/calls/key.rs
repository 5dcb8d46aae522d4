//! The cache key of a request's stored result: one key per item and source, from the core's
//! [`serpkit::records::request_key`] (the same normalisation as record keys: case and white
//! space of keywords, `www.` of domains), hashed to a short stable text. The source is part
//! of it, so a result bought in demo mode never answers a live call, nor one base URL's
//! another's.

use serpkit::Request;

use crate::model::hash_hex;

/// `<operation path>:<hash of the request's key>`.
pub fn cache_key(request: &Request, source: &str) -> String {
    format!(
        "{}:{}",
        request.operation().path(),
        hash_hex(&serpkit::records::request_key(request, source))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serpkit::ops::{related, search_volume_bulk};

    fn related(keyword: &str) -> Request {
        Request::Related(related::Request {
            key: Default::default(),
            keyword: keyword.into(),
            ccode: "US".into(),
        })
    }

    #[test]
    fn one_key_per_item_and_source() {
        let live = "https://api.example.com";
        let demo = "sandbox://demo";
        assert_eq!(
            cache_key(&related("Running  Shoes "), live),
            cache_key(&related("running shoes"), live)
        );
        assert_ne!(
            cache_key(&related("running shoes"), live),
            cache_key(&related("running shoes"), demo),
            "a demo result never answers a live call"
        );
        assert_ne!(
            cache_key(&related("running shoes"), live),
            cache_key(&related("running shoe"), live)
        );
        assert!(cache_key(&related("x"), live).starts_with("related:"));
        let bulk = |k: &[&str]| {
            Request::SearchVolumeBulk(search_volume_bulk::Request {
                key: Default::default(),
                keywords: k.iter().map(|s| s.to_string()).collect(),
                ccode: "us".into(),
            })
        };
        assert_eq!(
            cache_key(&bulk(&["b", "A"]), live),
            cache_key(&bulk(&["a", "b", "a"]), live),
            "a bulk list is a set"
        );
    }
}
