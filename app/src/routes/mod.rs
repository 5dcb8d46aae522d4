//! One module per page. To add a page: add `routes/<page>.rs` (or a folder) and one line to
//! the page list, `crate::paths::for_each_page!`: its module, lazy route, chunk, path and
//! navigation label. The `pub mod`s, the lazy routes, [`NAV`], the router's `<Route>`s and
//! `paths::APP_PATHS` come from that line. Reuse `crate::components` (price button, priced
//! form and card, validation panel, table, CSV, lists) and `crate::workspace::run`; links come
//! from `crate::paths`. Pages never import other pages: what two pages share lives in
//! `crate::components` (or lower).
//!
//! The pages' code is split into wasm chunks, one per group of pages (the list's chunk
//! column), each fetched the first time one of its pages opens: the first load carries the
//! shell and the page it opens on, not every view.

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

/// The pages' modules, lazy routes and navigation from the page list.
macro_rules! pages {
    ($($module:ident::$page:ident, $route:ident, $chunk:ident, $path:literal $(| $alias:literal)* $(, nav $label:literal)?;)*) => {
        $(pub mod $module;)*
        $(page!($route, $chunk, $module::$page);)*

        /// Main navigation: (path, label), the pages of the list with a label.
        pub const NAV: &[(&str, &str)] = &[$($(($path, $label),)?)*];
    };
}
crate::paths::for_each_page!(pages);
