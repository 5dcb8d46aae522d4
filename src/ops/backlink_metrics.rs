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
/// lets through a call that costs more than estimated. The sandbox charges the same way.
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

use crate::rules::{dsl::*, named, Array, ArrayRule, At, CheckContext, Node, RuleCode};

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
/// requested URL (error `record_count`). The spec states no order, so none is checked.
pub const RESPONSE: Node = array(&Array {
    items: object(&PAGE_BACKLINK_METRICS),
    rules: &[ArrayRule::End(named!(one_per_url, ONE_PER_URL_JS))],
});

fn one_per_url(context: &mut CheckContext<'_>, count: usize) {
    if let Some(super::Request::BacklinkMetrics(request)) = context.request::<super::Request>() {
        if count != request.urls.len() {
            let want = request.urls.len();
            context.error(
                At::Here,
                RuleCode::RecordCount,
                format!("{count} records for {want} requested URLs (one per URL expected)"),
            );
        }
    }
}

/// JS twin of `one_per_url` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const ONE_PER_URL_JS: &str = r#"(cx, count) => {
  if (cx.operation !== OP.BacklinkMetrics || cx.request === undefined) return;
  const want = cx.request.urls.length;
  if (count !== want) {
    cx.error(null, C.RecordCount, `${count} records for ${want} requested URLs (one per URL expected)`);
  }
}"#;
