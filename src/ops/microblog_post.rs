//! `POST /v1/microblog/post`: posts matching a keyword, with engagement and author profile.
//! Post text is untrusted: show it as text.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "keyword"}`.
    Request {
        /// The keyword.
        keyword: String,
    }
}

/// Response: an array of posts.
pub type Response = Vec<MicroblogPost>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::MicroblogPost;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::keyword("/keyword", &self.keyword)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

/// Microblog post record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MicroblogPost {
    /// Post URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// Reshare count.
    #[serde(default, deserialize_with = "lenient::int")]
    pub retweets: i64,
    /// Likes.
    #[serde(default, deserialize_with = "lenient::int")]
    pub likes: i64,
    /// Replies.
    #[serde(default, deserialize_with = "lenient::int")]
    pub replies: i64,
    /// Post text (untrusted).
    #[serde(default, deserialize_with = "lenient::string")]
    pub tweet: String,
    /// Hashtags, each starting with `#`; may be empty.
    #[serde(default, deserialize_with = "lenient::strings")]
    pub hashtags: Vec<String>,
    /// Author profile.
    #[serde(default)]
    pub profile: Profile,
    /// Tagged users, each starting with `@`; may be empty.
    #[serde(default, deserialize_with = "lenient::strings")]
    pub tagged: Vec<String>,
    /// ISO 8601 UTC timestamp with milliseconds.
    #[serde(default, deserialize_with = "lenient::string")]
    pub posted_on: String,
    /// Media; element shape not shown in the spec, kept as raw JSON.
    #[serde(default, deserialize_with = "lenient::list")]
    pub media: Vec<serde_json::Value>,
}

/// Author profile of a post.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Avatar image URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub user_avatar: String,
    /// Numeric user id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub user_id: i64,
    /// Display name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub fullname: String,
    /// Handle.
    #[serde(default, deserialize_with = "lenient::string")]
    pub username: String,
    /// Verified account.
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub verified: bool,
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Error;
use crate::rules::{dsl::*, Array, Node, Object, StringRule};

/// Shape of the author profile.
pub const PROFILE: Object = fields(&[
    req("user_avatar", URL),
    req("user_id", INT),
    req("fullname", STR),
    req("username", STR),
    req("verified", BOOL),
]);

/// Shape of a post: hashtags start with `#` and tagged users with `@` (errors `prefix`);
/// `posted_on` an ISO 8601 UTC timestamp with exactly three fraction digits, as the spec says
/// "with milliseconds" (error `timestamp`); `media` elements are not shown (anything).
pub const MICROBLOG_POST: Object = fields(&[
    req("url", URL),
    req("retweets", INT),
    req("likes", INT),
    req("replies", INT),
    req("tweet", STR),
    req(
        "hashtags",
        array(&Array {
            items: string(&[StringRule::Prefix("#", Error)]),
            rules: &[],
        }),
    ),
    req("profile", object(&PROFILE)),
    req(
        "tagged",
        array(&Array {
            items: string(&[StringRule::Prefix("@", Error)]),
            rules: &[],
        }),
    ),
    req(
        "posted_on",
        string(&[StringRule::Timestamp { millis: true }]),
    ),
    req("media", ANY_ARRAY),
]);

/// Response rules: an array of [`MICROBLOG_POST`]s.
pub const RESPONSE: Node = array(&Array {
    items: object(&MICROBLOG_POST),
    rules: &[],
});
