//! Word lists for plausible synthetic text. All neutral and made up; no real brands.

/// Topic themes: a name and its head terms.
pub(crate) const THEMES: &[(&str, &[&str])] = &[
    (
        "running",
        &[
            "running shoes",
            "trail running",
            "marathon training",
            "running watch",
            "5k plan",
            "running socks",
            "treadmill",
            "interval training",
            "running shorts",
            "hydration vest",
            "couch to 5k",
            "running form",
            "shin splints",
            "race pace",
            "carbon plate shoes",
        ],
    ),
    (
        "cooking",
        &[
            "sourdough bread",
            "cast iron skillet",
            "meal prep",
            "air fryer recipes",
            "chef knife",
            "slow cooker",
            "pasta sauce",
            "chicken thighs",
            "vegan curry",
            "baking soda",
            "stand mixer",
            "pizza dough",
            "rice cooker",
            "spice rack",
            "banana bread",
        ],
    ),
    (
        "travel",
        &[
            "cheap flights",
            "travel insurance",
            "carry on luggage",
            "hostel",
            "road trip",
            "passport renewal",
            "travel backpack",
            "packing list",
            "city break",
            "train pass",
            "beach resort",
            "visa requirements",
            "airport lounge",
            "travel adapter",
            "camping gear",
        ],
    ),
    (
        "software",
        &[
            "project management tool",
            "password manager",
            "code editor",
            "cloud storage",
            "vpn",
            "note taking app",
            "crm software",
            "invoice template",
            "api testing",
            "static site generator",
            "time tracking",
            "database backup",
            "email marketing",
            "screen recorder",
            "kanban board",
        ],
    ),
    (
        "garden",
        &[
            "raised garden bed",
            "tomato plants",
            "compost bin",
            "lawn mower",
            "garden hose",
            "succulents",
            "fruit trees",
            "seed starting",
            "potting soil",
            "greenhouse",
            "drip irrigation",
            "hedge trimmer",
            "companion planting",
            "pruning shears",
            "bird feeder",
        ],
    ),
    (
        "finance",
        &[
            "index funds",
            "credit score",
            "budget spreadsheet",
            "high yield savings",
            "mortgage calculator",
            "retirement account",
            "tax deductions",
            "personal loan",
            "emergency fund",
            "credit card rewards",
            "stock market",
            "dividend stocks",
            "debt payoff",
            "side hustle",
            "financial planner",
        ],
    ),
    (
        "pets",
        &[
            "dog food",
            "cat litter",
            "puppy training",
            "dog harness",
            "aquarium filter",
            "cat tree",
            "pet insurance",
            "dog bed",
            "chew toys",
            "bird cage",
            "flea treatment",
            "hamster cage",
            "dog grooming",
            "kitten food",
            "leash training",
        ],
    ),
    (
        "photo",
        &[
            "mirrorless camera",
            "prime lens",
            "tripod",
            "photo editing",
            "street photography",
            "camera bag",
            "lightroom presets",
            "portrait lighting",
            "drone camera",
            "film camera",
            "sd card",
            "macro lens",
            "night photography",
            "ring light",
            "photo backdrop",
        ],
    ),
    (
        "home",
        &[
            "standing desk",
            "paint colors",
            "robot vacuum",
            "smart thermostat",
            "kitchen remodel",
            "led bulbs",
            "bathroom tiles",
            "air purifier",
            "office chair",
            "wall shelves",
            "power drill",
            "area rug",
            "blackout curtains",
            "mattress topper",
            "space heater",
        ],
    ),
    (
        "fashion",
        &[
            "white sneakers",
            "rain jacket",
            "wool socks",
            "denim jacket",
            "summer dress",
            "leather boots",
            "capsule wardrobe",
            "linen shirt",
            "winter coat",
            "sunglasses",
            "backpack",
            "yoga pants",
            "watch strap",
            "chino pants",
            "hiking boots",
        ],
    ),
];

/// Modifiers placed before a head term.
pub(crate) const PREFIXES: &[&str] = &[
    "best",
    "cheap",
    "how to choose",
    "top",
    "affordable",
    "lightweight",
    "beginner",
    "buy",
    "used",
    "waterproof",
    "custom",
    "diy",
    "organic",
    "compact",
    "portable",
    "premium",
    "how to clean",
    "what is",
    "easy",
    "professional",
];

/// Modifiers placed after a head term.
pub(crate) const SUFFIXES: &[&str] = &[
    "for beginners",
    "near me",
    "review",
    "reviews",
    "for women",
    "for men",
    "for kids",
    "under 100",
    "vs",
    "guide",
    "sale",
    "online",
    "ideas",
    "tips",
    "comparison",
    "deals",
    "for small spaces",
    "alternatives",
    "price",
    "brands",
    "at home",
    "on a budget",
    "checklist",
    "mistakes",
    "explained",
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
