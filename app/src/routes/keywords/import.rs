//! "Import keywords" in the explorer: a file (CSV, TSV, text) or a paste, its columns with
//! samples, the keyword column picked, the counts, and how many of the keywords are not
//! bought yet with the price of buying them, before anything is bought. Applying puts the
//! keywords in the explorer's box; the explorer's Run (with its price) still buys them.
//! Decoding, reading and counting are `research::decode` and `research::import`; the panel
//! says how the file was read (encoding, delimiter, title rows) and states the rules.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::ops::search_volume_bulk;
use serpkit::Request;
use wasm_bindgen::JsCast;

use crate::components::fmt_int;
use crate::model::plural;
use crate::research::decode::DECODE_RULE;
use crate::research::import::{self, Table, IMPORT_RULES, MAX_BYTES};
use crate::workspace::{quote_now, use_workspace};

/// The import panel's body (the explorer holds its `<details>`). `country` prices the keywords; `apply` receives them (one per line).
#[component]
pub fn ImportKeywords(
    /// The explorer's country (the price depends on it).
    #[prop(into)]
    country: Signal<String>,
    /// Receives the keywords, one per line.
    apply: Callback<String>,
) -> impl IntoView {
    let workspace = use_workspace();
    let table = RwSignal::new(None::<Result<Table, String>>);
    let column = RwSignal::new(0usize);
    let paste = RwSignal::new(String::new());
    let source = RwSignal::new(String::new());
    // How the text was read (encoding, delimiter, title rows), shown above the columns.
    let how = RwSignal::new(String::new());
    let show = move |read: Result<Table, import::ImportError>, from: String, text: String| {
        if let Ok(t) = &read {
            column.set(t.suggested);
        }
        source.set(from);
        how.set(text);
        table.set(Some(read.map_err(|e| e.to_string())));
    };
    let load = move |text: &str, from: String| {
        let read = import::read_table(text);
        let text = read
            .as_ref()
            .map(|t| import::how_read(t, None))
            .unwrap_or_default();
        show(read, from, text);
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            table.set(Some(Err(import::ImportError::TooLarge(
                file.size() as usize
            )
            .to_string())));
            return;
        }
        // The bytes, not `File.text()`: the browser would guess UTF-8 for every file.
        spawn_local(async move {
            let from = format!("file “{name}”");
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => {
                    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                    match import::read_file(&bytes) {
                        Ok(f) => {
                            let text = import::how_read(&f.table, Some((f.encoding, f.replaced)));
                            show(Ok(f.table), from, text);
                        }
                        Err(e) => show(Err(e), from, String::new()),
                    }
                }
                Err(_) => table.set(Some(Err("the file could not be read".into()))),
            }
        });
    };
    let extracted = Memo::new(move |_| {
        table.with(|t| match t {
            Some(Ok(t)) => Some(import::extract(t, column.get())),
            _ => None,
        })
    });
    let quote = Memo::new(move |_| {
        extracted.with(|e| {
            e.as_ref().filter(|e| !e.keywords.is_empty()).map(|e| {
                let request = Request::SearchVolumeBulk(search_volume_bulk::Request {
                    key: Default::default(),
                    keywords: e.keywords.clone(),
                    ccode: country.get().trim().to_uppercase(),
                });
                quote_now(workspace, &request, false)
            })
        })
    });
    let do_apply = move |_| {
        if let Some(e) = extracted.get_untracked() {
            apply.run(e.keywords.join("\n"));
        }
    };

    view! {
            <div class="import-body">
                <div class="field">
                    <label for="import-file">"CSV, TSV or text file"</label>
                    <input id="import-file" type="file" data-testid="import-file" accept=".csv,.tsv,.txt,text/csv,text/plain" on:change=on_file />
                </div>
                <div class="field grow">
                    <label for="import-paste">"Or paste (one keyword per line, or rows copied from a spreadsheet)"</label>
                    <textarea id="import-paste" data-testid="import-paste" rows="3" spellcheck="false"
                        prop:value=move || paste.get()
                        on:input=move |ev| { let t = event_target_value(&ev); paste.set(t.clone()); if t.trim().is_empty() { table.set(None) } else { load(&t, "the paste".into()) } }></textarea>
                </div>
                {move || match table.get() {
                    None => view! { <p class="meta">"Nothing is bought here: the keywords go to the box above, and Run shows their price again."</p> }.into_any(),
                    Some(Err(e)) => view! { <p class="error inline" role="alert" data-testid="import-error">{format!("Cannot import: {e}.")}</p> }.into_any(),
                    Some(Ok(t)) => {
                        let cols = t.columns.iter().enumerate().map(|(i, name)| {
                            let samples = t.samples(i, 3).join(", ");
                            let text = if samples.is_empty() { format!("{name} (empty)") } else { format!("{name}: {samples}") };
                            view! { <option value=i.to_string() selected=move || column.get() == i>{text}</option> }
                        }).collect_view();
                        view! {
                            <p class="meta" data-testid="import-read">{how.get()}</p>
                            <div class="field">
                                <label for="import-column">{format!("Keyword column ({}{})", source.get(), if t.header { ", with a header row" } else { "" })}</label>
                                <select id="import-column" data-testid="import-column"
                                    on:change=move |ev| column.set(event_target_value(&ev).parse().unwrap_or(0))>{cols}</select>
                            </div>
                        }.into_any()
                    }
                }}
                {move || extracted.get().map(|e| view! { <p data-testid="import-counts">{counts_text(&e)}</p> })}
                {move || quote.get().map(|q| {
                    let new = q.units;
                    let text = if new == 0 && q.reused == 0 {
                        "These keywords are the result already saved for this country: no charge.".to_string()
                    } else if new == 0 {
                        format!("All {} keywords already bought: no charge.", fmt_int(q.reused as i64))
                    } else {
                        format!("{} not bought yet: {} to buy them ({}) · {} already bought.", fmt_int(new as i64), q.usd, country.get().trim().to_uppercase(), fmt_int(q.reused as i64))
                    };
                    view! { <p class="price-note" data-testid="import-price" data-price=q.usd.to_string() data-new=new.to_string()>{text}</p> }
                })}
                <ImportRules />
                <button type="button" class="secondary" data-testid="import-apply"
                    disabled=move || extracted.with(|e| e.as_ref().is_none_or(|e| e.keywords.is_empty()))
                    on:click=do_apply>
                    {move || format!("Put {} keywords in the box (free)", extracted.with(|e| e.as_ref().map_or(0, |e| e.keywords.len())))}
                </button>
            </div>
    }
}

/// The counts line: rows, empty, duplicates, formulas (only when there are some, so the usual
/// line stays short) and keywords.
fn counts_text(e: &import::Extracted) -> String {
    let formulas = if e.formulas == 0 {
        String::new()
    } else {
        format!(
            " · {} formula{} skipped (not keywords)",
            fmt_int(e.formulas as i64),
            plural(e.formulas)
        )
    };
    format!(
        "{} row{} read · {} empty · {} duplicate{} removed{formulas} · {} keyword{}",
        fmt_int(e.rows as i64),
        plural(e.rows),
        fmt_int(e.empty as i64),
        fmt_int(e.duplicates as i64),
        plural(e.duplicates),
        fmt_int(e.keywords.len() as i64),
        plural(e.keywords.len())
    )
}

/// "How files are read": the decoding and reading rules, where the file is read.
#[component]
fn ImportRules() -> impl IntoView {
    view! {
        <details class="meta rules" data-testid="import-rules">
            <summary>"How files are read"</summary>
            <p>{DECODE_RULE}</p>
            {IMPORT_RULES.iter().map(|r| view! { <p>{*r}</p> }).collect_view()}
        </details>
    }
}
