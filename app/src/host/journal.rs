//! The purchase journal's stored entries and their pure rules: one entry per paid request
//! (a bulk job's chunk is one), written ahead as `sent` before the request leaves and
//! settled with what it bought ([`serpkit::client::journal`]). The account of the browser
//! profile (spent, possibly charged, in flight) is the sum of the entries of the budget's
//! period: every tab reads the same store, so the cap applies to the sum of every tab and
//! survives reloads. Unit-tested natively.

use serde::{Deserialize, Serialize};
use serpkit::client::EntryState;
use serpkit::Usd;

use crate::model::Mode;

/// Version of the stored entry. Readers skip entries of a newer version with a notice, so
/// it changes only when an older reader would misread an entry: `items` (database version
/// 4) is a field an older reader ignores, and the entry still counts in its cap.
pub const SCHEMA: u32 = 1;

fn schema() -> u32 {
    SCHEMA
}

/// One paid request in the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Stored schema version ([`SCHEMA`]).
    #[serde(default = "schema")]
    pub v: u32,
    /// Unique id: the tab's id and a counter.
    pub id: String,
    /// The job it belongs to (the history row's id).
    pub job: String,
    /// The tab that wrote it (its Web Lock tells whether it is still open).
    pub tab: String,
    /// Operation path (`search_volume/bulk`).
    pub operation: String,
    /// Where it was sent ([`serpkit::records::source_of`] the base URL).
    pub source: String,
    /// Demo or live.
    pub mode: Mode,
    /// What it buys: the record keys of its request, or the result's cache key for an
    /// operation priced per request (so what a possibly charged request bought is known).
    #[serde(default)]
    pub items: Vec<String>,
    /// Its price, shown before it left.
    pub estimate: Usd,
    /// What it was charged.
    #[serde(default)]
    pub charge: Usd,
    /// What it may have been charged (outcome unknown).
    #[serde(default)]
    pub possible_charge: Usd,
    /// Where it is in its life, stored by its [`EntryState::as_str`] name (a name this version
    /// does not know reads as `sent`: its outcome is not known).
    #[serde(with = "state_name")]
    pub state: EntryState,
    /// When it was written ahead (ms since the epoch).
    pub at: f64,
}

impl JournalEntry {
    /// An entry written ahead: `sent`, nothing charged yet.
    #[allow(clippy::too_many_arguments)]
    pub fn sent(
        id: String,
        job: &str,
        tab: &str,
        operation: &str,
        source: &str,
        mode: Mode,
        (items, estimate): (Vec<String>, Usd),
        at: f64,
    ) -> JournalEntry {
        JournalEntry {
            v: SCHEMA,
            id,
            job: job.to_string(),
            tab: tab.to_string(),
            operation: operation.to_string(),
            source: source.to_string(),
            mode,
            items,
            estimate,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            state: EntryState::Sent,
            at,
        }
    }

    /// Its state.
    pub fn state(&self) -> EntryState {
        self.state
    }

    /// Settles it with its outcome.
    pub fn settle(&mut self, state: EntryState, charge: Usd, possible_charge: Usd) {
        self.state = state;
        self.charge = charge;
        self.possible_charge = possible_charge;
    }
}

/// The period a budget cap covers: the money state machine's, one definition for the core,
/// the app and the simulator (a reset in the future counts from now: the cap fails closed).
pub use serpkit::machine::Period;

/// When `period` began at `now_ms`, with the last reset (ms since the epoch, as the app keeps
/// them).
pub fn period_start(period: Period, now_ms: f64, reset_at: f64) -> f64 {
    period.start(now_ms as i64, reset_at as i64) as f64
}

/// The account of a period: the money state machine's (one counting rule and one cap check
/// for every host).
pub use serpkit::machine::Totals;

/// The totals of the app's stored `entries` over the period that began at `since` (ms), by
/// [`Totals::count`].
pub fn totals_of<'a>(entries: impl IntoIterator<Item = &'a JournalEntry>, since: f64) -> Totals {
    let mut t = Totals::default();
    for e in entries {
        let amounts = (e.estimate, e.charge, e.possible_charge);
        t.count(e.state(), e.at as i64, amounts, since as i64);
    }
    t
}

/// The stored name of an [`EntryState`] (an unknown one reads as `sent`).
mod state_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use serpkit::client::EntryState;

    pub fn serialize<S: Serializer>(state: &EntryState, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(state.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<EntryState, D::Error> {
        let name = String::deserialize(d)?;
        Ok(EntryState::from_name(&name).unwrap_or(EntryState::Sent))
    }
}

/// What a tab committed, told to the other tabs (they re-read these entries).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Changed {
    /// Journal entry ids.
    #[serde(default)]
    pub journal: Vec<String>,
    /// Keys of rows of the `records` store (the records one request bought are one row).
    #[serde(default)]
    pub records: Vec<String>,
    /// Result cache keys.
    #[serde(default)]
    pub results: Vec<String>,
    /// History row ids.
    #[serde(default)]
    pub history: Vec<String>,
}

impl Changed {
    /// Journal entries changed.
    pub fn journal(ids: Vec<String>) -> Changed {
        Changed {
            journal: ids,
            ..Changed::default()
        }
    }

    /// History rows changed.
    pub fn history(ids: Vec<String>) -> Changed {
        Changed {
            history: ids,
            ..Changed::default()
        }
    }

    /// As the channel carries it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A message read from the channel (`None` when it is not one of ours).
    pub fn from_json(text: &str) -> Option<Changed> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(
        state: EntryState,
        estimate: i64,
        charge: i64,
        possible: i64,
        at: f64,
    ) -> JournalEntry {
        let mut e = JournalEntry::sent(
            "t-1".into(),
            "job",
            "t",
            "related",
            "https://api.example.com",
            Mode::Live,
            (vec!["k1".into(), "k2".into()], Usd::from_micros(estimate)),
            at,
        );
        e.settle(state, Usd::from_micros(charge), Usd::from_micros(possible));
        e
    }

    #[test]
    fn totals_count_the_period_and_every_state() {
        let entries = [
            entry(EntryState::Charged, 100, 100, 0, 10.0),
            entry(EntryState::PossiblyCharged, 50, 0, 50, 20.0),
            entry(EntryState::NotCharged, 70, 0, 0, 30.0),
            entry(EntryState::Sent, 30, 0, 0, 40.0),
            entry(EntryState::Charged, 1000, 1000, 0, 1.0),
        ];
        let t = totals_of(&entries, 5.0);
        assert_eq!(t.spent, Usd::from_micros(100));
        assert_eq!(t.possibly_charged, Usd::from_micros(50));
        assert_eq!(t.in_flight, Usd::from_micros(30));
        assert_eq!(t.committed(), Usd::from_micros(180));
        assert_eq!(
            t.admits(Usd::from_micros(20), Some(Usd::from_micros(200))),
            Ok(())
        );
        assert_eq!(
            t.admits(Usd::from_micros(21), Some(Usd::from_micros(200))),
            Err(Usd::from_micros(180))
        );
        assert_eq!(t.admits(Usd::from_micros(1_000_000), None), Ok(()));
    }

    #[test]
    fn an_unknown_state_counts_as_in_flight() {
        let e = entry(EntryState::Charged, 40, 0, 0, 1.0);
        let text = serde_json::to_string(&e)
            .unwrap_or_default()
            .replace("\"charged\"", "\"from a newer version\"");
        let read: JournalEntry = serde_json::from_str(&text).expect("an entry");
        assert_eq!(read.state(), EntryState::Sent);
        assert_eq!(totals_of([&read], 0.0).in_flight, Usd::from_micros(40));
    }

    #[test]
    fn a_reset_in_the_future_is_ignored() {
        // 2026-11-25T18:34:56Z, a reset an hour later (clock set back, or an imported file).
        let now = 1_795_631_696_000.0;
        assert_eq!(
            period_start(Period::UntilReset, now, now + 3_600_000.0),
            i64::MIN as f64
        );
        assert_eq!(
            period_start(Period::Day, now, now + 3_600_000.0),
            1_795_564_800_000.0
        );
        assert_eq!(period_start(Period::Day, now, 0.0), 1_795_564_800_000.0);
    }

    #[test]
    fn changes_round_trip_and_foreign_messages_are_ignored() {
        let c = Changed {
            records: vec!["search_volume\u{0}k".into()],
            ..Changed::journal(vec!["t-1".into()])
        };
        assert_eq!(Changed::from_json(&c.to_json()), Some(c));
        assert_eq!(Changed::from_json("not json"), None);
        assert_eq!(Changed::from_json("{}"), Some(Changed::default()));
    }
}
