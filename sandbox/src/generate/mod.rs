//! The data generator: spec-conformant, realistic-looking, deterministic response bodies for
//! all 11 operations.
//!
//! Every function is pure: the same inputs give the same JSON text on every platform. Values
//! about one entity (a keyword in a country, a domain, a URL) are seeded from that entity, so
//! `search_volume/single` and `search_volume/bulk` agree about a keyword; "today" is a
//! parameter (the library has no clock).
//!
//! Sizes: `ranked-keywords/domain` returns 200..=20,000 records and `backlink/overview`
//! 2..=3,000 `ref_newlost` entries, from the domain's profile ([`world`]). A domain whose first label is
//! `size-<N>` (e.g. `size-50000.example.com`) asks for exactly N of them (at most
//! [`MAX_ROWS`]); [`ranked_keywords_domain`] and [`backlink_overview`] take N directly.
//!
//! One file per kind of data: [`keywords`] (search volume, ranked keywords, related),
//! [`domains`] (domain stats, backlinks), [`content`] (outline, microblog, video), and
//! [`ranked`] (ranked keywords of a domain: rank buckets, pages, brand queries, daily
//! movement), [`sample`] (sample requests), [`universe`] (what keeps them plausible across
//! operations: keyword profiles with a long tail and seasons, domain topics sharing keywords),
//! [`world`] (a domain's profile: topic, size and age, from which its authority, links,
//! history, ranked keyword count and brand searches follow) and [`queries`] (queries people
//! type, and a keyword's family); this file routes a request and holds the shared helpers.

mod content;
mod domains;
mod keywords;
mod market;
mod queries;
mod ranked;
mod sample;
mod universe;
mod world;

pub use content::{microblog_post, outline_seo, video_video};
pub use domains::{backlink_metrics, backlink_overview, domain_stats};
pub use keywords::{related, search_volume_bulk, search_volume_single};
pub use ranked::{ranked_keywords_domain, ranked_keywords_domain_on, ranked_keywords_metrics};
pub use sample::sample_request;
pub use universe::domain_topic;
pub use world::{
    domain_profile, requested_size, site_name, topic_of_name, DomainProfile, MAX_ROWS, SIZE_PREFIX,
};

use serpkit::ops::{self, Request};

use crate::date::Date;
use crate::rng::{fnv1a, hash_parts, Rng};
use crate::words::*;

/// The seed of a request: FNV-1a of the operation path and the request body without its key.
pub fn request_seed(request: &Request) -> u64 {
    let mut r = request.clone();
    r.set_key(ops::ApiKey::default());
    hash_parts(&[request.operation().path(), &r.to_json()])
}

/// The response body (JSON text) of a request, as of `today`.
pub fn body(request: &Request, today: Date) -> String {
    use serpkit::records::normalize_domain;
    match request {
        Request::SearchVolumeBulk(r) => search_volume_bulk(&r.keywords, &r.ccode, today),
        Request::SearchVolumeSingle(r) => search_volume_single(&r.keyword, &r.ccode, today),
        Request::DomainStats(r) => domain_stats(&r.domains),
        Request::BacklinkMetrics(r) => backlink_metrics(&r.urls),
        // A domain's data is its host's without `www.` (as record keys see it): `www.x.com`
        // and `x.com` get one answer.
        Request::RankedKeywordsMetrics(r) => ranked_keywords_metrics(&normalize_domain(&r.domain)),
        Request::RankedKeywordsDomain(r) => {
            let domain = normalize_domain(&r.domain);
            ranked_keywords_domain_on(
                &domain,
                ranked_keywords_size(&domain),
                fnv1a(domain.as_bytes()),
                today,
            )
        }
        Request::BacklinkOverview(r) => {
            let domain = normalize_domain(&r.domain);
            backlink_overview(
                &domain,
                ref_newlost_size(&domain),
                today,
                fnv1a(domain.as_bytes()),
            )
        }
        Request::OutlineSeo(r) => outline_seo(&r.keyword),
        Request::MicroblogPost(r) => microblog_post(&r.keyword, today),
        Request::VideoVideo(r) => video_video(&r.keyword, today),
        Request::Related(r) => related(&r.keyword, &r.ccode),
    }
}

/// Records `ranked-keywords/domain` returns for a domain: a `size-<N>` label, else
/// 200..=20,000 from the domain's profile ([`world`]: more with more referring domains).
pub fn ranked_keywords_size(domain: &str) -> usize {
    domain_profile(domain).ranked_keywords
}

/// `ref_newlost` entries `backlink/overview` returns for a domain: a `size-<N>` label, else
/// from the domain's profile: its referring domains' churn over the 64 days (5–15 % new,
/// 3–12 % lost), 2..=3,000.
pub fn ref_newlost_size(domain: &str) -> usize {
    requested_size(domain)
        .unwrap_or_else(|| world::history_entries(&domain_profile(domain), domain))
}

// ---------------------------------------------------------------------------------------
// Shared helpers

fn round_to(v: f64, decimals: i32) -> f64 {
    let p = 10f64.powi(decimals);
    (v * p).round() / p
}

/// Rounds a volume the way keyword tools report it: to Keyword Planner's tiers
/// ([`market::planner_tier`]).
fn bucket(v: f64) -> i64 {
    market::planner_tier(v)
}

fn theme_of(seed: u64) -> &'static (&'static str, &'static [Head]) {
    &THEMES[(seed % THEMES.len() as u64) as usize]
}

/// The theme sharing the most words with `keyword`; a hash-chosen one when none does.
fn theme_for(keyword: &str) -> &'static [Head] {
    let kw = keyword.to_lowercase();
    let words: Vec<&str> = kw.split_whitespace().filter(|w| w.len() > 2).collect();
    let score = |heads: &[Head]| {
        heads
            .iter()
            .flat_map(|h| h.term.split(' '))
            .filter(|w| words.contains(w))
            .count()
    };
    THEMES
        .iter()
        .map(|(_, heads)| (score(heads), *heads))
        .filter(|(s, _)| *s > 0)
        .max_by_key(|(s, _)| *s)
        .map(|(_, h)| h)
        .or_else(|| {
            // A name ("runnersworld", "marathon"): the theme its words name.
            let name: String = kw.split_whitespace().collect();
            world::topic_of_name(&name).map(|t| THEMES[t].1)
        })
        .unwrap_or_else(|| theme_of(fnv1a(kw.as_bytes())).1)
}

fn made_up_domain(rng: &mut Rng) -> String {
    let a = rng.pick(SYLLABLES);
    let mut b = rng.pick(SYLLABLES);
    while b == a {
        b = rng.pick(SYLLABLES);
    }
    let sep = if rng.chance(0.25) { "-" } else { "" };
    format!("{a}{sep}{b}.{}", rng.pick(TLDS))
}

fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str("page");
    }
    s
}

/// A timestamp on `date` at a random time with milliseconds.
fn stamp(rng: &mut Rng, date: Date) -> String {
    date.timestamp(rng.below(86_400) as u32, rng.below(1000) as u32)
}

fn person(rng: &mut Rng) -> (String, String) {
    let first = rng.pick(FIRST_NAMES);
    let last = rng.pick(LAST_NAMES);
    let handle = match rng.below(3) {
        0 => format!("{}{}", first.to_lowercase(), rng.range(1, 999)),
        1 => format!("{}_{}", first.to_lowercase(), last.to_lowercase()),
        _ => format!("{}{}", rng.pick(SYLLABLES), last.to_lowercase()),
    };
    (format!("{first} {last}"), handle)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod world_tests;
