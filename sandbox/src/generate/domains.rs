//! Domain data: domain stats, backlink metrics of URLs, a domain's backlink overview; every
//! figure from the domain's profile ([`super::world`]), so the operations agree.

use super::world::{self, domain_profile, DomainProfile};
use super::{made_up_domain, stamp};
use crate::date::Date;
use crate::json::{arr, obj, Obj};
use crate::rng::Rng;
use crate::words::*;

// ---------------------------------------------------------------------------------------
// Domain stats

/// The topical trust flow category of each theme (same order as [`THEMES`]).
const TOPIC_CATEGORIES: [&str; 10] = [
    "Sports/Running",
    "Home/Cooking",
    "Recreation/Travel",
    "Computers/Software",
    "Home/Gardening",
    "Business/Financial Services",
    "Recreation/Pets",
    "Arts/Photography",
    "Shopping/Home and Garden",
    "Shopping/Clothing",
];

/// `domainstats`: one record per requested domain, in request order. `domainAsEntered` is
/// present when the domain was entered in another form (upper case, `www.`) and on about a
/// third of the others. Authority, rank, links and referring domains are the profile's
/// (the second provider's referring domains and links are the totals `backlink/overview`
/// reports; the first provider's link count is its own index's, ×0.5–1.5); the first
/// topical trust flow category is the domain's topic.
pub fn domain_stats(domains: &[String]) -> String {
    let mut out = String::with_capacity(domains.len() * 900);
    arr(&mut out, |a| {
        for entered in domains {
            let domain = serpkit::records::normalize_domain(entered);
            let p = domain_profile(&domain);
            let mut rng = Rng::from_parts(&["ds", &domain]);
            // Drawn whatever the spelling: every spelling of a domain gets the same numbers.
            let shown = rng.chance(0.33);
            let with_entered = domain != *entered || shown;
            a.o(|o| {
                o.s("domain", &domain);
                if with_entered {
                    o.s("domainAsEntered", entered);
                }
                write_stats(o, &mut rng, &p);
            });
        }
    });
    out
}

fn write_stats(o: &mut Obj<'_>, rng: &mut Rng, p: &DomainProfile) {
    let da = p.authority;
    let r = p.ref_domains;
    let n = |rng: &mut Rng, hi: f64| rng.log_range(1, hi.max(1.0) as i64).to_string();
    let links = (p.backlinks as f64 * rng.float(0.5, 1.5)).round() as i64;
    // A rank among 40 million sites: about 10 with a million referring domains.
    let rank = (4e7 / (r as f64).powf(1.1) * rng.float(0.7, 1.3))
        .round()
        .max(1.0) as i64;
    o.s("alphaLinks", &links.max(1).to_string())
        .s(
            "alphaPA",
            &rng.range(da / 2 + 1, (da + 10).min(100)).to_string(),
        )
        .s("alphaDA", &da.to_string())
        .s("alphaRank", &rank.to_string());
    let trust = if rng.chance(0.3) {
        String::new()
    } else {
        format!(
            "{:.2}",
            (da as f64 / 10.0 + rng.float(-1.0, 1.0)).clamp(0.5, 9.5)
        )
    };
    let spam = if rng.chance(0.3) {
        String::new()
    } else {
        rng.range(0, (17 - da / 6).max(1)).to_string()
    };
    o.s("alphaTrust", &trust).s("alphaSpam", &spam);
    let social = 10f64.powf(2.0 + 4.0 * p.size);
    o.s("betaStatReturned", "root")
        .s("SN_comments", &n(rng, social / 3.0))
        .s("SN_shares", &n(rng, social))
        .s(
            "stumbles",
            &rng.range(0, (social / 200.0) as i64).to_string(),
        )
        .s("image_board_pins", &n(rng, social / 15.0));
    let subnets = rng.range((r / 4).max(1), r);
    let ips = rng.range(subnets, r);
    o.s("betaLinks", &p.backlinks.to_string())
        .s("betaRefDomains", &r.to_string())
        .s("betaRefEDU", &rng.range(0, r / 50).to_string())
        .s("betaRefGov", &rng.range(0, r / 300).to_string())
        .s("betaRefSubnets", &subnets.to_string())
        .s("betaIPs", &ips.to_string());
    let tf = ((da as f64 * 0.6) + rng.float(-8.0, 8.0))
        .round()
        .clamp(0.0, 80.0) as i64;
    o.s("betaCF", &rng.range(tf, (tf + 25).min(100)).to_string())
        .s("betaTF", &tf.to_string());
    // The topic first, then other categories, each below the one before.
    let topics = if tf < 5 { 0 } else { rng.range(1, 3) };
    let mut cats: Vec<&str> = CATEGORIES
        .iter()
        .copied()
        .filter(|c| *c != TOPIC_CATEGORIES[p.topic])
        .collect();
    rng.shuffle(&mut cats);
    cats.insert(0, TOPIC_CATEGORIES[p.topic]);
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
}

// ---------------------------------------------------------------------------------------
// Backlink metrics

/// A page's or domain's link figures: dofollow a third or more of the backlinks, .edu and
/// .gov a small share, IPs and subnets below the referring domains.
fn write_backlink_metrics(o: &mut Obj<'_>, rng: &mut Rng, url: &str, links: (i64, i64)) {
    let (backlinks, refdomains) = links;
    let dofollow = rng.range(backlinks / 3, backlinks);
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
    world::url_links(url)
}

/// `backlink/metrics`: one record per URL, in request order; a URL's links are a share of
/// its domain's.
pub fn backlink_metrics(urls: &[String]) -> String {
    let mut out = String::with_capacity(urls.len() * 220);
    arr(&mut out, |a| {
        for url in urls {
            let mut rng = Rng::from_parts(&["bm", url]);
            a.o(|o| write_backlink_metrics(o, &mut rng, url, url_links(url)));
        }
    });
    out
}

// ---------------------------------------------------------------------------------------
// Backlink overview

/// One new or lost referring domain: (pool index, date, new, backlinks, dofollow).
type Event = (usize, Date, bool, i64, i64);

/// `backlink/overview` with exactly `n_ref` `ref_newlost` entries: the domain's totals (its
/// profile's referring domains and backlinks, at least `n_ref` referring domains), 64
/// consecutive days of new and lost backlinks ending at `today` (newest first), and new/lost
/// referring domains (repeats included) by `domain_inlink_rank` descending.
///
/// The history agrees with the totals: a referring domain's events alternate, new first when
/// it was first seen in the window and lost first when it linked before, so over the window
/// new minus lost referring domains never exceeds the total; a day's new (lost) backlinks
/// hold at least the backlinks of that day's new (lost) referring domains, and new minus lost
/// backlinks never exceeds the total backlinks.
pub fn backlink_overview(domain: &str, n_ref: usize, today: Date, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_0002);
    let host = domain.to_ascii_lowercase();
    let profile = domain_profile(&host);
    let ref_domains = profile.ref_domains.max(n_ref as i64);
    let backlinks = profile.backlinks.max(ref_domains);
    let per_domain = (backlinks / ref_domains).max(1);
    let born = today.add_days(-365 * profile.age_years);
    let (pool, events) = history(&mut rng, n_ref, today, born, per_domain);
    let stats = daily(&mut rng, &events, today, backlinks);
    let mut out = String::with_capacity(n_ref * 210 + 4_000);
    obj(&mut out, |o| {
        o.o("metrics", |m| {
            let links = (backlinks, ref_domains);
            write_backlink_metrics(m, &mut rng, &host, links);
            let created = today.add_days(-rng.range(30, 900)).max(born);
            let updated = today.add_days(-rng.range(0, 2));
            m.s("_id", &rng.hex(24))
                .i("__v", 0)
                .s("createdAt", &stamp(&mut rng, created))
                .s("updatedAt", &stamp(&mut rng, updated));
        });
        o.a("stats", |a| {
            for (i, (new, lost)) in stats.iter().enumerate() {
                a.o(|e| {
                    e.s("date", &today.add_days(-(i as i64)).to_string())
                        .i("new", *new)
                        .i("lost", *lost);
                });
            }
        });
        o.a("ref_newlost", |a| {
            for (p, date, new, links, dofollow) in &events {
                let (name, rank, first_seen) = &pool[*p];
                a.o(|e| {
                    e.s("new_lost_date", &date.to_string())
                        .s("new_lost_type", if *new { "new" } else { "lost" })
                        .s("refdomain", name)
                        .i("backlinks", *links)
                        .i("dofollow_backlinks", *dofollow)
                        .s("first_seen", &first_seen.to_string())
                        .i("domain_inlink_rank", *rank);
                });
            }
        });
    });
    out
}

/// The referring domains of the window (name, inlink rank, first seen) and their `n_ref`
/// events, by inlink rank descending.
fn history(
    rng: &mut Rng,
    n_ref: usize,
    today: Date,
    born: Date,
    per_domain: i64,
) -> (Vec<(String, i64, Date)>, Vec<Event>) {
    let start = today.add_days(-63);
    // A pool of referring domains smaller than the entry count, so domains repeat.
    let pool_size = (n_ref * 2 / 3).max(1);
    let before = (start.to_days() - born.to_days()).max(1);
    let pool: Vec<(String, i64, Date)> = (0..pool_size)
        .map(|i| {
            let name = if i % 3 == 0 {
                format!("{}.{}", rng.pick(SYLLABLES), made_up_domain(rng))
            } else {
                made_up_domain(rng)
            };
            let rank = (100.0 * rng.unit().powf(2.2)).round() as i64;
            let first_seen = if rng.chance(0.55) {
                start.add_days(rng.range(0, 63))
            } else {
                start.add_days(-rng.range(1, before))
            };
            (name, rank, first_seen)
        })
        .collect();
    // Each pool domain's dates: the first at its first sighting when that is in the window.
    let mut dates: Vec<Vec<Date>> = vec![Vec::new(); pool_size];
    for i in 0..n_ref {
        let p = if i < pool_size {
            i
        } else {
            rng.below(pool_size as u64) as usize
        };
        let from = pool[p].2.max(start);
        let date = if dates[p].is_empty() && pool[p].2 >= start {
            from
        } else {
            from.add_days(rng.range(0, today.to_days() - from.to_days()))
        };
        dates[p].push(date);
    }
    let mut events: Vec<Event> = Vec::with_capacity(n_ref);
    for (p, ds) in dates.iter_mut().enumerate() {
        ds.sort();
        let new_first = pool[p].2 >= start;
        for (k, date) in ds.iter().enumerate() {
            let links = rng.log_range(1, per_domain);
            let dofollow = rng.range(0, links);
            events.push((p, *date, (k % 2 == 0) == new_first, links, dofollow));
        }
    }
    events.sort_by(|a, b| {
        pool[b.0]
            .1
            .cmp(&pool[a.0].1)
            .then(b.1.cmp(&a.1))
            .then(a.0.cmp(&b.0))
    });
    (pool, events)
}

/// New and lost backlinks on each of the 64 days, newest first: new 0.2–0.6 % of the total a
/// day and lost 60–110 % of the new (each day ×0.5–1.5, rounded by chance), at least the
/// links of the day's new and lost referring domains; what would make new minus lost exceed
/// the total counts as lost on the oldest day.
fn daily(rng: &mut Rng, events: &[Event], today: Date, backlinks: i64) -> Vec<(i64, i64)> {
    let mut floors = vec![(0i64, 0i64); 64];
    for (_, date, new, links, _) in events {
        let i = (today.to_days() - date.to_days()) as usize;
        if let Some(f) = floors.get_mut(i) {
            if *new {
                f.0 += links;
            } else {
                f.1 += links;
            }
        }
    }
    let new_rate = backlinks as f64 * rng.float(0.002, 0.006);
    let lost_rate = new_rate * rng.float(0.6, 1.1);
    let round = |rng: &mut Rng, mean: f64| {
        let v = mean * rng.float(0.5, 1.5);
        (v.floor() + f64::from(u8::from(rng.chance(v.fract())))) as i64
    };
    let mut days: Vec<(i64, i64)> = floors
        .iter()
        .map(|(fnew, flost)| {
            let new = round(rng, new_rate).max(*fnew);
            let lost = round(rng, lost_rate).max(*flost);
            (new, lost)
        })
        .collect();
    let net: i64 = days.iter().map(|(n, l)| n - l).sum();
    if net > backlinks {
        days[63].1 += net - backlinks;
    }
    days
}
