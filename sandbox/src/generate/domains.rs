//! Domain data: domain stats, backlink metrics of URLs, a domain's backlink overview.

use super::{made_up_domain, stamp};
use crate::date::Date;
use crate::json::{arr, obj, Obj};
use crate::rng::Rng;
use crate::words::*;

// ---------------------------------------------------------------------------------------
// Domain stats

/// `domainstats`: one record per requested domain, in request order. `domainAsEntered` is
/// present when the domain was entered in another form (upper case, `www.`) and on about a
/// third of the others.
pub fn domain_stats(domains: &[String]) -> String {
    let mut out = String::with_capacity(domains.len() * 900);
    arr(&mut out, |a| {
        for entered in domains {
            let domain = serpkit::records::normalize_domain(entered);
            let mut rng = Rng::from_parts(&["ds", &domain]);
            // Drawn whatever the spelling: every spelling of a domain gets the same numbers.
            let shown = rng.chance(0.33);
            let with_entered = domain != *entered || shown;
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

/// The backlinks and referring domains `backlink/metrics` reports for `url`: ranked keywords
/// give the same for their ranking URL.
pub(super) fn url_links(url: &str) -> (i64, i64) {
    let mut rng = Rng::from_parts(&["bm", url]);
    // The first draws of `write_backlink_metrics` at `backlink_metrics`' scale.
    let backlinks = rng.log_range(1, URL_SCALE);
    let _dofollow = rng.range(backlinks / 3, backlinks);
    (backlinks, rng.log_range(1, (backlinks / 2).max(1)))
}

/// Largest backlink count of one URL.
const URL_SCALE: i64 = 500_000;

/// `backlink/metrics`: one record per URL, in request order.
pub fn backlink_metrics(urls: &[String]) -> String {
    let mut out = String::with_capacity(urls.len() * 220);
    arr(&mut out, |a| {
        for url in urls {
            let mut rng = Rng::from_parts(&["bm", url]);
            a.o(|o| write_backlink_metrics(o, &mut rng, url, URL_SCALE));
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
