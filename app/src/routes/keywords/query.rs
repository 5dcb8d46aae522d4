//! The explorer's view state in the URL: keywords, country, sort and filters (never the key),
//! read once when the page opens (or from the last view) and written back as it changes.

use leptos::prelude::*;
use leptos_router::NavigateOptions;

use super::filters::Filters;
use crate::components::keyword_row::TrendFilterInputs;
use crate::paths::{enc, query_of_route, KeywordsQuery, PageQuery};
use crate::store;
use crate::workspace::Workspace;

/// localStorage key of the explorer's last URL (keywords, country, sort, filters; no key).
pub const LAST_VIEW_KEY: &str = "serpkit.explorer";

/// The page's state that lives in the URL. `Copy`.
#[derive(Clone, Copy)]
pub struct ViewState {
    /// The keyword box's text (`kw`).
    pub text: RwSignal<String>,
    /// The country picked (`cc`).
    pub cc: RwSignal<String>,
    /// Sort column and descending (`sort`, `dir`).
    pub sort: RwSignal<Option<(String, bool)>>,
    /// The filters.
    pub filters: Filters,
}

impl ViewState {
    /// The state of the URL; coming back without inputs in the URL (the "Keywords" link),
    /// the last view's, reopened.
    pub fn open(
        workspace: Workspace,
        q: PageQuery<KeywordsQuery>,
        navigate: &impl Fn(&str, NavigateOptions),
    ) -> ViewState {
        let query = q.get_untracked();
        let restore = query
            .kw
            .is_none()
            .then(|| store::local_get(LAST_VIEW_KEY))
            .flatten()
            .filter(|s| s.starts_with("/keywords?"));
        let restored = restore.as_deref().and_then(query_of_route::<KeywordsQuery>);
        if let Some(r) = &restore {
            navigate(
                r,
                NavigateOptions {
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            );
        } else if let Some(search) = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .filter(|s| s.contains("kw="))
        {
            store::local_set(LAST_VIEW_KEY, &format!("/keywords{search}"));
        }
        // The restored view's query until the navigation above lands in the URL.
        let query = restored.unwrap_or(query);
        let text = |v: &Option<String>| v.clone().unwrap_or_default();

        let cc = match text(&query.cc) {
            c if c.is_empty() => workspace.settings.with_untracked(|s| s.ccode.clone()),
            c => c,
        };
        let sort = query
            .sort
            .clone()
            .filter(|s| !s.is_empty())
            .map(|s| (s, query.dir.as_deref() != Some("asc")));
        ViewState {
            text: RwSignal::new(text(&query.kw)),
            cc: RwSignal::new(cc),
            sort: RwSignal::new(sort),
            filters: Filters::read(&query),
        }
    }

    /// Mirrors the view's state in the URL (replace: typing does not flood the history).
    pub fn mirror_in_url(
        self,
        q: PageQuery<KeywordsQuery>,
        nav: impl Fn(&str, NavigateOptions) + 'static,
    ) {
        let ViewState { sort, filters, .. } = self;
        Effect::new(move |prev: Option<()>| {
            let now = q.get_untracked();
            let mut qs = vec![
                ("cc", now.cc.unwrap_or_default()),
                ("kw", now.kw.unwrap_or_default()),
            ];
            let s = sort.get();
            qs.push(("sort", s.as_ref().map(|s| s.0.clone()).unwrap_or_default()));
            qs.push((
                "dir",
                s.map(|s| if s.1 { "desc" } else { "asc" }.to_string())
                    .unwrap_or_default(),
            ));
            for (k, v) in filters.texts() {
                qs.push((k, v.get()));
            }
            for (k, v) in TrendFilterInputs::PARAMS
                .into_iter()
                .zip(filters.trend.signals())
            {
                qs.push((k, v.get()));
            }
            if prev.is_some() {
                let query: Vec<String> = qs
                    .into_iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| format!("{k}={}", enc(&v)))
                    .collect();
                let url = format!("/keywords?{}", query.join("&"));
                store::local_set(LAST_VIEW_KEY, &url);
                nav(
                    &url,
                    NavigateOptions {
                        replace: true,
                        scroll: false,
                        ..Default::default()
                    },
                );
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::KeywordsQuery;

    #[test]
    fn the_query_reads_every_parameter_written_back_and_no_other() {
        let filters = Filters::read(&KeywordsQuery::default());
        let mut written: Vec<&str> = ["cc", "kw", "sort", "dir"]
            .into_iter()
            .chain(filters.texts().map(|(k, _)| k))
            .chain(TrendFilterInputs::PARAMS)
            .collect();
        // The `Params` derive reads each field from the parameter of its name.
        let debug = format!("{:?}", KeywordsQuery::default());
        let mut read: Vec<&str> = debug
            .split([' ', '{', ','])
            .filter_map(|w| w.strip_suffix(':'))
            .collect();
        written.sort_unstable();
        read.sort_unstable();
        assert_eq!(written, read);
    }
}
