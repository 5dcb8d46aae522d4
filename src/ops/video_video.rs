//! `POST /v1/video/video`: video search results for a keyword. Titles, descriptions,
//! hashtags and channel names are untrusted text; URLs become links only when http(s).

use serde::{Deserialize, Serialize};

use super::{check, lenient, ApiKey, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.25 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(250_000),
    unit: PriceUnit::PerRequest,
};

/// Request body: `{"key", "keyword"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The API key.
    #[serde(default)]
    pub key: ApiKey,
    /// The keyword.
    pub keyword: String,
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
