//! `POST /v1/ranked-keywords/domain`: the keywords a domain ranks for, with rank and URL.
//! Responses can hold tens of thousands of records.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.10 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(100_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "domain"}`.
    Request {
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

/// Ranked keyword record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankedKeyword {
    /// The keyword.
    #[serde(default, deserialize_with = "lenient::string")]
    pub keyword: String,
    /// Competition, observed between 0 and 100.
    #[serde(default, deserialize_with = "lenient::float")]
    pub competition: f64,
    /// Search volume.
    #[serde(default, deserialize_with = "lenient::int")]
    pub search_volume: i64,
    /// Backlinks of the ranking URL.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total_backlinks: i64,
    /// Referring domains of the ranking URL.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total_referring_domains: i64,
    /// SERP position.
    #[serde(default, deserialize_with = "lenient::int")]
    pub rank: i64,
    /// Ranking URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Warning;
use crate::rules::{dsl::*, Array, Node, Object};

/// Shape of a ranked keyword record; `competition` observed 0..100 (warning `range`).
pub const RANKED_KEYWORD: Object = fields(&[
    req("keyword", STR),
    req("competition", num(&[range(0.0, 100.0, Warning)])),
    req("search_volume", INT),
    req("total_backlinks", INT),
    req("total_referring_domains", INT),
    req("rank", INT),
    req("url", URL),
]);

/// Response rules: an array of [`RANKED_KEYWORD`]s (no order is stated).
pub const RESPONSE: Node = array(&Array {
    items: object(&RANKED_KEYWORD),
    rules: &[],
});
