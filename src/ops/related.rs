//! `POST /v1/related`: related keywords with volume, CPC, competition and difficulty.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.15 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(150_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "keyword", "ccode"}`.
    Request {
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

/// Related keyword record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RelatedKeyword {
    /// The keyword.
    #[serde(default, deserialize_with = "lenient::string")]
    pub keyword: String,
    /// Competition, observed 0 to 1.
    #[serde(default, deserialize_with = "lenient::float")]
    pub competition: f64,
    /// Cost per click.
    #[serde(default, deserialize_with = "lenient::float")]
    pub cpc: f64,
    /// Search volume.
    #[serde(default, deserialize_with = "lenient::int")]
    pub search_volume: i64,
    /// Keyword difficulty, observed 0 to 100.
    #[serde(default, deserialize_with = "lenient::int")]
    pub kd: i64,
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Warning;
use crate::rules::{dsl::*, Array, ArrayRule, Node, Object, Order, RuleCode, SeqKey};

/// Shape of a related keyword record: `competition` observed 0..1 and `kd` observed
/// 0..100 (warnings `range`).
pub const RELATED_KEYWORD: Object = fields(&[
    req("keyword", STR),
    req("competition", num(&[range(0.0, 1.0, Warning)])),
    req("cpc", NUM),
    req("search_volume", INT),
    req("kd", int(&[range(0.0, 100.0, Warning)])),
]);

/// Response rules: related keyword records, by `search_volume` descending in observed
/// output (warning `order`; equal volumes are fine).
pub const RESPONSE: Node = array(&Array {
    items: object(&RELATED_KEYWORD),
    rules: &[ArrayRule::Seq {
        field: "search_volume",
        key: SeqKey::Int("search_volume"),
        order: Order::Desc,
        severity: Warning,
        code: RuleCode::Order,
        what: "observed output is ordered by search_volume descending",
    }],
});
