//! The explorer's priced form: the typed keywords in the chosen country, their request, the
//! route that shows them and their line in the history.

use leptos::prelude::*;
use serpkit::ops::search_volume_bulk;
use serpkit::Request;

use crate::components::PricedForm;
use crate::model::{parse_keywords, plural, preview};
use crate::paths::keywords_route;
use crate::workspace::Workspace;

/// The priced form over the keywords of `text` in country `cc`.
pub fn keywords_form(
    workspace: Workspace,
    text: RwSignal<String>,
    cc: RwSignal<String>,
) -> PricedForm {
    let keywords = Memo::new(move |_| parse_keywords(&text.get()));
    let country = move || cc.get().trim().to_uppercase();
    let request = Memo::new(move |_| {
        let keywords = keywords.get();
        (!keywords.is_empty()).then(|| {
            Request::SearchVolumeBulk(search_volume_bulk::Request {
                key: Default::default(),
                keywords,
                ccode: country(),
            })
        })
    });
    let route = Signal::derive(move || keywords_route(&keywords.get(), &country()));
    let input = Signal::derive(move || {
        let c = country();
        keywords.with(|kws| {
            let n = kws.len();
            format!("{n} keyword{}, {c}: {}", plural(n), preview(kws))
        })
    });
    PricedForm::new(workspace, keywords, request, route, input)
}
