//! The world behind the sandbox: one profile per domain, from which every operation's figures
//! about the domain come, so domain stats, backlinks, ranked keywords and brand searches tell
//! one story.
//!
//! - **Topic** from the words of the site name: a theme's stems and synonyms found in it
//!   ("runnersworld", "runrepeat", "fleetfeet" → running), the longest first; a stem of three
//!   letters only at the start or end of the name ("run" in "runhub", not in "brunch"). A
//!   household brand of the list below has its topic; another name gets one by hash.
//! - **Size** (0..1, a log scale: a hobby blog near 0, a household brand near 1) from the site
//!   name, so one brand's sites share it; a subdomain is smaller than its site. Most sites are
//!   small (the draw is skewed low), as on the web.
//! - From the size, as link indexes show them: referring domains 10^(0.5 + 5.5·size) (3 to
//!   about a million, ×0.7–1.4); backlinks per referring domain 3 for a small site to 100 for
//!   a brand (×0.6–1.6); authority 17·log10(referring domains) − 10 (±4, 1..=100: 100
//!   referring domains ≈ 24, 10,000 ≈ 58, a million ≈ 92, Moz's DA scale); ranked keywords
//!   150·(referring domains)^0.4 (×0.8–1.25, 200..=20,000, the bodies' range); brand searches
//!   10^(1 + 5.4·size) a month in the US (a new site's name about 10, a household brand's
//!   about 2 million, as "nike" is searched); age 1–30 years, older when larger.
//! - **History**: over the 64 days `backlink/overview` shows, new backlinks a day are
//!   0.2–0.6 % of the total and lost ones 60–110 % of the new; referring domains churn
//!   5–15 % new and 3–12 % lost (at most 3,000 entries, at least 2); each referring domain's
//!   events alternate new and lost, so new minus lost never exceeds the total.

use crate::rng::{fnv1a, Rng};
use crate::words::THEMES;

/// Stems and synonyms of each theme (same order as [`THEMES`]), found in site names.
const TOPIC_WORDS: [&[&str]; 10] = [
    &[
        "running", "runner", "run", "jog", "marathon", "sprint", "stride", "feet", "foot", "racer",
        "5k", "10k", "trailrun", "ultra",
    ],
    &[
        "cooking", "cook", "chef", "kitchen", "recipe", "bake", "baker", "food", "meal", "brunch",
        "taste", "flavor", "spice", "grill", "dinner",
    ],
    &[
        "travel",
        "trip",
        "tour",
        "flight",
        "hotel",
        "hostel",
        "voyage",
        "journey",
        "nomad",
        "wander",
        "explore",
        "vacation",
        "holiday",
        "passport",
        "backpacker",
    ],
    &[
        "software", "code", "coder", "dev", "cloud", "data", "tech", "byte", "stack", "saas",
        "cyber", "compute", "syntax", "app",
    ],
    &[
        "garden", "plant", "grow", "seed", "lawn", "yard", "bloom", "flower", "green", "leaf",
        "soil", "herb", "prune", "orchard",
    ],
    &[
        "finance", "money", "cash", "bank", "invest", "budget", "wealth", "fund", "loan", "credit",
        "tax", "coin", "capital", "savings", "dollar", "penny",
    ],
    &[
        "pet", "dog", "cat", "puppy", "kitten", "paw", "pup", "vet", "bark", "woof", "feline",
        "canine", "purr",
    ],
    &[
        "photo", "camera", "lens", "shot", "snap", "pixel", "focus", "image", "film", "shutter",
        "flash", "studio", "portrait",
    ],
    &[
        "home",
        "house",
        "decor",
        "interior",
        "furniture",
        "nest",
        "cozy",
        "living",
        "room",
        "diy",
        "carpet",
        "space",
        "habitat",
        "casa",
    ],
    &[
        "fashion", "style", "wear", "cloth", "outfit", "wardrobe", "dress", "chic", "vogue",
        "closet", "denim", "apparel", "sneaker", "shoe",
    ],
];

/// The theme whose heads a domain ranks for beside its own (a running site for rain jackets
/// and hiking boots, a travel site for camera bags), by theme.
const NEIGHBOUR: [usize; 10] = [9, 8, 7, 5, 8, 3, 8, 2, 4, 0];

/// Household brands (searched by name millions of times a month) and their theme: a name
/// alone cannot say that "nike" is big, so the world lists a few.
const BIG_BRANDS: &[(&str, &str)] = &[
    ("nike", "running"),
    ("adidas", "running"),
    ("asics", "running"),
    ("garmin", "running"),
    ("strava", "running"),
    ("ikea", "home"),
    ("wayfair", "home"),
    ("canon", "photo"),
    ("nikon", "photo"),
    ("expedia", "travel"),
    ("airbnb", "travel"),
    ("paypal", "finance"),
    ("chewy", "pets"),
    ("zara", "fashion"),
    ("dropbox", "software"),
    ("allrecipes", "cooking"),
];

/// Sizes of listed household brands (the top of the scale).
const BIG_SIZE: (f64, f64) = (0.94, 1.0);

/// Most records a `size-<N>` domain can ask for.
pub const MAX_ROWS: usize = 1_000_000;

/// The label prefix that asks for a given number of rows: `size-<N>.example.com`.
pub const SIZE_PREFIX: &str = "size-";

/// N from a `size-<N>.` first label, capped at [`MAX_ROWS`].
pub fn requested_size(domain: &str) -> Option<usize> {
    let first = domain.split('.').next()?;
    let n: usize = first.get(SIZE_PREFIX.len()..)?.parse().ok()?;
    first
        .to_ascii_lowercase()
        .starts_with(SIZE_PREFIX)
        .then_some(n.min(MAX_ROWS))
}

/// A domain's site name: the label before its public suffix (`shop.example.co.uk` →
/// `example`), the whole host when it has one label.
pub fn site_name(domain: &str) -> String {
    let host = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let n = labels.len();
    let two_part = ["co", "com", "org", "net", "ac", "gov", "edu"];
    let index = if n >= 3 && labels[n - 1].len() == 2 && two_part.contains(&labels[n - 2]) {
        n - 3
    } else {
        n.saturating_sub(2)
    };
    labels.get(index).copied().unwrap_or_default().to_owned()
}

/// A domain's profile and the figures that follow from it.
#[derive(Clone, Debug, PartialEq)]
pub struct DomainProfile {
    /// Index into the themes.
    pub topic: usize,
    /// 0..1 on a log scale.
    pub size: f64,
    /// Years since the domain's first link.
    pub age_years: i64,
    /// Referring domains (the one total every operation reports).
    pub ref_domains: i64,
    /// Backlinks.
    pub backlinks: i64,
    /// Domain authority, 1..=100.
    pub authority: i64,
    /// Rows `ranked-keywords/domain` returns (a `size-<N>` label's N).
    pub ranked_keywords: usize,
    /// Mean monthly US searches of the bare brand (the site name).
    pub brand_searches: f64,
}

/// The theme of a site name from its words: the longest stem or synonym in it (ties: the
/// earliest); `None` when it names none.
pub fn topic_of_name(site: &str) -> Option<usize> {
    let name = site.to_ascii_lowercase();
    if let Some((_, theme)) = BIG_BRANDS.iter().find(|(b, _)| *b == name) {
        return THEMES.iter().position(|(t, _)| t == theme);
    }
    let bytes = name.as_bytes();
    let letter = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_alphabetic);
    let mut best: Option<(usize, usize, usize)> = None; // (length, position, theme)
    for (t, words) in TOPIC_WORDS.iter().enumerate() {
        for w in *words {
            for (at, _) in name.match_indices(w) {
                let end = at + w.len();
                // A short stem names a topic only at an end of a word of the name.
                let starts = at == 0 || !letter(at - 1);
                if w.len() <= 3 && !starts && letter(end) {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((len, pos, _)) => w.len() > len || (w.len() == len && at < pos),
                };
                if better {
                    best = Some((w.len(), at, t));
                }
            }
        }
    }
    best.map(|(_, _, t)| t)
}

/// The theme a domain ranks for beside its own.
pub(super) fn neighbour_topic(topic: usize) -> usize {
    NEIGHBOUR[topic % NEIGHBOUR.len()]
}

/// A name of the theme for a made-up site: one of its stems and a syllable ("runhub").
pub(super) fn topical_name(rng: &mut Rng, topic: usize) -> String {
    let words = TOPIC_WORDS[topic % TOPIC_WORDS.len()];
    let stem = rng.pick(words);
    let tail = rng.pick(&[
        "hub", "lab", "zone", "base", "point", "works", "daily", "guide", "pro", "hq",
    ]);
    format!(
        "{stem}{tail}.{}",
        rng.pick(&["com", "com", "net", "org", "io", "co.uk"])
    )
}

/// The size of a site (its brand), 0..1.
fn site_size(site: &str) -> f64 {
    let mut rng = Rng::from_parts(&["world-size", site]);
    if BIG_BRANDS.iter().any(|(b, _)| *b == site) {
        return rng.float(BIG_SIZE.0, BIG_SIZE.1);
    }
    // Skewed low: half the sites below 0.3, one in six above 0.6.
    rng.unit().powf(1.6) * 0.92
}

/// Monthly US searches of a brand (a site name) alone.
pub(super) fn brand_searches(site: &str) -> f64 {
    let size = site_size(site);
    let noise = Rng::from_parts(&["world-brand", site]).float(0.8, 1.25);
    10f64.powf(1.0 + 5.4 * size) * noise
}

/// The profile of `domain` (any case, with or without `www.`).
pub fn domain_profile(domain: &str) -> DomainProfile {
    let host = serpkit::records::normalize_domain(domain.trim().trim_end_matches('.'));
    let site = site_name(&host);
    let topic = topic_of_name(&site)
        .unwrap_or_else(|| (fnv1a(site.as_bytes()) % THEMES.len() as u64) as usize);
    let mut rng = Rng::from_parts(&["world", &host]);
    // A subdomain (or another label before the site) is a smaller part of its site.
    let below = host.split('.').position(|l| l == site).unwrap_or(0) > 0;
    let shrink = if below { rng.float(0.02, 0.12) } else { 0.0 };
    let size = (site_size(&site) - shrink).clamp(0.0, 1.0);
    let mut ref_domains = (10f64.powf(0.5 + 5.5 * size) * rng.float(0.7, 1.4)).round() as i64;
    let per_domain = 10f64.powf(0.5 + 1.5 * size) * rng.float(0.6, 1.6);
    let requested = requested_size(&host);
    if let Some(n) = requested {
        // A sized domain's history of n entries needs that many referring domains.
        ref_domains = ref_domains.max(n as i64);
    }
    let ref_domains = ref_domains.max(1);
    let backlinks = ((ref_domains as f64 * per_domain).round() as i64).max(ref_domains);
    let authority = ((17.0 * (ref_domains as f64).log10() - 10.0 + rng.float(-4.0, 4.0)).round()
        as i64)
        .clamp(1, 100);
    let ranked_keywords = requested.unwrap_or_else(|| {
        let k = 150.0 * (ref_domains as f64).powf(0.4) * rng.float(0.8, 1.25);
        (k.round() as usize).clamp(200, 20_000)
    });
    let age_years = (1.0 + size * 18.0 + rng.float(0.0, 8.0)).round().min(30.0) as i64;
    DomainProfile {
        topic,
        size,
        age_years,
        ref_domains,
        backlinks,
        authority,
        ranked_keywords,
        brand_searches: brand_searches(&site),
    }
}

/// `ref_newlost` entries of a domain without a size label: its referring domains that came
/// or went in the 64 days, 8–27 % of them (at least 2, at most 3,000: the body's size).
pub(super) fn history_entries(profile: &DomainProfile, domain: &str) -> usize {
    let mut rng = Rng::from_parts(&["world-churn", &domain.to_ascii_lowercase()]);
    ((profile.ref_domains as f64 * rng.float(0.08, 0.27)).round() as usize).clamp(2, 3_000)
}

/// The host of a URL (`https://www.x.com/a` → `x.com`).
pub(super) fn url_host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    serpkit::records::normalize_domain(host)
}

/// True when `url` is its site's home page.
fn is_home(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split_once('/').is_none_or(|(_, path)| path.is_empty())
}

/// The backlinks and referring domains of one URL: a share of its domain's (the home page
/// 20–50 % of the backlinks, another page up to 2 %), never more than the domain has.
pub(super) fn url_links(url: &str) -> (i64, i64) {
    let profile = domain_profile(&url_host(url));
    let mut rng = Rng::from_parts(&["world-url", url]);
    let backlinks = if is_home(url) {
        (profile.backlinks as f64 * rng.float(0.2, 0.5)).round() as i64
    } else {
        rng.log_range(1, (profile.backlinks / 50).max(1))
    }
    .max(1);
    let per = (profile.backlinks / profile.ref_domains).max(1);
    let refdomains = (backlinks / per)
        .max(rng.log_range(1, (backlinks / 2).max(1)).min(backlinks))
        .clamp(1, profile.ref_domains);
    (backlinks, refdomains)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_come_from_the_words_of_a_name() {
        let running = Some(0);
        for site in [
            "runnersworld",
            "runrepeat",
            "fleetfeet",
            "marathonhub",
            "jogtips",
            "best-running-tips",
        ] {
            assert_eq!(topic_of_name(site), running, "{site}");
        }
        assert_eq!(topic_of_name("brunchclub"), Some(1));
        assert_eq!(topic_of_name("example"), None);
        assert_eq!(topic_of_name("nike"), running);
        let mut rng = Rng::new(3);
        for t in 0..THEMES.len() {
            for _ in 0..30 {
                let d = topical_name(&mut rng, t);
                assert_eq!(topic_of_name(&site_name(&d)), Some(t), "{d}");
            }
        }
    }

    #[test]
    fn a_brand_and_its_subdomain() {
        let (a, b) = (
            domain_profile("example.com"),
            domain_profile("shop.example.com"),
        );
        assert_eq!(a.topic, b.topic);
        assert!(b.size < a.size || a.size == 0.0);
        assert_eq!(a, domain_profile("WWW.Example.com"));
        assert!(domain_profile("size-5000.example.com").ref_domains >= 5000);
        assert_eq!(
            domain_profile("size-5000.example.com").ranked_keywords,
            5000
        );
    }
}
