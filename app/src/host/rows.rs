//! The app as a host of the money state machine's decisions ([`serpkit::machine::rules`]):
//! what the holder of the journal lock read from the shared store (the settings every tab
//! stores, every tab's journal entries, the reservations, what is stored, which tabs are
//! open) as a machine [`Snapshot`], and the machine's writes mapped back to the app's rows.
//! The rules themselves are the machine's, proven by its simulator; nothing here decides.
//! Pure (no browser API), so it is unit-tested natively.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serpkit::machine::{
    stored_cap, CallId, Entry, EntryId, Op, Reservation, Setting, Settings, Snapshot, TabId,
};

use super::journal::JournalEntry;
use crate::model::{self, Mode};

/// What a running call reserves, in its own store (`reservations`, by the call's history
/// row id): never in History, so clearing History cannot free it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredReservation {
    /// The call's history row id (its journal entries' `job`).
    pub job: String,
    /// The tab running it (its Web Lock tells whether it is still open).
    pub tab: String,
    /// The source of its items.
    pub source: String,
    /// Record keys, or the result's cache key for an operation priced per request.
    pub items: Vec<String>,
}

/// This tab's machine numbers for the app's rows: the job (History row id) of each of its
/// calls, and the app's id of each entry it wrote ahead. Other tabs' rows are numbered as
/// they are read; this tab's rows the machine does not know get numbers from the top
/// (`u32::MAX` down), which its own counters never reach.
#[derive(Clone, Debug, Default)]
pub struct Ids {
    /// Machine call → its job.
    pub calls: HashMap<u32, String>,
    /// Machine entry (this tab's) → the app's entry id.
    pub entries: HashMap<u32, String>,
}

/// This tab, in the machine's terms ([`HostSnapshot::me`]).
const ME: TabId = TabId(0);

/// The shared store as read under the journal lock, for the machine's rules.
pub struct HostSnapshot {
    settings: Settings,
    entries: Vec<Entry>,
    /// The app's id of each entry.
    entry_ids: HashMap<EntryId, String>,
    reservations: Vec<Reservation>,
    /// The app's job id of each reservation.
    jobs: HashMap<CallId, String>,
    /// `TabId(i)` is `tabs[i]`.
    tabs: Vec<String>,
    me: String,
    /// Open tabs (`None`: cannot tell, no Web Locks).
    open: Option<HashSet<String>>,
    /// Per source, the items stored from it (records fresh enough, or a complete result).
    stored: HashMap<String, HashSet<String>>,
    ids: Ids,
}

/// What the host read under the lock, before it is a [`HostSnapshot`].
pub struct Read<'a> {
    /// The settings as stored (shared by every tab).
    pub settings: &'a model::Settings,
    /// Every tab's journal entries.
    pub entries: &'a [&'a JournalEntry],
    /// Every reservation.
    pub reservations: &'a [StoredReservation],
    /// This tab's id.
    pub me: &'a str,
    /// The open tabs, if the host can tell.
    pub open: Option<HashSet<String>>,
    /// Sources calls target, and which of their items are stored from each.
    pub stored: Vec<(String, HashSet<String>)>,
    /// This tab's machine numbers.
    pub ids: &'a Ids,
    /// Whether the entries' items are needed (planning), or only their amounts (the cap).
    pub items: bool,
}

impl HostSnapshot {
    /// This tab, in the machine's terms.
    pub const ME: TabId = ME;

    /// The snapshot of what was read.
    pub fn new<'a>(read: Read<'a>) -> HostSnapshot {
        let mut tabs: Vec<String> = vec![read.me.to_string()];
        let mut index: HashMap<String, u64> = HashMap::from([(read.me.to_string(), 0)]);
        let mut tab_of = |t: &str| -> TabId {
            if let Some(i) = index.get(t) {
                return TabId(*i);
            }
            let i = tabs.len() as u64;
            tabs.push(t.to_string());
            index.insert(t.to_string(), i);
            TabId(i)
        };
        let by_name = |m: &'a HashMap<u32, String>| -> HashMap<&'a str, u32> {
            m.iter().map(|(n, name)| (name.as_str(), *n)).collect()
        };
        let (my_entries, my_jobs) = (by_name(&read.ids.entries), by_name(&read.ids.calls));
        let number = |tab: TabId, i: usize, mine: Option<&u32>| match (tab == ME, mine) {
            (true, Some(n)) => *n,
            (true, None) => u32::MAX - i as u32,
            (false, _) => i as u32,
        };
        let mut entries = Vec::with_capacity(read.entries.len());
        let mut entry_ids = HashMap::with_capacity(read.entries.len());
        for (i, e) in read.entries.iter().enumerate() {
            let tab = tab_of(&e.tab);
            let id = CallId {
                tab,
                n: number(tab, i, my_entries.get(e.id.as_str())),
            };
            entries.push(Entry {
                id,
                call: id,
                source: e.source.clone(),
                live: e.mode == Mode::Live,
                items: if read.items {
                    e.items.clone()
                } else {
                    Vec::new()
                },
                estimate: e.estimate,
                charge: e.charge,
                possible: e.possible_charge,
                state: e.state(),
                at: e.at as i64,
            });
            entry_ids.insert(id, e.id.clone());
        }
        let mut reservations = Vec::with_capacity(read.reservations.len());
        let mut jobs = HashMap::with_capacity(read.reservations.len());
        for (i, r) in read.reservations.iter().enumerate() {
            let tab = tab_of(&r.tab);
            let call = CallId {
                tab,
                n: number(tab, i, my_jobs.get(r.job.as_str())),
            };
            reservations.push(Reservation {
                call,
                source: r.source.clone(),
                items: r.items.clone(),
            });
            jobs.insert(call, r.job.clone());
        }
        HostSnapshot {
            settings: machine_settings(read.settings),
            entries,
            entry_ids,
            reservations,
            jobs,
            tabs,
            me: read.me.to_string(),
            open: read.open,
            stored: read.stored.into_iter().collect(),
            ids: read.ids.clone(),
        }
    }

    /// A snapshot of the settings and journal entries alone (no reservations, nothing
    /// stored, no tab known to be open): what the cap check and a price's "possibly
    /// charged" line read; `items`: whether the entries' items are needed.
    pub fn of_journal(
        settings: &model::Settings,
        entries: &[&JournalEntry],
        items: bool,
    ) -> HostSnapshot {
        HostSnapshot::new(Read {
            settings,
            entries,
            reservations: &[],
            me: "",
            open: None,
            stored: Vec::new(),
            ids: &Ids::default(),
            items,
        })
    }

    /// This tab's id in the machine's terms.
    pub fn me(&self) -> TabId {
        ME
    }

    /// The open tabs, if the host can tell.
    pub fn open(&self) -> Option<&HashSet<String>> {
        self.open.as_ref()
    }

    /// The job id of reservation `call`.
    pub fn job(&self, call: CallId) -> Option<&str> {
        self.jobs.get(&call).map(String::as_str)
    }

    /// Whether a reservation of this tab overlaps `items` (where a waiting call waits).
    pub fn reserved_here(&self, items: &[String]) -> bool {
        let wanted: HashSet<&str> = items.iter().map(String::as_str).collect();
        self.reservations
            .iter()
            .any(|r| r.call.tab == self.me() && r.items.iter().any(|i| wanted.contains(i.as_str())))
    }

    /// A transaction of the machine as the app's rows ([`Writes::of`]), with the rows this
    /// snapshot read.
    pub fn writes(&self, ops: &[Op]) -> Result<Writes, Op> {
        Writes::of(ops, Some(self), &self.ids)
    }
}

impl Writes {
    /// The writes of `ops` made outside the lock: no snapshot names rows, only this tab's
    /// numbers ([`Writes::of`]).
    pub fn unnamed(ops: &[Op], ids: &Ids) -> Result<Writes, Op> {
        Writes::of(ops, None, ids)
    }

    /// A transaction of the machine as the app's rows: entries settled (their app ids) or
    /// written ahead by this tab, reservations taken by this tab's calls (their jobs) or
    /// freed, what entries bought, settings fields, History cleared. `Err`: an op this host
    /// cannot name a row for, or does not write (deleting every reservation: no path of
    /// the app can), so none of the transaction is written.
    pub fn of(ops: &[Op], snap: Option<&HostSnapshot>, ids: &Ids) -> Result<Writes, Op> {
        let mut w = Writes::default();
        let mine = |n: u32, of: &HashMap<u32, String>| of.get(&n).cloned();
        for op in ops {
            match op {
                Op::PutEntry(e) => {
                    let known = snap
                        .and_then(|s| s.entry_ids.get(&e.id).cloned())
                        .or_else(|| (e.id.tab == ME).then(|| mine(e.id.n, &ids.entries))?);
                    match known {
                        Some(id) => w.entries.push((id, e.clone())),
                        None if e.id.tab == ME => w.ahead.push(e.clone()),
                        None => return Err(op.clone()),
                    }
                }
                Op::PutReservation(r) => match mine(r.call.n, &ids.calls) {
                    Some(job) if r.call.tab == ME => w.reserved.push((job, r.clone())),
                    _ => return Err(op.clone()),
                },
                Op::DeleteReservation(call) => {
                    let job = snap
                        .and_then(|s| s.job(*call).map(str::to_string))
                        .or_else(|| (call.tab == ME).then(|| mine(call.n, &ids.calls))?);
                    if let Some(job) = job {
                        w.freed.push(job);
                    }
                }
                Op::PutRecords { entry, .. } => w.bought.push(*entry),
                Op::PutSetting(setting) => w.settings.push(setting.clone()),
                Op::ClearHistory => w.clear_history = true,
                Op::DeleteAllReservations => return Err(op.clone()),
            }
        }
        Ok(w)
    }
}

/// The app's settings as the machine sees them (a stored cap that is not an amount reads as
/// nothing may be spent: [`stored_cap`]).
pub fn machine_settings(s: &model::Settings) -> Settings {
    Settings {
        mode: s.mode,
        base_url: s.base_url.clone(),
        insecure_ok: s.insecure_ok.clone(),
        cap: stored_cap(&s.budget),
        period: s.budget_period,
        reset_at: s.budget_reset_at as i64,
        other: 0,
    }
}

/// The money settings an edit from `before` to `after` changes, in the machine's field order:
/// what the machine writes under the journal lock. The cap compares as typed text, so a
/// stored cap that is not an amount, retyped as one that reads the same, is still written.
pub fn money_changes(before: &model::Settings, after: &model::Settings) -> Vec<Setting> {
    let was = machine_settings(before).fields();
    machine_settings(after)
        .fields()
        .into_iter()
        .filter(|s| match s {
            Setting::Cap(_) => before.budget.trim() != after.budget.trim(),
            s => s.moves_money() && !was.contains(s),
        })
        .collect()
}

/// `after` with the money fields of `before`: what a tab writes itself, the money settings
/// being the machine's to write.
pub fn without_money(after: &model::Settings, before: &model::Settings) -> model::Settings {
    let mut s = after.clone();
    for field in machine_settings(before).fields() {
        apply_setting(&mut s, &field);
    }
    // The cap's text as it was, not as the machine writes it.
    s.budget.clone_from(&before.budget);
    s
}

/// A cap as the settings store its text: whole dollars bare (`2`), else at least two
/// decimals (`0.20`, `12.50`, `0.001`), as people write amounts of money.
fn cap_text(cap: serpkit::Usd) -> String {
    let text = cap.decimal();
    let Some((whole, frac)) = text.split_once('.') else {
        return text;
    };
    match frac.trim_end_matches('0') {
        "" => whole.to_string(),
        f if f.len() < 2 => format!("{whole}.{f:0<2}"),
        f => format!("{whole}.{f}"),
    }
}

/// A machine settings field written into the app's settings (the cap as the amount text the
/// settings store, which [`stored_cap`] reads back as the same cap).
pub fn apply_setting(s: &mut model::Settings, setting: &Setting) {
    match setting {
        Setting::Mode(m) => s.mode = *m,
        Setting::BaseUrl(u) => s.base_url.clone_from(u),
        Setting::InsecureOk(u) => s.insecure_ok.clone_from(u),
        Setting::Cap(c) => s.budget = c.map_or(String::new(), cap_text),
        Setting::Period(p) => s.budget_period = *p,
        Setting::ResetAt(t) => s.budget_reset_at = *t as f64,
        // Stands for the fields that move no money: the app writes those itself.
        Setting::Other(_) => {}
    }
}

/// What a machine transaction writes, as the app's rows ([`HostSnapshot::writes`]).
#[derive(Debug, Default, PartialEq)]
pub struct Writes {
    /// Journal entries: the app's id, and the entry as the machine settled it.
    pub entries: Vec<(String, Entry)>,
    /// The jobs whose reservations go.
    pub freed: Vec<String>,
    /// This tab's entries written ahead now (new rows).
    pub ahead: Vec<Entry>,
    /// Reservations this tab's calls take, with their jobs.
    pub reserved: Vec<(String, Reservation)>,
    /// Entries whose settle stores what they bought (the rows the host prepared).
    pub bought: Vec<EntryId>,
    /// Settings fields, in order.
    pub settings: Vec<Setting>,
    /// History's rows go (and the stored results with them); never a reservation.
    pub clear_history: bool,
}

impl Snapshot for HostSnapshot {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn each_entry(&self, f: &mut dyn FnMut(&Entry)) {
        self.entries.iter().for_each(f);
    }

    fn each_reservation(&self, f: &mut dyn FnMut(&Reservation)) {
        self.reservations.iter().for_each(f);
    }

    fn has_record(&self, source: Option<&str>, item: &str) -> bool {
        match source {
            Some(s) => self.stored.get(s).is_some_and(|i| i.contains(item)),
            None => self.stored.values().any(|i| i.contains(item)),
        }
    }

    fn tab_open(&self, tab: TabId) -> Option<bool> {
        let name = self.tabs.get(tab.0 as usize)?;
        if *name == self.me {
            return Some(true);
        }
        self.open.as_ref().map(|o| o.contains(name))
    }
}

#[cfg(test)]
mod tests;
