//! The call path: every paid call of the app goes through here, and through nothing else.
//!
//! A call belongs to the workspace, not to the page that started it: its state (running,
//! progress, cancel, last error) lives in [`Workspace`] under the request's cache key
//! ([`key`]), and its result and history row are stored whether or not the page is still
//! there. A page's [`Call`] is only a view of that state. A run:
//!
//! 1. answers from a stored result of the same source without a call (unless Refresh);
//! 2. reserves what it buys on this tab's money machine, through the app's host of it
//!    ([`crate::host`]): under the journal lock the machine looks at the running calls of
//!    every open tab, waits while one is buying any of the same records or request ("being
//!    bought in another tab"), then the history row is written ahead as `running` with what
//!    it reserves; after a wait it re-reads what the other call stored and buys only the
//!    rest;
//! 3. sends through the service chunk ([`service`]) with the app's purchase journal
//!    ([`book`]): the machine writes each request ahead (`sent`; live: the budget cap
//!    checked against every tab's entries of the period) or refuses it, and settles it with
//!    its records or body in one IndexedDB transaction;
//! 4. settles its history row, keeping any body that was paid for (a strict refusal stores
//!    it marked refused), and tells the machine it ended (its reservation is freed).
//!
//! On start, requests still `sent` by a closed tab become possibly charged and its running
//! jobs interrupted ([`account`]).

pub mod account;
mod book;
mod follow;
pub mod history;
pub mod key;
mod leave;
mod memory;
mod order;
mod reserve;
mod service;
mod settle;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::client::{Cancel, Error};
use serpkit::Request;

use super::state::Waiter;
use super::{now, use_workspace, ErrorInfo, Running, Workspace};
use crate::host::tabs;
use order::Order;
pub use service::CHUNK_SIZE;
use service::{call_service, CONCURRENCY};

/// A view's handle on the call of its request: whether it runs, its progress and its last
/// error, all read from the workspace. `Copy`; its own signals belong to the page, and
/// nothing that outlives the page (the running call) ever touches them.
#[derive(Clone, Copy)]
pub struct Call {
    workspace: Workspace,
    /// The cache key this view last ran or attached to. Also the view's liveness token:
    /// once the page is gone it is disposed, and the call's `on_done` is skipped.
    ran: RwSignal<Option<String>>,
    /// The cache key the view shows the state of.
    key: Signal<Option<String>>,
    /// The running call's state (`None`: not running).
    pub state: Signal<Option<Running>>,
    /// A call of this view's request is running.
    pub loading: Signal<bool>,
    /// The request's last error (cleared when it runs again); results stay visible.
    pub error: Signal<Option<ErrorInfo>>,
    /// Bulk progress: (keywords done, total).
    pub progress: Signal<Option<(usize, usize)>>,
    /// When this view started its last call (ms; the caller clears it when it rendered).
    pub started: RwSignal<Option<f64>>,
}

impl Call {
    /// A view of the calls it runs itself.
    pub fn new() -> Call {
        Call::build(None)
    }

    /// A view of the calls it runs itself and, until it ran one, of the request whose cache
    /// key `key` gives: coming back to a page while its request runs shows it running.
    pub fn following(key: impl Fn() -> Option<String> + Send + Sync + 'static) -> Call {
        Call::build(Some(Memo::new(move |_| key()).into()))
    }

    fn build(follow: Option<Signal<Option<String>>>) -> Call {
        let workspace = use_workspace();
        let ran = RwSignal::new(None::<String>);
        // Memos: a view reads its state often, and a key can take long to compute.
        let key: Signal<Option<String>> =
            Memo::new(move |_| ran.get().or_else(|| follow.and_then(|f| f.get()))).into();
        let state = Signal::derive(move || {
            key.with(|k| {
                k.as_ref()
                    .and_then(|k| workspace.running.with(|r| r.get(k).cloned()))
            })
        });
        Call {
            workspace,
            ran,
            key,
            state,
            loading: Signal::derive(move || state.with(Option::is_some)),
            error: Signal::derive(move || {
                key.with(|k| {
                    k.as_ref()
                        .and_then(|k| workspace.errors.with(|e| e.get(k).cloned()))
                })
            }),
            progress: Signal::derive(move || state.with(|s| s.as_ref().and_then(|s| s.progress))),
            started: RwSignal::new(None),
        }
    }

    /// Cancels the running call of this view's request (a bulk job stops starting chunks;
    /// those already sent finish and keep what they bought).
    pub fn cancel(self) {
        if let Some(k) = self.key.get_untracked() {
            self.workspace.cancel(&k);
        }
    }

    /// True while the page that owns this view exists.
    fn alive(self) -> bool {
        self.ran.try_get_untracked().is_some()
    }
}

impl Default for Call {
    fn default() -> Self {
        Call::new()
    }
}

impl Workspace {
    /// True while a call of the request with cache key `key` runs.
    pub fn is_running(self, key: &str) -> bool {
        self.running.with_untracked(|r| r.contains_key(key))
    }

    /// Cancels the call running under `key`, if any.
    pub fn cancel(self, key: &str) {
        let Some(c) = self.local.with_value(|i| i.cancels.get(key).cloned()) else {
            return;
        };
        c.cancel();
        self.running.update(|r| {
            if let Some(s) = r.get_mut(key) {
                if s.cancelling.is_none() {
                    // The chunks already sent: up to CONCURRENCY of those not finished.
                    let left = s.chunks.1.saturating_sub(s.chunks.0);
                    s.cancelling = Some(left.min(CONCURRENCY));
                }
            }
        });
    }

    fn set_error(self, key: &str, error: Option<ErrorInfo>) {
        self.errors.update(|m| match error {
            Some(error) => {
                m.insert(key.to_string(), error);
            }
            None => {
                m.remove(key);
            }
        });
    }

    /// Marks `key` running: its cancel handle, no error, and `done` as its first waiter.
    fn begin(self, key: &str, done: Waiter) -> Cancel {
        let c = Cancel::new();
        self.local.update_value(|i| {
            i.cancels.insert(key.to_string(), c.clone());
            i.waiters.insert(key.to_string(), vec![done]);
        });
        self.set_error(key, None);
        let live = self.mode() == crate::model::Mode::Live;
        self.running.update(|r| {
            r.insert(
                key.to_string(),
                Running {
                    live,
                    ..Running::default()
                },
            );
        });
        self.guard_leaving();
        c
    }

    /// Asks before the page goes while a live call runs (a charged answer may be on its way);
    /// only then, so the page still enters the back/forward cache otherwise.
    fn guard_leaving(self) {
        let live = self.running.with_untracked(|r| r.values().any(|s| s.live));
        leave::guard(live);
    }

    /// Another view asks for the call running under `key`: `done` runs when it ends.
    fn attach(self, key: &str, done: Waiter) {
        self.local.update_value(|i| {
            i.waiters.entry(key.to_string()).or_default().push(done);
        });
    }

    /// A bulk job's progress.
    pub(super) fn progress(self, key: &str, progress: &serpkit::client::BulkProgress) {
        self.running.update(|r| {
            if let Some(s) = r.get_mut(key) {
                if let Some(n) = &mut s.cancelling {
                    *n = n.saturating_sub(progress.done_chunks.saturating_sub(s.chunks.0));
                }
                s.progress = Some((progress.done_keywords, progress.total_keywords));
                s.chunks = (progress.done_chunks, progress.total_chunks);
            }
        });
    }

    /// The call under `key` ended: not running any more, and every waiter told whether a
    /// result is stored.
    fn end(self, key: &str, stored: bool) {
        let waiters = self
            .local
            .try_update_value(|i| {
                i.cancels.remove(key);
                i.waiters.remove(key).unwrap_or_default()
            })
            .unwrap_or_default();
        self.running.update(|r| {
            r.remove(key);
        });
        self.guard_leaving();
        for w in waiters {
            w(stored);
        }
    }
}

/// What a run is about: the request, the route that shows it, and a label for the history.
pub struct Job {
    /// The request (without key).
    pub request: Request,
    /// Route that shows the result.
    pub route: String,
    /// Short description of the input.
    pub input: String,
}

/// The cache key of `request`'s result now: one key per item and source
/// ([`key::cache_key`]), so "Running Shoes" answers "running shoes", and a demo result never
/// answers a live call.
pub fn cache_key(workspace: Workspace, request: &Request) -> String {
    key::cache_key(request, &workspace.record_source())
}

/// [`run`], then shows the job's route (whose URL holds the inputs) through `navigate`,
/// without scrolling: what every page's Run button does. Nothing is shown when the page
/// was left meanwhile.
pub fn run_then_show(
    workspace: Workspace,
    call: Call,
    job: Job,
    refresh: bool,
    navigate: impl Fn(&str, leptos_router::NavigateOptions) + 'static,
) {
    let route = job.route.clone();
    run(workspace, call, job, refresh, move |_| {
        navigate(
            &route,
            leptos_router::NavigateOptions {
                scroll: false,
                ..Default::default()
            },
        )
    });
}

/// Runs a job: shows a stored result bought here without a call unless `refresh`;
/// otherwise reserves what it buys, calls the service (bulk keyword lists in chunks with
/// progress), stores the result and settles the history row written ahead. When a call of
/// the same request already runs, this view attaches to it instead. `on_done` gets the cache
/// key when a result is available, and only while `call`'s page still exists. Nothing runs
/// before the workspace is loaded (its stored results, records and journal decide what is
/// bought).
pub fn run(
    workspace: Workspace,
    call: Call,
    job: Job,
    refresh: bool,
    on_done: impl FnOnce(String) + 'static,
) {
    let key = cache_key(workspace, &job.request);
    call.ran.set(Some(key.clone()));
    if !workspace.loaded.get_untracked() {
        workspace.set_error(&key, Some(ErrorInfo::loading()));
        return;
    }
    if let Err(e) = job.request.check() {
        workspace.set_error(
            &key,
            Some(ErrorInfo::from_error(
                &Error::InvalidRequest(e),
                workspace.mode(),
            )),
        );
        return;
    }
    if let Err(e) = workspace.live_target() {
        workspace.set_error(&key, Some(e));
        return;
    }
    let k = key.clone();
    let done: Waiter = Box::new(move |stored| {
        if stored && call.alive() {
            on_done(k);
        }
    });
    if workspace.is_running(&key) {
        workspace.attach(&key, done);
        return;
    }
    if !refresh && workspace.has_result(&key) {
        workspace.set_error(&key, None);
        done(true);
        return;
    }
    call.started.set(Some(now()));
    let cancel = workspace.begin(&key, done);
    let order = Order {
        workspace,
        settings: workspace.settings.get_untracked(),
        api_key: workspace.key.get_untracked(),
        request: job.request,
        route: job.route,
        input: job.input,
        refresh,
        cancel,
        key: key.clone(),
        mode: workspace.mode(),
        source: workspace.record_source(),
        at: now(),
        job: tabs::next_id(),
    };
    spawn_local(async move {
        let stored = match call_service(order).await {
            Ok(stored) => stored,
            // Its code could not be fetched: nothing was sent.
            Err(_) => {
                workspace.set_error(&key, Some(ErrorInfo::code_unavailable()));
                false
            }
        };
        workspace.end(&key, stored);
    });
}
