//! One module per page. To add a page: add `routes/<page>.rs`, a `page!` line below, an entry
//! in [`NAV`] if it is in the navigation, and a `<Route>` in `App` (`src/lib.rs`); reuse
//! `crate::components` (price button, validation panel, table, CSV, lists) and `crate::workspace::run`;
//! links come from `crate::paths`. Pages never import other pages: what two pages share
//! lives in `crate::components` (or lower).
//!
//! The pages' code is split into wasm chunks, one per group of pages (`page!` lines below),
//! each fetched the first time one of its pages opens: the first load carries the shell and the
//! page it opens on, not every view.

pub mod domain;
pub mod domain_compare;
pub mod domain_gap;
pub mod domain_pages;
pub mod domains;
pub mod history;
pub mod keyword;
pub mod keywords;
pub mod lists;
pub mod prices;
pub mod settings;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use crate::components::status::PageLoadFailed;

/// Declares `$route`, the lazily loaded page that renders `$page`, with its code in the wasm
/// chunk `$chunk`. `cargo xtask app-wasm` cuts the wasm at these points (wasm-split, the
/// mechanism behind Leptos's `#[lazy_route]`); natively the page is called directly.
///
/// Unlike `#[lazy_route]`, a chunk that cannot be fetched (connection lost, app updated on the
/// server) shows [`PageLoadFailed`] instead of aborting the app; opening the page again retries.
macro_rules! page {
    ($route:ident, $chunk:ident, $page:path) => {
        #[doc = concat!("The lazily loaded page [`", stringify!($page), "`].")]
        pub struct $route;

        impl leptos_router::LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            async fn view(_: Self) -> AnyView {
                #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
                fn render() -> Result<AnyView, SplitLoaderError> {
                    Ok(untrack(|| $page().into_any()))
                }
                match render().await {
                    Ok(view) => view,
                    Err(_) => view! { <PageLoadFailed /> }.into_any(),
                }
            }
        }
    };
}

// Chunks: the explorer (the landing page) alone; the keyword detail; the domain views; the
// small workspace pages. Groups rather than one chunk per page: wasm-split also makes one file
// per set of chunks sharing code, so one chunk per page gave 145 files (these groups: 27).
page!(KeywordsPage, pages_explorer, keywords::Keywords);
page!(KeywordPage, pages_keyword, keyword::KeywordDetail);
page!(DomainsPage, pages_domains, domains::DomainStatsPage);
page!(DomainPage, pages_domains, domain::DomainDetail);
page!(DomainPagesPage, pages_domains, domain_pages::PageMetrics);
page!(ComparePage, pages_domains, domain_compare::Compare);
page!(GapPage, pages_domains, domain_gap::ContentGap);
page!(ListsPage, pages_workspace, lists::Lists);
page!(HistoryPage, pages_workspace, history::History);
page!(SettingsRoute, pages_workspace, settings::SettingsPage);
page!(PricesPage, pages_workspace, prices::PriceList);

/// Main navigation: (path, label).
pub const NAV: &[(&str, &str)] = &[
    ("/keywords", "Keywords"),
    ("/domains", "Domains"),
    ("/lists", "Lists"),
    ("/history", "History"),
    ("/settings", "Settings"),
];
