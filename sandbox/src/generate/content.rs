//! Content data about a keyword: the SEO outline, a microblog post, videos.

use super::queries::{family_of, theme_query};
use super::{made_up_domain, person, slug, stamp, theme_for};
use crate::date::Date;
use crate::json::{arr, Arr, Obj};
use crate::rng::Rng;
use crate::words::*;

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

/// Pages a family's results draw from, best first.
const FAMILY_PAGES: usize = 12;

/// A page of the results of `keyword`'s family ([`family_of`]) at `i` (0: the family's best).
fn family_page(family: &str, i: usize) -> String {
    let mut rng = Rng::from_parts(&["outline-family", family, &i.to_string()]);
    format!(
        "https://{}{}/{}",
        if rng.chance(0.4) { "www." } else { "" },
        made_up_domain(&mut rng),
        slug(&format!("{} {family}", rng.pick(ARTICLE_WORDS)))
    )
}

/// The URLs of `keyword`'s results, best first: as on a real results page, keywords of one
/// family ("best running shoes", "running shoes for women") share most of their pages, the
/// family's best ones near the top (each of the family's pages is taken with a chance of
/// 0.65, in order), and the rest are pages of the keyword's own; keywords of two families share
/// none. So clustering keywords by shared results finds the families.
fn outline_urls(rng: &mut Rng, keyword: &str, pages: usize) -> Vec<String> {
    let lower = keyword.trim().to_lowercase();
    let family = family_of(&lower).to_string();
    let mut pool = (0..FAMILY_PAGES).map(|i| family_page(&family, i));
    let mut urls = Vec::with_capacity(pages);
    while urls.len() < pages {
        let own = rng.chance(0.3);
        let shared = if own {
            None
        } else {
            pool.by_ref().find(|_| rng.chance(0.65))
        };
        urls.push(shared.unwrap_or_else(|| {
            format!(
                "https://{}{}/{}",
                if rng.chance(0.4) { "www." } else { "" },
                made_up_domain(rng),
                slug(&format!("{} {}", rng.pick(ARTICLE_WORDS), keyword))
            )
        }));
    }
    urls
}

/// `outline/seo`: up to 10 ranking pages by rank ascending, each with its headings (h1-h4) in
/// page order; some heading text carries stray markup or style text. Related keywords share
/// pages ([`outline_urls`]).
pub fn outline_seo(keyword: &str) -> String {
    let mut rng = Rng::from_parts(&["outline", &keyword.to_lowercase()]);
    let pages = if rng.chance(0.75) {
        10
    } else {
        rng.range(6, 9)
    };
    let urls = outline_urls(&mut rng, keyword, pages as usize);
    let mut rank = 0;
    let mut out = String::with_capacity(6_000);
    arr(&mut out, |a| {
        for url in urls {
            rank += if rng.chance(0.15) { 2 } else { 1 };
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
    let heads: &[Head] = theme_for(keyword);
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
            // Real ids are 64-bit: most are beyond 2^53, which JS numbers cannot hold exactly.
            let user_id = rng.range(100_000, 1_900_000_000_000_000_000);
            let mut hashtags = Vec::new();
            if rng.chance(0.6) {
                hashtags.extend(hashtag_of(keyword));
            }
            if rng.chance(0.4) {
                hashtags.extend(hashtag_of(rng.pick(heads).term));
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
    let heads: &[Head] = theme_for(keyword);
    let n = rng.range(10, 20);
    let mut out = String::with_capacity(n as usize * 2_500);
    arr(&mut out, |a| {
        for _ in 0..n {
            let id = rng.b64(11);
            let mut tags: Vec<String> = Vec::new();
            if rng.chance(0.7) {
                tags.extend(hashtag_of(keyword));
                for _ in 0..rng.range(0, 3) {
                    tags.extend(hashtag_of(rng.pick(heads).term));
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
                                let mut t: Vec<&str> = heads.iter().map(|h| h.term).take(rng.range(0, 4) as usize).collect();
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
                    kws.push(theme_query(&mut rng, heads));
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
