//! Keyword data: search volume (single and bulk), ranked keywords of a domain, related
//! keywords.

use serpkit::ops;

use std::collections::HashSet;

use super::universe::{country_scale, domain_heads, head_keyword, keyword_profile, KeywordProfile};
use super::{
    bucket, made_up_domain, ranked_keywords_size, round_to, slug, theme_for, theme_keyword,
};
use crate::date::Date;
use crate::json::{arr, obj, Obj};
use crate::rng::Rng;
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
    let mut sum = 0.0;
    for (i, slot) in monthly.iter_mut().enumerate() {
        let idx = now - 11 + i as i64;
        let (y, m) = Date::from_month_index(idx);
        let mut noise_rng = Rng::from_parts(&["kwm", &kw, &cc, &idx.to_string()]);
        let v = profile.month_volume(i, m, country, noise_rng.float(0.9, 1.1));
        let v = bucket(v.max(0.0));
        sum += v as f64;
        *slot = (y, m, v);
    }
    KeywordStats {
        monthly,
        volume: bucket(sum / 12.0),
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
// Ranked keywords

fn write_rk_metrics(o: &mut Obj<'_>, rng: &mut Rng, domain: &str, total: i64) {
    // Shares of the rank ranges 1, 2-3, 4-10, 11-20, ..., 91-100 (index 8 is 61-70, which
    // has no field but counts in the total).
    let weights = [
        1.0, 2.0, 7.0, 11.0, 11.0, 11.0, 11.0, 11.0, 12.0, 12.0, 11.0, 10.0,
    ];
    let mut counts = [0i64; 12];
    let sum: f64 = weights.iter().sum();
    for (c, w) in counts.iter_mut().zip(weights) {
        *c = (total as f64 * w / sum * rng.float(0.6, 1.4)).round() as i64;
    }
    let total: i64 = counts.iter().sum();
    let names = [
        "position_1",
        "position_2_3",
        "position_4_10",
        "position_11_20",
        "position_21_30",
        "position_31_40",
        "position_41_50",
        "position_51_60",
        "",
        "position_71_80",
        "position_81_90",
        "position_91_100",
    ];
    o.s("domain", domain).i("total_ranked_keywords", total);
    for (name, c) in names.iter().zip(counts) {
        if !name.is_empty() {
            o.i(name, c);
        }
    }
}

/// `ranked-keywords/metrics`: the requested domain first, then 8..=30 competing domains by
/// total ranked keywords descending.
pub fn ranked_keywords_metrics(domain: &str) -> String {
    let mut rng = Rng::from_parts(&["rkm", &domain.to_ascii_lowercase()]);
    let mut others: Vec<(String, i64)> = (0..rng.range(8, 30))
        .map(|_| (made_up_domain(&mut rng), rng.log_range(50, 2_000_000)))
        .collect();
    others.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    others.dedup_by(|a, b| a.0 == b.0);
    let own = ranked_keywords_size(domain) as i64;
    let mut out = String::with_capacity(others.len() * 330 + 330);
    arr(&mut out, |a| {
        a.o(|o| write_rk_metrics(o, &mut rng, domain, own));
        for (d, total) in &others {
            if !d.eq_ignore_ascii_case(domain) {
                a.o(|o| write_rk_metrics(o, &mut rng, d, *total));
            }
        }
    });
    out
}

/// `ranked-keywords/domain` with exactly `n` records, by search volume descending. Keywords
/// come from the domain's head terms (see [`super::universe`]), distinct while the tries
/// allow (a repeat is the keyword ranking with another URL); volumes are the keywords' own
/// (US); `seed` varies the rest. URLs are on `domain`.
pub fn ranked_keywords_domain(domain: &str, n: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_0001);
    let heads = domain_heads(domain);
    let host = domain.to_ascii_lowercase();
    let www = rng.chance(0.5);
    let pages: Vec<String> = (0..(n / 6).clamp(1, 4_000))
        .map(|i| {
            let pool = if i % 5 == 4 { &heads.side } else { &heads.main };
            let head = *rng.pick(pool);
            let kw = head_keyword(&mut rng, head);
            let dir = ["blog", "guides", "products", "reviews", "learn", "p"][i % 6];
            let w = if www { "www." } else { "" };
            if i == 0 {
                format!("https://{w}{host}/")
            } else {
                format!("https://{w}{host}/{dir}/{}", slug(&kw))
            }
        })
        .collect();
    let mut seen: HashSet<String> = HashSet::with_capacity(n);
    let mut rows: Vec<(String, f64, i64, i64, i64, i64, usize)> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut kw = String::new();
        for _ in 0..8 {
            let pool = if rng.chance(0.85) {
                &heads.main
            } else {
                &heads.side
            };
            let head = *rng.pick(pool);
            kw = head_keyword(&mut rng, head);
            if !seen.contains(&kw) {
                break;
            }
        }
        seen.insert(kw.clone());
        let profile = keyword_profile(&kw);
        let volume = mean_volume(&profile, 1.0);
        let competition = round_to(
            (profile.competition * 100.0 + rng.float(-5.0, 5.0)).clamp(0.0, 100.0),
            2,
        );
        let backlinks = if rng.chance(0.15) {
            0
        } else {
            rng.log_range(1, 60_000)
        };
        let refdomains = if backlinks == 0 {
            0
        } else {
            rng.log_range(1, backlinks)
        };
        let rank = rng.log_range(1, 100);
        let page = (rng.below(pages.len() as u64)) as usize;
        rows.push((kw, competition, volume, backlinks, refdomains, rank, page));
    }
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.5.cmp(&b.5)));
    let mut out = String::with_capacity(n * 190 + 2);
    arr(&mut out, |a| {
        for (kw, comp, vol, bl, rd, rank, page) in &rows {
            a.o(|o| {
                o.s("keyword", kw)
                    .f("competition", *comp)
                    .i("search_volume", *vol)
                    .i("total_backlinks", *bl)
                    .i("total_referring_domains", *rd)
                    .i("rank", *rank)
                    .s("url", &pages[*page]);
            });
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Related

/// `related`: 20..=50 related keywords of the seed keyword, by search volume descending;
/// each keyword's figures are its own (the same in `search_volume`).
pub fn related(keyword: &str, ccode: &str) -> String {
    let kw = keyword.trim().to_lowercase();
    let mut rng = Rng::from_parts(&["related", &kw, &ccode.to_ascii_lowercase()]);
    let country = country_scale(ccode);
    let heads: &[&str] = theme_for(keyword);
    let n = rng.range(20, 50) as usize;
    let mut seen = std::collections::BTreeSet::new();
    seen.insert(kw.clone());
    let mut rows: Vec<(String, f64, f64, i64, i64)> = Vec::with_capacity(n);
    let mut tries = 0;
    while rows.len() < n && tries < n * 20 {
        tries += 1;
        let k = match rng.below(5) {
            0 => format!("{} {kw}", rng.pick(PREFIXES)),
            1 => format!("{kw} {}", rng.pick(SUFFIXES)),
            2 => format!("{} {kw} {}", rng.pick(PREFIXES), rng.pick(SUFFIXES)),
            3 => format!("{kw} {}", rng.pick(heads)),
            _ => theme_keyword(&mut rng, heads),
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
