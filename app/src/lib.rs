//! The serpkit app: a keyword-research workspace (Leptos CSR).

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

pub mod routes;

/// The app root: header and router.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <header class="top">
                <h1>"serpkit"</h1>
                <span class="badge">"Demo mode: synthetic data"</span>
            </header>
            <main data-app-mounted="true">
                <Routes fallback=|| view! { <p>"Page not found."</p> }>
                    <Route path=path!("/") view=routes::home::Home />
                </Routes>
            </main>
        </Router>
    }
}
