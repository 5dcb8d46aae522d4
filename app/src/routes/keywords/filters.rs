//! The explorer's filters: thirteen texts (in the URL) and the intent, the rows they keep, and
//! their fieldset.

use leptos::ev::MouseEvent;
use leptos::prelude::*;

use crate::components::keyword_row::{KeywordRow, TrendFilterFields, TrendFilterInputs};
use crate::paths::KeywordsQuery;
use crate::research::intent::Intent;

/// Numeric range filter text: `""` is open.
fn bound(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The filter fields as typed. `Copy`.
#[derive(Clone, Copy)]
pub struct Filters {
    /// Volume from.
    pub vmin: RwSignal<String>,
    /// Volume to.
    pub vmax: RwSignal<String>,
    /// CPC from.
    pub cmin: RwSignal<String>,
    /// CPC to.
    pub cmax: RwSignal<String>,
    /// Competition from.
    pub kmin: RwSignal<String>,
    /// Competition to.
    pub kmax: RwSignal<String>,
    /// Words a keyword must hold.
    pub inc: RwSignal<String>,
    /// Words a keyword must not hold.
    pub exc: RwSignal<String>,
    /// Season and change fields.
    pub trend: TrendFilterInputs,
    /// [`Intent::id`] a keyword must have; empty: any. Not in the URL (the page's query has
    /// no parameter for it), so a reopened view shows every intent.
    pub intent: RwSignal<String>,
}

impl Filters {
    /// Fields holding the query's texts.
    pub fn read(q: &KeywordsQuery) -> Filters {
        let field = |v: &Option<String>| RwSignal::new(v.clone().unwrap_or_default());
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        Filters {
            vmin: field(&q.vmin),
            vmax: field(&q.vmax),
            cmin: field(&q.cpcmin),
            cmax: field(&q.cpcmax),
            kmin: field(&q.compmin),
            kmax: field(&q.compmax),
            inc: field(&q.inc),
            exc: field(&q.exc),
            // In `TrendFilterInputs::PARAMS` order.
            trend: TrendFilterInputs::new([
                text(&q.season),
                text(&q.chmin),
                text(&q.chmax),
                text(&q.ch3min),
                text(&q.ch3max),
            ]),
            intent: RwSignal::new(String::new()),
        }
    }

    /// The text fields with their URL parameters, in URL order (the trend fields follow).
    pub fn texts(self) -> [(&'static str, RwSignal<String>); 8] {
        [
            ("vmin", self.vmin),
            ("vmax", self.vmax),
            ("cpcmin", self.cmin),
            ("cpcmax", self.cmax),
            ("compmin", self.kmin),
            ("compmax", self.kmax),
            ("inc", self.inc),
            ("exc", self.exc),
        ]
    }

    /// The rows the filters keep.
    pub fn apply(self, rows: Memo<Vec<KeywordRow>>) -> Signal<Vec<KeywordRow>> {
        let Filters {
            vmin,
            vmax,
            cmin,
            cmax,
            kmin,
            kmax,
            inc,
            exc,
            trend,
            intent,
        } = self;
        Signal::derive(move || {
            let want = Intent::from_id(&intent.get());
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
                            && want.is_none_or(|x| r.intent.has(x))
                    })
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    }

    /// The "Clear filters" buttons' handler (one closure type for both buttons).
    pub fn clear(self) -> impl Fn(MouseEvent) + Copy + 'static {
        move |_| {
            for (_, s) in self.texts() {
                s.set(String::new());
            }
            self.trend.clear();
            self.intent.set(String::new());
        }
    }
}

/// One numeric filter field.
fn filter_input(
    label: &'static str,
    id: &'static str,
    sig: RwSignal<String>,
    ph: &'static str,
) -> impl IntoView {
    view! {
        <label class="f">
            <span>{label}</span>
            <input id=id data-testid=id inputmode="decimal" placeholder=ph
                prop:value=move || sig.get() on:input=move |ev| sig.set(event_target_value(&ev)) />
        </label>
    }
}

/// The filters' fieldset.
pub fn filter_fields(f: Filters) -> impl IntoView {
    let Filters {
        vmin,
        vmax,
        cmin,
        cmax,
        kmin,
        kmax,
        inc,
        exc,
        trend,
        intent: want,
    } = f;
    view! {
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
            <label class="f"><span>"Intent"</span>
                <select data-testid="f-intent" on:change=move |ev| want.set(event_target_value(&ev))>
                    <option value="" selected=move || want.with(String::is_empty)>"Any intent"</option>
                    {Intent::ALL.into_iter().map(|x| view! {
                        <option value=x.id() selected=move || want.with(|w| w == x.id())>{x.label()}</option>
                    }).collect_view()}
                </select></label>
            <button type="button" class="secondary" on:click=f.clear()>"Clear filters"</button>
        </fieldset>
    }
}
