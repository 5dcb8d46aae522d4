//! Adding keywords to named keyword lists.

use leptos::prelude::*;

use crate::workspace::use_workspace;

/// A list name field (with the existing names offered) and an "Add to list" button for the
/// keywords in `keywords` (usually the selected rows).
#[component]
pub fn AddToList(
    /// Keywords to add.
    #[prop(into)]
    keywords: Signal<Vec<String>>,
    /// Unique id prefix for the label and datalist.
    id: &'static str,
    /// Prefix of the test ids (`{prefix}-list-name`, …) where a page has a second picker;
    /// none: `list-name`, `add-to-list`, `list-status`.
    #[prop(optional)]
    testid_prefix: Option<&'static str>,
) -> impl IntoView {
    let testid = move |name: &str| match testid_prefix {
        Some(prefix) => format!("{prefix}-{name}"),
        None => name.to_string(),
    };
    let workspace = use_workspace();
    let name = RwSignal::new(String::from("My keywords"));
    let status = RwSignal::new(String::new());
    let list_id = format!("{id}-names");
    let add = move || {
        let ks = keywords.get_untracked();
        let n = name.get_untracked();
        if n.trim().is_empty() {
            status.set("Enter a list name.".into());
            return;
        }
        let added = workspace.add_to_list(&n, &ks);
        status.set(format!(
            "Added {added} keyword{} to “{}”.",
            crate::model::plural(added),
            n.trim()
        ));
    };
    view! {
        <div class="addlist">
            <label for=format!("{id}-name")>"List"</label>
            <input id=format!("{id}-name") data-testid=testid("list-name") list=list_id.clone()
                prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))
                on:keydown=move |ev| if ev.key() == "Enter" { add() } />
            <datalist id=list_id>
                {move || workspace.lists.get().into_iter().map(|l| view! { <option value=l.name></option> }).collect_view()}
            </datalist>
            // Secondary: a page's primary button is its paid action (Run, Get …), never this.
            <button type="button" class="secondary" data-testid=testid("add-to-list")
                disabled=move || keywords.with(|k| k.is_empty())
                on:click=move |_| add()>
                {move || {
                    let n = keywords.with(Vec::len);
                    format!("Add {} keyword{} to list", crate::format::fmt_int(n as i64), crate::model::plural(n))
                }}
            </button>
            <span class="meta" role="status" data-testid=testid("list-status")>{move || status.get()}</span>
        </div>
    }
}
