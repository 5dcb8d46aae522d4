//! This browser tab's money state machine ([`Tab`]) and the performer of its effects: the
//! app as a host of the machine, not of its rules one by one. An event goes in
//! ([`drive`]); each effect is performed in order (the journal lock is the Web Lock, a
//! commit is one IndexedDB transaction of the app's rows, [`HostSnapshot::writes`] maps
//! them) and its outcome goes back in as the next event, until nothing is left to do.
//!
//! Every money event runs on it: the look at the other tabs (at start, then every 5 s
//! while another tab left something `sent` or `running`: the sweep of what closed tabs
//! left), a money setting (mode, base URL and its confirmation, cap, period, a reset of the
//! meter: written under the lock, so ordered with every write-ahead), Clear History (one
//! commit that names no reservation) and a call: its reservation ([`run`], then
//! `Notice::Reserved`), each request the client would send (`Event::Sending`: written ahead
//! under the lock against the cap and the click's target, or refused), its answer
//! (`Event::Answer`: settled with what it bought in one transaction) and its end
//! (`Event::Ended`: the reservation freed). What the machine shows or sends about a call
//! is left in that call's mail ([`take_mail`]) for the code that waits on it.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::machine::{
    Effect, EntryId, EntryState, Event, Notice, Refusal, Run, Setting, StoreError, Tab,
};
use serpkit::Request;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::journal::{Changed, JournalEntry};
use super::rows::{machine_settings, HostSnapshot, Ids, Read, StoredReservation, Writes};
use super::shared::{clear_history, read_other_tabs_entries, read_reservations, store_error};
use super::{now, tabs, Memory};
use crate::model::HistoryEntry;
use crate::store;

thread_local! {
    /// This tab's machine, made on its first event.
    static TAB: RefCell<Option<Tab>> = const { RefCell::new(None) };
    /// What the host keeps for this tab's calls.
    static HOST: RefCell<Host> = RefCell::new(Host::default());
}

/// What the host keeps to perform its calls' effects.
#[derive(Default)]
struct Host {
    /// This tab's machine numbers for the app's rows.
    ids: Ids,
    /// Calls being reserved, by machine call.
    planning: HashMap<u32, Planning>,
    /// Rows to write ahead, by machine call and (sorted) items: asked for by `Sending`.
    ahead: Vec<(u32, Vec<String>, JournalEntry)>,
    /// What an entry's settle writes with it, by machine entry, until it is stored.
    bought: HashMap<u32, Bought>,
    /// What the machine showed or sent, by machine call.
    mail: HashMap<u32, VecDeque<Mail>>,
    /// Code waiting for the next mail.
    waiting: Vec<js_sys::Function>,
}

/// A call being reserved: what its plan reads under the lock, and the History row its
/// reservation writes with it.
pub struct Planning {
    /// Its request.
    pub request: Request,
    /// Its cache key.
    pub key: String,
    /// Its record source.
    pub source: String,
    /// Every item it wants (stored ones too).
    pub items: Vec<String>,
    /// Its History row, written `running` with the reservation.
    pub row: HistoryEntry,
    /// It waited for another call: what that one stored is read again before planning.
    pub waited: bool,
}

/// What a request's settle writes with its entry: the entry as the client settled it, and
/// the rows of what it bought.
pub struct Bought {
    /// The entry, settled.
    pub row: JournalEntry,
    /// Rows of the `records` store.
    pub records: Vec<(String, String)>,
    /// Rows of the `results` store.
    pub results: Vec<(String, String)>,
    /// What other tabs are told once it is stored (its journal id is added).
    pub changed: Changed,
}

/// What the machine showed or sent about a call.
pub enum Mail {
    /// A notice.
    Shown(Notice),
    /// It waits for another call's reservation: of this tab (`here`) or another.
    Waiting {
        /// The reservation waited for is this tab's.
        here: bool,
    },
    /// A request was written ahead and may leave.
    Sent {
        /// Its entry.
        entry: EntryId,
        /// What it buys (sorted).
        items: Vec<String>,
    },
    /// An entry's settle commit ended.
    Settled {
        /// The entry.
        entry: EntryId,
        /// How.
        result: Result<(), StoreError>,
    },
}

/// The first mail of call `n` that `pick` wants, taken out.
pub(crate) fn take_mail(n: u32, pick: impl Fn(&Mail) -> bool) -> Option<Mail> {
    HOST.with(|h| {
        let mut h = h.borrow_mut();
        let mail = h.mail.get_mut(&n)?;
        let at = mail.iter().position(pick)?;
        mail.remove(at)
    })
}

/// Call `n` is over for its waiters: its mail and planning go (its machine numbers stay,
/// for a reservation freed later).
pub(crate) fn forget(n: u32) {
    HOST.with(|h| {
        let mut h = h.borrow_mut();
        h.mail.remove(&n);
        h.planning.remove(&n);
        h.ahead.retain(|(m, ..)| *m != n);
    });
}

/// Call `n` is reserved (or refused): its plan reads nothing more under the lock.
pub(crate) fn forget_planning(n: u32) {
    HOST.with(|h| h.borrow_mut().planning.remove(&n));
}

/// The row to write ahead when call `n` is allowed to send a request buying `items`.
pub(crate) fn ahead(n: u32, items: &[String], row: JournalEntry) {
    let mut items = items.to_vec();
    items.sort();
    HOST.with(|h| h.borrow_mut().ahead.push((n, items, row)));
}

/// What the settle of `entry` writes with it.
pub(crate) fn bought(entry: EntryId, rows: Bought) {
    HOST.with(|h| h.borrow_mut().bought.insert(entry.n, rows));
}

/// Steps this tab's machine with `event`; the effects it asks for.
fn step(memory: impl Memory, event: Event<'_>) -> Vec<Effect> {
    let mut out = Vec::new();
    with_tab(memory, |tab| tab.step(now() as i64, event, &mut out));
    out
}

fn with_tab<R>(memory: impl Memory, f: impl FnOnce(&mut Tab) -> R) -> R {
    TAB.with(|t| {
        let mut t = t.borrow_mut();
        let tab = t.get_or_insert_with(|| {
            // What this tab shows until it reads the store under the lock; no money is
            // decided on it.
            let settings = memory.settings().map(|s| machine_settings(&s));
            Tab::new(
                HostSnapshot::ME,
                settings.unwrap_or_default(),
                tabs::has_locks(),
            )
        });
        f(tab)
    })
}

/// Tells this tab's machine `event` and performs the effects that follow. Events are
/// stepped as they come, while others' effects are being performed (the lock waited for, a
/// commit written), as the simulator delivers them; a commit's writes are issued in the
/// turn of its step, so the writes of one turn share a transaction (`store::put_all`).
/// The outcome of a call's event comes in its mail; a money setting is awaited until it
/// is written (the footer says "saving" meanwhile).
pub(crate) fn drive(
    memory: impl Memory,
    event: Event<'static>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> {
    let setting = matches!(event, Event::Change(_) | Event::ResetMeter);
    Box::pin(async move {
        perform(memory, step(memory, event)).await;
        while setting && with_tab(memory, |tab| tab.settling()) {
            serpkit::client::sleep(std::time::Duration::from_millis(4)).await;
        }
    })
}

/// The user clicked Run: the call goes to the machine with the settings as stored now (the
/// ones this tab shows), and `planning` is what its plan reads. Its number.
pub(crate) async fn run(memory: impl Memory, run: Run, planning: Planning) -> u32 {
    // Unreadable settings: nothing heard (the call is refused under the lock).
    let stored = memory.settings().map(|s| machine_settings(&s).fields());
    let heard: Vec<Setting> = with_tab(memory, |tab| {
        let shown = tab.settings().fields();
        let stored = stored.into_iter().flatten();
        stored.filter(|s| !shown.contains(s)).collect()
    });
    for s in heard {
        step(memory, Event::Heard(s));
    }
    let n = with_tab(memory, |tab| tab.next_call());
    HOST.with(|h| {
        let mut h = h.borrow_mut();
        h.ids.calls.insert(n, planning.row.id.clone());
        h.planning.insert(n, planning);
    });
    perform(memory, step(memory, Event::Run(run))).await;
    n
}

/// Asks to send a request of call `n` buying `items` at `estimate`: the entry it was
/// written ahead as, or why not (refused on its own, or its call stopped).
pub(crate) async fn send(
    memory: impl Memory,
    n: u32,
    mut items: Vec<String>,
    estimate: serpkit::Usd,
) -> Result<EntryId, Refusal> {
    items.sort();
    let sending = Event::Sending {
        call: n,
        items: items.clone(),
        estimate,
    };
    let effects = step(memory, sending);
    // A refusal of this very request is in its own step; the call goes on.
    let alone = Effect::Show(n, Notice::Refused(Refusal::NotReserved));
    if effects.contains(&alone) {
        let rest = effects.into_iter().filter(|e| *e != alone).collect();
        perform(memory, rest).await;
        return Err(Refusal::NotReserved);
    }
    perform(memory, effects).await;
    loop {
        let sent = take_mail(
            n,
            |m| matches!(m, Mail::Sent { items: i, .. } if *i == items),
        );
        if let Some(Mail::Sent { entry, .. }) = sent {
            return Ok(entry);
        }
        // A stop of the call answers every request still waiting: left for the others.
        if let Some(why) = stopped(n) {
            return Err(why);
        }
        mail_arrives().await;
    }
}

/// Tells the machine how `entry` of call `n` ended; once its settle commit ended, how it
/// went (a failed one is kept in memory and written again).
pub(crate) async fn settle(
    memory: impl Memory,
    n: u32,
    entry: EntryId,
    outcome: serpkit::machine::Outcome,
) -> Result<(), StoreError> {
    perform(memory, step(memory, Event::Answer { entry, outcome })).await;
    loop {
        let done = take_mail(
            n,
            |m| matches!(m, Mail::Settled { entry: e, .. } if *e == entry),
        );
        if let Some(Mail::Settled { result, .. }) = done {
            return result;
        }
        mail_arrives().await;
    }
}

/// Why call `n` was stopped, if it was (its mail keeps it).
fn stopped(n: u32) -> Option<Refusal> {
    HOST.with(|h| {
        h.borrow().mail.get(&n)?.iter().find_map(|m| match m {
            Mail::Shown(Notice::Refused(why)) if *why != Refusal::NotReserved => Some(*why),
            _ => None,
        })
    })
}

/// Resolves when the next mail arrives (for any call).
async fn mail_arrives() {
    let mut resolve = None;
    let arrived = js_sys::Promise::new(&mut |res, _| resolve = Some(res));
    if let Some(resolve) = resolve {
        HOST.with(|h| h.borrow_mut().waiting.push(resolve));
    }
    let _ = JsFuture::from(arrived).await;
}

fn mail(n: u32, m: Mail) {
    let waiting = HOST.with(|h| {
        let mut h = h.borrow_mut();
        h.mail.entry(n).or_default().push_back(m);
        std::mem::take(&mut h.waiting)
    });
    for w in waiting {
        let _ = w.call0(&JsValue::NULL);
    }
}

/// Performs `effects` in order, each outcome stepped as the next event.
async fn perform(memory: impl Memory, effects: Vec<Effect>) {
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Lock => {
                let after = match tabs::lock(tabs::JOURNAL_LOCK).await {
                    Ok(held) => {
                        let after = locked(memory).await;
                        drop(held);
                        after
                    }
                    // The machine decides what a lock that cannot be taken means.
                    Err(_) => step(memory, Event::Locked(Err(StoreError::Lock))),
                };
                queue.extend(after);
            }
            Effect::Commit { txn, ops } => {
                let writes = HOST.with(|h| Writes::unnamed(&ops, &h.borrow().ids));
                let result = match writes {
                    Ok(writes) => commit(memory, writes).await,
                    Err(_) => Err(StoreError::Closed),
                };
                queue.extend(step(memory, Event::Committed { txn, result }));
            }
            Effect::Wake(ms) => spawn_local(async move {
                serpkit::client::sleep(std::time::Duration::from_millis(ms.max(0) as u64)).await;
                drive(memory, Event::Timer).await;
            }),
            Effect::Send {
                call,
                entry,
                mut items,
                ..
            } => {
                items.sort();
                mail(call, Mail::Sent { entry, items });
            }
            Effect::Show(n, notice) => mail(n, Mail::Shown(notice)),
            // Nothing is held outside `locked`, and nothing is read outside it; other tabs
            // hear settings through the `storage` event.
            Effect::Unlock | Effect::Read | Effect::Announce(_) => {}
        }
    }
}

/// Holding the journal lock: tells the machine, reads the shared store when it asks
/// (`Effect::Read`: whole, or an error), and performs its commits until it lets go of the
/// lock. The effects after that are returned.
async fn locked(memory: impl Memory) -> Vec<Effect> {
    let mut queue: VecDeque<Effect> = step(memory, Event::Locked(Ok(()))).into();
    let mut snap: Option<HostSnapshot> = None;
    let mut after = Vec::new();
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Unlock => {
                after.extend(queue);
                break;
            }
            Effect::Read => match read_shared(memory).await {
                Ok(read) => {
                    queue.extend(step(memory, Event::Granted(Ok(&read))));
                    snap = Some(read);
                }
                Err(e) => queue.extend(step(memory, Event::Granted(Err(e)))),
            },
            Effect::Commit { txn, ops } => {
                let result = match snap.as_ref().map(|s| s.writes(&ops)) {
                    Some(Ok(writes)) => commit(memory, writes).await,
                    _ => Err(StoreError::Closed),
                };
                queue.extend(step(memory, Event::Committed { txn, result }));
            }
            Effect::Show(n, Notice::Waiting) => {
                let here = HOST.with(|h| {
                    let mut h = h.borrow_mut();
                    let p = h.planning.get_mut(&n)?;
                    p.waited = true;
                    Some(snap.as_ref()?.reserved_here(&p.items))
                });
                mail(
                    n,
                    Mail::Waiting {
                        here: here == Some(true),
                    },
                );
            }
            other => after.push(other),
        }
    }
    if let Some(open) = snap.as_ref().and_then(HostSnapshot::open) {
        memory.tabs_gone(&tabs::tab_id(), open).await;
    }
    after
}

/// For the calls being reserved, what is stored from their sources now: records another
/// tab committed (whose message may not have arrived yet) and, after a wait, what the call
/// waited for stored, read first.
async fn planning_reads(memory: impl Memory) -> Result<Vec<(String, HashSet<String>)>, StoreError> {
    let calls: Vec<(Request, String, String, bool)> = HOST.with(|h| {
        h.borrow()
            .planning
            .values()
            .map(|p| (p.request.clone(), p.key.clone(), p.source.clone(), p.waited))
            .collect()
    });
    let mut stored: Vec<(String, HashSet<String>)> = Vec::new();
    for (request, key, source, waited) in calls {
        let have = memory.stored_from(&request, &key, &source, waited).await?;
        match stored.iter_mut().find(|(s, _)| *s == source) {
            Some((_, all)) => all.extend(have),
            None => stored.push((source, have)),
        }
    }
    Ok(stored)
}

/// Under the journal lock: the shared store as the machine reads it (the stored settings,
/// every tab's journal entries, the reservations, which tabs are open, and what is stored
/// of the planning calls' sources), whole, or why it could not be read: no part of it
/// stands in as empty.
pub(crate) async fn read_shared(memory: impl Memory) -> Result<HostSnapshot, StoreError> {
    let stored = planning_reads(memory).await?;
    // The entries' items are needed to plan; a write-ahead needs only their amounts.
    let items = !stored.is_empty();
    // Entries written ahead by other tabs are not announced: read those not known yet.
    read_other_tabs_entries(memory).await?;
    let open = tabs::open_tabs().await.map_err(|_| StoreError::Lock)?;
    let reservations = read_reservations().await?;
    let settings = memory.settings()?;
    let me = tabs::tab_id();
    let ids = HOST.with(|h| h.borrow().ids.clone());
    Ok(memory.journal().with_untracked(|j| {
        let entries: Vec<&JournalEntry> = j.values().collect();
        HostSnapshot::new(Read {
            settings: &settings,
            entries: &entries,
            reservations: &reservations,
            me: &me,
            open,
            stored,
            ids: &ids,
            items,
        })
    }))
}

/// Writes a machine transaction as the app's rows, in one IndexedDB transaction, and tells
/// the other tabs; the calls whose entries it settled get its outcome in their mail.
async fn commit(memory: impl Memory, writes: Writes) -> Result<(), StoreError> {
    let settles: Vec<(u32, EntryId)> = writes
        .entries
        .iter()
        .filter(|(_, e)| e.id.tab == HostSnapshot::ME && e.state != EntryState::Sent)
        .map(|(_, e)| (e.call.n, e.id))
        .collect();
    let result = write(memory, writes).await;
    for (n, entry) in settles {
        // A paid answer kept in memory until stored is an unsaved change.
        let id = HOST.with(|h| {
            let mut h = h.borrow_mut();
            if result.is_ok() {
                h.bought.remove(&entry.n);
            }
            h.ids.entries.get(&entry.n).cloned()
        });
        if let Some(id) = id {
            memory.mark_saved(store::JOURNAL, id, result.is_ok());
        }
        mail(n, Mail::Settled { entry, result });
    }
    result
}

async fn write(memory: impl Memory, writes: Writes) -> Result<(), StoreError> {
    if writes.clear_history {
        clear_history(memory).await?;
    }
    // Field by field over what is stored, never a whole copy; the other tabs follow through
    // the `storage` event.
    if !writes.settings.is_empty() && !memory.write_money(&writes.settings) {
        return Err(StoreError::Quota);
    }
    let rows = Rows::of(memory, &writes);
    if rows.ahead.len() != writes.ahead.len() || rows.history.len() != writes.reserved.len() {
        // A row this host was not given: nothing of the transaction is written (and
        // nothing is sent).
        return Err(StoreError::Closed);
    }
    if rows.is_empty() && writes.freed.is_empty() {
        return Ok(());
    }
    if !store::available() {
        // A tab that never had storage (it says so where it loads) keeps its rows in memory.
        // A tab whose connection is gone (a newer schema, or closed) writes nothing, so the
        // machine stops what would go on outside the journal; its settled entries still count
        // in memory, as when a write fails below.
        let lost = store::lost().is_some();
        rows.remember(memory, true, !lost);
        return if lost { Err(store_error()) } else { Ok(()) };
    }
    let journal: Vec<(String, String)> = rows
        .settled
        .iter()
        .chain(&rows.ahead)
        .filter_map(|e| Some((e.id.clone(), serde_json::to_string(e).ok()?)))
        .collect();
    let history: Vec<(String, String)> = rows
        .history
        .iter()
        .filter_map(|r| Some((r.id.clone(), serde_json::to_string(r).ok()?)))
        .collect();
    let written = store::put_all(&[
        (store::JOURNAL, &journal[..]),
        (store::RECORDS, &rows.records[..]),
        (store::RESULTS, &rows.results[..]),
        (store::HISTORY, &history[..]),
        (store::RESERVATIONS, &rows.reservations[..]),
    ])
    .await;
    // The settled entries count once the commit is done, failed or not (a failed settle is
    // kept and written again): in the task that goes on to report the chunk's progress, one
    // frame for both. Until then an entry counts as in flight with its estimate.
    if let Err(e) = written {
        rows.remember(memory, true, false);
        memory.save_failed(format!("Could not save the purchase journal: {e}"));
        return Err(store_error());
    }
    rows.remember(memory, true, true);
    for job in &writes.freed {
        if let Err(e) = store::delete(store::RESERVATIONS, job).await {
            memory.save_failed(format!("Could not free a reservation: {e}"));
            return Err(store_error());
        }
    }
    // An entry written ahead is not told: what other tabs need of it they read under the
    // journal lock, and its settle is told.
    let mut changed = rows.changed;
    changed.journal = rows.settled.into_iter().map(|e| e.id).collect();
    changed.history = rows.history.into_iter().map(|r| r.id).collect();
    if !(changed.journal.is_empty() && changed.history.is_empty() && changed.records.is_empty()) {
        tabs::post(&changed.to_json());
    }
    Ok(())
}

/// A machine transaction's rows.
#[derive(Default)]
struct Rows {
    /// Entries settled (this tab's as its client settled them, others' as the sweep did).
    settled: Vec<JournalEntry>,
    /// This tab's entries written ahead.
    ahead: Vec<JournalEntry>,
    records: Vec<(String, String)>,
    results: Vec<(String, String)>,
    /// History rows written `running` with their calls' reservations.
    history: Vec<HistoryEntry>,
    reservations: Vec<(String, String)>,
    changed: Changed,
}

impl Rows {
    fn of(memory: impl Memory, writes: &Writes) -> Rows {
        let mut rows = Rows::default();
        let me = tabs::tab_id();
        HOST.with(|h| {
            let mut h = h.borrow_mut();
            for (id, e) in &writes.entries {
                let mine = (e.id.tab == HostSnapshot::ME)
                    .then(|| h.bought.get(&e.id.n))
                    .flatten();
                let row = match mine {
                    Some(b) => Some(b.row.clone()),
                    None => memory.journal().with_untracked(|j| {
                        j.get(id).cloned().map(|mut row| {
                            row.settle(e.state, e.charge, e.possible);
                            row
                        })
                    }),
                };
                rows.settled.extend(row);
            }
            for e in &writes.ahead {
                let mut items = e.items.clone();
                items.sort();
                let at = h
                    .ahead
                    .iter()
                    .position(|(n, i, _)| *n == e.call.n && *i == items);
                if let Some(at) = at {
                    let (_, _, row) = h.ahead.remove(at);
                    h.ids.entries.insert(e.id.n, row.id.clone());
                    rows.ahead.push(row);
                }
            }
            for entry in &writes.bought {
                if let Some(b) = h.bought.get(&entry.n) {
                    rows.records.extend(b.records.iter().cloned());
                    rows.results.extend(b.results.iter().cloned());
                    rows.changed
                        .records
                        .extend(b.changed.records.iter().cloned());
                    rows.changed
                        .results
                        .extend(b.changed.results.iter().cloned());
                }
            }
            for (job, r) in &writes.reserved {
                let Some(p) = h.planning.get(&r.call.n) else {
                    continue;
                };
                rows.history.push(p.row.clone());
                let reservation = StoredReservation {
                    job: job.clone(),
                    tab: me.clone(),
                    source: r.source.clone(),
                    items: r.items.clone(),
                };
                if let Ok(text) = serde_json::to_string(&reservation) {
                    rows.reservations.push((job.clone(), text));
                }
            }
        });
        rows
    }

    /// Puts in memory the settled entries (`settled`), or those written ahead and the
    /// History rows (`written`). Each signal is touched only when there is something new:
    /// a bulk job commits twice per request, and every touch costs the page a frame.
    fn remember(&self, memory: impl Memory, settled: bool, written: bool) {
        if settled && !self.settled.is_empty() {
            memory.merge_journal(self.settled.clone());
        }
        if written && !self.ahead.is_empty() {
            memory.merge_journal(self.ahead.clone());
        }
        if written && !self.history.is_empty() {
            memory.upsert_history(self.history.clone());
        }
    }

    fn is_empty(&self) -> bool {
        self.settled.is_empty()
            && self.ahead.is_empty()
            && self.records.is_empty()
            && self.results.is_empty()
            && self.history.is_empty()
    }
}
