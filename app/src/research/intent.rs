//! Search intent of a keyword (Semrush's intent column, Ahrefs' intent filter) by stated word
//! rules, so a user can see why a keyword got its intent.
//!
//! Rules (our decisions; pages and reports show [`RULE`]):
//! - Words are compared lower-cased with accents and apostrophes folded (the brand terms' own
//!   words, `brand::words`), whole words only: "top" does not match "laptop".
//! - **Navigational**: the keyword names a brand term (the domain's name, as the gap's brand
//!   filter matches it), a site or domain ("example.com", "www"), or a site word (login,
//!   "sign in", "my account", website, official, homepage). "account" alone is no site word:
//!   "savings account" and "retirement account calculator" look for a product or a tool.
//! - **Transactional**: a buying word (buy, price, cheap, deal, coupon, discount, sale, order,
//!   shop, "near me", rent, download, …). "order of" is no buying ("order of operations").
//! - **Commercial**: a comparing word (best, top, review, vs, compare, alternative, …).
//! - **Informational**: a question word leading the keyword (how, what, why, … as the
//!   keyword groups read a question), or a learning word anywhere (guide, tutorial, ideas,
//!   tips, meaning, …).
//! - **Several intents** (as Semrush shows several): every rule that matches gives its intent,
//!   "best running shoes price" is commercial and transactional.
//! - **Head terms by bids** ([`classify_with`]): a keyword no word rule matches (a product or
//!   service named with no question, comparing, buying or site word: "running shoes") is
//!   commercial when advertisers compete for it: Ads competition 0.33 or more (Keyword
//!   Planner's "medium" and "high") and a CPC of $0.50 or more. Advertisers bid on what
//!   people buy, so a category term they pay for is researched before buying, which is the
//!   commercial intent Semrush gives such terms. Decided: both figures are needed, so the
//!   rule applies where the service gives both (the explorer and keyword lists), not to
//!   ranked keywords (no CPC).
//! - **No rule matches**: unclassified ([`UNCLASSIFIED`]), shown as such and counted apart.
//!   The anchors classify by the SERP's features (Semrush: ads, shopping results, featured
//!   snippets), which the service does not report; words alone cannot tell whether "running
//!   shoes" is a purchase or research, so without bids no intent is guessed.

use super::brand;

/// One intent (bit flags in [`Intents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Looking for an answer.
    Informational = 1,
    /// Looking for a site or brand.
    Navigational = 2,
    /// Comparing before buying.
    Commercial = 4,
    /// Ready to buy or act.
    Transactional = 8,
}

impl Intent {
    /// Every intent, in the order Semrush shows them (I, N, C, T).
    pub const ALL: [Intent; 4] = [
        Intent::Informational,
        Intent::Navigational,
        Intent::Commercial,
        Intent::Transactional,
    ];

    /// Its name.
    pub fn label(self) -> &'static str {
        match self {
            Intent::Informational => "Informational",
            Intent::Navigational => "Navigational",
            Intent::Commercial => "Commercial",
            Intent::Transactional => "Transactional",
        }
    }

    /// Its letter, as Semrush's intent column shows it (I, N, C, T).
    pub fn letter(self) -> &'static str {
        match self {
            Intent::Informational => "I",
            Intent::Navigational => "N",
            Intent::Commercial => "C",
            Intent::Transactional => "T",
        }
    }

    /// Its id in URLs and filters.
    pub fn id(self) -> &'static str {
        match self {
            Intent::Informational => "info",
            Intent::Navigational => "nav",
            Intent::Commercial => "comm",
            Intent::Transactional => "trans",
        }
    }

    /// The intent with this id.
    pub fn from_id(id: &str) -> Option<Intent> {
        Intent::ALL.into_iter().find(|i| i.id() == id)
    }
}

/// What a keyword no rule matches shows for its intent.
pub const UNCLASSIFIED: &str = "unclassified";

/// A keyword's intents: a set of [`Intent`] bits; empty when no rule matches (unclassified).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Intents(pub u8);

impl Intents {
    /// True when `intent` is one of them.
    pub fn has(self, intent: Intent) -> bool {
        self.0 & intent as u8 != 0
    }

    /// The intents in [`Intent::ALL`]'s order.
    pub fn list(self) -> impl Iterator<Item = Intent> {
        Intent::ALL.into_iter().filter(move |i| self.has(*i))
    }

    /// True when no rule matched.
    pub fn is_unclassified(self) -> bool {
        self.0 == 0
    }

    /// Their letters joined ("C T"), as a table cell shows them; "–" when unclassified.
    pub fn letters(self) -> String {
        if self.is_unclassified() {
            return "–".into();
        }
        self.list()
            .map(Intent::letter)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A sort key grouping the sets by their letters read in I, N, C, T order: every set
    /// with Informational sorts apart from every set without it, then Navigational, …
    pub fn sort_key(self) -> i64 {
        Intent::ALL
            .iter()
            .fold(0, |key, i| key * 2 + i64::from(self.has(*i)))
    }

    /// Their names joined ("Commercial, Transactional"), as in CSV and reports;
    /// [`UNCLASSIFIED`] when no rule matched.
    pub fn text(self) -> String {
        if self.is_unclassified() {
            return UNCLASSIFIED.into();
        }
        self.list()
            .map(Intent::label)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The rule as shown on pages and in reports.
pub const RULE: &str = "Intent by words (whole words, any case): navigational when the keyword \
names a brand term, a site (example.com, www) or login, sign in, my account, website, official, \
homepage; transactional with buy, purchase, order (not \"order of\"), price, pricing, cost, cheap, \
deal, coupon, discount, promo, sale, shop, near me, rent, hire, download, subscription; \
commercial with best, top, review, vs, versus, compare, comparison, alternative, rating, ranked; \
informational when a question word leads (how, what, why, when, where, who, which, can, does, \
is, should) or with guide, tutorial, ideas, tips, examples, meaning, definition, learn. A \
keyword gets every intent whose rule matches (as Semrush shows several). A keyword none of these \
words match is commercial when advertisers compete for it: Ads competition 0.33 or more and a CPC \
of 0.50 USD or more (a category people research before buying; where both figures are known). \
Otherwise it is unclassified (the anchors read the search results' features, which the service \
does not give, so no intent is guessed).";

/// Ads competition (0–1) from which advertisers compete for a keyword: Keyword Planner's
/// "medium" starts at 0.33.
pub const BID_COMPETITION: f64 = 0.33;

/// CPC (USD) from which a keyword is one advertisers pay for.
pub const BID_CPC: f64 = 0.50;

/// What the rule means where no domain is known (the keyword explorer, keyword lists): no
/// brand terms. Decided: we keep no list of brands (a hand-kept list is always out of date
/// and the anchors' own lists are not public), so a brand name alone is navigational only on
/// a domain's pages, where the domain gives the brand terms.
pub const NO_BRAND_NOTE: &str = "Here no domain is known, so there are no brand terms: a brand \
name alone (\"nike\") is navigational only on a domain's pages, where its name is the brand term.";

const NAVIGATIONAL: &[&str] = &[
    "login", "logon", "signin", "website", "site", "official", "homepage", "www",
];
const NAVIGATIONAL_PAIRS: &[(&str, &str)] = &[
    ("sign", "in"),
    ("log", "in"),
    ("home", "page"),
    ("my", "account"),
];
const TRANSACTIONAL: &[&str] = &[
    "buy",
    "purchase",
    "order",
    "price",
    "prices",
    "pricing",
    "cost",
    "costs",
    "cheap",
    "cheaper",
    "cheapest",
    "deal",
    "deals",
    "coupon",
    "coupons",
    "discount",
    "discounts",
    "promo",
    "sale",
    "shop",
    "rent",
    "rental",
    "hire",
    "download",
    "subscription",
];
const TRANSACTIONAL_PAIRS: &[(&str, &str)] = &[("near", "me"), ("for", "sale")];
const COMMERCIAL: &[&str] = &[
    "best",
    "top",
    "review",
    "reviews",
    "vs",
    "versus",
    "compare",
    "comparison",
    "alternative",
    "alternatives",
    "rating",
    "ratings",
    "ranked",
];
const QUESTION_LEADS: &[&str] = &[
    "how", "what", "why", "when", "where", "who", "which", "can", "does", "do", "is", "are",
    "should",
];
const INFORMATIONAL: &[&str] = &[
    "guide",
    "tutorial",
    "tutorials",
    "ideas",
    "tips",
    "examples",
    "meaning",
    "definition",
    "learn",
];

/// Top-level domain endings that make a word a site name ("example.com").
const SITE_ENDINGS: &[&str] = &[".com", ".org", ".net", ".io", ".co", ".uk", ".de", ".fr"];

/// The intents of `keyword`; `brand` are brand terms as [`brand::terms`] gives them.
pub fn classify(keyword: &str, brand: &[String]) -> Intents {
    let words = brand::words(keyword);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let pair = |pairs: &[(&str, &str)]| {
        words
            .windows(2)
            .any(|w| pairs.iter().any(|(a, b)| w[0] == *a && w[1] == *b))
    };
    let lower = keyword.to_lowercase();
    let site = lower.split_whitespace().any(|w| {
        SITE_ENDINGS
            .iter()
            .any(|e| w.len() > e.len() && w.ends_with(e))
    });
    let mut bits = 0u8;
    if has(NAVIGATIONAL) || pair(NAVIGATIONAL_PAIRS) || site || brand::is_branded(keyword, brand) {
        bits |= Intent::Navigational as u8;
    }
    // "order of operations", "order of the phoenix": an order of things, no purchase.
    let buying = words.iter().enumerate().any(|(i, w)| {
        TRANSACTIONAL.contains(&w.as_str())
            && !(w == "order" && words.get(i + 1).is_some_and(|n| n == "of"))
    });
    if buying || pair(TRANSACTIONAL_PAIRS) {
        bits |= Intent::Transactional as u8;
    }
    if has(COMMERCIAL) {
        bits |= Intent::Commercial as u8;
    }
    let leads = words
        .first()
        .is_some_and(|w| QUESTION_LEADS.contains(&w.as_str()));
    if leads || has(INFORMATIONAL) {
        bits |= Intent::Informational as u8;
    }
    Intents(bits)
}

/// The intents of `keyword` with its Ads figures: [`classify`], and commercial when no word
/// rule matches and advertisers compete for it (competition ≥ [`BID_COMPETITION`] and CPC ≥
/// [`BID_CPC`]; both needed).
pub fn classify_with(
    keyword: &str,
    brand: &[String],
    cpc: Option<f64>,
    competition: Option<f64>,
) -> Intents {
    let words = classify(keyword, brand);
    let bids =
        cpc.is_some_and(|c| c >= BID_CPC) && competition.is_some_and(|c| c >= BID_COMPETITION);
    if words.is_unclassified() && bids {
        Intents(Intent::Commercial as u8)
    } else {
        words
    }
}

/// Keywords per intent (a keyword with several intents counts in each) and their volume, in
/// [`Intent::ALL`]'s order, then the unclassified ones.
pub fn distribution(intents: &[Intents], volume: &[i64]) -> [(usize, i64); 5] {
    let mut out = [(0usize, 0i64); 5];
    for (i, set) in intents.iter().enumerate() {
        let v = volume.get(i).copied().unwrap_or(0).max(0);
        let mut add = |slot: usize| {
            out[slot].0 += 1;
            out[slot].1 = out[slot].1.saturating_add(v);
        };
        if set.is_unclassified() {
            add(4);
        }
        for (slot, intent) in Intent::ALL.iter().enumerate() {
            if set.has(*intent) {
                add(slot);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(k: &str) -> String {
        classify(k, &brand::terms("nike")).text()
    }

    #[test]
    fn each_rule_gives_its_intent() {
        assert_eq!(of("buy running shoes"), "Transactional");
        assert_eq!(of("running shoes near me"), "Transactional");
        assert_eq!(of("cheapest flights"), "Transactional");
        assert_eq!(of("best running shoes"), "Commercial");
        assert_eq!(of("garmin vs polar"), "Commercial");
        assert_eq!(of("how to tie shoes"), "Informational");
        assert_eq!(of("marathon training guide"), "Informational");
        assert_eq!(of("nike"), "Navigational");
        assert_eq!(of("Nike outlet store"), "Navigational");
        assert_eq!(of("strava login"), "Navigational");
        assert_eq!(of("sign in strava"), "Navigational");
        assert_eq!(of("amazon.com"), "Navigational");
    }

    #[test]
    fn head_terms_advertisers_bid_on_are_commercial() {
        let with = |k: &str, cpc, comp| classify_with(k, &[], cpc, comp).text();
        assert_eq!(with("running shoes", Some(0.9), Some(0.8)), "Commercial");
        assert_eq!(with("running shoes", Some(0.5), Some(0.33)), "Commercial");
        assert_eq!(with("running shoes", Some(0.49), Some(0.9)), "unclassified");
        assert_eq!(with("running shoes", Some(2.0), Some(0.32)), "unclassified");
        assert_eq!(with("running shoes", None, Some(0.9)), "unclassified");
        // A word rule decides first: bids add nothing to a question or a purchase.
        assert_eq!(
            with("how to lace running shoes", Some(3.0), Some(1.0)),
            "Informational"
        );
        assert_eq!(
            with("buy running shoes", Some(3.0), Some(1.0)),
            "Transactional"
        );
    }

    #[test]
    fn several_rules_give_several_intents_in_semrush_order() {
        assert_eq!(of("best running shoes price"), "Commercial, Transactional");
        assert_eq!(of("how to buy bitcoin"), "Informational, Transactional");
        assert_eq!(
            of("nike air max review"),
            "Navigational, Commercial",
            "brand and comparing word"
        );
        let i = classify("top deals", &[]);
        assert!(i.has(Intent::Commercial) && i.has(Intent::Transactional));
        assert!(!i.has(Intent::Informational));
    }

    #[test]
    fn the_phrases_the_word_lists_misread_are_not_misread() {
        // The cases, tried in the explorer's CSV.
        assert_eq!(of("order of operations"), "unclassified", "no purchase");
        assert_eq!(of("savings account"), "unclassified", "a product, no site");
        assert_eq!(of("retirement account calculator"), "unclassified");
        assert_eq!(of("running shoes"), "unclassified", "no default intent");
        // What the rules still read.
        assert_eq!(of("order pizza online"), "Transactional");
        assert_eq!(of("my account strava"), "Navigational");
        assert_eq!(of("what is a savings account"), "Informational");
        assert!(RULE.contains("unclassified"));
        assert!(RULE.contains("order (not \"order of\")"));
    }

    #[test]
    fn whole_words_only_and_no_rule_is_unclassified() {
        assert_eq!(of("laptop stand"), "unclassified", "top inside laptop");
        assert_eq!(
            of("shopping bags order"),
            "Transactional",
            "order, not shop"
        );
        assert_eq!(of("bestival tickets"), "unclassified");
        assert_eq!(
            of("this is fine"),
            "unclassified",
            "is leads no question here"
        );
        assert_eq!(of(""), "unclassified");
        assert_eq!(of("ok.com"), "Navigational");
        assert_eq!(of(".com"), "unclassified", "an ending alone is no site");
        assert_eq!(of("snike"), "unclassified", "a brand term is a whole word");
    }

    #[test]
    fn letters_and_sort_key_follow_semrush_order() {
        let set = classify("best running shoes price", &[]);
        assert_eq!(set.letters(), "C T");
        assert_eq!(classify("how to buy bitcoin", &[]).letters(), "I T");
        assert_eq!(Intents(0).letters(), "–");
        assert_eq!(Intents(0).text(), UNCLASSIFIED);
        let key = |k: &str| classify(k, &[]).sort_key();
        // Informational first (when descending), then navigational, commercial, transactional.
        assert!(key("how to tie shoes") > key("strava login"));
        assert!(key("strava login") > key("best shoes"));
        assert!(key("best shoes") > key("buy shoes"));
        assert!(key("how to buy shoes") > key("how to tie shoes"));
        assert_eq!(Intents(15).sort_key(), 15);
    }

    #[test]
    fn ids_round_trip_and_the_distribution_counts_each_intent() {
        for i in Intent::ALL {
            assert_eq!(Intent::from_id(i.id()), Some(i));
        }
        assert_eq!(Intent::from_id("x"), None);
        let sets = [
            classify("best price", &[]),
            classify("how to", &[]),
            classify("price", &[]),
            classify("running shoes", &[]),
        ];
        let d = distribution(&sets, &[10, 5, -3, 7]);
        assert_eq!(d[0], (1, 5), "informational");
        assert_eq!(d[1], (0, 0), "navigational");
        assert_eq!(d[2], (1, 10), "commercial");
        assert_eq!(d[3], (2, 10), "transactional: a negative volume counts 0");
        assert_eq!(d[4], (1, 7), "unclassified");
        assert_eq!(
            distribution(&sets, &[]),
            [(1, 0), (0, 0), (1, 0), (2, 0), (1, 0)]
        );
    }
}
