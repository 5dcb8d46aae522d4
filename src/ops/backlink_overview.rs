//! `POST /v1/backlink/overview`: the backlink profile of a whole domain, daily new/lost
//! counts, and new/lost referring domains. Responses are very large.

use super::backlink_metrics::PageBacklinkMetrics;
use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "domain"}`.
    Request as DomainRequest {
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

// ---------------------------------------------------------------------------------------
// The response records: struct, rules and TS type in one declaration each (read by the
// validator, `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::{Error, Warning};
use crate::rules::{dsl::*, Array, ArrayRule, Compare, Node, Order, RuleCode, SeqKey, StringRule};

/// Spec: "`createdAt` and `updatedAt` (ISO 8601 UTC timestamps)".
const TIMESTAMP: Node = string(&[StringRule::Timestamp { millis: false }]);
/// Spec: "`date` (string, `YYYY-MM-DD`)", and `new_lost_date`, `first_seen` "`YYYY-MM-DD`".
const DATE: Node = string(&[StringRule::Date]);

super::record! {
    /// The `metrics` object: page backlink metrics plus record bookkeeping.
    pub struct OverviewMetrics {
        ..backlinks: PageBacklinkMetrics,
        /// Record id.
        req "_id" id: String = STR,
        /// Record version.
        req "__v" version: i64 = INT,
        /// ISO 8601 UTC creation time.
        req "createdAt" created_at: String = TIMESTAMP,
        /// ISO 8601 UTC update time.
        req "updatedAt" updated_at: String = TIMESTAMP,
    }
    /// Shape of `metrics`: the page backlink metrics fields plus `_id`, `__v` and the
    /// `createdAt` / `updatedAt` ISO 8601 UTC timestamps (error `timestamp`; fraction optional).
    /// With the request, `url` is "the URL or domain queried": the requested domain, as
    /// [`crate::rules::same_target`] compares (case, `www.`, a trailing dot, or the domain's
    /// root URL `https://example.com/`), error `request_domain`.
    pub const OVERVIEW_METRICS: Object {
        // Spec: "url | string (the URL or domain queried)".
        echoes: &[same_as_request("url", "domain", Compare::Target, RuleCode::RequestDomain)],
    };
}

super::record! {
    /// One day of new/lost backlinks.
    pub struct DailyStat {
        /// `YYYY-MM-DD`.
        req date: String = DATE,
        /// New backlinks that day.
        req new: i64 = INT,
        /// Lost backlinks that day.
        req lost: i64 = INT,
    }
    /// Shape of a `stats` element.
    pub const DAILY_STAT: Object;
}

/// `stats` rules: newest date first, strictly (error `order`: one entry per day); observed
/// as consecutive days (warning `consecutive_days`) and 64 entries (warning `stats_count`).
pub const STATS: Node = array(&Array {
    items: object(&DAILY_STAT),
    rules: &[
        // Spec: "stats | array | daily entries, newest date first".
        ArrayRule::Seq {
            field: "date",
            key: SeqKey::Date("date"),
            order: Order::StrictDesc,
            severity: Error,
            code: RuleCode::Order,
            what: "stats must be ordered newest date first",
        },
        // Spec: "Observed span is consecutive days, 64 entries" (observed: a warning).
        ArrayRule::Seq {
            field: "date",
            key: SeqKey::Date("date"),
            order: Order::Step(-1),
            severity: Warning,
            code: RuleCode::ConsecutiveDays,
            what: "observed stats span consecutive days",
        },
        // Spec: "Observed span is consecutive days, 64 entries" (observed: a warning).
        ArrayRule::Len {
            min: 64,
            max: 64,
            severity: Warning,
            code: RuleCode::StatsCount,
        },
    ],
});

super::record! {
    /// A referring domain gained or lost (one entry per event; a domain may repeat).
    pub struct RefNewLost {
        /// `YYYY-MM-DD`.
        req new_lost_date: String = DATE,
        /// `new` or `lost`.
        /// Spec: "new_lost_type | string | `new` or `lost`".
        req new_lost_type: String = string(&[StringRule::OneOf(&["new", "lost"], Error)]),
        /// The referring domain.
        req refdomain: String = STR,
        /// Backlinks from it.
        req backlinks: i64 = INT,
        /// Dofollow backlinks from it.
        req dofollow_backlinks: i64 = INT,
        /// `YYYY-MM-DD` first seen.
        req first_seen: String = DATE,
        /// Inlink rank, observed 0 to 100.
        /// Spec: "domain_inlink_rank | integer | observed 0 to 100".
        req domain_inlink_rank: i64 = int(&[range(0.0, 100.0, Warning)]),
    }
    /// Shape of a `ref_newlost` element: dates `YYYY-MM-DD` (error `date_format`),
    /// `new_lost_type` `new` or `lost` (error `enum`), `domain_inlink_rank` observed 0..100
    /// (warning `range`).
    pub const REF_NEW_LOST: Object;
}

/// `ref_newlost` rules: ordered by `domain_inlink_rank` descending in observed output
/// (warning `order`).
pub const REF_NEW_LOST_LIST: Node = array(&Array {
    items: object(&REF_NEW_LOST),
    // Spec: "ordered by `domain_inlink_rank` descending in observed output".
    rules: &[ArrayRule::Seq {
        field: "domain_inlink_rank",
        key: SeqKey::Int("domain_inlink_rank"),
        order: Order::Desc,
        severity: Warning,
        code: RuleCode::Order,
        what: "observed output is ordered by domain_inlink_rank descending",
    }],
});

super::record! {
    /// Domain overview response. The spec says further fields after `ref_newlost` are "not
    /// shown"; they are ignored by the decoder and reported as unknown (a warning) by the validator.
    pub struct DomainOverview {
        /// Backlink metrics of the domain.
        req metrics: OverviewMetrics = object(&OVERVIEW_METRICS),
        /// Daily new/lost backlink counts, newest date first.
        req stats: Vec<DailyStat> = STATS,
        /// New or lost referring domains.
        req ref_newlost: Vec<RefNewLost> = REF_NEW_LOST_LIST,
    }
    /// Shape of the overview object. Fields after `ref_newlost` are "not shown": any other key
    /// is an `unknown_field` warning.
    pub const DOMAIN_OVERVIEW: Object;
}

/// Response rules: the overview object ([`DOMAIN_OVERVIEW`]).
pub const RESPONSE: Node = object(&DOMAIN_OVERVIEW);
