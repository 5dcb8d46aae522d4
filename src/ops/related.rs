//! `POST /v1/related`: related keywords with volume, CPC, competition and difficulty.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.15 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(150_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "keyword", "ccode"}`.
    Request as RelatedRequest {
        /// The seed keyword.
        keyword: String,
        /// Two-letter country code, upper case in requests (`US`).
        ccode: String,
    }
}

/// Response: related keyword records, by search volume descending in observed output.
pub type Response = Vec<RelatedKeyword>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::Related;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::keyword("/keyword", &self.keyword)?;
        check::ccode("/ccode", &self.ccode)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

// ---------------------------------------------------------------------------------------
// The response record: struct, rules and TS type in one declaration (read by the validator,
// `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Warning;
use crate::rules::{dsl::*, Array, ArrayRule, Node, Order, RuleCode, SeqKey};

super::record! {
    /// Related keyword record.
    pub struct RelatedKeyword {
        /// The keyword.
        req keyword: String = STR,
        /// Competition, observed 0 to 1.
        /// Spec: "competition | number | observed 0 to 1".
        req competition: f64 = num(&[range(0.0, 1.0, Warning)]),
        /// Cost per click.
        req cpc: f64 = NUM,
        /// Search volume.
        req search_volume: i64 = INT,
        /// Keyword difficulty, observed 0 to 100.
        /// Spec: "kd | integer | keyword difficulty, observed 0 to 100".
        req kd: i64 = int(&[range(0.0, 100.0, Warning)]),
    }
    /// Shape of a related keyword record: `competition` observed 0..1 and `kd` observed
    /// 0..100 (warnings `range`).
    pub const RELATED_KEYWORD: Object;
}

/// Response rules: related keyword records, by `search_volume` descending in observed
/// output (warning `order`; equal volumes are fine).
pub const RESPONSE: Node = array(&Array {
    items: object(&RELATED_KEYWORD),
    // Spec: "array ordered by `search_volume` descending in observed output".
    rules: &[ArrayRule::Seq {
        field: "search_volume",
        key: SeqKey::Int("search_volume"),
        order: Order::Desc,
        severity: Warning,
        code: RuleCode::Order,
        what: "observed output is ordered by search_volume descending",
    }],
});
