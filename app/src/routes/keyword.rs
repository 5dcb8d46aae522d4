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
use serpkit::{Operation, Request, Usd};

use crate::components::csv::Cell;
use crate::components::{
    fmt_change, fmt_cpc, fmt_date, fmt_int, price_text, run_text, AddToList, Column, DataTable,
    ErrorBox, ExtLink, MonthlyChart, PriceButton, ResultMeta, SortKey, TableModel, TableRow,
    ValidationPanel,
};
use crate::model::CallResult;
use crate::paths::{keyword_route, keywords_route};
use crate::workspace::{self, use_workspace, Call, Job, Workspace};

/// A related keyword row.
#[derive(Clone, Debug, PartialEq)]
pub struct RelRow {
    r: RelatedKeyword,
    ccode: String,
}

impl TableRow for RelRow {
    fn id(&self) -> String {
        self.r.keyword.clone()
    }
    fn columns() -> Vec<Column<Self>> {
        vec![
            Column {
                id: "keyword",
                label: "Keyword",
                numeric: false,
                key: |x| SortKey::Text(x.r.keyword.clone()),
                csv: Some(|x| Cell::text(&x.r.keyword)),
            },
            Column {
                id: "volume",
                label: "Volume",
                numeric: true,
                key: |x| SortKey::Num(x.r.search_volume as f64),
                csv: Some(|x| Cell::num(x.r.search_volume)),
            },
            Column {
                id: "kd",
                label: "KD",
                numeric: true,
                key: |x| SortKey::Num(x.r.kd as f64),
                csv: Some(|x| Cell::num(x.r.kd)),
            },
            Column {
                id: "cpc",
                label: "CPC",
                numeric: true,
                key: |x| SortKey::Num(x.r.cpc),
                csv: Some(|x| Cell::decimal(x.r.cpc, 2)),
            },
            Column {
                id: "competition",
                label: "Competition",
                numeric: true,
                key: |x| SortKey::Num(x.r.competition),
                csv: Some(|x| Cell::decimal(x.r.competition, 2)),
            },
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
        }
        .into_any()
    }
}

/// One section's request, call state and stored result.
#[derive(Clone, Copy)]
struct Section {
    call: Call,
    request: Memo<Option<Request>>,
    shown: Memo<Option<CallResult>>,
    price: Memo<(Usd, u64)>,
}

impl Section {
    fn new(
        workspace: Workspace,
        make: impl Fn(String, String) -> Request + Send + Sync + 'static,
        kw: Memo<String>,
        cc: Memo<String>,
    ) -> Section {
        let request = Memo::new(move |_| {
            let k = kw.get();
            (!k.trim().is_empty()).then(|| make(k, cc.get()))
        });
        let shown = Memo::new(move |_| {
            request
                .get()
                .and_then(|r| workspace.result(&workspace::canonical(&r).1))
        });
        let price = Memo::new(move |_| {
            request
                .get()
                .map(|r| workspace::price_now(workspace, &r, false))
                .unwrap_or((Usd::ZERO, 0))
        });
        Section {
            call: Call::following(move || {
                request.with(|r| r.as_ref().map(|r| workspace::canonical(r).1))
            }),
            request,
            shown,
            price,
        }
    }

    fn run(self, workspace: Workspace, route: String, refresh: bool) {
        if let Some(request) = self.request.get_untracked() {
            let input = match &request {
                Request::Related(q) => format!("{}, {}", q.keyword, q.ccode),
                Request::SearchVolumeSingle(q) => format!("{}, {}", q.keyword, q.ccode),
                Request::OutlineSeo(q) => q.keyword.clone(),
                Request::VideoVideo(q) => q.keyword.clone(),
                Request::MicroblogPost(q) => q.keyword.clone(),
                _ => String::new(),
            };
            workspace::run(
                workspace,
                self.call,
                Job {
                    request,
                    route,
                    input,
                },
                refresh,
                |_| {},
            );
        }
    }
}

/// Section frame: title, price button (or refresh), status, body, validation.
fn frame(
    workspace: Workspace,
    s: Section,
    id: &'static str,
    title: &'static str,
    what: &'static str,
    route: Memo<String>,
    body: impl Fn(CallResult) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let text = Signal::derive(move || {
        let (p, u) = s.price.get();
        price_text(&format!("Get {what}"), p, u, "")
    });
    // Bought here: an imported result is shown, but its price button stays.
    let stored = move || s.shown.with(|r| r.as_ref().is_some_and(|r| !r.imported));
    let body = StoredValue::new(body);
    view! {
        <section class="card" id=id data-testid=format!("section-{id}") aria-labelledby=format!("{id}-title")>
            <div class="card-head">
                <h2 id=format!("{id}-title")>{title}</h2>
                <Show when=move || !stored()>
                    <PriceButton testid=id text=text price=Signal::derive(move || s.price.get().0)
                        disabled=Signal::derive(move || s.call.loading.get() || s.request.with(Option::is_none))
                        on_run=Callback::new(move |_| s.run(workspace, route.get_untracked(), false)) />
                </Show>
                <Show when=stored>
                    <PriceButton testid="refresh" secondary=true
                        text=Signal::derive(move || {
                            let p = s.request.get().map(|r| serpkit::estimate_cost(&r)).unwrap_or_default();
                            price_text("Refresh", p, 1, "")
                        })
                        price=Signal::derive(move || s.request.get().map(|r| serpkit::estimate_cost(&r)).unwrap_or_default())
                        disabled=Signal::derive(move || s.call.loading.get())
                        on_run=Callback::new(move |_| s.run(workspace, route.get_untracked(), true)) />
                </Show>
            </div>
            <ErrorBox call=s.call />
            {move || s.call.loading.get().then(|| view! { <p class="meta" role="status">"Loading…"</p> })}
            {move || match s.shown.get() {
                Some(r) => view! {
                    <div>
                        <ResultMeta result=Signal::derive(move || s.shown.get()) />
                        {body.with_value(|b| b(r))}
                        <ValidationPanel result=Signal::derive(move || s.shown.get()) />
                    </div>
                }.into_any(),
                None => view! { <p class="meta empty-small">{format!("Not loaded yet. Press “Get {what}” to buy it; it is saved for later.")}</p> }.into_any(),
            }}
        </section>
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
    let route = Memo::new(move |_| keyword_route(&kw.get(), &cc.get()));
    let single = Section::new(
        workspace,
        |k, c| {
            Request::SearchVolumeSingle(ops::search_volume_single::Request {
                key: Default::default(),
                keyword: k,
                ccode: c,
            })
        },
        kw,
        cc,
    );
    let related = Section::new(
        workspace,
        |k, c| {
            Request::Related(ops::related::Request {
                key: Default::default(),
                keyword: k,
                ccode: c,
            })
        },
        kw,
        cc,
    );
    let outline = Section::new(
        workspace,
        |k, _| {
            Request::OutlineSeo(ops::outline_seo::Request {
                key: Default::default(),
                keyword: k,
            })
        },
        kw,
        cc,
    );
    let video = Section::new(
        workspace,
        |k, _| {
            Request::VideoVideo(ops::video_video::Request {
                key: Default::default(),
                keyword: k,
            })
        },
        kw,
        cc,
    );
    let micro = Section::new(
        workspace,
        |k, _| {
            Request::MicroblogPost(ops::microblog_post::Request {
                key: Default::default(),
                keyword: k,
            })
        },
        kw,
        cc,
    );
    let sections = [single, related, outline, video, micro];

    let bought = Memo::new(move |_| bought_record(workspace, &kw.get(), &cc.get()).map(|x| x.0));
    let all_price = Memo::new(move |_| {
        sections
            .iter()
            .enumerate()
            .filter(|(i, _)| !(*i == 0 && bought.with(Option::is_some)))
            .map(|(_, s)| s.price.get().0)
            .sum::<Usd>()
    });
    let run_all = move || {
        for (i, s) in sections.iter().enumerate() {
            if i == 0 && bought.with_untracked(Option::is_some) {
                continue;
            }
            if s.shown
                .with_untracked(|r| r.as_ref().is_none_or(|r| r.imported))
            {
                s.run(workspace, route.get_untracked(), false);
            }
        }
    };

    // Related keywords table.
    let rel_rows = Signal::derive(move || {
        related.shown.with(|r| {
            r.as_ref()
                .and_then(|r| serpkit::decode::<Vec<RelatedKeyword>>(&r.body).ok())
                .unwrap_or_default()
                .into_iter()
                .map(|r| RelRow { r, ccode: cc.get() })
                .collect::<Vec<_>>()
        })
    });
    let rel_sort = RwSignal::new(Some(("volume".to_string(), true)));
    let rel_model = TableModel::new(rel_rows, rel_sort);
    let rel_selected = Signal::derive(move || {
        rel_model
            .selected_rows()
            .into_iter()
            .map(|r| r.r.keyword)
            .collect::<Vec<_>>()
    });
    let nav = StoredValue::new(navigate);
    let research_selected = move |_| {
        let ks = rel_selected.get_untracked();
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
            single.shown.with(|r| {
                r.as_ref()
                    .and_then(|r| serpkit::decode::<SearchVolumeRecord>(&r.body).ok())
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
                    <div><span class="label">"Year change"</span><strong>{fmt_change(r.yearly_change())}</strong></div>
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
                <PriceButton testid="run-all"
                    text=Signal::derive(move || { let p = all_price.get(); if p == Usd::ZERO { "Everything is loaded".to_string() } else { format!("Load every section — {p}") } })
                    price=Signal::derive(move || all_price.get())
                    disabled=Signal::derive(move || all_price.get() == Usd::ZERO || kw.with(String::is_empty))
                    on_run=Callback::new(move |_| run_all()) />
            </div>
            <Show when=move || !kw.with(String::is_empty)
                fallback=|| view! { <div class="empty"><p>"No keyword given. Open one from the "<A href="/keywords">"keyword explorer"</A>"."</p></div> }>
                <section class="card" id="monthly" data-testid="section-monthly" aria-labelledby="monthly-title">
                    <div class="card-head">
                        <h2 id="monthly-title">"Monthly searches"</h2>
                        <Show when=move || bought.with(Option::is_none) && single.shown.with(|r| r.as_ref().is_none_or(|r| r.imported))>
                            <PriceButton testid="monthly" text=Signal::derive(move || { single.price.track(); single.request.with(|r| r.as_ref().map(|r| run_text(workspace, "Get monthly searches", r, false, "")).unwrap_or_default()) })
                                price=Signal::derive(move || single.price.get().0)
                                disabled=Signal::derive(move || single.call.loading.get())
                                on_run=Callback::new(move |_| single.run(workspace, route.get_untracked(), false)) />
                        </Show>
                    </div>
                    <ErrorBox call=single.call />
                    {move || bought.with(Option::is_some).then(|| view! { <p class="meta">"From your keyword research (already bought: no charge)."</p> })}
                    {move || monthly().map(|v| v.into_any()).unwrap_or_else(|| view! { <p class="meta empty-small">"Not loaded yet."</p> }.into_any())}
                    <ValidationPanel result=Signal::derive(move || if bought.with(Option::is_some) { None } else { single.shown.get() }) />
                </section>
                {frame(workspace, related, "related", "Related keywords", "related keywords", route, move |_| view! {
                    <div class="toolbar">
                        <AddToList keywords=rel_selected id="rel" />
                        <button type="button" class="secondary" data-testid="research-selected"
                            disabled=move || rel_selected.with(Vec::is_empty) on:click=research_selected>
                            {move || format!("Research {} in explorer", rel_selected.with(Vec::len))}
                        </button>
                    </div>
                    <Show when=move || !rel_rows.with(Vec::is_empty) fallback=|| view! { <p class="meta">"No related keywords."</p> }>
                        <DataTable model=rel_model caption="Related keywords" testid="related-table" selectable=true />
                    </Show>
                }.into_any())}
                {frame(workspace, outline, "outline", "SEO outline of the top pages", "the SEO outline", route, |r| outline_view(&r.body))}
                {frame(workspace, video, "videos", "Videos", "videos", route, |r| video_view(&r.body))}
                {frame(workspace, micro, "posts", "Microblog posts", "posts", route, |r| micro_view(&r.body))}
            </Show>
        </section>
    }
}

fn outline_view(body: &str) -> AnyView {
    let pages: Vec<OutlinePage> = serpkit::decode(body).unwrap_or_default();
    if pages.is_empty() {
        return view! { <p class="meta">"No pages."</p> }.into_any();
    }
    view! {
        <ol class="outline-pages" data-testid="outline">
            {pages.into_iter().map(|p| {
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

fn video_view(body: &str) -> AnyView {
    let videos: Vec<Video> = serpkit::decode(body).unwrap_or_default();
    if videos.is_empty() {
        return view! { <p class="meta">"No videos."</p> }.into_any();
    }
    view! {
        <ul class="cards" data-testid="videos">
            {videos.into_iter().map(|v| {
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

fn micro_view(body: &str) -> AnyView {
    let posts: Vec<MicroblogPost> = serpkit::decode(body).unwrap_or_default();
    if posts.is_empty() {
        return view! { <p class="meta">"No posts."</p> }.into_any();
    }
    view! {
        <ul class="cards posts" data-testid="posts">
            {posts.into_iter().map(|p| view! {
                <li class="post">
                    <p class="author"><strong>{p.profile.fullname.clone()}</strong>{p.profile.verified.then_some(" ✓")}
                        " "<span class="meta">{format!("@{}", p.profile.username.trim_start_matches('@'))}</span></p>
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
