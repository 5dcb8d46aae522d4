//! The journal lock and the read under it, as a browser gives them: granted to one tab at a
//! time (or to every tab without Web Locks), a request that throws or is given up after a
//! wait, and a read that fails or meets a cut connection: never a partial view.

use super::{Db, World};
use crate::machine::sim::{Storage, Violation};
use crate::machine::{Entry, Event, Reservation, Settings, Snapshot, StoreError, TabId};

/// The store as a tab reads it under the lock.
pub(super) struct View<'a> {
    pub(super) db: &'a Db,
    pub(super) alive: &'a [bool],
    pub(super) locks: bool,
    /// On the server's storage, whose database session is held (else `None`).
    pub(super) sessions: Option<&'a [bool]>,
}

impl Snapshot for View<'_> {
    fn settings(&self) -> &Settings {
        &self.db.settings
    }
    fn each_entry(&self, f: &mut dyn FnMut(&Entry)) {
        self.db.entries.values().for_each(f);
    }
    fn each_reservation(&self, f: &mut dyn FnMut(&Reservation)) {
        self.db.reservations.iter().for_each(f);
    }
    fn has_record(&self, source: Option<&str>, item: &str) -> bool {
        match source {
            Some(s) => self
                .db
                .records
                .contains_key(&(s.to_string(), item.to_string())),
            None => self.db.records.keys().any(|(_, i)| i == item),
        }
    }
    fn tab_open(&self, tab: TabId) -> Option<bool> {
        let open = self.sessions.unwrap_or(self.alive);
        self.locks
            .then(|| open.get(tab.0 as usize).copied().unwrap_or(false))
    }
}

impl World {
    /// A request waiting while another tab holds the lock is rejected now and then (given
    /// up after a wait): the moment a tab that went on without it would race the holder.
    pub(super) fn lock_given_up(&mut self) -> Option<TabId> {
        let held = self.lock.is_some() && self.config.locks;
        if !held || self.queue.is_empty() || self.rng.below(1_000) >= 3 * self.flaky {
            return None;
        }
        let i = self.rng.below(self.queue.len() as u64) as usize;
        let t = self.queue.remove(i)?;
        self.stats.lock_faults += 1;
        self.note(|| format!("t{} lock request rejected while waiting", t.0));
        Some(t)
    }

    /// Tab `t`'s lock request threw.
    pub(super) fn lock_failed(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        self.stats.lock_faults += 1;
        self.note(|| format!("t{} lock request failed", t.0));
        self.event(t, Event::Locked(Err(StoreError::Lock)))
    }

    pub(super) fn grant(&mut self) -> Result<(), Box<Violation>> {
        while let Some(t) = self.queue.pop_front() {
            if !self.alive[t.0 as usize] {
                continue;
            }
            self.lock = Some(t);
            self.note(|| format!("t{} granted the lock", t.0));
            return self.event(t, Event::Locked(Ok(())));
        }
        Ok(())
    }

    /// Tab `t` reads the store (under the lock, unless a mutation goes on without it): a
    /// cut connection or a failed read (now and then) is an error, never a partial view.
    pub(super) fn read(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        if !self.alive[t.0 as usize] {
            return Ok(());
        }
        let failed = match self.tabs[t.0 as usize].conn {
            Err(e) => Some(e),
            Ok(()) if self.rng.below(1_000) < self.flaky => Some(StoreError::Unreadable),
            Ok(()) => None,
        };
        if let Some(e) = failed {
            self.stats.lock_faults += 1;
            self.note(|| format!("t{} read failed: {e:?}", t.0));
            return self.event(t, Event::Granted(Err(e)));
        }
        let now = self.clock(t);
        let view = View {
            db: &self.db,
            alive: &self.alive,
            locks: self.config.locks,
            sessions: (self.config.storage == Storage::Server).then_some(&self.sessions[..]),
        };
        let tab = &mut self.tabs[t.0 as usize].tab;
        tab.step(now, Event::Granted(Ok(&view)), &mut self.out);
        self.effects(t)
    }
}
