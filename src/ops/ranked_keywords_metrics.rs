//! `POST /v1/ranked-keywords/metrics`: count of ranked keywords per domain, split into rank
//! ranges. The spec has no field for positions 61 to 70; neither do we.

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

// ---------------------------------------------------------------------------------------
// The response record: struct, rules and TS type in one declaration (read by the
// validator, `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::{dsl::*, Array, Node};

super::record! {
    /// Ranked keywords metrics record. There is no field for positions 61 to 70.
    pub struct RankedKeywordsMetrics {
        /// The domain.
        req domain: String = STR,
        /// All ranked keywords.
        req total_ranked_keywords: i64 = INT,
        /// Keywords at position 1.
        req position_1: i64 = INT,
        /// Positions 2–3.
        req position_2_3: i64 = INT,
        /// Positions 4–10.
        req position_4_10: i64 = INT,
        /// Positions 11–20.
        req position_11_20: i64 = INT,
        /// Positions 21–30.
        req position_21_30: i64 = INT,
        /// Positions 31–40.
        req position_31_40: i64 = INT,
        /// Positions 41–50.
        req position_41_50: i64 = INT,
        /// Positions 51–60.
        req position_51_60: i64 = INT,
        /// Positions 71–80 (there is no 61–70 field).
        req position_71_80: i64 = INT,
        /// Positions 81–90.
        req position_81_90: i64 = INT,
        /// Positions 91–100.
        req position_91_100: i64 = INT,
    }
    /// Shape of a ranked keywords metrics record (no field for positions 61 to 70: a
    /// `position_61_70` key would be reported as unknown).
    pub const RANKED_KEYWORDS_METRICS: Object;
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

/// Response rules: an array of [`RANKED_KEYWORDS_METRICS`] (how the domains relate to the
/// requested one is not shown, so nothing is checked against the request).
pub const RESPONSE: Node = array(&Array {
    items: object(&RANKED_KEYWORDS_METRICS),
    rules: &[],
});
