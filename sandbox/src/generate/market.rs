//! What makes the demo's money and calendar figures believable to an SEO person: CPC by niche
//! and intent, how seasonal a keyword is by what it names, and volumes in Keyword Planner's
//! rounded tiers.
//!
//! - **CPC** is a niche's median (finance and software bid high, recipes low, as advertisers
//!   bid) × the head's kind (a service or an app is sold, a concept or a dish is read about) ×
//!   the keyword's intent (a buying word raises it, a question lowers it), spread ×0.6–1.7.
//! - **Seasonality** by what the keyword names: the listed heads that peak (coats in winter,
//!   lawn mowers in spring) and keywords naming a holiday or a weather good ("christmas tree",
//!   "snow boots", "sunscreen") hold most of their year in their months; a dish's season is a
//!   swing; everything else (everyday goods, software, questions) swings gently.
//! - **Volumes** are snapped to the tiers Google Ads' Keyword Planner reports (10, 20, 30, 40,
//!   50, 70, 90, 110, 140, 170, 210, 260, …, 1,000, 1,300, 1,600, 1,900, 2,400, …, 12,100,
//!   14,800, …): the
//!   figures every SEO tool shows for search volume.

use crate::words::Kind;

/// Keyword Planner's average-monthly-search tiers, as it reports them (steps of about a
/// fifth on a log scale; the larger ones with three significant figures).
const TIERS: [i64; 66] = [
    10, 20, 30, 40, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1_000,
    1_300, 1_600, 1_900, 2_400, 2_900, 3_600, 4_400, 5_400, 6_600, 8_100, 9_900, 12_100, 14_800,
    18_100, 22_200, 27_100, 33_100, 40_500, 49_500, 60_500, 74_000, 90_500, 110_000, 135_000,
    165_000, 201_000, 246_000, 301_000, 368_000, 450_000, 550_000, 673_000, 823_000, 1_000_000,
    1_220_000, 1_500_000, 1_830_000, 2_240_000, 2_740_000, 3_350_000, 4_090_000, 5_000_000,
    6_120_000, 7_480_000, 9_140_000, 11_100_000, 13_600_000,
];

/// The tier nearest `v` (on a log scale); 0 under 5 searches (Keyword Planner's "0").
pub(super) fn planner_tier(v: f64) -> i64 {
    if !v.is_finite() || v < 5.0 {
        return 0;
    }
    let distance = |t: i64| (v.ln() - (t as f64).ln()).abs();
    TIERS
        .into_iter()
        .min_by(|a, b| distance(*a).total_cmp(&distance(*b)))
        .unwrap_or(0)
}

/// The median CPC (USD) of a topic's ads: what advertisers of that niche bid.
fn niche_cpc(theme: &str) -> f64 {
    match theme {
        "finance" => 6.5,
        "software" => 5.0,
        "travel" => 1.6,
        "home" => 1.4,
        "photo" => 1.1,
        "pets" => 1.0,
        "running" | "fashion" => 0.9,
        "garden" => 0.8,
        "cooking" => 0.45,
        _ => 1.0,
    }
}

/// How much a head's kind is sold rather than read about.
fn kind_factor(kind: Option<Kind>) -> f64 {
    match kind {
        Some(Kind::Service | Kind::Software) => 1.5,
        Some(Kind::Gear | Kind::Wearable) => 1.0,
        Some(Kind::Consumable) => 0.8,
        Some(Kind::Activity) => 0.5,
        Some(Kind::Concept | Kind::Recipe) => 0.35,
        None => 0.8,
    }
}

/// Words that ask a question when they lead a keyword.
const QUESTION_LEADS: &[&str] = &[
    "how", "what", "why", "when", "where", "who", "which", "can", "does", "is", "are", "should",
];

/// Words of buying intent.
const BUYING: &[&str] = &[
    "buy", "price", "prices", "cheap", "deal", "deals", "coupon", "discount", "sale", "best",
    "review", "reviews", "vs", "near", "hire", "rent", "quote", "quotes", "cost",
];

/// True when a question word leads `keyword` (lower case).
pub(super) fn is_question(keyword: &str) -> bool {
    keyword
        .split_whitespace()
        .next()
        .is_some_and(|w| QUESTION_LEADS.contains(&w))
}

/// The keyword's intent factor on its CPC: questions ×0.3, buying words ×1.6.
fn intent_factor(keyword: &str) -> f64 {
    if is_question(keyword) {
        0.3
    } else if keyword.split_whitespace().any(|w| BUYING.contains(&w)) {
        1.6
    } else {
        1.0
    }
}

/// Words of the niches advertisers pay most for (law, insurance, lending), wherever the
/// keyword's topic is not one of the lists'.
const HIGH_VALUE: &[&str] = &[
    "lawyer",
    "attorney",
    "insurance",
    "loan",
    "loans",
    "mortgage",
    "credit",
    "crm",
    "hosting",
    "software",
    "vpn",
];

/// A keyword's CPC (USD) from its topic, head kind, words and `spread` (0.6–1.7).
pub(super) fn cpc(keyword: &str, theme: Option<&str>, kind: Option<Kind>, spread: f64) -> f64 {
    let mut niche = niche_cpc(theme.unwrap_or_default());
    if keyword.split_whitespace().any(|w| HIGH_VALUE.contains(&w)) {
        niche = niche.max(niche_cpc("finance"));
    }
    (niche * kind_factor(kind) * intent_factor(keyword) * spread).clamp(0.05, 80.0)
}

/// Holiday and weather words and the months they peak in: (word, first month, months).
const SEASON_WORDS: &[(&str, u8, u8)] = &[
    ("christmas", 11, 2),
    ("halloween", 10, 1),
    ("valentine", 2, 1),
    ("valentines", 2, 1),
    ("thanksgiving", 11, 1),
    ("easter", 3, 2),
    ("snow", 12, 3),
    ("ski", 12, 3),
    ("sled", 12, 2),
    ("winter", 11, 3),
    ("sunscreen", 5, 3),
    ("summer", 5, 3),
    ("pool", 5, 3),
    ("swimsuit", 5, 3),
    ("bbq", 5, 3),
];

/// The peak months a holiday or weather word in `keyword` gives, if any.
pub(super) fn season_word(keyword: &str) -> Option<(u8, u8)> {
    keyword.split_whitespace().find_map(|w| {
        SEASON_WORDS
            .iter()
            .find(|(s, _, _)| *s == w)
            .map(|(_, first, months)| (*first, *months))
    })
}

/// The largest gentle swing of a keyword that is not seasonal: questions and everyday things
/// (consumables, software, concepts) barely move, other goods a little more.
pub(super) fn swing_amplitude(keyword: &str, kind: Option<Kind>) -> f64 {
    match kind {
        _ if is_question(keyword) => 0.08,
        Some(Kind::Consumable | Kind::Software | Kind::Concept) => 0.08,
        Some(Kind::Recipe) => 0.3,
        _ => 0.15,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volumes_snap_to_the_planners_tiers() {
        let cases = [
            (3.0, 0),
            (12.0, 10),
            (64.0, 70),
            (1_234.0, 1_300),
            (2_000.0, 1_900),
            (12_000.0, 12_100),
            (15_000.0, 14_800),
            (88_000.0, 90_500),
            (1_000_000.0, 1_000_000),
            (1_500_000.0, 1_500_000),
            (1e9, 13_600_000),
        ];
        for (v, want) in cases {
            assert_eq!(planner_tier(v), want, "{v}");
        }
    }

    #[test]
    fn cpc_follows_niche_and_intent() {
        let crm = cpc("crm software", Some("software"), Some(Kind::Software), 1.0);
        let recipe = cpc("vegan curry", Some("cooking"), Some(Kind::Recipe), 1.0);
        let question = cpc(
            "what is crm software",
            Some("software"),
            Some(Kind::Software),
            1.0,
        );
        let buying = cpc(
            "best crm software",
            Some("software"),
            Some(Kind::Software),
            1.0,
        );
        assert!(crm > 5.0 && recipe < 0.3, "{crm} {recipe}");
        assert!(question < crm && crm < buying);
        assert_eq!(season_word("christmas tree stand"), Some((11, 2)));
        assert_eq!(season_word("coffee grinder"), None);
    }
}
