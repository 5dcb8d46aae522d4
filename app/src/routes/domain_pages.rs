//! Page backlink metrics for a list of URLs (`/domain/pages?u=...`, `backlink/metrics`) as a
//! sortable table with CSV export. Priced $0.05 per URL (see `serpkit::ops::backlink_metrics`).

use leptos::prelude::*;
use serpkit::ops::backlink_metrics::{self, PageBacklinkMetrics};
use serpkit::Request;

use crate::components::csv::Cell;
use crate::components::domain::nav::DomainNav;
use crate::components::priced_call::unreadable;
use crate::components::{
    csv, fmt_int, priced_form_buttons, Column, DataTable, ErrorBox, ExtLink, FormHooks, PricedCall,
    PricedForm, ResultMeta, SortKey, TableModel, TableRow, ValidationPanel,
};
use crate::model::{plural, preview};
use crate::paths::{enc, use_page_query, PagesQuery};
use crate::workspace::use_workspace;

/// A row: the record and its position in the response (URLs may repeat).
#[derive(Clone, Debug, PartialEq)]
pub struct PageRow {
    /// Position in the response.
    pub pos: usize,
    /// The record.
    pub m: PageBacklinkMetrics,
}

impl TableRow for PageRow {
    fn id(&self) -> String {
        self.pos.to_string()
    }
    fn columns() -> Vec<Column<[Self]>> {
        vec![
            Column {
                id: "url",
                label: "URL",
                numeric: false,
                width: "",
                key: |rows, i| SortKey::text(&rows[i].m.url),
                csv: Some(|rows, i| Cell::text(&rows[i].m.url)),
                csv_header: None,
            },
            Column {
                id: "backlinks",
                label: "Backlinks",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.backlinks),
                csv: Some(|rows, i| Cell::num(rows[i].m.backlinks)),
                csv_header: None,
            },
            Column {
                id: "dofollow",
                label: "Dofollow",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.dofollow_backlinks),
                csv: Some(|rows, i| Cell::num(rows[i].m.dofollow_backlinks)),
                csv_header: None,
            },
            Column {
                id: "nofollow",
                label: "Nofollow",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.nofollow_backlinks),
                csv: Some(|rows, i| Cell::num(rows[i].m.nofollow_backlinks)),
                csv_header: None,
            },
            Column {
                id: "refdomains",
                label: "Ref. domains",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.refdomains),
                csv: Some(|rows, i| Cell::num(rows[i].m.refdomains)),
                csv_header: None,
            },
            Column {
                id: "ips",
                label: "IPs",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.ips),
                csv: Some(|rows, i| Cell::num(rows[i].m.ips)),
                csv_header: None,
            },
            Column {
                id: "subnets",
                label: "Subnets",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.subnets),
                csv: Some(|rows, i| Cell::num(rows[i].m.subnets)),
                csv_header: None,
            },
            Column {
                id: "edu",
                label: ".edu",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.edu_backlinks),
                csv: Some(|rows, i| Cell::num(rows[i].m.edu_backlinks)),
                csv_header: None,
            },
            Column {
                id: "gov",
                label: ".gov",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].m.gov_backlinks),
                csv: Some(|rows, i| Cell::num(rows[i].m.gov_backlinks)),
                csv_header: None,
            },
        ]
    }
    fn cells(&self) -> AnyView {
        let m = &self.m;
        let url = m.url.clone();
        let url_text = m.url.clone();
        let dof = if m.backlinks > 0 {
            m.dofollow_backlinks as f64 / m.backlinks as f64 * 100.0
        } else {
            0.0
        };
        view! {
            <td class="url"><ExtLink href=url>{url_text}</ExtLink></td>
            <td class="num" data-col="backlinks">{fmt_int(m.backlinks)}</td>
            <td class="num">{fmt_int(m.dofollow_backlinks)}<span class="meta">{format!(" {dof:.0}%")}</span></td>
            <td class="num">{fmt_int(m.nofollow_backlinks)}</td>
            <td class="num">{fmt_int(m.refdomains)}</td>
            <td class="num">{fmt_int(m.ips)}</td>
            <td class="num">{fmt_int(m.subnets)}</td>
            <td class="num">{fmt_int(m.edu_backlinks)}</td>
            <td class="num">{fmt_int(m.gov_backlinks)}</td>
        }
        .into_any()
    }
}

/// URLs from text: one per line (or separated by spaces), trimmed, without duplicates.
pub fn parse_urls(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in text.split_whitespace() {
        let u = u.trim().to_string();
        if !u.is_empty() && !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// The route of this page for these URLs.
pub fn pages_route(urls: &[String]) -> String {
    format!("/domain/pages?u={}", enc(&urls.join("\n")))
}

/// The input of a metrics call as the history shows it.
fn urls_input(urls: &[String]) -> String {
    format!(
        "{} URL{}: {}",
        urls.len(),
        plural(urls.len()),
        preview(urls)
    )
}

/// The page backlink metrics page.
#[component]
pub fn PageMetrics() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_page_query::<PagesQuery>();
    let committed = Memo::new(move |_| q.with(|q| parse_urls(q.u.as_deref().unwrap_or_default())));
    let shown = PricedCall::new(
        workspace,
        Signal::derive(move || pages_route(&committed.get())),
        Signal::derive(move || urls_input(&committed.get())),
        move || metrics_request(committed.get()),
    );
    let text = RwSignal::new(q.get_untracked().u.unwrap_or_default());
    let typed = Memo::new(move |_| parse_urls(&text.get()));
    let form = PricedForm::new(
        workspace,
        typed,
        Memo::new(move |_| metrics_request(typed.get())),
        Signal::derive(move || pages_route(&typed.get())),
        Signal::derive(move || urls_input(&typed.get())),
    );

    view! {
        <section class="page domain-page" aria-labelledby="pm-title">
            <DomainNav />
            <h1 id="pm-title">"Page backlink metrics"</h1>
            <PagesForm form=form text=text />
            <ErrorBox call=form.call />
            <PagesResults shown=shown loading=form.call.loading />
        </section>
    }
}

/// The URLs textarea with the priced form's buttons; a run shows its result at the URLs'
/// route.
#[component]
fn PagesForm(form: PricedForm, text: RwSignal<String>) -> impl IntoView {
    let typed = form.items;
    view! {
        <div class="research">
            <div class="field grow">
                <label for="pm-input">"Page URLs, one per line"</label>
                <textarea id="pm-input" data-testid="urls-input" rows="5" spellcheck="false"
                    placeholder="https://example.com/\nhttps://example.com/blog/post"
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <p class="meta" aria-live="polite">{move || { let n = typed.with(Vec::len); format!("{n} URL{}", plural(n)) }}</p>
            </div>
            <div class="field">
                {priced_form_buttons(form, "Get metrics", "URL", FormHooks::default())}
                <p class="meta">{format!(
                    "{} {} (the service prices it “per domain, per request”; we count every URL, so the shown price is never below the charge).",
                    backlink_metrics::PRICE.usd.short_text(),
                    backlink_metrics::PRICE.unit.label(),
                )}</p>
            </div>
        </div>
    }
}

/// The shown run: totals, CSV export, table and validation; before one, loading or a hint.
#[component]
fn PagesResults(shown: PricedCall, loading: Signal<bool>) -> impl IntoView {
    let workspace = use_workspace();
    let records = shown.decoded::<Vec<PageBacklinkMetrics>>();
    let rows = Signal::derive(move || match records.get() {
        Some(Ok(v)) => v
            .iter()
            .cloned()
            .enumerate()
            .map(|(pos, m)| PageRow { pos, m })
            .collect(),
        _ => Vec::new(),
    });
    let sort = RwSignal::new(None);
    let model = TableModel::new(rows, sort);
    let export = move |_| {
        if let Err(e) = csv::download("page-backlinks.csv", "text/csv", &model.csv(), shown.origin()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let totals = move || {
        rows.with(|r| {
            (
                r.iter().map(|x| x.m.backlinks).sum::<i64>(),
                r.iter().map(|x| x.m.refdomains).sum::<i64>(),
            )
        })
    };

    move || {
        if !shown.stored() {
            return no_results(loading.get());
        }
        view! {
            <section class="results" aria-labelledby="pm-res">
                <div class="results-head">
                    <h2 id="pm-res">{move || { let n = rows.with(Vec::len); format!("{n} page{}", plural(n)) }}</h2>
                    <span class="meta">{move || { let (b, r) = totals(); format!("{} backlinks · {} referring domains in total", fmt_int(b), fmt_int(r)) }}</span>
                </div>
                <ResultMeta result=Signal::derive(move || shown.meta.get()) />
                {move || records.get().and_then(|r| r.err()).map(unreadable)}
                <div class="toolbar">
                    <button type="button" class="secondary" data-testid="export-csv" on:click=export
                        disabled=move || rows.with(Vec::is_empty)>{move || format!("Export CSV ({} rows)", rows.with(Vec::len))}</button>
                </div>
                <Show when=move || !rows.with(Vec::is_empty) fallback=|| view! { <p class="empty">"The service returned no records."</p> }>
                    <DataTable model=model caption="Backlink metrics by page" testid="pages-table" />
                </Show>
                <ValidationPanel result=Signal::derive(move || shown.meta.get()) />
            </section>
        }.into_any()
    }
}

/// Before a stored result: the running call's spinner, else what the page does.
fn no_results(loading: bool) -> AnyView {
    if loading {
        view! { <p class="empty" data-testid="loading"><span class="spinner" aria-hidden="true"></span>"Fetching backlink metrics…"</p> }.into_any()
    } else {
        view! {
            <div class="empty" data-testid="empty">
                <h2>"Backlinks of individual pages"</h2>
                <p>"Paste full URLs (http or https), one per line, and press “Get metrics”. The price is on the button; results are saved and reopen without a charge."</p>
            </div>
        }.into_any()
    }
}

/// The metrics call for `urls` (none without URLs).
fn metrics_request(urls: Vec<String>) -> Option<Request> {
    (!urls.is_empty()).then(|| {
        Request::BacklinkMetrics(backlink_metrics::Request {
            key: Default::default(),
            urls,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            parse_urls(" https://a.com/x \nhttps://a.com/x\n\nhttps://b.com"),
            vec!["https://a.com/x".to_string(), "https://b.com".into()]
        );
    }
}
