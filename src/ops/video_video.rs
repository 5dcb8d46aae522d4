//! `POST /v1/video/video`: video search results for a keyword. Titles, descriptions,
//! hashtags and channel names are untrusted text; URLs become links only when http(s).

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

/// Video record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Video {
    /// Watch URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// Thumbnail URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub image: String,
    /// Hashtag entries (tags, separators, playlist links).
    #[serde(default, deserialize_with = "lenient::list")]
    pub hashtags: Vec<VideoHashtag>,
    /// ISO 8601 UTC timestamp.
    #[serde(default, deserialize_with = "lenient::string")]
    pub posted_on: String,
    /// Title.
    #[serde(default, deserialize_with = "lenient::string")]
    pub title: String,
    /// Views.
    #[serde(default, deserialize_with = "lenient::int")]
    pub views: i64,
    /// 0 in observed output.
    #[serde(default, deserialize_with = "lenient::int")]
    pub likes: i64,
    /// 0 in observed output.
    #[serde(default, deserialize_with = "lenient::int")]
    pub dislikes: i64,
    /// Description; may be empty.
    #[serde(default, deserialize_with = "lenient::string")]
    pub description: String,
    /// The channel.
    #[serde(default)]
    pub channel: Channel,
    /// Per-record error flag; false in observed output.
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub error: bool,
    /// The searched keyword first, then optionally others.
    #[serde(default, deserialize_with = "lenient::strings")]
    pub keywords: Vec<String>,
    /// Language codes.
    #[serde(default, deserialize_with = "lenient::strings")]
    pub language: Vec<String>,
}

/// A hashtag entry: a tag, a separator (`text` is a single space, nothing else), or a
/// playlist link (`navigationEndpoint` without `loggingDirectives`; `text` is its title).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VideoHashtag {
    /// The text (required).
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    /// Where the entry links to.
    #[serde(
        rename = "navigationEndpoint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub navigation_endpoint: Option<NavigationEndpoint>,
    /// Logging data.
    #[serde(
        rename = "loggingDirectives",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub logging_directives: Option<LoggingDirectives>,
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

/// `navigationEndpoint` of a hashtag entry.
///
/// Decision: the spec lists `browseEndpoint` after `commandMetadata.webCommandMetadata`'s
/// fields; we read it as a sibling of `commandMetadata` inside `navigationEndpoint` (the
/// usual layout of such data), not as a child of `webCommandMetadata`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NavigationEndpoint {
    /// Click tracking data.
    #[serde(
        rename = "clickTrackingParams",
        default,
        deserialize_with = "lenient::string"
    )]
    pub click_tracking_params: String,
    /// Command metadata.
    #[serde(rename = "commandMetadata", default)]
    pub command_metadata: CommandMetadata,
    /// Browse target.
    #[serde(rename = "browseEndpoint", default)]
    pub browse_endpoint: BrowseEndpoint,
}

/// `commandMetadata` of a navigation endpoint.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CommandMetadata {
    /// The web command metadata.
    #[serde(rename = "webCommandMetadata", default)]
    pub web_command_metadata: WebCommandMetadata,
}

/// `webCommandMetadata`: where the entry links.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WebCommandMetadata {
    /// Link path or URL (untrusted).
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// Page type.
    #[serde(rename = "webPageType", default, deserialize_with = "lenient::string")]
    pub web_page_type: String,
    /// Root visual element id.
    #[serde(rename = "rootVe", default, deserialize_with = "lenient::int")]
    pub root_ve: i64,
    /// API URL.
    #[serde(rename = "apiUrl", default, deserialize_with = "lenient::string")]
    pub api_url: String,
}

/// `browseEndpoint`: the browse target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrowseEndpoint {
    /// Browse id.
    #[serde(rename = "browseId", default, deserialize_with = "lenient::string")]
    pub browse_id: String,
    /// Parameters; absent for some entries.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub params: Option<String>,
}

/// `loggingDirectives` of a hashtag entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoggingDirectives {
    /// Tracking data.
    #[serde(
        rename = "trackingParams",
        default,
        deserialize_with = "lenient::string"
    )]
    pub tracking_params: String,
    /// Visibility.
    #[serde(default)]
    pub visibility: Visibility,
    /// Experiment flag.
    #[serde(
        rename = "enableDisplayloggerExperiment",
        default,
        deserialize_with = "lenient::boolean"
    )]
    pub enable_displaylogger_experiment: bool,
}

/// `visibility` of logging directives.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Visibility {
    /// Visibility types.
    #[serde(default, deserialize_with = "lenient::string")]
    pub types: String,
}

/// The channel of a video. Key order varies in responses; it does not matter here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Channel {
    /// Channel name (untrusted).
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Channel id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Photo URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub photo: String,
    /// Monetized.
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub is_monetized: bool,
    /// Verified.
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub is_verified: bool,
    /// Family safe.
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub is_family_safe: bool,
    /// Avatar images; element shape not shown, kept raw.
    #[serde(default, deserialize_with = "lenient::list")]
    pub avatar: Vec<serde_json::Value>,
    /// Banner images; element shape not shown, kept raw.
    #[serde(default, deserialize_with = "lenient::list")]
    pub banner: Vec<serde_json::Value>,
    /// Tags; element shape not shown, kept raw.
    #[serde(default, deserialize_with = "lenient::list")]
    pub tags: Vec<serde_json::Value>,
    /// Countries; element shape not shown, kept raw.
    #[serde(default, deserialize_with = "lenient::list")]
    pub available_countries: Vec<serde_json::Value>,
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::{Error, Warning};
use crate::rules::{
    dsl::*, named, same_keyword, Array, ArrayRule, At, CheckContext, Node, Object, Record,
    RuleCode, StringRule,
};

/// Shape of `navigationEndpoint` (`browseEndpoint` a sibling of `commandMetadata`, see
/// [`NavigationEndpoint`]; `browseEndpoint.params` optional, everything else required).
pub const NAVIGATION_ENDPOINT: Object = fields(&[
    req("clickTrackingParams", STR),
    req(
        "commandMetadata",
        object(&fields(&[req(
            "webCommandMetadata",
            object(&fields(&[
                req("url", STR),
                req("webPageType", STR),
                req("rootVe", INT),
                req("apiUrl", STR),
            ])),
        )])),
    ),
    req(
        "browseEndpoint",
        object(&fields(&[req("browseId", STR), opt("params", STR)])),
    ),
]);

/// Shape of `loggingDirectives`.
pub const LOGGING_DIRECTIVES: Object = fields(&[
    req("trackingParams", STR),
    req("visibility", object(&fields(&[req("types", STR)]))),
    req("enableDisplayloggerExperiment", BOOL),
]);

/// Shape of a hashtag entry: `text` required, the two objects optional, plus the entry
/// kinds the spec describes ([`hashtag_kind`]).
pub const VIDEO_HASHTAG: Object = Object {
    fields: &[
        req("text", STR),
        opt("navigationEndpoint", object(&NAVIGATION_ENDPOINT)),
        opt("loggingDirectives", object(&LOGGING_DIRECTIVES)),
    ],
    extra: None,
    checks: &[named!(hashtag_kind, HASHTAG_KIND_JS)],
};

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

/// JS twin of `hashtag_kind` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const HASHTAG_KIND_JS: &str = r#"(cx, record) => {
  const nav = has(record, 'navigationEndpoint'), log = has(record, 'loggingDirectives');
  const separator = get(record, 'text') === ' ';
  if (separator && (nav || log)) {
    cx.error(null, C.HashtagShape, 'a separator entry (text " ") must hold nothing but text');
  } else if (log && !nav) {
    cx.error('loggingDirectives', C.HashtagShape, 'loggingDirectives without navigationEndpoint fits no hashtag entry kind');
  } else if (!nav && !log && !separator && has(record, 'text')) {
    cx.warning(null, C.HashtagShape, 'a text-only entry that is not a single-space separator was never observed');
  }
}"#;

/// Shape of the channel object (key order is free; the four arrays' elements not shown).
pub const CHANNEL: Object = fields(&[
    req("name", STR),
    req("id", STR),
    req("photo", URL),
    req("is_monetized", BOOL),
    req("is_verified", BOOL),
    req("is_family_safe", BOOL),
    req("avatar", ANY_ARRAY),
    req("banner", ANY_ARRAY),
    req("tags", ANY_ARRAY),
    req("available_countries", ANY_ARRAY),
]);

fn searched_keyword_first(context: &mut CheckContext<'_>, index: usize, record: &Record<'_, '_>) {
    let Some(super::Request::VideoVideo(request)) = context.request::<super::Request>() else {
        return;
    };
    if index != 0 {
        return;
    }
    if let Some(got) = record.value().as_str() {
        let got = got.text();
        if !same_keyword(&got, &request.keyword) {
            context.error(
                At::Here,
                RuleCode::RequestKeyword,
                format!(
                    "keywords starts with {got:?}, not the searched keyword {:?}",
                    request.keyword
                ),
            );
        }
    }
}

/// JS twin of `searched_keyword_first` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const SEARCHED_KEYWORD_FIRST_JS: &str = r#"(cx, index, element) => {
  if (cx.operation !== OP.VideoVideo || cx.request === undefined || index !== 0) return;
  const want = cx.request.keyword;
  if (typeof element === 'string' && !sameKeyword(element, want)) {
    cx.error(null, C.RequestKeyword, `keywords starts with ${debug(element)}, not the searched keyword ${debug(want)}`);
  }
}"#;

fn record_flags(context: &mut CheckContext<'_>, record: &Record<'_, '_>) {
    if let crate::json::Scalar::Bool(true) = record.get("error") {
        context.warning(
            At::Key("error"),
            RuleCode::RecordError,
            "the record's error flag is true (false in successful records)".to_owned(),
        );
    }
}

/// JS twin of `record_flags` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const RECORD_FLAGS_JS: &str = r#"(cx, record) => {
  if (get(record, 'error') === true) {
    cx.warning('error', C.RecordError, "the record's error flag is true (false in successful records)");
  }
}"#;

/// Shape of a video record: `posted_on` ISO 8601 UTC, fraction optional (error
/// `timestamp`); `likes` / `dislikes` 0 in observed output (warnings `range`); `error`
/// true is a warning `record_error`; `keywords` holds at least the searched keyword
/// (error `min_items`) and, with the request, starts with it (error `request_keyword`,
/// compared with [`same_keyword`]).
pub const VIDEO: Object = Object {
    fields: &[
        req("url", URL),
        req("image", URL),
        req(
            "hashtags",
            array(&Array {
                items: object(&VIDEO_HASHTAG),
                rules: &[],
            }),
        ),
        req(
            "posted_on",
            string(&[StringRule::Timestamp { millis: false }]),
        ),
        req("title", STR),
        req("views", INT),
        req("likes", int(&[range(0.0, 0.0, Warning)])),
        req("dislikes", int(&[range(0.0, 0.0, Warning)])),
        req("description", STR),
        req("channel", object(&CHANNEL)),
        req("error", BOOL),
        req(
            "keywords",
            array(&Array {
                items: STR,
                rules: &[
                    ArrayRule::Len {
                        min: 1,
                        max: usize::MAX,
                        severity: Error,
                        code: RuleCode::MinItems,
                    },
                    ArrayRule::Each(named!(searched_keyword_first, SEARCHED_KEYWORD_FIRST_JS)),
                ],
            }),
        ),
        req("language", STR_ARRAY),
    ],
    extra: None,
    checks: &[named!(record_flags, RECORD_FLAGS_JS)],
};

/// Response rules: an array of [`VIDEO`] records.
pub const RESPONSE: Node = array(&Array {
    items: object(&VIDEO),
    rules: &[],
});
