//! The lists of the last three sections (SEO outline, videos, microblog posts), drawn from
//! their stored results. Scraped text is rendered as text only.

use leptos::prelude::*;
use serpkit::ops::check::is_http_url;
use serpkit::ops::microblog_post::MicroblogPost;
use serpkit::ops::outline_seo::OutlinePage;
use serpkit::ops::video_video::{HashtagKind, Video};

use crate::components::{fmt_date, fmt_int, ExtLink, PricedCall, PricedCallCard, PricedCalls};

/// The card of a section whose result is a list drawn by `draw` (an unreadable stored body
/// draws as an empty list; its validation panel says what was wrong).
pub(super) fn section_card<T>(
    call: PricedCall,
    id: &'static str,
    title: &'static str,
    what: &'static str,
    draw: fn(&[T]) -> AnyView,
) -> impl IntoView
where
    T: serde::de::DeserializeOwned + Send + Sync + 'static,
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

pub(super) fn outline_view(pages: &[OutlinePage]) -> AnyView {
    if pages.is_empty() {
        return view! { <p class="meta">"No pages."</p> }.into_any();
    }
    view! {
        <ol class="outline-pages" data-testid="outline">
            {pages.iter().map(|p| {
                let url = p.url.clone();
                view! {
                    <li class="outline-page">
                        <p class="page-head"><span class="rank" title="Rank">{format!("#{}", p.rank)}</span>" "
                            <ExtLink href=url.clone()>{url.clone()}</ExtLink></p>
                        <ul class="tree" aria-label=format!("Headings of rank {}", p.rank)>
                            {p.headings.iter().map(|h| {
                                let lvl = h.level().unwrap_or(4);
                                view! {
                                    <li class=format!("h lvl-{lvl}") style=format!("--lvl:{}", lvl - 1)>
                                        <span class="htag">{h.kind.to_uppercase().chars().take(3).collect::<String>()}</span>
                                        " "{h.text.clone()}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </li>
                }
            }).collect_view()}
        </ol>
    }
    .into_any()
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
