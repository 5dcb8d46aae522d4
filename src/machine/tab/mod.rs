//! One tab's money state machine: events in, effects out ([`Tab::step`]). `plan.rs` decides
//! under the lock (sweep, reserve, write ahead); `settle.rs` follows a request to its commit.

mod plan;
mod settle;

use std::collections::VecDeque;

use super::mutation::Mutation;
use super::{
    CallId, Effect, Entry, EntryId, Event, Mode, Ms, Notice, Op, Refusal, Run, Setting, Settings,
    StoreError, TabId, Target,
};
use crate::money::Usd;

/// How long a call waits before it looks again at a reservation it waits for.
pub const WAIT_MS: Ms = 300;
/// How long before a failed commit of a paid answer is tried again.
pub const RETRY_MS: Ms = 1_000;
/// Requests of one call in flight at once.
pub const WINDOW: usize = 2;
/// Free retries of a request provably not charged (429, 503, refused connection).
pub const FREE_RETRIES: u8 = 2;

/// Chunk `c` of call `n`, as `(n, c)`.
type ChunkOf = (u32, usize);

/// What the lock is wanted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Settle the entries and free the reservations of closed tabs.
    Sweep,
    /// Plan and reserve call `n`.
    Reserve(u32),
    /// Check the cap and write ahead chunk `c` of call `n`.
    WriteAhead(u32, usize),
}

/// What a transaction in progress is for.
#[derive(Clone, Debug)]
enum Txn {
    /// Holds the lock: released when it ends.
    Locked(Want),
    /// A write-ahead: the request leaves once it is committed. Under the lock (live: `true`,
    /// released when it ends) or not (demo: the lock, if held, is another want's).
    WriteAhead(Box<Entry>, Target, bool),
    /// A money setting, under the lock.
    Setting(Setting),
    /// Settles an entry, with chunk `c` of call `n` when the chunk is over (its ops kept to
    /// retry: a settle is never dropped).
    Settle(Option<ChunkOf>, Vec<Op>),
    /// Frees a call's reservation (tried again when it fails).
    Free(CallId),
    /// Needs nothing when it ends.
    Plain,
}

/// A chunk of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chunk {
    /// Not sent yet (with its free retries used).
    Queued(u8),
    /// Waiting for the lock or its write-ahead.
    Starting(u8),
    /// Sent as entry `n` (its free retries used, when it was written ahead).
    InFlight(u32, u8, Ms),
    /// Its settle commit is being written.
    Settling,
    /// Over.
    Done,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Reserving,
    Buying,
    Over,
}

#[derive(Clone, Debug)]
struct Call {
    n: u32,
    target: Target,
    run: super::Run,
    phase: Phase,
    /// The items bought, once reserved (stored ones left out).
    buying: Vec<String>,
    reserved: bool,
    chunks: Vec<Chunk>,
    /// What each chunk buys and its price (cut from `buying`, or as the host asked:
    /// [`Run::host_sends`]).
    parts: Vec<(Vec<String>, Usd)>,
    /// Items a request of this call was written ahead for and not settled as not charged:
    /// the host may not ask for them again.
    spent: std::collections::BTreeSet<String>,
    /// The host sends no more requests ([`Event::Ended`]).
    ended: bool,
    stopped: bool,
}

/// One tab's money state machine ([`super`] describes it).
#[derive(Debug)]
pub struct Tab {
    id: TabId,
    now: Ms,
    settings: Settings,
    storage: Result<(), StoreError>,
    locks: bool,
    calls: Vec<Call>,
    next: u32,
    next_txn: u32,
    next_entry: u32,
    /// The lock is asked for, or held and the store being read ([`Effect::Read`]).
    lock_asked: bool,
    lock_held: Option<Want>,
    wants: VecDeque<Want>,
    txns: Vec<(u32, Txn)>,
    /// Settle commits that failed: paid answers held in memory until stored.
    unsaved: Vec<(Option<ChunkOf>, Vec<Op>)>,
    waking: bool,
    /// Calls waiting for another call's reservation.
    waiting: Vec<u32>,
    /// Reservations whose removal failed, tried again.
    to_free: Vec<CallId>,
    /// Changes asked for while another money setting is in flight.
    settings_queue: VecDeque<Setting>,
    /// Possibly charged items this tab asked its user about, per request: what a yes covers.
    asked: super::rules::Questions,
    /// A deliberate fault (simulator only).
    #[cfg(feature = "sim")]
    pub mutation: Option<Mutation>,
}

impl Tab {
    /// A tab with the settings it read at start; `locks`: the host has Web Locks.
    pub fn new(id: TabId, settings: Settings, locks: bool) -> Tab {
        Tab {
            id,
            now: 0,
            settings,
            storage: Ok(()),
            locks,
            calls: Vec::new(),
            next: 0,
            next_txn: 0,
            next_entry: 0,
            lock_asked: false,
            lock_held: None,
            wants: VecDeque::new(),
            txns: Vec::new(),
            unsaved: Vec::new(),
            waking: false,
            waiting: Vec::new(),
            to_free: Vec::new(),
            settings_queue: VecDeque::new(),
            asked: super::rules::Questions::default(),
            #[cfg(feature = "sim")]
            mutation: None,
        }
    }

    /// The deliberate fault this tab carries, if any (simulator only).
    fn mutation(&self) -> Option<Mutation> {
        #[cfg(feature = "sim")]
        {
            self.mutation
        }
        #[cfg(not(feature = "sim"))]
        {
            None
        }
    }

    fn mutated(&self, _m: Mutation) -> bool {
        #[cfg(feature = "sim")]
        {
            self.mutation == Some(_m)
        }
        #[cfg(not(feature = "sim"))]
        {
            false
        }
    }

    /// Where `settings` send a call ([`Settings::target`]; the mutation takes any plain-http
    /// base URL as confirmed).
    fn target_of(&self, settings: &Settings) -> Result<Target, Refusal> {
        if self.mutated(Mutation::KeyToUnconfirmedOrigin) {
            let confirmed = Settings {
                insecure_ok: settings.base_url.trim().to_string(),
                ..settings.clone()
            };
            return confirmed.target();
        }
        settings.target()
    }

    /// The tab's id.
    pub fn id(&self) -> TabId {
        self.id
    }

    /// The number the next [`Event::Run`] gets (the `n` of its notices and events).
    pub fn next_call(&self) -> u32 {
        self.next
    }

    /// The settings as this tab shows them.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// True when no call runs, nothing waits for the lock or a commit, and no paid answer
    /// waits to be stored.
    pub fn is_quiet(&self) -> bool {
        self.calls.iter().all(|c| c.phase == Phase::Over)
            && self.wants.is_empty()
            && self.lock_held.is_none()
            && !self.lock_asked
            && self.txns.is_empty()
            && self.unsaved.is_empty()
            && self.to_free.is_empty()
            && self.waiting.is_empty()
            && self.settings_queue.is_empty()
    }

    /// True while a money setting asked for is not written yet (queued for the lock, or
    /// its transaction in flight): a host shows "saving" meanwhile.
    pub fn settling(&self) -> bool {
        !self.settings_queue.is_empty()
            || self.txns.iter().any(|(_, t)| matches!(t, Txn::Setting(_)))
    }

    /// Paid answers this tab holds in memory because storage refused them (entry ids).
    pub fn unsaved(&self) -> impl Iterator<Item = EntryId> + '_ {
        self.unsaved.iter().filter_map(|(_, ops)| {
            ops.iter().find_map(|op| match op {
                Op::PutEntry(e) => Some(e.id),
                _ => None,
            })
        })
    }

    /// Handles one event at `now`, appending the effects to `out`.
    pub fn step(&mut self, now: Ms, event: Event<'_>, out: &mut Vec<Effect>) {
        self.now = now;
        match event {
            Event::Opened => self.want(Want::Sweep),
            Event::Run(run) => self.run(run, out),
            Event::Cancel(n) => self.cancel(n, out),
            Event::Sending {
                call,
                items,
                estimate,
            } => self.sending(call, items, estimate, out),
            Event::Ended(n) => {
                if let Some(call) = self.call(n) {
                    call.ended = true;
                }
                self.finish_if_over(n, out);
            }
            Event::Change(s) => self.change(s, out),
            Event::ResetMeter => self.change(Setting::ResetAt(now), out),
            Event::ClearHistory => {
                let mut ops = vec![Op::ClearHistory];
                if self.mutated(Mutation::ClearHistoryDropsReservations) {
                    ops.push(Op::DeleteAllReservations);
                }
                self.commit(Txn::Plain, ops, out);
            }
            Event::Locked(result) => self.locked(result, out),
            Event::Granted(Ok(snapshot)) => self.granted(snapshot, out),
            Event::Granted(Err(e)) => self.read_failed(e, out),
            Event::Committed { txn, result } => self.committed(txn, result, out),
            Event::Answer { entry, outcome } => self.answered(entry, outcome, out),
            Event::Heard(s) => self.settings.apply(&s),
            Event::Timer => {
                self.waking = false;
                for (chunk, ops) in std::mem::take(&mut self.unsaved) {
                    self.commit(Txn::Settle(chunk, ops.clone()), ops, out);
                }
                for call in std::mem::take(&mut self.to_free) {
                    self.commit(Txn::Free(call), vec![Op::DeleteReservation(call)], out);
                }
                for n in std::mem::take(&mut self.waiting) {
                    self.want(Want::Reserve(n));
                }
            }
            Event::StorageLost(e) => self.storage = Err(e),
        }
        self.pump(out);
    }

    fn call(&mut self, n: u32) -> Option<&mut Call> {
        self.calls.iter_mut().find(|c| c.n == n)
    }

    fn want(&mut self, w: Want) {
        if !self.wants.contains(&w) {
            self.wants.push_back(w);
        }
    }

    /// Asks for the lock when something wants it.
    fn pump(&mut self, out: &mut Vec<Effect>) {
        if !self.lock_asked && self.lock_held.is_none() && !self.wants.is_empty() {
            self.lock_asked = true;
            out.push(Effect::Lock);
        }
    }

    fn commit(&mut self, txn: Txn, ops: Vec<Op>, out: &mut Vec<Effect>) {
        let id = self.next_txn;
        self.next_txn += 1;
        self.txns.push((id, txn));
        out.push(Effect::Commit { txn: id, ops });
    }

    fn run(&mut self, run: Run, out: &mut Vec<Effect>) {
        let n = self.next;
        self.next += 1;
        let target = match self.target_of(&self.settings) {
            Ok(t) => t,
            Err(r) => return out.push(Effect::Show(n, Notice::Refused(r))),
        };
        let reread = self.mutated(Mutation::RereadSettingsAfterWait);
        if run.clicked.as_ref().is_some_and(|c| *c != target) && !reread {
            return out.push(Effect::Show(n, Notice::Refused(Refusal::SettingsChanged)));
        }
        let lost_ok = self.mutated(Mutation::SendWhenStorageLost);
        if let (Err(e), false) = (self.storage, lost_ok) {
            return out.push(Effect::Show(n, Notice::Refused(Refusal::Storage(e))));
        }
        if target.mode == Mode::Live && !self.locks && !self.mutated(Mutation::LiveWithoutLocks) {
            return out.push(Effect::Show(n, Notice::Refused(Refusal::NoLocks)));
        }
        let chunk = run.chunk.max(1);
        self.calls.push(Call {
            n,
            target,
            run: Run { chunk, ..run },
            phase: Phase::Reserving,
            buying: Vec::new(),
            reserved: false,
            chunks: Vec::new(),
            parts: Vec::new(),
            spent: Default::default(),
            ended: false,
            stopped: false,
        });
        self.want(Want::Reserve(n));
    }

    fn cancel(&mut self, n: u32, out: &mut Vec<Effect>) {
        let Some(call) = self.call(n) else { return };
        if call.phase == Phase::Over || call.stopped {
            return;
        }
        call.stopped = true;
        self.wants.retain(|w| *w != Want::Reserve(n));
        self.stop(n, Refusal::Cancelled, out);
    }

    /// Stops call `n`: no new chunk starts; it ends once its requests in flight settled.
    fn stop(&mut self, n: u32, why: Refusal, out: &mut Vec<Effect>) {
        self.wants
            .retain(|w| !matches!(w, Want::WriteAhead(m, _) if *m == n));
        let Some(call) = self.call(n) else { return };
        call.stopped = true;
        for c in &mut call.chunks {
            if matches!(c, Chunk::Queued(_) | Chunk::Starting(_)) {
                *c = Chunk::Done;
            }
        }
        out.push(Effect::Show(n, Notice::Refused(why)));
        self.finish_if_over(n, out);
    }

    /// Ends call `n` once nothing of it is in flight, freeing its reservation.
    fn finish_if_over(&mut self, n: u32, out: &mut Vec<Effect>) {
        let Some(call) = self.call(n) else { return };
        if call.phase == Phase::Over || call.chunks.iter().any(|c| *c != Chunk::Done) {
            return;
        }
        if call.phase == Phase::Reserving && !call.stopped {
            return;
        }
        // A host that sends its own requests may still ask for more until it says it ended.
        if call.run.host_sends && !call.ended && !call.stopped {
            return;
        }
        call.phase = Phase::Over;
        let reserved = std::mem::take(&mut call.reserved);
        let stopped = call.stopped;
        let id = CallId { tab: self.id, n };
        if reserved {
            self.commit(Txn::Free(id), vec![Op::DeleteReservation(id)], out);
        }
        if !stopped {
            out.push(Effect::Show(n, Notice::Done));
        }
    }

    fn change(&mut self, s: Setting, out: &mut Vec<Effect>) {
        if !s.moves_money() {
            self.settings.apply(&s);
            let ops = if self.mutated(Mutation::WholeSettingsWrite) {
                self.settings
                    .fields()
                    .into_iter()
                    .map(Op::PutSetting)
                    .collect()
            } else {
                vec![Op::PutSetting(s)]
            };
            return self.commit(Txn::Plain, ops, out);
        }
        // Money settings are written under the lock, ordered with every write-ahead.
        self.settings_queue.push_back(s);
        if self.settings_queue.len() == 1 {
            self.wants.push_front(Want::Sweep);
        }
    }
}
