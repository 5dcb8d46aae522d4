//! `POST /v1/microblog/post`: posts matching a keyword, with engagement and author profile.
//! Post text is untrusted: show it as text.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "keyword"}`.
    Request as KeywordRequest {
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

// ---------------------------------------------------------------------------------------
// The response records: struct, rules and TS type in one declaration each (read by the
// validator, `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::Error;
use crate::rules::{dsl::*, Array, Node, StringRule};

super::record! {
    /// Author profile of a post.
    pub struct Profile {
        /// Avatar image URL.
        req user_avatar: String = URL,
        /// Numeric user id: a 64-bit id, beyond what a JS number holds exactly ([`ID`]).
        req user_id: i64 = ID,
        /// Display name.
        req fullname: String = STR,
        /// Handle.
        req username: String = STR,
        /// Verified account.
        req verified: bool = BOOL,
    }
    /// Shape of the author profile.
    pub const PROFILE: Object;
}

super::record! {
    /// Microblog post record.
    pub struct MicroblogPost {
        /// Post URL.
        req url: String = URL,
        /// Reshare count.
        req retweets: i64 = INT,
        /// Likes.
        req likes: i64 = INT,
        /// Replies.
        req replies: i64 = INT,
        /// Post text (untrusted: show it as text).
        req tweet: String = STR,
        /// Hashtags, each starting with `#`; may be empty.
        req hashtags: Vec<String> = array(&Array {
            // Spec: "each starts with `#`; may be empty".
            items: string(&[StringRule::Prefix("#", Error)]),
            rules: &[],
        }),
        /// Author profile.
        req profile: Profile = object(&PROFILE),
        /// Tagged users, each starting with `@`; may be empty.
        req tagged: Vec<String> = array(&Array {
            // Spec: "each starts with `@`; may be empty".
            items: string(&[StringRule::Prefix("@", Error)]),
            rules: &[],
        }),
        /// ISO 8601 UTC timestamp with milliseconds.
        /// Spec: "ISO 8601 UTC timestamp with milliseconds".
        req posted_on: String = string(&[StringRule::Timestamp { millis: true }]),
        /// Media; element shape not shown in the spec, kept as raw JSON.
        req media: Vec<serde_json::Value> = ANY_ARRAY,
    }
    /// Shape of a post: hashtags start with `#` and tagged users with `@` (errors `prefix`);
    /// `posted_on` an ISO 8601 UTC timestamp with exactly three fraction digits, as the spec says
    /// "with milliseconds" (error `timestamp`); `media` elements are not shown (anything).
    pub const MICROBLOG_POST: Object;
}

/// Response rules: an array of [`MICROBLOG_POST`]s.
pub const RESPONSE: Node = array(&Array {
    items: object(&MICROBLOG_POST),
    rules: &[],
});
