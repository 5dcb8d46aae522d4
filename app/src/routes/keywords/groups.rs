//! The keyword groups of the explorer's rows (`research::groups`, which states the rules):
//! kind and text filters, sort, the members of each group, selected groups into a list, CSV.

use leptos::prelude::*;

use crate::components::csv::{self, Cell, Origin};
use crate::components::keyword::row::KeywordRow;
use crate::components::versioned::Versioned;
use crate::components::{fmt_int, AddToList};
use crate::model::plural;
use crate::research::groups::{self, Group, GroupKind};
use crate::workspace::{self, use_workspace};

/// Groups shown at once (the CSV has every group).
pub const SHOWN_GROUPS: usize = 100;

/// Members listed under a group.
const SHOWN_MEMBERS: usize = 40;

/// The groups of some rows, their keywords and how long grouping took.
struct Grouped {
    groups: Vec<Group>,
    keywords: Vec<String>,
    millis: f64,
}

fn grouped(rows: &[KeywordRow]) -> Grouped {
    let pairs: Vec<(&str, i64)> = rows
        .iter()
        .map(|r| (r.keyword.as_str(), r.volume))
        .collect();
    let t0 = workspace::now();
    let groups = groups::group(&pairs);
    Grouped {
        groups,
        keywords: rows.iter().map(|r| r.keyword.clone()).collect(),
        millis: workspace::now() - t0,
    }
}

/// The CSV of `groups`: kind, group, keywords, volume, and the keywords joined by "; ".
fn groups_csv(groups: &[&Group], keywords: &[String]) -> String {
    csv::to_csv(
        &["Kind", "Group", "Keywords", "Volume", "Members"],
        groups.iter().map(|g| {
            vec![
                Cell::text(g.kind.label()),
                Cell::text(&g.label),
                Cell::num(g.size() as i64),
                Cell::num(g.volume),
                Cell::text(g.member_keywords(keywords).join("; ")),
            ]
        }),
    )
}

/// The groups panel of the explorer.
#[component]
pub fn KeywordGroups(
    /// The rows shown (filtered).
    #[prop(into)]
    rows: Signal<Vec<KeywordRow>>,
    /// Where the rows came from (their result's source).
    origin: Signal<Origin>,
) -> impl IntoView {
    let kind = RwSignal::new(None::<GroupKind>);
    let text = RwSignal::new(String::new());
    let sort = RwSignal::new(("size", true));
    let selected = RwSignal::new(Vec::<(GroupKind, String)>::new());
    let data = Memo::new(move |_| Versioned::new(rows.with(|rows| grouped(rows))));
    let shown = shown_groups(data, kind, text, sort);
    let selected_keywords = selected_keywords_of(data, selected);
    view! {
        <section class="card groups" data-testid="keyword-groups" aria-labelledby="groups-title">
            <div class="card-head">
                <h2 id="groups-title">"Keyword groups"</h2>
                <span class="meta" data-testid="groups-timing">
                    {move || { let d = data.get(); format!("grouped {} keywords in {:.0} ms", fmt_int(d.keywords.len() as i64), d.millis) }}
                </span>
            </div>
            <GroupFilters kind=kind text=text />
            <GroupsToolbar data=data shown=shown selected=selected selected_keywords=selected_keywords origin=origin />
            <Show when=move || shown.with(|s| !s.is_empty()) fallback=|| view! { <p class="empty" data-testid="groups-none">"No groups: a topic needs at least two keywords sharing a phrase."</p> }>
                <GroupsTable data=data shown=shown selected=selected sort=sort />
                {move || { let n = shown.with(|s| s.len()); (n > SHOWN_GROUPS).then(|| view! { <p class="meta">{format!("The first {SHOWN_GROUPS} of {} groups; the CSV has them all.", fmt_int(n as i64))}</p> }) }}
            </Show>
            <details class="meta rules" data-testid="group-rules">
                <summary>"How keywords are grouped"</summary>
                <p>{groups::GROUP_RULES}</p>
            </details>
        </section>
    }
}

/// The sort key of the groups table and whether it is descending.
type GroupSort = RwSignal<(&'static str, bool)>;
/// The ticked groups.
type Selected = RwSignal<Vec<(GroupKind, String)>>;

/// The indices of the groups passing the kind and text filters, in the table's sort.
fn shown_groups(
    data: Memo<Versioned<Grouped>>,
    kind: RwSignal<Option<GroupKind>>,
    text: RwSignal<String>,
    sort: GroupSort,
) -> Memo<Versioned<Vec<usize>>> {
    Memo::new(move |_| {
        let d = data.get();
        let t = text.get().trim().to_lowercase();
        let k = kind.get();
        let mut out: Vec<usize> = (0..d.groups.len())
            .filter(|&i| {
                let g = &d.groups[i];
                k.is_none_or(|k| g.kind == k) && (t.is_empty() || g.label.contains(&t))
            })
            .collect();
        let (by, descending) = sort.get();
        if by != "size" || !descending {
            crate::sort::sort_by(&mut out, |&a, &b| {
                let (a, b) = (&d.groups[a], &d.groups[b]);
                let order = match by {
                    "label" => a.label.cmp(&b.label),
                    "volume" => a.volume.cmp(&b.volume),
                    _ => a.size().cmp(&b.size()),
                };
                if descending {
                    order.reverse()
                } else {
                    order
                }
            });
        }
        Versioned::new(out)
    })
}

/// The keywords of the ticked groups, each once.
fn selected_keywords_of(data: Memo<Versioned<Grouped>>, selected: Selected) -> Signal<Vec<String>> {
    Signal::derive(move || {
        let d = data.get();
        let sel = selected.get();
        let mut out: Vec<String> = Vec::new();
        for g in d
            .groups
            .iter()
            .filter(|g| sel.contains(&(g.kind, g.label.clone())))
        {
            for k in g.member_keywords(&d.keywords) {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    })
}

/// The kind and text filters.
#[component]
fn GroupFilters(kind: RwSignal<Option<GroupKind>>, text: RwSignal<String>) -> impl IntoView {
    view! {
        <fieldset class="filters">
            <legend>"Filter groups"</legend>
            <label class="f"><span>"Kind"</span>
                <select data-testid="group-kind" on:change=move |ev| kind.set(GroupKind::from_label(&event_target_value(&ev)))>
                    <option value="">"All kinds"</option>
                    {GroupKind::ALL.iter().map(|k| view! { <option value=k.label()>{format!("{}s", k.label())}</option> }).collect_view()}
                </select>
            </label>
            <label class="f wide"><span>"Group contains"</span>
                <input type="search" data-testid="group-filter" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) /></label>
        </fieldset>
    }
}

/// The count, add-to-list and CSV export of the shown groups, and what is ticked.
#[component]
fn GroupsToolbar(
    data: Memo<Versioned<Grouped>>,
    shown: Memo<Versioned<Vec<usize>>>,
    selected: Selected,
    selected_keywords: Signal<Vec<String>>,
    origin: Signal<Origin>,
) -> impl IntoView {
    let workspace = use_workspace();
    let export = move |_| {
        let d = data.get_untracked();
        let list: Vec<&Group> = shown.with_untracked(|s| s.iter().map(|&i| &d.groups[i]).collect());
        if let Err(e) = csv::download(
            "keyword-groups.csv",
            "text/csv",
            &groups_csv(&list, &d.keywords),
            origin.get_untracked(),
        ) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    view! {
        <div class="toolbar">
            <strong data-testid="groups-count" aria-live="polite">{move || { let n = shown.with(|s| s.len()); format!("{} group{}", fmt_int(n as i64), plural(n)) }}</strong>
            <AddToList keywords=selected_keywords id="groups" testid_prefix="groups" />
            <button type="button" class="secondary" data-testid="groups-csv" on:click=export disabled=move || shown.with(|s| s.is_empty())>
                {move || format!("Export groups CSV ({})", shown.with(|s| s.len()))}
            </button>
        </div>
        <p class="meta">{move || { let n = selected.with(Vec::len); if n == 0 { "Tick groups to add their keywords to a list.".to_string() } else { format!("{n} group{} ticked: {} keywords.", plural(n), selected_keywords.with(Vec::len)) } }}</p>
    }
}

/// The first [`SHOWN_GROUPS`] shown groups, sortable by label, size and volume.
#[component]
fn GroupsTable(
    data: Memo<Versioned<Grouped>>,
    shown: Memo<Versioned<Vec<usize>>>,
    selected: Selected,
    sort: GroupSort,
) -> impl IntoView {
    view! {
        <div class="scroll" tabindex="0" role="region" aria-label="Keyword groups">
            <table class="data" data-testid="groups-table">
                <caption class="sr-only">"Keyword groups with their size and summed volume"</caption>
                <thead><tr>
                    <th scope="col"><span class="sr-only">"Select"</span></th>
                    <SortHeader sort=sort id="label" label="Group" numeric=false />
                    <th scope="col">"Kind"</th>
                    <SortHeader sort=sort id="size" label="Keywords" numeric=true />
                    <SortHeader sort=sort id="volume" label="Volume" numeric=true />
                </tr></thead>
                <tbody>
                    {move || {
                        let d = data.get();
                        shown.get().iter().take(SHOWN_GROUPS).map(|&i| group_row(&d.groups[i], &d.keywords, selected)).collect_view()
                    }}
                </tbody>
            </table>
        </div>
    }
}

/// A sortable column header: a click sorts by it, again reverses.
#[component]
fn SortHeader(
    sort: GroupSort,
    id: &'static str,
    label: &'static str,
    numeric: bool,
) -> impl IntoView {
    let active = move || sort.get().0 == id;
    view! {
        <th scope="col" class:num=numeric
            aria-sort=move || if active() { if sort.get().1 { "descending" } else { "ascending" } } else { "none" }>
            <button type="button" class="sort" data-testid=format!("gsort-{id}")
                on:click=move |_| sort.update(|s| *s = if s.0 == id { (id, !s.1) } else { (id, id != "label") })>
                {label}{move || if active() { if sort.get().1 { " ↓" } else { " ↑" } } else { "" }}
            </button>
        </th>
    }
}

/// A group's row: its tick box, label with members, kind, size and volume.
fn group_row(g: &Group, keywords: &[String], selected: Selected) -> impl IntoView {
    let key = (g.kind, g.label.clone());
    let checked = selected.with_untracked(|s| s.contains(&key));
    let names = g.member_keywords(keywords);
    let more = names.len().saturating_sub(SHOWN_MEMBERS);
    let toggle = key.clone();
    view! {
        <tr data-testid="group-row" data-kind=g.kind.label() data-label=g.label.clone()>
            <td><input type="checkbox" data-testid="group-select" aria-label=format!("Select group {}", g.label) prop:checked=checked
                on:change=move |ev| { let on = event_target_checked(&ev); let k = toggle.clone(); selected.update(|s| { s.retain(|x| *x != k); if on { s.push(k); } }); } /></td>
            <td><details><summary data-testid="group-label">{g.label.clone()}</summary>
                <p class="members" data-testid="group-members">{names.iter().take(SHOWN_MEMBERS).cloned().collect::<Vec<_>>().join(", ")}{(more > 0).then(|| format!(" and {more} more"))}</p>
            </details></td>
            <td data-col="kind">{g.kind.label()}</td>
            <td class="num" data-col="size">{fmt_int(g.size() as i64)}</td>
            <td class="num" data-col="volume">{fmt_int(g.volume)}</td>
        </tr>
    }
}
