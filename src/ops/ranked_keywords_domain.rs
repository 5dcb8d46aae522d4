//! `POST /v1/ranked-keywords/domain`: the keywords a domain ranks for, with rank and URL.
//! Responses can hold tens of thousands of records.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.10 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(100_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "domain"}`.
    Request as DomainRequest {
        /// A domain name.
        domain: String,
    }
}

/// Response: an array of ranked keyword records.
pub type Response = Vec<RankedKeyword>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::RankedKeywordsDomain;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::domain("/domain", &self.domain)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

// ---------------------------------------------------------------------------------------
// The response record: struct, rules and TS type in one declaration (read by the
// validator, `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Warning;
use crate::rules::{dsl::*, Array, Node};

super::record! {
    /// Ranked keyword record.
    pub struct RankedKeyword {
        /// The keyword.
        req keyword: String = STR,
        /// Competition, observed between 0 and 100.
        /// Spec: "competition | number | observed values between 0 and 100".
        req competition: f64 = num(&[range(0.0, 100.0, Warning)]),
        /// Search volume.
        req search_volume: i64 = INT,
        /// Backlinks of the ranking URL.
        req total_backlinks: i64 = INT,
        /// Referring domains of the ranking URL.
        req total_referring_domains: i64 = INT,
        /// SERP position, from 1.
        /// Spec: "rank | integer | SERP position" (no bound stated: a warning).
        req rank: i64 = int(&[range(1.0, f64::INFINITY, Warning)]),
        /// Ranking URL.
        req url: String = URL,
    }
    /// Shape of a ranked keyword record; `competition` observed 0..100 (warning `range`).
    /// Decided: `rank` is a "SERP position", and positions count from 1, but the spec states
    /// no bound, so 0 or a negative rank is a warning `range` (TESTING.md, "Rules
    /// downgraded"); no upper bound is stated (the metrics' buckets stop at 100, but a
    /// domain's ranked keywords may go further).
    pub const RANKED_KEYWORD: Object;
}

/// Response rules: an array of [`RANKED_KEYWORD`]s (no order is stated).
pub const RESPONSE: Node = array(&Array {
    items: object(&RANKED_KEYWORD),
    rules: &[],
});
