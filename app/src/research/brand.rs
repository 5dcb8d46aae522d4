//! Brand terms: which keywords name a brand, so the content gap can leave them out (a rival's
//! brand queries are not content you can win).
//!
//! Rules (our decisions; the page states [`BRAND_RULE`]):
//! - **Default terms** come from each domain's registrable domain by the Public Suffix List
//!   (`shop.example.co.uk` → `example.co.uk` → "example"; `foo.github.io` → "foo", a private
//!   suffix counting like a public one), its first label, punycode decoded
//!   (`xn--bcher-kva.de` → "bücher"). A host with no registrable domain (a bare suffix) gives
//!   no term.
//! - **Words**: text is lower-cased, accents folded (`é` → `e`, `ß` → `ss`), apostrophes
//!   dropped inside a word (`macy's` → `macys`), and split at anything else that is not a
//!   letter or digit (`&`, spaces, hyphens, dots).
//! - **A match**: some consecutive words of the keyword, written together, are a term's words
//!   written together. So `bestbuy` matches "best buy tv" and "bestbuy tv", `at&t` matches "att
//!   plans" and "at&t plans", `h&m` matches "h&m jeans", and `ikea` does not match "bike
//!   accessories", nor `gap` "singapore": a brand is whole words, never part of one.
//! - A term shorter than [`MIN_BRAND_TERM`] characters written together is ignored.

/// The Public Suffix List's rules, one a line (`!` exceptions and `*.` wildcards as the list
/// writes them), after a three-line header.
const PUBLIC_SUFFIXES: &str = include_str!("public_suffix_list.txt");

/// Shortest brand term that counts (characters, written together): "hm" for H&M counts, a
/// single letter would remove every keyword with that letter as a word.
pub const MIN_BRAND_TERM: usize = 2;

/// The brand-term rule as shown on the page and in reports.
pub const BRAND_RULE: &str = "Brand terms (prefilled with each domain's name, from its \
registrable domain by the Public Suffix List: shop.example.co.uk gives “example”) leave out \
every keyword in which some words in a row, written together, are a term written together: \
“bestbuy” leaves out “best buy tv”, “ikea” does not leave out “bike accessories”. Case, accents, \
apostrophes and “&” do not count (macy's = macys, at&t = att, nestlé = nestle); terms under 2 \
characters are ignored.";

/// True when `rule` is a line of the list.
fn listed(rule: &str) -> bool {
    // The list is one rule a line: a rule is a whole line. A linear scan of 130 kB, a few
    // times per domain typed: no table to build or keep.
    let mut line = String::with_capacity(rule.len() + 2);
    line.push('\n');
    line.push_str(rule);
    line.push('\n');
    PUBLIC_SUFFIXES.contains(&line)
}

/// The registrable domain of `host` (lower case, punycode labels decoded): the public suffix
/// and one label more, by the Public Suffix List's algorithm (the longest matching rule; an
/// exception rule wins; no match is the rule `*`). `None` for a bare suffix, an empty label
/// or a label that is not valid punycode.
pub fn registrable_domain(host: &str) -> Option<String> {
    let host = host.trim().trim_end_matches('.').to_lowercase();
    if host.is_empty() || host.len() > 253 {
        return None;
    }
    let labels: Vec<String> = host
        .split('.')
        .map(|l| match l.strip_prefix("xn--") {
            Some(code) => punycode_decode(code),
            None => (!l.is_empty()).then(|| l.to_string()),
        })
        .collect::<Option<_>>()?;
    let n = labels.len();
    // Index of the public suffix's first label.
    let mut suffix_at = n - 1;
    for i in 0..n {
        let candidate = labels[i..].join(".");
        if listed(&format!("!{candidate}")) {
            // An exception: the rule's own name is registrable.
            suffix_at = i + 1;
            break;
        }
        let wildcard = i + 1 < n && listed(&format!("*.{}", labels[i + 1..].join(".")));
        if listed(&candidate) || wildcard {
            suffix_at = i;
            break;
        }
    }
    (suffix_at > 0).then(|| labels[suffix_at - 1..].join("."))
}

/// The brand name of a domain: its registrable domain's first label (see the module rules).
pub fn brand_of(domain: &str) -> Option<String> {
    let bare = domain.trim();
    let bare = bare.strip_prefix("www.").unwrap_or(bare);
    let registrable = registrable_domain(bare)?;
    registrable.split('.').next().map(str::to_string)
}

/// The default brand terms of the compared domains, comma-separated, each once.
pub fn default_terms(domains: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    for name in domains.iter().filter_map(|d| brand_of(d)) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out.join(", ")
}

/// The terms typed (comma- or line-separated) as compared: each written together in folded
/// words, at least [`MIN_BRAND_TERM`] characters, each once.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for term in text.split([',', '\n']) {
        let compact = words(term).concat();
        if compact.chars().count() >= MIN_BRAND_TERM && !out.contains(&compact) {
            out.push(compact);
        }
    }
    out
}

/// True when `keyword` names one of `terms` (from [`terms`]): some of its consecutive words,
/// written together, are a term.
pub fn is_branded(keyword: &str, terms: &[String]) -> bool {
    branded_by(keyword, terms).is_some()
}

/// The term (its index in `terms`) `keyword` names first, if any (see [`is_branded`]).
pub fn branded_by(keyword: &str, terms: &[String]) -> Option<usize> {
    if terms.is_empty() {
        return None;
    }
    let longest = terms.iter().map(String::len).max().unwrap_or(0);
    let words = words(keyword);
    let mut run = String::with_capacity(longest);
    for start in 0..words.len() {
        run.clear();
        for word in &words[start..] {
            run.push_str(word);
            if run.len() > longest {
                break;
            }
            if let Some(at) = terms.iter().position(|t| *t == run) {
                return Some(at);
            }
        }
    }
    None
}

/// The search volume from which a brand term that is itself a keyword of the data is
/// warned about (a keyword in the planner's 10K–100K tier and above). Decided: a domain's own
/// brand query is often that big too ("nike"), so the warning says what the term removes and
/// asks, rather than dropping the term.
pub const GENERIC_VOLUME: i64 = 10_000;

/// What one brand term removed from the data: its keywords and their searches, and the
/// volume of the keyword that is the term itself (when the data has it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TermUse {
    /// The term as compared.
    pub term: String,
    /// Keywords left out by it.
    pub keywords: usize,
    /// Their summed volume.
    pub volume: i64,
    /// The volume of the keyword that is the term alone, where the data has one.
    pub own_volume: Option<i64>,
}

/// The warning for a term that is a high-volume keyword ([`GENERIC_VOLUME`] and above) in
/// the data: a generic word taken from a domain (hotels.com → "hotels") silently removes a
/// whole category. `None` for any other term.
pub fn generic_warning(u: &TermUse) -> Option<String> {
    let own = u.own_volume.filter(|v| *v >= GENERIC_VOLUME)?;
    Some(format!(
        "The brand term “{}” is itself a keyword with {} searches a month, and it leaves out \
{} keywords ({} searches). If it is a common word rather than a brand (hotels.com gives \
“hotels”), remove it from the brand terms.",
        u.term,
        crate::format::fmt_int(own),
        crate::format::fmt_int(u.keywords as i64),
        crate::format::fmt_int(u.volume)
    ))
}

/// The words of `text` as brand terms compare them: lower case, accents folded, apostrophes
/// dropped, split at any other character that is not a letter or digit.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            '\'' | '’' | 'ʼ' | '‘' | '`' | '´' => {}
            // Combining accents (a decomposed "é"): part of the letter before.
            '\u{300}'..='\u{36f}' => {}
            c if c.is_alphanumeric() => fold(c, &mut word),
            _ => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Base letters of U+00E0–U+00FF and U+0100–U+017F (`-`: kept as it is, or spelled out
/// below): the Latin letters with accents of Western and Central European languages.
const FOLD_LATIN1: &[u8; 32] = b"aaaaaa-ceeeeiiiidnooooo-ouuuuy-y";
const FOLD_EXTENDED_A: &[u8; 128] = b"aaaaaaccccccccddddeeeeeeeeeegggg\
gggghhhhiiiiiiiiii--jjkkklllllll\
lllnnnnnnnnnoooooo--rrrrrrssssss\
ssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/// Pushes `c` (lower case) with its accent folded.
fn fold(c: char, out: &mut String) {
    let spelled = match c {
        'æ' => "ae",
        'œ' => "oe",
        'ß' => "ss",
        'þ' => "th",
        'ĳ' => "ij",
        _ => "",
    };
    if !spelled.is_empty() {
        out.push_str(spelled);
        return;
    }
    let code = c as u32;
    let base = match code {
        0xE0..=0xFF => FOLD_LATIN1[(code - 0xE0) as usize],
        0x100..=0x17F => FOLD_EXTENDED_A[(code - 0x100) as usize],
        _ => b'-',
    };
    out.push(if base == b'-' { c } else { char::from(base) });
}

/// Decodes a punycode label's code (after `xn--`), RFC 3492; `None` when it is not valid.
fn punycode_decode(code: &str) -> Option<String> {
    const BASE: u32 = 36;
    const T_MIN: u32 = 1;
    const T_MAX: u32 = 26;
    let (basic, extended) = match code.rfind('-') {
        Some(at) => (&code[..at], &code[at + 1..]),
        None => ("", code),
    };
    if !basic.is_ascii() || code.len() > 63 {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (128_u32, 0_u32, 72_u32);
    let mut digits = extended.bytes();
    let mut first = true;
    while digits.len() > 0 {
        let old_i = i;
        let mut w = 1_u32;
        let mut k = BASE;
        loop {
            let digit = match digits.next()? {
                b @ b'a'..=b'z' => b - b'a',
                b @ b'0'..=b'9' => b - b'0' + 26,
                _ => return None,
            } as u32;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = k.saturating_sub(bias).clamp(T_MIN, T_MAX);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = out.len() as u32 + 1;
        // Bias adaptation (RFC 3492 section 6.1).
        let mut delta = if first {
            (i - old_i) / 700
        } else {
            (i - old_i) / 2
        };
        first = false;
        delta += delta / len;
        let mut k = 0;
        while delta > ((BASE - T_MIN) * T_MAX) / 2 {
            delta /= BASE - T_MIN;
            k += BASE;
        }
        bias = k + (BASE - T_MIN + 1) * delta / (delta + 38);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrable_domains_follow_the_public_suffix_list() {
        let cases = [
            ("shop.example.co.uk", Some("example.co.uk")),
            ("www.example.com", Some("example.com")),
            ("example.com.", Some("example.com")),
            ("a.b.c.example.org", Some("example.org")),
            ("Foo.GitHub.io", Some("foo.github.io")),
            ("co.uk", None),
            ("com", None),
            // Wildcard and its exception: *.kobe.jp, !city.kobe.jp.
            ("shop.foo.kobe.jp", Some("shop.foo.kobe.jp")),
            ("www.city.kobe.jp", Some("city.kobe.jp")),
            // Not in the list: the rule "*", one label of suffix.
            ("shop.example.unknowntld", Some("example.unknowntld")),
            ("xn--bcher-kva.de", Some("bücher.de")),
            ("shop.xn--55qx5d.cn", Some("shop.公司.cn")),
            ("", None),
            ("a..com", None),
            ("xn--!!.com", None),
        ];
        for (host, want) in cases {
            assert_eq!(registrable_domain(host).as_deref(), want, "{host}");
        }
    }

    #[test]
    fn default_terms_are_the_registrable_domains_names() {
        let domains = [
            "shop.example.co.uk".to_string(),
            "www.rival.com".into(),
            "example.org".into(),
            "xn--nestl-fsa.com".into(),
            "co.uk".into(),
        ];
        assert_eq!(default_terms(&domains), "example, rival, nestlé");
        assert_eq!(brand_of("xn--mnchen-3ya.de").as_deref(), Some("münchen"));
    }

    #[test]
    fn terms_match_whole_words_not_parts_of_words() {
        let t = terms("ikea, gap, bestbuy");
        assert!(!is_branded("bike accessories", &t));
        assert!(!is_branded("singapore hotels", &t));
        assert!(is_branded("ikea desk", &t));
        assert!(is_branded("gap jeans", &t));
        assert!(is_branded("best buy tv", &t));
        assert!(is_branded("bestbuy tv", &t));
        assert!(is_branded("tv at best-buy", &t));
        assert!(!is_branded("best tv to buy", &t));
    }

    #[test]
    fn variants_of_a_brand_match() {
        let t = terms("macy's, at&t, H&M, Nestlé, x, ");
        assert_eq!(t, ["macys", "att", "hm", "nestle"]);
        for kw in [
            "macys sale",
            "macy’s sale",
            "macy's sale",
            "att plans",
            "at&t plans",
            "at & t plans",
            "h&m jeans",
            "h & m jeans",
            "nestle cereal",
            "nestlé cereal",
            "NESTLÉ cereal",
            "nestle\u{301} cereal",
        ] {
            assert!(is_branded(kw, &t), "{kw}");
        }
        for kw in ["macy", "attic", "hmm", "x ray"] {
            assert!(!is_branded(kw, &t), "{kw}");
        }
        assert!(!is_branded("anything", &[]));
    }

    #[test]
    fn words_fold_accents_and_keep_apostrophes_inside_words() {
        assert_eq!(words("Crème Brûlée"), ["creme", "brulee"]);
        assert_eq!(words("Straße Œuvre"), ["strasse", "oeuvre"]);
        assert_eq!(words("men's shoes"), ["mens", "shoes"]);
        assert_eq!(words("łódź, żółć"), ["lodz", "zolc"]);
        assert_eq!(words("東京 ramen"), ["東京", "ramen"]);
        assert!(words(" - & ").is_empty());
    }

    #[test]
    fn punycode_decodes_rfc_3492() {
        assert_eq!(punycode_decode("bcher-kva").as_deref(), Some("bücher"));
        assert_eq!(punycode_decode("55qx5d").as_deref(), Some("公司"));
        assert_eq!(punycode_decode("80ak6aa92e").as_deref(), Some("аррӏе"));
        assert_eq!(punycode_decode("abc-").as_deref(), Some("abc"));
        assert_eq!(punycode_decode("zzzzzzzzzzzzzzz"), None);
        assert_eq!(punycode_decode("ab_c"), None);
        assert_eq!(punycode_decode("é-abc"), None);
    }
}
