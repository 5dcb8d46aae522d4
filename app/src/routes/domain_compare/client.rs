//! The client report of the compare page (issue 43 item 9): the first domain is the client,
//! the others its competitors. One HTML file of every part already bought on this page
//! (overview side by side, top pages, cannibalised keywords, search intent, content gap,
//! shared keywords) and the client's backlink overview when the domain page bought it: a
//! part whose results are not bought says so with its price and where its priced card is.
//! Nothing is bought to make the report.

use leptos::prelude::*;
use serpkit::ops::backlink_overview::{self, DomainOverview};
use serpkit::Request;

use crate::components::ranked::analyses::rows_of;
use crate::components::ranked::keywords::{ranked_keywords_of, RankedKeywordsData};
use crate::components::versioned::Versioned;
use crate::components::{fmt_time, PricedCall};
use crate::paths::domain_route;
use crate::research::report::client::{
    backlink_sections, cannibal_sections, client_report, top_pages_sections, Part,
};
use crate::research::report::gap::gap_report;
use crate::research::report::intent::intent_report;
use crate::research::report::{Origin, Report};
use crate::research::ctr::Curve;
use crate::research::{brand, cannibalisation, gap, intent, top_pages};
use crate::workspace::use_workspace;

/// Where a missing part is bought: this page's sections.
const HERE: &str = "Buy it on this page (each section shows its price first), then export again.";

/// What a missing part says: what is not bought, its price now and where to buy it.
fn not_bought(what: &str, calls: &[PricedCall], place: &str) -> Part {
    let price = calls
        .iter()
        .fold(serpkit::Usd::ZERO, |sum, c| sum + c.quote.get_untracked().usd);
    Part::Missing(format!("{what} not bought yet ({price}). {place}"))
}

/// Where the backlink overview comes from, under its figures.
const BACKLINK_SOURCE: &str = "From the service's own backlink index (the backlink overview): \
its counts are not comparable with the link counts of other link indexes.";

/// Makes the client report from the page's stored results: `compare` makes the comparison
/// report (its sections are the overview and the shared keywords), `stats` and
/// `ranked_calls` (one per domain slot) are the page's calls.
pub fn client_maker(
    domains: Memo<Vec<String>>,
    compare: Callback<(), Option<(String, Report, Origin)>>,
    stats: PricedCall,
    rank_calls: Vec<PricedCall>,
    ranked_calls: Vec<PricedCall>,
) -> Callback<(), Option<(String, Report, Origin)>> {
    let decoded: Vec<_> = ranked_calls.iter().map(|c| ranked_keywords_of(*c)).collect();
    let workspace = use_workspace();
    // The client's backlink overview, bought on the domain page: priced here, never bought.
    let first = move || domains.with(|d| d.first().cloned());
    let backlinks = PricedCall::new(
        workspace,
        Signal::derive(move || first().map(|d| domain_route(&d, "backlinks")).unwrap_or_default()),
        Signal::derive(move || first().unwrap_or_default()),
        move || {
            first().map(|domain| {
                Request::BacklinkOverview(backlink_overview::Request {
                    key: Default::default(),
                    domain,
                })
            })
        },
    );
    let overview = backlinks.decoded::<DomainOverview>();
    Callback::new(move |_| {
        let ds = domains.get_untracked();
        let n = ds.len();
        let you = ds.first()?.clone();
        let (_, compared, _) = compare.run(())?;
        let mut sections = compared.sections.into_iter();
        let (stats_s, ranks_s, shared_s) = (sections.next(), sections.next(), sections.next());
        let data: Vec<Option<Versioned<RankedKeywordsData>>> = (0..n)
            .map(|i| decoded.get(i)?.get_untracked()?.ok())
            .collect();
        let bought = |c: &PricedCall| c.meta.with_untracked(Option::is_some);
        let overview_part = if bought(&stats) {
            let mut overview: Vec<_> = stats_s.into_iter().collect();
            if rank_calls.iter().take(n).all(bought) {
                overview.extend(ranks_s);
            }
            Part::Ready(overview)
        } else {
            not_bought("The domain stats are", &[stats], HERE)
        };
        let curve = workspace.settings.with_untracked(|s| s.ctr_curve.clone());
        let date = fmt_time(js_sys::Date::now());
        let mut parts = vec![("Overview".to_string(), overview_part)];
        match data.first().cloned().flatten() {
            Some(d) => parts.extend(own_parts(&you, &d, &curve)),
            None => {
                let what = format!("The ranked keywords of {you} are");
                for part in ["Top pages", "Cannibalised keywords", "Search intent"] {
                    let missing = not_bought(&what, &ranked_calls[..1], HERE);
                    parts.push((format!("{part} of {you}"), missing));
                }
            }
        }
        let backlinks_part = match overview.get_untracked() {
            Some(Ok(o)) => Part::Ready(backlink_sections(&o, BACKLINK_SOURCE)),
            Some(Err(e)) => Part::Missing(format!(
                "the stored backlink overview cannot be read ({e})."
            )),
            None => not_bought(
                &format!("The backlink overview of {you} is"),
                &[backlinks],
                "Buy it on the domain page's Backlinks tab (its price is shown first), then \
                 export again.",
            ),
        };
        parts.push((format!("Backlinks of {you}"), backlinks_part));
        let (gap_part, shared_part) = if n < 2 {
            let why = || Part::Missing("a competitor: add one to the domains compared.".into());
            (why(), why())
        } else if data.iter().all(Option::is_some) {
            let shared = Part::Ready(shared_s.into_iter().collect());
            (gap_part(&ds, &data, &curve, &date), shared)
        } else {
            let missing: Vec<PricedCall> = (0..n)
                .filter(|&i| data[i].is_none())
                .map(|i| ranked_calls[i])
                .collect();
            let what = "The ranked keywords of every domain are";
            (
                not_bought(what, &missing, HERE),
                not_bought(what, &missing, HERE),
            )
        };
        parts.push(("Content gap".into(), gap_part));
        parts.push(("Shared ranked keywords".into(), shared_part));
        let every: Vec<PricedCall> = [stats, backlinks]
            .into_iter()
            .chain(rank_calls.iter().copied())
            .chain(ranked_calls.iter().copied())
            .collect();
        let origin = PricedCall::origin_of(&every);
        let (file, report) = client_report(&ds, parts, &date);
        Some((file, report, origin))
    })
}

/// The client's own parts from its ranked keywords `d`: top pages, cannibalised keywords and
/// search intent (brand terms from its name, as its domain page classifies them).
fn own_parts(you: &str, d: &RankedKeywordsData, curve: &Curve) -> Vec<(String, Part)> {
    let pages = top_pages::top_pages(rows_of(d), curve);
    let found = cannibalisation::cannibalised(rows_of(d));
    let brand_terms = brand::terms(&brand::default_terms(&[you.to_string()]));
    let intents: Vec<_> = d
        .lower
        .iter()
        .map(|k| intent::classify(k, &brand_terms))
        .collect();
    let text: Vec<String> = intents.iter().map(|i| i.text()).collect();
    let dist = intent::distribution(&intents, &d.volume);
    let mut order: Vec<u32> = (0..d.len() as u32).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(d.volume[i as usize]));
    let (_, intent) = intent_report(rows_of(d), &text, &dist, you, &order);
    vec![
        (
            format!("Top pages of {you}"),
            Part::Ready(top_pages_sections(&pages, top_pages::RULE)),
        ),
        (
            format!("Cannibalised keywords of {you}"),
            Part::Ready(cannibal_sections(&found, cannibalisation::RULE)),
        ),
        (format!("Search intent of {you}"), Part::Ready(intent.sections)),
    ]
}

/// The content gap of the domains `ds` (the client first) with the gap page's default
/// options (brand terms from the domains' names, its cutoff and striking distance).
fn gap_part(
    ds: &[String],
    data: &[Option<Versioned<RankedKeywordsData>>],
    curve: &Curve,
    date: &str,
) -> Part {
    let brand_text = brand::default_terms(ds);
    let options = gap::Options {
        brand: brand::terms(&brand_text),
        top: gap::DEFAULT_TOP,
        striking: gap::DEFAULT_STRIKING,
        curve: curve.clone(),
    };
    let competitors: Vec<Option<gap::Ranked>> = data
        .iter()
        .skip(1)
        .map(|d| d.as_deref().map(RankedKeywordsData::ranked))
        .collect();
    let yours = data
        .first()
        .and_then(|d| d.as_deref().map(RankedKeywordsData::ranked))
        .unwrap_or_default();
    let g = gap::compute(yours, &competitors, &options);
    Part::Ready(gap_report(&g, ds, &options, &brand_text, date).1.sections)
}
