//! The keyword detail view: monthly chart (`search_volume/single`, or the record already
//! bought in the explorer), related keywords (`related`), the SEO outline of the top pages
//! (`outline/seo`), videos (`video/video`) and microblog posts (`microblog/post`). Each
//! section shows its price and runs on its own click; stored results open without a call.
//! Scraped text is rendered as text only.
//!
//! The page reads the route and makes the sections' calls and state; each section's view is
//! its own module.

mod lists;
mod monthly;
mod related;

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops;
use serpkit::ops::search_volume_bulk::SearchVolumeRecord;
use serpkit::{Operation, Request};

use crate::components::{AddToList, LoadEverything, PricedCall};
use crate::model::CallResult;
use crate::paths::{keyword_route, use_page_query, KeywordQuery};
use crate::workspace::{use_workspace, Workspace};

use lists::{micro_view, outline_view, section_card, video_view};
use monthly::MonthlyCard;
use related::{Related, RelatedCard};

/// A bulk record for this keyword already bought in the explorer, if any.
fn bought_record(
    workspace: Workspace,
    kw: &str,
    cc: &str,
) -> Option<(SearchVolumeRecord, CallResult)> {
    let needle = format!("\"ccode\":\"{}\"", cc.to_uppercase());
    let kw_l = kw.to_lowercase();
    workspace.results.with(|m| {
        m.values()
            .filter(|r| {
                // Imported results are not bought here.
                !r.imported
                    && r.operation == Operation::SearchVolumeBulk.path()
                    && r.request.contains(&needle)
            })
            .find_map(|r| {
                serpkit::decode::<Vec<SearchVolumeRecord>>(&r.body)
                    .ok()?
                    .into_iter()
                    .find(|x| x.keyword.to_lowercase() == kw_l)
                    .map(|x| (x, r.clone()))
            })
    })
}
/// The keyword (`kw`) and country (`cc`, else the default country) of the query.
fn keyword_query(workspace: Workspace) -> (Memo<String>, Memo<String>) {
    let q = use_page_query::<KeywordQuery>();
    let kw = Memo::new(move |_| q.with(|q| q.kw.as_deref().unwrap_or_default().trim().to_string()));
    let cc = Memo::new(move |_| {
        let c = q.with(|q| q.cc.as_deref().unwrap_or_default().trim().to_uppercase());
        if c.is_empty() {
            workspace.settings.with_untracked(|s| s.ccode.clone())
        } else {
            c
        }
    });
    (kw, cc)
}

/// The sections' calls for the keyword `kw` in country `cc`.
#[derive(Clone, Copy)]
struct Calls {
    single: PricedCall,
    related: PricedCall,
    outline: PricedCall,
    video: PricedCall,
    microblog: PricedCall,
}

impl Calls {
    fn new(workspace: Workspace, kw: Memo<String>, cc: Memo<String>) -> Calls {
        let route = Signal::derive(move || keyword_route(&kw.get(), &cc.get()));
        // A section's call; `with_country` sections are asked for the country too (and say so
        // in the history).
        let section = move |with_country: bool, make: fn(String, String) -> Request| {
            let input = Signal::derive(move || {
                if with_country {
                    format!("{}, {}", kw.get(), cc.get())
                } else {
                    kw.get()
                }
            });
            PricedCall::new(workspace, route, input, move || {
                let k = kw.get();
                (!k.trim().is_empty()).then(|| make(k, cc.get()))
            })
        };
        Calls {
            single: section(true, |keyword, ccode| {
                Request::SearchVolumeSingle(ops::search_volume_single::Request {
                    key: Default::default(),
                    keyword,
                    ccode,
                })
            }),
            related: section(true, |keyword, ccode| {
                Request::Related(ops::related::Request {
                    key: Default::default(),
                    keyword,
                    ccode,
                })
            }),
            outline: section(false, |keyword, _| {
                Request::OutlineSeo(ops::outline_seo::Request {
                    key: Default::default(),
                    keyword,
                })
            }),
            video: section(false, |keyword, _| {
                Request::VideoVideo(ops::video_video::Request {
                    key: Default::default(),
                    keyword,
                })
            }),
            microblog: section(false, |keyword, _| {
                Request::MicroblogPost(ops::microblog_post::Request {
                    key: Default::default(),
                    keyword,
                })
            }),
        }
    }
}

/// The keyword detail page (`/keyword?kw=...&cc=US`).
#[component]
pub fn KeywordDetail() -> impl IntoView {
    let workspace = use_workspace();
    let (kw, cc) = keyword_query(workspace);
    let calls = Calls::new(workspace, kw, cc);
    let Calls {
        single,
        related,
        outline,
        video,
        microblog,
    } = calls;
    let bought = Memo::new(move |_| bought_record(workspace, &kw.get(), &cc.get()).map(|x| x.0));
    // The monthly chart needs no call when the explorer already bought the keyword's record.
    let every_call = Signal::derive(move || {
        let rest = [related, outline, video, microblog];
        if bought.with(Option::is_some) {
            rest.to_vec()
        } else {
            std::iter::once(single).chain(rest).collect()
        }
    });
    let single_record = single.decoded::<SearchVolumeRecord>();
    let related_table = Related::new(workspace, related, kw, cc);

    view! {
        <section class="page" aria-labelledby="kd-title">
            <p class="crumbs"><A href="/keywords">"Keyword explorer"</A>" › keyword"</p>
            <div class="detail-head">
                <h1 id="kd-title" data-testid="detail-keyword">{move || kw.get()}</h1>
                <span class="badge">{move || cc.get()}</span>
                <AddToList keywords=Signal::derive(move || vec![kw.get()]) id="kd" />
                <LoadEverything calls=every_call blocked=Signal::derive(move || kw.with(String::is_empty)) />
            </div>
            <Show when=move || !kw.with(String::is_empty)
                fallback=|| view! { <div class="empty"><p>"No keyword given. Open one from the "<A href="/keywords">"keyword explorer"</A>"."</p></div> }>
                <MonthlyCard single=single bought=bought record=single_record />
                <RelatedCard related=related_table />
                {section_card(outline, "outline", "SEO outline of the top pages", "the SEO outline", move |pages| outline_view(kw, pages, Signal::derive(move || outline.origin())))}
                {section_card(video, "videos", "Videos", "videos", video_view)}
                {section_card(microblog, "posts", "Microblog posts", "posts", micro_view)}
            </Show>
        </section>
    }
}
