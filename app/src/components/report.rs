//! The "Export report (HTML)" button: a page hands it a builder of its report
//! (`research::report`) with where the report's data came from (the stored results' sources,
//! never the settings); the button renders it and offers the file, marked as demo data when
//! its data is.

use leptos::prelude::*;

use crate::components::csv;
use crate::research::report::{self, Origin, Report};
use crate::workspace::use_workspace;

/// A button that downloads the report `make` makes (file name, report) as one HTML file.
#[component]
pub fn ReportButton(
    /// Makes the file name, the report and its data's origin from what the page shows
    /// (`None`: nothing to export).
    make: Callback<(), Option<(String, Report, Origin)>>,
    /// `data-testid` of the button.
    testid: &'static str,
    /// The button's text.
    #[prop(default = "Export report (HTML)")]
    label: &'static str,
    /// Disabled (nothing shown yet).
    #[prop(into)]
    disabled: Signal<bool>,
) -> impl IntoView {
    let workspace = use_workspace();
    let export = move |_| {
        let Some((name, report, origin)) = make.run(()) else {
            return;
        };
        // Demo data says so in the file and its name, as demo CSVs do: the file outlives
        // the page's banner.
        let html = report::render_as(&report, origin);
        if let Err(e) = csv::download(&name, "text/html", &html, origin) {
            workspace.notice(format!("Report export failed: {e}"));
        }
    };
    view! {
        <button type="button" class="secondary" data-testid=testid on:click=export disabled=move || disabled.get()
            title="One HTML file with its charts inside: no script, nothing fetched, ready to print or send">
            {label}
        </button>
    }
}
