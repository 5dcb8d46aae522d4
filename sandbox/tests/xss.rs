//! The `xss` mode: every scraped text and URL of a body is replaced by an attack string, while
//! the body keeps its shape (so it reaches the display code of clients and the app).

use sandbox::faults::{XSS_CORPUS, XSS_URLS};
use sandbox::{Config, Date, Sandbox, DEFAULT_KEY};
use serpkit::ops;
use serpkit::Operation;

fn call(op: Operation, body: &str) -> (u16, String) {
    let sb = Sandbox::new(Config::new(Date::new(2024, 3, 5).unwrap()));
    let body = body.replace("KEY", &format!("{DEFAULT_KEY}+xss"));
    let r = sb.handle("POST", &op.url_path(), &[], body.as_bytes());
    (r.status, r.body)
}

fn attack(s: &str) -> bool {
    XSS_CORPUS.iter().any(|p| s.contains(p)) || XSS_URLS.contains(&s)
}

#[test]
fn scraped_text_and_urls_become_attack_strings() {
    let (status, body) = call(Operation::OutlineSeo, r#"{"key":"KEY","keyword":"shoes"}"#);
    assert_eq!(status, 200);
    let pages: ops::outline_seo::Response = serpkit::decode(&body).unwrap();
    assert!(!pages.is_empty());
    for p in &pages {
        assert!(attack(&p.url), "{}", p.url);
        assert!(p.headings.iter().all(|h| attack(&h.text)));
    }

    let (_, body) = call(
        Operation::MicroblogPost,
        r#"{"key":"KEY","keyword":"shoes"}"#,
    );
    let posts: ops::microblog_post::Response = serpkit::decode(&body).unwrap();
    for p in &posts {
        assert!(attack(&p.tweet) && attack(&p.url) && attack(&p.profile.user_avatar));
        assert!(attack(&p.profile.fullname) && attack(&p.profile.username));
        assert!(p.hashtags.iter().all(|h| h.starts_with('#') && attack(h)));
        assert!(p.tagged.iter().all(|t| t.starts_with('@') && attack(t)));
    }

    let (_, body) = call(Operation::VideoVideo, r#"{"key":"KEY","keyword":"shoes"}"#);
    let videos: ops::video_video::Response = serpkit::decode(&body).unwrap();
    for v in &videos {
        assert!(attack(&v.title) && attack(&v.url) && attack(&v.image));
        assert!(attack(&v.channel.name) && attack(&v.channel.photo));
        assert!(v.description.is_empty() || attack(&v.description));
        assert!(v.hashtags.iter().all(|h| h.text == " " || attack(&h.text)));
    }
    assert!(body.contains("javascript:") && body.contains("<script>"));
}

#[test]
fn xss_mode_is_listed_and_charged_like_any_200() {
    let sb = Sandbox::new(Config::new(Date::new(2024, 3, 5).unwrap()));
    let body = format!(r#"{{"key":"{DEFAULT_KEY}+xss","keyword":"a","ccode":"US"}}"#);
    let r = sb.handle("POST", "/v1/related", &[], body.as_bytes());
    assert_eq!(r.status, 200);
    assert_eq!(sb.ledger().total, Operation::Related.price().usd);
    let bad = format!(r#"{{"key":"{DEFAULT_KEY}+xsss","keyword":"a","ccode":"US"}}"#);
    let r = sb.handle("POST", "/v1/related", &[], bad.as_bytes());
    assert_eq!(r.status, 400);
    assert!(r.body.contains("xss"), "{}", r.body);
}

#[test]
fn backlink_export_columns_get_formula_and_markup_payloads() {
    use sandbox::faults::CSV_CORPUS;
    let (status, body) = call(
        Operation::BacklinkOverview,
        r#"{"key":"KEY","domain":"example.com"}"#,
    );
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let entries = v["ref_newlost"].as_array().unwrap();
    assert!(entries.len() >= 2);
    let csv = |e: &serde_json::Value, k: &str| e[k].as_str().unwrap().to_owned();
    for (i, e) in entries.iter().enumerate() {
        for k in ["new_lost_type", "new_lost_date", "first_seen"] {
            let s = csv(e, k);
            assert_eq!(CSV_CORPUS.contains(&s.as_str()), i % 2 == 0, "{i} {k}: {s}");
        }
    }
    for p in ["=HYPERLINK(", "+1", "@SUM(", "<img src=x onerror="] {
        assert!(body.contains(p), "{p}");
    }
    // The rest keep real values: a type and dates.
    assert!(["new", "lost"].contains(&csv(&entries[1], "new_lost_type").as_str()));
}
