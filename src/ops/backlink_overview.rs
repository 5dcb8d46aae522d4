//! `POST /v1/backlink/overview`: the backlink profile of a whole domain, daily new/lost
//! counts, and new/lost referring domains. Responses are very large.

use serde::{Deserialize, Serialize};

use super::backlink_metrics::PageBacklinkMetrics;
use super::{check, lenient, ApiKey, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

/// Request body: `{"key", "domain"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The API key.
    #[serde(default)]
    pub key: ApiKey,
    /// A domain name.
    pub domain: String,
}

/// Response: one overview object.
pub type Response = DomainOverview;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::BacklinkOverview;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::domain("/domain", &self.domain)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

/// Domain overview response. The spec says further fields after `ref_newlost` are "not
/// shown"; they are ignored by the decoder and reported as unknown (a warning) by the validator.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DomainOverview {
    /// Backlink metrics of the domain.
    #[serde(default)]
    pub metrics: OverviewMetrics,
    /// Daily new/lost backlink counts, newest date first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub stats: Vec<DailyStat>,
    /// New or lost referring domains.
    #[serde(default, deserialize_with = "lenient::list")]
    pub ref_newlost: Vec<RefNewLost>,
}

/// The `metrics` object: page backlink metrics plus record bookkeeping.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OverviewMetrics {
    /// The page backlink metrics fields.
    #[serde(flatten)]
    pub backlinks: PageBacklinkMetrics,
    /// Record id.
    #[serde(rename = "_id", default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Record version.
    #[serde(rename = "__v", default, deserialize_with = "lenient::int")]
    pub version: i64,
    /// ISO 8601 UTC creation time.
    #[serde(rename = "createdAt", default, deserialize_with = "lenient::string")]
    pub created_at: String,
    /// ISO 8601 UTC update time.
    #[serde(rename = "updatedAt", default, deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// One day of new/lost backlinks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DailyStat {
    /// `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// New backlinks that day.
    #[serde(default, deserialize_with = "lenient::int")]
    pub new: i64,
    /// Lost backlinks that day.
    #[serde(default, deserialize_with = "lenient::int")]
    pub lost: i64,
}

/// A referring domain gained or lost (one entry per event; a domain may repeat).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RefNewLost {
    /// `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub new_lost_date: String,
    /// `new` or `lost`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub new_lost_type: String,
    /// The referring domain.
    #[serde(default, deserialize_with = "lenient::string")]
    pub refdomain: String,
    /// Backlinks from it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub backlinks: i64,
    /// Dofollow backlinks from it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub dofollow_backlinks: i64,
    /// `YYYY-MM-DD` first seen.
    #[serde(default, deserialize_with = "lenient::string")]
    pub first_seen: String,
    /// Inlink rank, observed 0 to 100.
    #[serde(default, deserialize_with = "lenient::int")]
    pub domain_inlink_rank: i64,
}
