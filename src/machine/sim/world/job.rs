//! A call's requests as a host that makes its own keeps them ([`super::host`]).

use std::collections::VecDeque;

use crate::machine::{EntryId, TabId};

/// How many requests of one job the host keeps in flight.
const CONCURRENCY: usize = 2;

/// A request of a job: its items, its attempt, its entry once written ahead.
pub(super) struct Part {
    pub(super) items: Vec<String>,
    pub(super) attempt: u8,
    pub(super) entry: Option<EntryId>,
}

/// One call's requests, as its host makes them.
pub(super) struct Job {
    pub(super) tab: TabId,
    pub(super) call: u32,
    pub(super) reserved: Vec<String>,
    pub(super) queued: VecDeque<(Vec<String>, u8)>,
    pub(super) flying: Vec<Part>,
    pub(super) stopped: bool,
    pub(super) ended: bool,
}

impl Job {
    /// Something the host would do now: ask for a request, or say it ended.
    pub(super) fn ready(&self) -> bool {
        let more = !self.stopped && !self.queued.is_empty() && self.flying.len() < CONCURRENCY;
        let done = (self.stopped || self.queued.is_empty()) && self.flying.is_empty();
        more || (done && !self.ended)
    }
}
