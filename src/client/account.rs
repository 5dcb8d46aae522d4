//! The [`Account`]: what a tab or session has spent, shared by every client built on it.

use std::cell::RefCell;
use std::rc::Rc;

use crate::money::Usd;

#[derive(Default)]
struct Ledger {
    spent: Usd,
    possibly_charged: Usd,
    reserved: Usd,
    calls: u64,
}

/// The spend of a tab or session: confirmed charges, possibly charged calls (sent, outcome
/// unknown) and the estimates of calls in flight. Clones share it, and so do clients built on
/// it with [`Client::with_account`](super::Client::with_account): a client rebuilt with new
/// settings keeps counting against the same budget.
#[derive(Clone, Default)]
pub struct Account(Rc<RefCell<Ledger>>);

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let l = self.0.borrow();
        f.debug_struct("Account")
            .field("spent", &l.spent)
            .field("possibly_charged", &l.possibly_charged)
            .field("reserved", &l.reserved)
            .field("calls", &l.calls)
            .finish()
    }
}

impl Account {
    /// An account that has spent nothing.
    pub fn new() -> Account {
        Account::default()
    }

    /// Confirmed charges: calls the service answered with success (also those whose body was
    /// then refused, broken or lost).
    pub fn spent(&self) -> Usd {
        self.0.borrow().spent
    }

    /// Estimates of calls whose outcome is unknown: sent, then timed out or aborted. The
    /// service may have charged them; they count against the budget like spent money.
    pub fn possibly_charged(&self) -> Usd {
        self.0.borrow().possibly_charged
    }

    /// Estimates of calls in flight.
    pub fn reserved(&self) -> Usd {
        self.0.borrow().reserved
    }

    /// Number of calls counted as charged (confirmed).
    pub fn charged_calls(&self) -> u64 {
        self.0.borrow().calls
    }

    /// Spent + possibly charged + reserved: what a budget is checked against.
    pub fn committed(&self) -> Usd {
        let l = self.0.borrow();
        l.spent + l.possibly_charged + l.reserved
    }

    pub(super) fn reserve(&self, estimate: Usd) {
        self.0.borrow_mut().reserved += estimate;
    }

    /// Ends a call reserved with `estimate`: books its confirmed and its possible charge.
    pub(super) fn settle(&self, estimate: Usd, charge: Usd, possible_charge: Usd) {
        let mut l = self.0.borrow_mut();
        l.reserved = l.reserved.saturating_sub(estimate);
        if charge > Usd::ZERO {
            l.spent += charge;
            l.calls += 1;
        }
        l.possibly_charged += possible_charge;
    }
}
