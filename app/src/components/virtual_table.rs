//! A virtualized table for very large result sets (100,000+ rows): only the visible rows and
//! a few above and below are in the DOM; a spacer gives the scroll area its full height.
//!
//! The page keeps its data (in columns, for 100,000 rows) and hands the table an *order*: a
//! `Vec<u32>` of row positions, already filtered and sorted by the engine both tables share
//! ([`super::columns`]: the ascending order of a column is computed once and cached by the
//! page; a filter keeps the rows of a precomputed mask in that order). Nothing clones records.

use std::sync::Arc;

use leptos::prelude::*;

use super::columns::Column;
use super::table::{aria_sort, sort_state, SortButton};
use super::versioned::Versioned;

/// Largest height of the scroll area in CSS pixels (browsers cap element heights at about
/// 33 million); longer tables map the scroll position proportionally.
pub const MAX_SCROLL_PX: f64 = 8_000_000.0;

/// The rendered window: first and end (exclusive) positions, and where the first rendered row
/// sits below the header, in pixels.
pub fn window(
    scroll_top: f64,
    viewport: f64,
    row_h: f64,
    n: usize,
    overscan: usize,
) -> (usize, usize, f64) {
    if n == 0 || row_h <= 0.0 {
        return (0, 0, 0.0);
    }
    let body_h = (viewport - row_h).max(row_h);
    let total = n as f64 * row_h;
    let area = total.min(MAX_SCROLL_PX);
    let scroll = scroll_top.clamp(0.0, (area - body_h).max(0.0));
    // Where the viewport's top is in the virtual (unscaled) table.
    let virtual_top = if total > area && area > body_h {
        scroll / (area - body_h) * (total - body_h)
    } else {
        scroll
    };
    let first = ((virtual_top / row_h).floor().max(0.0) as usize).min(n - 1);
    let visible = (body_h / row_h).ceil() as usize + 1;
    let start = first.saturating_sub(overscan);
    let end = (first + visible + overscan).min(n);
    let offset = scroll - (virtual_top - start as f64 * row_h);
    (start, end, offset.max(0.0))
}

/// Renders the cells of the row with this data index.
pub type RenderRow = Arc<dyn Fn(u32) -> AnyView + Send + Sync>;

/// What the virtual table needs of a column: its header.
#[derive(Clone, Copy)]
struct Header {
    id: &'static str,
    label: &'static str,
    numeric: bool,
    width: &'static str,
}

/// A virtualized, sortable table (ARIA table roles on a CSS grid). `rows` is the order to
/// show; `render` draws one row's cells (`<div role="cell">` each, one per column).
#[component]
pub fn VirtualTable<D: 'static>(
    /// Columns in display order.
    columns: Vec<Column<D>>,
    /// Data positions to show, in order.
    #[prop(into)]
    rows: Signal<Versioned<Vec<u32>>>,
    /// Draws one row's cells.
    render: RenderRow,
    /// Sort column id and descending.
    sort: RwSignal<Option<(String, bool)>>,
    /// A row was clicked (or Enter pressed on it): its data position.
    #[prop(optional)]
    on_row: Option<Callback<u32>>,
    /// Accessible name of the table.
    caption: &'static str,
    /// `data-testid` of the table.
    testid: &'static str,
) -> impl IntoView {
    let headers = columns
        .iter()
        .map(|c| Header {
            id: c.id,
            label: c.label,
            numeric: c.numeric,
            width: c.width,
        })
        .collect();
    virtual_table(
        headers, rows, render, sort, on_row, caption, testid, 36.0, 8,
    )
}

/// The body of [`VirtualTable`], not generic: one copy in the wasm.
#[allow(clippy::too_many_arguments)]
fn virtual_table(
    // Column headers in display order.
    columns: Vec<Header>,
    // Data indices to show, in order.
    rows: Signal<Versioned<Vec<u32>>>,
    // Draws one row's cells.
    render: RenderRow,
    // Sort column id and descending.
    sort: RwSignal<Option<(String, bool)>>,
    // A row was clicked (or Enter pressed on it): its data index.
    on_row: Option<Callback<u32>>,
    // Accessible name of the table.
    caption: &'static str,
    // `data-testid` of the table.
    testid: &'static str,
    // Row height in pixels (fixed; CSS must agree).
    row_height: f64,
    // Rows rendered above and below the visible ones.
    overscan: usize,
) -> AnyView {
    let scroll_top = RwSignal::new(0.0f64);
    let viewport = RwSignal::new(560.0f64);
    let scroller = NodeRef::<leptos::html::Div>::new();
    let tracks = columns
        .iter()
        .map(|c| c.width)
        .collect::<Vec<_>>()
        .join(" ");
    let n = move || rows.with(|r| r.len());

    // A new order (sort, filter) starts at the top.
    Effect::new(move |prev: Option<u64>| {
        let version = rows.with(Versioned::version);
        // The scroll position is known from the scroll events: no layout read here.
        if prev.is_some() && scroll_top.get_untracked() != 0.0 {
            if let Some(el) = scroller.get_untracked() {
                el.set_scroll_top(0);
            }
            scroll_top.set(0.0);
        }
        version
    });
    Effect::new(move |_| {
        if let Some(el) = scroller.get() {
            let h = f64::from(el.client_height());
            if h > 0.0 {
                viewport.set(h);
            }
        }
    });

    let win =
        Memo::new(move |_| window(scroll_top.get(), viewport.get(), row_height, n(), overscan));
    let visible = Memo::new(move |_| {
        let (start, end, _) = win.get();
        rows.with(|r| {
            let version = r.version();
            r.get(start..end)
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .map(|(k, &idx)| (version, start + k, idx))
                .collect::<Vec<_>>()
        })
    });
    let inner_height = move || (n() as f64 * row_height).min(MAX_SCROLL_PX) + row_height;

    let headers = columns
        .iter()
        .map(|c| {
            let Header {
                id, label, numeric, ..
            } = *c;
            view! {
                <div role="columnheader" class="vt-h" class:num=numeric aria-sort=move || aria_sort(sort_state(sort, id))>
                    <SortButton sort=sort id=id label=label numeric=numeric testid=format!("vsort-{id}") />
                </div>
            }
        })
        .collect_view();

    let render = StoredValue::new(render);
    view! {
        // The table role sits on the scrolled content, whose children are its rowgroups only;
        // the focusable scroller around it is a labelled region (axe: aria-required-children).
        <div class="vt" data-testid=testid data-rows=move || n().to_string()
            style=format!("--vt-cols:{tracks};--vt-row:{row_height}px")>
            <div class="vt-scroll" node_ref=scroller tabindex="0" data-testid=format!("{testid}-scroll")
                role="region" aria-label=format!("{caption}: scroll with the arrow keys")
                on:scroll=move |ev| {
                    let el = event_target::<web_sys::Element>(&ev);
                    scroll_top.set(f64::from(el.scroll_top()));
                    let h = f64::from(el.client_height());
                    if h > 0.0 && (h - viewport.get_untracked()).abs() > 0.5 {
                        viewport.set(h);
                    }
                }>
                <div class="vt-inner" role="table" aria-label=caption
                    aria-rowcount=move || (n() + 1).to_string()
                    style:height=move || format!("{}px", inner_height())>
                    <div role="rowgroup" class="vt-headgroup">
                        <div role="row" class="vt-head" aria-rowindex="1">{headers}</div>
                    </div>
                    <div role="rowgroup" class="vt-rows"
                        style:transform=move || format!("translateY({:.0}px)", win.get().2 + row_height)>
                        <For each=move || visible.get() key=|(version, _, idx)| (*version, *idx) let:item>
                            {
                                let (_, pos, idx) = item;
                                let cells = render.with_value(|r| r(idx));
                                view! {
                                    <div role="row" class="vt-row" class:odd=pos % 2 == 1 data-testid="vrow"
                                        data-index=idx.to_string() aria-rowindex=(pos + 2).to_string()
                                        on:click=move |ev| {
                                            // Links and buttons inside the row do their own thing.
                                            let inner = ev
                                                .target()
                                                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                                                .and_then(|e| e.closest("a, button, input").ok().flatten())
                                                .is_some();
                                            if !inner {
                                                if let Some(cb) = on_row {
                                                    cb.run(idx);
                                                }
                                            }
                                        }>
                                        {cells}
                                    </div>
                                }
                            }
                        </For>
                    </div>
                </div>
            </div>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows() {
        assert_eq!(window(0.0, 400.0, 40.0, 0, 5), (0, 0, 0.0));
        let (s, e, off) = window(0.0, 400.0, 40.0, 1000, 5);
        assert_eq!((s, e, off), (0, 15, 0.0));
        let (s, e, off) = window(4000.0, 400.0, 40.0, 1000, 5);
        assert_eq!((s, e), (95, 115));
        assert_eq!(off, 95.0 * 40.0);
        // The end is reachable, with a huge table too.
        let (_, e, _) = window(1e12, 400.0, 40.0, 1000, 5);
        assert_eq!(e, 1000);
        let (_, e, _) = window(MAX_SCROLL_PX, 400.0, 40.0, 1_000_000, 5);
        assert_eq!(e, 1_000_000);
        let (s, _, _) = window(-5.0, 400.0, 40.0, 1_000_000, 5);
        assert_eq!(s, 0);
    }
}
