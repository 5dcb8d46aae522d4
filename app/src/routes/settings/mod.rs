//! Settings: demo or live service, base URL, team server (`team.rs`), API key (session only unless "remember on this
//! device"), validation mode, budget cap, theme, default country; workspace export/import.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::machine::base_url::{self, BaseUrl};
use wasm_bindgen::JsCast;

use crate::components::csv;
use crate::model::{Mode, Settings, DEFAULT_MAX_BODY_MB};
use crate::research::ctr::{self, Curve};
use crate::research::score;
use crate::workspace::use_workspace;
use crate::workspace::{Period, Workspace};

mod team;

/// The settings page: one card per group of settings.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let workspace = use_workspace();
    view! {
        <section class="page settings" aria-labelledby="set-title">
            <h1 id="set-title">"Settings"</h1>
            <DataSource workspace=workspace />
            <team::TeamCard workspace=workspace />
            <SpendingAndChecks workspace=workspace />
            <ScoreWeights workspace=workspace />
            <CtrCurve workspace=workspace />
            <WorkspaceData workspace=workspace />
        </section>
    }
}

/// A change handler that saves the field's text with `f`.
fn edit(workspace: Workspace, f: fn(&mut Settings, String)) -> impl Fn(leptos::ev::Event) {
    move |ev: leptos::ev::Event| {
        let mut s = workspace.settings.get_untracked();
        f(&mut s, event_target_value(&ev));
        workspace.set_settings(s);
    }
}

/// Demo or live service; the live service's base URL and API key.
#[component]
fn DataSource(workspace: Workspace) -> impl IntoView {
    let set_mode = move |m: Mode| {
        let mut s = workspace.settings.get_untracked();
        s.mode = m;
        workspace.set_settings(s);
    };
    let live = move || workspace.settings.with(|s| s.mode == Mode::Live);
    view! {
        <fieldset class="card">
            <legend>"Data source"</legend>
            <label class="radio"><input type="radio" name="mode" data-testid="mode-demo" prop:checked=move || !live()
                on:change=move |_| set_mode(Mode::Demo) />
                " Demo: synthetic data generated in this browser. No key, no network, nothing paid."</label>
            <label class="radio"><input type="radio" name="mode" data-testid="mode-live" prop:checked=live
                on:change=move |_| set_mode(Mode::Live) />
                " Live service: real data, charged to your account."</label>
            <div class="grid" class:dim=move || !live()>
                <BaseUrlField workspace=workspace />
                <ApiKeyField workspace=workspace />
            </div>
        </fieldset>
    }
}

/// The base URL (grid rows): only http(s) URLs are saved; anything else stays in the field
/// with the reason.
#[component]
fn BaseUrlField(workspace: Workspace) -> impl IntoView {
    let url_error = RwSignal::new(None::<String>);
    let set_url = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev).trim().to_string();
        match base_url::check(&v) {
            BaseUrl::Invalid(why) => url_error.set(Some(format!("Not saved: {why}."))),
            _ => {
                url_error.set(None);
                let mut s = workspace.settings.get_untracked();
                s.base_url = v;
                workspace.set_settings(s);
            }
        }
    };
    view! {
        <label for="base-url">"Base URL"</label>
        <input id="base-url" data-testid="base-url" type="url" spellcheck="false"
            prop:value=move || workspace.settings.with(|s| s.base_url.clone())
            on:change=set_url />
        {move || url_error.get().map(|e| view! { <span></span><p class="error inline" data-testid="base-url-error">{e}</p> })}
        <InsecureUrlWarning workspace=workspace />
    }
}

/// The warning (grid rows) for a plain http:// base URL to another machine, with its
/// confirmation: live calls to it are refused until confirmed.
#[component]
fn InsecureUrlWarning(workspace: Workspace) -> impl IntoView {
    let insecure_host = move || {
        workspace
            .settings
            .with(|s| match base_url::check(&s.base_url) {
                BaseUrl::Insecure { host } => Some((host, s.insecure_ok == s.base_url.trim())),
                _ => None,
            })
    };
    let confirm_insecure = move |ok: bool| {
        let mut s = workspace.settings.get_untracked();
        s.insecure_ok = if ok {
            s.base_url.trim().to_string()
        } else {
            String::new()
        };
        workspace.set_settings(s);
    };
    move || {
        insecure_host().map(|(host, confirmed)| view! {
            <span></span>
            <div class="warning" role="alert" data-testid="insecure-url-warning" data-confirmed=confirmed.to_string()>
                <strong>"Plain http:// to another machine: "</strong>
                {format!("your API key would travel unencrypted to {host}, readable by anyone on the way. Use https:// if the service offers it.")}
                {if confirmed {
                    view! {
                        <p>"You confirmed sending the key to this URL. "
                            <button type="button" class="secondary" data-testid="insecure-url-revoke" on:click=move |_| confirm_insecure(false)>"Withdraw the confirmation"</button></p>
                    }.into_any()
                } else {
                    view! {
                        <p>"Live calls to it are refused until you confirm. "
                            <button type="button" class="danger" data-testid="insecure-url-confirm" on:click=move |_| confirm_insecure(true)>"Send my key over plain http to this URL"</button></p>
                    }.into_any()
                }}
            </div>
        })
    }
}

/// The API key and whether it is remembered on this device (grid rows).
#[component]
fn ApiKeyField(workspace: Workspace) -> impl IntoView {
    view! {
        <label for="api-key">"API key"</label>
        <div>
            <input id="api-key" data-testid="api-key" type="password" autocomplete="off" spellcheck="false"
                prop:value=move || workspace.key.get()
                on:input=move |ev| workspace.set_key(event_target_value(&ev)) />
            <p class="meta">"Sent only in request bodies to the base URL. Never put in URLs, exports or logs."</p>
        </div>
        <span></span>
        <label class="check"><input type="checkbox" data-testid="remember-key"
            prop:checked=move || workspace.settings.with(|s| s.remember_key)
            on:change=move |ev| {
                let mut s = workspace.settings.get_untracked();
                s.remember_key = event_target_checked(&ev);
                workspace.set_settings(s);
            } />
            " Remember the key on this device (otherwise it is forgotten when you close or reload the tab)"</label>
    }
}

/// Budget, validation, limits and the default country.
#[component]
fn SpendingAndChecks(workspace: Workspace) -> impl IntoView {
    view! {
        <fieldset class="card">
            <legend>"Spending and checks"</legend>
            <div class="grid">
                <BudgetFields workspace=workspace />
                <label for="validation">"Response validation"</label>
                <select id="validation" data-testid="validation-mode" on:change=edit(workspace, |s, v| s.validation = v.parse().unwrap_or(s.validation))>
                    {[("warn", "Check and report (default)"), ("strict", "Strict: reject answers that break the contract"), ("off", "Off")]
                        .into_iter().map(|(v, l)| view! {
                            <option value=v selected=move || workspace.settings.with(|s| s.validation.as_str() == v)>{l}</option>
                        }).collect_view()}
                </select>
                <LimitFields workspace=workspace />
                <label for="def-cc">"Default country"</label>
                <input id="def-cc" maxlength="2" prop:value=move || workspace.settings.with(|s| s.ccode.clone())
                    on:change=edit(workspace, |s, v| s.ccode = v.trim().to_uppercase()) />
            </div>
        </fieldset>
    }
}

/// The budget cap and its period (grid rows).
#[component]
fn BudgetFields(workspace: Workspace) -> impl IntoView {
    // What was typed and refused (never saved: the cap in force stays as it was).
    let refused = RwSignal::new(None::<(String, String)>);
    let stored_error = move || {
        workspace.settings.with(|s| {
            serpkit::machine::parse_cap(&s.budget).err().map(|e| {
                format!("The stored cap \"{}\" is not an amount, so nothing live is bought until you fix it: {e}.", s.budget.trim())
            })
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        match serpkit::machine::parse_cap(&typed) {
            Ok(_) => {
                refused.set(None);
                let mut s = workspace.settings.get_untracked();
                s.budget = typed.trim().to_string();
                workspace.set_settings(s);
            }
            Err(e) => {
                let kept = workspace.settings.with_untracked(|s| s.budget.trim().to_string());
                let kept = if kept.is_empty() { "no cap".to_string() } else { format!("${kept}") };
                refused.set(Some((typed.trim().to_string(), format!("\"{}\" was not saved: {e}. The cap stays {kept}.", typed.trim()))));
            }
        }
    };
    view! {
        <label for="budget">"Budget cap ($)"</label>
        <div>
            <input id="budget" data-testid="budget" inputmode="decimal" placeholder="no cap"
                prop:value=move || refused.with(|r| r.as_ref().map(|(t, _)| t.clone())).unwrap_or_else(|| workspace.settings.with(|s| s.budget.clone()))
                on:change=on_change />
            {move || refused.with(|r| r.as_ref().map(|(_, m)| m.clone())).or_else(stored_error).map(|e| view! { <p class="error inline" data-testid="budget-error">{e}</p> })}
            <p class="meta">"Live money only (demo spends nothing). Empty: no cap; 0: nothing may be spent. Shared by every tab of this browser and kept across reloads: a call that would take what was spent, possibly charged and is in flight over the cap is not sent."</p>
        </div>
        <label for="budget-period">"Budget period"</label>
        <div>
            <select id="budget-period" data-testid="budget-period" on:change=edit(workspace, |s, v| s.budget_period = Period::from_name(&v).unwrap_or(s.budget_period))>
                {Period::ALL.into_iter().map(|p| view! {
                    <option value=p.as_str() selected=move || workspace.budget_period() == p>
                        {match p { Period::Day => "Per day (UTC)", Period::Month => "Per calendar month (UTC)", Period::UntilReset => "Until I reset it" }}
                    </option>
                }).collect_view()}
            </select>
            " "
            <button type="button" class="secondary" data-testid="reset-meter" on:click=move |_| workspace.reset_meter()>"Reset the meter now"</button>
        </div>
    }
}

/// The largest answer read and how long bought records are reused (grid rows).
#[component]
fn LimitFields(workspace: Workspace) -> impl IntoView {
    let max_mb_error = RwSignal::new(None::<String>);
    let set_max_mb =
        move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<u32>() {
            Ok(mb) if (1..=4096).contains(&mb) => {
                max_mb_error.set(None);
                let mut s = workspace.settings.get_untracked();
                s.max_body_mb = mb;
                workspace.set_settings(s);
            }
            _ => max_mb_error.set(Some("Enter a whole number of MB from 1 to 4096.".into())),
        };
    let max_age_error = RwSignal::new(None::<String>);
    let set_max_age =
        move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<u32>() {
            Ok(days) if days <= 3650 => {
                max_age_error.set(None);
                let mut s = workspace.settings.get_untracked();
                s.record_max_age_days = days;
                workspace.set_settings(s);
            }
            _ => max_age_error.set(Some("Enter a whole number of days from 0 to 3650.".into())),
        };
    view! {
        <label for="max-body">"Largest answer (MB)"</label>
        <div>
            <input id="max-body" data-testid="max-body-mb" type="number" min="1" max="4096" step="1"
                prop:value=move || workspace.settings.with(|s| s.max_body_mb.to_string())
                on:change=set_max_mb />
            {move || max_mb_error.get().map(|e| view! { <p class="error inline" data-testid="max-body-error">{e}</p> })}
            <p class="meta">{format!("An answer larger than this is not read (it is still charged by the service). Default {DEFAULT_MAX_BODY_MB} MB: what a browser tab holds comfortably.")}</p>
        </div>
        <label for="max-age">"Bought records expire after (days)"</label>
        <div>
            <input id="max-age" data-testid="record-max-age" type="number" min="0" max="3650" step="1"
                prop:value=move || workspace.settings.with(|s| s.record_max_age_days.to_string())
                on:change=set_max_age />
            {move || max_age_error.get().map(|e| view! { <p class="error inline" data-testid="max-age-error">{e}</p> })}
            <p class="meta">"A keyword, domain or URL is paid for once: a later request that asks for it again is answered from what was bought. Older records than this are bought again (with their price shown first). 0: never expire. Refresh buys everything asked again."</p>
        </div>
    }
}

/// The weights of the opportunity score and its formula.
#[component]
fn ScoreWeights(workspace: Workspace) -> impl IntoView {
    view! {
        <fieldset class="card" data-testid="score-weights">
            <legend>"Opportunity score"</legend>
            <p class="meta" data-testid="score-formula">{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}</p>
            <div class="grid">
                <label for="w-volume">"Weight of volume"</label>
                <input id="w-volume" data-testid="w-volume" type="number" min="0" max="100" step="any"
                    prop:value=move || workspace.settings.with(|s| s.score_weights.volume.to_string())
                    on:change=edit(workspace, |s, v| s.score_weights.volume = weight(&v, s.score_weights.volume)) />
                <label for="w-cpc">"Weight of CPC"</label>
                <input id="w-cpc" data-testid="w-cpc" type="number" min="0" max="100" step="any"
                    prop:value=move || workspace.settings.with(|s| s.score_weights.cpc.to_string())
                    on:change=edit(workspace, |s, v| s.score_weights.cpc = weight(&v, s.score_weights.cpc)) />
                <label for="w-competition">"Weight of low competition"</label>
                <input id="w-competition" data-testid="w-competition" type="number" min="0" max="100" step="any"
                    prop:value=move || workspace.settings.with(|s| s.score_weights.competition.to_string())
                    on:change=edit(workspace, |s, v| s.score_weights.competition = weight(&v, s.score_weights.competition)) />
            </div>
        </fieldset>
    }
}

/// The click-through curve of estimated traffic (`research::ctr`): the published default,
/// replaceable by the user's own.
#[component]
fn CtrCurve(workspace: Workspace) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let set = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let parsed = if text.trim().is_empty() {
            Ok(Curve::default())
        } else {
            Curve::parse(&text)
        };
        match parsed {
            Ok(curve) => {
                error.set(None);
                let mut s = workspace.settings.get_untracked();
                s.ctr_curve = curve;
                workspace.set_settings(s);
            }
            Err(e) => error.set(Some(format!("Not saved: {e}."))),
        }
    };
    view! {
        <fieldset class="card" data-testid="ctr-curve">
            <legend>"Click-through curve"</legend>
            <p class="meta" data-testid="ctr-rule">{ctr::CURVE_RULE}</p>
            <label for="ctr-text">"Click-through rate by position (%, position 1 first; empty: the default)"</label>
            <input id="ctr-text" data-testid="ctr-text" type="text" inputmode="decimal"
                prop:value=move || workspace.settings.with(|s| s.ctr_curve.text())
                on:change=set />
            {move || error.get().map(|e| view! { <p class="error inline" data-testid="ctr-error">{e}</p> })}
        </fieldset>
    }
}

/// A weight typed in Settings: a finite number from 0 to 100, else the previous weight.
fn weight(text: &str, previous: f64) -> f64 {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|w| w.is_finite() && (0.0..=100.0).contains(w))
        .unwrap_or(previous)
}

/// Workspace export and import; an imported file's settings wait for confirmation.
#[component]
fn WorkspaceData(workspace: Workspace) -> impl IntoView {
    let import_msg = RwSignal::new(String::new());
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let msg = match text.ok().and_then(|t| t.as_string()) {
                Some(t) => match workspace.import_json(&t) {
                    Ok(m) => m,
                    Err(e) => format!("Import failed: {e}"),
                },
                None => "Import failed: the file could not be read.".into(),
            };
            import_msg.set(msg);
        });
    };
    let export = move |_| {
        if let Err(e) = csv::download(
            "serpkit-workspace.json",
            "application/json",
            &workspace.export_json(),
            // A workspace file, not rows: each result in it keeps its own source and mode,
            // which its import reads.
            csv::Origin::Live,
        ) {
            import_msg.set(format!("Export failed: {e}"));
        }
    };
    view! {
        <fieldset class="card">
            <legend>"Workspace data"</legend>
            <p>"Results, lists and history are kept in this browser (IndexedDB). Export them to a JSON file to move or back them up; the API key is never part of an export."</p>
            <div class="toolbar">
                <button type="button" data-testid="export-workspace" on:click=export>"Export workspace"</button>
                <label class="button secondary">"Import workspace…"
                    <input type="file" accept="application/json,.json" class="sr-only" data-testid="import-workspace" on:change=import />
                </label>
                <span role="status" data-testid="import-status">{move || import_msg.get()}</span>
            </div>
            <ImportedSettings workspace=workspace />
        </fieldset>
    }
}

/// The settings of the last imported file, never applied without a click: an import never
/// changes where the key goes.
#[component]
fn ImportedSettings(workspace: Workspace) -> impl IntoView {
    move || {
        workspace.imported_settings.get().map(|f| {
            let budget = if f.budget.trim().is_empty() { "no cap".to_string() } else { format!("${}", f.budget.trim()) };
            view! {
                <div class="warning" data-testid="imported-settings">
                    <p><strong>"The imported file's settings were not applied."</strong>" An import never changes where your key goes. The file had:"</p>
                    <ul>
                        <li data-testid="imported-mode">{format!("Data source: {}", if f.mode == Mode::Live { "live service" } else { "demo" })}</li>
                        <li data-testid="imported-base-url">{format!("Base URL: {}", f.base_url)}</li>
                        <li data-testid="imported-budget">{format!("Budget cap: {budget}")}</li>
                        <li data-testid="imported-validation">{format!("Response validation: {}", f.validation.as_str())}</li>
                    </ul>
                    <div class="toolbar">
                        <button type="button" class="danger" data-testid="apply-imported-settings"
                            on:click=move |_| workspace.apply_imported_settings()>"Apply these settings"</button>
                        <button type="button" class="secondary" data-testid="discard-imported-settings"
                            on:click=move |_| workspace.imported_settings.set(None)>"Keep mine"</button>
                    </div>
                </div>
            }
        })
    }
}
