//! What went wrong with a call, for people ([`ErrorInfo`]), and the history's line about
//! it ([`history_message`]): built from the error's code and status only, never from text
//! the service sent (a body excerpt could hold anything, the key's echo included).

use serpkit::client::Error;
use serpkit::Usd;

use crate::model::Mode;

/// What went wrong with a call, for people: never holds the key.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorInfo {
    /// The core's error code (`http`, `budget_exceeded`, ...).
    pub code: String,
    /// What happened.
    pub message: String,
    /// What to do.
    pub hint: String,
    /// HTTP status, if the service answered.
    pub status: Option<u16>,
    /// What the failed call was charged.
    pub charge: Usd,
    /// What it may have been charged (sent, outcome unknown).
    pub possible_charge: Usd,
    /// Demo mode's sandbox (the Web Worker) could not run: not the service's fault.
    pub demo_failure: bool,
}

impl ErrorInfo {
    /// From a client error of a call made in `mode`.
    pub fn from_error(e: &Error, mode: Mode) -> ErrorInfo {
        // Demo calls never use the network: a network error there is the sandbox worker's.
        let demo_failure = mode == Mode::Demo && matches!(e, Error::Network(_));
        ErrorInfo {
            code: e.code().to_string(),
            message: e.to_string(),
            hint: if demo_failure {
                "Reload the page: demo mode's sandbox is loaded from this site and could not run."
                    .into()
            } else {
                app_hint(e)
            },
            status: match e {
                Error::Http { status, .. } => Some(*status),
                _ => None,
            },
            charge: e.charge(),
            possible_charge: e.possible_charge(),
            demo_failure,
        }
    }
}

impl ErrorInfo {
    /// Some of what a run would buy was possibly charged in an interrupted call (a tab closed
    /// or reloaded while it was on its way): it is not bought again without the user's yes.
    pub fn possibly_charged(count: usize, ago_ms: f64) -> ErrorInfo {
        let them = if count == 1 { "it" } else { "them" };
        let were = if count == 1 {
            "1 of them was"
        } else {
            "some of them were"
        };
        ErrorInfo {
            code: "possibly_charged".into(),
            message: format!(
                "Not sent: {were} possibly charged {} ago in an interrupted call ({count} in all), and is not bought again without your yes.",
                ago(ago_ms)
            ),
            hint: format!("Run it again to buy {them} anyway: the service may charge {them} twice."),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            demo_failure: false,
        }
    }

    /// Run before the workspace was loaded: nothing was sent (its stored results, records and
    /// journal decide what is bought).
    pub fn loading() -> ErrorInfo {
        ErrorInfo {
            code: "loading".into(),
            message: "Your workspace is still loading: nothing was sent.".into(),
            hint: "Run it again in a moment; what you already bought is then reused.".into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            demo_failure: false,
        }
    }

    /// The app's code for calls (the wasm chunk of the service) could not be fetched from the
    /// app's server: nothing was sent or charged.
    pub fn code_unavailable() -> ErrorInfo {
        ErrorInfo {
            code: "app_unavailable".into(),
            message: "The part of the app that makes calls could not be fetched from the app's server. Nothing was sent or charged.".into(),
            hint: "Check the connection and run again, or reload the page.".into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            demo_failure: false,
        }
    }
}

impl ErrorInfo {
    /// A live call refused before anything was sent because of the base URL: not an
    /// http(s) URL (`invalid_base_url`), or plain http to another host without the user's
    /// confirmation (`insecure_base_url`).
    pub fn base_url(code: &str, message: String, hint: &str) -> ErrorInfo {
        ErrorInfo {
            code: code.into(),
            message,
            hint: hint.into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            demo_failure: false,
        }
    }
}

/// How long ago, in words ("3 s", "5 min", "2 h", "4 days").
pub fn ago(ms: f64) -> String {
    let s = (ms / 1000.0).max(0.0).round() as u64;
    match s {
        0..=89 => format!("{s} s"),
        90..=5_399 => format!("{} min", (s + 30) / 60),
        5_400..=129_599 => format!("{} h", (s + 1_800) / 3_600),
        _ => format!("{} days", (s + 43_200) / 86_400),
    }
}

/// The core's hint, pointed at where this app fixes it (Settings).
fn app_hint(e: &Error) -> String {
    match e {
        Error::MissingKey => "Enter your API key in Settings.".into(),
        Error::BudgetExceeded { .. } => {
            "Raise the budget cap in Settings, or run a smaller request.".into()
        }
        Error::Http { status: 401, .. } => {
            "The API key was refused: check the key in Settings.".into()
        }
        Error::Network(_) => "Check the network connection and the base URL in Settings.".into(),
        _ => e.hint().to_string(),
    }
}

/// The history's note about a failed or stopped call: its code and HTTP status, in words.
/// Deliberately never the error's message (it may quote the service's body).
pub fn history_message(code: &str, status: Option<u16>) -> String {
    let what = match code {
        "http" => "the service answered with an error",
        "timeout" => "timed out",
        "aborted" => "cancelled",
        "network" => "network error, not sent",
        "connection_lost" => "connection lost after sending",
        "loading" => "the workspace was still loading, not sent",
        "body_too_large" => "answer larger than the limit",
        "body_lost" => "answer lost while reading it",
        "not_json" => "the answer was not JSON",
        "decode" => "the answer did not match the expected shape",
        "contract_violation" => "the answer broke the contract (strict validation)",
        "journal" => "not sent: stopped before it left (storage, tabs or changed settings)",
        "settings_changed" => "not sent: the settings changed while it waited",
        "possibly_charged" => "not sent: some of it was possibly charged in an interrupted call",
        "budget_exceeded" => "over the budget cap",
        "missing_key" => "no API key",
        "invalid_request" => "invalid input",
        "app_unavailable" => "the app's call code could not be loaded",
        "invalid_base_url" => "the base URL is not an http(s) URL",
        "insecure_base_url" => "plain http base URL not confirmed",
        _ => "failed",
    };
    match status {
        Some(s) => format!("HTTP {s} ({code}): {what}"),
        None => format!("{what} ({code})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_messages_hold_only_code_and_status() {
        assert_eq!(
            history_message("http", Some(500)),
            "HTTP 500 (http): the service answered with an error"
        );
        assert_eq!(history_message("timeout", None), "timed out (timeout)");
        assert_eq!(history_message("<b>x</b>", None), "failed (<b>x</b>)");
    }
}
