//! Tests of the content gap's lists, cutoffs, brand terms and traffic potential.
use super::*;

/// One domain's columns from (keyword, volume, rank) rows; competition is volume / 10 on
/// the 0–100 scale.
struct Columns {
    keyword: Vec<String>,
    lower: Vec<String>,
    volume: Vec<i64>,
    competition: Vec<f64>,
    rank: Vec<i64>,
    url: Vec<String>,
}

fn columns(domain: &str, rows: &[(&str, i64, i64)]) -> Columns {
    Columns {
        keyword: rows.iter().map(|r| r.0.to_string()).collect(),
        lower: rows.iter().map(|r| r.0.to_lowercase()).collect(),
        volume: rows.iter().map(|r| r.1).collect(),
        competition: rows.iter().map(|r| r.1 as f64 / 10.0).collect(),
        rank: rows.iter().map(|r| r.2).collect(),
        url: rows
            .iter()
            .map(|r| format!("https://{domain}/{}", r.2))
            .collect(),
    }
}

fn ranked(c: &Columns) -> Ranked<'_> {
    Ranked {
        keyword: &c.keyword,
        lower: &c.lower,
        volume: &c.volume,
        competition: &c.competition,
        rank: &c.rank,
        url: &c.url,
    }
}

fn loaded<'a>(c: &[&'a Columns]) -> Vec<Option<Ranked<'a>>> {
    c.iter().map(|c| Some(ranked(c))).collect()
}

fn keywords(gap: &Gap, list: GapList) -> Vec<&str> {
    gap.list(list)
        .iter()
        .map(|&i| gap.lower[i as usize].as_str())
        .collect()
}

#[test]
fn each_list_is_named_and_defined_as_semrush_names_it() {
    let you = columns(
        "you.com",
        &[
            ("all ahead", 900, 1),
            ("all behind", 800, 9),
            ("all between", 700, 5),
            ("mine alone", 600, 4),
            ("close", 500, 15),
        ],
    );
    let a = columns(
        "a.com",
        &[
            ("all ahead", 10, 2),
            ("all behind", 10, 3),
            ("all between", 10, 2),
            ("both theirs", 400, 6),
            ("a only", 300, 1),
        ],
    );
    let b = columns(
        "b.com",
        &[
            ("all ahead", 10, 4),
            ("all behind", 10, 8),
            ("all between", 10, 8),
            ("both theirs", 400, 2),
        ],
    );
    let gap = compute(ranked(&you), &loaded(&[&a, &b]), &Options::default());
    let all = ["all ahead", "all behind", "all between"];
    assert_eq!(keywords(&gap, GapList::Shared), all);
    assert_eq!(keywords(&gap, GapList::Weak), ["all behind"]);
    assert_eq!(keywords(&gap, GapList::Strong), ["all ahead"]);
    // Missing: every competitor ranks; Untapped: at least one does (today's old "Missing").
    assert_eq!(keywords(&gap, GapList::Missing), ["both theirs"]);
    assert_eq!(keywords(&gap, GapList::Untapped), ["both theirs", "a only"]);
    assert_eq!(keywords(&gap, GapList::Unique), ["mine alone", "close"]);
    assert_eq!(keywords(&gap, GapList::Striking), ["close"]);
    let labels: Vec<&str> = GapList::ALL.iter().map(|l| l.label()).collect();
    assert_eq!(
        labels,
        [
            "Shared",
            "Missing",
            "Weak",
            "Strong",
            "Untapped",
            "Unique",
            "Striking distance"
        ]
    );
    // "both theirs": b ranks 2, a ranks 6: b is the best competitor, with its URL.
    let i = gap.lower.iter().position(|k| k == "both theirs").unwrap();
    assert_eq!(gap.best[i], Some(1));
    assert_eq!(gap.ranking_competitors(i), 2);
    assert_eq!(
        gap.best_position(i),
        Some(&Position {
            rank: 2,
            url: "https://b.com/2".into()
        })
    );
    assert!(gap.yours[i].is_none());
}

#[test]
fn the_cutoff_is_the_competitors_and_you_rank_to_100() {
    let you = columns("you.com", &[("deep", 10, 45), ("gone", 10, 101)]);
    let a = columns(
        "a.com",
        &[("far", 100, 97), ("deep", 10, 3), ("gone", 10, 2)],
    );
    let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
    // The competitor at #97 creates no row; your #45 is a rank (Ahrefs: you "rank" in
    // the top 100), so "deep" is Weak, not Missing; your #101 is no rank.
    assert!(!gap.lower.iter().any(|k| k == "far"));
    assert_eq!(keywords(&gap, GapList::Weak), ["deep"]);
    assert_eq!(keywords(&gap, GapList::Missing), ["gone"]);
    let top100 = Options {
        top: 100,
        ..Options::default()
    };
    let gap = compute(ranked(&you), &loaded(&[&a]), &top100);
    assert_eq!(keywords(&gap, GapList::Untapped), ["far", "gone"]);
    assert_eq!(keywords(&gap, GapList::Weak), ["deep"]);
    assert!(rules_text(&top100).contains("positions 1–100 count as ranking for a competitor"));
}

#[test]
fn at_top_10_your_15_is_striking_distance_not_missing() {
    // The case: at "top 10" the old rule dropped your #15, so striking distance
    // (11–20) was always empty and the keyword showed as Missing.
    let you = columns("you.com", &[("crm software", 5000, 15)]);
    let a = columns("a.com", &[("crm software", 5000, 4)]);
    let top10 = Options {
        top: 10,
        ..Options::default()
    };
    let gap = compute(ranked(&you), &loaded(&[&a]), &top10);
    assert_eq!(keywords(&gap, GapList::Striking), ["crm software"]);
    assert_eq!(keywords(&gap, GapList::Weak), ["crm software"]);
    assert!(gap.list(GapList::Missing).is_empty());
    assert!(rules_text(&top10).contains("1–100 for you"));
}

#[test]
fn striking_distance_is_configurable_and_inclusive() {
    let you = columns(
        "you.com",
        &[
            ("r10", 1, 10),
            ("r11", 1, 11),
            ("r20", 1, 20),
            ("r21", 1, 21),
        ],
    );
    let top30 = Options {
        top: 30,
        ..Options::default()
    };
    let gap = compute(ranked(&you), &[], &top30);
    let mut got = keywords(&gap, GapList::Striking);
    got.sort();
    assert_eq!(got, ["r11", "r20"]);
    let wider = Options {
        striking: (4, 21),
        ..top30
    };
    assert_eq!(
        compute(ranked(&you), &[], &wider)
            .list(GapList::Striking)
            .len(),
        4
    );
    assert!(rules_text(&wider).contains("you rank 4–21"));
    // No competitor loaded: nothing to compare, so no Unique or Missing rows.
    assert!(gap.list(GapList::Unique).is_empty());
    assert!(gap.list(GapList::Untapped).is_empty());
}

#[test]
fn every_competitor_means_every_loaded_one() {
    let you = columns("you.com", &[]);
    let a = columns("a.com", &[("k", 10, 2)]);
    let gap = compute(ranked(&you), &[Some(ranked(&a)), None], &Options::default());
    assert_eq!(keywords(&gap, GapList::Missing), ["k"]);
    let b = columns("b.com", &[]);
    let gap = compute(ranked(&you), &loaded(&[&a, &b]), &Options::default());
    assert!(gap.list(GapList::Missing).is_empty());
    assert_eq!(keywords(&gap, GapList::Untapped), ["k"]);
}

#[test]
fn a_domain_counts_its_best_rank_and_keywords_compare_lower_cased() {
    let you = columns("you.com", &[("Shoes", 100, 19), ("shoes", 100, 12)]);
    let a = columns("a.com", &[("SHOES", 150, 12)]);
    let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
    assert_eq!(gap.len(), 1);
    assert_eq!(gap.keyword[0], "Shoes");
    assert_eq!(gap.yours[0].as_ref().map(|p| p.rank), Some(12));
    assert_eq!(gap.volume[0], 150);
    // A tie is neither weak nor strong.
    assert!(gap.list(GapList::Weak).is_empty());
    assert!(gap.list(GapList::Strong).is_empty());
    assert_eq!(keywords(&gap, GapList::Shared), ["shoes"]);
    assert_eq!(keywords(&gap, GapList::Striking), ["shoes"]);
}

#[test]
fn competition_is_shown_on_the_0_to_1_scale() {
    let a = columns("a.com", &[("x", 300, 3)]);
    let gap = compute(
        ranked(&columns("you.com", &[])),
        &loaded(&[&a]),
        &Options::default(),
    );
    // 300 / 10 = 30 on the 0–100 scale the operation reports.
    assert!((gap.competition[0] - 0.3).abs() < 1e-12);
    // "up to 0.3" keeps it; "up to 30" (the 0–100 habit) means the same, not everything.
    assert_eq!(competition_bound("0.3"), Some(0.3));
    assert_eq!(competition_bound("30"), Some(0.3));
    assert_eq!(competition_bound(" 45 % "), Some(0.45));
    assert_eq!(competition_bound("1"), Some(1.0));
    assert_eq!(competition_bound(""), None);
    assert_eq!(competition_bound("abc"), None);
    assert_eq!(competition_bound("NaN"), None);
}

#[test]
fn rank_zero_is_no_rank() {
    let you = columns("you.com", &[("x", 10, 0)]);
    let a = columns("a.com", &[("x", 10, 3)]);
    let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
    assert_eq!(keywords(&gap, GapList::Missing), ["x"]);
}

#[test]
fn brand_terms_leave_keywords_out_on_word_boundaries() {
    let brand = brand::terms("ikea, gap");
    let you = columns(
        "you.com",
        &[("ikea desk", 100, 1), ("bike accessories", 50, 3)],
    );
    let a = columns("a.com", &[("gap jeans", 100, 2), ("singapore", 70, 1)]);
    let options = Options {
        brand,
        ..Options::default()
    };
    let gap = compute(ranked(&you), &loaded(&[&a]), &options);
    assert_eq!(gap.branded, 2);
    assert_eq!(keywords(&gap, GapList::Untapped), ["singapore"]);
    assert_eq!(keywords(&gap, GapList::Unique), ["bike accessories"]);
}

#[test]
fn a_generic_brand_term_that_is_a_big_keyword_is_warned_about() {
    // The case: hotels.com gives the brand term "hotels", which silently removed
    // the whole hotels category from every list.
    let brand = brand::terms(&brand::default_terms(&[
        "you.com".into(),
        "hotels.com".into(),
    ]));
    assert_eq!(brand, ["you", "hotels"]);
    let you = columns("you.com", &[("cheap hotels", 90_000, 12)]);
    let a = columns(
        "hotels.com",
        &[
            ("hotels", 1_500_000, 1),
            ("hotels near me", 800_000, 2),
            ("hotels.com login", 5_000, 1),
        ],
    );
    let options = Options {
        brand,
        ..Options::default()
    };
    let gap = compute(ranked(&you), &loaded(&[&a]), &options);
    assert!(gap.is_empty(), "every keyword names “hotels”");
    assert_eq!(gap.branded, 4);
    let hotels = &gap.brand_use[1];
    assert_eq!(
        (hotels.keywords, hotels.volume, hotels.own_volume),
        (4, 2_395_000, Some(1_500_000))
    );
    let warning = brand::generic_warning(hotels).expect("warned");
    assert!(warning.contains("“hotels” is itself a keyword with 1,500,000 searches"));
    assert!(warning.contains("leaves out 4 keywords (2,395,000 searches)"));
    assert_eq!(brand::generic_warning(&gap.brand_use[0]), None);
    // A small brand query is no warning.
    let small = brand::TermUse {
        own_volume: Some(900),
        ..hotels.clone()
    };
    assert_eq!(brand::generic_warning(&small), None);
}

#[test]
fn traffic_potential_is_the_traffic_of_the_page_at_1() {
    // The rival's /1 page holds #1 for "a" and ranks for "b" at #2 and "c" at #30 (no
    // traffic): its traffic is the potential of "a". Nobody compared holds #1 for "d".
    let you = columns("you.com", &[("d", 500, 4)]);
    let mut a = columns("a.com", &[("a", 1000, 1), ("b", 2000, 2), ("c", 900, 30)]);
    a.url = vec!["https://a.com/p".into(); 3];
    let gap = compute(ranked(&you), &loaded(&[&a]), &Options::default());
    let of = |k: &str| gap.potential[gap.lower.iter().position(|x| x == k).unwrap()];
    let want = 1000.0 * 0.285 + 2000.0 * 0.157;
    assert!((of("a").unwrap() - want).abs() < 1e-9, "{:?}", of("a"));
    assert_eq!(of("b"), None, "the page at #1 for b is not in the data");
    assert_eq!(of("d"), None);
}

#[test]
fn lists_are_by_volume_then_keyword_and_empty_input_is_empty() {
    let a = columns("a.com", &[("b", 5, 1), ("a", 5, 2), ("c", 9, 3)]);
    let gap = compute(
        ranked(&columns("you.com", &[])),
        &loaded(&[&a]),
        &Options::default(),
    );
    assert_eq!(keywords(&gap, GapList::Missing), ["c", "a", "b"]);
    let empty = compute(Ranked::default(), &[], &Options::default());
    assert!(empty.is_empty());
    assert!(GapList::ALL.iter().all(|&l| empty.list(l).is_empty()));
}

#[test]
fn more_than_three_competitors_are_ignored() {
    let you = columns("you.com", &[]);
    let c: Vec<Columns> = (0..4)
        .map(|i| columns("c.com", &[("k", 10, 4 - i)]))
        .collect();
    let all: Vec<Option<Ranked>> = c.iter().map(|c| Some(ranked(c))).collect();
    let gap = compute(ranked(&you), &all, &Options::default());
    // The fourth (rank 1) is not compared: the best of the first three ranks 2.
    assert_eq!(gap.best_position(0).map(|p| p.rank), Some(2));
}

#[test]
fn list_ids_round_trip() {
    for list in GapList::ALL {
        assert_eq!(GapList::from_id(list.id()), Some(list));
    }
    assert_eq!(GapList::from_id("weaker"), None);
}
