//! The lists of the last three sections (SEO outline, videos, microblog posts), drawn from
//! their stored results. Scraped text is rendered as text only; headings are cleaned of
//! markup and style text first (`format::clean_heading`).

use leptos::prelude::*;
use serpkit::ops::check::is_http_url;
use serpkit::ops::microblog_post::MicroblogPost;
use serpkit::ops::outline_seo::{Heading, OutlinePage};
use serpkit::ops::video_video::{HashtagKind, Video};

use crate::components::csv::{self, to_csv, Cell};
use crate::components::{fmt_date, fmt_int, ExtLink, PricedCall, PricedCallCard, PricedCalls};
use crate::format::clean_heading;
use crate::workspace::use_workspace;

/// The card of a section whose result is a list drawn by `draw` (an unreadable stored body
/// draws as an empty list; its validation panel says what was wrong).
pub(super) fn section_card<T, F>(
    call: PricedCall,
    id: &'static str,
    title: &'static str,
    what: &'static str,
    draw: F,
) -> impl IntoView
where
    T: serde::de::DeserializeOwned + Send + Sync + 'static,
    F: Fn(&[T]) -> AnyView + Send + Sync + Copy + 'static,
{
    let items = call.decoded::<Vec<T>>();
    let body = move || {
        items.with(|r| match r {
            Some(Ok(list)) => draw(list),
            _ => draw(&[]),
        })
    };
    view! { <PricedCallCard calls=PricedCalls::one(call) id=id title=title what=what body=body /> }
}

/// The SEO outline of the pages ranking for `keyword`: each heading as clean text
/// ([`clean_heading`]; the text as scraped in its tooltip and in the CSV), and a line naming
/// the positions no page holds.
pub(super) fn outline_view(
    keyword: Memo<String>,
    pages: &[OutlinePage],
    origin: Signal<csv::Origin>,
) -> AnyView {
    if pages.is_empty() {
        return view! { <p class="meta">"No pages."</p> }.into_any();
    }
    let skipped = skipped_positions(pages.iter().map(|p| p.rank));
    let csv_text = outline_csv(pages);
    let workspace = use_workspace();
    let export = move |_| {
        let file = format!("seo-outline-{}.csv", keyword.get_untracked());
        if let Err(e) = csv::download(&file, "text/csv", &csv_text, origin.get_untracked()) {
            workspace.notice(format!("CSV export failed: {e}"));
        }
    };
    view! {
        <div class="toolbar">
            <button type="button" class="secondary" data-testid="outline-csv" on:click=export>"Export CSV"</button>
        </div>
        {(!skipped.is_empty()).then(|| view! {
            <p class="meta" data-testid="outline-skipped">{skipped_text(&skipped)}</p>
        })}
        <ol class="outline-pages" data-testid="outline">
            {pages.iter().map(|p| {
                let url = p.url.clone();
                view! {
                    <li class="outline-page">
                        <p class="page-head"><span class="rank" title="Position in the search results">{format!("#{}", p.rank)}</span>" "
                            <ExtLink href=url.clone()>{url.clone()}</ExtLink></p>
                        <ul class="tree" aria-label=format!("Headings of the page at position {}", p.rank)>
                            {p.headings.iter().map(heading_item).collect_view()}
                        </ul>
                    </li>
                }
            }).collect_view()}
        </ol>
    }
    .into_any()
}

/// One heading of the outline: its tag and clean text; the text as scraped in the tooltip
/// when cleaning changed it.
fn heading_item(h: &Heading) -> impl IntoView {
    let lvl = h.level().unwrap_or(4);
    let clean = clean_heading(&h.text);
    let raw = (clean != h.text).then(|| format!("As scraped: {}", h.text));
    let shown = if clean.is_empty() {
        view! { <span class="meta" data-testid="heading-empty">"(no text: markup only)"</span> }.into_any()
    } else {
        view! { <span data-testid="heading-text">{clean}</span> }.into_any()
    };
    view! {
        <li class=format!("h lvl-{lvl}") style=format!("--lvl:{}", lvl - 1) title=raw>
            <span class="htag">{h.kind.to_uppercase().chars().take(3).collect::<String>()}</span>
            " "{shown}
        </li>
    }
}

/// The positions from 1 to the last rank that no page of the outline holds.
fn skipped_positions(ranks: impl Iterator<Item = i64>) -> Vec<i64> {
    let ranks: Vec<i64> = ranks.collect();
    let last = ranks.iter().copied().max().unwrap_or(0);
    (1..last).filter(|r| !ranks.contains(r)).collect()
}

/// "Position 3 is …" / "Positions 3 and 7 are …": why ranks skip.
fn skipped_text(skipped: &[i64]) -> String {
    let list: Vec<String> = skipped.iter().map(i64::to_string).collect();
    let (head, verb) = match list.as_slice() {
        [one] => (format!("Position {one}"), "is"),
        [init @ .., last] => (format!("Positions {} and {last}", init.join(", ")), "are"),
        [] => return String::new(),
    };
    format!(
        "{head} {verb} not in the outline: the search results there are not pages (a video block, \
         a map, a box of questions), so they have no headings."
    )
}

/// The outline as CSV, one line per heading: the clean text shown and the text as scraped.
fn outline_csv(pages: &[OutlinePage]) -> String {
    let rows = pages.iter().flat_map(|p| {
        p.headings.iter().map(|h| {
            vec![
                Cell::num(p.rank),
                Cell::text(p.url.clone()),
                Cell::text(h.kind.clone()),
                Cell::text(clean_heading(&h.text)),
                Cell::text(h.text.clone()),
            ]
        })
    });
    to_csv(
        &["Position", "URL", "Tag", "Heading", "Heading as scraped"],
        rows,
    )
}

pub(super) fn video_view(videos: &[Video]) -> AnyView {
    if videos.is_empty() {
        return view! { <p class="meta">"No videos."</p> }.into_any();
    }
    view! {
        <ul class="cards" data-testid="videos">
            {videos.iter().cloned().map(|v| {
                let thumb = is_http_url(&v.image).then(|| v.image.clone());
                let tags: Vec<String> = v.hashtags.iter().filter(|h| h.kind() == HashtagKind::Tag).map(|h| h.text.clone()).collect();
                let failed = RwSignal::new(false);
                view! {
                    <li class="vcard">
                        <div class="thumb">
                            {thumb.map(|src| view! {
                                <img src=src alt="" loading="lazy" referrerpolicy="no-referrer" width="160" height="90"
                                    class:hidden=move || failed.get() on:error=move |_| failed.set(true) />
                            })}
                        </div>
                        <div class="vbody">
                            <p class="vtitle"><ExtLink href=v.url.clone()>{v.title.clone()}</ExtLink></p>
                            <p class="meta">{v.channel.name.clone()}{v.channel.is_verified.then_some(" ✓")}
                                " · "{format!("{} views", fmt_int(v.views))}" · "{fmt_date(&v.posted_on)}</p>
                            <p class="tags">{tags.into_iter().map(|t| view! { <span class="tag">{t}</span> }).collect_view()}</p>
                        </div>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}

pub(super) fn micro_view(posts: &[MicroblogPost]) -> AnyView {
    if posts.is_empty() {
        return view! { <p class="meta">"No posts."</p> }.into_any();
    }
    view! {
        <ul class="cards posts" data-testid="posts">
            {posts.iter().map(|p| view! {
                <li class="post">
                    <p class="author"><strong>{p.profile.fullname.clone()}</strong>{p.profile.verified.then_some(" ✓")}
                        " "<span class="meta">{format!("@{}", p.profile.username.trim_start_matches('@'))}</span>
                        // The 64-bit id as the service sent it: decoded in Rust (i64), never
                        // through a JS number, so its digits are exact (the app's exact mode).
                        " "<span class="meta" data-testid="user-id" title="User id">{format!("id {}", p.profile.user_id)}</span></p>
                    <p class="text">{p.tweet.clone()}</p>
                    <p class="tags">
                        {p.hashtags.iter().map(|t| view! { <span class="tag">{t.clone()}</span> }).collect_view()}
                        {p.tagged.iter().map(|t| view! { <span class="tag at">{t.clone()}</span> }).collect_view()}
                    </p>
                    <p class="meta">{format!("♥ {} · ⟲ {} · ↩ {}", fmt_int(p.likes), fmt_int(p.retweets), fmt_int(p.replies))}
                        " · "{fmt_date(&p.posted_on)}" · "<ExtLink href=p.url.clone()>"open post"</ExtLink></p>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_positions_are_named() {
        assert!(skipped_positions([1, 2, 3].into_iter()).is_empty());
        assert_eq!(skipped_positions([1, 2, 4, 5, 8].into_iter()), vec![3, 6, 7]);
        assert_eq!(skipped_positions([2, 3].into_iter()), vec![1]);
        assert_eq!(
            skipped_text(&[3]),
            "Position 3 is not in the outline: the search results there are not pages (a video \
             block, a map, a box of questions), so they have no headings."
        );
        assert!(skipped_text(&[3, 6, 7]).starts_with("Positions 3, 6 and 7 are not"));
    }

    #[test]
    fn the_csv_keeps_the_text_as_scraped() {
        let pages: Vec<OutlinePage> = serde_json::from_str(
            r#"[{"headings":[{"type":"h1","text":"Best shoes&nbsp;<b>"}],"url":"https://a.example/x","rank":1}]"#,
        )
        .unwrap();
        assert_eq!(
            outline_csv(&pages),
            "Position,URL,Tag,Heading,Heading as scraped\r\n1,https://a.example/x,h1,Best shoes,Best shoes&nbsp;<b>\r\n"
        );
    }
}
