//! The authority card of one domain (`domainstats`): first and second provider's scores,
//! link counts, social counters (grouped as [`crate::components::domain::metrics`] lists them) and the
//! topical trust flow categories. Every value is the
//! service's string; an empty or unreadable one is shown as "—", never as 0.

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops::domainstats::{parse_stat, DomainStatsRecord};

use crate::components::domain::metrics::{group_note, metric_groups};
use crate::format::{fmt_stat, NO_VALUE};

/// A 0..100 score as a ring gauge ("—" inside when empty).
#[component]
pub fn ScoreRing(label: &'static str, raw: String, testid: &'static str) -> impl IntoView {
    let v = parse_stat::<f64>(&raw).filter(|v| v.is_finite());
    let pct = v.map(|v| v.clamp(0.0, 100.0)).unwrap_or(0.0);
    let text = fmt_stat(&raw);
    let c = 2.0 * std::f64::consts::PI * 26.0;
    view! {
        <div class="ring" data-testid=testid data-empty=v.is_none().to_string()>
            <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
                <circle cx="32" cy="32" r="26" class="ring-bg" />
                <circle cx="32" cy="32" r="26" class="ring-fg"
                    stroke-dasharray=format!("{:.1} {:.1}", c * pct / 100.0, c)
                    transform="rotate(-90 32 32)" />
            </svg>
            <strong class="ring-value">{text}</strong>
            <span class="ring-label">{label}</span>
        </div>
    }
}

/// The card of one domain. `link` adds "Open domain" (to the domain's page).
#[component]
pub fn DomainCard(record: DomainStatsRecord, #[prop(optional)] link: bool) -> impl IntoView {
    let r = record;
    let ttf = r.topical_trust_flow();
    let groups = metric_groups();
    let entered = r
        .domain_as_entered
        .clone()
        .filter(|e| !e.trim().is_empty() && !e.eq_ignore_ascii_case(&r.domain));
    let href = crate::paths::domain_route(&r.domain, "overview");
    let scope = r.beta_stat_returned.clone();
    view! {
        <article class="dcard" data-testid="domain-card" data-domain=r.domain.clone()
            aria-label=format!("Statistics of {}", r.domain)>
            <header class="dcard-head">
                <h3 class="dname">{r.domain.clone()}</h3>
                {entered.map(|e| view! { <span class="meta">{format!("entered as {e}")}</span> })}
                {link.then(|| view! { <A href=href attr:class="button secondary small">"Open domain"</A> })}
            </header>
            <div class="rings">
                <ScoreRing label="Domain authority (A)" raw=r.alpha_da.clone() testid="ring-da" />
                <ScoreRing label="Page authority (A)" raw=r.alpha_pa.clone() testid="ring-pa" />
                <ScoreRing label="Citation flow (B)" raw=r.beta_cf.clone() testid="ring-cf" />
                <ScoreRing label="Trust flow (B)" raw=r.beta_tf.clone() testid="ring-tf" />
            </div>
            <div class="dgroups">
                {groups.into_iter().map(|(title, items)| view! {
                    <section class="dgroup">
                        <h4>{title}</h4>
                        <p class="meta source" data-testid="group-note">{group_note(title)}</p>
                        <dl>
                            {items.into_iter().map(|metric| {
                                let (label, field) = (metric.card_label, metric.field);
                                let value = fmt_stat((metric.value)(&r));
                                let empty = value == NO_VALUE;
                                view! {
                                    <div class="kv" data-field=field class:empty=empty>
                                        <dt>{label}</dt>
                                        <dd data-testid=format!("stat-{field}") title=empty.then_some("not reported")>
                                            {value}
                                        </dd>
                                    </div>
                                }
                            }).collect_view()}
                        </dl>
                    </section>
                }).collect_view()}
            </div>
            <section class="dgroup ttf" data-testid="ttf">
                <h4>"Topical trust flow"</h4>
                {if ttf.is_empty() {
                    view! { <p class="meta">"No topical categories reported."</p> }.into_any()
                } else {
                    view! {
                        <ul class="ttf-list">
                            {ttf.into_iter().map(|t| {
                                let pct = t.value.map(|v| v.clamp(0.0, 100.0)).unwrap_or(0.0);
                                let val = t.value.map(|v| format!("{v:.0}")).unwrap_or_else(|| NO_VALUE.into());
                                let parts: Vec<String> = t.name.split('/').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
                                view! {
                                    <li data-testid="ttf-item">
                                        <span class="ttf-name" title=t.name.clone()>
                                            {parts.join(" › ")}
                                        </span>
                                        <span class="ttf-bar" aria-hidden="true"><span style=format!("width:{pct:.0}%")></span></span>
                                        <strong class="ttf-val">{val}</strong>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }}
            </section>
            {(!scope.trim().is_empty()).then(|| view! { <p class="meta">{format!("Index B's scope: {scope}")}</p> })}
        </article>
    }
}
