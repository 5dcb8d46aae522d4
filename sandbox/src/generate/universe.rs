//! What makes the synthetic data plausible across operations: a keyword's stable profile
//! (volume, CPC, competition, difficulty, season), the same in search volume, related and
//! ranked keywords; and a domain's keyword universe, shared in part by the domains of its
//! topic.
//!
//! - **Long tail**: a keyword's volume falls with its word count (each extra word divides the
//!   median by 3.5) around a log-uniform spread, so long keywords are usually small.
//! - **Seasonality**: about a quarter of the keywords with volume are seasonal by the rule the
//!   app states (at least half of the 12-month volume in at most 3 consecutive months,
//!   wrapping): their peak months hold 60–85 % of the year. The others swing by at most 35 %.
//! - **Topics**: a domain's topic comes from its site name (`shop.example.org` → `example`),
//!   or a theme named in it (`running-hub.com` → running), so sister sites and size-labelled
//!   domains share a topic. Each domain covers 8–13 of its topic's 15 head terms and 3 of a
//!   second topic's, so two domains of one topic share part of their keywords, not all.

use crate::rng::{fnv1a, Rng};
use crate::words::*;

/// Chance that a keyword with volume is seasonal (about a quarter of all keywords are).
const SEASONAL_CHANCE: f64 = 0.27;

/// Chance that a keyword has no volume at all (zero months, CPC and competition).
const ZERO_CHANCE: f64 = 0.05;

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

/// The profile of `keyword` (trimmed, case-insensitive), seeded from the keyword alone.
pub(super) fn keyword_profile(keyword: &str) -> KeywordProfile {
    let kw = keyword.trim().to_lowercase();
    let mut rng = Rng::from_parts(&["kwp", &kw]);
    let words = kw.split_whitespace().count().max(1) as i32;
    if rng.chance(ZERO_CHANCE) {
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
    let mut base = (median * rng.log_range(4, 1_000) as f64 / 250.0).max(10.0);
    let season = if rng.chance(SEASONAL_CHANCE) {
        // Enough volume that rounding the quiet months up cannot undo the peak.
        base = base.max(60.0);
        Season::Peak {
            first: rng.range(1, 12) as u8,
            months: rng.range(1, 3) as u8,
            share: rng.float(0.6, 0.85),
        }
    } else {
        Season::Swing {
            amplitude: rng.float(0.0, 0.35),
            phase: rng.float(0.0, 12.0),
        }
    };
    let competition = rng.unit();
    KeywordProfile {
        base,
        season,
        trend: rng.float(-0.03, 0.05),
        cpc: rng.log_range(5, 2_500) as f64 / 100.0,
        competition,
        difficulty: ((competition * 70.0 + rng.float(0.0, 30.0)).round() as i64).clamp(0, 100),
    }
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

/// The topic (index into the themes) of a domain: a theme named in its site name, else one
/// hashed from the site name, so `example.com` and `blog.example.io` share a topic.
pub fn domain_topic(domain: &str) -> usize {
    let site = site_name(domain);
    THEMES
        .iter()
        .position(|(name, _)| site.contains(name))
        .unwrap_or_else(|| (fnv1a(site.as_bytes()) % THEMES.len() as u64) as usize)
}

/// The head terms a domain's keywords are built on: `main` from its topic, `side` from one
/// other topic.
pub(super) struct DomainHeads {
    pub main: Vec<&'static str>,
    pub side: Vec<&'static str>,
}

/// The head terms of `domain`: 8–13 of its topic's, 3 of a second topic's; seeded from the
/// domain (lower case), so sister sites cover different but overlapping parts of a topic.
pub(super) fn domain_heads(domain: &str) -> DomainHeads {
    let host = domain.trim().to_ascii_lowercase();
    let mut rng = Rng::from_parts(&["heads", &host]);
    let topic = domain_topic(&host);
    let mut main: Vec<&'static str> = THEMES[topic].1.to_vec();
    rng.shuffle(&mut main);
    main.truncate(rng.range(8, 13) as usize);
    let other = (topic + 1 + rng.below(THEMES.len() as u64 - 1) as usize) % THEMES.len();
    let mut side: Vec<&'static str> = THEMES[other].1.to_vec();
    rng.shuffle(&mut side);
    side.truncate(3);
    DomainHeads { main, side }
}

/// A keyword on `head`: bare (3 %), with a prefix (15 %), a suffix (20 %), both (40 %), or a
/// prefix and two suffixes (22 %); short forms are few, so domains meet on them often.
pub(super) fn head_keyword(rng: &mut Rng, head: &str) -> String {
    let roll = rng.below(100);
    let prefix = rng.pick(PREFIXES);
    let suffix = rng.pick(SUFFIXES);
    match roll {
        0..=2 => head.to_owned(),
        3..=17 => format!("{prefix} {head}"),
        18..=37 => format!("{head} {suffix}"),
        38..=77 => format!("{prefix} {head} {suffix}"),
        _ => {
            let mut second = rng.pick(SUFFIXES);
            while second == suffix {
                second = rng.pick(SUFFIXES);
            }
            format!("{prefix} {head} {suffix} {second}")
        }
    }
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
