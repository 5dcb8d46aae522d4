//! The world's relations across operations, for 200 domains and 1,000 keywords, read from
//! the bodies the operations return (issue 54: each operation told its own story about a
//! domain and a keyword).

use std::collections::HashMap;

use serde_json::Value;
use serpkit::{Operation, Request};

use super::queries::{family_of, head_named};
use super::world::topical_name;
use super::*;

fn today() -> Date {
    Date::new(2026, 12, 7).unwrap()
}

/// The body of an operation, checked clean against every rule of the core.
fn answer(op: Operation, json: Value) -> Value {
    answer_in(op, json, true)
}

/// The body of an operation, checked against the core's rules when `check` (the conformance
/// test checks every operation over many seeds; here a tenth of the domains, for time).
fn answer_in(op: Operation, json: Value, check: bool) -> Value {
    let req = Request::from_json(op, &json.to_string()).unwrap();
    let text = body(&req, today());
    if check {
        let report = serpkit::validate::validate(op, &text, Some(&req));
        assert_eq!(
            report.error_count() + report.warning_count(),
            0,
            "{op}: {report}"
        );
    }
    serde_json::from_str(&text).unwrap()
}

fn rows(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap()
}

fn int(v: &Value) -> i64 {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .unwrap()
}

/// Spearman's rank correlation of two series (ties in input order).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let ranks = |v: &[f64]| {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|x, y| v[*x].total_cmp(&v[*y]));
        let mut r = vec![0.0; v.len()];
        for (rank, i) in idx.into_iter().enumerate() {
            r[i] = rank as f64;
        }
        r
    };
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let d2: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - y).powi(2)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// 200 domains: 12 named for each topic, the three running sites, and made-up ones.
fn domains() -> Vec<(String, Option<usize>)> {
    let mut rng = Rng::new(54);
    let mut out: Vec<(String, Option<usize>)> = Vec::new();
    for t in 0..THEMES.len() {
        while out.iter().filter(|(_, n)| *n == Some(t)).count() < 12 {
            let d = topical_name(&mut rng, t);
            if !out.iter().any(|(e, _)| *e == d) {
                out.push((d, Some(t)));
            }
        }
    }
    for d in [
        "runnersworld.example",
        "runrepeat.example",
        "fleetfeet.example",
    ] {
        out.push((d.to_owned(), Some(0)));
    }
    out.push(("nike.com".to_owned(), Some(0)));
    while out.len() < 200 {
        let d = made_up_domain(&mut rng);
        if !out.iter().any(|(e, _)| *e == d) {
            out.push((d, None));
        }
    }
    out
}

/// What the operations say about one domain.
struct Seen {
    ref_domains: i64,
    backlinks: i64,
    authority: i64,
    rank: i64,
    ranked: usize,
    daily_new: i64,
    history: usize,
    /// Share of its ranked keywords in its named topic, where the rows were read.
    topic_share: Option<f64>,
}

fn observe(domain: &str, topic: Option<usize>, stats: &Value, check: bool, rows_too: bool) -> Seen {
    let answer = |op, json| answer_in(op, json, check);
    let ov = answer(
        Operation::BacklinkOverview,
        serde_json::json!({ "domain": domain }),
    );
    let m = &ov["metrics"];
    let (ref_domains, backlinks) = (int(&m["refdomains"]), int(&m["backlinks"]));
    // Domain stats and the overview report one total.
    assert_eq!(int(&stats["betaRefDomains"]), ref_domains, "{domain}");
    assert_eq!(int(&stats["betaLinks"]), backlinks, "{domain}");
    // Over the window, new minus lost never exceeds the total; a day's new (lost) backlinks
    // hold that day's new (lost) referring domains' links.
    let refs = rows(&ov["ref_newlost"]);
    let new = refs.iter().filter(|r| r["new_lost_type"] == "new").count() as i64;
    assert!(
        new - (refs.len() as i64 - new) <= ref_domains,
        "{domain}: referring domains"
    );
    let stats_rows = rows(&ov["stats"]);
    let net: i64 = stats_rows
        .iter()
        .map(|s| int(&s["new"]) - int(&s["lost"]))
        .sum();
    assert!(net <= backlinks, "{domain}: backlinks {net} of {backlinks}");
    for s in stats_rows {
        let day = s["date"].as_str().unwrap();
        let links = |kind: &str| -> i64 {
            refs.iter()
                .filter(|r| r["new_lost_date"] == day && r["new_lost_type"] == kind)
                .map(|r| int(&r["backlinks"]))
                .sum()
        };
        assert!(
            int(&s["new"]) >= links("new") && int(&s["lost"]) >= links("lost"),
            "{domain} {day}"
        );
    }
    // Ranked keywords: the metrics' total is the rows; pages' links are the domain's part.
    let metrics = answer(
        Operation::RankedKeywordsMetrics,
        serde_json::json!({ "domain": domain }),
    );
    let total = int(&rows(&metrics)[0]["total_ranked_keywords"]);
    assert_eq!(total as usize, ranked_keywords_size(domain), "{domain}");
    let mut seen = Seen {
        ref_domains,
        backlinks,
        authority: int(&stats["alphaDA"]),
        rank: int(&stats["alphaRank"]),
        ranked: total as usize,
        daily_new: stats_rows.iter().map(|s| int(&s["new"])).sum(),
        history: refs.len(),
        topic_share: None,
    };
    // The rows themselves (the slow part in a debug build) for some of the domains.
    if !rows_too {
        return seen;
    }
    let ranked = answer(
        Operation::RankedKeywordsDomain,
        serde_json::json!({ "domain": domain }),
    );
    let ranked = rows(&ranked);
    assert_eq!(total, ranked.len() as i64, "{domain}");
    for r in ranked {
        assert!(int(&r["total_backlinks"]) <= backlinks, "{domain}: {r}");
        assert!(
            int(&r["total_referring_domains"]) <= ref_domains,
            "{domain}: {r}"
        );
    }
    let in_topic = ranked
        .iter()
        .filter(|r| {
            // A query of a head of the topic, or the brand's ("nike running shoes review").
            let k = r["keyword"].as_str().unwrap();
            let unbranded = k.split_once(' ').map_or("", |(_, rest)| rest);
            [k, unbranded]
                .iter()
                .any(|k| head_named(family_of(k)).is_some_and(|(t, _)| Some(t) == topic))
        })
        .count();
    seen.topic_share = Some(in_topic as f64 / ranked.len() as f64);
    seen
}

#[test]
fn one_world_behind_every_operation() {
    let list = domains();
    assert_eq!(list.len(), 200);
    let names: Vec<&str> = list.iter().map(|(d, _)| d.as_str()).collect();
    let stats = answer(
        Operation::DomainStats,
        serde_json::json!({ "domains": names }),
    );
    let seen: Vec<Seen> = list
        .iter()
        .zip(rows(&stats))
        .enumerate()
        .map(|(i, ((d, t), s))| observe(d, *t, s, i % 10 == 0, i % 2 == 0 || i >= 120))
        .collect();
    // A domain named for a topic ranks in it.
    let mut named = 0;
    for ((d, t), s) in list.iter().zip(&seen) {
        if let (Some(_), Some(share)) = (t, s.topic_share) {
            assert!(share >= 0.7, "{d}: {share:.2} of its keywords in its topic");
            named += 1;
        }
    }
    assert!(named >= 60, "{named} named domains");
    // Authority grows with referring domains: ten times as many, a higher authority and a
    // better rank.
    for a in &seen {
        for b in &seen {
            if a.ref_domains >= 10 * b.ref_domains {
                assert!(
                    a.authority > b.authority && a.rank < b.rank,
                    "{} {}",
                    a.ref_domains,
                    b.ref_domains
                );
            }
        }
    }
    let col = |f: fn(&Seen) -> f64| seen.iter().map(f).collect::<Vec<f64>>();
    let refd = col(|s| s.ref_domains as f64);
    // Daily counts, churn and ranked keywords scale with the size.
    let by_links = spearman(&col(|s| s.backlinks as f64), &col(|s| s.daily_new as f64));
    assert!(
        by_links >= 0.9,
        "daily new backlinks against backlinks: {by_links:.2}"
    );
    let churn = spearman(&refd, &col(|s| s.history as f64));
    assert!(
        churn >= 0.85,
        "new and lost referring domains against the total: {churn:.2}"
    );
    let keywords = spearman(&refd, &col(|s| s.ranked as f64));
    assert!(
        keywords >= 0.85,
        "ranked keywords against referring domains: {keywords:.2}"
    );
    // Brand searches grow with the site; a household brand is searched millions of times.
    let brands: Vec<String> = list.iter().map(|(d, _)| site_name(d)).collect();
    let volumes = answer(
        Operation::SearchVolumeBulk,
        serde_json::json!({ "keywords": brands, "ccode": "US" }),
    );
    let brand_volume = |i: usize| int(&rows(&volumes)[i]["SEARCH_VOLUME"]);
    let by_brand = spearman(
        &refd,
        &(0..200).map(|i| brand_volume(i) as f64).collect::<Vec<_>>(),
    );
    assert!(
        by_brand >= 0.85,
        "brand searches against referring domains: {by_brand:.2}"
    );
    let nike = names.iter().position(|d| *d == "nike.com").unwrap();
    assert!(
        brand_volume(nike) >= 1_000_000,
        "nike {}",
        brand_volume(nike)
    );
    // Competitors are mostly sites of the domain's topic, and their totals are their rows.
    let (mut same, mut all) = (0, 0);
    for (d, t) in list.iter().filter(|(_, t)| t.is_some()).step_by(12) {
        let m = answer(
            Operation::RankedKeywordsMetrics,
            serde_json::json!({ "domain": d }),
        );
        for c in rows(&m).iter().skip(1) {
            let name = c["domain"].as_str().unwrap();
            all += 1;
            same += usize::from(world::topic_of_name(&site_name(name)) == *t);
            assert_eq!(
                int(&c["total_ranked_keywords"]) as usize,
                ranked_keywords_size(name),
                "{name}"
            );
        }
    }
    assert!(
        same * 10 >= all * 6,
        "{same} of {all} competitors of the topic"
    );
}

#[test]
fn one_volume_per_keyword_in_realistic_ranges() {
    // 1,000 keywords from ranked keywords of ten domains and related keywords of head terms.
    let mut figures: HashMap<String, i64> = HashMap::new();
    let mut note = |k: &str, v: i64, from: &str| {
        if let Some(old) = figures.insert(k.to_owned(), v) {
            assert_eq!(old, v, "{k}: {from}");
        }
    };
    for (d, _) in domains().iter().step_by(20) {
        let ranked = answer(
            Operation::RankedKeywordsDomain,
            serde_json::json!({ "domain": d }),
        );
        for r in rows(&ranked).iter().step_by(5).take(60) {
            note(r["keyword"].as_str().unwrap(), int(&r["search_volume"]), d);
        }
    }
    let seeds: Vec<&str> = THEMES
        .iter()
        .flat_map(|(_, hs)| hs.iter().take(2))
        .map(|h| h.term)
        .collect();
    for seed in &seeds {
        let related = answer(
            Operation::Related,
            serde_json::json!({ "keyword": seed, "ccode": "US" }),
        );
        let (theme, _) = head_named(seed).unwrap();
        for r in rows(&related) {
            let k = r["keyword"].as_str().unwrap();
            note(k, int(&r["search_volume"]), seed);
            // Read like a query: no word twice, at most seven words ("how to set up project
            // management tool"), about the seed's theme.
            let words: Vec<&str> = k.split_whitespace().collect();
            assert!(words.len() <= 7, "{seed}: {k}");
            for (i, w) in words.iter().enumerate() {
                assert!(!words[..i].contains(w), "{seed}: {k}");
            }
            assert!(
                head_named(family_of(k)).is_some_and(|(t, _)| t == theme),
                "{seed}: {k}"
            );
        }
    }
    let keywords: Vec<String> = figures.keys().cloned().collect();
    assert!(keywords.len() >= 1_000, "{} keywords", keywords.len());
    let bulk = answer(
        Operation::SearchVolumeBulk,
        serde_json::json!({ "keywords": keywords, "ccode": "US" }),
    );
    for r in rows(&bulk) {
        let k = r["keyword"].as_str().unwrap();
        assert_eq!(int(&r["SEARCH_VOLUME"]), figures[k], "{k}: search volume");
    }
    for k in keywords.iter().step_by(50) {
        let one = answer(
            Operation::SearchVolumeSingle,
            serde_json::json!({ "keyword": k, "ccode": "US" }),
        );
        assert_eq!(int(&one["SEARCH_VOLUME"]), figures[k], "{k}: single");
    }
    // Head terms in the tens to hundreds of thousands; long tails small.
    let heads: Vec<String> = THEMES
        .iter()
        .flat_map(|(_, hs)| hs.iter().map(|h| h.term.to_owned()))
        .collect();
    let head_volumes = answer(
        Operation::SearchVolumeBulk,
        serde_json::json!({ "keywords": heads, "ccode": "US" }),
    );
    for r in rows(&head_volumes) {
        let v = int(&r["SEARCH_VOLUME"]);
        assert!((9_900..=550_000).contains(&v), "{}: {v}", r["keyword"]);
    }
    let running = rows(&head_volumes)[0]["SEARCH_VOLUME"].as_i64().unwrap();
    assert!(
        (10_000..1_000_000).contains(&running),
        "running shoes {running}"
    );
    let mut long: Vec<i64> = rows(&bulk)
        .iter()
        .filter(|r| r["keyword"].as_str().unwrap().split_whitespace().count() >= 5)
        .map(|r| int(&r["SEARCH_VOLUME"]))
        .collect();
    long.sort();
    assert!(
        long.len() >= 50 && long[long.len() / 2] < 1_000,
        "long tails {:?}",
        &long[long.len() / 2..]
    );
}

#[test]
fn the_same_world_every_time() {
    for (d, _) in domains().iter().take(10) {
        for op in [Operation::BacklinkOverview, Operation::RankedKeywordsDomain] {
            let json = serde_json::json!({ "domain": d });
            assert_eq!(answer(op, json.clone()), answer(op, json), "{op} {d}");
        }
    }
}
