//! The app's URLs: the routes of its pages with their query, which paths are its own, and
//! the encoding of query values. A leaf: it imports nothing of the app, so the workspace,
//! the components and the pages all build links from here.

/// The app's own page paths (the router's routes in `lib.rs`).
pub const APP_PATHS: &[&str] = &[
    "/",
    "/keywords",
    "/keyword",
    "/domains",
    "/domain",
    "/domain/pages",
    "/domain/compare",
    "/domain/gap",
    "/lists",
    "/history",
    "/settings",
    "/prices",
];

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
