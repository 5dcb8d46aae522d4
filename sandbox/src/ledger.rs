//! The ledger: every call the sandbox answered and what it charged, bounded in size.

use std::collections::VecDeque;

use serde::Serialize;
use serpkit::Usd;

/// Default number of entries the ledger keeps (the oldest are dropped first).
pub const DEFAULT_MAX_LEDGER_ENTRIES: usize = 100_000;

/// One recorded call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    /// 1, 2, 3, ... in arrival order (never reused, even after old entries are dropped).
    pub seq: u64,
    /// Operation path (`search_volume/bulk`), the unknown path asked for, or `redirected`
    /// for a request that followed the `redirect` fault to `/redirected`.
    pub operation: String,
    /// [`crate::key_id`] of the key (fault suffix removed), `None` without a key.
    pub key_id: Option<String>,
    /// Billable units of the request (0 when it did not parse).
    pub units: u64,
    /// What was charged: the estimate for a 200, zero otherwise.
    pub charge: Usd,
    /// The status answered.
    pub status: u16,
    /// The fault asked for, if any (`rate_limit`, `break=order`, ...), or
    /// `redirect_followed` for a request that arrived at `/redirected`.
    pub fault: Option<String>,
    /// Only on `redirected` entries: whether the followed request carried a key (its body
    /// had a `"key"` field or an accepted key). Absent on every other entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_seen: Option<bool>,
}

/// The ledger: the last calls and the total charged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    /// The kept calls in arrival order (at most [`crate::Config::max_ledger_entries`]).
    pub entries: Vec<LedgerEntry>,
    /// Sum of every charge since the last reset, including dropped entries.
    pub total: Usd,
    /// How many older entries were dropped to keep the ledger bounded.
    pub dropped: u64,
}

impl Ledger {
    /// Entries answered 200 (the charged ones).
    pub fn charged(&self) -> impl Iterator<Item = &LedgerEntry> {
        self.entries.iter().filter(|e| e.status == 200)
    }
}

/// The ledger as the sandbox keeps it: a ring of the last `max` entries and a running total.
#[derive(Debug, Default)]
pub(crate) struct Book {
    entries: VecDeque<LedgerEntry>,
    total: Usd,
    dropped: u64,
    next_seq: u64,
}

impl Book {
    /// Appends `entry` (its `seq` is assigned here), dropping the oldest beyond `max`.
    pub(crate) fn push(&mut self, mut entry: LedgerEntry, max: usize) {
        self.next_seq += 1;
        entry.seq = self.next_seq;
        self.total += entry.charge;
        self.entries.push_back(entry);
        while self.entries.len() > max.max(1) {
            self.entries.pop_front();
            self.dropped += 1;
        }
    }

    /// A copy for `GET /ledger`.
    pub(crate) fn snapshot(&self) -> Ledger {
        Ledger {
            entries: self.entries.iter().cloned().collect(),
            total: self.total,
            dropped: self.dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(cents: i64) -> LedgerEntry {
        LedgerEntry {
            seq: 0,
            operation: "related".into(),
            key_id: None,
            units: 1,
            charge: Usd::from_micros(cents * 10_000),
            status: 200,
            fault: None,
            key_seen: None,
        }
    }

    #[test]
    fn keeps_the_last_entries_and_the_whole_total() {
        let mut b = Book::default();
        for _ in 0..5 {
            b.push(entry(1), 3);
        }
        let l = b.snapshot();
        assert_eq!(l.entries.len(), 3);
        assert_eq!(l.dropped, 2);
        assert_eq!(l.entries[0].seq, 3);
        assert_eq!(l.total, Usd::from_micros(50_000));
    }
}
