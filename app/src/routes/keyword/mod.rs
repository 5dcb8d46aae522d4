//! The keyword detail view: monthly chart (`search_volume/single`, or the record already
//! bought in the explorer), related keywords (`related`), the SEO outline of the top pages
//! (`outline/seo`), videos (`video/video`) and microblog posts (`microblog/post`). Each
//! section shows its price and runs on its own click; stored results open without a call.
//! Scraped text is rendered as text only.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use serpkit::ops::microblog_post::MicroblogPost;
use serpkit::ops::outline_seo::OutlinePage;
use serpkit::ops::related::RelatedKeyword;
use serpkit::ops::search_volume_bulk::SearchVolumeRecord;
use serpkit::ops::video_video::{HashtagKind, Video};
use serpkit::ops::{self, check::is_http_url};
use serpkit::{Operation, Request};

use crate::components::csv::Cell;
use crate::components::keyword_row::{score_column, score_text, Scored};
use crate::components::{
    current_month, fmt_change, fmt_cpc, fmt_date, fmt_int, AddToList, Column, DataTable, ErrorBox,
    ExtLink, LoadEverything, MonthlyChart, PriceButton, PricedCall, PricedCallCard, PricedCalls,
    SortKey, TableModel, TableRow, ValidationPanel,
};
use crate::model::CallResult;
use crate::paths::{keyword_route, keywords_route};
use crate::research::{score, trends};
use crate::workspace::{use_workspace, Workspace};

/// A related keyword row.
#[derive(Clone, Debug, PartialEq)]
pub struct RelatedRow {
    r: RelatedKeyword,
    ccode: String,
    /// The opportunity score within the related keywords shown (the one list here that
    /// gives keyword difficulty, so it counts with its weight).
    score: Option<f64>,
}

impl Scored for RelatedRow {
    fn score(&self) -> Option<f64> {
        self.score
    }
}

impl TableRow for RelatedRow {
    fn id(&self) -> String {
        self.r.keyword.clone()
    }
    fn columns() -> Vec<Column<[Self]>> {
        vec![
            Column {
                id: "keyword",
                label: "Keyword",
                numeric: false,
                width: "",
                key: |rows, i| SortKey::text(&rows[i].r.keyword),
                csv: Some(|rows, i| Cell::text(&rows[i].r.keyword)),
                csv_header: None,
            },
            Column {
                id: "volume",
                label: "Volume",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].r.search_volume),
                csv: Some(|rows, i| Cell::num(rows[i].r.search_volume)),
                csv_header: None,
            },
            Column {
                id: "kd",
                label: "KD",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].r.kd),
                csv: Some(|rows, i| Cell::num(rows[i].r.kd)),
                csv_header: None,
            },
            Column {
                id: "cpc",
                label: "CPC",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].r.cpc),
                csv: Some(|rows, i| Cell::decimal(rows[i].r.cpc, 2)),
                csv_header: None,
            },
            Column {
                id: "competition",
                label: "Competition",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].r.competition),
                csv: Some(|rows, i| Cell::decimal(rows[i].r.competition, 2)),
                csv_header: None,
            },
            score_column(),
        ]
    }
    fn cells(&self) -> AnyView {
        let href = keyword_route(&self.r.keyword, &self.ccode);
        let kw = self.r.keyword.clone();
        view! {
            <td><A href=href attr:class="kw" attr:title="Research this keyword">{kw}</A></td>
            <td class="num">{fmt_int(self.r.search_volume)}</td>
            <td class="num"><span class="kd" style=format!("--kd:{}", self.r.kd.clamp(0, 100))>{self.r.kd}</span></td>
            <td class="num">{fmt_cpc(self.r.cpc)}</td>
            <td class="num">{format!("{:.2}", self.r.competition)}</td>
            <td class="num" data-col="score">{score_text(self.score)}</td>
        }
        .into_any()
    }
}

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

/// The keyword detail page (`/keyword?kw=...&cc=US`).
#[component]
pub fn KeywordDetail() -> impl IntoView {
    let workspace = use_workspace();
    let q = use_query_map();
    let navigate = use_navigate();
    let kw = Memo::new(move |_| {
        q.with(|m| m.get("kw"))
            .unwrap_or_default()
            .trim()
            .to_string()
    });
    let cc = Memo::new(move |_| {
        let c = q
            .with(|m| m.get("cc"))
            .unwrap_or_default()
            .trim()
            .to_uppercase();
        if c.is_empty() {
            workspace.settings.with_untracked(|s| s.ccode.clone())
        } else {
            c
        }
    });
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
    let single = section(true, |keyword, ccode| {
        Request::SearchVolumeSingle(ops::search_volume_single::Request {
            key: Default::default(),
            keyword,
            ccode,
        })
    });
    let related = section(true, |keyword, ccode| {
        Request::Related(ops::related::Request {
            key: Default::default(),
            keyword,
            ccode,
        })
    });
    let outline = section(false, |keyword, _| {
        Request::OutlineSeo(ops::outline_seo::Request {
            key: Default::default(),
            keyword,
        })
    });
    let video = section(false, |keyword, _| {
        Request::VideoVideo(ops::video_video::Request {
            key: Default::default(),
            keyword,
        })
    });
    let microblog = section(false, |keyword, _| {
        Request::MicroblogPost(ops::microblog_post::Request {
            key: Default::default(),
            keyword,
        })
    });

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

    // Related keywords table.
    let related_keywords = related.decoded::<Vec<RelatedKeyword>>();
    let related_rows = Signal::derive(move || {
        related_keywords.with(|r| match r {
            Some(Ok(list)) => {
                let metrics: Vec<score::Metrics> = list
                    .iter()
                    .map(|r| score::Metrics {
                        volume: Some(r.search_volume as f64),
                        cpc: Some(r.cpc),
                        competition: Some(r.competition),
                        difficulty: Some(r.kd as f64),
                    })
                    .collect();
                let scores = workspace
                    .settings
                    .with(|s| score::scores(&metrics, &s.score_weights));
                list.iter()
                    .zip(scores)
                    .map(|(r, score)| RelatedRow {
                        r: r.clone(),
                        ccode: cc.get(),
                        score,
                    })
                    .collect::<Vec<_>>()
            }
            _ => Vec::new(),
        })
    });
    let related_sort = RwSignal::new(Some(("volume".to_string(), true)));
    let related_model = TableModel::new(related_rows, related_sort);
    let related_selected = Signal::derive(move || {
        related_model
            .selected_rows()
            .into_iter()
            .map(|r| r.r.keyword)
            .collect::<Vec<_>>()
    });
    let nav = StoredValue::new(navigate);
    let research_selected = move |_| {
        let ks = related_selected.get_untracked();
        if !ks.is_empty() {
            nav.with_value(|n| {
                n(
                    &keywords_route(&ks, &cc.get_untracked()),
                    Default::default(),
                )
            });
        }
    };

    let monthly = move || {
        let rec = bought.get().or_else(|| {
            single_record.with(|r| match r {
                Some(Ok(record)) => Some((**record).clone()),
                _ => None,
            })
        });
        rec.map(|r| {
            let months: Vec<(String, i64)> = r
                .targeted_monthly_searches
                .iter()
                .map(|m| (format!("{} {}", m.month, m.year), m.value))
                .collect();
            view! {
                <div class="stats">
                    <div><span class="label">"Volume"</span><strong data-testid="detail-volume">{fmt_int(r.search_volume)}</strong></div>
                    <div><span class="label">"CPC"</span><strong>{fmt_cpc(r.average_cpc)}</strong></div>
                    <div><span class="label">"Competition"</span><strong>{format!("{:.2}", r.competition)}</strong></div>
                    {
                        let t = trends::trend(&r.targeted_monthly_searches, current_month());
                        view! {
                            <div><span class="label">"12-month change"</span><strong data-testid="detail-change12">{fmt_change(t.change_12m)}</strong></div>
                            <div><span class="label">"3-month change"</span><strong data-testid="detail-change3">{fmt_change(t.change_3m)}</strong></div>
                            <div><span class="label">"Peak month"</span><strong data-testid="detail-peak">{trends::month_short(t.peak_month)}</strong></div>
                            <div title=trends::SEASON_RULE><span class="label">"Season"</span><strong data-testid="detail-season">{match t.season { trends::Season::NoData => "–", s => s.label() }}</strong></div>
                        }
                    }
                </div>
                <MonthlyChart months=months />
            }
        })
    };

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
                <section class="card" id="monthly" data-testid="section-monthly" aria-labelledby="monthly-title">
                    <div class="card-head">
                        <h2 id="monthly-title">"Monthly searches"</h2>
                        <Show when=move || bought.with(Option::is_none) && !single.bought()>
                            <PriceButton testid="monthly" text=Signal::derive(move || PricedCalls::one(single).button_text("Get monthly searches"))
                                price=Signal::derive(move || single.price())
                                disabled=Signal::derive(move || single.call.loading.get())
                                on_run=Callback::new(move |_| single.run(false)) />
                        </Show>
                    </div>
                    <ErrorBox call=single.call />
                    {move || bought.with(Option::is_some).then(|| view! { <p class="meta">"From your keyword research (already bought: no charge)."</p> })}
                    {move || monthly().map(|v| v.into_any()).unwrap_or_else(|| view! { <p class="meta empty-small">"Not loaded yet."</p> }.into_any())}
                    <ValidationPanel result=Signal::derive(move || if bought.with(Option::is_some) { None } else { single.meta.get() }) />
                </section>
                <PricedCallCard calls=PricedCalls::one(related) id="related" title="Related keywords" what="related keywords" body=move || view! {
                    <div class="toolbar">
                        <AddToList keywords=related_selected id="rel" />
                        <button type="button" class="secondary" data-testid="research-selected"
                            disabled=move || related_selected.with(Vec::is_empty) on:click=research_selected>
                            {move || format!("Research {} in explorer", related_selected.with(Vec::len))}
                        </button>
                    </div>
                    <Show when=move || !related_rows.with(Vec::is_empty) fallback=|| view! { <p class="meta">"No related keywords."</p> }>
                        <DataTable model=related_model caption="Related keywords" testid="related-table" selectable=true />
                        <p class="meta" data-testid="related-score-formula">{move || workspace.settings.with(|s| score::formula_text(&s.score_weights))}" Weights: Settings."</p>
                    </Show>
                } />
                {section_card(outline, "outline", "SEO outline of the top pages", "the SEO outline", outline_view)}
                {section_card(video, "videos", "Videos", "videos", video_view)}
                {section_card(microblog, "posts", "Microblog posts", "posts", micro_view)}
            </Show>
        </section>
    }
}

/// The card of a section whose result is a list drawn by `draw` (an unreadable stored body
/// draws as an empty list; its validation panel says what was wrong).
fn section_card<T>(
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

fn outline_view(pages: &[OutlinePage]) -> AnyView {
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

fn video_view(videos: &[Video]) -> AnyView {
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

fn micro_view(posts: &[MicroblogPost]) -> AnyView {
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
