//! Pieces every domain page shares: the sub-navigation, reading domains as typed, the
//! compare limit and its letters, and the input preview of the history.

use leptos::prelude::*;
use leptos_router::components::A;

/// Most domains the compare view takes.
pub const MAX_COMPARE: usize = 4;

/// Letters naming the compared domains in tables.
pub const LETTERS: [&str; MAX_COMPARE] = ["A", "B", "C", "D"];

/// A domain as typed or pasted, normalized: trimmed, lower case, without scheme, path, port
/// or trailing dot (`https://Example.com/x` → `example.com`). The request check still
/// validates the result.
/// Not `serpkit::records::normalize_domain`: that keys records (keeps `https://`, drops `www.`).
pub fn domain_from_input(s: &str) -> String {
    let t = s.trim();
    let t = t
        .split_once("://")
        .map(|(scheme, rest)| {
            if scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                rest
            } else {
                t
            }
        })
        .unwrap_or(t);
    let host = t.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    host.trim_end_matches('.').to_lowercase()
}

/// The domains that fail the request check, each with its reason (the pages over several
/// domains show them under the form).
pub fn domain_checks(domains: Memo<Vec<String>>) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        domains.with(|ds| {
            ds.iter()
                .filter_map(|d| {
                    serpkit::ops::check::domain("/domain", d)
                        .err()
                        .map(|e| format!("{d}: {e}"))
                })
                .collect::<Vec<_>>()
        })
    })
}

/// Domains from text (lines, commas or spaces), normalized, without duplicates.
pub fn parse_domains(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in text
        .split(|c: char| c == '\n' || c == ',' || c.is_whitespace())
        .map(domain_from_input)
        .filter(|d| !d.is_empty())
    {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The sub-navigation of the domain pages.
#[component]
pub fn DomainNav() -> impl IntoView {
    view! {
        <nav class="subnav" aria-label="Domain research">
            <A href="/domains" exact=true attr:data-testid="subnav-stats">"Domain stats"</A>
            <A href="/domain" exact=true attr:data-testid="subnav-domain">"One domain"</A>
            <A href="/domain/pages" attr:data-testid="subnav-pages">"Page backlinks"</A>
            <A href="/domain/compare" attr:data-testid="subnav-compare">"Compare"</A>
            <A href="/domain/gap" attr:data-testid="subnav-gap">"Content gap"</A>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_are_normalized() {
        assert_eq!(
            domain_from_input(" https://Example.com/x?y "),
            "example.com"
        );
        assert_eq!(domain_from_input("www.example.com."), "www.example.com");
        assert_eq!(domain_from_input("user@example.com:8080/a"), "example.com");
        assert_eq!(domain_from_input(""), "");
        assert_eq!(
            parse_domains("a.com, b.com\nA.com\n\n https://c.com/ "),
            vec!["a.com".to_string(), "b.com".into(), "c.com".into()]
        );
    }
}
