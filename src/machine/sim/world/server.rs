//! The team server's storage in the simulated world ([`super::Storage::Server`]): a process's
//! database connection cut while it lives, and the server's dead-process sweep.

use super::{Pending, World};
use crate::machine::sim::Violation;
use crate::machine::{EntryState, Event, Op, StoreError, TabId};

impl World {
    /// The server's storage: process `t` loses its database connection while it lives. Its
    /// session ends (other processes see it dead at once), its open transaction is aborted
    /// (the database's lock it held is released; a commit on its way was applied or not,
    /// and the process hears that it failed), and it is told its storage is gone. Its
    /// requests in flight still come back to it.
    pub(super) fn cut(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        self.note(|| format!("t{} database connection cut", t.0));
        self.stats.sessions_cut += 1;
        self.sessions[t.0 as usize] = false;
        self.tabs[t.0 as usize].conn = Err(StoreError::Closed);
        if self.lock == Some(t) {
            self.lock = None;
        }
        let mut keep = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            match p {
                Pending::Commit(o, txn, ops) if o == t => {
                    if self.rng.chance(50) {
                        self.store(t, ops)?;
                    }
                    keep.push(Pending::Cut(o, txn));
                }
                p => keep.push(p),
            }
        }
        self.pending = keep;
        self.event(t, Event::StorageLost(StoreError::Closed))
    }

    /// The server's dead-process sweep (`db::recover`), run by any live process at any
    /// moment, outside the database's lock: the entries still `sent` by a process whose
    /// session is gone become possibly charged, and its reservations are freed.
    pub(super) fn recover(&mut self) {
        let live = self.alive_ids();
        let victim = (self.config.sweep_live && !live.is_empty())
            .then(|| live[self.rng.below(live.len() as u64) as usize]);
        let sessions = &self.sessions;
        let dead =
            |t: TabId| Some(t) == victim || !sessions.get(t.0 as usize).copied().unwrap_or(false);
        let mut ops: Vec<Op> = self
            .db
            .entries
            .values()
            .filter(|e| e.state == EntryState::Sent && dead(e.id.tab))
            .map(|e| {
                let mut e = e.clone();
                e.possible = e.estimate;
                e.state = EntryState::PossiblyCharged;
                Op::PutEntry(e)
            })
            .collect();
        let settled = ops.len() as u64;
        ops.extend(
            self.db
                .reservations
                .iter()
                .filter(|r| dead(r.call.tab))
                .map(|r| Op::DeleteReservation(r.call)),
        );
        if !ops.is_empty() {
            self.note(|| format!("sweep of dead processes: {ops:?}"));
            self.stats.recovered += settled;
            self.db.apply(ops);
        }
    }
}
