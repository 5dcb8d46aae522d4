//! The app as a host of the money state machine's decisions ([`serpkit::machine::rules`]):
//! what the holder of the journal lock read from the shared store (the settings every tab
//! stores, every tab's journal entries, the reservations, what is stored, which tabs are
//! open) as a machine [`Snapshot`], and the machine's writes mapped back to the app's rows.
//! The rules themselves are the machine's, proven by its simulator; nothing here decides.
//! Pure (no browser API), so it is unit-tested natively.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serpkit::machine::{
    stored_cap, CallId, Entry, Op, Reservation, Setting, Settings, Snapshot, TabId,
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

/// The shared store as read under the journal lock, for the machine's rules.
pub struct HostSnapshot {
    settings: Settings,
    entries: Vec<Entry>,
    /// The app's id of `entries[i]`.
    entry_ids: Vec<String>,
    reservations: Vec<Reservation>,
    /// The app's job id of `reservations[i]`.
    jobs: Vec<String>,
    /// `TabId(i)` is `tabs[i]`.
    tabs: Vec<String>,
    me: String,
    /// Open tabs (`None`: cannot tell, no Web Locks).
    open: Option<HashSet<String>>,
    /// Items stored from `source` (records fresh enough, or a complete result).
    stored: HashSet<String>,
    source: String,
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
    /// The source a call targets, and which of its items are stored from it.
    pub stored: (&'a str, HashSet<String>),
    /// Whether the entries' items are needed (planning), or only their amounts (the cap).
    pub items: bool,
}

impl HostSnapshot {
    /// The snapshot of what was read.
    pub fn new(read: Read<'_>) -> HostSnapshot {
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
        let mut entries = Vec::with_capacity(read.entries.len());
        let mut entry_ids = Vec::with_capacity(read.entries.len());
        for (n, e) in read.entries.iter().enumerate() {
            let id = CallId {
                tab: tab_of(&e.tab),
                n: n as u32,
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
            entry_ids.push(e.id.clone());
        }
        let mut reservations = Vec::with_capacity(read.reservations.len());
        let mut jobs = Vec::with_capacity(read.reservations.len());
        for (n, r) in read.reservations.iter().enumerate() {
            reservations.push(Reservation {
                call: CallId {
                    tab: tab_of(&r.tab),
                    n: n as u32,
                },
                source: r.source.clone(),
                items: r.items.clone(),
            });
            jobs.push(r.job.clone());
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
            stored: read.stored.1,
            source: read.stored.0.to_string(),
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
            stored: ("", HashSet::new()),
            items,
        })
    }

    /// This tab's id in the machine's terms.
    pub fn me(&self) -> TabId {
        TabId(0)
    }

    /// The open tabs, if the host can tell.
    pub fn open(&self) -> Option<&HashSet<String>> {
        self.open.as_ref()
    }

    /// The job id of reservation `call`.
    pub fn job(&self, call: CallId) -> Option<&str> {
        self.jobs.get(call.n as usize).map(String::as_str)
    }

    /// Whether a reservation of this tab overlaps `items` (where a waiting call waits).
    pub fn reserved_here(&self, items: &[String]) -> bool {
        let wanted: HashSet<&str> = items.iter().map(String::as_str).collect();
        self.reservations
            .iter()
            .any(|r| r.call.tab == self.me() && r.items.iter().any(|i| wanted.contains(i.as_str())))
    }

    /// A transaction of the machine as the app's rows: journal entries (their ids, with the
    /// machine's state and amounts) and the reservations to delete (their jobs). `Err`: an
    /// op this host does not write yet (the app's calls and settings do not run through its
    /// [`serpkit::machine::Tab`] yet), so none of the transaction is written.
    pub fn writes(&self, ops: &[Op]) -> Result<Writes, Op> {
        let mut w = Writes::default();
        for op in ops {
            match op {
                Op::PutEntry(e) => {
                    if let Some(id) = self.entry_ids.get(e.id.n as usize) {
                        w.entries.push((id.clone(), e.clone()));
                    }
                }
                Op::DeleteReservation(call) => {
                    if let Some(job) = self.job(*call) {
                        w.freed.push(job.to_string());
                    }
                }
                other => w.add_unnamed(other)?,
            }
        }
        Ok(w)
    }
}

impl Writes {
    /// The writes of `ops` that name no row (a setting, clearing History): what a commit
    /// made outside the lock holds. `Err`: an op this host does not write there, so none of
    /// the transaction is written (deleting every reservation is one: no path of the app
    /// can).
    pub fn unnamed(ops: &[Op]) -> Result<Writes, Op> {
        let mut w = Writes::default();
        for op in ops {
            w.add_unnamed(op)?;
        }
        Ok(w)
    }

    fn add_unnamed(&mut self, op: &Op) -> Result<(), Op> {
        match op {
            Op::PutSetting(setting) => self.settings.push(setting.clone()),
            Op::ClearHistory => self.clear_history = true,
            other => return Err(other.clone()),
        }
        Ok(())
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
        source.is_none_or(|s| s == self.source) && self.stored.contains(item)
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
mod tests {
    use serpkit::client::EntryState;
    use serpkit::machine::rules::{self, Ask, Plan};
    use serpkit::machine::{Effect, Event, Tab};
    use serpkit::Usd;

    use super::*;

    fn entry(id: &str, tab: &str, state: EntryState, items: &[&str]) -> JournalEntry {
        let mut e = JournalEntry::sent(
            id.into(),
            "job",
            tab,
            "search_volume",
            "src",
            Mode::Live,
            (
                items.iter().map(|s| s.to_string()).collect(),
                Usd::from_micros(100_000),
            ),
            5.0,
        );
        e.state = state;
        e
    }

    fn reservation(job: &str, tab: &str, items: &[&str]) -> StoredReservation {
        StoredReservation {
            job: job.into(),
            tab: tab.into(),
            source: "src".into(),
            items: items.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn snapshot(entries: &[JournalEntry], reservations: &[StoredReservation]) -> HostSnapshot {
        let settings = model::Settings {
            mode: Mode::Live,
            budget: "0.25".into(),
            ..model::Settings::default()
        };
        let refs: Vec<&JournalEntry> = entries.iter().collect();
        HostSnapshot::new(Read {
            settings: &settings,
            entries: &refs,
            reservations,
            me: "me",
            open: Some(HashSet::from(["other".to_string()])),
            stored: ("src", HashSet::from(["a".to_string()])),
            items: true,
        })
    }

    /// The one commit `out` holds: its id and ops.
    fn only_commit(out: &[Effect]) -> (u32, Vec<Op>) {
        match out {
            [Effect::Commit { txn, ops }] => (*txn, ops.clone()),
            _ => panic!("one commit expected: {out:?}"),
        }
    }

    /// A whole `Tab`, as `drive.rs` runs it: `event` asks for the lock, and once granted
    /// `snap` it asks for one commit.
    fn commit_under_lock(snap: &HostSnapshot, at: i64, event: Event<'_>) -> (Tab, u32, Vec<Op>) {
        let mut tab = Tab::new(snap.me(), snap.settings().clone(), true);
        let mut out = Vec::new();
        tab.step(at, event, &mut out);
        assert_eq!(out, vec![Effect::Lock]);
        out.clear();
        tab.step(at, Event::Granted(snap), &mut out);
        let (txn, ops) = only_commit(&out);
        (tab, txn, ops)
    }

    fn plan(snap: &HostSnapshot, items: &[&str], yes: bool) -> Plan {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        rules::plan(
            snap,
            &Ask {
                call: CallId {
                    tab: snap.me(),
                    n: u32::MAX,
                },
                source: "src",
                items: &items,
                refresh: false,
                confirm_possibly: yes,
                locks: true,
                running: &|_| false,
            },
        )
    }

    #[test]
    fn the_machine_plans_against_what_the_app_read() {
        // Stored items are not bought; an open tab's reservation makes the call wait; a
        // closed tab's does not, and the sweep frees it.
        let open = [reservation("j1", "other", &["b"])];
        assert_eq!(
            plan(&snapshot(&[], &open), &["a", "b"], false),
            Plan::Waiting
        );
        let closed = [reservation("j2", "gone", &["b"])];
        let snap = snapshot(&[], &closed);
        assert_eq!(plan(&snap, &["a", "b"], false), Plan::Buy(vec!["b".into()]));
        assert_eq!(plan(&snap, &["a"], false), Plan::Answered);
        let freed = snap.writes(&rules::sweep(&snap)).map(|w| w.freed);
        assert_eq!(freed, Ok(vec!["j2".to_string()]));
    }

    #[test]
    fn what_a_closed_tab_left_sent_is_possibly_charged_and_needs_a_yes() {
        let entries = [
            entry("e1", "gone", EntryState::Sent, &["b"]),
            entry("e2", "other", EntryState::Sent, &["c"]),
        ];
        let snap = snapshot(&entries, &[]);
        let orphans: Vec<String> = snap
            .writes(&rules::sweep(&snap))
            .map(|w| w.entries.into_iter().map(|(id, _)| id).collect())
            .unwrap_or_default();
        assert_eq!(orphans, vec!["e1".to_string()]);
        assert_eq!(
            plan(&snap, &["b"], false),
            Plan::NeedsYes {
                items: vec!["b".into()],
                since: 5
            }
        );
        assert_eq!(plan(&snap, &["b"], true), Plan::Buy(vec!["b".into()]));
    }

    #[test]
    fn this_tabs_machine_sweeps_what_closed_tabs_left_as_the_app_rows() {
        // The whole `Tab`, as `drive.rs` runs it: Opened → Lock; Granted → one commit of
        // the app's rows; Committed → Unlock, and quiet.
        let entries = [
            entry("e1", "gone", EntryState::Sent, &["b"]),
            entry("e2", "other", EntryState::Sent, &["c"]),
            entry("e3", "gone", EntryState::Charged, &["d"]),
        ];
        let snap = snapshot(&entries, &[reservation("j2", "gone", &["b"])]);
        let (mut tab, txn, ops) = commit_under_lock(&snap, 10, Event::Opened);
        let writes = snap
            .writes(&ops)
            .expect("the sweep writes only the app's rows");
        let settled: Vec<(&str, EntryState, Usd)> = writes
            .entries
            .iter()
            .map(|(id, e)| (id.as_str(), e.state, e.possible))
            .collect();
        assert_eq!(
            settled,
            vec![("e1", EntryState::PossiblyCharged, Usd::from_micros(100_000))]
        );
        assert_eq!(writes.freed, vec!["j2".to_string()]);
        let mut out = Vec::new();
        tab.step(
            11,
            Event::Committed {
                txn,
                result: Ok(()),
            },
            &mut out,
        );
        assert_eq!(out, vec![Effect::Unlock]);
        assert!(tab.is_quiet());
        // A write the app does not perform yet refuses the whole transaction.
        let reservation = Op::PutReservation(Reservation {
            call: CallId {
                tab: snap.me(),
                n: 0,
            },
            source: "src".into(),
            items: vec!["a".into()],
        });
        assert!(snap.writes(&[reservation]).is_err());
    }

    #[test]
    fn a_reset_of_the_meter_is_a_money_setting_written_under_the_lock() {
        // ResetMeter → Lock; Granted → the setting alone in its commit; Committed → it is
        // announced and the lock let go, then the sweep the change asked for.
        let snap = snapshot(&[], &[]);
        let (mut tab, txn, ops) = commit_under_lock(&snap, 1_000, Event::ResetMeter);
        let writes = snap.writes(&ops).expect("a setting is the app's to write");
        assert_eq!(writes.settings, vec![Setting::ResetAt(1_000)]);
        let mut settings = model::Settings::default();
        for s in &writes.settings {
            apply_setting(&mut settings, s);
        }
        assert_eq!(settings.budget_reset_at, 1_000.0);
        let mut out = Vec::new();
        tab.step(
            1_001,
            Event::Committed {
                txn,
                result: Ok(()),
            },
            &mut out,
        );
        assert_eq!(
            out,
            vec![
                Effect::Announce(Setting::ResetAt(1_000)),
                Effect::Unlock,
                Effect::Lock
            ]
        );
    }

    #[test]
    fn every_money_setting_reads_back_as_the_machine_wrote_it() {
        let fields = [
            Setting::Mode(Mode::Live),
            Setting::BaseUrl("https://api.example.com".into()),
            Setting::InsecureOk("http://10.0.0.2:8080".into()),
            Setting::Cap(Some(Usd::from_micros(250_000))),
            Setting::Cap(Some(Usd::from_micros(1_234_567))),
            Setting::Cap(Some(Usd::ZERO)),
            Setting::Cap(None),
            Setting::Period(serpkit::machine::Period::UntilReset),
            Setting::ResetAt(42),
        ];
        for field in fields {
            let mut settings = model::Settings::default();
            apply_setting(&mut settings, &field);
            let read = HostSnapshot::of_journal(&settings, &[], false);
            let mut expected = read.settings().clone();
            expected.apply(&field);
            assert_eq!(read.settings(), &expected, "{field:?}");
        }
    }

    #[test]
    fn a_cap_is_stored_as_people_write_amounts() {
        for (micros, text) in [
            (2_000_000, "2"),
            (0, "0"),
            (200_000, "0.20"),
            (12_500_000, "12.50"),
            (1_000, "0.001"),
            (300, "0.0003"),
            (1_234_567, "1.234567"),
        ] {
            assert_eq!(cap_text(Usd::from_micros(micros)), text);
        }
    }

    #[test]
    fn an_edit_gives_the_machine_its_money_fields_and_keeps_the_rest_the_tabs() {
        let before = model::Settings {
            budget: "1,50".into(),
            ..model::Settings::default()
        };
        let after = model::Settings {
            mode: Mode::Live,
            theme: "dark".into(),
            budget: "0".into(),
            ..before.clone()
        };
        // "1,50" already reads as 0 (fails closed), but its text is replaced all the same.
        assert_eq!(
            money_changes(&before, &after),
            [Setting::Mode(Mode::Live), Setting::Cap(Some(Usd::ZERO))]
        );
        let rest = without_money(&after, &before);
        assert_eq!((rest.mode, rest.budget.as_str()), (Mode::Demo, "1,50"));
        assert_eq!(rest.theme, "dark");
        assert!(money_changes(&before, &rest).is_empty());
    }

    #[test]
    fn clearing_history_is_one_commit_that_can_touch_no_reservation() {
        let snap = snapshot(&[], &[reservation("j1", "other", &["b"])]);
        let mut tab = Tab::new(snap.me(), snap.settings().clone(), true);
        let mut out = Vec::new();
        tab.step(1, Event::ClearHistory, &mut out);
        let (_, ops) = only_commit(&out);
        let writes = Writes::unnamed(&ops).expect("clearing History is the app's to write");
        assert!(writes.clear_history);
        assert!(writes.freed.is_empty());
        // What History once did (its rows were the reservations) the host cannot write.
        assert_eq!(
            Writes::unnamed(&[Op::ClearHistory, Op::DeleteAllReservations]),
            Err(Op::DeleteAllReservations)
        );
    }

    #[test]
    fn the_cap_is_the_stored_settings_over_every_tabs_entries() {
        // $0.25 cap, two entries of $0.10 in flight: a third $0.10 does not fit.
        let entries = [
            entry("e1", "other", EntryState::Sent, &["x"]),
            entry("e2", "me", EntryState::Charged, &["y"]),
        ];
        let mut charged = entries.clone();
        charged[1].charge = Usd::from_micros(100_000);
        let snap = snapshot(&charged, &[]);
        let settings = snap.settings().clone();
        let ten = Usd::from_micros(100_000);
        assert!(rules::admit(&settings, &snap, 10, ten).is_err());
        assert!(rules::admit(&settings, &snap, 10, Usd::from_micros(50_000)).is_ok());
    }
}
