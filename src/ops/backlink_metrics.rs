//! `POST /v1/backlink/metrics`: backlink counts for URLs. Also home of the page backlink
//! metrics shape that `backlink/overview` reuses for its `metrics` object.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
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
    Request {
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

/// Page backlink metrics record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PageBacklinkMetrics {
    /// All backlinks.
    #[serde(default, deserialize_with = "lenient::int")]
    pub backlinks: i64,
    /// Dofollow backlinks.
    #[serde(default, deserialize_with = "lenient::int")]
    pub dofollow_backlinks: i64,
    /// Nofollow backlinks.
    #[serde(default, deserialize_with = "lenient::int")]
    pub nofollow_backlinks: i64,
    /// Backlinks from .edu domains.
    #[serde(default, deserialize_with = "lenient::int")]
    pub edu_backlinks: i64,
    /// Backlinks from .gov domains.
    #[serde(default, deserialize_with = "lenient::int")]
    pub gov_backlinks: i64,
    /// Referring IPs.
    #[serde(default, deserialize_with = "lenient::int")]
    pub ips: i64,
    /// Referring domains.
    #[serde(default, deserialize_with = "lenient::int")]
    pub refdomains: i64,
    /// Referring subnets.
    #[serde(default, deserialize_with = "lenient::int")]
    pub subnets: i64,
    /// The URL or domain queried.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::{
    dsl::*, named, Array, ArrayRule, At, CheckContext, Field, Node, Object, RuleCode,
};

/// The page backlink metrics fields (also the start of `backlink/overview`'s `metrics`).
pub const PAGE_BACKLINK_FIELDS: [Field; 9] = [
    req("backlinks", INT),
    req("dofollow_backlinks", INT),
    req("nofollow_backlinks", INT),
    req("edu_backlinks", INT),
    req("gov_backlinks", INT),
    req("ips", INT),
    req("refdomains", INT),
    req("subnets", INT),
    req("url", STR),
];

/// Shape of a page backlink metrics record.
pub const PAGE_BACKLINK_METRICS: Object = fields(&PAGE_BACKLINK_FIELDS);

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
