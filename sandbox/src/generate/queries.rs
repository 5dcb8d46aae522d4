//! Queries people type, built on a head term by the modifiers of its kind
//! ([`crate::words::modifiers`]), and the way back: a keyword's family (its head term with
//! the modifiers taken off), which the keyword's season follows.
//!
//! Forms (share of a domain's keywords): the bare head (3 %); an adjective or a question
//! before it (12 %); an audience or a commercial word after it (15 %); an adjective, an
//! attribute and a commercial word (20 %); a question and an audience (10 %); an attribute,
//! an audience and a commercial word (20 %); an adjective, an attribute, an audience and a
//! commercial word (12 %); "head vs sibling" with a like head of its theme (8 %). A part the kind
//! has no words for is left out, as is one repeating a word of the head or of an earlier
//! part ("white white sneakers", "beginner … for beginners"), so nothing dangles
//! ("retirement account vs") and no question carries a commercial word.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::rng::{FnvBuild, Rng};
use crate::words::*;

fn some<'a>(rng: &mut Rng, items: &'a [&'a str]) -> Option<&'a str> {
    // Always one draw, so the forms below consume the same randomness whatever the kind.
    let i = rng.below(items.len().max(1) as u64) as usize;
    items.get(i).copied()
}

/// True when `a` and `b` share a word (a plural as its singular), or name two places
/// ("in paris … near me").
pub(crate) fn clash(a: &str, b: &str) -> bool {
    let place = |w: &str| w.starts_with("in ") || w == "near me";
    if place(a) && place(b) {
        return true;
    }
    // A bit per word stem first: this runs several times per generated keyword, and words
    // seldom meet, so the exact comparison below is rare.
    if stem_bits(a) & stem_bits(b) == 0 {
        return false;
    }
    let stem = |w: &[u8]| w.strip_suffix(b"s").unwrap_or(w).to_vec();
    let b: Vec<Vec<u8>> = b.as_bytes().split(|c| *c == b' ').map(stem).collect();
    a.as_bytes()
        .split(|c| *c == b' ')
        .any(|x| b.contains(&stem(x)))
}

/// One of 64 bits per word of `s` (a plural as its singular).
fn stem_bits(s: &str) -> u64 {
    let mut bits = 0;
    for w in s.as_bytes().split(|c| *c == b' ') {
        let w = w.strip_suffix(b"s").unwrap_or(w);
        let h = w
            .iter()
            .fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(*c)));
        bits |= 1u64 << (h % 64);
    }
    bits
}

/// A query on `head`; `theme` is the head's theme (for "x vs y").
pub(crate) fn query(rng: &mut Rng, head: &Head, theme: &[Head]) -> String {
    query_in(rng, head, theme, Form::Any)
}

/// A query on `head` of the longest form (four modifiers where the kind has them): the most
/// varied, for a domain that needs another keyword after a repeat.
pub(crate) fn long_query(rng: &mut Rng, head: &Head, theme: &[Head]) -> String {
    query_in(rng, head, theme, Form::Long)
}

/// A query on `head` of a short form (the bare head, or one modifier before or after it):
/// what searchers type around a related head ("trail running shoes" beside "running shoes",
/// not "cheap grey hydration vest online").
pub(crate) fn short_query(rng: &mut Rng, head: &Head, theme: &[Head]) -> String {
    query_in(rng, head, theme, Form::Short)
}

/// The forms [`query_in`] draws from.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Any,
    Short,
    Long,
}

fn query_in(rng: &mut Rng, head: &Head, theme: &[Head], form: Form) -> String {
    let m = modifiers(head.kind);
    let roll = match form {
        Form::Long => 85,
        Form::Short => rng.below(30),
        Form::Any => rng.below(100),
    };
    let adjective = some(rng, m.adjectives);
    let attribute = some(rng, m.attributes);
    let question = some(rng, m.questions);
    let audience = some(rng, m.audiences);
    let tail = some(rng, m.tails);
    let before = if rng.chance(0.5) {
        adjective.or(question)
    } else {
        question.or(adjective)
    };
    let after = if rng.chance(0.5) {
        audience.or(tail)
    } else {
        tail.or(audience)
    };
    // Compared: apps, services and ideas with their kind ("index funds vs dividend
    // stocks"), things only with a like thing ("running shoes vs carbon plate shoes").
    let comparable = matches!(head.kind, Kind::Software | Kind::Service | Kind::Concept);
    let sibling = {
        let i = rng.below(theme.len().max(1) as u64) as usize;
        theme
            .get(i)
            .filter(|s| s.kind == head.kind && s.term != head.term)
            .filter(|s| comparable || clash(s.term, head.term))
            .map(|s| s.term)
    };
    // [before the head, just before it, after it, last]
    let parts: [Option<&str>; 4] = match roll {
        0..=2 => [None; 4],
        3..=14 => [before, None, None, None],
        15..=29 => [None, None, after, None],
        30..=49 => [adjective, attribute, None, tail.or(audience)],
        50..=59 => [question.or(adjective), None, audience, None],
        60..=79 => [None, attribute, audience, tail],
        80..=91 => [adjective, attribute, audience, tail],
        _ => match sibling {
            Some(s) => return format!("{} vs {s}", head.term),
            None => [None, None, after, None],
        },
    };
    // Words so far as stem bits: the exact test runs only when bits meet (seldom).
    let mut kept: [Option<&str>; 4] = [None; 4];
    let mut used = stem_bits(head.term);
    let mut has_place = false;
    for (i, part) in parts.iter().enumerate() {
        if let Some(w) = part {
            let bits = stem_bits(w);
            let place = w.starts_with("in ") || *w == "near me";
            let meets = bits & used != 0 || (place && has_place);
            let earlier = kept[..i].iter().flatten();
            if !meets || (!clash(w, head.term) && !earlier.clone().any(|e| clash(w, e))) {
                kept[i] = Some(w);
                used |= bits;
                has_place |= place;
            }
        }
    }
    let mut q = String::with_capacity(head.term.len() + 40);
    for w in kept[..2].iter().flatten() {
        q.push_str(w);
        q.push(' ');
    }
    q.push_str(head.term);
    for w in kept[2..].iter().flatten() {
        q.push(' ');
        q.push_str(w);
    }
    q
}

/// A query on a random head of `theme`.
pub(crate) fn theme_query(rng: &mut Rng, theme: &[Head]) -> String {
    match theme.get(rng.below(theme.len() as u64) as usize) {
        Some(head) => query(rng, head, theme),
        None => String::new(),
    }
}

/// A map by word(s), hashed with FNV (looked up several times per keyword).
type Map<V> = HashMap<&'static str, V, FnvBuild>;

struct Vocabulary {
    /// Head term → (theme index, head).
    heads: Map<(usize, &'static Head)>,
    /// Modifiers placed before a head, by their first word.
    before: Map<Vec<&'static str>>,
    /// Modifiers placed after a head, by their last word.
    after: Map<Vec<&'static str>>,
}

fn vocabulary() -> &'static Vocabulary {
    static V: OnceLock<Vocabulary> = OnceLock::new();
    V.get_or_init(|| {
        let mut heads = Map::default();
        for (t, (_, theme)) in THEMES.iter().enumerate() {
            for head in theme.iter() {
                heads.insert(head.term, (t, head));
            }
        }
        let mut before: Map<Vec<&'static str>> = Map::default();
        let mut after: Map<Vec<&'static str>> = Map::default();
        let add = |map: &mut Map<Vec<&'static str>>, key, w: &'static str| {
            let list = map.entry(key).or_default();
            if !list.contains(&w) {
                list.push(w);
            }
        };
        for kind in KINDS {
            let m = modifiers(kind);
            for w in m.adjectives.iter().chain(m.attributes).chain(m.questions) {
                let first = w.split(' ').next().unwrap_or(w);
                add(&mut before, first, w);
            }
            for w in m.audiences.iter().chain(m.tails) {
                let last = w.rsplit(' ').next().unwrap_or(w);
                add(&mut after, last, w);
            }
        }
        Vocabulary {
            heads,
            before,
            after,
        }
    })
}

/// The head term named exactly `term`, with its theme's index.
pub(crate) fn head_named(term: &str) -> Option<(usize, &'static Head)> {
    vocabulary().heads.get(term).copied()
}

/// A keyword's family (lower case, trimmed keyword in): the keyword with the modifiers of
/// [`query`] taken off both ends until a head term is left, or nothing more comes off; the
/// left side of "x vs y". "best winter coat for women sale" and "winter coat" are one family.
pub(crate) fn family_of(keyword: &str) -> &str {
    let v = vocabulary();
    let start = keyword.split(" vs ").next().unwrap_or(keyword).trim();
    // Breadth first over "one word group off the end" and "off the start", so the first
    // head met is the one with the fewest modifiers taken off ("cheap flights deals" is
    // "cheap flights", not "flights"; "free note taking app" is not "note taking": "app" is
    // a modifier too). A family outside the lists is what is left when nothing more comes
    // off, ends first.
    if v.heads.contains_key(start) {
        return start;
    }
    let mut level: Vec<&str> = vec![start];
    let mut family = start;
    for _ in 0..6 {
        let mut next: Vec<&str> = Vec::new();
        for k in &level {
            let first = k.split(' ').next().unwrap_or(k);
            let last = k.rsplit(' ').next().unwrap_or(k);
            // The longest modifier that ends (starts) the keyword as whole words.
            let after = v.after.get(last).and_then(|ws| {
                ws.iter()
                    .filter(|w| k.len() > w.len() + 1 && k.ends_with(**w))
                    .filter(|w| k.as_bytes()[k.len() - w.len() - 1] == b' ')
                    .max_by_key(|w| w.len())
                    .map(|w| &k[..k.len() - w.len() - 1])
            });
            let before = v.before.get(first).and_then(|ws| {
                ws.iter()
                    .filter(|w| k.len() > w.len() + 1 && k.starts_with(**w))
                    .filter(|w| k.as_bytes()[w.len()] == b' ')
                    .max_by_key(|w| w.len())
                    .map(|w| &k[w.len() + 1..])
            });
            for child in [after, before].into_iter().flatten() {
                if v.heads.contains_key(child) {
                    return child;
                }
                if !next.contains(&child) {
                    next.push(child);
                }
            }
        }
        match next.first() {
            Some(first) => family = first,
            None => break,
        }
        level = next;
    }
    family
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_come_back_from_every_form() {
        let mut rng = Rng::new(5);
        for (_, theme) in THEMES {
            for head in theme.iter() {
                for _ in 0..40 {
                    let q = query(&mut rng, head, theme);
                    assert_eq!(family_of(&q), head.term, "{q}");
                    let q = long_query(&mut rng, head, theme);
                    assert_eq!(family_of(&q), head.term, "{q}");
                }
            }
        }
        assert_eq!(family_of("winter coat sale"), "winter coat");
        assert_eq!(family_of("cheap flights"), "cheap flights");
        assert_eq!(family_of("best cheap flights deals"), "cheap flights");
        assert_eq!(family_of("garden gnome"), "garden gnome");
        assert_eq!(family_of("best"), "best");
        assert_eq!(family_of(""), "");
    }
}
