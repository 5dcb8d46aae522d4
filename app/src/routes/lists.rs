//! Keyword lists: create, view, remove keywords, delete, export CSV, research a list.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::components::{csv, fmt_time};
use crate::model::{parse_keywords, plural, KeywordList};
use crate::workspace::use_workspace;

/// The keyword lists page.
#[component]
pub fn Lists() -> impl IntoView {
    let workspace = use_workspace();
    let name = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let create = move |_| {
        let n = name.get_untracked();
        if n.trim().is_empty() {
            return;
        }
        workspace.add_to_list(&n, &parse_keywords(&text.get_untracked()));
        name.set(String::new());
        text.set(String::new());
    };
    view! {
        <section class="page" aria-labelledby="lists-title">
            <h1 id="lists-title">"Keyword lists"</h1>
            <Show when=move || workspace.lists.with(Vec::is_empty) && workspace.loaded.get()>
                <div class="empty" data-testid="lists-empty">
                    <p>"No lists yet. Select rows in the "<A href="/keywords">"keyword explorer"</A>" or among related keywords and add them to a list, or create one here."</p>
                </div>
            </Show>
            <div class="lists">
                <For each=move || workspace.lists.get() key=|l| (l.name.clone(), l.keywords.len(), l.updated.to_bits()) let:list>
                    <ListCard list=list />
                </For>
            </div>
            <details class="card">
                <summary>"New list"</summary>
                <div class="field">
                    <label for="new-list-name">"Name"</label>
                    <input id="new-list-name" data-testid="new-list-name" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                    <label for="new-list-kws">"Keywords, one per line"</label>
                    <textarea id="new-list-kws" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    <button type="button" data-testid="create-list" on:click=create>"Create list"</button>
                </div>
            </details>
        </section>
    }
}

#[component]
fn ListCard(list: KeywordList) -> impl IntoView {
    let workspace = use_workspace();
    let n = list.keywords.len();
    let research = crate::paths::keywords_route(
        &list.keywords,
        &workspace.settings.with_untracked(|s| s.ccode.clone()),
    );
    let name = list.name.clone();
    let export_list = list.clone();
    let export = move |_| {
        let rows = export_list
            .keywords
            .iter()
            .map(|k| vec![csv::Cell::text(k)]);
        let file = format!(
            "list-{}.csv",
            export_list
                .name
                .replace(|c: char| !c.is_alphanumeric(), "-")
        );
        if let Err(e) = csv::download(&file, "text/csv", &csv::to_csv(&["keyword"], rows)) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let del_name = name.clone();
    let confirm = RwSignal::new(false);
    view! {
        <article class="card list" data-testid="list" data-name=name.clone() aria-label=format!("List {name}")>
            <div class="card-head">
                <h2>{name.clone()}</h2>
                <span class="meta" data-testid="list-count">{format!("{n} keyword{}", plural(n))}</span>
                <span class="meta">{format!("changed {}", fmt_time(list.updated))}</span>
            </div>
            <ul class="chips">
                {list.keywords.iter().map(|k| {
                    let k2 = k.clone();
                    let l2 = list.clone();
                    view! {
                        <li class="chip"><span data-testid="list-keyword">{k.clone()}</span>
                            <button type="button" class="x" aria-label=format!("Remove {k} from the list")
                                on:click=move |_| {
                                    let mut l = l2.clone();
                                    l.keywords.retain(|x| *x != k2);
                                    l.updated = crate::workspace::now();
                                    workspace.set_list(l);
                                }>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div class="toolbar">
                <A href=research attr:class="button" attr:data-testid="research-list">"Research in explorer"</A>
                <button type="button" class="secondary" on:click=export>"Export CSV"</button>
                <Show when=move || !confirm.get() fallback=move || {
                    let d = del_name.clone();
                    view! {
                        <span>"Delete this list? "</span>
                        <button type="button" class="danger" data-testid="confirm-delete" on:click=move |_| workspace.delete_list(&d)>"Delete"</button>
                        <button type="button" class="secondary" on:click=move |_| confirm.set(false)>"Keep"</button>
                    }
                }>
                    <button type="button" class="secondary" data-testid="delete-list" on:click=move |_| confirm.set(true)>"Delete list"</button>
                </Show>
            </div>
        </article>
    }
}
