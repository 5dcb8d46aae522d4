//! The content gap's filters and what the gap is computed with (brand terms, the position
//! cutoff, striking distance). The page draws them again as each domain's ranked keywords
//! arrive (the card's body is drawn again), so every box shows a signal made with the body,
//! never the DOM's own value: a text applied on change is a [`Draft`], whose typed text is
//! that signal.

use leptos::prelude::*;

use crate::research::gap::{self, Options};
use crate::research::{brand, groups};
use crate::workspace::Workspace;

/// A text setting applied on Enter or on leaving the box, so that typing does not recompute
/// the gap at every key. The box shows `typed`, which every key writes: an edit not applied
/// yet survives the filters being drawn again (a domain's data arriving; the box showed
/// `applied` and such an edit was lost). Applied on Enter and blur rather than on `change`:
/// a box drawn again holds the edit as its value, which a `change` event would not report.
#[derive(Clone, Copy)]
pub(super) struct Draft {
    /// What the box holds.
    pub(super) typed: RwSignal<String>,
    /// What the gap is computed with.
    pub(super) applied: RwSignal<String>,
}

impl Draft {
    /// A draft holding and applying `text`.
    pub(super) fn new(text: String) -> Draft {
        Draft {
            typed: RwSignal::new(text.clone()),
            applied: RwSignal::new(text),
        }
    }

    /// Holds and applies `text` (a new default: the domains changed).
    pub(super) fn reset(self, text: String) {
        self.typed.set(text.clone());
        self.applied.set(text);
    }

    /// Applies what is typed, when it differs (nothing is recomputed otherwise).
    fn apply(self) {
        let typed = self.typed.get_untracked();
        if self.applied.with_untracked(|a| *a != typed) {
            self.applied.set(typed);
        }
    }

    /// Its box: shows what is typed, applies it on Enter or blur, and says when an edit is
    /// not applied yet.
    pub(super) fn input(self, testid: &'static str, inputmode: &'static str) -> impl IntoView {
        let Draft { typed, applied } = self;
        let pending = move || typed.with(|t| applied.with(|a| t != a));
        view! {
            <input data-testid=testid inputmode=inputmode prop:value=move || typed.get()
                on:input=move |ev| typed.set(event_target_value(&ev))
                on:keydown=move |ev| if ev.key() == "Enter" { self.apply() }
                on:blur=move |_| self.apply() />
            {move || pending().then(|| view! { <small class="meta" data-testid=format!("{testid}-pending")>"Enter applies it"</small> })}
        }
    }
}

/// A striking-distance end typed (a rank 1–100), or `default` when not one.
fn striking_end(s: &str, default: i64) -> i64 {
    s.trim()
        .parse::<i64>()
        .ok()
        .filter(|r| (1..=100).contains(r))
        .unwrap_or(default)
}

/// The table's filter inputs and sort, made with the body so a re-render keeps them.
#[derive(Clone, Copy)]
pub(super) struct GapFilter {
    pub(super) text: RwSignal<String>,
    pub(super) volume_min: RwSignal<String>,
    pub(super) competition_max: RwSignal<String>,
    /// Keep rows where at least this many competitors rank (0: any).
    pub(super) rivals: RwSignal<usize>,
    /// Keep questions only (`research::groups::is_question`).
    pub(super) questions: RwSignal<bool>,
    pub(super) sort: RwSignal<Option<(String, bool)>>,
}

/// What the gap is computed with (a change recomputes it): brand terms, the position cutoff
/// and the striking distance as typed.
#[derive(Clone, Copy)]
pub(super) struct GapSettings {
    pub(super) brand: Draft,
    pub(super) top: RwSignal<i64>,
    pub(super) strike_from: Draft,
    pub(super) strike_to: Draft,
    /// The workspace, whose click-through curve estimates traffic.
    pub(super) workspace: Workspace,
}

impl GapSettings {
    /// The options (tracked). A striking distance end that is not a rank 1–100 keeps its
    /// default; "to" below "from" is "from".
    pub(super) fn options(&self) -> Options {
        let (from, to) = gap::DEFAULT_STRIKING;
        let from = striking_end(&self.strike_from.applied.get(), from);
        let to = striking_end(&self.strike_to.applied.get(), to).max(from);
        Options {
            brand: brand::terms(&self.brand.applied.get()),
            top: self.top.get(),
            striking: (from, to),
            curve: self.workspace.settings.with(|s| s.ctr_curve.clone()),
        }
    }
}

/// The filter inputs; brand terms, the cutoff and striking distance recompute the gap (brand
/// terms and striking distance when applied, [`Draft`], so typing does not recompute every
/// key).
#[component]
pub(super) fn GapFilters(
    filter: GapFilter,
    settings: GapSettings,
    rivals: Signal<usize>,
) -> impl IntoView {
    let GapFilter {
        text,
        volume_min,
        competition_max,
        rivals: min_rivals,
        questions,
        ..
    } = filter;
    let GapSettings {
        brand,
        top,
        strike_from,
        strike_to,
        ..
    } = settings;
    let cmax_note = move || {
        let typed = competition_max.get();
        let read = gap::competition_bound(&typed)?;
        (typed.trim().parse::<f64>().ok() != Some(read)).then(|| format!("read as {read:.2}"))
    };
    view! {
        <fieldset class="filters">
            <legend>"Filter"</legend>
            <label class="f wide"><span>"Keyword contains"</span>
                <input type="search" data-testid="gap-filter" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) /></label>
            <label class="f"><span>"Volume from"</span>
                <input data-testid="gap-vmin" inputmode="decimal" placeholder="min" prop:value=move || volume_min.get() on:input=move |ev| volume_min.set(event_target_value(&ev)) /></label>
            <label class="f"><span>"Competition up to (0–1)"</span>
                <input data-testid="gap-cmax" inputmode="decimal" placeholder="max" prop:value=move || competition_max.get() on:input=move |ev| competition_max.set(event_target_value(&ev)) />
                <small class="meta" data-testid="gap-cmax-read" aria-live="polite">{cmax_note}</small></label>
            <label class="f"><span>"Competitors ranking"</span>
                <select data-testid="gap-rivals-min" on:change=move |ev| min_rivals.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || { let rivals = rivals.get(); (0..=rivals).map(|k| view! {
                        <option value=k.to_string() selected=move || min_rivals.get() == k>
                            {if k == 0 { "any".to_string() } else if k == rivals { format!("all {k}") } else { format!("{k} or more") }}
                        </option>
                    }).collect_view() }}
                </select></label>
            <label class="f"><span>"Competitors' positions up to"</span>
                <select data-testid="gap-top" on:change=move |ev| top.set(event_target_value(&ev).parse().unwrap_or(gap::DEFAULT_TOP))>
                    {gap::TOP_CHOICES.into_iter().map(|t| view! {
                        <option value=t.to_string() selected=move || top.get() == t>{format!("top {t}")}</option>
                    }).collect_view()}
                </select></label>
            <label class="f"><span>"Striking distance from"</span>{strike_from.input("gap-strike-from", "numeric")}</label>
            <label class="f"><span>"to"</span>{strike_to.input("gap-strike-to", "numeric")}</label>
            <label class="f check" title=groups::QUESTION_RULE><input type="checkbox" data-testid="gap-questions"
                prop:checked=move || questions.get() on:change=move |ev| questions.set(event_target_checked(&ev)) />
                <span>"Questions only"</span></label>
            <label class="f wide"><span>"Brand terms (left out)"</span>{brand.input("gap-brand", "text")}</label>
        </fieldset>
    }
}
