//! `POST /v1/outline/seo`: the headings of the first 10 ranking pages for a keyword.
//! Heading text is scraped and may contain stray markup: show it as text, never as HTML.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
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
    Request {
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

/// SEO outline record: one ranking page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OutlinePage {
    /// Headings in page order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub headings: Vec<Heading>,
    /// Page URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// SERP position.
    #[serde(default, deserialize_with = "lenient::int")]
    pub rank: i64,
}

/// A heading of a page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Heading {
    /// `h1` .. `h4` observed.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// Scraped heading text (untrusted).
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
}

impl Heading {
    /// The heading level 1..=6 from `type` (`h2` → 2); `None` for anything else.
    pub fn level(&self) -> Option<u8> {
        let n = self.kind.strip_prefix(['h', 'H'])?.parse::<u8>().ok()?;
        (1..=6).contains(&n).then_some(n)
    }
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::{Error, Warning};
use crate::rules::{dsl::*, Array, ArrayRule, Node, Object, Order, RuleCode, SeqKey, StringRule};

/// Shape of a heading: `type` h1..h4 *observed* (another value, such as `h5`, is a warning
/// `enum`, not an error); `text` any string (may hold stray markup).
pub const HEADING: Object = fields(&[
    req(
        "type",
        string(&[StringRule::OneOf(&["h1", "h2", "h3", "h4"], Warning)]),
    ),
    req("text", STR),
]);

/// Shape of an outline record (one ranking page).
pub const OUTLINE_PAGE: Object = fields(&[
    req(
        "headings",
        array(&Array {
            items: object(&HEADING),
            rules: &[],
        }),
    ),
    req("url", URL),
    req("rank", INT),
]);

/// Response rules: at most [`MAX_PAGES`] records (error `max_items`), ordered by `rank`
/// ascending (error `order`; equal ranks are not a violation).
pub const RESPONSE: Node = array(&Array {
    items: object(&OUTLINE_PAGE),
    rules: &[
        ArrayRule::Len {
            min: 0,
            max: MAX_PAGES,
            severity: Error,
            code: RuleCode::MaxItems,
        },
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
