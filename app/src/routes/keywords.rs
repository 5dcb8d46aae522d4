//! The keyword explorer: paste keywords, see the price, run `search_volume/bulk` (in chunks,
//! with progress and cancel), then sort, filter, select, add to lists and export CSV.
//! The keywords, country, sort and filters live in the URL (never the key).

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use serpkit::ops::search_volume_bulk::{self, SearchVolumeRecord};
use serpkit::Request;

use crate::components::explorer_panels::{ExplorerState, LazyGroups, LazyImport, LazyReportButton};
use crate::components::keyword_row::{
    score_rows, KeywordRow, TrendFilterFields, TrendFilterInputs,
};
use crate::components::{
    csv, current_month, fmt_int, price_text, price_text_with, AddToList, DataTable, ErrorBox,
    PriceButton, ProgressBar, ResultMeta, TableModel, ValidationPanel,
};
use crate::model::{parse_keywords, plural, preview, CallResult};
use crate::paths::{enc, keywords_route};
use crate::research::score;
use crate::research::trends;
use crate::store;
use crate::workspace::{self, use_workspace, Call, Job};

/// localStorage key of the explorer's last URL (keywords, country, sort, filters; no key).
pub const LAST_VIEW_KEY: &str = "serpkit.explorer";

/// Numeric range filter text: `""` is open.
fn bound(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Country picker: the common codes plus the current one.
#[component]
pub fn CountrySelect(value: RwSignal<String>, id: &'static str) -> impl IntoView {
    view! {
        <select id=id data-testid="country" on:change=move |ev| value.set(event_target_value(&ev))>
            {move || {
                let cur = value.get();
                let mut opts: Vec<(String, String)> = crate::model::COUNTRIES
                    .iter()
                    .map(|(c, n)| (c.to_string(), format!("{n} ({c})")))
                    .collect();
                if !opts.iter().any(|(c, _)| *c == cur) {
                    opts.push((cur.clone(), cur.clone()));
                }
                opts.into_iter()
                    .map(|(c, n)| {
                        let sel = c == cur;
                        view! { <option value=c selected=sel>{n}</option> }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// The keyword explorer page.
#[component]
pub fn Keywords() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_query_map();
    let navigate = use_navigate();
    // Coming back without inputs in the URL (the "Keywords" link): reopen the last view.
    let restore = q
        .with_untracked(|m| m.get("kw").is_none())
        .then(|| store::local_get(LAST_VIEW_KEY))
        .flatten()
        .filter(|s| s.starts_with("/keywords?"));
    let params = restore.as_ref().and_then(|r| {
        web_sys::UrlSearchParams::new_with_str(r.trim_start_matches("/keywords")).ok()
    });
    if let Some(r) = &restore {
        navigate(
            r,
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    } else if let Some(search) = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .filter(|s| s.contains("kw="))
    {
        store::local_set(LAST_VIEW_KEY, &format!("/keywords{search}"));
    }
    let qget = move |k: &str| match &params {
        Some(p) => p.get(k).unwrap_or_default(),
        None => q.with_untracked(|m| m.get(k)).unwrap_or_default(),
    };

    let text = RwSignal::new(qget("kw"));
    let cc = RwSignal::new({
        let c = qget("cc");
        if c.is_empty() {
            workspace.settings.with_untracked(|s| s.ccode.clone())
        } else {
            c
        }
    });
    let vmin = RwSignal::new(qget("vmin"));
    let vmax = RwSignal::new(qget("vmax"));
    let cmin = RwSignal::new(qget("cpcmin"));
    let cmax = RwSignal::new(qget("cpcmax"));
    let kmin = RwSignal::new(qget("compmin"));
    let kmax = RwSignal::new(qget("compmax"));
    let inc = RwSignal::new(qget("inc"));
    let exc = RwSignal::new(qget("exc"));
    let trend = TrendFilterInputs::new(TrendFilterInputs::PARAMS.map(&qget));
    let sort = RwSignal::new({
        let s = qget("sort");
        (!s.is_empty()).then(|| (s, qget("dir") != "asc"))
    });
    let elapsed = RwSignal::new(None::<f64>);

    let keywords = Memo::new(move |_| parse_keywords(&text.get()));
    let request = Memo::new(move |_| {
        Request::SearchVolumeBulk(search_volume_bulk::Request {
            key: Default::default(),
            keywords: keywords.get(),
            ccode: cc.get().trim().to_uppercase(),
        })
    });
    // The request's cache key, once per edit (a 10,000-keyword list takes milliseconds).
    let key = Memo::new(move |_| workspace::cache_key(workspace, &request.get()));
    let call = Call::following(move || Some(key.get()));
    // While this request's job runs the button is disabled: its price is not recomputed as
    // each chunk's records arrive (planning 10,000 keywords per chunk would make the job
    // quadratic); it is priced again when the job ends.
    let quote = move |refresh: bool| {
        Memo::new(move |prev: Option<&workspace::Quote>| match prev {
            Some(q) if call.loading.get() => *q,
            _ => workspace::quote_now(workspace, &request.get(), refresh),
        })
    };
    let (price, full_price) = (quote(false), quote(true));
    let check = Memo::new(move |_| {
        if keywords.with(Vec::is_empty) {
            return None;
        }
        request.with(|r| r.check().err()).map(|e| {
            let kw = e
                .field
                .strip_prefix("/keywords/")
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| keywords.with(|k| k.get(i).cloned()));
            match kw {
                Some(k) => format!("{e} (“{}”)", k.chars().take(60).collect::<String>()),
                None => e.to_string(),
            }
        })
    });

    // The shown result: the one stored for the keywords and country in the URL.
    let committed = Memo::new(move |_| {
        let kws = parse_keywords(&q.with(|m| m.get("kw")).unwrap_or_default());
        let c = q
            .with(|m| m.get("cc"))
            .unwrap_or_default()
            .trim()
            .to_uppercase();
        (!kws.is_empty()).then(|| {
            let req = Request::SearchVolumeBulk(search_volume_bulk::Request {
                key: Default::default(),
                keywords: kws,
                ccode: c,
            });
            workspace::cache_key(workspace, &req)
        })
    });
    let shown: Memo<Option<CallResult>> =
        Memo::new(move |_| committed.get().and_then(|k| workspace.result(&k)));
    let shown_sig = Signal::derive(move || shown.get());
    let rows = Memo::new(move |_| {
        shown.with(|r| {
            r.as_ref()
                .map(|r| {
                    // The country of the URL: the stored result's key holds the same one.
                    let cc = q
                        .with(|m| m.get("cc"))
                        .unwrap_or_default()
                        .trim()
                        .to_uppercase();
                    let month = current_month();
                    let mut rows = serpkit::decode::<Vec<SearchVolumeRecord>>(&r.body)
                        .unwrap_or_default()
                        .iter()
                        .map(|rec| KeywordRow::from_record(rec, &cc, month))
                        .collect::<Vec<_>>();
                    workspace
                        .settings
                        .with(|s| score_rows(&mut rows, &s.score_weights));
                    rows
                })
                .unwrap_or_default()
        })
    });
    let filtered = Signal::derive(move || {
        let (v0, v1) = (bound(&vmin.get()), bound(&vmax.get()));
        let (c0, c1) = (bound(&cmin.get()), bound(&cmax.get()));
        let (k0, k1) = (bound(&kmin.get()), bound(&kmax.get()));
        let words = |s: String| -> Vec<String> {
            s.split([',', ' '])
                .map(|w| w.trim().to_lowercase())
                .filter(|w| !w.is_empty())
                .collect()
        };
        let (inc, exc) = (words(inc.get()), words(exc.get()));
        let within = |v: f64, lo: Option<f64>, hi: Option<f64>| {
            lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
        };
        rows.with(|rows| {
            rows.iter()
                .filter(|r| {
                    let k = r.keyword.to_lowercase();
                    within(r.volume as f64, v0, v1)
                        && within(r.cpc, c0, c1)
                        && within(r.competition, k0, k1)
                        && inc.iter().all(|w| k.contains(w.as_str()))
                        && !exc.iter().any(|w| k.contains(w.as_str()))
                        && trend.keeps(r)
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let model = TableModel::new(filtered, sort);
    provide_context(ExplorerState {
        rows: filtered,
        keywords: text,
        country: cc,
    });
    let import_opened = RwSignal::new(false);
    let selected_keywords = Signal::derive(move || {
        model
            .selected_rows()
            .into_iter()
            .map(|r| r.keyword)
            .collect::<Vec<_>>()
    });

    // Mirror the view's state in the URL (replace: typing does not flood the history).
    let nav = navigate.clone();
    Effect::new(move |prev: Option<()>| {
        let mut qs = vec![
            ("cc", q.with_untracked(|m| m.get("cc")).unwrap_or_default()),
            ("kw", q.with_untracked(|m| m.get("kw")).unwrap_or_default()),
        ];
        let s = sort.get();
        qs.push(("sort", s.as_ref().map(|s| s.0.clone()).unwrap_or_default()));
        qs.push((
            "dir",
            s.map(|s| if s.1 { "desc" } else { "asc" }.to_string())
                .unwrap_or_default(),
        ));
        for (k, v) in [
            ("vmin", vmin),
            ("vmax", vmax),
            ("cpcmin", cmin),
            ("cpcmax", cmax),
            ("compmin", kmin),
            ("compmax", kmax),
            ("inc", inc),
            ("exc", exc),
        ] {
            qs.push((k, v.get()));
        }
        for (k, v) in TrendFilterInputs::PARAMS.into_iter().zip(trend.signals()) {
            qs.push((k, v.get()));
        }
        if prev.is_some() {
            let query: Vec<String> = qs
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| format!("{k}={}", enc(&v)))
                .collect();
            let url = format!("/keywords?{}", query.join("&"));
            store::local_set(LAST_VIEW_KEY, &url);
            nav(
                &url,
                NavigateOptions {
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            );
        }
    });
    // Time from Run to the rendered table.
    Effect::new(move |_| {
        if shown.with(Option::is_some) {
            if let Some(t0) = call.started.get_untracked() {
                call.started.set(None);
                request_animation_frame(move || elapsed.set(Some(workspace::now() - t0)));
            }
        }
    });

    let nav_sv = StoredValue::new(navigate.clone());
    let go = move |refresh: bool| {
        let req = request.get_untracked();
        let kws = keywords.get_untracked();
        let c = cc.get_untracked().trim().to_uppercase();
        let route = keywords_route(&kws, &c);
        let n = kws.len();
        let input = format!("{n} keyword{}, {c}: {}", plural(n), preview(&kws));
        elapsed.set(None);
        workspace::run_then_show(
            workspace,
            call,
            Job {
                request: req,
                route,
                input,
            },
            refresh,
            move |r, o| {
                store::local_set(LAST_VIEW_KEY, r);
                nav_sv.with_value(|n| n(r, o))
            },
        );
    };
    // The typed input is the result on screen: nothing to run.
    let showing = Memo::new(move |_| {
        committed.get().is_some_and(|k| k == key.get()) && price.with(|q| q.units == 0)
    });
    let run_text = Signal::derive(move || {
        // Nothing typed: the disabled button says what to do rather than a price of nothing.
        if keywords.with(Vec::is_empty) {
            return "Enter keywords to see the price".to_string();
        }
        if showing.get() {
            return "Saved result shown — no charge".to_string();
        }
        price.with(|q| price_text_with("Run", q.usd, q.units, "keyword", q.reused))
    });
    let can_run = Signal::derive(move || {
        !call.loading.get()
            && !keywords.with(Vec::is_empty)
            && check.with(Option::is_none)
            && !showing.get()
    });
    let stored_now = move || workspace.has_result(&key.get());
    let export = move |_| {
        let c = cc.get_untracked().to_uppercase();
        if let Err(e) = csv::download(&format!("keywords-{c}.csv"), "text/csv", &model.csv()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    let clear_filters = move |_| {
        for s in [vmin, vmax, cmin, cmax, kmin, kmax, inc, exc] {
            s.set(String::new());
        }
        trend.clear();
    };
    let filter_input = |label: &'static str,
                        id: &'static str,
                        sig: RwSignal<String>,
                        ph: &'static str| {
        view! {
            <label class="f">
                <span>{label}</span>
                <input id=id data-testid=id inputmode="decimal" placeholder=ph
                    prop:value=move || sig.get() on:input=move |ev| sig.set(event_target_value(&ev)) />
            </label>
        }
    };

    view! {
        <section aria-labelledby="kx-title" class="page">
            <h1 id="kx-title">"Keyword explorer"</h1>
            <div class="research">
                <div class="field grow">
                    <label for="kw-input">"Keywords, one per line"</label>
                    <textarea id="kw-input" data-testid="kw-input" rows="6" spellcheck="false"
                        placeholder="running shoes\ntrail running shoes\nbest marathon shoes"
                        prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    <p class="meta" data-testid="kw-count" aria-live="polite">
                        {move || {
                            let n = keywords.with(Vec::len);
                            let lines = text.with(|t| t.lines().filter(|l| !l.trim().is_empty()).count());
                            let dup = lines.saturating_sub(n);
                            let mut s = format!("{n} keyword{}", plural(n));
                            if dup > 0 { s.push_str(&format!(" ({dup} duplicate{} removed)", plural(dup))); }
                            s
                        }}
                    </p>
                </div>
                <div class="field">
                    <label for="kw-country">"Country"</label>
                    <CountrySelect value=cc id="kw-country" />
                    <PriceButton testid="run" text=run_text price=Signal::derive(move || price.get().usd)
                        disabled=Signal::derive(move || !can_run.get())
                        on_run=Callback::new(move |_| go(false)) />
                    <Show when=stored_now>
                        <PriceButton testid="refresh" secondary=true
                            text=Signal::derive(move || { let q = full_price.get(); price_text("Refresh", q.usd, q.units, "keyword") })
                            price=Signal::derive(move || full_price.get().usd)
                            disabled=Signal::derive(move || call.loading.get())
                            on_run=Callback::new(move |_| go(true)) />
                    </Show>
                    {move || check.get().map(|m| view! { <p class="error inline" data-testid="input-error">{m}</p> })}
                </div>
            </div>
            <details class="import" data-testid="import">
                <summary data-testid="import-open" on:click=move |_| import_opened.set(true)>"Import keywords from a file or a paste"</summary>
                <Show when=move || import_opened.get()><LazyImport /></Show>
            </details>
            <ProgressBar call=call />
            <ErrorBox call=call />
            {move || {
                if shown.with(Option::is_none) {
                    return if call.loading.get() {
                        view! { <p class="empty" data-testid="loading">"Fetching search volumes…"</p> }.into_any()
                    } else {
                        view! {
                            <div class="empty" data-testid="empty">
                                <h2>"Start your research"</h2>
                                <p>"Paste or type keywords above, one per line, choose the country, and press Run. The price is shown on the button before anything is bought; results are saved in this browser and reopen without paying again."</p>
                            </div>
                        }.into_any()
                    };
                }
                view! {
                    <section class="results" aria-labelledby="res-title">
                        <div class="results-head">
                            <h2 id="res-title">{move || format!("{} of {} keywords", fmt_int(filtered.with(Vec::len) as i64), fmt_int(rows.with(Vec::len) as i64))}</h2>
                            <span class="meta" data-testid="timing">{move || elapsed.get().map(|ms| format!("rendered in {ms:.0} ms"))}</span>
                        </div>
                        <ResultMeta result=shown_sig />
                        <fieldset class="filters">
                            <legend>"Filters"</legend>
                            {filter_input("Volume from", "f-vmin", vmin, "min")}
                            {filter_input("to", "f-vmax", vmax, "max")}
                            {filter_input("CPC from $", "f-cpcmin", cmin, "min")}
                            {filter_input("to $", "f-cpcmax", cmax, "max")}
                            {filter_input("Competition from", "f-compmin", kmin, "0")}
                            {filter_input("to", "f-compmax", kmax, "1")}
                            <label class="f wide"><span>"Include words"</span>
                                <input data-testid="f-inc" prop:value=move || inc.get() on:input=move |ev| inc.set(event_target_value(&ev)) placeholder="e.g. shoes" /></label>
                            <label class="f wide"><span>"Exclude words"</span>
                                <input data-testid="f-exc" prop:value=move || exc.get() on:input=move |ev| exc.set(event_target_value(&ev)) placeholder="e.g. cheap" /></label>
                            <TrendFilterFields inputs=trend testid_prefix="f-" id_prefix="f-".to_string() />
                            <button type="button" class="secondary" on:click=clear_filters>"Clear filters"</button>
                        </fieldset>
                        <div class="toolbar">
                            <AddToList keywords=selected_keywords id="kx" />
                            <button type="button" class="secondary" data-testid="export-csv" on:click=export
                                disabled=move || filtered.with(Vec::is_empty)>
                                {move || format!("Export CSV ({} rows)", filtered.with(Vec::len))}
                            </button>
                            <LazyReportButton />
                        </div>
                        <Show when=move || !filtered.with(Vec::is_empty)
                            fallback=move || view! { <p class="empty" data-testid="no-match">"No keywords match these filters. " <button type="button" class="linklike" on:click=clear_filters>"Clear filters"</button></p> }>
                            <DataTable model=model caption="Search volume by keyword" testid="kw-table" selectable=true />
                        </Show>
                        <details class="meta rules" data-testid="trend-rules">
                            <summary>"How trends, seasons and the opportunity score are computed"</summary>
                            <p>{trends::CHANGE_RULE}</p>
                            <p data-testid="season-rule">{trends::SEASON_RULE}</p>
                            <p data-testid="score-formula">{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}" Weights: Settings."</p>
                        </details>
                        <LazyGroups />
                        <ValidationPanel result=shown_sig />
                    </section>
                }.into_any()
            }}
        </section>
    }
}
