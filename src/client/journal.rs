//! The purchase journal's hooks: every paid request is written down before it leaves and
//! settled when its outcome is known, with what it bought, in one step.
//!
//! The client calls [`Journal::sending`] after the request's checks and price, right before
//! the transport gets it (a refusal there sends nothing: a cap across tabs, a reservation),
//! and [`Journal::settled`] once per sent request with its final [`EntryState`]: the answer
//! (charged), a refusal (not charged) or an unknown outcome (possibly charged). When the
//! client has a journal, the records a request bought are handed to `settled` instead of
//! [`RecordStore::put`](crate::records::RecordStore::put), so an implementation commits the
//! entry and its records together (the app: one IndexedDB transaction). A bulk job settles
//! each chunk as it arrives.
//!
//! An entry still [`EntryState::Sent`] when its writer is gone (a tab closed or reloaded
//! mid-call) is possibly charged: implementations turn it so on start.

use crate::money::Usd;
use crate::ops::Request;
use crate::records::{RecordKey, RecordKind, StoredRecord};
use crate::validate::Report;

use super::{Error, LocalBoxFuture};

pub use crate::machine::EntryState;

/// A request about to leave ([`Journal::sending`]).
#[derive(Clone, Copy, Debug)]
pub struct Sending<'a> {
    /// The request as it will be sent, without its key (for a planned call: only the records
    /// still to buy; for a bulk job: one chunk).
    pub request: &'a Request,
    /// Where it goes: [`crate::records::source_of`] the base URL.
    pub source: &'a str,
    /// Its price.
    pub estimate: Usd,
}

/// The outcome of one sent request ([`Journal::settled`]).
#[derive(Clone, Debug)]
pub struct Settled {
    /// The entry's final state.
    pub state: EntryState,
    /// What it was charged.
    pub charge: Usd,
    /// What it may have been charged (outcome unknown).
    pub possible_charge: Usd,
    /// The records it bought, to store with the entry (operations priced per record, when
    /// the call was planned against a store).
    pub records: Option<(RecordKind, Vec<(RecordKey, StoredRecord)>)>,
    /// The body that was paid for (also when strict validation then refuses it) and its
    /// report, for a request that is not stored record by record.
    pub body: Option<(String, Option<Report>)>,
}

/// Where a client writes its paid requests ahead and settles them
/// ([`Client::with_journal`](super::Client::with_journal)).
pub trait Journal {
    /// Before `sending` leaves. `Err`: it is not sent (for example
    /// [`Error::BudgetExceeded`] against a budget shared with other tabs); the client
    /// returns that error and counts nothing. `Ok` carries a ticket for [`Self::settled`].
    fn sending(&self, sending: Sending<'_>) -> LocalBoxFuture<'_, Result<u64, Error>>;

    /// The request of `ticket` has its outcome: commit the entry's new state with its records
    /// or body in one step. `Err`: that commit failed (the answer is still returned, with the
    /// failure beside it, as a failed record store write is).
    fn settled(&self, ticket: u64, settled: Settled) -> LocalBoxFuture<'_, Result<(), String>>;
}

/// No journal: the journal type of a client built without the `journal` feature. It has no
/// value, so code that would use a journal is unreachable and compiled away.
#[derive(Clone, Copy, Debug)]
pub enum NoJournal {}

impl Journal for NoJournal {
    fn sending(&self, _: Sending<'_>) -> LocalBoxFuture<'_, Result<u64, Error>> {
        match *self {}
    }

    fn settled(&self, _: u64, _: Settled) -> LocalBoxFuture<'_, Result<(), String>> {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_and_follow_the_money() {
        for s in EntryState::ALL {
            assert_eq!(EntryState::from_name(s.as_str()), Some(s));
        }
        assert_eq!(EntryState::from_name("charged "), None);
        let c = Usd::from_micros(300);
        assert_eq!(EntryState::of(c, Usd::ZERO), EntryState::Charged);
        assert_eq!(EntryState::of(Usd::ZERO, c), EntryState::PossiblyCharged);
        assert_eq!(EntryState::of(Usd::ZERO, Usd::ZERO), EntryState::NotCharged);
        assert!(!EntryState::Sent.is_final() && EntryState::Charged.is_final());
    }
}
