//! `POST /v1/outline/seo`: the headings of the first 10 ranking pages for a keyword.
//! Heading text is scraped and may contain stray markup: show it as text, never as HTML.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.50 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(500_000),
    unit: PriceUnit::PerRequest,
};

/// At most this many pages (records) come back.
pub const MAX_PAGES: usize = 10;

super::request! {
    /// Request body: `{"key", "keyword"}`.
    Request as KeywordRequest {
        /// The keyword.
        keyword: String,
    }
}

/// Response: one record per ranking page, ordered by rank ascending.
pub type Response = Vec<OutlinePage>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::OutlineSeo;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::keyword("/keyword", &self.keyword)
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
use crate::rules::{dsl::*, Array, ArrayRule, Node, Order, RuleCode, SeqKey, StringRule};

super::record! {
    /// A heading of a page.
    pub struct Heading {
        /// `h1` .. `h4` observed.
        /// Spec: "`type` (string; h1, h2, h3, h4 observed)".
        req "type" kind: String = string(&[StringRule::OneOf(&["h1", "h2", "h3", "h4"], Warning)]),
        /// Scraped heading text (untrusted: may contain markup; show it as text, never as HTML).
        req text: String = STR,
    }
    /// Shape of a heading: `type` h1..h4 *observed* (another value, such as `h5`, is a warning
    /// `enum`, not an error); `text` any string (may hold stray markup).
    pub const HEADING: Object;
}

super::record! {
    /// SEO outline record: one ranking page.
    pub struct OutlinePage {
        /// Headings in page order.
        req headings: Vec<Heading> = array(&Array {
            items: object(&HEADING),
            rules: &[],
        }),
        /// Page URL.
        req url: String = URL,
        /// SERP position (from 1 in every observed answer).
        /// Spec: "rank | integer | SERP position" (no bound stated: a warning).
        req rank: i64 = int(&[range(1.0, f64::INFINITY, Warning)]),
    }
    /// Shape of an outline record (one ranking page). `rank`: "SERP position; array is ordered
    /// by rank ascending". Decided: positions count from 1, but the spec states no bound, so
    /// 0 or less is a warning `range` (TESTING.md, "Rules downgraded"). Limits 2 ("at most the first 10
    /// ranking pages") bounds the number of records ([`MAX_PAGES`], `max_items`), not the rank:
    /// a SERP position also counts results that are no page (a video block, a map), so the
    /// 10th ranking page may sit at position 12.
    pub const OUTLINE_PAGE: Object;
}

impl Heading {
    /// The heading level 1..=6 from `type` (`h2` → 2); `None` for anything else.
    pub fn level(&self) -> Option<u8> {
        let n = self.kind.strip_prefix(['h', 'H'])?.parse::<u8>().ok()?;
        (1..=6).contains(&n).then_some(n)
    }
}

/// Response rules: at most [`MAX_PAGES`] records (error `max_items`), ordered by `rank`
/// ascending (error `order`; equal ranks are not a violation).
pub const RESPONSE: Node = array(&Array {
    items: object(&OUTLINE_PAGE),
    rules: &[
        // Spec: "at most the first 10 ranking pages"; "one record per page".
        ArrayRule::Len {
            min: 0,
            max: MAX_PAGES,
            severity: Error,
            code: RuleCode::MaxItems,
        },
        // Spec: "SERP position; array is ordered by rank ascending".
        ArrayRule::Seq {
            field: "rank",
            key: SeqKey::Int("rank"),
            order: Order::Asc,
            severity: Error,
            code: RuleCode::Order,
            what: "records must be ordered by rank ascending",
        },
    ],
});
