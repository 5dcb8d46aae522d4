//! The serpkit app: a keyword-research workspace (Leptos CSR).
//!
//! Layers, lower never importing higher (no cycles between these modules):
//!
//! ```text
//! paths, model, sort, format, research  <-  store  <-  host  <-  workspace  <-  components  <-  routes
//! ```
//!
//! - [`paths`]: the app's URLs (page routes, query encoding); imports nothing of the app.
//! - [`model`]: the stored data types. [`sort`]: the one stable sort (keeps the wasm small).
//!   [`format`]: numbers, money, changes and dates as text (pages and reports).
//! - [`research`]: trends, seasonality and the opportunity score, computed from data already
//!   bought.
//! - [`store`]: IndexedDB and localStorage.
//! - [`host`]: the app as a host of the money state machine: performs its effects (the
//!   journal lock, commits, the channel), decides nothing, imports nothing of the workspace.
//! - [`workspace`]: the workspace state and the only place that builds the client and runs
//!   calls (settings and key, persistence, lists, import/export, calls, the service chunk,
//!   demo mode's transport, bought records, error explanations).
//! - [`components`]: pieces shared by the pages.
//! - [`routes`]: one module per page; the page list (`paths::for_each_page!`) declares them,
//!   their routes and the navigation. Pages never import other pages.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{path, Lazy};

pub mod components;
pub mod format;
pub mod host;
pub mod model;
pub mod paths;
pub mod research;
pub mod routes;
pub mod sort;
pub mod store;
pub mod workspace;

use model::Mode;
use workspace::Workspace;

/// The router's routes from the page list (`paths::for_each_page!`): every path of each page
/// renders its lazy route.
macro_rules! app_routes {
    ($($module:ident::$page:ident, $route:ident, $chunk:ident, $path:tt $(| $alias:tt)* $(, nav $label:literal)?;)*) => {
        view! {
            <Routes fallback=|| view! { <section class="empty"><h1>"Page not found"</h1><p><A href="/">"Go to the keyword explorer"</A></p></section> }>
                $(
                    <Route path=path!($path) view={Lazy::<routes::$route>::new()} />
                    $(<Route path=path!($alias) view={Lazy::<routes::$route>::new()} />)*
                )*
            </Routes>
        }
    };
}

/// The app root: workspace context, header (navigation, mode, spend, theme), pages.
#[component]
pub fn App() -> impl IntoView {
    let workspace = Workspace::new();
    provide_context(workspace);
    workspace.load();
    workspace::team::Team::provide(workspace);
    Effect::new(move |_| {
        let theme = workspace.settings.with(|s| s.theme.clone());
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("data-theme", &theme);
        }
    });
    // True while a navigation waits for its page (its wasm chunk the first time it opens).
    let (routing, set_routing) = signal(false);
    view! {
        <Router set_is_routing=set_routing>
            <a class="skip" href="#main">"Skip to content"</a>
            <header class="top">
                <A href="/" attr:class="brand">"serpkit"</A>
                <nav aria-label="Main" class="mainnav">
                    {routes::NAV
                        .iter()
                        .map(|(href, label)| view! { <A href=*href attr:data-testid=format!("nav-{}", href.trim_start_matches('/'))>{*label}</A> })
                        .collect_view()}
                </nav>
                <Meters />
            </header>
            <Show when=move || workspace.settings.with(|s| s.mode == Mode::Demo)>
                <p class="banner" data-testid="demo-banner" role="note">
                    <strong>"Demo mode: "</strong>
                    "all data is synthetic, generated in your browser; nothing is sent anywhere. Prices are shown and counted as the live service would charge them. "
                    <A href="/settings">"Use the live service"</A>
                </p>
            </Show>
            <main id="main" tabindex="-1" data-app-mounted="true" data-loaded=move || workspace.loaded.get().to_string()>
                <Notices />
                <Show when=move || routing.get()>
                    // Shown only after a short delay (style.css), so instant navigations do not flicker.
                    <p class="meta loading page-loading" role="status" data-testid="page-loading">
                        <span class="spinner" aria-hidden="true"></span>"Loading the page…"
                    </p>
                </Show>
                {paths::for_each_page!(app_routes)}
            </main>
            <footer class="foot">
                <span data-testid="save-state" data-saved=move || (workspace.pending.get() == 0 && workspace.loaded.get()).to_string()
                    data-failed=move || workspace.save_failures.get().to_string()
                    data-unsaved=move || workspace.unsaved.with(|u| u.len()).to_string()>
                    {move || {
                        let unsaved = workspace.unsaved.with(|u| u.len());
                        if !workspace.loaded.get() {
                            "Loading your workspace…".to_string()
                        } else if workspace.pending.get() > 0 {
                            "Saving…".to_string()
                        } else if !store::available() {
                            "Not saved: browser storage unavailable".to_string()
                        } else if unsaved > 0 {
                            format!("{unsaved} change{} not saved in this browser (see the notices)", model::plural(unsaved))
                        } else if workspace.save_failures.get() > 0 {
                            // A failed save is on screen: even if it was saved again since,
                            // "All changes saved" beside it would read as a contradiction.
                            "A save failed (see the notices)".to_string()
                        } else {
                            "All changes saved in this browser".to_string()
                        }
                    }}
                </span>
                " · "<A href="/prices">"Prices"</A>
            </footer>
        </Router>
    }
}

/// Mode, session spend (the client's meter), the demo ledger, and the theme switch.
#[component]
fn Meters() -> impl IntoView {
    let workspace = workspace::use_workspace();
    let demo = move || workspace.settings.with(|s| s.mode == Mode::Demo);
    view! {
        <div class="meters">
            <span class="badge" class:live=move || !demo() data-testid="mode">
                {move || match (demo(), workspace.settings.with(|s| s.team)) {
                    (true, _) => "Demo · synthetic data",
                    (false, true) => "Team server",
                    (false, false) => "Live service",
                }}
            </span>
            <span class="spend" title="Charged by the service, every tab of this browser together (confirmed charges)">
                "Spent " {move || workspace.budget_period().label()} ": " <strong data-testid="spend">{move || workspace.spent.get().to_string()}</strong>
                {move || workspace.budget_cap().map(|b| format!(" of {b}"))}
            </span>
            <components::BudgetLeft workspace=workspace />
            <components::team::TeamMeter />
            <Show when=move || workspace.possibly_charged.get() != serpkit::Usd::ZERO>
                <span class="spend warn" data-testid="possibly-charged-meter"
                    title="Calls sent whose outcome is unknown (timed out, cancelled after sending, answer lost): the service may have charged them. They count against the budget cap.">
                    "Possibly charged: " <strong data-testid="possibly-charged">{move || workspace.possibly_charged.get().to_string()}</strong>
                </span>
            </Show>
            <Show when=demo>
                <span class="spend" title="The demo sandbox's own ledger of charges">
                    "Ledger: " <strong data-testid="ledger">{move || workspace.ledger.get().0.to_string()}</strong>
                </span>
            </Show>
            <label class="theme">
                <span class="sr-only">"Theme"</span>
                <select data-testid="theme" on:change=move |ev| {
                    let mut s = workspace.settings.get_untracked();
                    s.theme = event_target_value(&ev);
                    workspace.set_settings(s);
                }>
                    {["auto", "light", "dark"].into_iter().map(|t| view! {
                        <option value=t selected=move || workspace.settings.with(|s| s.theme == t)>
                            {match t { "auto" => "Auto theme", "light" => "Light", _ => "Dark" }}
                        </option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}

/// Storage notices (damaged entries skipped, storage unavailable), dismissible.
#[component]
fn Notices() -> impl IntoView {
    let workspace = workspace::use_workspace();
    view! {
        <Show when=move || workspace.notices.with(|n| !n.is_empty())>
            <div class="notice" role="status" data-testid="notice">
                <ul>{move || workspace.notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                <button type="button" class="secondary" on:click=move |_| workspace.dismiss_notices()>"Dismiss"</button>
            </div>
        </Show>
    }
}
