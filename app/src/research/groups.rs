//! Keyword groups: a free, lexical grouping of the current keyword set (no call).
//!
//! Rules (our decisions; the page states [`GROUP_RULES`]):
//! - A keyword is read as words: lower-cased, split at every character that is not a letter,
//!   a digit or an apostrophe inside a word ("men's" is one word, not "men" and "s").
//!   Keywords equal after that are one keyword (the first spelling counts).
//! - **Questions**: a keyword is a question when its *first* word is a question word: one of
//!   [`WH_WORDS`] always, one of [`AUXILIARIES`] only when the next word is a subject
//!   ([`SUBJECTS`]: "can i", "is the", "will it"), so "will smith movies" and "tin can" are no
//!   questions. One group per first word. A question word elsewhere asks nothing.
//! - **Modifiers**: one group per modifier the keyword has ([`MODIFIERS`]; "near me" as the
//!   two words in a row, "vs" and "versus" together, "review" and "reviews" together), and
//!   "year" for a word from 2000 to 2099.
//! - **Topics**: the phrases of 1 to 3 words in a row once stop words ([`STOP_WORDS`]), the
//!   leading question word and modifiers are taken out ("best running shoes for women" →
//!   running, shoes, women, running shoes, shoes women, running shoes women). Words compare by
//!   their stem ([`stem`]: a possessive 's dropped, then plural endings by Harman's S-stemmer
//!   with "sses" → "ss"), so "shoe" and "shoes" are one topic, shown as first spelled. A topic
//!   needs at least 2 keywords; topics with exactly the same keywords are shown once, under the
//!   longest phrase (then the first alphabetically): "running shoes" rather than "running"
//!   when every keyword with "running" also has "running shoes".
//! - A group's volume is the sum of its keywords' volumes (negative counts as 0). Groups are
//!   ordered by size, then volume (both descending), then kind, then label: deterministic.

use std::collections::HashMap;

/// Question words that make a question as the first word.
pub const WH_WORDS: &[&str] = &["who", "what", "when", "where", "why", "how", "which"];

/// Words that make a question as the first word when a subject follows.
pub const AUXILIARIES: &[&str] = &[
    "can", "could", "does", "do", "did", "is", "are", "was", "should", "will", "would",
];

/// What follows an auxiliary in a question: pronouns and determiners.
pub const SUBJECTS: &[&str] = &[
    "i", "you", "we", "they", "he", "she", "it", "there", "a", "an", "the", "my", "your", "our",
    "their", "his", "her", "its", "this", "that", "these", "those",
];

/// Modifier words (see the module rules for "near me", "vs" and "review").
pub const MODIFIERS: &[&str] = &[
    "best", "top", "cheap", "free", "vs", "for", "with", "without", "review", "buy", "online",
    "near me",
];

/// Words that make no topic (question words that ask nothing where they stand among them;
/// "can" and "will" are not: "tin can", "will smith").
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "by", "from", "my", "your", "i",
    "it", "me", "near", "versus", "reviews", "vs", "not", "no", "be", "as", "that", "this", "than",
    "into", "about", "up", "who", "what", "when", "where", "why", "how", "which", "is", "are",
    "do", "does", "did", "should", "could", "would", "was",
];

/// The question rule's text, written once for [`GROUP_RULES`] and [`QUESTION_RULE`].
macro_rules! question_rule {
    () => {
        "Questions: keywords starting with who, what, when, where, why, how or which, or with \
can, could, do, does, did, is, are, was, should, will or would followed by a pronoun or \
“a/the/this…” (“will it rain”, not “will smith movies”)"
    };
}

/// The rules as shown on the page.
pub const GROUP_RULES: &str = concat!(
    "Keywords are grouped by their words (lower-cased; an apostrophe inside a word keeps it \
whole). ",
    question_rule!(),
    "; one group per first word. Modifiers: best, top, cheap, free, vs, for, with, without, \
review, buy, online, near me, and years (2000–2099). Topics: phrases of 1 to 3 words once stop \
words, the question word and modifiers are taken out, shared by at least 2 keywords; words \
compare by stem (a possessive 's dropped; plurals: ies → y, sses → ss, a final s dropped unless \
after u or s; words of 3 letters or fewer kept), so “shoe” and “shoes” are one topic; topics \
with exactly the same keywords are shown once, under the longest phrase. Volume is the sum of \
the group's keywords."
);

/// A group's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GroupKind {
    /// A shared phrase.
    Topic,
    /// A question word.
    Question,
    /// A modifier.
    Modifier,
}

impl GroupKind {
    /// Every kind, in the page's order.
    pub const ALL: [GroupKind; 3] = [GroupKind::Topic, GroupKind::Question, GroupKind::Modifier];

    /// Its name on the page and in files.
    pub fn label(self) -> &'static str {
        match self {
            GroupKind::Topic => "topic",
            GroupKind::Question => "question",
            GroupKind::Modifier => "modifier",
        }
    }

    /// The kind with this label.
    pub fn from_label(label: &str) -> Option<GroupKind> {
        GroupKind::ALL.into_iter().find(|k| k.label() == label)
    }
}

/// A group of keywords.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Kind.
    pub kind: GroupKind,
    /// The phrase, question word or modifier.
    pub label: String,
    /// Indices of its keywords in the input, ascending.
    pub members: Vec<u32>,
    /// Summed volume of its keywords.
    pub volume: i64,
}

impl Group {
    /// The number of keywords.
    pub fn size(&self) -> usize {
        self.members.len()
    }

    /// Its keywords, read from `keywords` (the input it was grouped from).
    pub fn member_keywords(&self, keywords: &[String]) -> Vec<String> {
        self.members
            .iter()
            .filter_map(|&i| keywords.get(i as usize).cloned())
            .collect()
    }
}

/// The words of a keyword: lower-cased, split at anything not a letter or digit, but for an
/// apostrophe inside a word (written `'`, whichever apostrophe was typed).
pub fn words(keyword: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = keyword.chars().flat_map(char::to_lowercase).peekable();
    while let Some(c) = chars.next() {
        let inside = matches!(c, '\'' | '’' | 'ʼ')
            && !word.is_empty()
            && chars.peek().is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() {
            word.push(c);
        } else if inside {
            word.push('\'');
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A word's stem, the form topics compare by: a possessive `'s` dropped ("men's" → "men"),
/// other apostrophes removed, then Harman's S-stemmer on words over 3 letters ("ies" → "y"
/// but not after e or a; "sses" → "ss"; a final "s" dropped but not after u or s): "shoes" →
/// "shoe", "batteries" → "battery", "dresses" → "dress", "bus" and "glass" kept.
pub fn stem(word: &str) -> String {
    let w: String = word
        .strip_suffix("'s")
        .unwrap_or(word)
        .chars()
        .filter(|&c| c != '\'')
        .collect();
    if w.chars().count() <= 3 {
        return w;
    }
    if let Some(base) = w.strip_suffix("ies") {
        if !base.ends_with(['e', 'a']) {
            return format!("{base}y");
        }
    }
    if let Some(base) = w.strip_suffix("sses") {
        return format!("{base}ss");
    }
    match w.strip_suffix('s') {
        Some(base) if !base.ends_with(['u', 's']) => base.to_string(),
        _ => w,
    }
}

/// True when `keyword` is a question by the groups' rule (its first word asks: who, what,
/// how, …, or can/do/is/… followed by a pronoun or determiner): the Questions filter of the
/// explorer, related keywords and the content gap (Semrush's "Questions" tab).
pub fn is_question(keyword: &str) -> bool {
    question(&words(keyword)).is_some()
}

/// The Questions filter's rule, as the pages state it (the groups' question rule).
pub const QUESTION_RULE: &str = concat!(question_rule!(), ".");

/// The question word a keyword starts with, if it is a question (see the module rules).
fn question(words: &[String]) -> Option<&str> {
    let first = words.first()?.as_str();
    let asks = WH_WORDS.contains(&first)
        || (AUXILIARIES.contains(&first)
            && words.get(1).is_some_and(|w| SUBJECTS.contains(&w.as_str())));
    asks.then_some(first)
}

/// The modifier a word stands for, if any (`versus` → `vs`, `reviews` → `review`, a year →
/// `year`).
fn modifier(word: &str) -> Option<&'static str> {
    match word {
        "versus" | "vs" => Some("vs"),
        "reviews" | "review" => Some("review"),
        w if w.len() == 4 && w.starts_with("20") && w.bytes().all(|b| b.is_ascii_digit()) => {
            Some("year")
        }
        w => MODIFIERS.iter().copied().find(|m| *m == w),
    }
}

/// Groups `keywords` ((keyword, volume) pairs) by the module's rules.
pub fn group(keywords: &[(&str, i64)]) -> Vec<Group> {
    let mut seen: HashMap<String, ()> = HashMap::with_capacity(keywords.len());
    // (kind, key) → members, in first-seen order of the key; a topic's key is its stems.
    let mut groups: HashMap<(GroupKind, String), Vec<u32>> = HashMap::new();
    // A topic's stems → the phrase as first spelled (its label).
    let mut spelled: HashMap<String, String> = HashMap::new();
    let mut add = |kind: GroupKind, label: &str, index: u32| {
        let members = groups.entry((kind, label.to_string())).or_default();
        if members.last() != Some(&index) {
            members.push(index);
        }
    };
    for (index, (keyword, _)) in keywords.iter().enumerate() {
        let index = index as u32;
        let words = words(keyword);
        if words.is_empty() || seen.insert(words.join(" "), ()).is_some() {
            continue;
        }
        let asks = question(&words);
        if let Some(q) = asks {
            add(GroupKind::Question, q, index);
        }
        // (stem, word as spelled) of the topic words.
        let mut topic: Vec<(String, &str)> = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate().skip(usize::from(asks.is_some())) {
            let word = word.as_str();
            if word == "near" && words.get(i + 1).is_some_and(|next| next == "me") {
                add(GroupKind::Modifier, "near me", index);
                continue;
            }
            if let Some(m) = modifier(word) {
                add(GroupKind::Modifier, m, index);
                continue;
            }
            if !STOP_WORDS.contains(&word) {
                topic.push((stem(word), word));
            }
        }
        // Each phrase once per keyword, even when it occurs twice.
        let mut phrases: Vec<String> = Vec::new();
        for n in 1..=3 {
            for window in topic.windows(n) {
                let key = window
                    .iter()
                    .map(|w| w.0.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                if !phrases.contains(&key) {
                    spelled.entry(key.clone()).or_insert_with(|| {
                        window.iter().map(|w| w.1).collect::<Vec<_>>().join(" ")
                    });
                    phrases.push(key);
                }
            }
        }
        for phrase in phrases {
            add(GroupKind::Topic, &phrase, index);
        }
    }
    let volume = |members: &[u32]| -> i64 {
        members
            .iter()
            .map(|&i| keywords[i as usize].1.max(0))
            .fold(0_i64, i64::saturating_add)
    };
    let mut out: Vec<Group> = Vec::new();
    // Topics with the same members: keep the longest phrase (then the first alphabetically).
    let mut by_members: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut entries: Vec<((GroupKind, String), Vec<u32>)> = groups.into_iter().collect();
    // A fixed order first, so which duplicate is kept never depends on the hash map.
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for ((kind, key), members) in entries {
        let label = match kind {
            GroupKind::Topic => spelled.remove(&key).unwrap_or(key),
            _ => key,
        };
        if kind == GroupKind::Topic {
            if members.len() < 2 {
                continue;
            }
            let words = label.split(' ').count();
            if let Some(&at) = by_members.get(&members) {
                let kept: &Group = &out[at];
                let kept_words = kept.label.split(' ').count();
                if words > kept_words || (words == kept_words && label < kept.label) {
                    out[at].label = label;
                }
                continue;
            }
            by_members.insert(members.clone(), out.len());
        }
        let volume = volume(&members);
        out.push(Group {
            kind,
            label,
            members,
            volume,
        });
    }
    out.sort_by(|a, b| {
        b.size()
            .cmp(&a.size())
            .then_with(|| b.volume.cmp(&a.volume))
            .then_with(|| a.kind.cmp(&b.kind))
            .then_with(|| a.label.cmp(&b.label))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(groups: &'a [Group], kind: GroupKind, label: &str) -> Option<&'a Group> {
        groups.iter().find(|g| g.kind == kind && g.label == label)
    }

    #[test]
    fn topics_are_shared_phrases_without_stop_words_and_modifiers() {
        let kws = [
            ("best running shoes for women", 100),
            ("running shoes", 50),
            ("cheap running shoes", 30),
            ("trail running", 20),
        ];
        let g = group(&kws);
        // "running" has 4 keywords; "shoes" and "running shoes" the same 3: shown once, as the longer.
        assert_eq!(
            find(&g, GroupKind::Topic, "running").unwrap().members,
            [0, 1, 2, 3]
        );
        let rs = find(&g, GroupKind::Topic, "running shoes").unwrap();
        assert_eq!(rs.members, [0, 1, 2]);
        assert_eq!(rs.volume, 180);
        assert!(find(&g, GroupKind::Topic, "shoes").is_none());
        // A phrase of one keyword is no group; modifiers and stop words make no topic.
        assert!(find(&g, GroupKind::Topic, "trail running").is_none());
        assert!(find(&g, GroupKind::Topic, "best").is_none());
        assert!(find(&g, GroupKind::Topic, "for").is_none());
        assert_eq!(find(&g, GroupKind::Modifier, "best").unwrap().members, [0]);
        assert_eq!(find(&g, GroupKind::Modifier, "cheap").unwrap().members, [2]);
        assert_eq!(find(&g, GroupKind::Modifier, "for").unwrap().members, [0]);
        // Ordered by size, then volume.
        assert_eq!(g[0].label, "running");
    }

    #[test]
    fn is_question_reads_the_first_word() {
        assert!(is_question("how to boil an egg"));
        assert!(is_question("Can I freeze bread"));
        assert!(is_question("will it snow"));
        assert!(!is_question("will smith movies"));
        assert!(!is_question("tin can"));
        assert!(!is_question("running shoes"));
        assert!(!is_question(""));
    }

    #[test]
    fn questions_and_modifiers_are_whole_words_and_phrases() {
        let kws = [
            ("how to tie shoes", 10),
            ("How long do shoes last?", 5),
            ("shoe store near me", 7),
            ("nike vs adidas", 3),
            ("nike versus adidas reviews", 2),
            ("showcase", 1),
            ("best shoes 2025", 4),
        ];
        let g = group(&kws);
        assert_eq!(
            find(&g, GroupKind::Question, "how").unwrap().members,
            [0, 1]
        );
        // "do" inside a question asks nothing of its own.
        assert!(find(&g, GroupKind::Question, "do").is_none());
        assert!(find(&g, GroupKind::Question, "show").is_none());
        assert_eq!(
            find(&g, GroupKind::Modifier, "near me").unwrap().members,
            [2]
        );
        assert_eq!(find(&g, GroupKind::Modifier, "vs").unwrap().members, [3, 4]);
        assert_eq!(
            find(&g, GroupKind::Modifier, "review").unwrap().members,
            [4]
        );
        assert_eq!(find(&g, GroupKind::Modifier, "year").unwrap().members, [6]);
        // "nike adidas" once "vs" is taken out: a topic of 2.
        assert_eq!(
            find(&g, GroupKind::Topic, "nike adidas").unwrap().members,
            [3, 4]
        );
        assert!(find(&g, GroupKind::Topic, "near").is_none());
    }

    #[test]
    fn duplicates_and_case_count_once_and_empty_input_is_empty() {
        let kws = [
            ("Red Shoes", 10),
            ("red shoes", 99),
            ("red-shoes", 5),
            ("red boots", 1),
        ];
        let g = group(&kws);
        let red = find(&g, GroupKind::Topic, "red").unwrap();
        assert_eq!(red.members, [0, 3]);
        assert_eq!(red.volume, 11);
        assert!(group(&[]).is_empty());
        assert!(group(&[("", 1), ("!!", 2)]).is_empty());
    }

    #[test]
    fn a_phrase_repeated_in_a_keyword_counts_once_and_volumes_saturate() {
        let g = group(&[
            ("shoes shoes", i64::MAX),
            ("shoes", 10),
            ("boots", -5),
            ("boots x", 1),
        ]);
        let shoes = find(&g, GroupKind::Topic, "shoes").unwrap();
        assert_eq!(shoes.members, [0, 1]);
        assert_eq!(shoes.volume, i64::MAX);
        assert_eq!(find(&g, GroupKind::Topic, "boots").unwrap().volume, 1);
    }

    #[test]
    fn grouping_is_deterministic() {
        let kws: Vec<(String, i64)> = (0..300)
            .map(|i| (format!("word{} shoes best {} how", i % 7, i % 11), i))
            .collect();
        let refs: Vec<(&str, i64)> = kws.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let a = group(&refs);
        for _ in 0..3 {
            assert_eq!(group(&refs), a);
        }
        for pair in a.windows(2) {
            assert!(pair[0].size() >= pair[1].size());
        }
    }

    #[test]
    fn apostrophes_do_not_split_words() {
        assert_eq!(words("Men's running shoes"), ["men's", "running", "shoes"]);
        assert_eq!(words("men’s shoes"), ["men's", "shoes"]);
        assert_eq!(
            words("'quoted' rock 'n' roll"),
            ["quoted", "rock", "n", "roll"]
        );
        let g = group(&[
            ("men's shoes", 10),
            ("mens shoes sale", 5),
            ("men shoes", 1),
        ]);
        assert!(find(&g, GroupKind::Topic, "s").is_none());
        // "men's", "mens" and "men" are one stem.
        assert_eq!(
            find(&g, GroupKind::Topic, "men's shoes").unwrap().members,
            [0, 1, 2]
        );
    }

    #[test]
    fn only_a_leading_question_word_makes_a_question() {
        let g = group(&[
            ("tin can", 10),
            ("tin can crafts", 10),
            ("will smith movies", 10),
            ("will smith age", 10),
            ("can i freeze bread", 10),
            ("will it snow", 10),
            ("what is seo", 10),
            ("learn how to draw", 10),
        ]);
        assert_eq!(find(&g, GroupKind::Question, "can").unwrap().members, [4]);
        assert_eq!(find(&g, GroupKind::Question, "will").unwrap().members, [5]);
        assert_eq!(find(&g, GroupKind::Question, "what").unwrap().members, [6]);
        assert!(find(&g, GroupKind::Question, "how").is_none());
        assert_eq!(
            find(&g, GroupKind::Topic, "tin can").unwrap().members,
            [0, 1]
        );
        assert_eq!(
            find(&g, GroupKind::Topic, "will smith").unwrap().members,
            [2, 3]
        );
    }

    #[test]
    fn singular_and_plural_are_one_topic() {
        let g = group(&[
            ("running shoe", 10),
            ("running shoes", 20),
            ("red dress", 1),
            ("red dresses", 1),
            ("aa batteries", 1),
            ("aa battery", 1),
        ]);
        assert_eq!(
            find(&g, GroupKind::Topic, "running shoe").unwrap().members,
            [0, 1]
        );
        assert_eq!(
            find(&g, GroupKind::Topic, "red dress").unwrap().members,
            [2, 3]
        );
        assert_eq!(
            find(&g, GroupKind::Topic, "aa batteries").unwrap().members,
            [4, 5]
        );
        for (word, want) in [
            ("shoes", "shoe"),
            ("batteries", "battery"),
            ("dresses", "dress"),
            ("glass", "glass"),
            ("bus", "bus"),
            ("status", "status"),
            ("men's", "men"),
            ("boys'", "boy"),
            ("series", "sery"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }

    #[test]
    fn kinds_round_trip() {
        for kind in GroupKind::ALL {
            assert_eq!(GroupKind::from_label(kind.label()), Some(kind));
        }
    }
}
