//! Word lists for plausible synthetic text. All neutral and made up; no real brands.

/// What a head term names, which decides the modifiers a searcher puts around it: "used
/// treadmill" and "free vpn" are typed, "used vpn" and "free treadmill" are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A durable thing one buys (treadmill, tripod).
    Gear,
    /// Clothes and shoes: bought for women, men or kids.
    Wearable,
    /// Used up and bought again (dog food, potting soil).
    Consumable,
    /// An app or tool (vpn, crm software).
    Software,
    /// A service one books or signs up for (travel insurance, hostel).
    Service,
    /// Something one does (meal prep, road trip).
    Activity,
    /// Something one looks up (credit score, shin splints).
    Concept,
    /// A dish.
    Recipe,
}

use Kind::*;

/// A head term: the family a keyword belongs to, with its kind and, for the seasonal ones,
/// the calendar months its searches peak in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    /// The words, lower case.
    pub term: &'static str,
    pub kind: Kind,
    /// (first month 1..=12, number of months 1..=3): every keyword of the family peaks then.
    pub peak: Option<(u8, u8)>,
}

const fn h(term: &'static str, kind: Kind) -> Head {
    Head {
        term,
        kind,
        peak: None,
    }
}

const fn p(term: &'static str, kind: Kind, first: u8, months: u8) -> Head {
    Head {
        term,
        kind,
        peak: Some((first, months)),
    }
}

/// Topic themes: a name and its head terms. About a fifth of the heads are seasonal, with the
/// months their searches really peak in (coats in winter, lawn mowers in spring).
pub(crate) const THEMES: &[(&str, &[Head])] = &[
    (
        "running",
        &[
            h("running shoes", Wearable),
            h("trail running", Activity),
            h("marathon training", Activity),
            h("running watch", Gear),
            h("5k plan", Activity),
            h("running socks", Wearable),
            p("treadmill", Gear, 1, 2),
            h("interval training", Activity),
            p("running shorts", Wearable, 5, 3),
            h("hydration vest", Wearable),
            p("couch to 5k", Activity, 1, 2),
            h("running form", Activity),
            h("shin splints", Concept),
            h("race pace", Concept),
            h("carbon plate shoes", Wearable),
        ],
    ),
    (
        "cooking",
        &[
            h("sourdough bread", Recipe),
            h("cast iron skillet", Gear),
            h("meal prep", Activity),
            h("air fryer recipes", Activity),
            h("chef knife", Gear),
            p("slow cooker", Gear, 10, 3),
            h("pasta sauce", Recipe),
            h("chicken thighs", Recipe),
            p("vegan curry", Recipe, 1, 1),
            h("baking soda", Consumable),
            p("stand mixer", Gear, 11, 2),
            h("pizza dough", Recipe),
            h("rice cooker", Gear),
            h("spice rack", Gear),
            h("banana bread", Recipe),
        ],
    ),
    (
        "travel",
        &[
            h("cheap flights", Service),
            h("travel insurance", Service),
            h("carry on luggage", Gear),
            h("hostel", Service),
            p("road trip", Activity, 6, 3),
            p("passport renewal", Concept, 2, 3),
            h("travel backpack", Gear),
            h("packing list", Activity),
            h("city break", Service),
            h("train pass", Service),
            p("beach resort", Service, 6, 2),
            h("visa requirements", Concept),
            h("airport lounge", Service),
            h("travel adapter", Gear),
            p("camping gear", Gear, 5, 3),
        ],
    ),
    (
        "software",
        &[
            h("project management tool", Software),
            h("password manager", Software),
            h("code editor", Software),
            h("cloud storage", Software),
            h("vpn", Software),
            h("note taking app", Software),
            h("crm software", Software),
            h("invoice template", Software),
            h("api testing", Activity),
            h("static site generator", Software),
            h("time tracking", Software),
            h("database backup", Activity),
            h("email marketing", Software),
            h("screen recorder", Software),
            h("kanban board", Software),
        ],
    ),
    (
        "garden",
        &[
            p("raised garden bed", Gear, 3, 3),
            p("tomato plants", Consumable, 4, 2),
            h("compost bin", Gear),
            p("lawn mower", Gear, 4, 3),
            h("garden hose", Gear),
            h("succulents", Consumable),
            h("fruit trees", Consumable),
            p("seed starting", Activity, 2, 2),
            h("potting soil", Consumable),
            h("greenhouse", Gear),
            h("drip irrigation", Gear),
            p("hedge trimmer", Gear, 5, 2),
            h("companion planting", Activity),
            h("pruning shears", Gear),
            p("bird feeder", Gear, 11, 3),
        ],
    ),
    (
        "finance",
        &[
            h("index funds", Concept),
            h("credit score", Concept),
            p("budget spreadsheet", Software, 1, 1),
            h("high yield savings", Service),
            h("mortgage calculator", Software),
            h("retirement account", Service),
            p("tax deductions", Concept, 2, 3),
            h("personal loan", Service),
            h("emergency fund", Concept),
            h("credit card rewards", Service),
            h("stock market", Concept),
            h("dividend stocks", Concept),
            h("debt payoff", Activity),
            h("side hustle", Activity),
            h("financial planner", Service),
        ],
    ),
    (
        "pets",
        &[
            h("dog food", Consumable),
            h("cat litter", Consumable),
            h("puppy training", Activity),
            h("dog harness", Gear),
            h("aquarium filter", Gear),
            h("cat tree", Gear),
            h("pet insurance", Service),
            h("dog bed", Gear),
            h("chew toys", Gear),
            h("bird cage", Gear),
            p("flea treatment", Consumable, 6, 3),
            h("hamster cage", Gear),
            h("dog grooming", Service),
            h("kitten food", Consumable),
            h("leash training", Activity),
        ],
    ),
    (
        "photo",
        &[
            h("mirrorless camera", Gear),
            h("prime lens", Gear),
            h("tripod", Gear),
            h("photo editing", Software),
            h("street photography", Activity),
            h("camera bag", Gear),
            h("lightroom presets", Software),
            h("portrait lighting", Activity),
            p("drone camera", Gear, 11, 2),
            h("film camera", Gear),
            h("sd card", Gear),
            h("macro lens", Gear),
            h("night photography", Activity),
            h("ring light", Gear),
            h("photo backdrop", Gear),
        ],
    ),
    (
        "home",
        &[
            h("standing desk", Gear),
            h("paint colors", Concept),
            p("robot vacuum", Gear, 11, 2),
            h("smart thermostat", Gear),
            h("kitchen remodel", Activity),
            h("led bulbs", Gear),
            h("bathroom tiles", Gear),
            h("air purifier", Gear),
            h("office chair", Gear),
            h("wall shelves", Gear),
            h("power drill", Gear),
            h("area rug", Gear),
            h("blackout curtains", Gear),
            h("mattress topper", Gear),
            p("space heater", Gear, 11, 3),
        ],
    ),
    (
        "fashion",
        &[
            h("white sneakers", Wearable),
            h("rain jacket", Wearable),
            p("wool socks", Wearable, 11, 3),
            h("denim jacket", Wearable),
            p("summer dress", Wearable, 5, 3),
            p("leather boots", Wearable, 10, 3),
            h("capsule wardrobe", Activity),
            p("linen shirt", Wearable, 6, 2),
            p("winter coat", Wearable, 11, 3),
            p("sunglasses", Wearable, 5, 3),
            h("backpack", Gear),
            h("yoga pants", Wearable),
            h("watch strap", Gear),
            h("chino pants", Wearable),
            h("hiking boots", Wearable),
        ],
    ),
];

/// The modifiers searchers put around a head of one kind. Queries are built from them by a
/// few forms (`queries.rs`): an adjective or a question before, an attribute just before the
/// head, an audience or a commercial word after, and never a question with a commercial word
/// ("what is vpn price").
pub(crate) struct Modifiers {
    /// Before the head: "best", "cheap".
    pub adjectives: &'static [&'static str],
    /// Just before the head: "black", "open source".
    pub attributes: &'static [&'static str],
    /// Before the head, a question: "how to choose".
    pub questions: &'static [&'static str],
    /// After the head, who or where it is for: "for women", "in paris".
    pub audiences: &'static [&'static str],
    /// Last: "review", "under 100".
    pub tails: &'static [&'static str],
}

/// What a shopper adds after a thing to buy, gear and clothes alike: the price words, then
/// where to look ([`SHOP_WHERE`]). One list, so both kinds keep the same words in the same
/// order (the generator picks by index: a change reorders every query).
const SHOP_PRICE: [&str; 7] = [
    "review",
    "reviews",
    "sale",
    "deals",
    "price",
    "under 50",
    "under 100",
];
/// Where a shopper looks, after [`SHOP_PRICE`].
const SHOP_WHERE: [&str; 3] = ["near me", "online", "brands"];

/// The tails of [`Gear`]: the shopping words with higher price caps and comparisons.
const GEAR_TAILS: [&str; 15] = join(&[
    &SHOP_PRICE,
    &["under 200", "under 500"],
    &SHOP_WHERE,
    &["comparison", "alternatives", "accessories"],
]);
/// The tails of [`Wearable`]: the shopping words with sizes and outfits.
const WEARABLE_TAILS: [&str; 12] =
    join(&[&SHOP_PRICE, &SHOP_WHERE, &["size guide", "outfit ideas"]]);

/// `parts` one after another (`N`, their total length, is checked when compiled).
const fn join<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut at, mut part) = (0, 0);
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            out[at] = parts[part][i];
            at += 1;
            i += 1;
        }
        part += 1;
    }
    assert!(at == N, "N is the parts' total length");
    out
}

/// The modifiers of a kind.
pub(crate) const fn modifiers(kind: Kind) -> &'static Modifiers {
    match kind {
        Gear => &Modifiers {
            adjectives: &[
                "best",
                "cheap",
                "top",
                "affordable",
                "buy",
                "used",
                "premium",
            ],
            attributes: &[
                "small",
                "large",
                "black",
                "white",
                "grey",
                "mini",
                "heavy duty",
            ],
            questions: &[
                "how to choose",
                "how to clean",
                "how to use",
                "how to fix",
                "where to buy",
            ],
            audiences: &[
                "for beginners",
                "for home",
                "for small spaces",
                "for travel",
            ],
            tails: &GEAR_TAILS,
        },
        Wearable => &Modifiers {
            adjectives: &[
                "best",
                "cheap",
                "affordable",
                "buy",
                "lightweight",
                "comfortable",
            ],
            attributes: &[
                "black",
                "white",
                "navy",
                "grey",
                "green",
                "brown",
                "red",
                "waterproof",
                "vintage",
                "oversized",
            ],
            questions: &[
                "how to choose",
                "how to clean",
                "how to wash",
                "how to style",
                "where to buy",
            ],
            audiences: &[
                "for women",
                "for men",
                "for kids",
                "for teens",
                "for work",
                "for travel",
            ],
            tails: &WEARABLE_TAILS,
        },
        Consumable => &Modifiers {
            adjectives: &["best", "cheap", "organic", "buy", "affordable"],
            attributes: &["natural", "premium", "eco friendly", "budget"],
            questions: &["where to buy", "how to store"],
            audiences: &[],
            tails: &[
                "reviews",
                "sale",
                "deals",
                "price",
                "online",
                "brands",
                "near me",
                "bulk",
                "coupon",
                "subscription",
                "ingredients",
            ],
        },
        Software => &Modifiers {
            adjectives: &["best", "free", "cheap", "top", "simple"],
            attributes: &["open source", "online", "cloud", "self hosted", "ai"],
            questions: &["how to choose", "how to use", "how to set up", "what is"],
            audiences: &[
                "for small business",
                "for teams",
                "for students",
                "for beginners",
                "for mac",
                "for windows",
                "for linux",
                "for android",
                "for iphone",
            ],
            tails: &[
                "review",
                "pricing",
                "alternatives",
                "comparison",
                "download",
                "free trial",
                "tutorial",
                "features",
            ],
        },
        Service => &Modifiers {
            adjectives: &["best", "cheap", "top", "affordable"],
            attributes: &["last minute", "luxury", "budget", "24 hour", "local"],
            questions: &["how to choose", "how to find", "how to cancel"],
            audiences: &[
                "for students",
                "for families",
                "for seniors",
                "for couples",
                "in london",
                "in paris",
                "in new york",
                "in tokyo",
                "in berlin",
                "in rome",
            ],
            tails: &[
                "reviews",
                "price",
                "deals",
                "comparison",
                "near me",
                "online",
                "cost",
            ],
        },
        Activity => &Modifiers {
            adjectives: &["easy", "beginner"],
            attributes: &[],
            questions: &["how to start", "how to plan"],
            audiences: &[
                "for beginners",
                "for kids",
                "for seniors",
                "at home",
                "on a budget",
            ],
            tails: &[
                "tips",
                "guide",
                "ideas",
                "mistakes",
                "checklist",
                "app",
                "schedule",
                "plan",
                "books",
                "course",
                "videos",
                "tools",
            ],
        },
        Concept => &Modifiers {
            adjectives: &[],
            attributes: &[],
            questions: &["what is", "how to check"],
            audiences: &["for beginners", "for students"],
            tails: &[
                "explained",
                "meaning",
                "examples",
                "definition",
                "chart",
                "rules",
                "tips",
                "guide",
                "pros and cons",
            ],
        },
        Recipe => &Modifiers {
            adjectives: &["easy", "best", "healthy", "homemade", "quick", "simple"],
            attributes: &["gluten free", "keto", "low sodium", "3 ingredient"],
            questions: &["how to make", "how to store", "how long to bake"],
            audiences: &["for beginners", "for kids", "for two", "for a crowd"],
            tails: &["recipe", "tips", "ingredients", "calories", "nutrition"],
        },
    }
}

/// Every kind (for the word lists a keyword's family is read back from).
pub(crate) const KINDS: [Kind; 8] = [
    Gear, Wearable, Consumable, Software, Service, Activity, Concept, Recipe,
];

/// Navigational and brand queries and the path of the page that ranks for each; `{b}` is
/// the brand (the site name), `{d}` the domain.
pub(crate) const BRAND_QUERIES: &[(&str, &str)] = &[
    ("{b}", "/"),
    ("{d}", "/"),
    ("{b} login", "/login"),
    ("{b} reviews", "/reviews"),
    ("{b} coupon code", "/deals"),
    ("{b} discount code", "/deals"),
    ("{b} customer service", "/contact"),
    ("{b} return policy", "/help/returns"),
    ("{b} shipping", "/help/shipping"),
    ("is {b} legit", "/reviews"),
    ("{b} app", "/app"),
    ("{b} contact", "/contact"),
];

/// Category nouns that are also sites' names (hotels.com, flights.com): searched alone
/// hundreds of thousands of times a month, as the category, not the brand.
pub(crate) const CATEGORY_NOUNS: &[&str] = &[
    "hotels",
    "flights",
    "cars",
    "jobs",
    "shoes",
    "insurance",
    "loans",
    "apartments",
    "recipes",
    "games",
    "weather",
    "news",
];

/// Words of an article's URL (outline pages).
pub(crate) const ARTICLE_WORDS: &[&str] = &[
    "best",
    "guide to",
    "how to choose",
    "top",
    "review of",
    "what is",
    "tips for",
    "ultimate guide to",
];

/// Words for made-up domains and handles.
pub(crate) const SYLLABLES: &[&str] = &[
    "nova", "peak", "blue", "stack", "leaf", "urban", "true", "bright", "north", "pixel", "daily",
    "simple", "green", "iron", "swift", "cedar", "coast", "maple", "silver", "spark", "hub", "lab",
    "works", "zone", "base", "point", "nest", "path", "wise", "craft",
];

/// Top-level domains for made-up domains.
pub(crate) const TLDS: &[&str] = &[
    "com", "com", "com", "net", "org", "io", "co.uk", "de", "blog", "info",
];

/// Given names for profiles and channels.
pub(crate) const FIRST_NAMES: &[&str] = &[
    "Alex", "Sam", "Jordan", "Taylor", "Maria", "Chen", "Priya", "Lukas", "Amara", "Diego", "Yuki",
    "Fatima", "Noah", "Elena", "Kwame", "Sofia", "Omar", "Ingrid", "Mateo", "Aisha",
];

/// Family names for profiles and channels.
pub(crate) const LAST_NAMES: &[&str] = &[
    "Smith", "Garcia", "Kim", "Novak", "Okafor", "Rossi", "Silva", "Dubois", "Tanaka", "Patel",
    "Jensen", "Moreau", "Kowalski", "Haddad", "Nguyen", "Berg", "Costa", "Ibrahim", "Walsh",
    "Lopez",
];

/// Topical trust flow category paths.
pub(crate) const CATEGORIES: &[&str] = &[
    "Recreation/Outdoors",
    "Sports/Running",
    "Home/Cooking",
    "Recreation/Travel",
    "Computers/Internet/Web Design and Development",
    "Computers/Software",
    "Home/Gardening",
    "Business/Financial Services",
    "Recreation/Pets",
    "Arts/Photography",
    "Shopping/Home and Garden",
    "Shopping/Clothing",
    "News/Internet Broadcasts",
    "Society/People",
    "Reference/Education",
    "Health/Fitness",
    "Business/Marketing and Advertising",
    "Arts/Music",
];

/// Heading phrases; `{}` is replaced by the keyword.
pub(crate) const HEADINGS: &[&str] = &[
    "What is {}?",
    "How to choose {}",
    "The best {} this year",
    "Why {} matters",
    "{}: a complete guide",
    "Common {} mistakes",
    "How we tested",
    "Our top picks",
    "Frequently asked questions",
    "Pros and cons",
    "Buying guide",
    "Final thoughts",
    "Is {} worth it?",
    "{} for beginners",
    "Step-by-step",
    "Price comparison",
    "Key features",
    "Related articles",
    "Table of contents",
    "Expert tips for {}",
    "Alternatives to {}",
    "Who should buy {}",
    "Conclusion",
];

/// Stray markup and style text as scraped headings carry it (the spec warns about this).
pub(crate) const STRAY: &[&str] = &[
    "<span class=\"badge\">New</span>",
    ".css-1q2w3e{display:flex;color:#222}",
    "&nbsp;",
    "<!-- -->",
    "<b>",
    "</strong>",
    "@media (max-width:600px){.h2{font-size:18px}}",
    "<i class=\"icon-star\"></i>",
    "\u{200b}",
    "<a href=\"#toc\">#</a>",
];

/// Post templates; `{k}` is the keyword.
pub(crate) const POSTS: &[&str] = &[
    "Just tried {k} for the first time and I'm hooked",
    "Anyone have recommendations for {k}? Looking for something that lasts",
    "Hot take: {k} is overrated. Change my mind",
    "Thread on everything I learned about {k} this year",
    "Finally found a {k} that works for me",
    "Day 12 of trying {k} every day. Progress!",
    "New blog post is up: my honest review of {k}",
    "Why does nobody talk about the downside of {k}?",
    "Quick tip about {k} that saved me a lot of time",
    "Comparing three options for {k}, results below",
];

/// Language codes for videos.
pub(crate) const LANGUAGES: &[&str] = &["en", "en", "en", "es", "de", "fr", "pt", "ja", "it", "nl"];

/// Country codes for channels.
pub(crate) const COUNTRIES: &[&str] = &["US", "GB", "CA", "AU", "DE", "FR", "ES", "IN", "BR", "JP"];

/// Video title templates; `{k}` is the keyword.
pub(crate) const TITLES: &[&str] = &[
    "{k} | Full Guide",
    "I Tried {k} for 30 Days",
    "{k} Explained in 10 Minutes",
    "Top 10 {k} (Tested)",
    "Don't Buy {k} Before Watching This",
    "{k} for Beginners",
    "The Truth About {k}",
    "{k}: Everything You Need to Know",
    "My {k} Routine",
    "{k} - Honest Review",
];

/// Playlist titles for video hashtag entries.
pub(crate) const PLAYLISTS: &[&str] = &[
    "Beginner Series",
    "Reviews",
    "Weekly Tips",
    "Full Guides",
    "Shorts",
    "Q&A Sessions",
];
