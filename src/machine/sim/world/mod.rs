//! The simulated world: tabs, store, lock, channel, clock and service, all driven by one
//! [`Rng`]. `actors.rs` holds what the users, the clock and the faults do. On the team
//! server's storage ([`Storage::Server`]) the tabs are server processes: a tab is open while
//! its database session is (`sessions`), a cut connection aborts its transaction, and the
//! server's dead-process sweep ([`World::recover`]) runs at any moment.

mod actors;
mod host;
mod job;
mod lock;
mod server;
mod watch;

use std::collections::{HashMap, VecDeque};

use super::check::{self, Broken, Ledger, Records};
use super::{Config, Rng, Storage, Violation};
use crate::machine::{
    Body, CallId, Effect, Entry, EntryId, EntryState, Event, Mode, Ms, Notice, Op, Outcome,
    Refusal, Reservation, Run, Setting, Settings, StoreError, Tab, TabId, Target,
};
use crate::money::Usd;

/// Distinct items the users ask for: few enough that calls overlap, enough that they buy.
const ITEMS: u64 = 48;
const URLS: [&str; 3] = ["https://api.one", "http://lan.two", "http://localhost:9"];
const TRACE: usize = 40;
/// 2026-11-28T23:59:00Z: the run starts a minute before midnight, two days before a month end.
const START: Ms = 1_795_910_340_000;

/// The shared store.
#[derive(Default)]
struct Db {
    settings: Settings,
    entries: HashMap<EntryId, Entry>,
    reservations: Vec<Reservation>,
    records: Records,
    history: u32,
    quota_full: bool,
}

impl Db {
    fn apply(&mut self, ops: Vec<Op>) {
        for op in ops {
            match op {
                Op::PutEntry(e) => {
                    self.entries.insert(e.id, e);
                }
                Op::PutReservation(r) => self.reservations.push(r),
                Op::DeleteReservation(c) => self.reservations.retain(|r| r.call != c),
                Op::DeleteAllReservations => self.reservations.clear(),
                Op::PutRecords {
                    source,
                    items,
                    entry,
                    body,
                } => {
                    for i in items {
                        self.records.insert((source.clone(), i), (entry, body));
                    }
                }
                Op::PutSetting(s) => self.settings.apply(&s),
                Op::ClearHistory => self.history = 0,
            }
        }
    }
}

/// A click as the user made it: its items, where the tab showed it would go.
struct Click {
    items: Vec<String>,
    /// Items per request.
    chunk: usize,
    /// The price of one item.
    each: Usd,
    target: Option<Target>,
    confirmed: String,
}

/// What a tab asked its user about: possibly charged `items` of `source`, for a click
/// on `request`. The user's yes is a run of the same request (as the app's is).
struct Asked {
    source: String,
    request: Vec<String>,
    items: Vec<String>,
}

struct SimTab {
    tab: Tab,
    skew: Ms,
    conn: Result<(), StoreError>,
    clicks: Vec<Click>,
    /// Questions shown and not answered yet.
    asked: Vec<Asked>,
}

enum Pending {
    Commit(TabId, u32, Vec<Op>),
    /// A commit whose connection was cut on its way (applied or not): the tab hears it
    /// failed.
    Cut(TabId, u32),
    Heard(TabId, Setting),
    Timer(TabId),
    /// A click captured by its host, on its way to the machine.
    Run(TabId, Run),
    /// A tab holding the lock reads the store (or, under a mutation, one whose lock request
    /// failed).
    Read(TabId),
    /// A lock request that threw or was rejected: nothing is held.
    LockFailed(TabId),
}

struct Flight {
    tab: TabId,
    entry: EntryId,
    outcome: Outcome,
}

/// What a run did, to show that it reaches the paths that matter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Clicks on Run.
    pub runs: u64,
    /// Requests sent (live ones apart).
    pub sends: u64,
    /// Live requests sent.
    pub live_sends: u64,
    /// Calls refused by the cap.
    pub over_cap: u64,
    /// Calls stopped because the settings changed while they waited.
    pub retargets_refused: u64,
    /// Calls that asked the user before buying what was possibly charged.
    pub needs_yes: u64,
    /// Calls answered from storage.
    pub answered: u64,
    /// Times a call waited for another's reservation.
    pub waits: u64,
    /// Calls refused because storage or locks failed.
    pub storage_refused: u64,
    /// Paid answers held in memory after a failed commit.
    pub unsaved: u64,
    /// Tabs closed or reloaded.
    pub closes: u64,
    /// Quiet points checked.
    pub quiet_points: u64,
    /// Server processes whose database connection was cut while they lived.
    pub sessions_cut: u64,
    /// Entries the server's dead-process sweep settled as possibly charged.
    pub recovered: u64,
    /// Requests a host asked for that the machine refused (not reserved, or possibly
    /// bought already).
    pub host_refused: u64,
    /// Requests sent for a host that makes its own ([`crate::machine::Run::host_sends`]).
    pub host_sends: u64,
    /// Lock requests that failed, and reads under the lock that failed.
    pub lock_faults: u64,
    /// At the last quiet point: the (source, item) pairs the service charged.
    pub charged_pairs: u64,
    /// Of them, those the oracle would let be charged once more unseen (an unused yes).
    pub rebuyable_pairs: u64,
    /// Live write-aheads that brought the committed total exactly to the cap (admitted).
    pub exact_cap: u64,
    /// Refusals for the cap of a request that would have reached it exactly, at most.
    pub refused_at_cap: u64,
}

/// One simulated world ([`super`]).
pub struct World {
    /// What happened so far.
    pub stats: Stats,
    config: Config,
    rng: Rng,
    step: u64,
    now: Ms,
    tabs: Vec<SimTab>,
    alive: Vec<bool>,
    /// Per tab: its database session is held (the server's storage; a browser tab's is its
    /// life).
    sessions: Vec<bool>,
    db: Db,
    lock: Option<TabId>,
    queue: VecDeque<TabId>,
    pending: Vec<Pending>,
    flights: Vec<Flight>,
    ledger: Ledger,
    trace: VecDeque<String>,
    out: Vec<Effect>,
    next_drain: u64,
    /// The settings as the users set them, field by field, in the order they were stored.
    intended: Settings,
    /// Changes users asked for, not stored yet.
    asked: Vec<(TabId, Setting)>,
    /// Calls whose host sends the requests ([`host`]).
    jobs: Vec<job::Job>,
    /// The call whose host is asking to send a request now.
    sending: Option<(TabId, u32)>,
    /// Per mille of lock requests that fail, and of reads under the lock: a fifth of the
    /// seeds run on a flaky browser (3 % fail, 9 % of contended lock requests), the others
    /// fail rarely.
    flaky: u64,
    /// How far any tab's clock may be from true time (`now`), for this seed.
    skew: Ms,
    /// Resets of the meter clicked and not stored yet, by tab.
    resets: Vec<(TabId, check::Written)>,
    /// When the user clicked the stored reset.
    reset: Option<check::Written>,
}

impl World {
    /// A world at its start: the store's settings live with a cap, one tab open.
    pub fn new(config: Config) -> World {
        let mut rng = Rng::new(config.seed);
        let db = Db {
            settings: Settings {
                mode: if rng.chance(70) {
                    Mode::Live
                } else {
                    Mode::Demo
                },
                base_url: URLS[0].to_string(),
                cap: Some(Usd::from_micros(20_000)),
                ..Settings::default()
            },
            ..Db::default()
        };
        let next_drain = 300 + rng.below(1_500);
        let intended = db.settings.clone();
        let mut w = World {
            stats: Stats::default(),
            config,
            rng,
            step: 0,
            now: START,
            tabs: Vec::new(),
            alive: Vec::new(),
            sessions: Vec::new(),
            db,
            lock: None,
            queue: VecDeque::new(),
            pending: Vec::new(),
            flights: Vec::new(),
            ledger: Ledger::default(),
            trace: VecDeque::new(),
            out: Vec::new(),
            next_drain,
            intended,
            asked: Vec::new(),
            jobs: Vec::new(),
            sending: None,
            flaky: if config.seed % 5 == 0 { 30 } else { 2 },
            skew: match (config.seed / 3) % 3 {
                0 => 5_000,
                1 => 6 * 3_600_000,
                _ => 3 * 86_400_000,
            },
            resets: Vec::new(),
            reset: None,
        };
        w.open();
        w
    }

    /// Steps run so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    fn note(&mut self, what: impl FnOnce() -> String) {
        if self.trace.len() == TRACE {
            self.trace.pop_front();
        }
        let line = format!("{:>6} {}", self.step, what());
        self.trace.push_back(line);
    }

    fn fail(&self, (invariant, detail): Broken) -> Box<Violation> {
        Box::new(Violation {
            config: self.config,
            step: self.step,
            invariant,
            detail,
            trace: self.trace.iter().cloned().collect(),
        })
    }

    fn clock(&self, t: TabId) -> Ms {
        self.now + self.tabs[t.0 as usize].skew
    }

    fn alive_ids(&self) -> Vec<TabId> {
        (0..self.tabs.len())
            .filter(|&i| self.alive[i])
            .map(|i| TabId(i as u64))
            .collect()
    }

    /// One step: the world does one thing, chosen by the seed.
    pub fn step(&mut self) -> Result<(), Box<Violation>> {
        if self.step >= self.next_drain {
            self.drain()?;
            self.next_drain = self.step + 300 + self.rng.below(1_500);
        }
        self.step += 1;
        let roll = self.rng.below(100);
        let deliverable = self.deliverable();
        if roll < 58 && deliverable > 0 {
            return self.deliver();
        }
        let alive = self.alive_ids();
        if alive.is_empty() {
            self.open();
            return Ok(());
        }
        let t = alive[self.rng.below(alive.len() as u64) as usize];
        match roll {
            0..=79 => self.user(t),
            80..=84 => {
                match self.rng.below(3) {
                    0 if alive.len() < self.config.max_tabs => self.open(),
                    1 => self.close(t)?,
                    _ => {
                        self.close(t)?;
                        self.open();
                    }
                }
                Ok(())
            }
            85..=96 => self.tick(),
            _ => self.fault(t),
        }
    }

    fn deliverable(&self) -> usize {
        // Without Web Locks a tab's lock is its own: nothing excludes another tab.
        let free = self.lock.is_none() || !self.config.locks;
        let grant = usize::from(free && !self.queue.is_empty());
        self.pending.len() + self.flights.len() + self.host_ready() + grant
    }

    fn deliver(&mut self) -> Result<(), Box<Violation>> {
        if let Some(t) = self.lock_given_up() {
            return self.event(t, Event::Locked(Err(StoreError::Lock)));
        }
        let n = self.deliverable();
        let mut i = self.rng.below(n as u64) as usize;
        if i < self.pending.len() {
            let p = self.pending.swap_remove(i);
            return match p {
                Pending::Commit(t, txn, ops) => self.commit(t, txn, ops),
                Pending::Cut(t, txn) => {
                    let result = Err(StoreError::Closed);
                    self.note(|| format!("t{} commit {txn} cut", t.0));
                    self.event(t, Event::Committed { txn, result })
                }
                Pending::Heard(t, s) => {
                    self.note(|| format!("t{} hears {s:?}", t.0));
                    self.event(t, Event::Heard(s))
                }
                Pending::Timer(t) => self.event(t, Event::Timer),
                Pending::Run(t, run) => {
                    self.note(|| format!("t{} run arrives {:?}", t.0, run.clicked));
                    self.event(t, Event::Run(run))
                }
                Pending::Read(t) => self.read(t),
                Pending::LockFailed(t) => self.lock_failed(t),
            };
        }
        i -= self.pending.len();
        if i < self.flights.len() {
            let f = self.flights.swap_remove(i);
            self.note(|| format!("t{} gets {:?} for {:?}", f.tab.0, f.outcome, f.entry));
            self.event(
                f.tab,
                Event::Answer {
                    entry: f.entry,
                    outcome: f.outcome,
                },
            )?;
            self.host_answered(f.entry, f.outcome);
            return Ok(());
        }
        i -= self.flights.len();
        let ready = self.host_ready();
        if i < ready {
            return self.host_act(i);
        }
        self.grant()
    }

    fn commit(&mut self, t: TabId, txn: u32, ops: Vec<Op>) -> Result<(), Box<Violation>> {
        if !self.alive[t.0 as usize] {
            return Ok(());
        }
        let result = match self.tabs[t.0 as usize].conn {
            Err(e) => Err(e),
            Ok(()) if self.db.quota_full && self.rng.chance(70) => Err(StoreError::Quota),
            Ok(()) => Ok(()),
        };
        self.note(|| format!("t{} commit {txn} {result:?}: {ops:?}", t.0));
        if result.is_ok() {
            self.store(t, ops)?;
        }
        self.event(t, Event::Committed { txn, result })
    }

    /// Applies a committed transaction of tab `t`; the stored settings must stay what the
    /// users set, field by field.
    fn store(&mut self, t: TabId, ops: Vec<Op>) -> Result<(), Box<Violation>> {
        for op in &ops {
            if let Op::PutSetting(s) = op {
                let asked = self.asked.iter().position(|(o, a)| *o == t && a == s);
                if let Some(i) = asked {
                    self.asked.remove(i);
                    self.intended.apply(s);
                } else if let Setting::ResetAt(stamp) = s {
                    self.intended.apply(s);
                    self.watch_reset_stored(t, *stamp);
                }
            }
        }
        self.db.apply(ops);
        if self.db.settings != self.intended {
            let (stored, set) = (&self.db.settings, &self.intended);
            return Err(self.fail((
                "settings overwritten",
                format!("stored {stored:?}, the users set {set:?}"),
            )));
        }
        Ok(())
    }

    fn event(&mut self, t: TabId, event: Event<'_>) -> Result<(), Box<Violation>> {
        if !self.alive[t.0 as usize] {
            return Ok(());
        }
        let now = self.clock(t);
        self.tabs[t.0 as usize].tab.step(now, event, &mut self.out);
        self.effects(t)
    }

    /// Performs what tab `t` asked, checking each send.
    fn effects(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        let effects = std::mem::take(&mut self.out);
        for effect in effects {
            match effect {
                // Now and then the lock request throws.
                Effect::Lock if self.rng.below(1_000) < self.flaky => {
                    self.pending.push(Pending::LockFailed(t))
                }
                Effect::Lock => self.queue.push_back(t),
                Effect::Read => self.pending.push(Pending::Read(t)),
                Effect::Unlock => {
                    if self.lock == Some(t) {
                        self.lock = None;
                    }
                }
                Effect::Commit { txn, ops } => {
                    self.watch_commit(t, &ops);
                    self.pending.push(Pending::Commit(t, txn, ops));
                }
                Effect::Announce(s) => {
                    for other in self.alive_ids() {
                        // A message is lost now and then (a tab frozen or closing).
                        if other != t && !self.rng.chance(10) {
                            self.pending.push(Pending::Heard(other, s.clone()));
                        }
                    }
                }
                Effect::Wake(_) => self.pending.push(Pending::Timer(t)),
                Effect::Send {
                    call,
                    entry,
                    target,
                    items,
                    estimate,
                } => {
                    self.host_sent(t, call, entry, &items)?;
                    self.send(t, call, entry, target, items, estimate)?
                }
                Effect::Show(n, Notice::Reserved(items)) => self.host_reserved(t, n, items),
                Effect::Show(n, Notice::Answered) => {
                    self.stats.answered += 1;
                    self.ledger.yeses.remove(&CallId { tab: t, n });
                    let click = &self.tabs[t.0 as usize].clicks[n as usize];
                    let source = click.target.as_ref().map(|c| c.source.clone());
                    let missing = click.items.iter().find(|i| {
                        !source.as_ref().is_some_and(|s| {
                            self.db.records.contains_key(&(s.clone(), (*i).clone()))
                        })
                    });
                    if let Some(i) = missing {
                        return Err(self.fail((
                            "answered from another source",
                            format!(
                                "call {n} of t{} answered {i} with no record of {source:?}",
                                t.0
                            ),
                        )));
                    }
                }
                Effect::Show(n, notice) => match notice {
                    // A call that is over takes its unused yeses with it.
                    Notice::Done => {
                        self.ledger.yeses.remove(&CallId { tab: t, n });
                    }
                    Notice::Refused(why) => {
                        match why {
                            Refusal::Budget { .. } => {
                                self.stats.over_cap += 1;
                                self.watch_over_cap(t, n)?;
                            }
                            Refusal::SettingsChanged => self.stats.retargets_refused += 1,
                            Refusal::Storage(_) | Refusal::NoLocks => {
                                self.stats.storage_refused += 1
                            }
                            Refusal::NotReserved => self.stats.host_refused += 1,
                            _ => {}
                        }
                        let answers = why == Refusal::NotReserved && self.sending == Some((t, n));
                        self.host_refused(t, n, answers);
                    }
                    Notice::NeedsYes { items, .. } => self.watch_asked(t, n, items),
                    Notice::Waiting => self.stats.waits += 1,
                    Notice::Unsaved => self.stats.unsaved += 1,
                    _ => {}
                },
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        t: TabId,
        call: u32,
        entry: EntryId,
        target: Target,
        items: Vec<String>,
        estimate: Usd,
    ) -> Result<(), Box<Violation>> {
        self.note(|| format!("t{} sends {entry:?} {items:?} to {}", t.0, target.source));
        // When it was written ahead, on the oracle's clock (never the machine's stamp).
        let at = match self.db.entries.get(&entry) {
            Some(e) if e.state == EntryState::Sent => self.ledger.written[&entry],
            _ => {
                return Err(self.fail((
                    "sent without its write-ahead",
                    format!("{entry:?} left with no committed entry"),
                )))
            }
        };
        let click = &self.tabs[t.0 as usize].clicks[call as usize];
        let clicked = click.target.clone().unwrap_or(Target {
            mode: Mode::Demo,
            source: String::new(),
        });
        check::same_target(&clicked, &target, &click.confirmed).map_err(|b| self.fail(b))?;
        let live = target.mode == Mode::Live;
        self.stats.sends += 1;
        self.stats.live_sends += u64::from(live);
        if live {
            self.ledger
                .within_cap(&self.intended, at, self.reset, self.skew, estimate)
                .map_err(|b| self.fail(b))?;
        }
        // The service's answer, with the sandbox's faults.
        let (outcome, charged) = match self.rng.below(100) {
            0..=54 => (Outcome::Answer(Body::Valid), true),
            55..=59 => (Outcome::Answer(Body::Invalid), true),
            60..=64 => (Outcome::Answer(Body::Unreadable), true),
            65..=79 => (Outcome::NotCharged, false),
            // Charged, then the connection reset or the answer came too late.
            _ => (Outcome::Unknown, true),
        };
        let strict_demo = self.config.locks;
        // A charge whose request is still sent (its tab died) or possibly charged: the user
        // was never told it was bought.
        let entries = &self.db.entries;
        let unknown = |id: &EntryId| {
            entries
                .get(id)
                .is_some_and(|e| matches!(e.state, EntryState::Sent | EntryState::PossiblyCharged))
        };
        let received = self.ledger.receive(
            entry,
            CallId { tab: t, n: call },
            &target.source,
            live,
            at,
            &items,
            estimate,
            charged,
            strict_demo,
            unknown,
        );
        received.map_err(|b| self.fail(b))?;
        self.flights.push(Flight {
            tab: t,
            entry,
            outcome,
        });
        Ok(())
    }

    /// Lets everything in flight finish with no new intent, faults off and tabs that lost
    /// their storage reloaded (they were told to), then checks the quiet invariants.
    pub fn drain(&mut self) -> Result<(), Box<Violation>> {
        self.db.quota_full = false;
        for t in self.alive_ids() {
            if self.tabs[t.0 as usize].conn.is_err() {
                self.close(t)?;
                self.open();
            }
        }
        let mut left = 100_000;
        loop {
            if self.deliverable() == 0 {
                let quiet = self
                    .alive_ids()
                    .iter()
                    .all(|t| self.tabs[t.0 as usize].tab.is_quiet());
                if quiet {
                    break;
                }
                return Err(self.fail((
                    "never quiet",
                    "a tab still works with nothing to deliver".into(),
                )));
            }
            left -= 1;
            if left == 0 {
                return Err(self.fail(("never quiet", "100,000 deliveries".into())));
            }
            self.step += 1;
            self.deliver()?;
        }
        if self.config.storage == Storage::Server {
            self.recover();
        }
        self.quiet()
    }

    fn quiet(&mut self) -> Result<(), Box<Violation>> {
        self.stats.quiet_points += 1;
        (self.stats.charged_pairs, self.stats.rebuyable_pairs) = self.ledger.rebuyable();
        for e in self.db.entries.values() {
            let alive = self.alive[e.id.tab.0 as usize];
            check::quiet_entry(e, &self.ledger, alive, &self.db.records)
                .map_err(|b| self.fail(b))?;
        }
        check::every_charge_journaled(&self.ledger, |id| self.db.entries.contains_key(id))
            .map_err(|b| self.fail(b))?;
        if let Some(r) = self
            .db
            .reservations
            .iter()
            .find(|r| self.alive[r.call.tab.0 as usize])
        {
            return Err(self.fail((
                "reservation left",
                format!("{:?} of an open, quiet tab", r.call),
            )));
        }
        Ok(())
    }
}
