//! `cargo run --release -p app --example research_bench`: issue 39's research computations,
//! native (release), over the sandbox's demo data, as a Markdown table for BENCHMARKS.md
//! (`cargo xtask bench`, section "Research (native)"). `RESEARCH_BENCH_RUNS` sets the runs.
//!
//! - Estimated traffic of 5 domains × 100,000 ranked keywords (each domain's total: volume ×
//!   the click-through rate of its rank, the ranked keywords tab's figure) and the share of
//!   voice over every keyword of their content gap (`research::traffic::share_of_voice`).
//!   Goal: both together < 100 ms p95.
//! - Clustering 2,000 keywords by shared results (`research::serp_clusters::cluster`, N = 3)
//!   over the sandbox's outlines of 2,000 ranked keywords. Goal: < 300 ms p95.
//!
//! The data is generated and decoded before the timed runs; one untimed run warms up.

use std::time::Instant;

use app::research::ctr::Curve;
use app::research::gap::{compute, Options, Ranked};
use app::research::serp_clusters::{cluster, Serp, DEFAULT_MIN_SHARED};
use app::research::traffic::share_of_voice;
use serpkit::ops::{outline_seo, ranked_keywords_domain};

/// One domain's ranked keywords as the gap reads them, column by column.
struct Columns {
    keyword: Vec<String>,
    lower: Vec<String>,
    volume: Vec<i64>,
    competition: Vec<f64>,
    rank: Vec<i64>,
    url: Vec<String>,
}

impl Columns {
    fn of(domain: &str, n: usize, seed: u64) -> Columns {
        let body = sandbox::generate::ranked_keywords_domain(domain, n, seed);
        let rows: ranked_keywords_domain::Response =
            serpkit::decode(&body).expect("ranked keywords decode");
        Columns {
            lower: rows.iter().map(|r| r.keyword.to_lowercase()).collect(),
            volume: rows.iter().map(|r| r.search_volume).collect(),
            competition: rows.iter().map(|r| r.competition).collect(),
            rank: rows.iter().map(|r| r.rank).collect(),
            url: rows.iter().map(|r| r.url.clone()).collect(),
            keyword: rows.into_iter().map(|r| r.keyword).collect(),
        }
    }

    fn ranked(&self) -> Ranked<'_> {
        Ranked {
            keyword: &self.keyword,
            lower: &self.lower,
            volume: &self.volume,
            competition: &self.competition,
            rank: &self.rank,
            url: &self.url,
        }
    }
}

/// Milliseconds of each of `runs` runs of `f` (after one untimed run).
fn time(runs: usize, mut f: impl FnMut() -> f64) -> Vec<f64> {
    std::hint::black_box(f());
    (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            std::hint::black_box(f());
            t0.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

fn pct(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[((p / 100.0) * (v.len() - 1) as f64).round() as usize]
}

fn row(what: &str, t: &[f64], goal: Option<f64>) -> String {
    let verdict = goal.map_or(String::new(), |g| {
        let p95 = pct(t, 95.0);
        format!(
            "< {g} ms p95: {} ({p95:.1} ms)",
            if p95 < g { "met" } else { "**NOT met**" }
        )
    });
    format!(
        "| {what} | {} | {:.1} | {:.1} | {verdict} |",
        t.len(),
        pct(t, 50.0),
        pct(t, 95.0)
    )
}

/// `n` with thousands separators (`100,000`).
fn int(n: usize) -> String {
    app::format::fmt_int(n as i64)
}

fn main() {
    let runs: usize = std::env::var("RESEARCH_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let size: usize = std::env::var("RESEARCH_BENCH_ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100_000);
    let domains = [
        "size-100000.example.com",
        "size-100000.example.org",
        "size-100000.example.net",
        "size-100000.example.io",
        "size-100000.example.de",
    ];
    let cols: Vec<Columns> = domains
        .iter()
        .enumerate()
        .map(|(i, d)| Columns::of(d, size, i as u64 + 1))
        .collect();
    let curve = Curve::default();
    let rivals: Vec<Option<Ranked>> = cols[1..].iter().map(|c| Some(c.ranked())).collect();
    let gap = compute(cols[0].ranked(), &rivals, &Options::default());
    let all: Vec<u32> = (0..gap.len() as u32).collect();

    let traffic = || {
        cols.iter()
            .map(|c| {
                c.volume
                    .iter()
                    .zip(&c.rank)
                    .map(|(&v, &r)| curve.traffic(v, r))
                    .sum::<f64>()
            })
            .sum::<f64>()
    };
    let voice = || share_of_voice(&gap, &all, &curve).0[0].share;
    let t_traffic = time(runs, traffic);
    let t_voice = time(runs, voice);
    let t_both = time(runs, || traffic() + voice());

    // 2,000 keywords of one domain's ranked keywords, with their outlines' URLs.
    let keywords: Vec<(String, i64)> = cols[0]
        .keyword
        .iter()
        .zip(&cols[0].volume)
        .take(2_000)
        .map(|(k, &v)| (k.clone(), v))
        .collect();
    let urls: Vec<Vec<String>> = keywords
        .iter()
        .map(|(k, _)| {
            let pages: outline_seo::Response =
                serpkit::decode(&sandbox::generate::outline_seo(k)).expect("outline decode");
            pages.into_iter().map(|p| p.url).collect()
        })
        .collect();
    let serps: Vec<Serp> = keywords
        .iter()
        .zip(&urls)
        .map(|((k, v), u)| Serp {
            keyword: k,
            volume: *v,
            urls: Some(u),
        })
        .collect();
    let mut clusters = 0;
    let t_cluster = time(runs, || {
        let c = cluster(&serps, DEFAULT_MIN_SHARED);
        clusters = c.clusters.len();
        clusters as f64
    });

    println!("| measurement | runs | p50 ms | p95 ms | goal |\n|---|---:|---:|---:|---|");
    println!(
        "{}",
        row(
            &format!(
                "estimated traffic: each of 5 domains' total over its {} ranked keywords",
                int(size)
            ),
            &t_traffic,
            None
        )
    );
    println!(
        "{}",
        row(
            &format!(
                "share of voice of the 5 domains over their content gap's {} keywords",
                int(gap.len())
            ),
            &t_voice,
            None
        )
    );
    println!(
        "{}",
        row(
            &format!(
                "estimated traffic and share of voice, 5 domains × {} ranked keywords",
                int(size)
            ),
            &t_both,
            Some(100.0)
        )
    );
    println!("{}", row(&format!("clusters by shared results: {} keywords' outlines, N = {DEFAULT_MIN_SHARED} ({} clusters)", int(serps.len()), int(clusters)), &t_cluster, Some(300.0)));
}
