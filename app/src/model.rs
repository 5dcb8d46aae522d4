//! The workspace's plain data: settings, stored call results, history entries and keyword
//! lists. Everything here is serializable (IndexedDB, localStorage, export files) and never
//! holds the API key.

use serde::{Deserialize, Serialize};
use serpkit::validate::{Issue, Report};
use serpkit::Usd;

use serpkit::client::ValidationMode;
/// Where calls go: the money state machine's mode (demo in a Web Worker, or live).
pub use serpkit::machine::Mode;
/// The period a budget cap covers: the money state machine's.
pub use serpkit::machine::Period;

/// Small settings, kept in localStorage. The API key is not part of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Demo or live.
    pub mode: Mode,
    /// Base URL of the live service (without `/v1`).
    pub base_url: String,
    /// What a response's validation report does (stored `off`, `warn` or `strict`; a name this
    /// version does not know reads as `warn`, the default).
    #[serde(with = "stored::validation")]
    pub validation: ValidationMode,
    /// Budget cap in dollars, shared by every tab of this browser profile; empty for none.
    pub budget: String,
    /// The period the cap covers (stored `day`, `month` or `until_reset`; a name this version
    /// does not know reads as `until_reset`, the widest window, so the cap fails closed).
    #[serde(with = "stored::period")]
    pub budget_period: Period,
    /// When the meter was last reset (ms since the epoch; 0: never).
    pub budget_reset_at: f64,
    /// Keep the API key in this browser's localStorage.
    pub remember_key: bool,
    /// `auto`, `light` or `dark`.
    pub theme: String,
    /// Default country code.
    pub ccode: String,
    /// Largest answer accepted from the service, in MB (the client stops reading there).
    pub max_body_mb: u32,
    /// The plain `http://` base URL (to a host other than this machine) the user confirmed
    /// sending the key to; live calls to such a URL are refused unless it equals this.
    pub insecure_ok: String,
    /// Bought records older than this many days are stale (bought again when asked for);
    /// 0: no expiry (the default).
    pub record_max_age_days: u32,
    /// The opportunity score's weights (`research::score`).
    pub score_weights: crate::research::score::Weights,
    /// The click-through curve of estimated traffic (`research::ctr`).
    pub ctr_curve: crate::research::ctr::Curve,
    /// Team mode (live only): calls go to the team server at [`Self::team_url`] with the
    /// member token as the key; the server holds the service key (`workspace::team`).
    pub team: bool,
    /// The team server's base URL.
    pub team_url: String,
}

/// The default of [`Settings::max_body_mb`]: what a browser tab holds comfortably, and above
/// the largest body the app's own performance tests load (100,000 ranked keywords, ~21 MB).
pub const DEFAULT_MAX_BODY_MB: u32 = 64;

impl Settings {
    /// Where live calls go: the team server in team mode, else the service's base URL.
    pub fn live_base_url(&self) -> &str {
        if self.team {
            &self.team_url
        } else {
            &self.base_url
        }
    }

    /// [`Settings::max_body_mb`] in bytes (0 is read as the default).
    pub fn max_body_bytes(&self) -> usize {
        let mb = if self.max_body_mb == 0 {
            DEFAULT_MAX_BODY_MB
        } else {
            self.max_body_mb
        };
        (mb as usize).saturating_mul(1024 * 1024)
    }

    /// [`Settings::record_max_age_days`] in milliseconds (`None`: no expiry).
    pub fn record_max_age_ms(&self) -> Option<f64> {
        (self.record_max_age_days > 0).then(|| f64::from(self.record_max_age_days) * 86_400_000.0)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::Demo,
            base_url: serpkit::client::DEFAULT_BASE_URL.into(),
            validation: ValidationMode::Warn,
            budget: String::new(),
            budget_period: Period::Month,
            budget_reset_at: 0.0,
            remember_key: false,
            theme: "auto".into(),
            ccode: "US".into(),
            max_body_mb: DEFAULT_MAX_BODY_MB,
            insecure_ok: String::new(),
            record_max_age_days: 0,
            score_weights: Default::default(),
            ctr_curve: Default::default(),
            team: false,
            team_url: String::new(),
        }
    }
}

/// One validation issue, owned (the core's `Issue` borrows its code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredIssue {
    /// JSON Pointer into the response.
    pub path: String,
    /// Rule code.
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    /// Explanation.
    pub message: String,
}

impl From<&Issue> for StoredIssue {
    fn from(i: &Issue) -> StoredIssue {
        StoredIssue {
            path: i.path.clone(),
            code: i.code.to_string(),
            severity: i.severity.as_str().to_string(),
            message: i.message.clone(),
        }
    }
}

/// The validation outcome of a result: counts and listed issues.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Validation {
    /// False when validation was off for the call.
    pub checked: bool,
    /// All errors (listed or not).
    pub errors: usize,
    /// All warnings (listed or not).
    pub warnings: usize,
    /// Issues counted but not listed.
    pub omitted: usize,
    /// The listed issues.
    pub issues: Vec<StoredIssue>,
}

impl Validation {
    /// From a core report (bulk reports arrive already joined, paths on the whole answer).
    pub fn from_report(report: &Report) -> Validation {
        Validation {
            checked: true,
            errors: report.error_count(),
            warnings: report.warning_count(),
            omitted: report.omitted(),
            issues: report.issues.iter().map(StoredIssue::from).collect(),
        }
    }

    /// A charged answer that is not JSON: one error where the text stops being JSON.
    pub fn not_json(error: &serpkit::decode::DecodeError) -> Validation {
        Validation {
            checked: true,
            errors: 1,
            warnings: 0,
            omitted: 0,
            issues: vec![StoredIssue {
                path: String::new(),
                code: "json".into(),
                severity: "error".into(),
                message: format!(
                    "not JSON at line {}, column {}: {}",
                    error.line, error.column, error.message
                ),
            }],
        }
    }

    /// "valid", "2 errors, 1 warning", or "not checked".
    pub fn summary(&self) -> String {
        if !self.checked {
            return "not checked".into();
        }
        if self.errors == 0 && self.warnings == 0 {
            return "valid".into();
        }
        format!(
            "{} error{}, {} warning{}",
            self.errors,
            plural(self.errors),
            self.warnings,
            plural(self.warnings)
        )
    }
}

/// "s" unless `n == 1`.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The first three items of an input list and "…" when there are more, for the history
/// (one spelling for keywords, domains and URLs).
pub fn preview(items: &[String]) -> String {
    let mut shown = items.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 3 {
        shown.push_str(", …");
    }
    shown
}

/// A successful call's result as stored: the response body (merged for chunked bulk work)
/// with its validation, what it cost and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallResult {
    /// Cache key: operation and hash of the canonical request.
    pub key: String,
    /// Operation path (`related`).
    pub operation: String,
    /// The canonical request as JSON, without the key.
    pub request: String,
    /// The response body (JSON text).
    pub body: String,
    /// Validation of the body.
    #[serde(default)]
    pub validation: Validation,
    /// What was charged.
    pub charge: Usd,
    /// When (ms since the epoch).
    pub at: f64,
    /// Demo or live data.
    pub mode: Mode,
    /// Bulk keywords not bought (a cancelled or failed job); empty when complete.
    #[serde(default)]
    pub missing: Vec<String>,
    /// Came from an imported workspace file: shown labelled "imported" and not treated as
    /// bought here (running its request again prices and buys it). False for older data.
    #[serde(default)]
    pub imported: bool,
    /// Where it was bought ([`serpkit::records::source_of`] the base URL): part of its key,
    /// so a demo result never answers a live call, nor one service's another's.
    #[serde(default)]
    pub source: String,
    /// Strict validation refused the body: it was paid for, so it is kept (never bought
    /// again without asking) and shown with its report, marked as refused.
    #[serde(default)]
    pub rejected: bool,
}

/// Where a History row's call is: written ahead as [`Outcome::Running`], then how it ended.
/// Stored by its [`Outcome::as_str`] name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Written ahead; the call runs (in the tab named by the row).
    #[default]
    Running,
    /// Every request answered.
    Ok,
    /// Some requests answered, the rest failed or were not sent.
    Partial,
    /// Stopped by the user; what was already sent kept what it bought.
    Cancelled,
    /// Failed (its message says why).
    Error,
    /// Refused before anything was sent (the budget cap, or a strict refusal's body kept).
    Refused,
    /// The tab closed or reloaded mid-call.
    Interrupted,
    /// A name this version does not know (a newer tab's): shown, never taken as running.
    #[serde(other)]
    Other,
}

impl Outcome {
    /// Every outcome, in the order History's filter offers them.
    pub const ALL: [Outcome; 8] = [
        Outcome::Running,
        Outcome::Ok,
        Outcome::Partial,
        Outcome::Cancelled,
        Outcome::Error,
        Outcome::Refused,
        Outcome::Interrupted,
        Outcome::Other,
    ];

    /// Stable name (`running`, `ok`, `partial`, `cancelled`, `error`, `refused`,
    /// `interrupted`; `other` for one this version does not know).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Running => "running",
            Outcome::Ok => "ok",
            Outcome::Partial => "partial",
            Outcome::Cancelled => "cancelled",
            Outcome::Error => "error",
            Outcome::Refused => "refused",
            Outcome::Interrupted => "interrupted",
            Outcome::Other => "other",
        }
    }
}

/// Settings fields stored by name and read leniently: a settings row with a name this
/// version does not know still reads (every other field kept), with the field's safe value.
mod stored {
    /// [`ValidationMode`](serpkit::client::ValidationMode) by name; unknown reads as `warn`.
    pub mod validation {
        use serde::{Deserialize, Deserializer, Serializer};
        use serpkit::client::ValidationMode;

        pub fn serialize<S: Serializer>(v: &ValidationMode, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(v.as_str())
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ValidationMode, D::Error> {
            let name = String::deserialize(d)?;
            Ok(name.parse().unwrap_or(ValidationMode::Warn))
        }
    }

    /// [`Period`](serpkit::machine::Period) by name; unknown reads as `until_reset` (every
    /// entry since the last reset counts: the cap fails closed).
    pub mod period {
        use serde::{Deserialize, Deserializer, Serializer};
        use serpkit::machine::Period;

        pub fn serialize<S: Serializer>(p: &Period, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(p.as_str())
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Period, D::Error> {
            let name = String::deserialize(d)?;
            Ok(Period::from_name(&name).unwrap_or(Period::UntilReset))
        }
    }
}

/// One call in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// Unique id (time-based).
    pub id: String,
    /// Operation path.
    pub operation: String,
    /// Short description of the input ("100 keywords, US").
    pub input: String,
    /// App route that shows this result (no key in it).
    pub route: String,
    /// Cache key of the result (empty when the call failed).
    #[serde(default)]
    pub key: String,
    /// When (ms since the epoch).
    pub at: f64,
    /// Price shown before the call.
    pub estimate: Usd,
    /// What was charged.
    pub charge: Usd,
    /// What the call may have been charged on top (its outcome is unknown: a timeout or an
    /// abort after sending, an answer lost while reading it). Zero for older data.
    #[serde(default)]
    pub possible_charge: Usd,
    /// Where the call is: running (written ahead), then how it ended.
    pub outcome: Outcome,
    /// Error message, or a note.
    #[serde(default)]
    pub message: String,
    /// Validation summary.
    #[serde(default)]
    pub validation: String,
    /// Demo or live.
    pub mode: Mode,
    /// The tab that runs it (while `running`).
    #[serde(default)]
    pub tab: String,
    /// Where it was bought ([`serpkit::records::source_of`] the base URL).
    #[serde(default)]
    pub source: String,
}

/// A named keyword list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeywordList {
    /// The name (unique).
    pub name: String,
    /// Keywords, in the order they were added, without duplicates.
    pub keywords: Vec<String>,
    /// Last change (ms since the epoch).
    #[serde(default)]
    pub updated: f64,
}

/// Trims, drops empty lines and removes duplicates (case-insensitive, first one kept).
pub fn parse_keywords(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    text.lines()
        .map(str::trim)
        .filter(|k| !k.is_empty())
        // Duplicates as records see them (case and white space folded): one core rule.
        .filter(|k| seen.insert(serpkit::records::normalize_keyword(k)))
        .map(str::to_string)
        .collect()
}

/// FNV-1a 64-bit hash as 16 hex digits (cache keys of long requests).
pub fn hash_hex(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Country codes offered in the country pickers (any two-letter code works in URLs).
pub const COUNTRIES: &[(&str, &str)] = &[
    ("US", "United States"),
    ("GB", "United Kingdom"),
    ("CA", "Canada"),
    ("AU", "Australia"),
    ("DE", "Germany"),
    ("FR", "France"),
    ("ES", "Spain"),
    ("IT", "Italy"),
    ("NL", "Netherlands"),
    ("SE", "Sweden"),
    ("IN", "India"),
    ("BR", "Brazil"),
    ("MX", "Mexico"),
    ("JP", "Japan"),
];

impl Settings {
    /// The settings to store when this tab edits from `before` to `after` while the store
    /// holds `stored`: the stored ones with only the fields this tab changed, so an edit in an
    /// older tab (say the theme) never writes back its stale copy of the others (say the
    /// budget cap another tab set). Settings are shared state, changed field by field.
    pub fn merged(before: &Settings, after: &Settings, stored: Option<Settings>) -> Settings {
        use serde_json::{to_value, Value};
        let Some(stored) = stored else {
            return after.clone();
        };
        let (Ok(Value::Object(b)), Ok(Value::Object(a)), Ok(Value::Object(mut s))) =
            (to_value(before), to_value(after), to_value(&stored))
        else {
            return after.clone();
        };
        for (k, v) in a {
            if b.get(&k) != Some(&v) {
                s.insert(k, v);
            }
        }
        serde_json::from_value(Value::Object(s)).unwrap_or_else(|_| after.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_tabs_edit_keeps_the_cap_another_tab_set() {
        // Tab A read the settings before tab B set a $0.20 cap; A then changes the theme.
        let a_before = Settings::default();
        let stored = Settings {
            budget: "0.20".into(),
            ..Settings::default()
        };
        let mut a_after = a_before.clone();
        a_after.theme = if a_before.theme == "dark" {
            "light".into()
        } else {
            "dark".into()
        };
        let merged = Settings::merged(&a_before, &a_after, Some(stored));
        assert_eq!(merged.budget, "0.20");
        assert_eq!(merged.theme, a_after.theme);
        // Nothing stored yet: this tab's settings are the settings.
        assert_eq!(Settings::merged(&a_before, &a_after, None), a_after);
    }

    #[test]
    fn preview_shows_three_items_then_an_ellipsis() {
        let items = |n: usize| (1..=n).map(|i| format!("k{i}")).collect::<Vec<_>>();
        assert_eq!(preview(&[]), "");
        assert_eq!(preview(&items(3)), "k1, k2, k3");
        assert_eq!(preview(&items(4)), "k1, k2, k3, …");
    }

    #[test]
    fn stored_names_still_read_and_unknown_ones_read_safely() {
        // The names older versions stored (strings then) read as the enums and are written
        // back the same, so the stored formats (and DB_VERSION) are unchanged.
        for o in Outcome::ALL {
            let text = serde_json::to_string(&o).unwrap_or_default();
            assert_eq!(text, format!("\"{}\"", o.as_str()));
            assert_eq!(serde_json::from_str::<Outcome>(&text).ok(), Some(o));
        }
        assert_eq!(
            serde_json::from_str::<Outcome>("\"from a newer version\"").ok(),
            Some(Outcome::Other)
        );
        let old = r#"{"validation":"strict","budget":"0.20","budget_period":"day","mode":"live"}"#;
        let s: Settings = serde_json::from_str(old).expect("settings");
        assert_eq!(
            (s.validation, s.budget_period, s.mode),
            (ValidationMode::Strict, Period::Day, Mode::Live)
        );
        let back = serde_json::to_value(&s).unwrap_or_default();
        assert_eq!(back["validation"], "strict");
        assert_eq!(back["budget_period"], "day");
        assert_eq!(back["mode"], "live");
        // Unknown names keep the rest of the row; the period fails closed (widest window).
        let newer = r#"{"validation":"paranoid","budget":"0.20","budget_period":"week"}"#;
        let s: Settings = serde_json::from_str(newer).expect("settings");
        assert_eq!(s.validation, ValidationMode::Warn);
        assert_eq!(s.budget_period, Period::UntilReset);
        assert_eq!(s.budget, "0.20");
    }

    #[test]
    fn keywords_are_trimmed_and_deduped() {
        assert_eq!(
            parse_keywords(" a \n\nB\nb\n a\nc "),
            vec!["a".to_string(), "B".into(), "c".into()]
        );
    }
}
