//! Running calls. A call belongs to the workspace, not to the page that started it: its
//! state (running, progress, cancel, last error) lives in [`Workspace`] under the request's cache
//! key, and its result and history row are stored when it ends whether or not the page is
//! still there. A page's [`Call`] is only a view of that state. Two views asking for the
//! same request while it runs share the one call: the second attaches to it, nothing is
//! bought twice.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::{Cancel, Error};
use serpkit::{ApiKey, Request, Usd};

use super::prices::price_now;
use super::service::{call_service, Outcome, ServiceCall};
use super::state::Waiter;
use super::{history_message, now, use_workspace, ErrorInfo, Workspace};
use crate::model::{hash_hex, plural, HistoryEntry, Mode, Validation};
use crate::sort;

/// Keywords per `search_volume/bulk` request of a bulk job.
pub const CHUNK_SIZE: usize = 200;
/// Chunks of a bulk job in flight at once.
pub(super) const CONCURRENCY: usize = 2;

/// A running call's state, kept by the workspace under the request's cache key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Running {
    /// Bulk progress: (keywords done, total).
    pub progress: Option<(usize, usize)>,
    /// Bulk chunks: (done, total).
    pub chunks: (usize, usize),
    /// Cancelled: how many requests already sent are still awaited (they finish and keep
    /// what they bought).
    pub cancelling: Option<usize>,
}

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
        Call::build(Some(Signal::derive(key)))
    }

    fn build(follow: Option<Signal<Option<String>>>) -> Call {
        let workspace = use_workspace();
        let ran = RwSignal::new(None::<String>);
        let key = Signal::derive(move || ran.get().or_else(|| follow.and_then(|f| f.get())));
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
        self.running.update(|r| {
            r.insert(key.to_string(), Running::default());
        });
        c
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

/// The canonical request: the request without its key, as JSON, and its cache key. Bulk
/// keyword lists are compared as sets (order and case of duplicates do not matter).
pub fn canonical(request: &Request) -> (String, String) {
    let mut r = request.clone();
    r.set_key(ApiKey::default());
    let json = r.to_json();
    let basis = match &r {
        Request::SearchVolumeBulk(q) => {
            let mut k: Vec<String> = q
                .keywords
                .iter()
                .map(|k| serpkit::records::normalize_keyword(k))
                .collect();
            sort::sort_by(&mut k, |a, b| a.cmp(b));
            format!("{}|{}", q.ccode.to_uppercase(), k.join("\n"))
        }
        _ => json.clone(),
    };
    let key = format!("{}:{}", request.operation().path(), hash_hex(&basis));
    (json, key)
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
/// otherwise calls the service (bulk keyword lists in chunks with progress), stores the
/// result and records the call in the history. When a call of the same request already
/// runs, this view attaches to it instead. `on_done` gets the cache key when a result is
/// available, and only while `call`'s page still exists.
pub fn run(
    workspace: Workspace,
    call: Call,
    job: Job,
    refresh: bool,
    on_done: impl FnOnce(String) + 'static,
) {
    let (canonical_json, key) = canonical(&job.request);
    call.ran.set(Some(key.clone()));
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
    let stored = workspace
        .results
        .with_untracked(|m| m.get(&key).cloned())
        .filter(|r| !r.imported);
    if !refresh && stored.is_some_and(|r| r.missing.is_empty()) {
        workspace.set_error(&key, None);
        done(true);
        return;
    }
    let (estimate, _) = price_now(workspace, &job.request, refresh);
    call.started.set(Some(now()));
    let cancel = workspace.begin(&key, done);
    let mode = workspace.mode();
    let plan = workspace.plan_options(refresh);
    spawn_local(async move {
        let at = plan.now_ms;
        let exec = ServiceCall {
            workspace,
            request: job.request.clone(),
            plan,
            cancel,
            key: key.clone(),
            canonical_json,
            at,
            mode,
        };
        let outcome = call_service(exec).await;
        let stored = record(workspace, &job, &key, at, estimate, mode, outcome);
        workspace.end(&key, stored);
    });
}

/// Stores what a call bought and its history row, and the error under its key; true when
/// a result is stored. Touches only the workspace (the page may be gone).
fn record(
    workspace: Workspace,
    job: &Job,
    key: &str,
    at: f64,
    estimate: Usd,
    mode: Mode,
    outcome: Result<Outcome, SplitLoaderError>,
) -> bool {
    let Ok(outcome) = outcome else {
        workspace.set_error(key, Some(ErrorInfo::code_unavailable()));
        return false;
    };
    let mut entry = HistoryEntry {
        id: format!("{at:.0}-{}", hash_hex(key)),
        operation: job.request.operation().path().to_string(),
        input: job.input.clone(),
        route: job.route.clone(),
        key: String::new(),
        at,
        estimate,
        charge: Usd::ZERO,
        possible_charge: Usd::ZERO,
        outcome: "ok".into(),
        message: String::new(),
        validation: String::new(),
        mode,
    };
    match outcome {
        Ok(bought) => {
            let result = bought.result;
            entry.charge = bought.charge;
            if bought.reused > 0 {
                entry.message = format!("{} already bought, not charged again", bought.reused);
            }
            if let Some(e) = &bought.store_error {
                workspace.save_failed(format!("Could not save the bought records: {e}"));
            }
            entry.key = result.key.clone();
            entry.validation = result.validation.summary();
            if !result.missing.is_empty() {
                entry.outcome = "partial".into();
                entry.message = format!(
                    "{} keyword{} not bought",
                    result.missing.len(),
                    plural(result.missing.len())
                );
            }
            if let Some(e) = &bought.stopped {
                entry.possible_charge = bought.possible;
                entry.message = format!(
                    "{} ({})",
                    entry.message,
                    history_message(e.code(), status(e))
                );
                note_possible(&mut entry);
            }
            workspace.put_result(result);
            workspace.add_history(entry);
            if let Some(e) = &bought.stopped {
                workspace.set_error(key, Some(ErrorInfo::from_error(e, mode)));
            }
            true
        }
        Err((e, charge, possible)) => {
            let info = ErrorInfo::from_error(&e, mode);
            entry.outcome = if e.code() == "aborted" {
                "cancelled"
            } else {
                "error"
            }
            .into();
            entry.message = history_message(e.code(), status(&e));
            entry.charge = charge;
            entry.possible_charge = possible;
            note_possible(&mut entry);
            if let Error::ContractViolation { report, .. } = &e {
                entry.validation = Validation::from_report(report, 0).summary();
            }
            let nothing_sent = matches!(
                e,
                Error::InvalidRequest(_) | Error::MissingKey | Error::BudgetExceeded { .. }
            );
            if !nothing_sent {
                workspace.add_history(entry);
            }
            workspace.set_error(key, Some(info));
            false
        }
    }
}

/// The HTTP status an error carries, if the service answered.
fn status(e: &Error) -> Option<u16> {
    match e {
        Error::Http { status, .. } => Some(*status),
        _ => None,
    }
}

/// Adds "may have been charged $x" to a history row whose outcome is unknown.
fn note_possible(entry: &mut HistoryEntry) {
    if entry.possible_charge > Usd::ZERO {
        entry.message = format!(
            "{} · may have been charged {}",
            entry.message, entry.possible_charge
        );
    }
}
