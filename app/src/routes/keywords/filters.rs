//! The explorer's filters: fourteen texts in the URL (ranges, words, trend fields and the
//! intent), the rows they keep, and their fieldset.

use leptos::ev::MouseEvent;
use leptos::prelude::*;

use crate::components::keyword_row::{KeywordRow, TrendFilterFields, TrendFilterInputs};
use crate::paths::KeywordsQuery;
use crate::research::groups;
use crate::research::intent::Intent;

/// Numeric range filter text: `""` is open.
fn bound(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The filter fields as typed. `Copy`.
#[derive(Clone, Copy)]
pub struct Filters {
    /// Search volume from.
    pub volume_from: RwSignal<String>,
    /// Search volume to.
    pub volume_to: RwSignal<String>,
    /// Cost per click from.
    pub cpc_from: RwSignal<String>,
    /// Cost per click to.
    pub cpc_to: RwSignal<String>,
    /// Competition (0–1) from.
    pub competition_from: RwSignal<String>,
    /// Competition (0–1) to.
    pub competition_to: RwSignal<String>,
    /// Words a keyword must hold.
    pub include: RwSignal<String>,
    /// Words a keyword must not hold.
    pub exclude: RwSignal<String>,
    /// Season and change fields.
    pub trend: TrendFilterInputs,
    /// [`Intent::id`] a keyword must have; empty: any (`intent` in the URL).
    pub intent: RwSignal<String>,
    /// `1`: questions only (`questions` in the URL); empty: every keyword.
    pub questions: RwSignal<String>,
}

impl Filters {
    /// Fields holding the query's texts.
    pub fn read(q: &KeywordsQuery) -> Filters {
        let field = |v: &Option<String>| RwSignal::new(v.clone().unwrap_or_default());
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        Filters {
            volume_from: field(&q.vmin),
            volume_to: field(&q.vmax),
            cpc_from: field(&q.cpcmin),
            cpc_to: field(&q.cpcmax),
            competition_from: field(&q.compmin),
            competition_to: field(&q.compmax),
            include: field(&q.inc),
            exclude: field(&q.exc),
            // In `TrendFilterInputs::PARAMS` order.
            trend: TrendFilterInputs::new([
                text(&q.season),
                text(&q.chmin),
                text(&q.chmax),
                text(&q.ch3min),
                text(&q.ch3max),
            ]),
            // An intent the app does not know reads as any.
            intent: RwSignal::new(
                q.intent
                    .as_deref()
                    .and_then(Intent::from_id)
                    .map_or_else(String::new, |i| i.id().to_string()),
            ),
            questions: RwSignal::new(
                if q.questions.as_deref() == Some("1") { "1" } else { "" }.to_string(),
            ),
        }
    }

    /// The text fields with their URL parameters, in URL order (the trend fields follow).
    pub fn texts(self) -> [(&'static str, RwSignal<String>); 10] {
        [
            ("vmin", self.volume_from),
            ("vmax", self.volume_to),
            ("cpcmin", self.cpc_from),
            ("cpcmax", self.cpc_to),
            ("compmin", self.competition_from),
            ("compmax", self.competition_to),
            ("inc", self.include),
            ("exc", self.exclude),
            ("intent", self.intent),
            ("questions", self.questions),
        ]
    }

    /// The rows the filters keep.
    pub fn apply(self, rows: Memo<Vec<KeywordRow>>) -> Signal<Vec<KeywordRow>> {
        let Filters {
            volume_from,
            volume_to,
            cpc_from,
            cpc_to,
            competition_from,
            competition_to,
            include,
            exclude,
            trend,
            intent,
            questions,
        } = self;
        Signal::derive(move || {
            let want = Intent::from_id(&intent.get());
            let only_questions = !questions.with(String::is_empty);
            let volume = (bound(&volume_from.get()), bound(&volume_to.get()));
            let cpc = (bound(&cpc_from.get()), bound(&cpc_to.get()));
            let competition = (
                bound(&competition_from.get()),
                bound(&competition_to.get()),
            );
            let words = |s: String| -> Vec<String> {
                s.split([',', ' '])
                    .map(|w| w.trim().to_lowercase())
                    .filter(|w| !w.is_empty())
                    .collect()
            };
            let (include, exclude) = (words(include.get()), words(exclude.get()));
            let within = |v: f64, (lo, hi): (Option<f64>, Option<f64>)| {
                lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
            };
            rows.with(|rows| {
                rows.iter()
                    .filter(|r| {
                        let k = r.keyword.to_lowercase();
                        within(r.volume as f64, volume)
                            && within(r.cpc, cpc)
                            && within(r.competition, competition)
                            && include.iter().all(|w| k.contains(w.as_str()))
                            && !exclude.iter().any(|w| k.contains(w.as_str()))
                            && trend.keeps(r)
                            && want.is_none_or(|x| r.intent.has(x))
                            && (!only_questions || groups::is_question(&r.keyword))
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
        volume_from,
        volume_to,
        cpc_from,
        cpc_to,
        competition_from,
        competition_to,
        include,
        exclude,
        trend,
        intent: want,
        questions,
    } = f;
    view! {
        <fieldset class="filters">
            <legend>"Filters"</legend>
            {filter_input("Volume from", "f-vmin", volume_from, "min")}
            {filter_input("to", "f-vmax", volume_to, "max")}
            {filter_input("CPC from $", "f-cpcmin", cpc_from, "min")}
            {filter_input("to $", "f-cpcmax", cpc_to, "max")}
            {filter_input("Competition from", "f-compmin", competition_from, "0")}
            {filter_input("to", "f-compmax", competition_to, "1")}
            <label class="f wide"><span>"Include words"</span>
                <input data-testid="f-inc" prop:value=move || include.get() on:input=move |ev| include.set(event_target_value(&ev)) placeholder="e.g. shoes" /></label>
            <label class="f wide"><span>"Exclude words"</span>
                <input data-testid="f-exc" prop:value=move || exclude.get() on:input=move |ev| exclude.set(event_target_value(&ev)) placeholder="e.g. cheap" /></label>
            <TrendFilterFields inputs=trend testid_prefix="f-" id_prefix="f-".to_string() />
            <label class="f"><span>"Intent"</span>
                <select data-testid="f-intent" on:change=move |ev| want.set(event_target_value(&ev))>
                    <option value="" selected=move || want.with(String::is_empty)>"Any intent"</option>
                    {Intent::ALL.into_iter().map(|x| view! {
                        <option value=x.id() selected=move || want.with(|w| w == x.id())>{x.label()}</option>
                    }).collect_view()}
                </select></label>
            <label class="f check" title=groups::QUESTION_RULE><input type="checkbox" data-testid="f-questions"
                prop:checked=move || !questions.with(String::is_empty)
                on:change=move |ev| questions.set(if event_target_checked(&ev) { "1".into() } else { String::new() }) />
                <span>"Questions only"</span></label>
            <button type="button" class="secondary" on:click=f.clear()>"Clear filters"</button>
        </fieldset>
    }
}
