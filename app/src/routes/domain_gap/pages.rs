//! The content gap grouped by competitor URL (Ahrefs' Top pages over a gap): the rows shown
//! (the list, as filtered) grouped by their best competitor's ranking URL
//! (`research::top_pages::gap_pages`, which states the rule), in the domain page's table of
//! pages (sortable, CSV, the rule under it).

use leptos::prelude::*;

use super::view::{GapData, GapView};
use crate::components::ranked::analyses::{pages_table, timed, PagesText};
use crate::components::csv::Origin;
use crate::components::versioned::Versioned;
use crate::research::top_pages;

/// The texts of the competitor pages' table.
const GAP_PAGES: PagesText = PagesText {
    testid: "gp",
    table: "gp-table",
    file: "content-gap-pages",
    rule: top_pages::GAP_RULE,
    caption: "Competitor pages of the gap keywords shown",
    empty: "No competitor ranks for the keywords shown.",
};

/// The competitor pages of the rows in `order` (rebuilt when the list, the filters or the
/// gap change; the sort is kept); `name` names the CSV file.
pub fn competitor_pages(
    view_data: Memo<GapData>,
    order: Memo<Versioned<Vec<u32>>>,
    name: Signal<String>,
    origin: Signal<Origin>,
) -> impl IntoView {
    let sort = RwSignal::new(None);
    move || {
        let (v, _, _): (Versioned<GapView>, _, _) = view_data.get();
        let rows = order.get();
        let (pages, ms) = timed("serpkit:gap-pages", || top_pages::gap_pages(&v.gap, &rows, &v.options.curve));
        pages_table(pages, ms, name, sort, &GAP_PAGES, origin)
    }
}
