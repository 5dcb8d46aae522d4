//! The explorer's call: the typed keywords' request, its price and input check, and Run.

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use serpkit::ops::search_volume_bulk;
use serpkit::Request;

use super::query::LAST_VIEW_KEY;
use crate::model::{parse_keywords, plural, preview};
use crate::paths::keywords_route;
use crate::store;
use crate::workspace::{self, Call, Job, Workspace};

/// The typed input's request and call. `Copy`.
#[derive(Clone, Copy)]
pub struct Run {
    /// The typed keywords.
    pub keywords: Memo<Vec<String>>,
    /// Their request.
    pub request: Memo<Request>,
    /// The request's cache key.
    pub key: Memo<String>,
    /// The call running it.
    pub call: Call,
    /// Its price (stored results reused).
    pub price: Memo<workspace::Quote>,
    /// Its price bought again.
    pub full_price: Memo<workspace::Quote>,
    /// Why the input cannot run, if it cannot.
    pub check: Memo<Option<String>>,
}

impl Run {
    /// The request of `text` in country `cc`.
    pub fn new(workspace: Workspace, text: RwSignal<String>, cc: RwSignal<String>) -> Run {
        let keywords = Memo::new(move |_| parse_keywords(&text.get()));
        let request = Memo::new(move |_| {
            Request::SearchVolumeBulk(search_volume_bulk::Request {
                key: Default::default(),
                keywords: keywords.get(),
                ccode: cc.get().trim().to_uppercase(),
            })
        });
        // The request's cache key, once per edit (a 10,000-keyword list takes milliseconds).
        let key = Memo::new(move |_| workspace::cache_key(workspace, &request.get()));
        let call = Call::following(move || Some(key.get()));
        // While this request's job runs the button is disabled: its price is not recomputed as
        // each chunk's records arrive (planning 10,000 keywords per chunk would make the job
        // quadratic); it is priced again when the job ends.
        let quote = move |refresh: bool| {
            Memo::new(move |prev: Option<&workspace::Quote>| match prev {
                Some(q) if call.loading.get() => *q,
                _ => workspace::quote_now(workspace, &request.get(), refresh),
            })
        };
        let (price, full_price) = (quote(false), quote(true));
        let check = Memo::new(move |_| {
            if keywords.with(Vec::is_empty) {
                return None;
            }
            request.with(|r| r.check().err()).map(|e| {
                let kw = e
                    .field
                    .strip_prefix("/keywords/")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| keywords.with(|k| k.get(i).cloned()));
                match kw {
                    Some(k) => format!("{e} (“{}”)", k.chars().take(60).collect::<String>()),
                    None => e.to_string(),
                }
            })
        });
        Run {
            keywords,
            request,
            key,
            call,
            price,
            full_price,
            check,
        }
    }

    /// Runs the typed input (`refresh`: buy again), then shows its route (also the last view).
    pub fn go<N>(
        self,
        workspace: Workspace,
        cc: RwSignal<String>,
        elapsed: RwSignal<Option<f64>>,
        nav_sv: StoredValue<N>,
        refresh: bool,
    ) where
        N: Fn(&str, NavigateOptions) + Send + Sync + 'static,
    {
        let req = self.request.get_untracked();
        let kws = self.keywords.get_untracked();
        let c = cc.get_untracked().trim().to_uppercase();
        let route = keywords_route(&kws, &c);
        let n = kws.len();
        let input = format!("{n} keyword{}, {c}: {}", plural(n), preview(&kws));
        elapsed.set(None);
        workspace::run_then_show(
            workspace,
            self.call,
            Job {
                request: req,
                route,
                input,
            },
            refresh,
            move |r, o| {
                store::local_set(LAST_VIEW_KEY, r);
                nav_sv.with_value(|n| n(r, o))
            },
        );
    }
}
