//! Buying the outlines a clustering needs (`clusters.rs`): each keyword's `outline/seo`
//! request, the price of those not bought yet (`workspace::quote_now`, as every priced call
//! of the app), and the purchase through `workspace::run` (the journal, reservations and the
//! budget cap apply to each request), at most [`IN_FLIGHT`] at once; the first failure stops
//! the rest (a refused budget would refuse them all).

use std::collections::VecDeque;

use leptos::prelude::*;
use serpkit::ops::outline_seo;
use serpkit::Request;

use crate::components::keyword::row::KeywordRow;
use crate::components::versioned::Versioned;
use crate::paths::keyword_route;
use crate::workspace::{self, Call, Job, Quote, Workspace};

/// Keywords clustered at once: the first rows shown (2,000 outlines are $1,000 already).
pub const MAX_KEYWORDS: usize = 2_000;

/// Outline requests in flight at once: as a bulk job's chunks, so a clustering never floods
/// the service.
pub const IN_FLIGHT: usize = 2;

/// One keyword to cluster: its outline's request and cache key.
pub struct Target {
    /// The keyword.
    pub keyword: String,
    /// Its volume (the pivot order).
    pub volume: i64,
    ccode: String,
    request: Request,
    /// Its outline's cache key.
    pub key: String,
}

/// The first [`MAX_KEYWORDS`] distinct keywords of `rows` with their outline requests.
pub fn targets(workspace: Workspace, rows: &[KeywordRow]) -> Vec<Target> {
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .filter_map(|r| {
            let request = Request::OutlineSeo(outline_seo::Request {
                key: Default::default(),
                keyword: r.keyword.clone(),
            });
            let key = workspace::cache_key(workspace, &request);
            seen.insert(key.clone()).then(|| Target {
                keyword: r.keyword.clone(),
                volume: r.volume,
                ccode: r.ccode.clone(),
                request,
                key,
            })
        })
        .take(MAX_KEYWORDS)
        .collect()
}

/// The price of buying every outline not bought yet, as each call would be priced.
pub fn quote_missing(workspace: Workspace, targets: &[Target]) -> (Quote, usize) {
    let mut total = Quote::default();
    let mut reused = 0;
    for t in targets {
        if workspace.has_result(&t.key) {
            reused += 1;
            continue;
        }
        let q = workspace::quote_now(workspace, &t.request, false);
        total.usd += q.usd;
        total.units += q.units;
        if let Some((n, at)) = q.possibly {
            let (m, last) = total.possibly.unwrap_or((0, 0.0));
            total.possibly = Some((m + n, last.max(at)));
        }
    }
    (total, reused)
}

/// The purchase of a clustering's missing outlines: a queue run [`IN_FLIGHT`] at a time.
#[derive(Clone, Copy)]
pub struct Buyer {
    /// Outlines of the targets being bought now.
    pub running: Memo<usize>,
    /// Buying: some running or still queued (prices and clusters wait for the end).
    pub busy: Memo<bool>,
    /// Outlines queued, not started yet.
    pub queued: RwSignal<usize>,
    queue: StoredValue<VecDeque<(String, Job)>>,
    started: StoredValue<Vec<String>>,
    workspace: Workspace,
    call: Call,
}

impl Buyer {
    /// The buyer of `targets`' outlines.
    pub fn new(workspace: Workspace, targets: Memo<Versioned<Vec<Target>>>) -> Buyer {
        let running = Memo::new(move |_| {
            targets.with(|t| workspace.running.with(|r| t.iter().filter(|t| r.contains_key(&t.key)).count()))
        });
        let queued = RwSignal::new(0);
        let b = Buyer {
            running,
            busy: Memo::new(move |_| running.get() > 0 || queued.get() > 0),
            queued,
            queue: StoredValue::new(VecDeque::new()),
            started: StoredValue::new(Vec::new()),
            workspace,
            call: Call::new(),
        };
        // Each end of a purchase starts the next.
        Effect::new(move |_| {
            b.running.track();
            b.next();
        });
        b
    }

    /// Queues every target whose outline is not bought yet, and starts.
    pub fn buy(self, targets: &[Target]) {
        let jobs: VecDeque<(String, Job)> = targets
            .iter()
            .filter(|t| !self.workspace.has_result(&t.key))
            .map(|t| {
                let job = Job {
                    request: t.request.clone(),
                    route: keyword_route(&t.keyword, &t.ccode),
                    input: t.keyword.clone(),
                };
                (t.key.clone(), job)
            })
            .collect();
        self.queued.set(jobs.len());
        self.queue.set_value(jobs);
        self.next();
    }

    /// Starts queued purchases while fewer than [`IN_FLIGHT`] run; after a failure, none.
    fn next(self) {
        let w = self.workspace;
        let in_flight = || {
            w.running.with_untracked(|r| self.started.with_value(|s| s.iter().filter(|k| r.contains_key(*k)).count()))
        };
        let failed = self
            .started
            .with_value(|s| w.errors.with_untracked(|e| s.iter().any(|k| e.contains_key(k))));
        if failed {
            self.queue.update_value(VecDeque::clear);
        }
        while in_flight() < IN_FLIGHT {
            let Some((key, job)) = self.queue.try_update_value(VecDeque::pop_front).flatten() else {
                break;
            };
            self.started.update_value(|s| {
                s.retain(|k| w.running.with_untracked(|r| r.contains_key(k)));
                s.push(key);
            });
            workspace::run(w, self.call, job, false, |_| {});
        }
        let left = self.queue.with_value(VecDeque::len);
        if self.queued.get_untracked() != left {
            self.queued.set(left);
        }
    }
}
