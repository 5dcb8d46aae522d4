//! The server as a host of the money machine: what a write-ahead read of PostgreSQL under
//! the team's lock, as the machine's [`Snapshot`], so the machine's rules decide
//! ([`serpkit::machine::rules`]) and the server's SQL only reads and stores.
//!
//! The machine's tabs are the server's processes: an entry's tab is its owner (the liveness
//! id it was written ahead under), open while that id's advisory lock is held.

use std::collections::BTreeSet;

use serpkit::machine::{
    rules, CallId, Cap, Entry, EntryState, Ms, Op, Period, Refusal, Reservation, Settings,
    Snapshot, TabId,
};
use serpkit::Usd;

/// Entries of `items` (`$1`) whose outcome may be unknown (`sent`, `possibly_charged`),
/// written since `$2`, with whether their owner's liveness lock is free (the process is
/// gone). The machine decides which of them count.
pub const DOUBTFUL: &str = "SELECT id, owner, items, estimate_micros, charge_micros,
        possible_micros, state, at,
        CASE WHEN state = 'sent' THEN NOT EXISTS (
            SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((l.classid::bigint << 32) | l.objid::bigint) = e.owner)
        ELSE false END
     FROM entries e
     WHERE items && $1::text[] AND state IN ('sent', 'possibly_charged') AND at >= $2";

/// The entries the cap counts: settled since `$1` (the period's start) and every one in
/// flight, but `$3` (the entry being written ahead), summed per state and per whether they
/// are member `$2`'s. The cap rule counts sums, so one entry per group stands for its rows.
pub const PERIOD: &str = "SELECT state, member_id = $2, min(at), sum(estimate_micros)::bigint,
        sum(charge_micros)::bigint, sum(possible_micros)::bigint
     FROM entries WHERE (state = 'sent' OR at >= $1) AND id <> $3
     GROUP BY 1, 2";

/// The store as read under the team's lock.
#[derive(Debug, Default)]
pub struct Read {
    settings: Settings,
    entries: Vec<Entry>,
    /// Owners (processes) whose liveness lock is free.
    gone: BTreeSet<TabId>,
    source: String,
    reservations: Vec<Reservation>,
}

/// An owner (liveness id) as the machine's tab.
fn tab(owner: i64) -> TabId {
    TabId(owner as u64)
}

impl Read {
    /// The rows of [`DOUBTFUL`], of the records source `source`.
    pub fn doubtful(rows: &[tokio_postgres::Row], source: &str) -> Read {
        let mut read = Read {
            source: source.to_string(),
            ..Read::default()
        };
        for r in rows {
            let owner: i64 = r.get(1);
            // An unknown state name is read as the most cautious one.
            let state = EntryState::from_name(r.get(6)).unwrap_or(EntryState::PossiblyCharged);
            let id = CallId {
                tab: tab(owner),
                n: r.get::<_, i64>(0) as u32,
            };
            if r.get::<_, bool>(8) {
                read.gone.insert(id.tab);
            }
            read.entries.push(Entry {
                id,
                call: id,
                source: source.to_string(),
                live: true,
                items: r.get(2),
                estimate: Usd::from_micros(r.get(3)),
                charge: Usd::from_micros(r.get(4)),
                possible: Usd::from_micros(r.get(5)),
                state,
                at: r.get(7),
            });
        }
        read
    }

    /// The rows of [`PERIOD`] (only the member's when `member_only`), with the cap, period
    /// and reset the team's row (or the member's cap) holds.
    pub fn period(
        rows: &[tokio_postgres::Row],
        member_only: bool,
        cap: Cap,
        period: Period,
        reset_at: Ms,
    ) -> Read {
        let mut read = Read {
            settings: Settings {
                cap,
                period,
                reset_at,
                ..Settings::default()
            },
            ..Read::default()
        };
        for (n, r) in rows.iter().enumerate() {
            if member_only && !r.get::<_, bool>(1) {
                continue;
            }
            let id = CallId {
                tab: TabId(0),
                n: n as u32,
            };
            read.entries.push(Entry {
                id,
                call: id,
                source: String::new(),
                live: true,
                items: Vec::new(),
                estimate: Usd::from_micros(r.get(3)),
                charge: Usd::from_micros(r.get(4)),
                possible: Usd::from_micros(r.get(5)),
                state: EntryState::from_name(r.get(0)).unwrap_or(EntryState::Sent),
                at: r.get(2),
            });
        }
        read
    }

    /// The machine's cap rule: `Err((committed, cap))` when `estimate` would pass the cap.
    pub fn admit(&self, now: Ms, estimate: Usd) -> Result<(), (Usd, Usd)> {
        match rules::admit(&self.settings, self, now, estimate) {
            Err(Refusal::Budget { committed, cap }) => Err((committed, cap)),
            _ => Ok(()),
        }
    }

    /// The machine's possibly-bought rule: which of `items` a request whose outcome is
    /// unknown may have bought, and when the latest of those was written ahead.
    pub fn possibly_bought(&self, items: &[String]) -> Option<(Vec<String>, Ms)> {
        let items: BTreeSet<&str> = items.iter().map(String::as_str).collect();
        rules::possibly_bought(self, &self.source, &items)
    }
}

impl Snapshot for Read {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn each_entry(&self, f: &mut dyn FnMut(&Entry)) {
        self.entries.iter().for_each(f);
    }

    fn each_reservation(&self, f: &mut dyn FnMut(&Reservation)) {
        self.reservations.iter().for_each(f);
    }

    fn has_record(&self, _: Option<&str>, _: &str) -> bool {
        false
    }

    fn tab_open(&self, tab: TabId) -> Option<bool> {
        Some(!self.gone.contains(&tab))
    }
}

/// What the machine's sweep settles of a gone process `owner`: its entries still `sent`
/// (id, estimate) become these (id, state, possible charge), and the reservations of these
/// entries go (`reserving`: the entries of `owner` holding reservations).
#[allow(clippy::type_complexity)]
pub fn sweep(
    owner: i64,
    sent: &[(i64, i64)],
    reserving: &[i64],
) -> (Vec<(i64, EntryState, Usd)>, Vec<i64>) {
    // The machine's call numbers are indices into `ids` (entry ids may pass u32).
    let ids: Vec<i64> = sent
        .iter()
        .map(|(id, _)| *id)
        .chain(reserving.iter().copied())
        .collect();
    let call = |n: usize| CallId {
        tab: tab(owner),
        n: n as u32,
    };
    let read = Read {
        entries: sent
            .iter()
            .enumerate()
            .map(|(n, (_, estimate))| Entry {
                id: call(n),
                call: call(n),
                source: String::new(),
                live: true,
                items: Vec::new(),
                estimate: Usd::from_micros(*estimate),
                charge: Usd::ZERO,
                possible: Usd::ZERO,
                state: EntryState::Sent,
                at: 0,
            })
            .collect(),
        reservations: (sent.len()..ids.len())
            .map(|n| Reservation {
                call: call(n),
                source: String::new(),
                items: Vec::new(),
            })
            .collect(),
        gone: [tab(owner)].into(),
        ..Read::default()
    };
    let (mut settled, mut freed) = (Vec::new(), Vec::new());
    for op in rules::sweep(&read) {
        match op {
            Op::PutEntry(e) => settled.push((ids[e.id.n as usize], e.state, e.possible)),
            Op::DeleteReservation(c) => freed.push(ids[c.n as usize]),
            _ => {}
        }
    }
    (settled, freed)
}

/// An item as a member reads it: its record key or `result|` request key without the
/// records source (`domainstats|example.com`).
pub fn shown(item: &str, source: &str) -> String {
    let rest = item.strip_prefix("result|").unwrap_or(item);
    rest.strip_prefix(source)
        .and_then(|r| r.strip_prefix('|'))
        .unwrap_or(rest)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(owner: i64, n: u32, state: EntryState, items: &[&str]) -> Entry {
        let id = CallId { tab: tab(owner), n };
        Entry {
            id,
            call: id,
            source: "s".into(),
            live: true,
            items: items.iter().map(|i| i.to_string()).collect(),
            estimate: Usd::from_micros(50_000),
            charge: Usd::ZERO,
            possible: Usd::ZERO,
            state,
            at: i64::from(n),
        }
    }

    #[test]
    fn possibly_charged_and_a_gone_processs_sent_entries_count() {
        let read = Read {
            entries: vec![
                entry(-7, 1, EntryState::PossiblyCharged, &["s|a"]),
                entry(9, 2, EntryState::Sent, &["s|b"]),
                entry(10, 3, EntryState::Sent, &["s|c"]),
            ],
            gone: [tab(9)].into(),
            source: "s".into(),
            ..Read::default()
        };
        let ask = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|i| i.to_string()).collect();
            read.possibly_bought(&items)
        };
        assert_eq!(ask(&["s|a", "s|x"]), Some((vec!["s|a".into()], 1)));
        assert_eq!(
            ask(&["s|b", "s|a"]),
            Some((vec!["s|a".into(), "s|b".into()], 2))
        );
        // A live process's call in flight holds a reservation instead.
        assert_eq!(ask(&["s|c"]), None);
        assert_eq!(shown("result|s|related|us|tents", "s"), "related|us|tents");
        // A gone process's calls: possibly charged their estimate, reservations freed.
        let id = 5_000_000_000;
        let (settled, freed) = sweep(-3, &[(id, 50_000)], &[id, 7]);
        let possibly = (id, EntryState::PossiblyCharged, Usd::from_micros(50_000));
        assert_eq!((settled, freed), (vec![possibly], vec![id, 7]));
        assert_eq!(
            shown("s|domainstats|a.example", "s"),
            "domainstats|a.example"
        );
    }
}
