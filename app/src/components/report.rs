//! The "Export report (HTML)" button: a page hands it a builder of its report
//! (`research::report`); the button renders it and offers the file, marked as demo data in
//! demo mode.

use leptos::prelude::*;

use crate::components::csv;
use crate::model::Mode;
use crate::research::report::{self, Report};
use crate::workspace::use_workspace;

/// A button that downloads the report `make` makes (file name, report) as one HTML file.
#[component]
pub fn ReportButton(
    /// Makes the file name and the report from what the page shows (`None`: nothing to export).
    make: Callback<(), Option<(String, Report)>>,
    /// `data-testid` of the button.
    testid: &'static str,
    /// Disabled (nothing shown yet).
    #[prop(into)]
    disabled: Signal<bool>,
) -> impl IntoView {
    let workspace = use_workspace();
    let export = move |_| {
        let Some((name, report)) = make.run(()) else {
            return;
        };
        // Demo data says so in the file and its name, as demo CSVs do: the file outlives
        // the page's banner.
        let demo = workspace.settings.with_untracked(|s| s.mode == Mode::Demo);
        let name = if demo && !name.starts_with("demo-") {
            format!("demo-{name}")
        } else {
            name
        };
        if let Err(e) = csv::download(&name, "text/html", &report::render_as(&report, demo)) {
            workspace.notice(format!("Report export failed: {e}"));
        }
    };
    view! {
        <button type="button" class="secondary" data-testid=testid on:click=export disabled=move || disabled.get()
            title="One HTML file with its charts inside: no script, nothing fetched, ready to print or send">
            "Export report (HTML)"
        </button>
    }
}
