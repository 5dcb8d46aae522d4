//! `POST /v1/ranked-keywords/metrics`: count of ranked keywords per domain, split into rank
//! ranges. The spec has no field for positions 61 to 70; neither do we.

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

/// Response: a record per domain (many for one requested domain in observed output).
pub type Response = Vec<RankedKeywordsMetrics>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::RankedKeywordsMetrics;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::domain("/domain", &self.domain)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

/// Ranked keywords metrics record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankedKeywordsMetrics {
    /// The domain.
    #[serde(default, deserialize_with = "lenient::string")]
    pub domain: String,
    /// All ranked keywords.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total_ranked_keywords: i64,
    /// Keywords at position 1.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_1: i64,
    /// Positions 2–3.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_2_3: i64,
    /// Positions 4–10.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_4_10: i64,
    /// Positions 11–20.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_11_20: i64,
    /// Positions 21–30.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_21_30: i64,
    /// Positions 31–40.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_31_40: i64,
    /// Positions 41–50.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_41_50: i64,
    /// Positions 51–60.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_51_60: i64,
    /// Positions 71–80 (there is no 61–70 field).
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_71_80: i64,
    /// Positions 81–90.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_81_90: i64,
    /// Positions 91–100.
    #[serde(default, deserialize_with = "lenient::int")]
    pub position_91_100: i64,
}

impl RankedKeywordsMetrics {
    /// The rank buckets in order, as (label, count). 61–70 is absent from the spec.
    pub fn buckets(&self) -> [(&'static str, i64); 11] {
        [
            ("1", self.position_1),
            ("2-3", self.position_2_3),
            ("4-10", self.position_4_10),
            ("11-20", self.position_11_20),
            ("21-30", self.position_21_30),
            ("31-40", self.position_31_40),
            ("41-50", self.position_41_50),
            ("51-60", self.position_51_60),
            ("71-80", self.position_71_80),
            ("81-90", self.position_81_90),
            ("91-100", self.position_91_100),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::{dsl::*, Array, Node, Object};

/// Shape of a ranked keywords metrics record (no field for positions 61 to 70: a
/// `position_61_70` key would be reported as unknown).
pub const RANKED_KEYWORDS_METRICS: Object = fields(&[
    req("domain", STR),
    req("total_ranked_keywords", INT),
    req("position_1", INT),
    req("position_2_3", INT),
    req("position_4_10", INT),
    req("position_11_20", INT),
    req("position_21_30", INT),
    req("position_31_40", INT),
    req("position_41_50", INT),
    req("position_51_60", INT),
    req("position_71_80", INT),
    req("position_81_90", INT),
    req("position_91_100", INT),
]);

/// Response rules: an array of [`RANKED_KEYWORDS_METRICS`] (how the domains relate to the
/// requested one is not shown, so nothing is checked against the request).
pub const RESPONSE: Node = array(&Array {
    items: object(&RANKED_KEYWORDS_METRICS),
    rules: &[],
});
