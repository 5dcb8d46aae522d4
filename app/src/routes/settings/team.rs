//! Settings' Team card: the team server's URL and the member token. In team mode live calls
//! go to the team server, the member token where the service takes its key (the server
//! holds the service key), and the header shows the team's and the member's spend.

use leptos::prelude::*;
use serpkit::machine::base_url::{self, BaseUrl};

use crate::model::Mode;
use crate::workspace::Workspace;

/// The Team card.
#[component]
pub fn TeamCard(workspace: Workspace) -> impl IntoView {
    let on = move || workspace.settings.with(|s| s.mode == Mode::Live && s.team);
    let url_error = RwSignal::new(None::<String>);
    let set_on = move |team: bool| {
        let mut s = workspace.settings.get_untracked();
        if s.team && !team {
            // The member token is no key of the service: it does not follow to it.
            workspace.set_key(String::new());
        }
        s.team = team;
        if team {
            s.mode = Mode::Live;
        }
        workspace.set_settings(s);
    };
    let set_url = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev).trim().to_string();
        // The token goes there: https, or plain http to this machine only.
        let why = match base_url::check(&v) {
            BaseUrl::Safe => None,
            BaseUrl::Invalid(why) => Some(why.to_string()),
            BaseUrl::Insecure { host } => Some(format!(
                "plain http:// to {host} would send your member token unencrypted: use the server's https:// address"
            )),
        };
        url_error.set(why.clone().map(|w| format!("Not saved: {w}.")));
        if why.is_none() {
            let mut s = workspace.settings.get_untracked();
            s.team_url = v;
            workspace.set_settings(s);
        }
    };
    view! {
        <fieldset class="card">
            <legend>"Team"</legend>
            <label class="check"><input type="checkbox" data-testid="team-on" prop:checked=on
                on:change=move |ev| set_on(event_target_checked(&ev)) />
                " Use a team server: records are bought once for the whole team, within the team's budget; the server holds the service key."</label>
            <div class="grid" class:dim=move || !on()>
                <label for="team-url">"Team server"</label>
                <input id="team-url" data-testid="team-url" type="url" spellcheck="false"
                    placeholder="https://serpkit.example.com"
                    prop:value=move || workspace.settings.with(|s| s.team_url.clone())
                    on:change=set_url />
                {move || url_error.get().map(|e| view! { <span></span><p class="error inline" data-testid="team-url-error">{e}</p> })}
                <label for="team-token">"Member token"</label>
                <div>
                    <input id="team-token" data-testid="team-token" type="password" autocomplete="off" spellcheck="false"
                        prop:value=move || if on() { workspace.key.get() } else { String::new() }
                        on:input=move |ev| workspace.set_key(event_target_value(&ev)) />
                    <p class="meta">"Your own token from the team's admin (tm_…). In team mode it is the key the app sends, so \"Remember the key\" above applies to it."</p>
                </div>
            </div>
        </fieldset>
    }
}
