//! `POST /v1/backlink/overview`: the backlink profile of a whole domain, daily new/lost
//! counts, and new/lost referring domains. Responses are very large.

use serde::{Deserialize, Serialize};

use super::backlink_metrics::PageBacklinkMetrics;
use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "domain"}`.
    Request {
        /// A domain name.
        domain: String,
    }
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

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use super::backlink_metrics::PAGE_BACKLINK_FIELDS;
use crate::rules::Severity::{Error, Warning};
use crate::rules::{
    dsl::*, Array, ArrayRule, Field, Node, Object, Order, RuleCode, SeqKey, StringRule,
};

const TIMESTAMP: Node = string(&[StringRule::Timestamp { millis: false }]);
const DATE: Node = string(&[StringRule::Date]);

const METRICS_FIELDS: [Field; 13] = concat(
    &PAGE_BACKLINK_FIELDS,
    &[
        req("_id", STR),
        req("__v", INT),
        req("createdAt", TIMESTAMP),
        req("updatedAt", TIMESTAMP),
    ],
);

/// Shape of `metrics`: the page backlink metrics fields plus `_id`, `__v` and the
/// `createdAt` / `updatedAt` ISO 8601 UTC timestamps (error `timestamp`; fraction optional).
pub const OVERVIEW_METRICS: Object = fields(&METRICS_FIELDS);

/// Shape of a `stats` element.
pub const DAILY_STAT: Object = fields(&[req("date", DATE), req("new", INT), req("lost", INT)]);

/// `stats` rules: newest date first, strictly (error `order`: one entry per day); observed
/// as consecutive days (warning `consecutive_days`) and 64 entries (warning `stats_count`).
pub const STATS: Node = array(&Array {
    items: object(&DAILY_STAT),
    rules: &[
        ArrayRule::Seq {
            field: "date",
            key: SeqKey::Date("date"),
            order: Order::StrictDesc,
            severity: Error,
            code: RuleCode::Order,
            what: "stats must be ordered newest date first",
        },
        ArrayRule::Seq {
            field: "date",
            key: SeqKey::Date("date"),
            order: Order::Step(-1),
            severity: Warning,
            code: RuleCode::ConsecutiveDays,
            what: "observed stats span consecutive days",
        },
        ArrayRule::Len {
            min: 64,
            max: 64,
            severity: Warning,
            code: RuleCode::StatsCount,
        },
    ],
});

/// Shape of a `ref_newlost` element: dates `YYYY-MM-DD` (error `date_format`),
/// `new_lost_type` `new` or `lost` (error `enum`), `domain_inlink_rank` observed 0..100
/// (warning `range`).
pub const REF_NEW_LOST: Object = fields(&[
    req("new_lost_date", DATE),
    req(
        "new_lost_type",
        string(&[StringRule::OneOf(&["new", "lost"], Error)]),
    ),
    req("refdomain", STR),
    req("backlinks", INT),
    req("dofollow_backlinks", INT),
    req("first_seen", DATE),
    req("domain_inlink_rank", int(&[range(0.0, 100.0, Warning)])),
]);

/// `ref_newlost` rules: ordered by `domain_inlink_rank` descending in observed output
/// (warning `order`).
pub const REF_NEW_LOST_LIST: Node = array(&Array {
    items: object(&REF_NEW_LOST),
    rules: &[ArrayRule::Seq {
        field: "domain_inlink_rank",
        key: SeqKey::Int("domain_inlink_rank"),
        order: Order::Desc,
        severity: Warning,
        code: RuleCode::Order,
        what: "observed output is ordered by domain_inlink_rank descending",
    }],
});

/// Response rules: the overview object. Fields after `ref_newlost` are "not shown": any
/// other key is an `unknown_field` warning.
pub const RESPONSE: Node = object(&Object {
    fields: &[
        req("metrics", object(&OVERVIEW_METRICS)),
        req("stats", STATS),
        req("ref_newlost", REF_NEW_LOST_LIST),
    ],
    extra: None,
    checks: &[],
});
