//! The app's URLs: the list of its pages, the routes of its pages with their query (built
//! here and read back as typed query structs), which paths are its own, and the encoding of
//! query values. A leaf: it imports nothing of the app, so the workspace, the components and
//! the pages all build links from here.

use std::marker::PhantomData;

use leptos::prelude::*;
use leptos::Params;
use leptos_router::location::{BrowserUrl, LocationProvider};
use leptos_router::params::{Params, ParamsMap};

/// **The one list of the app's pages.** Each line: the page's component (`module::Component`
/// under `routes/`), the lazily loaded route that renders it, the wasm chunk its code goes to,
/// its path (then `|` and any other path it answers), and its navigation label if it is in
/// the main navigation. Everything else is generated from it: `routes/`'s `pub mod`s and lazy
/// routes (`routes/mod.rs`), the navigation (`routes::NAV`), the router's `<Route>`s
/// (`lib.rs`) and [`APP_PATHS`]. Adding a page is its file under `routes/` and one line here.
///
/// `for_each_page!(then)` calls the macro `then!` with the list (like the core's
/// `for_each_operation!`).
macro_rules! for_each_page {
    ($then:ident) => {
        $then! {
            // Chunks: the explorer (the landing page) alone; the keyword detail; the domain
            // views; the small workspace pages. Groups rather than one chunk per page:
            // wasm-split also makes one file per set of chunks sharing code, so one chunk per
            // page gave 145 files (these groups: 27).
            keywords::Keywords, KeywordsPage, pages_explorer, "/keywords" | "/", nav "Keywords";
            keyword::KeywordDetail, KeywordPage, pages_keyword, "/keyword";
            domains::DomainStatsPage, DomainsPage, pages_domains, "/domains", nav "Domains";
            domain::DomainDetail, DomainPage, pages_domains, "/domain";
            domain_pages::PageMetrics, DomainPagesPage, pages_domains, "/domain/pages";
            domain_compare::Compare, ComparePage, pages_domains, "/domain/compare";
            domain_gap::ContentGap, GapPage, pages_domains, "/domain/gap";
            lists::Lists, ListsPage, pages_workspace, "/lists", nav "Lists";
            history::History, HistoryPage, pages_workspace, "/history", nav "History";
            settings::SettingsPage, SettingsRoute, pages_workspace, "/settings", nav "Settings";
            prices::PriceList, PricesPage, pages_workspace, "/prices";
        }
    };
}
pub(crate) use for_each_page;

/// [`APP_PATHS`] from the page list.
macro_rules! app_paths {
    ($($module:ident::$page:ident, $route:ident, $chunk:ident, $path:literal $(| $alias:literal)* $(, nav $label:literal)?;)*) => {
        /// The app's own page paths (every path of the page list, `for_each_page!`).
        pub const APP_PATHS: &[&str] = &[$($path, $($alias,)*)*];
    };
}
for_each_page!(app_paths);

/// True when `route` is one of this app's own pages, with an optional query: a path from
/// [`APP_PATHS`], not a URL with a scheme or host (`javascript:`, `//evil`, `https://…`).
pub fn app_route(route: &str) -> bool {
    if route
        .chars()
        .any(|c| c.is_control() || c == '\\' || c.is_whitespace())
    {
        return false;
    }
    let path = route.split(['?', '#']).next().unwrap_or("");
    APP_PATHS.contains(&path)
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

/// The route of the keyword detail view.
pub fn keyword_route(keyword: &str, ccode: &str) -> String {
    format!("/keyword?kw={}&cc={}", enc(keyword), enc(ccode))
}

/// The route of the explorer with these keywords.
pub fn keywords_route(keywords: &[String], ccode: &str) -> String {
    format!(
        "/keywords?cc={}&kw={}",
        enc(ccode),
        enc(&keywords.join("\n"))
    )
}

/// The route of one domain's page on a tab (`overview`, `backlinks`, `keywords`).
pub fn domain_route(domain: &str, tab: &str) -> String {
    format!("/domain?d={}&tab={}", enc(domain), enc(tab))
}

/// The route of the stats page for these domains.
pub fn domains_route(domains: &[String]) -> String {
    format!("/domains?d={}", enc(&domains.join("\n")))
}

/// The route of the compare view for these domains.
pub fn compare_route(domains: &[String]) -> String {
    format!("/domain/compare?d={}", enc(&domains.join(",")))
}

/// The route of the content gap: your domain first, then the competitors.
pub fn gap_route(domains: &[String]) -> String {
    format!("/domain/gap?d={}", enc(&domains.join(",")))
}

/// The current page's query as `T`, reactive (see [`PageQuery`]).
pub fn use_page_query<T: Params + Default>() -> PageQuery<T> {
    PageQuery {
        map: leptos_router::hooks::use_query_map(),
        read: PhantomData,
    }
}

/// A page's query read as the typed struct `T`. A page reads its URL state only through
/// such a struct: every field is optional text named as its query parameter, so reading
/// cannot fail (an absent parameter is `None`; a value the page cannot use is the page's to
/// judge). A view of the router's one query memo, not a memo per page: each one would add
/// its own reactive code to the wasm, and the explorer's is in the first load. `Copy`.
pub struct PageQuery<T> {
    map: Memo<ParamsMap>,
    read: PhantomData<fn() -> T>,
}

impl<T> Clone for PageQuery<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for PageQuery<T> {}

impl<T: Params + Default> PageQuery<T> {
    /// `f` of the query, tracked.
    pub fn with<R>(self, f: impl FnOnce(&T) -> R) -> R {
        self.map.with(|m| f(&read_query(m)))
    }

    /// The query now, untracked.
    pub fn get_untracked(self) -> T {
        self.map.with_untracked(read_query)
    }
}

/// The query of `route` (`/keywords?kw=a`) as `T`; `None` when it is not a URL.
pub fn query_of_route<T: Params + Default>(route: &str) -> Option<T> {
    BrowserUrl::parse(route)
        .ok()
        .map(|u| read_query(u.search_params()))
}

/// `T` from query parameters; all its fields are optional text, so this never fails.
fn read_query<T: Params + Default>(map: &ParamsMap) -> T {
    T::from_map(map).unwrap_or_default()
}

/// The explorer's query (`/keywords`): keywords, country, sort and filters (never the key).
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct KeywordsQuery {
    /// Keywords, one per line.
    pub kw: Option<String>,
    /// Country code.
    pub cc: Option<String>,
    /// Sort column.
    pub sort: Option<String>,
    /// Sort direction: `asc`, else descending.
    pub dir: Option<String>,
    /// Search volume from, to.
    pub vmin: Option<String>,
    /// (See `vmin`.)
    pub vmax: Option<String>,
    /// Cost per click from, to.
    pub cpcmin: Option<String>,
    /// (See `cpcmin`.)
    pub cpcmax: Option<String>,
    /// Competition from, to.
    pub compmin: Option<String>,
    /// (See `compmin`.)
    pub compmax: Option<String>,
    /// Words a keyword must hold.
    pub inc: Option<String>,
    /// Words a keyword must not hold.
    pub exc: Option<String>,
    /// Season.
    pub season: Option<String>,
    /// 12-month change from, to.
    pub chmin: Option<String>,
    /// (See `chmin`.)
    pub chmax: Option<String>,
    /// 3-month change from, to.
    pub ch3min: Option<String>,
    /// (See `ch3min`.)
    pub ch3max: Option<String>,
    /// Search intent (`research::intent::Intent::id`).
    pub intent: Option<String>,
    /// `1`: questions only (`research::groups::is_question`).
    pub questions: Option<String>,
}

/// The keyword detail's query (`/keyword`, [`keyword_route`]).
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct KeywordQuery {
    /// The keyword.
    pub kw: Option<String>,
    /// Country code (else the default country).
    pub cc: Option<String>,
}

/// The query of the pages over a list of domains (`/domains`, `/domain/compare`).
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct DomainsQuery {
    /// Domains, separated by line breaks or commas.
    pub d: Option<String>,
}

/// The content gap's query (`/domain/gap`, [`gap_route`]): the domains, the list shown and
/// how it is shown.
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct GapQuery {
    /// Domains, yours first, separated by line breaks or commas.
    pub d: Option<String>,
    /// The list shown (`research::gap::GapList::id`; Untapped when absent or unknown).
    pub list: Option<String>,
    /// `pages`: the list grouped by competitor page; else the keywords.
    pub view: Option<String>,
}

/// One domain's query (`/domain`, [`domain_route`]): the tab, and the ranked keyword table's
/// filters and sort.
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct DomainQuery {
    /// The domain.
    pub d: Option<String>,
    /// `overview` (the default), `backlinks` or `keywords`.
    pub tab: Option<String>,
    /// Text a ranked keyword must hold.
    pub q: Option<String>,
    /// Search volume from, to.
    pub vmin: Option<String>,
    /// (See `vmin`.)
    pub vmax: Option<String>,
    /// Rank from, to.
    pub rmin: Option<String>,
    /// (See `rmin`.)
    pub rmax: Option<String>,
    /// Cost per click from, to.
    pub cmin: Option<String>,
    /// (See `cmin`.)
    pub cmax: Option<String>,
    /// Sort column.
    pub sort: Option<String>,
    /// Sort direction: `asc`, else descending.
    pub dir: Option<String>,
}

/// The page metrics' query (`/domain/pages`).
#[derive(Params, Clone, Debug, Default, PartialEq)]
pub struct PagesQuery {
    /// Page URLs, one per line.
    pub u: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_apps_own_routes_are_accepted() {
        for ok in [
            "/",
            "/keywords?kw=a%0Ab&cc=US",
            "/domain/pages?d=x.com",
            "/history#x",
        ] {
            assert!(app_route(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "https://evil.example/",
            "//evil.example/keywords",
            "/\\evil.example",
            "/nowhere",
            "",
            "keywords",
            " /keywords",
            "/keywords/../settings",
            "JAVASCRIPT:/keywords",
        ] {
            assert!(!app_route(bad), "{bad}");
        }
    }
}
