//! The decisions a tab makes under the journal lock, against the store's snapshot: settle
//! what closed tabs left, plan and reserve a call, check the cap and write a request ahead.

use crate::machine::rules::{self, Plan};
use crate::machine::{
    CallId, Effect, Entry, EntryId, EntryState, Mode, Notice, Op, Refusal, Reservation, Settings,
    Snapshot, StoreError, Target,
};
use crate::money::Usd;

use super::{Chunk, Mutation, Phase, Tab, Txn, Want, WAIT_MS};

/// What a tab reads when a failed read is taken for an empty store (a mutation only): its
/// own settings, nothing else.
pub(super) struct Empty(pub Settings);

impl Snapshot for Empty {
    fn settings(&self) -> &Settings {
        &self.0
    }
    fn each_entry(&self, _: &mut dyn FnMut(&Entry)) {}
    fn each_reservation(&self, _: &mut dyn FnMut(&Reservation)) {}
    fn has_record(&self, _: Option<&str>, _: &str) -> bool {
        false
    }
    fn tab_open(&self, _: crate::machine::TabId) -> Option<bool> {
        Some(true)
    }
}

impl Tab {
    /// The lock asked for is held: read the store under it. Or it could not be taken:
    /// nothing is decided without it ([`Tab::lock_failed`]).
    pub(super) fn locked(&mut self, result: Result<(), StoreError>, out: &mut Vec<Effect>) {
        match result {
            Ok(()) => out.push(Effect::Read),
            Err(_) if self.mutated(Mutation::LockRequestFailsOpen) => out.push(Effect::Read),
            Err(e) => {
                self.lock_asked = false;
                self.lock_failed(e, out);
            }
        }
    }

    /// The store could not be read whole under the lock: it is released, and nothing is
    /// decided ([`Tab::lock_failed`]; the mutation takes the failed read for an empty store).
    pub(super) fn read_failed(&mut self, e: StoreError, out: &mut Vec<Effect>) {
        if self.mutated(Mutation::FailedReadAsEmpty) {
            let empty = Empty(self.settings.clone());
            return self.granted(&empty, out);
        }
        self.lock_asked = false;
        out.push(Effect::Unlock);
        self.lock_failed(e, out);
    }

    /// The lock could not be taken, or the store could not be read whole under it: every
    /// call that waited for it stops with what it bought so far (fail closed: a decision on
    /// a partial read could buy twice or pass the cap), the money settings asked for are not
    /// written (the tab keeps showing the stored ones) and the sweep waits for the next
    /// look.
    pub(super) fn lock_failed(&mut self, e: StoreError, out: &mut Vec<Effect>) {
        self.settings_queue.clear();
        for want in std::mem::take(&mut self.wants) {
            match want {
                Want::Reserve(n) | Want::WriteAhead(n, _) => {
                    if self.call(n).is_some_and(|c| !c.stopped) {
                        self.stop(n, Refusal::Storage(e), out);
                    }
                }
                Want::Sweep => {}
            }
        }
    }

    pub(super) fn granted(&mut self, snap: &dyn Snapshot, out: &mut Vec<Effect>) {
        self.lock_asked = false;
        // The store's settings are the truth: this tab shows them from now on (the mutation
        // keeps the tab's own copy, as each tab once did).
        if !self.mutated(Mutation::CapFromTabCopy) {
            self.settings = snap.settings().clone();
        }
        let Some(want) = self.wants.pop_front() else {
            return out.push(Effect::Unlock);
        };
        self.lock_held = Some(want);
        if self.mutated(Mutation::DropLock) {
            out.push(Effect::Unlock);
        }
        // A money setting goes first, alone in its transaction.
        if let Some(s) = self.settings_queue.pop_front() {
            self.wants.push_front(want);
            let mut ops = vec![Op::PutSetting(s.clone())];
            if self.mutated(Mutation::WholeSettingsWrite) {
                let mut copy = self.settings.clone();
                copy.apply(&s);
                ops = copy.fields().into_iter().map(Op::PutSetting).collect();
            }
            let id = self.next_txn;
            self.next_txn += 1;
            self.txns.push((id, Txn::Setting(s)));
            return out.push(Effect::Commit { txn: id, ops });
        }
        let ops = match want {
            Want::Sweep => Some((rules::sweep(snap), Txn::Locked(want))),
            Want::Reserve(n) => self
                .reserve(n, snap, out)
                .map(|ops| (ops, Txn::Locked(want))),
            Want::WriteAhead(n, c) => self.write_ahead(n, c, Some(snap), out),
        };
        match ops {
            Some((ops, txn)) if !ops.is_empty() => self.commit(txn, ops, out),
            _ => {
                if !self.mutated(Mutation::DropLock) {
                    out.push(Effect::Unlock);
                }
                self.lock_held = None;
            }
        }
    }

    /// The click's target against the store's settings now: unchanged, or the call stops
    /// (it is never re-targeted).
    pub(super) fn on_target(&mut self, n: u32, snap: &dyn Snapshot, out: &mut Vec<Effect>) -> bool {
        let now = self.target_of(snap.settings());
        let reread = self.mutated(Mutation::RereadSettingsAfterWait);
        let Some(call) = self.call(n) else {
            return false;
        };
        match now {
            Ok(t) if t == call.target => true,
            Ok(t) if reread => {
                call.target = t;
                true
            }
            _ => {
                self.stop(n, Refusal::SettingsChanged, out);
                false
            }
        }
    }

    pub(super) fn reserve(
        &mut self,
        n: u32,
        snap: &dyn Snapshot,
        out: &mut Vec<Effect>,
    ) -> Option<Vec<Op>> {
        if !self.on_target(n, snap, out) {
            return None;
        }
        let me = self.id;
        let call = self.calls.iter().find(|c| c.n == n)?;
        if call.phase != Phase::Reserving || call.stopped {
            return None;
        }
        let active: Vec<u32> = self
            .calls
            .iter()
            .filter(|c| c.phase != Phase::Over)
            .map(|c| c.n)
            .collect();
        let source = call.target.source.clone();
        let ask = rules::Ask {
            call: CallId { tab: me, n },
            source: &source,
            items: &call.run.items,
            refresh: call.run.refresh,
            confirm_possibly: call.run.confirm_possibly,
            locks: self.locks,
            running: &|m| active.contains(&m),
        };
        let m = self.mutation();
        let to_buy = match rules::plan_asking_with(snap, &ask, &mut self.asked, m) {
            Plan::Buy(items) => items,
            Plan::NeedsYes { items, since } => {
                self.call(n)?.phase = Phase::Over;
                out.push(Effect::Show(n, Notice::NeedsYes { items, since }));
                return None;
            }
            Plan::Waiting => {
                out.push(Effect::Show(n, Notice::Waiting));
                self.waiting.push(n);
                if !self.waking {
                    self.waking = true;
                    out.push(Effect::Wake(WAIT_MS));
                }
                return None;
            }
            Plan::Answered => {
                self.call(n)?.phase = Phase::Over;
                out.push(Effect::Show(n, Notice::Answered));
                return None;
            }
        };
        let call = self.call(n)?;
        if !call.run.host_sends {
            let each = call.run.each;
            call.parts = to_buy
                .chunks(call.run.chunk)
                .map(|c| (c.to_vec(), each.times(c.len() as u64)))
                .collect();
            call.chunks = vec![Chunk::Queued(0); call.parts.len()];
        }
        call.buying = to_buy.clone();
        call.phase = Phase::Buying;
        Some(vec![Op::PutReservation(Reservation {
            call: CallId { tab: me, n },
            source,
            items: to_buy,
        })])
    }

    /// Chunk `c` of call `n` written ahead: under the lock (`snap`), or without it for a
    /// demo call, whose write-ahead reads nothing shared: no cap guards demo, and its target
    /// was captured at the click (a settings change cannot re-target it; it finishes in
    /// demo, its data labelled demo).
    pub(super) fn write_ahead(
        &mut self,
        n: u32,
        c: usize,
        snap: Option<&dyn Snapshot>,
        out: &mut Vec<Effect>,
    ) -> Option<(Vec<Op>, Txn)> {
        if let Some(snap) = snap {
            if !self.on_target(n, snap, out) {
                return None;
            }
        }
        let lost = self.storage.is_err() && self.mutated(Mutation::SendWhenStorageLost);
        if let (Err(e), false) = (self.storage, lost) {
            self.stop(n, Refusal::Storage(e), out);
            return None;
        }
        let now = self.now;
        // The cap of the store's settings (the mutation reads the tab's own copy).
        let settings = match snap {
            Some(snap) if !self.mutated(Mutation::CapFromTabCopy) => snap.settings().clone(),
            _ => self.settings.clone(),
        };
        let id = EntryId {
            tab: self.id,
            n: self.next_entry,
        };
        self.next_entry += 1;
        let call = self.calls.iter().find(|x| x.n == n)?;
        if call.stopped {
            return None;
        }
        let (items, estimate) = call.parts[c].clone();
        let live = call.target.mode == Mode::Live;
        if let (true, Some(snap)) = (live, snap) {
            if let Err(why) = rules::admit_with(&settings, snap, now, estimate, self.mutation()) {
                self.stop(n, why, out);
                return None;
            }
        }
        let entry = Entry {
            id,
            call: CallId { tab: self.id, n },
            source: call.target.source.clone(),
            live,
            items,
            estimate,
            charge: Usd::ZERO,
            possible: Usd::ZERO,
            state: EntryState::Sent,
            at: now,
        };
        let attempt = match call.chunks[c] {
            Chunk::Starting(a) | Chunk::Queued(a) => a,
            _ => 0,
        };
        let target = call.target.clone();
        let call = self.call(n)?;
        call.chunks[c] = Chunk::InFlight(id.n, attempt, now);
        if self.mutated(Mutation::SkipWriteAhead) || lost {
            if snap.is_some() {
                self.lock_held = None;
                out.push(Effect::Unlock);
            }
            Self::send(&entry, target, out);
            return None;
        }
        let ops = vec![Op::PutEntry(entry.clone())];
        Some((
            ops,
            Txn::WriteAhead(Box::new(entry), target, snap.is_some()),
        ))
    }

    /// Starts the write-ahead of chunk `c` of call `n`: at once for demo, else once the
    /// lock is granted.
    pub(super) fn start_write_ahead(&mut self, n: u32, c: usize, out: &mut Vec<Effect>) {
        let demo = self
            .call(n)
            .is_some_and(|call| call.target.mode == Mode::Demo);
        if !demo {
            return self.want(Want::WriteAhead(n, c));
        }
        if let Some((ops, txn)) = self.write_ahead(n, c, None, out) {
            self.commit(txn, ops, out);
        }
    }

    pub(super) fn send(entry: &Entry, target: Target, out: &mut Vec<Effect>) {
        out.push(Effect::Send {
            call: entry.call.n,
            entry: entry.id,
            target,
            items: entry.items.clone(),
            estimate: entry.estimate,
        });
    }
}
