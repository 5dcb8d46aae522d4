//! Team mode: the app as a member of a team server (`server/`). Calls go to the server with
//! the member token where the service takes its key (Settings: [`crate::model::Settings::team`],
//! [`crate::model::Settings::team_url`]); the server holds the service key and buys each
//! record once for the team. The app's own money rules stay as they are (price first, the
//! cap, reuse): the server enforces the team's too.
//!
//! What the team adds to the tab, read from the server's own API with the token as a bearer:
//! the team's and the member's spend (`GET /team/spend`, the meter), who bought what (`GET
//! /team/purchases`, History), and the team's records (`GET /team/records`, a feed): each is
//! kept as bought in the tab's records under the tab's own source, so prices, tables and
//! calls treat another member's purchase as bought here. Position changes read the team's
//! scheduled purchases of a domain's ranked keywords (`GET /team/history`,
//! [`ranked_history`]): a history nobody had to click for.

use leptos::prelude::*;
use serde::Deserialize;
use serpkit::records::{RecordKey, RecordKind};

use super::records::RecordEntry;
use super::Workspace;
use crate::model::Mode;

/// How often a tab in team mode reads the team's spend and new records (ms).
pub const POLL_MS: i32 = 3000;

/// The team's and the member's spend of the period (`GET /team/spend`), amounts as the
/// server writes them (decimal dollars).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Spend {
    /// `day`, `month` or `until_reset`.
    pub period: String,
    /// The team's.
    pub team: Budget,
    /// The member's own.
    pub member: Budget,
}

/// One budget's spend (`spent`, `possibly_charged`, `cap`; `name` for a member).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Budget {
    /// The member's name (empty for the team).
    #[serde(default)]
    pub name: String,
    /// Confirmed charges.
    pub spent: String,
    /// Calls whose outcome is unknown.
    pub possibly_charged: String,
    /// The cap, if any.
    pub cap: Option<String>,
}

/// One purchase of the team (`GET /team/purchases`): who bought what, and what it cost.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Purchase {
    /// The server's entry id.
    pub id: i64,
    /// The member's name.
    pub member: String,
    /// The operation (`search_volume/bulk`).
    pub operation: String,
    /// `charged` or `possibly_charged`.
    pub state: String,
    /// Charged (decimal dollars).
    pub charge: String,
    /// Possibly charged.
    pub possibly_charged: String,
    /// When (ms since the epoch).
    pub at: f64,
    /// What it bought: record items (`US|running shoes`) or the request's inputs.
    pub items: Vec<String>,
}

#[derive(Deserialize)]
struct Purchases {
    entries: Vec<Purchase>,
}

/// One scheduled purchase of a domain's ranked keywords (`GET /team/history`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ScheduledRun {
    /// The server's run id.
    pub id: i64,
    /// When it was bought (ms since the epoch).
    pub at: f64,
    /// The member whose schedule it is.
    pub member: String,
    /// The service's answer, as bought.
    pub body: String,
}

#[derive(Deserialize)]
struct History {
    runs: Vec<ScheduledRun>,
}

/// How many scheduled purchases position changes read: the two it compares.
pub const HISTORY_RUNS: usize = 2;

/// The team server's latest scheduled purchases of `domain`'s ranked keywords, newest first
/// (at most [`HISTORY_RUNS`]); none outside team mode. Reading them buys nothing.
pub async fn ranked_history(
    workspace: Workspace,
    domain: &str,
) -> Result<Vec<ScheduledRun>, String> {
    let Some((url, token)) = member(workspace) else {
        return Ok(Vec::new());
    };
    let path = format!(
        "/team/history?domain={}&limit={HISTORY_RUNS}",
        crate::paths::enc(domain)
    );
    get::<History>(&url, &token, &path).await.map(|h| h.runs)
}

#[derive(Deserialize)]
struct FeedRecord {
    kind: String,
    key: String,
    json: String,
    at: f64,
}

#[derive(Deserialize)]
struct Feed {
    records: Vec<FeedRecord>,
    next: i64,
}

/// The tab's team state: provided as context by the app root, read by the meter and History.
#[derive(Clone, Copy)]
pub struct Team {
    /// The last spend read (None: not in team mode, or not read yet).
    pub spend: RwSignal<Option<Spend>>,
    /// The last purchases read.
    pub purchases: RwSignal<Vec<Purchase>>,
    /// Why the last read failed, if it did.
    pub error: RwSignal<Option<String>>,
    /// The feed's position and the server and token it belongs to (a change starts over).
    cursor: StoredValue<(String, i64)>,
}

/// The team state from context.
pub fn use_team() -> Team {
    expect_context::<Team>()
}

impl Team {
    /// Provides the team state and starts following the server while the tab is in team
    /// mode: spend and new records every [`POLL_MS`].
    pub fn provide(workspace: Workspace) -> Team {
        let team = Team {
            spend: RwSignal::new(None),
            purchases: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
            cursor: StoredValue::new((String::new(), 0)),
        };
        provide_context(team);
        let tick = move || leptos::task::spawn_local(team.refresh(workspace));
        // At once when the workspace is loaded or team mode, its server or the token change.
        Effect::new(move |_| {
            workspace.loaded.track();
            workspace.key.track();
            workspace
                .settings
                .with(|s| (s.mode, s.team, s.team_url.clone()));
            tick();
        });
        if let Ok(handle) =
            set_interval_with_handle(tick, std::time::Duration::from_millis(POLL_MS as u64))
        {
            on_cleanup(move || handle.clear());
        }
        team
    }

    /// Reads the spend and the records bought since the last read (nothing outside team
    /// mode, or before the workspace is loaded: records then would be overwritten).
    pub async fn refresh(self, workspace: Workspace) {
        let Some((url, token)) = member(workspace) else {
            self.spend.set(None);
            return;
        };
        if !workspace.loaded.get_untracked() {
            return;
        }
        let result = async {
            let spend: Spend = get(&url, &token, "/team/spend").await?;
            self.spend.set(Some(spend));
            self.sync_records(workspace, &url, &token).await
        }
        .await;
        self.error.set(result.err());
    }

    /// Reads who bought what.
    pub async fn read_purchases(self, workspace: Workspace) {
        let Some((url, token)) = member(workspace) else {
            return;
        };
        match get::<Purchases>(&url, &token, "/team/purchases").await {
            Ok(p) => self.purchases.set(p.entries),
            Err(e) => self.error.set(Some(e)),
        }
    }

    /// Follows the team's records feed to its end, keeping each record as bought here.
    async fn sync_records(
        self,
        workspace: Workspace,
        url: &str,
        token: &str,
    ) -> Result<(), String> {
        let who = format!("{url}\u{0}{}", crate::model::hash_hex(token));
        let mut after = self
            .cursor
            .with_value(|(w, n)| if *w == who { *n } else { 0 });
        let source = workspace.record_source();
        loop {
            let feed: Feed = get(url, token, &format!("/team/records?after={after}")).await?;
            workspace
                .records
                .extend(feed.records.iter().filter_map(|r| entry(&source, r)));
            let done = feed.next <= after;
            after = feed.next;
            self.cursor.set_value((who.clone(), after));
            if done || feed.records.is_empty() {
                return Ok(());
            }
        }
    }
}

/// The server's record as the tab keeps it: keyed from the tab's own source (the team
/// server's URL), bought (not imported).
fn entry(source: &str, r: &FeedRecord) -> Option<RecordEntry> {
    let kind = RecordKind::from_name(&r.kind)?;
    let key = RecordKey::from_parts(source, kind, &r.key);
    Some(RecordEntry {
        kind: kind.name().to_string(),
        key: key.as_str().to_string(),
        json: r.json.clone(),
        at: r.at,
        issues: Vec::new(),
        imported: false,
    })
}

/// The team server and member token, in team mode with both set.
pub fn member(workspace: Workspace) -> Option<(String, String)> {
    let (on, url) = workspace.settings.with_untracked(|s| {
        (
            s.mode == Mode::Live && s.team,
            s.team_url.trim().trim_end_matches('/').to_string(),
        )
    });
    let token = workspace.key.get_untracked().trim().to_string();
    (on && !url.is_empty() && !token.is_empty() && workspace.live_target().is_ok())
        .then_some((url, token))
}

/// `GET url+path` with the token as a bearer, its JSON body; the server's error message
/// otherwise (never the token: the server's messages do not echo it).
async fn get<T: for<'de> Deserialize<'de>>(
    url: &str,
    token: &str,
    path: &str,
) -> Result<T, String> {
    let (status, body) = fetch_get(&format!("{url}{path}"), token).await?;
    if status != 200 {
        let message = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
            .unwrap_or_else(|| format!("HTTP {status}"));
        return Err(format!("The team server refused: {message}"));
    }
    serde_json::from_str(&body)
        .map_err(|e| format!("The team server's answer is not readable: {e}"))
}

#[cfg(target_arch = "wasm32")]
async fn fetch_get(url: &str, token: &str) -> Result<(u16, String), String> {
    use js_sys::{Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    let unreachable = || "The team server cannot be reached.".to_string();
    let headers = Object::new();
    let _ = Reflect::set(
        &headers,
        &"authorization".into(),
        &format!("Bearer {token}").into(),
    );
    let init = Object::new();
    let _ = Reflect::set(&init, &"headers".into(), &headers);
    let _ = Reflect::set(&init, &"credentials".into(), &"omit".into());
    let _ = Reflect::set(&init, &"cache".into(), &"no-store".into());
    let _ = Reflect::set(&init, &"redirect".into(), &"error".into());
    let global = js_sys::global();
    let fetch: js_sys::Function = Reflect::get(&global, &"fetch".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(unreachable)?;
    let promise: js_sys::Promise = fetch
        .call2(&global, &JsValue::from_str(url), &init)
        .map_err(|_| unreachable())?
        .unchecked_into();
    let response = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|_| unreachable())?;
    let status = Reflect::get(&response, &"status".into())
        .ok()
        .and_then(|s| s.as_f64())
        .unwrap_or(0.0) as u16;
    let text: js_sys::Function = Reflect::get(&response, &"text".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(unreachable)?;
    let body = text.call0(&response).map_err(|_| unreachable())?;
    let body = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(body))
        .await
        .map_err(|_| unreachable())?;
    Ok((status, body.as_string().unwrap_or_default()))
}

#[cfg(not(target_arch = "wasm32"))]
async fn fetch_get(_: &str, _: &str) -> Result<(u16, String), String> {
    Err("no network in native builds".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_record_is_keyed_from_the_tabs_source() {
        let r = FeedRecord {
            kind: "search_volume".into(),
            key: "US|running shoes".into(),
            json: "{}".into(),
            at: 5.0,
        };
        let e = entry("http://127.0.0.1:7070", &r).unwrap();
        assert_eq!(
            e.key,
            serpkit::records::key::search_volume_key(
                "http://127.0.0.1:7070",
                "us",
                "Running Shoes"
            )
            .as_str()
        );
        assert!(!e.imported);
        let unknown = FeedRecord {
            kind: "nope".into(),
            ..r
        };
        assert!(entry("s", &unknown).is_none());
    }
}
