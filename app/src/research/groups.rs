//! Keyword groups: a free, lexical grouping of the current keyword set (no call).
//!
//! Rules (our decisions; the page states [`GROUP_RULES`]):
//! - A keyword is read as words: lower-cased, split at every character that is not a letter
//!   or digit. Keywords equal after that are one keyword (the first spelling counts).
//! - **Questions**: one group per question word the keyword has as a word ([`QUESTIONS`]).
//! - **Modifiers**: one group per modifier the keyword has ([`MODIFIERS`]; "near me" as the
//!   two words in a row, "vs" and "versus" together, "review" and "reviews" together), and
//!   "year" for a word from 2000 to 2099.
//! - **Topics**: the phrases of 1 to 3 words in a row once stop words ([`STOP_WORDS`]),
//!   question words and modifiers are taken out ("best running shoes for women" → running,
//!   shoes, women, running shoes, shoes women, running shoes women). A topic needs at least 2
//!   keywords; topics with exactly the same keywords are shown once, under the longest phrase
//!   (then the first alphabetically): "running shoes" rather than "running" when every
//!   keyword with "running" also has "running shoes".
//! - A group's volume is the sum of its keywords' volumes (negative counts as 0). Groups are
//!   ordered by size, then volume (both descending), then kind, then label: deterministic.

use std::collections::HashMap;

/// Question words.
pub const QUESTIONS: &[&str] = &[
    "who", "what", "when", "where", "why", "how", "which", "can", "does", "do", "is", "are",
    "should", "will",
];

/// Modifier words (see the module rules for "near me", "vs" and "review").
pub const MODIFIERS: &[&str] = &[
    "best", "top", "cheap", "free", "vs", "for", "with", "without", "review", "buy", "online",
    "near me",
];

/// Words that make no topic.
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "by", "from", "my", "your", "i",
    "it", "me", "near", "versus", "reviews", "vs", "not", "no", "be", "as", "that", "this", "than",
    "into", "about", "up",
];

/// The rules as shown on the page.
pub const GROUP_RULES: &str = "Keywords are grouped by their words (lower-cased). Questions: \
one group per question word (who, what, when, where, why, how, which, can, does, do, is, are, \
should, will). Modifiers: best, top, cheap, free, vs, for, with, without, review, buy, online, \
near me, and years (2000–2099). Topics: phrases of 1 to 3 words once stop words, question words \
and modifiers are taken out, shared by at least 2 keywords; topics with exactly the same \
keywords are shown once, under the longest phrase. Volume is the sum of the group's keywords.";

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
}

/// The words of a keyword: lower-cased, split at anything not a letter or digit.
pub fn words(keyword: &str) -> Vec<String> {
    keyword
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
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
    // (kind, label) → members, in first-seen order of the label.
    let mut groups: HashMap<(GroupKind, String), Vec<u32>> = HashMap::new();
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
        let mut topic: Vec<&str> = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate() {
            let word = word.as_str();
            if QUESTIONS.contains(&word) {
                add(GroupKind::Question, word, index);
                continue;
            }
            if word == "near" && words.get(i + 1).is_some_and(|next| next == "me") {
                add(GroupKind::Modifier, "near me", index);
                continue;
            }
            if let Some(m) = modifier(word) {
                add(GroupKind::Modifier, m, index);
                continue;
            }
            if !STOP_WORDS.contains(&word) {
                topic.push(word);
            }
        }
        // Each phrase once per keyword, even when it occurs twice.
        let mut phrases: Vec<String> = Vec::new();
        for n in 1..=3 {
            for window in topic.windows(n) {
                let phrase = window.join(" ");
                if !phrases.contains(&phrase) {
                    phrases.push(phrase);
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
    for ((kind, label), members) in entries {
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
        assert_eq!(find(&g, GroupKind::Question, "do").unwrap().members, [1]);
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
    fn kinds_round_trip() {
        for kind in GroupKind::ALL {
            assert_eq!(GroupKind::from_label(kind.label()), Some(kind));
        }
    }
}
