//! `POST /v1/video/video`: video search results for a keyword. Titles, descriptions,
//! hashtags and channel names are untrusted text; URLs become links only when http(s).

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

/// Response: an array of video records.
pub type Response = Vec<Video>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::VideoVideo;
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
use crate::rules::{
    dsl::*, named, Array, ArrayRule, At, CheckContext, Node, Record, RuleCode, StringRule,
};

super::record! {
    /// `webCommandMetadata`: where the entry links.
    pub struct WebCommandMetadata {
        /// Link path or URL (untrusted).
        req url: String = STR,
        /// Page type.
        req "webPageType" web_page_type: String = STR,
        /// Root visual element id.
        req "rootVe" root_ve: i64 = INT,
        /// API URL.
        req "apiUrl" api_url: String = STR,
    }
    /// Shape of `webCommandMetadata` (every field required).
    pub const WEB_COMMAND_METADATA: Object;
}

super::record! {
    /// `commandMetadata` of a navigation endpoint.
    pub struct CommandMetadata {
        /// The web command metadata.
        req "webCommandMetadata" web_command_metadata: WebCommandMetadata =
            object(&WEB_COMMAND_METADATA),
    }
    /// Shape of `commandMetadata`.
    pub const COMMAND_METADATA: Object;
}

super::record! {
    /// `browseEndpoint`: the browse target.
    pub struct BrowseEndpoint {
        /// Browse id.
        req "browseId" browse_id: String = STR,
        /// Parameters; absent for some entries.
        opt params: Option<String> = STR,
    }
    /// Shape of `browseEndpoint`: `params` optional ("absent for some entries").
    pub const BROWSE_ENDPOINT: Object;
}

super::record! {
    /// `navigationEndpoint` of a hashtag entry.
    ///
    /// Decision: the spec lists `browseEndpoint` after `commandMetadata.webCommandMetadata`'s
    /// fields; we read it as a sibling of `commandMetadata` inside `navigationEndpoint` (the
    /// usual layout of such data), not as a child of `webCommandMetadata`.
    pub struct NavigationEndpoint {
        /// Click tracking data.
        req "clickTrackingParams" click_tracking_params: String = STR,
        /// Command metadata.
        req "commandMetadata" command_metadata: CommandMetadata = object(&COMMAND_METADATA),
        /// Browse target.
        req "browseEndpoint" browse_endpoint: BrowseEndpoint = object(&BROWSE_ENDPOINT),
    }
    /// Shape of `navigationEndpoint` (`browseEndpoint` a sibling of `commandMetadata`, see
    /// [`NavigationEndpoint`]; `browseEndpoint.params` optional, everything else required).
    pub const NAVIGATION_ENDPOINT: Object;
}

super::record! {
    /// `visibility` of logging directives.
    pub struct Visibility {
        /// Visibility types.
        req types: String = STR,
    }
    /// Shape of `visibility`.
    pub const VISIBILITY: Object;
}

super::record! {
    /// `loggingDirectives` of a hashtag entry.
    pub struct LoggingDirectives {
        /// Tracking data.
        req "trackingParams" tracking_params: String = STR,
        /// Visibility.
        req visibility: Visibility = object(&VISIBILITY),
        /// Experiment flag.
        req "enableDisplayloggerExperiment" enable_displaylogger_experiment: bool = BOOL,
    }
    /// Shape of `loggingDirectives`.
    pub const LOGGING_DIRECTIVES: Object;
}

super::record! {
    /// A hashtag entry: a tag, a separator (`text` is a single space, nothing else), or a
    /// playlist link (`navigationEndpoint` without `loggingDirectives`; `text` is its title).
    pub struct VideoHashtag {
        /// The text (required).
        req text: String = STR,
        /// Where the entry links to.
        opt "navigationEndpoint" navigation_endpoint: Option<NavigationEndpoint> =
            object(&NAVIGATION_ENDPOINT),
        /// Logging data.
        opt "loggingDirectives" logging_directives: Option<LoggingDirectives> =
            object(&LOGGING_DIRECTIVES),
    }
    /// Shape of a hashtag entry: `text` required, the two objects optional, plus the entry
    /// kinds the spec describes ([`hashtag_kind`]).
    pub const VIDEO_HASHTAG: Object {
        // Spec: "Separator entries consist of a single-space `text` only"; "Entries that link to a playlist carry `navigationEndpoint` without `loggingDirectives`".
        checks: &[named!(hashtag_kind, "hashtagKind")],
    };
}

/// What kind of hashtag entry this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashtagKind {
    /// A single-space `text` only.
    Separator,
    /// `navigationEndpoint` without `loggingDirectives`: a playlist title.
    Playlist,
    /// Anything else: a tag.
    Tag,
}

impl VideoHashtag {
    /// Classifies the entry per the spec's description.
    pub fn kind(&self) -> HashtagKind {
        if self.text == " "
            && self.navigation_endpoint.is_none()
            && self.logging_directives.is_none()
        {
            HashtagKind::Separator
        } else if self.navigation_endpoint.is_some() && self.logging_directives.is_none() {
            HashtagKind::Playlist
        } else {
            HashtagKind::Tag
        }
    }
}

/// The hashtag entry kinds. Decisions:
/// - a separator is `{"text": " "}` and nothing else: `text` `" "` together with either
///   object is an error (`hashtag_shape`);
/// - `loggingDirectives` without `navigationEndpoint` fits no described kind: error
///   (`hashtag_shape`);
/// - a playlist entry is `navigationEndpoint` without `loggingDirectives` (any title);
/// - a text-only entry whose text is not a single space is allowed by the field table (both
///   objects optional) but was never described: warning (`hashtag_shape`).
pub fn hashtag_kind(context: &mut CheckContext<'_>, record: &Record<'_, '_>) {
    let nav = record.has("navigationEndpoint");
    let log = record.has("loggingDirectives");
    let separator = record.get("text").as_str().is_some_and(|t| t.eq_str(" "));
    if separator && (nav || log) {
        context.error(
            At::Here,
            RuleCode::HashtagShape,
            "a separator entry (text \" \") must hold nothing but text".to_owned(),
        );
    } else if log && !nav {
        context.error(
            At::Key("loggingDirectives"),
            RuleCode::HashtagShape,
            "loggingDirectives without navigationEndpoint fits no hashtag entry kind".to_owned(),
        );
    } else if !nav && !log && !separator && record.has("text") {
        context.warning(
            At::Here,
            RuleCode::HashtagShape,
            "a text-only entry that is not a single-space separator was never observed".to_owned(),
        );
    }
}

super::record! {
    /// The channel of a video. Key order varies in responses; it does not matter here.
    pub struct Channel {
        /// Channel name (untrusted).
        req name: String = STR,
        /// Channel id.
        req id: String = STR,
        /// Photo URL.
        req photo: String = URL,
        /// Monetized.
        req is_monetized: bool = BOOL,
        /// Verified.
        req is_verified: bool = BOOL,
        /// Family safe.
        req is_family_safe: bool = BOOL,
        /// Avatar images; element shape not shown, kept raw.
        req avatar: Vec<serde_json::Value> = ANY_ARRAY,
        /// Banner images; element shape not shown, kept raw.
        req banner: Vec<serde_json::Value> = ANY_ARRAY,
        /// Tags; element shape not shown, kept raw.
        req tags: Vec<serde_json::Value> = ANY_ARRAY,
        /// Countries; element shape not shown, kept raw.
        req available_countries: Vec<serde_json::Value> = ANY_ARRAY,
    }
    /// Shape of the channel object (key order is free; the four arrays' elements not shown).
    pub const CHANNEL: Object;
}

fn record_flags(context: &mut CheckContext<'_>, record: &Record<'_, '_>) {
    if let crate::json::Scalar::Bool(true) = record.get("error") {
        context.warning(
            At::Key("error"),
            RuleCode::RecordError,
            "the record's error flag is true (false in successful records)".to_owned(),
        );
    }
}

super::record! {
    /// Video record.
    pub struct Video {
        /// Watch URL.
        req url: String = URL,
        /// Thumbnail URL.
        req image: String = URL,
        /// Hashtag entries (tags, separators, playlist links).
        req hashtags: Vec<VideoHashtag> = array(&Array {
            items: object(&VIDEO_HASHTAG),
            rules: &[],
        }),
        /// ISO 8601 UTC timestamp.
        /// Spec: "posted_on | string | ISO 8601 UTC timestamp".
        req posted_on: String = string(&[StringRule::Timestamp { millis: false }]),
        /// Title (untrusted).
        req title: String = STR,
        /// Views.
        req views: i64 = INT,
        /// 0 in observed output.
        /// Spec: "likes | integer | 0 in observed output".
        req likes: i64 = int(&[range(0.0, 0.0, Warning)]),
        /// 0 in observed output.
        /// Spec: "dislikes | integer | 0 in observed output".
        req dislikes: i64 = int(&[range(0.0, 0.0, Warning)]),
        /// Description; may be empty (untrusted).
        req description: String = STR,
        /// The channel.
        req channel: Channel = object(&CHANNEL),
        /// Per-record error flag; false in observed output.
        req error: bool = BOOL,
        /// The searched keyword first, then optionally others.
        req keywords: Vec<String> = array(&Array {
            items: STR,
            rules: &[
                // Spec: "keywords | array of string | the searched keyword first, then optionally others".
                ArrayRule::Len {
                    min: 1,
                    max: usize::MAX,
                    severity: Error,
                    code: RuleCode::MinItems,
                },
                // Spec: "the searched keyword first, then optionally others".
                first_is_request_keyword("keyword"),
            ],
        }),
        /// Language codes.
        req language: Vec<String> = STR_ARRAY,
    }
    /// Shape of a video record: `posted_on` ISO 8601 UTC, fraction optional (error
    /// `timestamp`); `likes` / `dislikes` 0 in observed output (warnings `range`); `error`
    /// true is a warning `record_error`; `keywords` holds at least the searched keyword
    /// (error `min_items`) and, with the request, starts with it (error `request_keyword`,
    /// compared with [`crate::rules::same_keyword`]).
    pub const VIDEO: Object {
        // Spec: "error | boolean | per-record error flag; false in observed output".
        checks: &[named!(record_flags, "recordFlags")],
    };
}

/// Response rules: an array of [`VIDEO`] records.
pub const RESPONSE: Node = array(&Array {
    items: object(&VIDEO),
    rules: &[],
});
