//! A sortable, selectable, paged table. The data provider ([`TableModel`]: rows, sort,
//! selection, page) is apart from the row component ([`TableRow::cells`]), as in
//! leptos-struct-table: pages filter rows themselves and hand the model a signal of them.
//! Columns, comparator and sorting (an index of the rows) are the engine both tables share
//! ([`super::columns`]).

use std::collections::HashSet;

use leptos::prelude::*;

use super::columns::{ordered, Column, SortOrder};

/// A row type: its id, its columns and its cells (the row component).
pub trait TableRow: Clone + PartialEq + Send + Sync + 'static {
    /// Unique id of the row (selection, keys).
    fn id(&self) -> String;
    /// The columns, in display order; they read row `i` of the rows shown.
    fn columns() -> Vec<Column<[Self]>>;
    /// The `<td>` cells, one per column.
    fn cells(&self) -> AnyView;
}

/// The table's data provider: rows (already filtered by the page), sort, selection, page.
pub struct TableModel<R: Send + Sync + 'static> {
    /// Rows after the page's filters.
    pub rows: Memo<Vec<R>>,
    /// Sort column id and descending.
    pub sort: RwSignal<Option<(String, bool)>>,
    /// Selected row ids.
    pub selected: RwSignal<HashSet<String>>,
    /// Page index (0-based).
    pub page: RwSignal<usize>,
    /// Rows per page.
    pub page_size: RwSignal<usize>,
    /// Positions in `rows`, in table order (the rows themselves are not copied to sort).
    pub order: Memo<Vec<u32>>,
}

impl<R: Send + Sync + 'static> Clone for TableModel<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Send + Sync + 'static> Copy for TableModel<R> {}

impl<R: TableRow> TableModel<R> {
    /// A model over `rows`, sorted by `sort`.
    pub fn new(rows: Signal<Vec<R>>, sort: RwSignal<Option<(String, bool)>>) -> Self {
        let rows = Memo::new(move |_| rows.get());
        let order = Memo::new(move |_| {
            let sort = sort.get();
            rows.with(|rows| {
                let columns = R::columns();
                let column = sort
                    .as_ref()
                    .and_then(|(id, _)| columns.iter().find(|c| c.id == id));
                let order = column.map(|c| SortOrder::ascending(&rows[..], rows.len(), c));
                let descending = sort.is_some_and(|s| s.1);
                ordered(order.as_ref(), descending, None, rows.len())
            })
        });
        TableModel {
            rows,
            sort,
            selected: RwSignal::new(HashSet::new()),
            page: RwSignal::new(0),
            page_size: RwSignal::new(100),
            order,
        }
    }

    /// The rows at `positions` of the table order (cloned: a page or a selection).
    fn rows_at(&self, positions: impl Iterator<Item = u32>) -> Vec<R> {
        self.rows.with(|rows| {
            positions
                .filter_map(|i| rows.get(i as usize).cloned())
                .collect()
        })
    }

    /// Selected rows that pass the filters, in table order.
    pub fn selected_rows(&self) -> Vec<R> {
        let sel = self.selected.get();
        let picked: Vec<u32> = self.rows.with(|rows| {
            self.order.with(|o| {
                o.iter()
                    .copied()
                    .filter(|&i| rows.get(i as usize).is_some_and(|r| sel.contains(&r.id())))
                    .collect()
            })
        });
        self.rows_at(picked.into_iter())
    }

    /// Every filtered row as CSV, in table order.
    pub fn csv(&self) -> String {
        let columns = R::columns();
        self.rows.with_untracked(|rows| {
            self.order
                .with_untracked(|order| super::columns::to_csv(&columns, &rows[..], order))
        })
    }
}

/// The table for a [`TableModel`].
#[component]
pub fn DataTable<R: TableRow>(
    model: TableModel<R>,
    /// Caption for screen readers.
    caption: &'static str,
    /// `data-testid` of the `<table>`.
    testid: &'static str,
    /// Show selection checkboxes.
    #[prop(optional)]
    selectable: bool,
) -> impl IntoView {
    let cols = R::columns();
    let total = move || model.order.with(Vec::len);
    let pages = move || total().div_ceil(model.page_size.get().max(1)).max(1);
    let page = move || model.page.get().min(pages() - 1);
    let page_rows = Memo::new(move |_| {
        let size = model.page_size.get().max(1);
        let start = page() * size;
        let positions = model
            .order
            .with(|o| o.iter().skip(start).take(size).copied().collect::<Vec<_>>());
        model.rows_at(positions.into_iter())
    });
    let all_selected = move || {
        model
            .selected
            .with(|s| !s.is_empty() && model.rows.with(|v| v.iter().all(|r| s.contains(&r.id()))))
    };
    let toggle_all = move |on: bool| {
        let ids: HashSet<String> = if on {
            model
                .rows
                .with_untracked(|v| v.iter().map(TableRow::id).collect())
        } else {
            HashSet::new()
        };
        model.selected.set(ids);
    };
    let headers = cols
        .iter()
        .map(|c| {
            let (id, numeric) = (c.id, c.numeric);
            view! {
                <th scope="col" class:num=numeric aria-sort=move || aria_sort(sort_state(model.sort, id))>
                    <SortButton sort=model.sort id=id label=c.label numeric=numeric
                        testid=format!("sort-{id}") on_sort=move || model.page.set(0) />
                </th>
            }
        })
        .collect_view();
    view! {
        // Focusable, so a keyboard scrolls a table wider than the screen (a phone).
        <div class="scroll" tabindex="0" role="region" aria-label=caption>
            <table class="data" data-testid=testid data-rows=move || total().to_string()>
                <caption class="sr-only">{caption}</caption>
                <thead>
                    <tr>
                        {selectable.then(|| view! {
                            <th scope="col" class="sel">
                                <input type="checkbox" data-testid="select-all" aria-label="Select all filtered rows"
                                    prop:checked=all_selected
                                    on:change=move |ev| toggle_all(event_target_checked(&ev)) />
                            </th>
                        })}
                        {headers}
                    </tr>
                </thead>
                <tbody>
                    <For each=move || page_rows.get() key=|r| r.id() let:row>
                        {
                            let id = row.id();
                            let id2 = id.clone();
                            let id3 = id.clone();
                            view! {
                                <tr data-testid="row" data-id=id.clone()>
                                    {selectable.then(|| view! {
                                        <td class="sel">
                                            <input type="checkbox" aria-label=format!("Select {id}")
                                                prop:checked=move || model.selected.with(|s| s.contains(&id2))
                                                on:change=move |ev| {
                                                    let on = event_target_checked(&ev);
                                                    let id = id3.clone();
                                                    model.selected.update(|s| {
                                                        if on { s.insert(id); } else { s.remove(&id); }
                                                    });
                                                } />
                                        </td>
                                    })}
                                    {row.cells()}
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
        </div>
        <Show when=move || { pages() > 1 }>
            <nav class="pager" aria-label="Table pages">
                <button type="button" class="secondary" disabled=move || page() == 0
                    on:click=move |_| model.page.set(page().saturating_sub(1))>"Previous"</button>
                <span data-testid="page-info">{move || {
                    let size = model.page_size.get().max(1);
                    let start = page() * size;
                    format!("Rows {}–{} of {}", start + 1, (start + size).min(total()), super::fmt_int(total() as i64))
                }}</span>
                <button type="button" class="secondary" disabled=move || page() + 1 >= pages()
                    on:click=move |_| model.page.set(page() + 1)>"Next"</button>
                <label>"Rows per page "
                    <select on:change=move |ev| {
                        model.page_size.set(event_target_value(&ev).parse().unwrap_or(100));
                        model.page.set(0);
                    }>
                        {[50usize, 100, 250, 1000].into_iter().map(|n| view! {
                            <option value=n.to_string() selected=move || model.page_size.get() == n>{n.to_string()}</option>
                        }).collect_view()}
                    </select>
                </label>
            </nav>
        </Show>
    }
}

/// The sort state of column `id`: `Some(descending)` when `sort` is by it (reactive).
pub fn sort_state(sort: RwSignal<Option<(String, bool)>>, id: &str) -> Option<bool> {
    sort.with(|s| match s {
        Some((sid, desc)) if sid == id => Some(*desc),
        _ => None,
    })
}

/// The `aria-sort` value of a column header.
pub fn aria_sort(state: Option<bool>) -> &'static str {
    match state {
        Some(true) => "descending",
        Some(false) => "ascending",
        None => "none",
    }
}

/// A column header's sort button (both tables): numbers sort high-to-low first, text A-Z
/// first; a second click reverses. `on_sort` runs after the sort changed.
#[component]
pub fn SortButton(
    sort: RwSignal<Option<(String, bool)>>,
    id: &'static str,
    label: &'static str,
    numeric: bool,
    testid: String,
    #[prop(optional, into)] on_sort: Option<Callback<()>>,
) -> impl IntoView {
    let toggle = move |_| {
        let desc = match sort_state(sort, id) {
            None => numeric,
            Some(d) => !d,
        };
        sort.set(Some((id.to_string(), desc)));
        if let Some(f) = on_sort {
            f.run(());
        }
    };
    view! {
        <button type="button" class="sort" data-testid=testid on:click=toggle title=format!("Sort by {label}")>
            {label}
            <span aria-hidden="true" class="arrow">{move || match sort_state(sort, id) {
                Some(true) => " ▼",
                Some(false) => " ▲",
                None => " ↕",
            }}</span>
        </button>
    }
}
