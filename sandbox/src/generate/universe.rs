//! What makes the synthetic data plausible across operations: a keyword's stable profile
//! (volume, CPC, competition, difficulty, season), the same in search volume, related and
//! ranked keywords; and a domain's keyword universe, shared in part by the domains of its
//! topic.
//!
//! - **Volumes** ([`anchored_volume`]): a listed head term is searched 27,100–450,000 times a
//!   month in the US when it names a product or a service ("running shoes", "vpn"),
//!   9,900–201,000 when it names an activity, an idea or a dish; each word a searcher adds
//!   keeps 6–50 % of that ("best running shoes" about a fifth, a five-word long tail tens).
//!   A brand's name is searched as its site is big ([`super::world`]: about 10 a month for a
//!   new site, millions for a household brand), its brand queries less by their added words.
//!   Other keywords fall with their word count (each extra word divides the median by 3.5)
//!   around a log-uniform spread.
//! - **Seasonality** follows a keyword's family (its head term, [`super::queries::family_of`]),
//!   so "winter coat" and "winter coat sale" peak in the same months: the word lists name the
//!   heads that peak and when (coats November to January), and a keyword naming a holiday or
//!   a weather good ("christmas tree", "snow boots", "sunscreen", [`super::market`]) peaks in
//!   its months: their peak months hold 60–80 % of the year (seasonal by the rule the app
//!   states). A dish's listed season is a swing (30 %); everything else swings gently around
//!   a month its family shares: questions, consumables, software and concepts by at most 8 %,
//!   other goods by at most 15 % ("coffee grinder" and "how to boil an egg" are flat).
//! - **CPC** by niche, kind and intent ([`super::market::cpc`]): finance and software bid high,
//!   recipes low; a buying word raises it, a question lowers it. **Ads competition** by what
//!   is sold: a product's or a service's keywords 0.55–1, a question's at most 0.3, others
//!   up to 0.7.
//! - **No volume**: only long keywords (4 words or more) can have none, as in the planner;
//!   a head term ("yoga mat") always has searches.
//! - **Topics**: a domain's topic comes from the words of its site name
//!   ([`super::world::topic_of_name`]: `runnersworld.com` → running), else from a hash of the
//!   site name, so sister sites and size-labelled domains share a topic. Each domain covers
//!   8–13 of its topic's 15 head terms (all beyond 5,000 ranked keywords) and 3 of a
//!   neighbouring topic's, so two domains of one topic share part of their
//!   keywords, not all.

use super::market;
use super::queries::{family_of, head_named};
use super::world::{self, site_name};
use crate::rng::Rng;
use crate::words::*;

/// Chance that a long keyword (4 words or more) has no volume at all (zero months, CPC and
/// competition).
const ZERO_CHANCE: f64 = 0.08;

/// How a keyword's searches spread over the calendar year.
#[derive(Clone, Copy, Debug)]
pub(super) enum Season {
    /// A gentle swing: `1 + amplitude · cos(month − phase)`, amplitude ≤ 0.35.
    Swing { amplitude: f64, phase: f64 },
    /// `share` of the year in `months` consecutive calendar months from `first` (1..=12).
    Peak { first: u8, months: u8, share: f64 },
}

impl Season {
    /// The weight of calendar month `month` (1..=12); the 12 weights average 1.
    fn weight(self, month: u8) -> f64 {
        match self {
            Season::Swing { amplitude, phase } => {
                1.0 + amplitude * ((f64::from(month) - phase) * std::f64::consts::TAU / 12.0).cos()
            }
            Season::Peak {
                first,
                months,
                share,
            } => {
                let offset = (month + 12 - first) % 12;
                if offset < months {
                    12.0 * share / f64::from(months)
                } else {
                    12.0 * (1.0 - share) / f64::from(12 - months)
                }
            }
        }
    }
}

/// The stable profile of a keyword: the same whatever operation shows it.
pub(super) struct KeywordProfile {
    /// Mean monthly searches in the US (0: no volume).
    pub base: f64,
    pub season: Season,
    /// Relative change per month over the 12-month window (−3 % to +5 %).
    pub trend: f64,
    pub cpc: f64,
    /// 0..1.
    pub competition: f64,
    /// Keyword difficulty, 0..=100.
    pub difficulty: i64,
}

impl KeywordProfile {
    /// The searches of month `index` of the 12-month window (0 oldest) in calendar month
    /// `month`, scaled by `country`; `noise` is that month's factor (0.9..1.1). The trend
    /// pivots on the window's middle, so the year's mean stays near `base`.
    pub fn month_volume(&self, index: usize, month: u8, country: f64, noise: f64) -> f64 {
        let trend = 1.0 + self.trend * (index as f64 - 5.5);
        self.base * country * self.season.weight(month) * trend * noise
    }
}

#[cfg(test)]
impl KeywordProfile {
    /// What a family shares: its peak months, or the month its swing peaks in (tenths).
    pub fn season_months(&self) -> (u8, u8) {
        match self.season {
            Season::Peak { first, months, .. } => (first, months),
            Season::Swing { phase, .. } => (0, (phase * 10.0) as u8),
        }
    }
}

/// The profile of `keyword` (trimmed, case-insensitive), seeded from the keyword alone.
pub(super) fn keyword_profile(keyword: &str) -> KeywordProfile {
    profile_in(keyword, None)
}

/// [`keyword_profile`] of a keyword generated on `head`: the same profile, without reading
/// the family back from the words (queries' tests check that it comes back as the head).
pub(super) fn head_keyword_profile(keyword: &str, head: &Head) -> KeywordProfile {
    profile_in(keyword, Some(head))
}

fn profile_in(keyword: &str, head: Option<&Head>) -> KeywordProfile {
    let trimmed = keyword.trim();
    // Generated keywords are lower case already: no copy for them.
    let kw: std::borrow::Cow<str> = if trimmed
        .bytes()
        .any(|b| !b.is_ascii_lowercase() && !b.is_ascii_digit() && b != b' ')
    {
        trimmed.to_lowercase().into()
    } else {
        trimmed.into()
    };
    let mut rng = Rng::from_parts(&["kwp", &kw]);
    let words = kw.split_whitespace().count().max(1) as i32;
    if rng.chance(ZERO_CHANCE) && words >= 4 {
        return KeywordProfile {
            base: 0.0,
            season: Season::Swing {
                amplitude: 0.0,
                phase: 0.0,
            },
            trend: 0.0,
            cpc: 0.0,
            competition: 0.0,
            difficulty: 0,
        };
    }
    // Median 90,000 for one word, ÷3.5 per extra word; spread ÷60..×4, skewed low.
    let median = 90_000.0 / 3.5f64.powi(words - 1);
    let spread = rng.log_range(4, 1_000) as f64 / 250.0;
    let family = head.map_or_else(|| family_of(&kw), |h| h.term);
    let listed = head_named(family);
    let named = head.or_else(|| listed.map(|(_, h)| h));
    let mut base = anchored_volume(&kw, family, named)
        .unwrap_or(median * spread)
        .max(10.0);
    if CATEGORY_NOUNS.contains(&&*kw) {
        // Seeded apart, so every other keyword's figures stay as they were.
        base = base.max(Rng::from_parts(&["category", &kw]).log_range(300_000, 1_500_000) as f64);
    }
    let share = rng.float(0.6, 0.8);
    let swing = rng.unit();
    // The family decides whether and when: listed heads by their months, a holiday or
    // weather word by its months, others not.
    let mut family_rng = Rng::from_parts(&["season", family]);
    let kind = named.map(|h| h.kind);
    let theme = listed.map(|(t, _)| THEMES[t].0);
    let phase = family_rng.float(0.0, 12.0);
    let peak = named
        .and_then(|h| h.peak)
        .or_else(|| market::season_word(&kw));
    let season = match peak {
        // A dish's season is a swing around its months (vegan curry in January).
        Some((first, months)) if kind == Some(Kind::Recipe) => Season::Swing {
            amplitude: market::swing_amplitude(&kw, kind),
            phase: f64::from(first) + f64::from(months - 1) / 2.0,
        },
        Some((first, months)) => {
            // Enough volume that rounding the quiet months up cannot undo the peak.
            base = base.max(60.0);
            Season::Peak {
                first,
                months,
                share,
            }
        }
        None => Season::Swing {
            amplitude: swing * market::swing_amplitude(&kw, kind),
            phase,
        },
    };
    // Advertisers compete for what is sold (Keyword Planner's "high" for "running shoes"):
    // a product's or a service's keywords 0.55–1, a question's at most 0.3, others up to 0.7.
    let u = rng.unit();
    let competition = match kind {
        _ if market::is_question(&kw) => 0.3 * u,
        Some(Kind::Gear | Kind::Wearable | Kind::Consumable | Kind::Software | Kind::Service) => {
            0.55 + 0.45 * u
        }
        _ => 0.7 * u,
    };
    let spread = rng.float(0.6, 1.7);
    KeywordProfile {
        base,
        season,
        trend: rng.float(-0.03, 0.05),
        cpc: market::cpc(&kw, theme, kind, spread),
        competition,
        difficulty: ((competition * 70.0 + rng.float(0.0, 30.0)).round() as i64).clamp(0, 100),
    }
}

/// A listed head's own searches (US, a month): a category a product or a service names is
/// searched tens to hundreds of thousands of times ("running shoes", "vpn"), an activity, an
/// idea or a dish somewhat less.
fn head_volume(head: &Head) -> f64 {
    let mut rng = Rng::from_parts(&["head-volume", head.term]);
    match head.kind {
        Kind::Activity | Kind::Concept | Kind::Recipe => rng.log_range(9_900, 201_000) as f64,
        _ => rng.log_range(27_100, 450_000) as f64,
    }
}

/// What each word a searcher adds keeps of the searches: 6–50 % ("best running shoes" about a
/// fifth of "running shoes", a four-word long tail a thousandth), seeded from the keyword.
fn added_words(keyword: &str, extra: usize) -> f64 {
    let mut rng = Rng::from_parts(&["kw-volume", keyword]);
    (0..extra)
        .map(|_| rng.float(0.06f64.ln(), 0.5f64.ln()).exp())
        .product()
}

/// A brand a keyword searches for and the words around it: the bare brand (one word that no
/// list knows), the brand's domain, or a brand query of [`BRAND_QUERIES`].
fn brand_in(keyword: &str) -> Option<(String, usize)> {
    let words = |s: &str| s.split_whitespace().count();
    if !keyword.contains(' ') {
        return if keyword.contains('.') {
            Some((site_name(keyword), 1))
        } else {
            (keyword.len() >= 3 && !CATEGORY_NOUNS.contains(&keyword))
                .then(|| (keyword.to_owned(), 0))
        };
    }
    BRAND_QUERIES.iter().find_map(|(template, _)| {
        let (pre, post) = template.split_once("{b}")?;
        let middle = keyword.strip_prefix(pre)?.strip_suffix(post)?;
        // A spaced keyword never matches "{b}" alone: its middle has a space.
        (!middle.is_empty() && !middle.contains(' '))
            .then(|| (middle.to_owned(), words(pre) + words(post)))
    })
}

/// The volume of a keyword built on a head (the head's searches less its added words) or on
/// a brand (the brand's searches less its added words; "brand head" no more than either);
/// `None` for other keywords, which follow the word-count rule.
fn anchored_volume(kw: &str, family: &str, head: Option<&Head>) -> Option<f64> {
    let words = |s: &str| s.split_whitespace().count();
    if let Some(head) = head {
        let extra = words(kw).saturating_sub(words(head.term));
        return Some(head_volume(head) * added_words(kw, extra));
    }
    if let Some((brand, extra)) = brand_in(kw) {
        return Some(world::brand_searches(&brand) * added_words(kw, extra));
    }
    // "brand head …": the family is a word before a listed head.
    let (brand, rest) = family.split_once(' ')?;
    let (_, head) = head_named(rest)?;
    let anchor = world::brand_searches(brand).min(head_volume(head));
    Some(anchor * added_words(kw, words(kw).saturating_sub(words(head.term))))
}

/// The multiplier of a country's volumes: 1 for `us`, 0.03..0.5 seeded from the code.
pub(super) fn country_scale(ccode: &str) -> f64 {
    let cc = ccode.to_ascii_lowercase();
    if cc == "us" {
        1.0
    } else {
        Rng::from_parts(&["cc", &cc]).float(0.03, 0.5)
    }
}

/// The topic (index into the themes) of a domain: from the words of its site name
/// ([`world::topic_of_name`]), else one hashed from the site name, so `example.com` and
/// `blog.example.io` share a topic.
pub fn domain_topic(domain: &str) -> usize {
    world::domain_profile(domain).topic
}

/// A domain's brand as searchers type it: its site name with hyphens as spaces
/// (`running-hub.com` → "running hub"); `None` when shorter than 3 letters, which would be
/// a word rather than a brand.
pub(super) fn brand_name(domain: &str) -> Option<String> {
    let site = site_name(domain).replace('-', " ");
    let brand = site.trim();
    (brand.chars().filter(|c| c.is_alphanumeric()).count() >= 3).then(|| brand.to_owned())
}

/// The head terms a domain's keywords are built on, each with its theme (the siblings of
/// "x vs y"): `main` from its topic, `side` from other topics.
pub(super) struct DomainHeads {
    pub main: Vec<(&'static Head, &'static [Head])>,
    pub side: Vec<(&'static Head, &'static [Head])>,
}

/// Rows up to which a domain has 3 side heads; beyond, one more per [`ROWS_PER_SIDE_HEAD`].
pub(super) const FOCUSED_ROWS: usize = 20_000;

/// Rows beyond which a domain covers every head of its topic.
const BROAD_ROWS: usize = 5_000;

/// Rows of a large domain per extra side head.
const ROWS_PER_SIDE_HEAD: usize = 1_000;

/// The head terms of `domain` with `rows` ranked keywords: 8–13 of its topic's, 3 of a
/// second topic's; seeded from the domain (lower case), so sister sites cover different but
/// overlapping parts of a topic. A domain beyond [`FOCUSED_ROWS`] rows (a `size-<N>` one) is
/// a generalist: heads of every other topic join, so its keywords can stay distinct.
pub(super) fn domain_heads(domain: &str, rows: usize) -> DomainHeads {
    let host = domain.trim().to_ascii_lowercase();
    let mut rng = Rng::from_parts(&["heads", &host]);
    let topic = domain_topic(&host);
    let with_theme = |t: usize| THEMES[t].1.iter().map(move |h| (h, THEMES[t].1));
    let mut main: Vec<(&'static Head, &'static [Head])> = with_theme(topic).collect();
    rng.shuffle(&mut main);
    // A large site covers its whole topic.
    let covered = rng.range(8, 13) as usize;
    main.truncate(if rows > BROAD_ROWS {
        main.len()
    } else {
        covered
    });
    let other = world::neighbour_topic(topic);
    let mut side: Vec<(&'static Head, &'static [Head])> = with_theme(other).collect();
    rng.shuffle(&mut side);
    side.truncate(3);
    let extra = rows.saturating_sub(FOCUSED_ROWS) / ROWS_PER_SIDE_HEAD;
    if extra > 0 {
        let mut rest: Vec<(&'static Head, &'static [Head])> = (0..THEMES.len())
            .filter(|t| *t != topic)
            .flat_map(with_theme)
            .filter(|(h, _)| !side.iter().any(|(s, _)| s.term == h.term))
            .collect();
        rng.shuffle(&mut rest);
        side.extend(rest.into_iter().take(extra));
    }
    DomainHeads { main, side }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_names_and_topics() {
        assert_eq!(site_name("shop.example.org"), "example");
        assert_eq!(site_name("www.example.co.uk."), "example");
        assert_eq!(site_name("size-300.example.com"), "example");
        assert_eq!(site_name("localhost"), "localhost");
        assert_eq!(site_name(""), "");
        let t = domain_topic("example.com");
        for d in ["example.org", "news.example.net", "blog.example.io"] {
            assert_eq!(domain_topic(d), t, "{d}");
        }
        assert_eq!(THEMES[domain_topic("best-running-tips.com")].0, "running");
    }

    #[test]
    fn peak_weights_average_one() {
        let s = Season::Peak {
            first: 11,
            months: 3,
            share: 0.6,
        };
        let sum: f64 = (1..=12).map(|m| s.weight(m)).sum();
        assert!((sum - 12.0).abs() < 1e-9);
        // November, December, January hold the peak (wrapping).
        assert!(s.weight(1) > 2.0 && s.weight(12) > 2.0 && s.weight(2) < 1.0);
    }
}
