//! `host.rs` natively: the machine's decisions and a whole `Tab` on the app's rows.

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
        stored: vec![("src".into(), HashSet::from(["a".to_string()]))],
        ids: &Ids::default(),
        items: true,
    })
}

/// Tells `tab` that transaction `txn` was committed.
fn committed(tab: &mut Tab, at: i64, txn: u32, out: &mut Vec<Effect>) {
    tab.step(
        at,
        Event::Committed {
            txn,
            result: Ok(()),
        },
        out,
    );
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
    tab.step(at, Event::Locked(Ok(())), &mut out);
    assert_eq!(out, vec![Effect::Read]);
    out.clear();
    tab.step(at, Event::Granted(Ok(snap)), &mut out);
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
    committed(&mut tab, 11, txn, &mut out);
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
fn a_call_runs_on_the_machine_as_the_apps_rows() {
    use serpkit::machine::{Body, Notice, Outcome, Run};
    let settings = model::Settings {
        mode: Mode::Live,
        base_url: "https://api.example.com".into(),
        ..model::Settings::default()
    };
    let source = "https://api.example.com".to_string();
    let read = |ids: &Ids, reservations: &[StoredReservation]| {
        HostSnapshot::new(Read {
            settings: &settings,
            entries: &[],
            reservations,
            me: "me",
            open: Some(HashSet::new()),
            stored: vec![(source.clone(), HashSet::from(["a".to_string()]))],
            ids,
            items: true,
        })
    };
    let mut ids = Ids::default();
    ids.calls.insert(0, "job-1".into());
    let snap = read(&ids, &[]);
    let mut tab = Tab::new(HostSnapshot::ME, snap.settings().clone(), true);
    let mut out = Vec::new();
    let run = Run {
        items: vec!["a".into(), "b".into()],
        each: Usd::ZERO,
        chunk: 1,
        refresh: false,
        confirm_possibly: false,
        host_sends: true,
        clicked: None,
    };
    tab.step(1, Event::Run(run), &mut out);
    assert_eq!(out, vec![Effect::Lock]);
    // Under the lock: "a" is stored from the source, so only "b" is reserved, under the
    // call's job (drive.rs writes it with its History row).
    out.clear();
    tab.step(2, Event::Locked(Ok(())), &mut out);
    assert_eq!(out, vec![Effect::Read]);
    out.clear();
    tab.step(2, Event::Granted(Ok(&snap)), &mut out);
    let (txn, ops) = only_commit(&out);
    let writes = snap.writes(&ops).expect("the reservation has its job");
    assert_eq!(writes.reserved.len(), 1);
    assert_eq!(writes.reserved[0].0, "job-1");
    assert_eq!(writes.reserved[0].1.items, vec!["b".to_string()]);
    out.clear();
    committed(&mut tab, 3, txn, &mut out);
    assert!(out.contains(&Effect::Show(0, Notice::Reserved(vec!["b".into()]))));
    // The client's request: written ahead as a new row under the lock, then sent.
    out.clear();
    let estimate = Usd::from_micros(100_000);
    let sending = Event::Sending {
        call: 0,
        items: vec!["b".into()],
        estimate,
    };
    tab.step(4, sending, &mut out);
    assert_eq!(out, vec![Effect::Lock]);
    let stored = [reservation("job-1", "me", &["b"])];
    let snap = read(&ids, &stored);
    out.clear();
    tab.step(5, Event::Locked(Ok(())), &mut out);
    assert_eq!(out, vec![Effect::Read]);
    out.clear();
    tab.step(5, Event::Granted(Ok(&snap)), &mut out);
    let (txn, ops) = only_commit(&out);
    let writes = snap.writes(&ops).expect("an entry written ahead");
    let [entry] = &writes.ahead[..] else {
        panic!("one entry written ahead: {writes:?}")
    };
    assert_eq!((entry.state, entry.estimate), (EntryState::Sent, estimate));
    let id = entry.id;
    ids.entries.insert(id.n, "entry-1".into());
    out.clear();
    committed(&mut tab, 6, txn, &mut out);
    assert!(matches!(&out[..], [Effect::Unlock, Effect::Send { entry, .. }] if *entry == id));
    // Its answer: the entry (by its app id) and what it bought, in one commit.
    out.clear();
    let answer = Event::Answer {
        entry: id,
        outcome: Outcome::Answer(Body::Valid),
    };
    tab.step(7, answer, &mut out);
    let (txn, ops) = only_commit(&out);
    let writes = Writes::unnamed(&ops, &ids).expect("this tab's entry");
    assert_eq!(writes.entries.len(), 1);
    assert_eq!(writes.entries[0].0, "entry-1");
    assert_eq!(writes.entries[0].1.state, EntryState::Charged);
    assert_eq!(writes.bought, vec![id]);
    out.clear();
    committed(&mut tab, 8, txn, &mut out);
    // The client is done: the reservation goes, by its job.
    out.clear();
    tab.step(9, Event::Ended(0), &mut out);
    let commit = out.iter().find_map(|e| match e {
        Effect::Commit { ops, .. } => Some(ops.clone()),
        _ => None,
    });
    let writes = Writes::unnamed(&commit.expect("the reservation freed"), &ids);
    assert_eq!(writes.map(|w| w.freed), Ok(vec!["job-1".to_string()]));
    assert!(out.contains(&Effect::Show(0, Notice::Done)));
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
    let writes =
        Writes::unnamed(&ops, &Ids::default()).expect("clearing History is the app's to write");
    assert!(writes.clear_history);
    assert!(writes.freed.is_empty());
    // What History once did (its rows were the reservations) the host cannot write.
    assert_eq!(
        Writes::unnamed(
            &[Op::ClearHistory, Op::DeleteAllReservations],
            &Ids::default()
        ),
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
