//! The client of the tab: built from the settings, rebuilt when they change, always on the
//! tab's one [`Account`](serpkit::client::Account): however often it is rebuilt and however many calls run at once,
//! the spend meter and the budget cap count every call of the tab once.

use std::rc::Rc;

use serpkit::client::{
    Client, ClientConfig, HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError,
};

use leptos::prelude::*;

use super::demo::DemoTransport;
use super::Workspace;
use crate::model::{hash_hex, Mode, Settings};

impl Workspace {
    /// The client for settings `s` and API key `key` (a call's, captured at its click;
    /// rebuilt when they differ from the last one's, on the tab's account: the cap applies
    /// to everything the tab spent or possibly spent).
    pub(super) fn client_for(self, s: &Settings, key: &str) -> Client {
        let (s, key) = (s.clone(), key.to_string());
        let sig = format!(
            "{}|{}|{}|{}|{}|{}|{}",
            s.mode.as_str(),
            s.team,
            s.live_base_url(),
            s.validation.as_str(),
            s.budget,
            s.max_body_mb,
            hash_hex(&key)
        );
        self.local
            .try_update_value(|local| {
                if let Some((old, c)) = &local.client {
                    if *old == sig {
                        return c.clone();
                    }
                }
                let key = match s.mode {
                    Mode::Demo => sandbox::DEMO_KEY.to_string(),
                    Mode::Live => key.trim().to_string(),
                };
                let mut config = ClientConfig::new(key);
                config.validation = s.validation;
                config.max_body_bytes = s.max_body_bytes();
                // A team server states what each call cost it (its team's records answer
                // part of a call at nothing): the meter counts that, as the server does.
                config.stated_costs = s.mode == Mode::Live && s.team;
                // The cap is checked by the purchase journal, against every tab's spending
                // of the period (the client's own account counts this tab only).
                config.budget = None;
                let transport: Rc<dyn Transport> = match s.mode {
                    Mode::Demo => {
                        config.base_url = super::DEMO_BASE_URL.into();
                        Rc::new(local.demo.clone())
                    }
                    Mode::Live => {
                        config.base_url =
                            s.live_base_url().trim().trim_end_matches('/').to_string();
                        live_transport()
                    }
                };
                let transport = Rc::new(AnswerInOwnTask(transport));
                let client = Client::with_account(config, transport, local.account.clone());
                local.client = Some((sig, client.clone()));
                client
            })
            .unwrap_or_else(|| {
                Client::new(
                    ClientConfig::new(sandbox::DEMO_KEY),
                    Rc::new(DemoTransport::new()),
                )
            })
    }
}

/// Hands each answer on in a task of its own, after the work already queued: a bulk job's
/// answers then never hold up the completion of another chunk's commit or a frame behind
/// the validation and merging of 200 records (measured in BENCHMARKS.md: the journal's
/// commit p95 and the job's wall time). The core awaits it outside the call's timeout and
/// cancel ([`Transport::after_answer`]), so a paid answer waiting here is never dropped.
struct AnswerInOwnTask(Rc<dyn Transport>);

impl Transport for AnswerInOwnTask {
    fn post(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
        self.0.post(request)
    }

    fn after_answer(&self) -> LocalBoxFuture<'_, ()> {
        Box::pin(next_task())
    }
}

/// Resumes in a new task of background priority (`scheduler.postTask`) where the browser has
/// it, else after a zero timeout: frames and the completions of IndexedDB transactions,
/// which come at normal priority, then run before it.
#[cfg(target_arch = "wasm32")]
async fn next_task() {
    use wasm_bindgen::{JsCast, JsValue};
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&JsValue::NULL);
            return;
        };
        let post_task = js_sys::Reflect::get(&window, &"scheduler".into())
            .ok()
            .filter(|s| s.is_object())
            .and_then(|s| {
                let f = js_sys::Reflect::get(&s, &"postTask".into()).ok()?;
                Some((s, f.dyn_into::<js_sys::Function>().ok()?))
            });
        if let Some((scheduler, post_task)) = post_task {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"priority".into(), &"background".into());
            if post_task.call2(&scheduler, &resolve, &options).is_ok() {
                return;
            }
        }
        let queued = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .ok();
        if queued.is_none() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

#[cfg(not(target_arch = "wasm32"))]
async fn next_task() {}

#[cfg(target_arch = "wasm32")]
fn live_transport() -> Rc<dyn Transport> {
    Rc::new(serpkit::client::fetch::FetchTransport)
}

#[cfg(not(target_arch = "wasm32"))]
fn live_transport() -> Rc<dyn Transport> {
    // Native builds (tests, clippy) have no fetch: a transport that always fails.
    struct NoNetwork;
    impl Transport for NoNetwork {
        fn post(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
            Box::pin(async {
                Err(TransportError::NotSent(
                    "no network in native builds".into(),
                ))
            })
        }
    }
    Rc::new(NoNetwork)
}
