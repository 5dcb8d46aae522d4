//! The data generator: spec-conformant, realistic-looking, deterministic response bodies for
//! all 11 operations.
//!
//! Every function is pure: the same inputs give the same JSON text on every platform. Values
//! about one entity (a keyword in a country, a domain, a URL) are seeded from that entity, so
//! `search_volume/single` and `search_volume/bulk` agree about a keyword; "today" is a
//! parameter (the library has no clock).
//!
//! Sizes: `ranked-keywords/domain` returns 200..=20,000 records and `backlink/overview`
//! 40..=3,000 `ref_newlost` entries, derived from the domain. A domain whose first label is
//! `size-<N>` (e.g. `size-50000.example.com`) asks for exactly N of them (at most
//! [`MAX_ROWS`]); [`ranked_keywords_domain`] and [`backlink_overview`] take N directly.

use serpkit::ops::{self, Operation, Request};

use crate::date::Date;
use crate::json::{arr, obj, Arr, Obj};
use crate::rng::{fnv1a, hash_parts, Rng};
use crate::words::*;

/// Most records a `size-<N>` domain can ask for.
pub const MAX_ROWS: usize = 1_000_000;

/// The label prefix that asks for a given number of rows: `size-<N>.example.com`.
pub const SIZE_PREFIX: &str = "size-";

/// The seed of a request: FNV-1a of the operation path and the request body without its key.
pub fn request_seed(request: &Request) -> u64 {
    let mut r = request.clone();
    r.set_key(ops::ApiKey::default());
    hash_parts(&[request.operation().path(), &r.to_json()])
}

/// The response body (JSON text) of a request, as of `today`.
pub fn body(request: &Request, today: Date) -> String {
    match request {
        Request::SearchVolumeBulk(r) => search_volume_bulk(&r.keywords, &r.ccode, today),
        Request::SearchVolumeSingle(r) => search_volume_single(&r.keyword, &r.ccode, today),
        Request::DomainStats(r) => domain_stats(&r.domains),
        Request::BacklinkMetrics(r) => backlink_metrics(&r.urls),
        Request::RankedKeywordsMetrics(r) => ranked_keywords_metrics(&r.domain),
        Request::RankedKeywordsDomain(r) => ranked_keywords_domain(
            &r.domain,
            ranked_keywords_size(&r.domain),
            fnv1a(r.domain.to_ascii_lowercase().as_bytes()),
        ),
        Request::BacklinkOverview(r) => backlink_overview(
            &r.domain,
            ref_newlost_size(&r.domain),
            today,
            fnv1a(r.domain.to_ascii_lowercase().as_bytes()),
        ),
        Request::OutlineSeo(r) => outline_seo(&r.keyword),
        Request::MicroblogPost(r) => microblog_post(&r.keyword, today),
        Request::VideoVideo(r) => video_video(&r.keyword, today),
        Request::Related(r) => related(&r.keyword, &r.ccode),
    }
}

/// N from a `size-<N>.` first label, capped at [`MAX_ROWS`].
pub fn requested_size(domain: &str) -> Option<usize> {
    let first = domain.split('.').next()?;
    let n: usize = first.get(SIZE_PREFIX.len()..)?.parse().ok()?;
    first
        .to_ascii_lowercase()
        .starts_with(SIZE_PREFIX)
        .then_some(n.min(MAX_ROWS))
}

/// Records `ranked-keywords/domain` returns for a domain: a `size-<N>` label, else
/// 200..=20,000 derived from the domain.
pub fn ranked_keywords_size(domain: &str) -> usize {
    requested_size(domain).unwrap_or_else(|| {
        let mut rng = Rng::from_parts(&["rk-size", &domain.to_ascii_lowercase()]);
        rng.log_range(200, 20_000) as usize
    })
}

/// `ref_newlost` entries `backlink/overview` returns for a domain: a `size-<N>` label, else
/// 40..=3,000 derived from the domain.
pub fn ref_newlost_size(domain: &str) -> usize {
    requested_size(domain).unwrap_or_else(|| {
        let mut rng = Rng::from_parts(&["ref-size", &domain.to_ascii_lowercase()]);
        rng.log_range(40, 3_000) as usize
    })
}

// ---------------------------------------------------------------------------------------
// Shared helpers

fn round_to(v: f64, decimals: i32) -> f64 {
    let p = 10f64.powi(decimals);
    (v * p).round() / p
}

/// Rounds a volume the way keyword tools do: two significant digits, tens below 100.
fn bucket(v: f64) -> i64 {
    if v < 5.0 {
        return 0;
    }
    if v < 100.0 {
        return ((v / 10.0).round() * 10.0).max(10.0) as i64;
    }
    let mag = 10f64.powi(v.log10().floor() as i32 - 1);
    ((v / mag).round() * mag) as i64
}

fn theme_of(seed: u64) -> &'static (&'static str, &'static [&'static str]) {
    &THEMES[(seed % THEMES.len() as u64) as usize]
}

/// The theme sharing the most words with `keyword`; a hash-chosen one when none does.
fn theme_for(keyword: &str) -> &'static [&'static str] {
    let kw = keyword.to_lowercase();
    let words: Vec<&str> = kw.split_whitespace().filter(|w| w.len() > 2).collect();
    let score = |heads: &[&str]| {
        heads
            .iter()
            .flat_map(|h| h.split(' '))
            .filter(|w| words.contains(w))
            .count()
    };
    THEMES
        .iter()
        .map(|(_, heads)| (score(heads), *heads))
        .filter(|(s, _)| *s > 0)
        .max_by_key(|(s, _)| *s)
        .map(|(_, h)| h)
        .unwrap_or_else(|| theme_of(fnv1a(kw.as_bytes())).1)
}

fn made_up_domain(rng: &mut Rng) -> String {
    let a = rng.pick(SYLLABLES);
    let mut b = rng.pick(SYLLABLES);
    while b == a {
        b = rng.pick(SYLLABLES);
    }
    let sep = if rng.chance(0.25) { "-" } else { "" };
    format!("{a}{sep}{b}.{}", rng.pick(TLDS))
}

fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str("page");
    }
    s
}

/// A keyword from a theme: `[prefix] head [suffix]`.
fn theme_keyword(rng: &mut Rng, heads: &[&str]) -> String {
    let head = rng.pick(heads);
    match rng.below(4) {
        0 => format!("{} {head}", rng.pick(PREFIXES)),
        1 => format!("{head} {}", rng.pick(SUFFIXES)),
        2 => format!("{} {head} {}", rng.pick(PREFIXES), rng.pick(SUFFIXES)),
        _ => (*head).to_owned(),
    }
}

/// A timestamp on `date` at a random time with milliseconds.
fn stamp(rng: &mut Rng, date: Date) -> String {
    date.timestamp(rng.below(86_400) as u32, rng.below(1000) as u32)
}

fn person(rng: &mut Rng) -> (String, String) {
    let first = rng.pick(FIRST_NAMES);
    let last = rng.pick(LAST_NAMES);
    let handle = match rng.below(3) {
        0 => format!("{}{}", first.to_lowercase(), rng.range(1, 999)),
        1 => format!("{}_{}", first.to_lowercase(), last.to_lowercase()),
        _ => format!("{}{}", rng.pick(SYLLABLES), last.to_lowercase()),
    };
    (format!("{first} {last}"), handle)
}

// ---------------------------------------------------------------------------------------
// Search volume

/// The stable profile of a keyword in a country.
struct KeywordStats {
    monthly: [(i32, u8, i64); 12],
    volume: i64,
    cpc: f64,
    competition: f64,
}

fn keyword_stats(keyword: &str, ccode: &str, today: Date) -> KeywordStats {
    let kw = keyword.trim().to_lowercase();
    let cc = ccode.to_ascii_lowercase();
    let mut rng = Rng::from_parts(&["kw", &kw, &cc]);
    let country = if cc == "us" {
        1.0
    } else {
        Rng::from_parts(&["cc", &cc]).float(0.03, 0.5)
    };
    let words = kw.split_whitespace().count().max(1) as f64;
    let zero = rng.chance(0.06);
    let base = rng.log_range(20, 400_000) as f64 * country / words.powf(0.8);
    let phase = rng.float(0.0, 12.0);
    let amplitude = if rng.chance(0.4) {
        rng.float(0.2, 0.6)
    } else {
        rng.float(0.0, 0.15)
    };
    let trend = rng.float(-0.02, 0.03);
    let now = today.month_index();
    let mut monthly = [(0, 1, 0); 12];
    let mut sum = 0.0;
    for (i, slot) in monthly.iter_mut().enumerate() {
        let idx = now - 11 + i as i64;
        let (y, m) = Date::from_month_index(idx);
        let mut noise_rng = Rng::from_parts(&["kwm", &kw, &cc, &idx.to_string()]);
        let season =
            1.0 + amplitude * ((f64::from(m) - phase) * std::f64::consts::TAU / 12.0).cos();
        let v = base * season * (1.0 + trend * (i as f64 - 11.0)) * noise_rng.float(0.85, 1.15);
        let v = if zero { 0 } else { bucket(v.max(0.0)) };
        sum += v as f64;
        *slot = (y, m, v);
    }
    let volume = bucket(sum / 12.0);
    let (cpc, competition) = if zero {
        (0.0, 0.0)
    } else {
        (
            round_to(rng.log_range(5, 2_500) as f64 / 100.0, 2),
            round_to(rng.unit(), 2),
        )
    };
    KeywordStats {
        monthly,
        volume,
        cpc,
        competition,
    }
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
// Domain stats

/// `domainstats`: one record per requested domain, in request order. `domainAsEntered` is
/// present when the domain was entered in another form (upper case, `www.`) and on about a
/// third of the others.
pub fn domain_stats(domains: &[String]) -> String {
    let mut out = String::with_capacity(domains.len() * 900);
    arr(&mut out, |a| {
        for entered in domains {
            let lower = entered.trim().to_ascii_lowercase();
            let domain = lower.strip_prefix("www.").unwrap_or(&lower).to_owned();
            let mut rng = Rng::from_parts(&["ds", &domain]);
            let with_entered = domain != *entered || rng.chance(0.33);
            let da = rng.range(1, 95);
            let n = |rng: &mut Rng, lo: i64, hi: i64| rng.log_range(lo, hi).to_string();
            a.o(|o| {
                o.s("domain", &domain);
                if with_entered {
                    o.s("domainAsEntered", entered);
                }
                let links = rng.log_range(10, 50_000_000);
                o.s("alphaLinks", &links.to_string())
                    .s(
                        "alphaPA",
                        &rng.range(da / 2 + 1, (da + 10).min(100)).to_string(),
                    )
                    .s("alphaDA", &da.to_string())
                    .s("alphaRank", &n(&mut rng, 1, 40_000_000));
                let trust = if rng.chance(0.3) {
                    String::new()
                } else {
                    format!("{:.2}", rng.float(0.5, 9.5))
                };
                let spam = if rng.chance(0.3) {
                    String::new()
                } else {
                    rng.range(0, 17).to_string()
                };
                o.s("alphaTrust", &trust).s("alphaSpam", &spam);
                o.s("betaStatReturned", "root")
                    .s("SN_comments", &n(&mut rng, 1, 900_000))
                    .s("SN_shares", &n(&mut rng, 1, 3_000_000))
                    .s("stumbles", &rng.range(0, 5_000).to_string())
                    .s("image_board_pins", &n(&mut rng, 1, 200_000));
                let beta_links = rng.log_range(10, 80_000_000);
                let ref_domains = rng.log_range(1, (beta_links / 3).max(2));
                let subnets = rng.log_range(1, ref_domains.max(1));
                let ips = rng.range(subnets, ref_domains.max(subnets));
                o.s("betaLinks", &beta_links.to_string())
                    .s("betaRefDomains", &ref_domains.to_string())
                    .s("betaRefEDU", &rng.range(0, ref_domains / 50).to_string())
                    .s("betaRefGov", &rng.range(0, ref_domains / 300).to_string())
                    .s("betaRefSubnets", &subnets.to_string())
                    .s("betaIPs", &ips.to_string());
                let tf = rng.range(0, 80);
                o.s("betaCF", &rng.range(tf, (tf + 25).min(100)).to_string())
                    .s("betaTF", &tf.to_string());
                let topics = rng.range(0, 3);
                let mut cats: Vec<&str> = CATEGORIES.to_vec();
                rng.shuffle(&mut cats);
                let mut value = tf;
                for i in 0..3 {
                    let (name, val) = if i < topics {
                        let v = value;
                        value = rng.range(v / 2, v);
                        (cats[i as usize].to_owned(), v.to_string())
                    } else {
                        (String::new(), String::new())
                    };
                    o.s(&format!("betaTTF{i}Name"), &name)
                        .s(&format!("betaTTF{i}Value"), &val);
                }
            });
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Backlink metrics

fn write_backlink_metrics(o: &mut Obj<'_>, rng: &mut Rng, url: &str, scale: i64) {
    let backlinks = rng.log_range(1, scale);
    let dofollow = rng.range(backlinks / 3, backlinks);
    let refdomains = rng.log_range(1, (backlinks / 2).max(1));
    let ips = rng.range((refdomains * 2 / 3).max(1), refdomains);
    let subnets = rng.range((ips / 2).max(1), ips);
    o.i("backlinks", backlinks)
        .i("dofollow_backlinks", dofollow)
        .i("nofollow_backlinks", backlinks - dofollow)
        .i("edu_backlinks", rng.range(0, backlinks / 100))
        .i("gov_backlinks", rng.range(0, backlinks / 500))
        .i("ips", ips)
        .i("refdomains", refdomains)
        .i("subnets", subnets)
        .s("url", url);
}

/// `backlink/metrics`: one record per URL, in request order.
pub fn backlink_metrics(urls: &[String]) -> String {
    let mut out = String::with_capacity(urls.len() * 220);
    arr(&mut out, |a| {
        for url in urls {
            let mut rng = Rng::from_parts(&["bm", url]);
            a.o(|o| write_backlink_metrics(o, &mut rng, url, 500_000));
        }
    });
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
/// follow a theme derived from `seed`; URLs are on `domain`.
pub fn ranked_keywords_domain(domain: &str, n: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_0001);
    let heads: &[&str] = theme_of(seed).1;
    let heads2: &[&str] = theme_of(seed / 7 + 3).1;
    let host = domain.to_ascii_lowercase();
    let www = rng.chance(0.5);
    let pages: Vec<String> = (0..(n / 6).clamp(1, 4_000))
        .map(|i| {
            let kw = theme_keyword(&mut rng, if i % 5 == 4 { heads2 } else { heads });
            let dir = ["blog", "guides", "products", "reviews", "learn", "p"][i % 6];
            let w = if www { "www." } else { "" };
            if i == 0 {
                format!("https://{w}{host}/")
            } else {
                format!("https://{w}{host}/{dir}/{}", slug(&kw))
            }
        })
        .collect();
    let mut rows: Vec<(String, f64, i64, i64, i64, i64, usize)> = Vec::with_capacity(n);
    for _ in 0..n {
        let pool = if rng.chance(0.8) { heads } else { heads2 };
        let kw = theme_keyword(&mut rng, pool);
        let volume = bucket(rng.log_range(10, 300_000) as f64);
        let competition = round_to(rng.float(0.0, 100.0), 2);
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
// Backlink overview

/// `backlink/overview` with exactly `n_ref` `ref_newlost` entries: metrics of the domain, 64
/// consecutive days of stats ending at `today` (newest first), and new/lost referring domains
/// (repeats included) by `domain_inlink_rank` descending.
pub fn backlink_overview(domain: &str, n_ref: usize, today: Date, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_0002);
    let host = domain.to_ascii_lowercase();
    let mut out = String::with_capacity(n_ref * 210 + 4_000);
    let start = today.add_days(-63);
    obj(&mut out, |o| {
        o.o("metrics", |m| {
            write_backlink_metrics(m, &mut rng, &host, 20_000_000);
            let created = today.add_days(-rng.range(30, 900));
            let updated = today.add_days(-rng.range(0, 2));
            m.s("_id", &rng.hex(24))
                .i("__v", 0)
                .s("createdAt", &stamp(&mut rng, created))
                .s("updatedAt", &stamp(&mut rng, updated));
        });
        let level = rng.log_range(5, 5_000);
        o.a("stats", |a| {
            for i in 0..64 {
                let d = today.add_days(-i);
                a.o(|e| {
                    e.s("date", &d.to_string())
                        .i("new", rng.range(0, level))
                        .i("lost", rng.range(0, level * 4 / 5));
                });
            }
        });
        // A pool of referring domains smaller than the entry count, so domains repeat.
        let pool_size = (n_ref * 2 / 3).max(1);
        let pool: Vec<(String, i64, Date, i64)> = (0..pool_size)
            .map(|i| {
                let name = if i % 3 == 0 {
                    format!("{}.{}", rng.pick(SYLLABLES), made_up_domain(&mut rng))
                } else {
                    made_up_domain(&mut rng)
                };
                let rank = (100.0 * rng.unit().powf(2.2)).round() as i64;
                let first_seen = if rng.chance(0.3) {
                    start.add_days(rng.range(0, 63))
                } else {
                    start.add_days(-rng.range(1, 2_000))
                };
                (name, rank, first_seen, rng.log_range(1, 5_000))
            })
            .collect();
        let mut events: Vec<(usize, Date, bool, i64, i64)> = (0..n_ref)
            .map(|i| {
                let p = if i < pool_size {
                    i
                } else {
                    rng.below(pool_size as u64) as usize
                };
                let from = pool[p].2.max(start);
                let span = today.to_days() - from.to_days();
                let date = from.add_days(rng.range(0, span));
                let new = date == pool[p].2 || rng.chance(0.55);
                let backlinks = rng.log_range(1, pool[p].3);
                let dofollow = rng.range(0, backlinks);
                (p, date, new, backlinks, dofollow)
            })
            .collect();
        events.sort_by(|a, b| {
            pool[b.0]
                .1
                .cmp(&pool[a.0].1)
                .then(b.1.cmp(&a.1))
                .then(a.0.cmp(&b.0))
        });
        o.a("ref_newlost", |a| {
            for (p, date, new, backlinks, dofollow) in &events {
                let (name, rank, first_seen, _) = &pool[*p];
                a.o(|e| {
                    e.s("new_lost_date", &date.to_string())
                        .s("new_lost_type", if *new { "new" } else { "lost" })
                        .s("refdomain", name)
                        .i("backlinks", *backlinks)
                        .i("dofollow_backlinks", *dofollow)
                        .s("first_seen", &first_seen.to_string())
                        .i("domain_inlink_rank", *rank);
                });
            }
        });
    });
    out
}

// ---------------------------------------------------------------------------------------
// SEO outline

fn heading_text(rng: &mut Rng, keyword: &str) -> String {
    let mut t = rng.pick(HEADINGS).replace("{}", keyword);
    if rng.chance(0.12) {
        let stray = rng.pick(STRAY);
        t = if rng.chance(0.5) {
            format!("{stray}{t}")
        } else {
            format!("{t} {stray}")
        };
    }
    if rng.chance(0.05) {
        t = format!("  {t}\u{a0}");
    }
    t
}

/// `outline/seo`: up to 10 ranking pages by rank ascending, each with its headings (h1-h4) in
/// page order; some heading text carries stray markup or style text.
pub fn outline_seo(keyword: &str) -> String {
    let mut rng = Rng::from_parts(&["outline", &keyword.to_lowercase()]);
    let pages = if rng.chance(0.75) {
        10
    } else {
        rng.range(6, 9)
    };
    let mut rank = 0;
    let mut out = String::with_capacity(6_000);
    arr(&mut out, |a| {
        for _ in 0..pages {
            rank += if rng.chance(0.15) { 2 } else { 1 };
            let url = format!(
                "https://{}{}/{}",
                if rng.chance(0.4) { "www." } else { "" },
                made_up_domain(&mut rng),
                slug(&format!("{} {}", rng.pick(PREFIXES), keyword))
            );
            a.o(|o| {
                o.a("headings", |h| {
                    let title = heading_text(&mut rng, keyword);
                    h.o(|e| {
                        e.s("type", "h1").s("text", &title);
                    });
                    let mut level = 2;
                    for _ in 0..rng.range(2, 16) {
                        level = match rng.below(10) {
                            0..=4 => 2,
                            5..=7 => (level + 1).min(4),
                            8 => level,
                            _ => 4,
                        };
                        let text = heading_text(&mut rng, keyword);
                        h.o(|e| {
                            e.s("type", &format!("h{level}")).s("text", &text);
                        });
                    }
                })
                .s("url", &url)
                .i("rank", rank);
            });
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Microblog

fn hashtag_of(text: &str) -> Option<String> {
    let body: String = text.chars().filter(|c| c.is_alphanumeric()).collect();
    (!body.is_empty()).then(|| format!("#{body}"))
}

/// `microblog/post`: 8..=20 posts about the keyword, newest first, with hashtags, tags and
/// author profiles.
pub fn microblog_post(keyword: &str, today: Date) -> String {
    let mut rng = Rng::from_parts(&["mb", &keyword.to_lowercase(), &today.to_string()]);
    let heads: &[&str] = theme_for(keyword);
    let n = rng.range(8, 20);
    let mut times: Vec<(i64, u32, u32)> = (0..n)
        .map(|_| {
            (
                rng.range(0, 13),
                rng.below(86_400) as u32,
                rng.below(1000) as u32,
            )
        })
        .collect();
    times.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut out = String::with_capacity(n as usize * 900);
    arr(&mut out, |a| {
        for (days_ago, secs, ms) in times {
            let (fullname, username) = person(&mut rng);
            let user_id = rng.range(100_000, 1_900_000_000_000_000);
            let mut hashtags = Vec::new();
            if rng.chance(0.6) {
                hashtags.extend(hashtag_of(keyword));
            }
            if rng.chance(0.4) {
                hashtags.extend(hashtag_of(rng.pick::<&str>(heads)));
            }
            let mut tagged = Vec::new();
            if rng.chance(0.3) {
                tagged.push(format!("@{}", person(&mut rng).1));
            }
            let mut tweet = rng.pick(POSTS).replace("{k}", keyword);
            for t in tagged.iter().chain(hashtags.iter()) {
                tweet.push(' ');
                tweet.push_str(t);
            }
            let post_id = rng.range(1_000_000_000_000_000_000, 1_900_000_000_000_000_000);
            let likes = rng.log_range(1, 50_000) - 1;
            a.o(|o| {
                o.s(
                    "url",
                    &format!("https://microblog.example.com/{username}/status/{post_id}"),
                )
                .i("retweets", rng.range(0, likes / 4))
                .i("likes", likes)
                .i("replies", rng.range(0, likes / 10 + 3))
                .s("tweet", &tweet)
                .strs("hashtags", &hashtags)
                .o("profile", |p| {
                    p.s(
                        "user_avatar",
                        &format!(
                            "https://img.microblog.example.com/profile_images/{user_id}/{}_normal.jpg",
                            rng.alnum(8)
                        ),
                    )
                    .i("user_id", user_id)
                    .s("fullname", &fullname)
                    .s("username", &username)
                    .b("verified", rng.chance(0.1));
                })
                .strs("tagged", &tagged)
                .s("posted_on", &today.add_days(-days_ago).timestamp(secs, ms))
                .a("media", |_| {});
            });
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Video

fn write_endpoint(
    o: &mut Obj<'_>,
    rng: &mut Rng,
    url: &str,
    page: &str,
    root_ve: i64,
    browse_id: &str,
    params: bool,
) {
    o.o("navigationEndpoint", |n| {
        n.s("clickTrackingParams", &rng.b64(36))
            .o("commandMetadata", |c| {
                c.o("webCommandMetadata", |w| {
                    w.s("url", url)
                        .s("webPageType", page)
                        .i("rootVe", root_ve)
                        .s("apiUrl", "/api/v1/browse");
                });
            })
            .o("browseEndpoint", |b| {
                b.s("browseId", browse_id);
                if params {
                    b.s("params", &rng.b64(16));
                }
            });
    });
}

fn write_hashtags(a: &mut Arr<'_>, rng: &mut Rng, tags: &[String], playlist: Option<&str>) {
    for (i, tag) in tags.iter().enumerate() {
        if i > 0 {
            a.o(|o| {
                o.s("text", " ");
            });
        }
        a.o(|o| {
            o.s("text", tag);
            let name = tag.trim_start_matches('#').to_lowercase();
            let params = !rng.chance(0.2);
            write_endpoint(
                o,
                rng,
                &format!("/hashtag/{name}"),
                "WEB_PAGE_TYPE_BROWSE",
                6827,
                "FEhashtag",
                params,
            );
            o.o("loggingDirectives", |l| {
                l.s("trackingParams", &rng.b64(36))
                    .o("visibility", |v| {
                        v.s("types", "12");
                    })
                    .b("enableDisplayloggerExperiment", true);
            });
        });
    }
    if let Some(title) = playlist {
        if !tags.is_empty() {
            a.o(|o| {
                o.s("text", " ");
            });
        }
        let list = format!("PL{}", rng.b64(32));
        a.o(|o| {
            o.s("text", title);
            write_endpoint(
                o,
                rng,
                &format!("/playlist?list={list}"),
                "WEB_PAGE_TYPE_PLAYLIST",
                5754,
                &format!("VL{list}"),
                false,
            );
        });
    }
}

/// `video/video`: 10..=20 video records; hashtag entries include tags, single-space
/// separators and playlist links; the channel's key order varies between records.
pub fn video_video(keyword: &str, today: Date) -> String {
    let mut rng = Rng::from_parts(&["video", &keyword.to_lowercase()]);
    let heads: &[&str] = theme_for(keyword);
    let n = rng.range(10, 20);
    let mut out = String::with_capacity(n as usize * 2_500);
    arr(&mut out, |a| {
        for _ in 0..n {
            let id = rng.b64(11);
            let mut tags: Vec<String> = Vec::new();
            if rng.chance(0.7) {
                tags.extend(hashtag_of(keyword));
                for _ in 0..rng.range(0, 3) {
                    tags.extend(hashtag_of(rng.pick::<&str>(heads)));
                }
            }
            tags.dedup();
            let playlist = rng.chance(0.3).then(|| *rng.pick(PLAYLISTS));
            let (creator, handle) = person(&mut rng);
            let channel_name = if rng.chance(0.5) {
                creator
            } else {
                format!(
                    "{} {}",
                    rng.pick(SYLLABLES),
                    rng.pick(&["TV", "Studio", "Academy", "Reviews", "Lab"])
                )
            };
            let description = if rng.chance(0.25) {
                String::new()
            } else {
                format!(
                    "In this video we look at {keyword}. Subscribe for more!\n\nChapters:\n0:00 Intro\n{}:{:02} {}",
                    rng.range(1, 9),
                    rng.range(0, 59),
                    rng.pick(HEADINGS).replace("{}", keyword)
                )
            };
            let posted = today.add_days(-rng.range(1, 1_500));
            a.o(|o| {
                o.s("url", &format!("https://www.video.example.com/watch?v={id}"))
                    .s("image", &format!("https://i.video.example.com/vi/{id}/hqdefault.jpg"))
                    .a("hashtags", |h| write_hashtags(h, &mut rng, &tags, playlist))
                    .s("posted_on", &stamp(&mut rng, posted))
                    .s("title", &rng.pick(TITLES).replace("{k}", keyword))
                    .i("views", rng.log_range(50, 20_000_000))
                    .i("likes", 0)
                    .i("dislikes", 0)
                    .s("description", &description);
                let mut order: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
                rng.shuffle(&mut order);
                let cid = format!("UC{}", rng.b64(22));
                o.o("channel", |c| {
                    for k in order {
                        match k {
                            0 => {
                                c.s("name", &channel_name);
                            }
                            1 => {
                                c.s("id", &cid);
                            }
                            2 => {
                                c.s("photo", &format!("https://yt3.video.example.com/{}=s88", rng.b64(40)));
                            }
                            3 => {
                                c.b("is_monetized", rng.chance(0.6));
                            }
                            4 => {
                                c.b("is_verified", rng.chance(0.3));
                            }
                            5 => {
                                c.b("is_family_safe", !rng.chance(0.05));
                            }
                            6 => {
                                c.a("avatar", |l| {
                                    for px in [48, 88, 176] {
                                        l.o(|i| {
                                            i.s("url", &format!("https://yt3.video.example.com/{handle}=s{px}"))
                                                .i("width", px)
                                                .i("height", px);
                                        });
                                    }
                                });
                            }
                            7 => {
                                c.a("banner", |l| {
                                    if rng.chance(0.6) {
                                        l.o(|i| {
                                            i.s("url", &format!("https://yt3.video.example.com/banner/{handle}=w1060"))
                                                .i("width", 1060)
                                                .i("height", 175);
                                        });
                                    }
                                });
                            }
                            8 => {
                                let mut t: Vec<&str> = heads.iter().copied().take(rng.range(0, 4) as usize).collect();
                                rng.shuffle(&mut t);
                                c.strs("tags", &t);
                            }
                            _ => {
                                let mut cs: Vec<&str> = COUNTRIES.to_vec();
                                rng.shuffle(&mut cs);
                                cs.truncate(rng.range(0, 6) as usize);
                                c.strs("available_countries", &cs);
                            }
                        }
                    }
                });
                let mut kws = vec![keyword.to_owned()];
                for _ in 0..rng.range(0, 4) {
                    kws.push(theme_keyword(&mut rng, heads));
                }
                let mut langs = vec![*rng.pick(LANGUAGES)];
                if rng.chance(0.15) {
                    langs.push("en");
                    langs.dedup();
                }
                o.b("error", false).strs("keywords", &kws).strs("language", &langs);
            });
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Related

/// `related`: 20..=50 related keywords of the seed keyword, by search volume descending.
pub fn related(keyword: &str, ccode: &str) -> String {
    let kw = keyword.trim().to_lowercase();
    let mut rng = Rng::from_parts(&["related", &kw, &ccode.to_ascii_lowercase()]);
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
        let volume = bucket(rng.log_range(10, 120_000) as f64 / (rows.len() as f64 / 8.0 + 1.0));
        rows.push((
            k,
            round_to(rng.unit(), 2),
            round_to(rng.log_range(5, 3_000) as f64 / 100.0, 2),
            volume,
            rng.range(0, 100),
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

// ---------------------------------------------------------------------------------------
// Sample requests

/// A plausible request of `op` (key empty), varied by `seed`: for tests, benches and demos.
pub fn sample_request(op: Operation, seed: u64) -> Request {
    let mut rng = Rng::new(seed ^ 0x5a3_71e5);
    let heads: &[&str] = theme_of(rng.next_u64()).1;
    let ccodes = ["US", "GB", "DE", "FR", "IN", "BR", "CA", "AU", "ES", "JP"];
    let keyword = |rng: &mut Rng| {
        let k = theme_keyword(rng, heads);
        match rng.below(12) {
            0 => k.to_uppercase(),
            1 => format!("{k} café"),
            2 => format!("{k} 2 <b>"),
            _ => k,
        }
    };
    let domain = |rng: &mut Rng| match rng.below(8) {
        0 => format!("WWW.{}", made_up_domain(rng).to_uppercase()),
        1 => format!("blog.{}", made_up_domain(rng)),
        _ => made_up_domain(rng),
    };
    let key = ops::ApiKey::default();
    let json = match op {
        Operation::SearchVolumeBulk => {
            let mut ks: Vec<String> = (0..rng.range(1, 25)).map(|_| keyword(&mut rng)).collect();
            if ks.len() > 2 && rng.chance(0.3) {
                ks.push(ks[0].clone());
            }
            serde_json::json!({"keywords": ks, "ccode": rng.pick(&ccodes)})
        }
        Operation::SearchVolumeSingle | Operation::Related => {
            serde_json::json!({"keyword": keyword(&mut rng), "ccode": rng.pick(&ccodes)})
        }
        Operation::DomainStats => {
            let ds: Vec<String> = (0..rng.range(1, 12)).map(|_| domain(&mut rng)).collect();
            serde_json::json!({ "domains": ds })
        }
        Operation::BacklinkMetrics => {
            let us: Vec<String> = (0..rng.range(1, 12))
                .map(|_| {
                    let k = keyword(&mut rng);
                    format!("https://{}/{}", made_up_domain(&mut rng), slug(&k))
                })
                .collect();
            serde_json::json!({ "urls": us })
        }
        Operation::RankedKeywordsMetrics
        | Operation::RankedKeywordsDomain
        | Operation::BacklinkOverview => serde_json::json!({ "domain": domain(&mut rng) }),
        Operation::OutlineSeo | Operation::MicroblogPost | Operation::VideoVideo => {
            serde_json::json!({ "keyword": keyword(&mut rng) })
        }
    };
    let mut req = Request::from_json(op, &json.to_string()).unwrap_or_else(|_| fallback_request());
    req.set_key(key);
    req
}

fn fallback_request() -> Request {
    Request::OutlineSeo(ops::outline_seo::Request {
        key: ops::ApiKey::default(),
        keyword: "sandbox".into(),
    })
}
