//! Settings and the API key: saved in localStorage (the key only with "remember on this
//! device"), the budget cap, where records are bought, and whether the key may go to the
//! live base URL (the money machine's rule: [`serpkit::machine::Settings::target`]).

use leptos::prelude::*;
use serpkit::machine::{base_url, Refusal, Setting, StoreError};
use serpkit::Usd;

use super::{now, ErrorInfo, Workspace};
use crate::host::rows;
use crate::model::{Mode, Settings};
use crate::store;

/// The base URL of demo mode's clients (no request leaves the tab).
pub const DEMO_BASE_URL: &str = "sandbox://demo";

impl Workspace {
    /// Saves the fields this tab changed (localStorage, field by field: [`Settings::merged`])
    /// and applies the key policy. The fields that move money (mode, base URL and its
    /// confirmation, cap, period, reset) are shown at once and written by this tab's money
    /// machine under the journal lock, ordered with every write-ahead ([`Self::change_money`]).
    /// False when the browser refused to store the others.
    pub fn set_settings(self, settings: Settings) -> bool {
        let before = self.settings.get_untracked();
        let money = rows::money_changes(&before, &settings);
        let rest = rows::without_money(&settings, &before);
        let merged = Settings::merged(&before, &rest, store::stored_settings());
        let saved = self.write_settings(&merged);
        // This tab's money fields as it shows them (a change of its own may still be on its
        // way to the store), with this edit's.
        let mut shown = rows::without_money(&merged, &before);
        for m in &money {
            rows::apply_setting(&mut shown, m);
        }
        self.settings.set(shown);
        self.persist_key();
        // The meter follows the mode, the cap's period and a reset.
        self.refresh_spend();
        if !money.is_empty() {
            self.change_money(money);
        }
        saved
    }

    /// The settings as stored, shared by every tab (this tab's while none are stored).
    pub(crate) fn shared_settings(self) -> Settings {
        store::stored_settings().unwrap_or_else(|| self.settings.get_untracked())
    }

    /// The settings as stored (this tab's while none are stored), or an error when the
    /// stored value cannot be read: what the money machine reads under the lock.
    pub(crate) fn shared_settings_strict(self) -> Result<Settings, StoreError> {
        match store::stored_settings_strict() {
            Ok(stored) => Ok(stored.unwrap_or_else(|| self.settings.get_untracked())),
            Err(_) => Err(StoreError::Unreadable),
        }
    }

    /// Writes the money settings the machine committed over what is stored (field by field),
    /// and shows them. False when the browser refused to store them.
    pub(crate) fn write_money(self, changes: &[Setting]) -> bool {
        let mut stored = self.shared_settings();
        for c in changes {
            rows::apply_setting(&mut stored, c);
        }
        let saved = self.write_settings(&stored);
        // Usually shown already (`set_settings`): then nothing is redrawn, so a field being
        // typed in meanwhile keeps what was typed.
        let mut shown = self.settings.get_untracked();
        for c in changes {
            rows::apply_setting(&mut shown, c);
        }
        if self.settings.with_untracked(|s| *s != shown) {
            self.settings.set(shown);
            self.refresh_spend();
        }
        saved
    }

    fn write_settings(self, settings: &Settings) -> bool {
        let Ok(text) = serde_json::to_string(settings) else {
            return false;
        };
        if let Err(e) = store::local_try_set(store::SETTINGS_KEY, &text) {
            self.save_failed(format!("Could not save the settings in this browser: {e}"));
            return false;
        }
        true
    }

    /// Sets the API key (memory; stored only when "remember" is ticked).
    pub fn set_key(self, key: String) {
        self.key.set(key);
        self.persist_key();
    }

    /// Stores the key in localStorage when "remember" is ticked, removes it otherwise.
    fn persist_key(self) {
        let remember = self.settings.with_untracked(|s| s.remember_key);
        let key = self.key.get_untracked();
        if remember && !key.is_empty() {
            if let Err(e) = store::local_try_set(store::API_KEY_KEY, &key) {
                // The reason never holds the key (the browser names the item, not its value).
                self.save_failed(format!(
                    "Could not remember the API key on this device: {e}"
                ));
            }
        } else {
            store::local_remove(store::API_KEY_KEY);
        }
    }

    /// The mode now.
    pub fn mode(self) -> Mode {
        self.settings.with_untracked(|s| s.mode)
    }

    /// The budget cap: `None` for no cap, `Some(0)` when nothing may be spent, and also when
    /// the stored text is not an amount (the cap fails closed: [`serpkit::machine::stored_cap`]).
    pub fn budget_cap(self) -> Option<Usd> {
        self.settings
            .with_untracked(|s| serpkit::machine::stored_cap(&s.budget))
    }

    /// Follows the settings other tabs store (the `storage` event): every tab sees a change
    /// live, so none shows or keeps a stale copy.
    pub fn follow_settings(self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Some(window) = web_sys::window() else {
            return;
        };
        let on_storage = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let key = js_sys::Reflect::get(&ev, &"key".into())
                .ok()
                .and_then(|k| k.as_string());
            if key.as_deref() == Some(store::SETTINGS_KEY) {
                if let Some(s) = store::stored_settings() {
                    if self.settings.with_untracked(|now| *now != s) {
                        self.settings.set(s);
                        self.refresh_spend();
                    }
                }
            }
        });
        let _ =
            window.add_event_listener_with_callback("storage", on_storage.as_ref().unchecked_ref());
        on_storage.forget();
    }

    /// Where records are bought now: the client's base URL as record keys see it (demo
    /// mode's sandbox is a source of its own, so demo records never answer live calls).
    pub fn record_source(self) -> String {
        self.settings.with(|s| match s.mode {
            Mode::Demo => serpkit::records::source_of(DEMO_BASE_URL),
            Mode::Live => serpkit::records::source_of(s.live_base_url()),
        })
    }

    /// How calls are planned now: the max age from Settings, and `refresh`.
    pub fn plan_options(self, refresh: bool) -> serpkit::records::PlanOptions {
        serpkit::records::PlanOptions {
            now_ms: now(),
            max_age_ms: self.settings.with(Settings::record_max_age_ms),
            refresh,
        }
    }

    /// In live mode, whether the key may go to the base URL: the machine's rule
    /// ([`serpkit::machine::Settings::target`]: an http(s) URL, and plain http to another
    /// host only once the user confirmed that URL in Settings). (Chosen over a per-call
    /// dialog: the warning and the confirmation live in one place, Settings, and a call is
    /// refused with that warning, nothing sent, until then.)
    pub fn live_target(self) -> Result<(), ErrorInfo> {
        // With a team server, live calls go there.
        let (target, url) = self.settings.with_untracked(|s| {
            let base_url = s.live_base_url().trim().to_string();
            let settings = serpkit::machine::Settings {
                base_url: base_url.clone(),
                ..rows::machine_settings(s)
            };
            (settings.target(), base_url)
        });
        match target {
            Ok(_) => Ok(()),
            Err(Refusal::InsecureUrl) => Err(ErrorInfo::base_url(
                "insecure_base_url",
                format!(
                    "Not sent: the base URL uses plain http:// to {}, so your API key would cross the network unencrypted.",
                    match base_url::check(&url) {
                        base_url::BaseUrl::Insecure { host } => host,
                        _ => url,
                    }
                ),
                "Use an https:// base URL, or confirm in Settings that you accept sending the key over plain http to this host.",
            )),
            Err(Refusal::InvalidUrl(why)) => Err(invalid_url(why)),
            Err(_) => Err(invalid_url("the base URL is not valid")),
        }
    }
}

fn invalid_url(why: &str) -> ErrorInfo {
    ErrorInfo::base_url(
        "invalid_base_url",
        format!("Not sent: {why}."),
        "Enter the service's https:// base URL in Settings.",
    )
}
