//! Properties of the demo data the research views rely on, and a timing check. The tests
//! read the generator's public answers only, so each one states what a user of the data sees.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use serpkit::{Operation, Request};

use super::*;

/// Demo domains: the app's placeholders and e2e domains (one topic), and others.
const DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "shop.example.org",
    "news.example.net",
    "nova.io",
    "peakcraft.de",
    "running-hub.com",
    "size-3000.example.co.uk",
];

fn day(offset: i64) -> Date {
    Date::new(2024, 3, 5).unwrap().add_days(offset)
}

fn request(op: Operation, json: Value) -> Request {
    Request::from_json(op, &json.to_string()).unwrap()
}

/// A domain's ranked keywords on a day, as (keyword, rank, url).
fn ranked(domain: &str, on: Date) -> Vec<(String, i64, String)> {
    let req = request(
        Operation::RankedKeywordsDomain,
        serde_json::json!({ "domain": domain }),
    );
    let body = body(&req, on);
    let report = serpkit::validate::validate(Operation::RankedKeywordsDomain, &body, Some(&req));
    assert!(
        report.error_count() + report.warning_count() == 0,
        "{domain}: {report}"
    );
    let v: Vec<Value> = serde_json::from_str(&body).unwrap();
    v.iter()
        .map(|r| {
            (
                r["keyword"].as_str().unwrap().to_owned(),
                r["rank"].as_i64().unwrap(),
                r["url"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Every head term of the word lists.
fn head_terms() -> Vec<&'static str> {
    crate::words::THEMES
        .iter()
        .flat_map(|(_, hs)| hs.iter().map(|h| h.term))
        .collect()
}

/// The brand searchers type for a domain (its site name).
fn brand(domain: &str) -> String {
    site_name(domain).replace('-', " ")
}

#[test]
fn ranking_urls_are_about_their_keywords() {
    let heads = head_terms();
    for d in DOMAINS {
        let b = brand(d);
        let rows = ranked(d, day(0));
        let mut checked = 0;
        for (k, _, url) in &rows {
            assert!(url.contains(&site_name(d)), "{d}: {url}");
            if k.contains(&b) || k.contains(&site_name(d)) {
                continue;
            }
            let named: Vec<&&str> = heads.iter().filter(|h| k.contains(**h)).collect();
            assert!(!named.is_empty(), "{d}: {k:?} names no head term");
            assert!(
                named.iter().any(|h| url.contains(&slug(h))),
                "{d}: {k:?} ranks with {url}"
            );
            checked += 1;
        }
        assert!(
            checked * 10 >= rows.len() * 9,
            "{d}: {checked} of {}",
            rows.len()
        );
    }
}

/// The metrics' rank ranges as their field names state them: `position_<first>_<last>`, and
/// `position_1` for rank 1.
fn rank_fields(metrics: &Value) -> Vec<(String, i64, i64)> {
    let fields = metrics.as_object().map(|o| o.keys()).into_iter().flatten();
    fields
        .filter_map(|field| {
            let range = field.strip_prefix("position_")?;
            let (first, last) = range.split_once('_').unwrap_or((range, range));
            Some((field.clone(), first.parse().ok()?, last.parse().ok()?))
        })
        .collect()
}

#[test]
fn ranks_follow_the_domains_rank_buckets() {
    for d in DOMAINS {
        let req = request(
            Operation::RankedKeywordsMetrics,
            serde_json::json!({ "domain": d }),
        );
        let metrics: Vec<Value> = serde_json::from_str(&body(&req, day(0))).unwrap();
        let own = &metrics[0];
        let total = own["total_ranked_keywords"].as_i64().unwrap() as f64;
        let field = |f: &str| own[f].as_i64().unwrap() as f64 / total;
        let top10 = field("position_1") + field("position_2_3") + field("position_4_10");
        let ranges = rank_fields(own);
        assert_eq!(ranges.len(), 11, "{d}: {ranges:?}");
        for offset in [0, 1, 40] {
            let rows = ranked(d, day(offset));
            assert_eq!(
                rows.len() as f64,
                total,
                "{d}: the metrics' total is the row count"
            );
            let count = |first: i64, last: i64| {
                let within = rows
                    .iter()
                    .filter(|(_, rank, _)| (first..=last).contains(rank));
                within.count() as f64
            };
            let n = rows.len() as f64;
            // Within the noise of the daily movement: 3 standard deviations of a count.
            let near =
                |got: f64, share: f64| (got - share * n).abs() <= 3.0 * (share * n).sqrt() + 2.0;
            let got10 = count(1, 10);
            assert!(
                near(got10, top10),
                "{d} day {offset}: {got10} in the top 10, the buckets say {:.0}",
                top10 * n
            );
            for (f, first, last) in ranges.iter().filter(|(_, first, _)| *first > 10) {
                let got = count(*first, *last);
                assert!(
                    near(got, field(f)),
                    "{d} day {offset} {f}: {got}, the buckets say {:.0}",
                    field(f) * n
                );
            }
        }
    }
}

#[test]
fn every_demo_domain_has_brand_queries_at_the_top() {
    for d in DOMAINS {
        let b = brand(d);
        let rows = ranked(d, day(0));
        let branded: Vec<&(String, i64, String)> =
            rows.iter().filter(|r| r.0.contains(&b)).collect();
        assert!(!branded.is_empty(), "{d}: no query with {b:?}");
        assert!(
            branded.len() * 20 <= rows.len(),
            "{d}: {} of {}",
            branded.len(),
            rows.len()
        );
        assert!(branded.iter().any(|r| r.1 == 1), "{d}: no brand query at 1");
        assert!(branded.iter().any(|r| r.0 == b), "{d}: the bare brand");
    }
}

/// The calendar month (1..=12) with the most searches of each keyword in the US.
fn peak_months(keywords: &[&str]) -> Vec<u8> {
    let body = search_volume_bulk(
        &keywords.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
        "US",
        day(0),
    );
    let v: Vec<Value> = serde_json::from_str(&body).unwrap();
    v.iter()
        .map(|r| {
            let months = r["TARGETED_MONTHLY_SEARCHES"].as_array().unwrap();
            let best = months
                .iter()
                .max_by_key(|m| m["value"].as_i64().unwrap())
                .unwrap();
            let name = best["month"].as_str().unwrap();
            serpkit::ops::search_volume_bulk::MONTH_NAMES
                .iter()
                .position(|m| *m == name)
                .unwrap() as u8
                + 1
        })
        .collect()
}

#[test]
fn keyword_families_share_a_season() {
    let winter = [
        "winter coat",
        "winter coat sale",
        "best winter coat for women",
        "how to clean winter coat",
        "cheap black winter coat for men under 100",
        "wool socks",
        "wool socks for kids",
    ];
    for (k, m) in winter.iter().zip(peak_months(&winter)) {
        assert!([11, 12, 1].contains(&m), "{k}: peaks in month {m}");
    }
    let summer = [
        "summer dress",
        "summer dress sale",
        "cheap summer dress for women",
    ];
    for (k, m) in summer.iter().zip(peak_months(&summer)) {
        assert!([5, 6, 7].contains(&m), "{k}: peaks in month {m}");
    }
    // A family outside the word lists peaks together too, when it peaks.
    let made_up = [
        "garden gnome",
        "garden gnome sale",
        "best garden gnome",
        "garden gnome reviews",
    ];
    let seasons: HashSet<String> = made_up
        .iter()
        .map(|k| universe::keyword_profile(k))
        .filter(|p| p.base > 0.0)
        .map(|p| format!("{:?}", p.season_months()))
        .collect();
    assert_eq!(seasons.len(), 1, "{seasons:?}");
}

#[test]
fn keywords_are_queries_people_type() {
    let questions = ["what is", "how to", "where to", "how long"];
    let commercial = [
        "sale", "deals", "price", "pricing", "under", "near me", "review", "reviews", "coupon",
        "cost",
    ];
    let mut keywords: Vec<String> = Vec::new();
    for d in DOMAINS {
        keywords.extend(ranked(d, day(0)).into_iter().map(|r| r.0));
    }
    for seed in ["running shoes", "credit score", "vpn", "garden gnome"] {
        let v: Vec<Value> = serde_json::from_str(&related(seed, "US")).unwrap();
        keywords.extend(v.iter().map(|r| r["keyword"].as_str().unwrap().to_owned()));
    }
    for k in &keywords {
        let words: Vec<&str> = k.split(' ').collect();
        assert!(
            words.last() != Some(&"vs") && words.first() != Some(&"vs"),
            "{k:?}"
        );
        let fors = words.iter().filter(|w| **w == "for").count();
        assert!(fors <= 1, "{k:?}: two audiences");
        if questions.iter().any(|q| k.starts_with(q)) {
            assert!(
                !commercial.iter().any(|c| words.contains(c)),
                "{k:?}: a question with a price"
            );
        }
        let distinct: HashSet<&str> = words.iter().map(|w| w.trim_end_matches('s')).collect();
        assert!(
            distinct.len() == words.len() || k.contains(" vs "),
            "{k:?}: a word twice"
        );
    }
}

#[test]
fn some_keywords_rank_with_two_urls_of_one_domain() {
    for d in DOMAINS {
        let rows = ranked(d, day(0));
        let mut urls: HashMap<&str, HashSet<&str>> = HashMap::new();
        for (k, _, url) in &rows {
            urls.entry(k.as_str()).or_default().insert(url.as_str());
        }
        let cannibalised = urls.values().filter(|u| u.len() >= 2).count();
        let n = rows.len();
        assert!(
            cannibalised >= (n / 200).max(1) && cannibalised <= n / 20,
            "{d}: {cannibalised} of {}",
            rows.len()
        );
    }
}

#[test]
fn ranks_drift_from_one_day_to_the_next() {
    for d in DOMAINS {
        let today = ranked(d, day(0));
        assert_eq!(today, ranked(d, day(0)), "{d}: the same day, the same body");
        let best = |rows: &[(String, i64, String)]| {
            let mut m: HashMap<String, i64> = HashMap::new();
            for (k, r, u) in rows {
                let e = m.entry(format!("{k} {u}")).or_insert(*r);
                *e = (*e).min(*r);
            }
            m
        };
        let (a, b) = (best(&ranked(d, day(-1))), best(&today));
        let new = b.keys().filter(|k| !a.contains_key(*k)).count();
        let lost = a.keys().filter(|k| !b.contains_key(*k)).count();
        let up = b
            .iter()
            .filter(|(k, r)| a.get(*k).is_some_and(|p| *r < p))
            .count();
        let down = b
            .iter()
            .filter(|(k, r)| a.get(*k).is_some_and(|p| *r > p))
            .count();
        let n = b.len();
        assert!(
            new > 0 && lost > 0 && up > 0 && down > 0,
            "{d}: new {new}, lost {lost}, up {up}, down {down}"
        );
        assert!(
            (new + lost + up + down) * 4 <= n,
            "{d}: {new} new, {lost} lost, {up} up, {down} down of {n}"
        );
    }
}

/// Generation time (run with `--release --ignored --nocapture`): the demo's bulk job and
/// its largest ranked-keywords body.
#[test]
#[ignore]
fn timing() {
    let today = Date::new(2024, 3, 5).unwrap();
    // The app bench's 10,000 keywords (bench/app/run.mjs, tenThousandKeywords).
    let heads = [
        "best",
        "cheap",
        "how to choose",
        "top",
        "what is",
        "buy",
        "free",
        "review of",
        "near me",
        "why",
    ];
    let topics = [
        "running", "trail", "marathon", "yoga", "cycling", "hiking", "tennis", "golf", "swim",
        "ski", "climbing", "boxing", "rowing", "surf", "skate", "dance", "camping", "fishing",
        "soccer", "rugby",
    ];
    let things = [
        "shoes",
        "socks",
        "watch",
        "jacket",
        "bag",
        "bottle",
        "mat",
        "gloves",
        "shorts",
        "hat",
        "plan",
        "app",
        "coach",
        "club",
        "course",
        "guide",
        "tips",
        "gear",
        "deals",
        "for women",
        "for men",
        "for kids",
        "for beginners",
        "vs",
        "online",
        "sale",
        "store",
        "rental",
        "repair",
        "brands",
        "sizes",
        "reviews",
        "outlet",
        "set",
        "kit",
        "bundle",
        "lights",
        "belt",
        "vest",
        "cap",
        "boots",
        "tights",
        "bra",
        "pack",
        "poles",
        "helmet",
        "tracker",
        "headphones",
        "sunglasses",
        "towel",
    ];
    let mut kws: Vec<String> = Vec::new();
    for h in heads {
        for t in topics {
            for x in things {
                kws.push(format!("{h} {t} {x}"));
            }
        }
    }
    let best = |f: &dyn Fn() -> usize| {
        (0..15)
            .map(|_| {
                let t = std::time::Instant::now();
                std::hint::black_box(f());
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::MAX, f64::min)
    };
    let bulk = best(&|| {
        kws.chunks(200)
            .map(|c| search_volume_bulk(c, "US", today).len())
            .sum()
    });
    let rk = best(&|| ranked_keywords_domain("size-100000.example.com", 100_000, 3).len());
    eprintln!("search_volume_bulk 10,000 keywords: {bulk:.1} ms; ranked_keywords_domain 100,000: {rk:.1} ms");
}

#[test]
fn ranked_volumes_are_the_keywords_own() {
    for d in ["example.com", "nova.io", "size-30000.example.com"] {
        let text =
            ranked_keywords_domain_on(d, ranked_keywords_size(d), fnv1a(d.as_bytes()), day(0));
        let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
        for r in rows.iter().step_by(7) {
            let k = r["keyword"].as_str().unwrap();
            let own = bucket(universe::keyword_profile(k).base);
            assert_eq!(r["search_volume"].as_i64().unwrap(), own, "{d}: {k}");
        }
    }
}

/// The figures (volume, CPC, competition 0–1) each operation reports for a keyword, by
/// lower-cased keyword; ranked keywords give no CPC and competition 0–100.
type Figures = HashMap<String, (i64, Option<f64>, f64)>;

fn figures_of(op: Operation, json: Value, on: Date) -> Figures {
    let req = request(op, json);
    let body = body(&req, on);
    let report = serpkit::validate::validate(op, &body, Some(&req));
    assert_eq!(report.error_count() + report.warning_count(), 0, "{report}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let rows = match v {
        Value::Array(rows) => rows,
        one => vec![one],
    };
    rows.iter()
        .map(|r| {
            let f = |k: &str| r[k].as_f64();
            let key = r["keyword"].as_str().unwrap().to_lowercase();
            let figures = match op {
                Operation::RankedKeywordsDomain => (
                    r["search_volume"].as_i64().unwrap(),
                    None,
                    f("competition").unwrap() / 100.0,
                ),
                Operation::Related => (
                    r["search_volume"].as_i64().unwrap(),
                    f("cpc"),
                    f("competition").unwrap(),
                ),
                _ => (
                    r["SEARCH_VOLUME"].as_i64().unwrap(),
                    f("AVERAGE_CPC"),
                    f("COMPETITION").unwrap(),
                ),
            };
            (key, figures)
        })
        .collect()
}

#[test]
fn one_keyword_has_one_volume_cpc_and_competition_in_every_operation() {
    // Keywords from ranked keywords and from related keywords, asked again in bulk and one
    // by one: every operation reports the same figures for one keyword (issue 43: "running
    // shoes" had one volume in the explorer and another among related keywords).
    let today = day(0);
    let ranked = figures_of(
        Operation::RankedKeywordsDomain,
        serde_json::json!({ "domain": "example.com" }),
        today,
    );
    let related = figures_of(
        Operation::Related,
        serde_json::json!({ "keyword": "running shoes", "ccode": "US" }),
        today,
    );
    let mut keywords: Vec<&String> = ranked.keys().take(150).chain(related.keys()).collect();
    keywords.sort();
    keywords.dedup();
    let bulk = figures_of(
        Operation::SearchVolumeBulk,
        serde_json::json!({ "keywords": keywords, "ccode": "US" }),
        today,
    );
    assert_eq!(bulk.len(), keywords.len());
    let mut compared = 0;
    for k in &keywords {
        let b = bulk[*k];
        if let Some(r) = related.get(*k) {
            assert_eq!(*r, b, "{k}: related against bulk");
            compared += 1;
        }
        if let Some(r) = ranked.get(*k) {
            assert_eq!((r.0, r.2), (b.0, b.2), "{k}: ranked against bulk");
            compared += 1;
        }
    }
    for k in keywords.iter().step_by(25) {
        let single = figures_of(
            Operation::SearchVolumeSingle,
            serde_json::json!({ "keyword": k, "ccode": "US" }),
            today,
        );
        assert_eq!(single[*k], bulk[*k], "{k}: single against bulk");
    }
    assert!(compared >= 150, "{compared} comparisons");
}

/// (volume, CPC, peak month ÷ monthly mean) of each keyword in the US, from search volume.
fn planner_view(keywords: &[&str]) -> Vec<(i64, f64, f64)> {
    let keywords: Vec<String> = keywords.iter().map(|k| k.to_string()).collect();
    let v: Vec<Value> = serde_json::from_str(&search_volume_bulk(&keywords, "US", day(0))).unwrap();
    v.iter()
        .map(|r| {
            let months: Vec<f64> = r["TARGETED_MONTHLY_SEARCHES"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["value"].as_f64().unwrap())
                .collect();
            let mean = months.iter().sum::<f64>() / 12.0;
            let peak = months.iter().copied().fold(0.0, f64::max);
            (
                r["SEARCH_VOLUME"].as_i64().unwrap(),
                r["AVERAGE_CPC"].as_f64().unwrap(),
                if mean > 0.0 { peak / mean } else { 0.0 },
            )
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
}

#[test]
fn demo_figures_an_seo_person_believes() {
    // The cases, tried against the sandbox server: CPC was random per keyword, so
    // finance, legal and software terms had the median CPC of questions.
    let money = [
        "crm software",
        "car insurance",
        "personal loan",
        "mortgage rates",
        "credit card",
        "divorce lawyer",
        "personal injury attorney",
        "password manager",
        "project management tool",
        "web hosting",
    ];
    let questions = [
        "how to boil an egg",
        "what is a roth ira",
        "how to tie a tie",
        "what is crm",
        "how to change a tire",
        "what is inflation",
        "how to make pancakes",
        "how to start a blog",
        "what is a vpn",
        "how to lose weight",
    ];
    let cpc = |ks: &[&str]| median(planner_view(ks).iter().map(|r| r.1).collect());
    let (m, q) = (cpc(&money), cpc(&questions));
    assert!(m >= 4.0 && m >= 4.0 * q, "money terms {m}, questions {q}");
    let running = planner_view(&["running shoes", "crm software"]);
    assert!(
        running[0].1 < running[1].1,
        "running shoes below crm software: {running:?}"
    );
    // Seasonality by kind: holidays and weather goods seasonal, everyday goods and questions
    // flat (coffee grinder peaked at 9.9× its mean, sunscreen at 1.2×).
    let peaks = planner_view(&[
        "christmas tree",
        "snow boots",
        "sunscreen",
        "coffee grinder",
        "how to boil an egg",
        "vegan curry",
        "yoga mat",
    ]);
    for (k, (_, _, p)) in ["christmas tree", "snow boots", "sunscreen"]
        .iter()
        .zip(&peaks)
    {
        assert!(*p >= 2.5, "{k}: peak {p:.2}× its mean");
    }
    for (k, (_, _, p)) in ["coffee grinder", "how to boil an egg", "vegan curry"]
        .iter()
        .zip(&peaks[3..])
    {
        assert!(*p <= 1.6, "{k}: peak {p:.2}× its mean");
    }
    // A head term always has searches; every volume is one of Keyword Planner's tiers.
    assert!(peaks[6].0 > 0, "yoga mat has volume");
    let tiers = [
        10, 20, 30, 40, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1_000,
        1_300, 1_600, 1_900, 2_400, 2_900, 3_600, 4_400, 5_400, 6_600, 8_100, 9_900, 12_100,
        14_800, 18_100, 22_200, 27_100, 33_100, 40_500, 49_500, 60_500, 74_000, 90_500, 110_000,
        135_000, 165_000, 201_000, 246_000, 301_000, 368_000, 450_000, 550_000, 673_000, 823_000,
        1_000_000,
    ];
    for (v, _, _) in planner_view(&money).into_iter().chain(peaks) {
        assert!(v == 0 || tiers.contains(&v), "{v} is no planner tier");
    }
}

#[test]
fn demo_competitors_share_keywords_as_real_ones_do() {
    // The case: example.com against example.org and shop.example.org showed Shared
    // (0). By the gap's rule (you in the top 100, every competitor in its top 20), sister
    // sites of one topic share keywords, and the competitors rank for keywords you do not.
    let best = |d: &str, top: i64| -> HashMap<String, i64> {
        let mut m = HashMap::new();
        for (k, r, _) in ranked(d, day(0)) {
            if r > 0 && r <= top {
                let e = m.entry(k.to_lowercase()).or_insert(r);
                *e = (*e).min(r);
            }
        }
        m
    };
    let you = best("example.com", 100);
    let rivals = [best("example.org", 20), best("shop.example.org", 20)];
    let shared = you
        .keys()
        .filter(|k| rivals.iter().all(|r| r.contains_key(*k)))
        .count();
    let untapped = rivals
        .iter()
        .flat_map(|r| r.keys())
        .filter(|k| !you.contains_key(*k))
        .collect::<HashSet<_>>()
        .len();
    // Sister sites of about 2,000, 1,800 and 1,000 ranked keywords (their profiles' sizes):
    // a few of their head terms meet in all three top 20s.
    assert!(shared >= 5, "shared {shared}");
    assert!(untapped >= 20, "untapped {untapped}");
}

#[test]
fn small_sites_rank_best_for_their_long_tail() {
    // A site of a few thousand keywords wins long, small keywords and ranks far down for big
    // ones: its top 10 has a lower median volume than its ranks 51–100.
    let d = "size-900.example.co.uk";
    let text = ranked_keywords_domain_on(d, ranked_keywords_size(d), fnv1a(d.as_bytes()), day(0));
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(rows.len() <= 1_000, "{d}: {} rows", rows.len());
    let volumes = |lo: i64, hi: i64| {
        rows.iter()
            .filter(|r| (lo..=hi).contains(&r["rank"].as_i64().unwrap()))
            .map(|r| r["search_volume"].as_f64().unwrap())
            .collect::<Vec<f64>>()
    };
    let (top, deep) = (volumes(1, 10), volumes(51, 100));
    assert!(top.len() >= 4 && deep.len() >= 4);
    assert!(
        median(top.clone()) < median(deep.clone()),
        "top 10 {} against 51–100 {}",
        median(top),
        median(deep)
    );
}

/// The e2e test's 50 keywords (tests/e2e/serp_clusters.test.mjs): 5 families of 10.
const CLUSTER_FAMILIES: [(&str, [&str; 10]); 5] = [
    (
        "running shoes",
        [
            "running shoes",
            "best running shoes",
            "cheap running shoes",
            "running shoes for women",
            "running shoes for men",
            "waterproof running shoes",
            "running shoes sale",
            "how to clean running shoes",
            "running shoes near me",
            "lightweight running shoes",
        ],
    ),
    (
        "winter coat",
        [
            "winter coat",
            "winter coat sale",
            "best winter coat for women",
            "how to clean winter coat",
            "cheap winter coat",
            "winter coat for men",
            "black winter coat",
            "winter coat for kids",
            "waterproof winter coat",
            "winter coat reviews",
        ],
    ),
    (
        "cast iron skillet",
        [
            "cast iron skillet",
            "best cast iron skillet",
            "how to clean cast iron skillet",
            "cheap cast iron skillet",
            "large cast iron skillet",
            "cast iron skillet sale",
            "cast iron skillet for beginners",
            "small cast iron skillet",
            "cast iron skillet reviews",
            "how to use cast iron skillet",
        ],
    ),
    (
        "sourdough bread",
        [
            "sourdough bread",
            "easy sourdough bread",
            "sourdough bread recipe",
            "how to make sourdough bread",
            "sourdough bread for beginners",
            "healthy sourdough bread",
            "sourdough bread calories",
            "how to store sourdough bread",
            "sourdough bread nutrition",
            "homemade sourdough bread",
        ],
    ),
    (
        "running watch",
        [
            "running watch",
            "best running watch",
            "cheap running watch",
            "running watch for beginners",
            "running watch sale",
            "running watch reviews",
            "how to choose running watch",
            "running watch comparison",
            "affordable running watch",
            "running watch under 200",
        ],
    ),
];

/// The result URLs of a keyword's outline.
fn outline_urls_of(keyword: &str) -> HashSet<String> {
    let v: Vec<Value> = serde_json::from_str(&outline_seo(keyword)).unwrap();
    v.iter()
        .map(|p| {
            let u = p["url"].as_str().unwrap();
            u.replace("://www.", "://")
        })
        .collect()
}

#[test]
fn outlines_of_one_family_share_pages_and_of_two_families_none() {
    let mut same = (0, 0);
    for (head, keywords) in CLUSTER_FAMILIES {
        let urls: Vec<HashSet<String>> = keywords.iter().map(|k| outline_urls_of(k)).collect();
        for (i, k) in keywords.iter().enumerate() {
            assert_eq!(queries::family_of(k), head, "{k}");
            for u in &urls[i + 1..] {
                same.1 += 1;
                same.0 += usize::from(urls[i].intersection(u).count() >= 3);
            }
        }
        for (other, theirs) in CLUSTER_FAMILIES.iter().filter(|(h, _)| *h != head) {
            for (a, b) in keywords.iter().zip(theirs) {
                let shared = outline_urls_of(a).intersection(&outline_urls_of(b)).count();
                assert_eq!(shared, 0, "{a} ({head}) and {b} ({other})");
            }
        }
    }
    // Most pairs of one family share 3 results or more (SERP clustering's usual threshold),
    // not all: a few keywords of a family are a page of their own, as on a real results page.
    let share = same.0 as f64 / same.1 as f64;
    assert!((0.7..1.0).contains(&share), "{same:?}");
    // The same keyword, whatever its case and spaces, has the same results.
    assert_eq!(
        outline_urls_of("Running Shoes"),
        outline_urls_of("running shoes")
    );
}

#[test]
fn a_category_noun_site_ranks_for_its_big_generic_keyword() {
    // hotels.com's brand term "hotels" is a category searched hundreds of thousands of times
    // a month, the case the app's brand warning is for (issue 39); a made-up site's name is not.
    let volume = |domain: &str, keyword: &str| {
        let f = figures_of(
            Operation::RankedKeywordsDomain,
            serde_json::json!({ "domain": domain }),
            day(0),
        );
        f.get(keyword).map(|f| f.0)
    };
    let hotels = volume("hotels.com", "hotels").expect("hotels.com ranks for hotels");
    assert!(hotels >= 100_000, "{hotels}");
    let nova = volume("nova.io", "nova").expect("nova.io ranks for nova");
    assert!(nova < 100_000, "{nova}");
}
