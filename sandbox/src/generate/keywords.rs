//! Keyword data: search volume (single and bulk) and related keywords (ranked keywords are
//! in `ranked.rs`).

use serpkit::ops;

use super::queries::{family_of, head_named, short_query};
use super::universe::{country_scale, keyword_profile, KeywordProfile};
use super::{bucket, round_to, theme_for};
use crate::date::Date;
use crate::json::{arr, obj, Obj};
use crate::rng::{hash_parts, mix, Rng};
use crate::words::*;

// ---------------------------------------------------------------------------------------
// Search volume

/// A keyword's 12 months (oldest first, ending at `today`'s month) and figures in a country.
struct KeywordStats {
    monthly: [(i32, u8, i64); 12],
    volume: i64,
    cpc: f64,
    competition: f64,
}

fn keyword_stats(keyword: &str, ccode: &str, today: Date) -> KeywordStats {
    let kw = keyword.trim().to_lowercase();
    let cc = ccode.to_ascii_lowercase();
    let profile = keyword_profile(&kw);
    let country = country_scale(&cc);
    let now = today.month_index();
    let mut monthly = [(0, 1, 0); 12];
    // One hash of the keyword and country, mixed with each month: a month's noise is its own.
    let noise_seed = hash_parts(&["kwm", &kw, &cc]);
    for (i, slot) in monthly.iter_mut().enumerate() {
        let idx = now - 11 + i as i64;
        let (y, m) = Date::from_month_index(idx);
        let mut noise_rng = Rng::new(mix(noise_seed ^ idx as u64));
        let v = profile.month_volume(i, m, country, noise_rng.float(0.9, 1.1));
        let v = bucket(v.max(0.0));
        *slot = (y, m, v);
    }
    // The keyword's own mean month, as related and ranked keywords report it (one keyword,
    // one volume in every operation); the months swing around it.
    KeywordStats {
        monthly,
        volume: mean_volume(&profile, country),
        cpc: round_to(profile.cpc, 2),
        competition: round_to(profile.competition, 2),
    }
}

/// A keyword's volume where no month is shown (ranked and related keywords): its mean month
/// in the country, rounded like every volume.
fn mean_volume(profile: &KeywordProfile, country: f64) -> i64 {
    bucket(profile.base * country)
}

fn write_search_volume(o: &mut Obj<'_>, keyword: &str, ccode: &str, today: Date) {
    let st = keyword_stats(keyword, ccode, today);
    o.s("ccode", &ccode.to_ascii_lowercase())
        .s("keyword", keyword)
        .f("AVERAGE_CPC", st.cpc)
        .f("COMPETITION", st.competition)
        .i("SEARCH_VOLUME", st.volume)
        .a("TARGETED_MONTHLY_SEARCHES", |a| {
            for (y, m, v) in st.monthly {
                let name = ops::search_volume_bulk::MONTH_NAMES[usize::from(m - 1)];
                a.o(|e| {
                    e.s("month", name)
                        .i("year", i64::from(y))
                        .i("value", v)
                        .i("count", v)
                        .s("date", &format!("{y}-{name}"));
                });
            }
        });
}

/// `search_volume/bulk`: one record per keyword, in request order.
pub fn search_volume_bulk(keywords: &[String], ccode: &str, today: Date) -> String {
    let mut out = String::with_capacity(keywords.len() * 900);
    arr(&mut out, |a| {
        for k in keywords {
            a.o(|o| write_search_volume(o, k, ccode, today));
        }
    });
    out
}

/// `search_volume/single`: one record object.
pub fn search_volume_single(keyword: &str, ccode: &str, today: Date) -> String {
    let mut out = String::with_capacity(900);
    obj(&mut out, |o| write_search_volume(o, keyword, ccode, today));
    out
}

// ---------------------------------------------------------------------------------------
// Related

/// True when a word of `keyword` comes twice (a plural as its singular): "best best
/// running shoes", "running shoes for women for men".
fn repeats_a_word(keyword: &str) -> bool {
    let words: Vec<&str> = keyword
        .split_whitespace()
        .map(|w| w.strip_suffix('s').unwrap_or(w))
        .collect();
    words
        .iter()
        .enumerate()
        .any(|(i, w)| words[..i].contains(w))
}

/// `related`: 20..=50 related keywords of the seed keyword, by search volume descending;
/// each keyword's figures are its own (the same in `search_volume`). They are the seed with
/// the modifiers of its head's kind (a head named in it, else the closest theme's first head)
/// and other queries of its theme.
pub fn related(keyword: &str, ccode: &str) -> String {
    let kw = keyword.trim().to_lowercase();
    let mut rng = Rng::from_parts(&["related", &kw, &ccode.to_ascii_lowercase()]);
    let country = country_scale(ccode);
    let (theme, kind): (&[Head], Kind) = match head_named(family_of(&kw)) {
        Some((t, head)) => (THEMES[t].1, head.kind),
        None => {
            let theme = theme_for(keyword);
            (theme, theme.first().map_or(Kind::Gear, |h| h.kind))
        }
    };
    let m = modifiers(kind);
    let n = rng.range(20, 50) as usize;
    let mut seen = std::collections::BTreeSet::new();
    seen.insert(kw.clone());
    let mut rows: Vec<(String, f64, f64, i64, i64)> = Vec::with_capacity(n);
    let mut tries = 0;
    while rows.len() < n && tries < n * 20 {
        tries += 1;
        let pick = |rng: &mut Rng, words: &'static [&'static str]| {
            words
                .get(rng.below(words.len().max(1) as u64) as usize)
                .copied()
        };
        // The seed with one modifier that repeats none of its words, or a short query on a
        // head of its theme: queries as people type them.
        let k = match rng.below(5) {
            0 => pick(&mut rng, m.adjectives).map(|a| format!("{a} {kw}")),
            1 => pick(&mut rng, m.tails).map(|t| format!("{kw} {t}")),
            2 => pick(&mut rng, m.questions).map(|q| format!("{q} {kw}")),
            3 => pick(&mut rng, m.audiences).map(|a| format!("{kw} {a}")),
            _ => theme
                .get(rng.below(theme.len() as u64) as usize)
                .map(|head| short_query(&mut rng, head, theme)),
        };
        let Some(k) = k.filter(|k| !repeats_a_word(k)) else {
            continue;
        };
        if !seen.insert(k.clone()) {
            continue;
        }
        let profile = keyword_profile(&k);
        let volume = mean_volume(&profile, country);
        rows.push((
            k,
            round_to(profile.competition, 2),
            round_to(profile.cpc, 2),
            volume,
            profile.difficulty,
        ));
    }
    rows.sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(&b.0)));
    let mut out = String::with_capacity(n * 110);
    arr(&mut out, |a| {
        for (k, comp, cpc, vol, kd) in &rows {
            a.o(|o| {
                o.s("keyword", k)
                    .f("competition", *comp)
                    .f("cpc", *cpc)
                    .i("search_volume", *vol)
                    .i("kd", *kd);
            });
        }
    });
    out
}
