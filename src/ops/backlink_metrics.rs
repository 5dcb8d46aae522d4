//! `POST /v1/backlink/metrics`: backlink counts for URLs. Also home of the page backlink
//! metrics shape that `backlink/overview` reuses for its `metrics` object.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.05 per URL in the request.
///
/// Decision: the spec prices this operation "per domain, per request" while the request
/// carries `urls`. We charge (and estimate) $0.05 for each entry of `urls`: each entry is one
/// target the service looks up and returns one record for, and this reading is the largest of
/// the possible ones (per URL ≥ per distinct domain ≥ per request), so a budget check never
/// lets through a call that costs more than estimated. The sandbox charges the same way. JS
/// users read the decision beside the price (`PriceUnit::meaning`).
pub const PRICE: Price = Price {
    usd: Usd::from_micros(50_000),
    unit: PriceUnit::PerUrl,
};

super::request! {
    /// Request body: `{"key", "urls"}`.
    Request as BacklinkMetricsRequest {
        /// Full URLs (`https://example.com/page`).
        urls: Vec<String>,
    }
}

/// Response: one record per URL.
pub type Response = Vec<PageBacklinkMetrics>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::BacklinkMetrics;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::urls("/urls", &self.urls)
    }
    fn billable_units(&self) -> u64 {
        self.urls.len() as u64
    }
    super::key_accessors!();
}

// ---------------------------------------------------------------------------------------
// The response record: struct, rules and TS type in one declaration (read by the validator,
// `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::{dsl::*, Array, Compare, Match, Node, RuleCode, Severity::Error};

super::record! {
    /// Page backlink metrics record (also the start of `backlink/overview`'s `metrics`).
    pub struct PageBacklinkMetrics {
        /// All backlinks.
        req backlinks: i64 = INT,
        /// Dofollow backlinks.
        req dofollow_backlinks: i64 = INT,
        /// Nofollow backlinks.
        req nofollow_backlinks: i64 = INT,
        /// Backlinks from .edu domains.
        req edu_backlinks: i64 = INT,
        /// Backlinks from .gov domains.
        req gov_backlinks: i64 = INT,
        /// Referring IPs.
        req ips: i64 = INT,
        /// Referring domains.
        req refdomains: i64 = INT,
        /// Referring subnets.
        req subnets: i64 = INT,
        /// The URL or domain queried.
        req url: String = STR,
    }
    /// Shape of a page backlink metrics record.
    pub const PAGE_BACKLINK_METRICS: Object;
}

/// Response rules: an array of [`PAGE_BACKLINK_METRICS`]; with the request, one record per
/// requested URL (error `record_count`), each for a requested URL (error `request_url`).
///
/// Decided: the spec states no order, so a record may answer any requested URL; its `url` is
/// "the URL or domain queried", so it matches a requested URL as [`crate::rules::same_target`] compares
/// (case of the host, `www.`, the scheme and a trailing `/` aside), or is that URL's bare
/// domain.
pub const RESPONSE: Node = array(&Array {
    items: object(&PAGE_BACKLINK_METRICS),
    rules: &[
        // Spec: "url | string (the URL or domain queried)".
        echoes_request_items(
            "url",
            "urls",
            Match::AnyOf,
            Compare::Target,
            RuleCode::RequestUrl,
            Error,
        ),
        // Spec: "array of page backlink metrics records, one per URL".
        count_equals_request("urls", Error),
    ],
});
