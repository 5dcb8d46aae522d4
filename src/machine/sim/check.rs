//! The service's ledger as the simulator keeps it, and the invariants checked against it.
//!
//! After every step: nothing leaves without its entry written ahead; no record (or
//! per-request result) is charged twice for one source without the user's yes (Refresh, or
//! yes to what was possibly charged); a live request leaves only within the cap; a send goes
//! where the click was (demo never turns live; the key only to a confirmed origin); a call
//! answered from storage is answered from its own source. Once quiet: every entry agrees with
//! the ledger (spent and possibly charged equal the charges, plus what a tab wrote ahead and
//! died before sending), every charged body is stored, no reservation of an open tab is left.

use std::collections::{HashMap, HashSet};

use crate::machine::account::{civil_from_days, days_from_civil};
use crate::machine::{
    Body, CallId, Entry, EntryId, EntryState, Mode, Ms, Period, Settings, Target,
};
use crate::money::Usd;

/// One request the service received.
#[derive(Clone, Debug)]
pub(super) struct Received {
    pub(super) live: bool,
    /// When it was written ahead, on the oracle's clock.
    pub(super) at: Ms,
    /// What its tab's clock read then, as the oracle set that clock.
    pub(super) clock: Ms,
    pub(super) estimate: Usd,
    pub(super) charged: bool,
}

/// What the service charged, and what the users agreed to: the oracle's own ledger, kept
/// apart from anything a tab stores or remembers.
#[derive(Default, Debug)]
pub(super) struct Ledger {
    /// Charges per (source, item).
    pub(super) charges: HashMap<(String, String), u32>,
    /// The users' unused yeses, per call: the (source, item) pairs that call may buy once
    /// more. A yes covers what the user chose to refresh, or the possibly charged items a
    /// tab asked about; one charge by its call uses it up, and a call that ends without
    /// charging takes it with it (the next click must be asked again).
    pub(super) yeses: HashMap<CallId, HashSet<(String, String)>>,
    /// Every request the service received, by entry.
    pub(super) received: HashMap<EntryId, Received>,
    /// The request that last charged each (source, item).
    pub(super) last: HashMap<(String, String), EntryId>,
    /// When each request was written ahead: true time, and its tab's clock as the oracle
    /// set it (never the machine's stamp).
    pub(super) written: HashMap<EntryId, Written>,
}

/// When a request was written ahead, or the meter reset: true time, and what the clock of
/// the tab that did it read (as the oracle set that clock).
#[derive(Clone, Copy, Debug)]
pub(super) struct Written {
    pub(super) at: Ms,
    pub(super) clock: Ms,
}

/// A broken invariant's name and what was seen.
pub(super) type Broken = (&'static str, String);

impl Ledger {
    /// The user told `call` to buy `items` of `source` again (Refresh, or yes to what a tab
    /// asked about).
    pub(super) fn grant(&mut self, call: CallId, source: &str, items: &[String]) {
        let yes = self.yeses.entry(call).or_default();
        for i in items {
            yes.insert((source.to_string(), i.clone()));
        }
    }

    /// The charged (source, item) pairs, and how many of them the ledger would let be
    /// charged once more without "charged twice" firing (an unused yes of any call).
    pub(super) fn rebuyable(&self) -> (u64, u64) {
        let open: HashSet<&(String, String)> = self
            .yeses
            .values()
            .flatten()
            .filter(|k| self.charges.contains_key(*k))
            .collect();
        (self.charges.len() as u64, open.len() as u64)
    }

    /// The service received a request of `call`; `charged`: it charged it. A (source, item)
    /// charged before is charged again only on an unused yes of this very call.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn receive(
        &mut self,
        entry: EntryId,
        call: CallId,
        source: &str,
        live: bool,
        at: Written,
        items: &[String],
        estimate: Usd,
        charged: bool,
        strict_demo: bool,
        unknown_to_its_tab: impl Fn(&EntryId) -> bool,
    ) -> Result<(), Broken> {
        self.received.insert(
            entry,
            Received {
                live,
                at: at.at,
                clock: at.clock,
                estimate,
                charged,
            },
        );
        if !charged {
            return Ok(());
        }
        for i in items {
            let key = (source.to_string(), i.clone());
            let yes = self.yeses.get_mut(&call).is_some_and(|y| y.remove(&key));
            let n = self.charges.entry(key.clone()).or_default();
            *n += 1;
            let before = self.last.insert(key, entry);
            if *n > 1 && !yes && (live || strict_demo) {
                let doubtful = before.is_some_and(|b| unknown_to_its_tab(&b));
                return Err((
                    if doubtful {
                        "possibly charged bought again without yes"
                    } else {
                        "charged twice"
                    },
                    format!(
                        "{i} of {source} charged {n} times, by {call:?} with no unused yes for it (before by {before:?})"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The cap, checked as a live request written ahead `at` leaves, with the cap and the
    /// period the user set and the user's last `reset`, twice:
    /// - by the clocks as the oracle set them (never a stamp the machine wrote): what the
    ///   service charged for requests whose tab's clock read, when they were written ahead,
    ///   within the period this request's tab's clock was in, plus its estimate;
    /// - in true time, which no tab reads: the clocks differ from it by up to `skew` (hours or
    ///   days) and a tab can only count by its own, so this counts the charges every tab must
    ///   have counted whatever its clock: written ahead `skew` after the latest start of the
    ///   period any clock could be in, and `2 × skew` after the reset.
    pub(super) fn within_cap(
        &self,
        user: &Settings,
        at: Written,
        reset: Option<Written>,
        skew: Ms,
        estimate: Usd,
    ) -> Result<(), Broken> {
        let Some(cap) = user.cap else {
            return Ok(());
        };
        let mut by_clocks = calendar_start(user.period, at.clock);
        let mut in_true_time = calendar_start(user.period, at.at + skew) + skew;
        if let Some(r) = reset {
            if r.clock <= at.clock {
                by_clocks = by_clocks.max(r.clock);
            }
            in_true_time = in_true_time.max(r.at + 2 * skew);
        }
        let charged = |counts: &dyn Fn(&Received) -> bool| -> Usd {
            self.received
                .values()
                .filter(|r| r.live && r.charged && counts(r))
                .map(|r| r.estimate)
                .sum()
        };
        for (charged, how) in [
            (charged(&|r| r.clock >= by_clocks), "by the clocks"),
            (charged(&|r| r.at >= in_true_time), "in true time"),
        ] {
            if charged + estimate > cap {
                return Err((
                    "cap passed",
                    format!(
                        "charged {charged} in the period ({how}) + {estimate} sent against a cap of {cap}"
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The start of the calendar period holding `at` (UTC day or month; `Ms::MIN` for until
/// reset). Stated apart from `Period::start` (an oracle that shares the code under test
/// cannot catch it).
fn calendar_start(period: Period, at: Ms) -> Ms {
    const DAY: Ms = 86_400_000;
    match period {
        Period::Day => at.div_euclid(DAY) * DAY,
        Period::Month => {
            let (y, m, _) = civil_from_days(at.div_euclid(DAY));
            days_from_civil(y, m, 1) * DAY
        }
        Period::UntilReset => Ms::MIN,
    }
}

/// What a tab whose clock reads `now` must count against the cap, stated apart from
/// `Totals` and `Period::start`: every live entry still in flight, and what the settled
/// ones written in the period (by their stamps: the tab judges by them) were charged or
/// possibly charged. The period starts at its calendar start, or at the user's last reset
/// once this clock has reached it.
pub(super) fn committed<'a>(
    entries: impl Iterator<Item = &'a Entry>,
    user: &Settings,
    now: Ms,
) -> Usd {
    let calendar = calendar_start(user.period, now);
    let since = if user.reset_at <= now {
        calendar.max(user.reset_at)
    } else {
        calendar
    };
    entries
        .filter(|e| e.live)
        .map(|e| match e.state {
            EntryState::Sent => e.estimate,
            _ if e.at >= since => e.charge + e.possible,
            _ => Usd::ZERO,
        })
        .sum()
}

/// A refusal for the cap must be one: a request of at most `most` that fits with what was
/// `committed` (committed + estimate ≤ cap: exactly to the cap fits) is not refused.
pub(super) fn refused_over_cap(committed: Usd, most: Usd, user: &Settings) -> Result<(), Broken> {
    match user.cap {
        Some(cap) if committed + most <= cap => Err((
            "refused within the cap",
            format!("{committed} committed + at most {most} fits the cap of {cap}, refused"),
        )),
        _ => Ok(()),
    }
}

/// A send goes where its click was, and the key only to an https://, loopback or confirmed
/// origin (checked apart from the machine's own rule).
pub(super) fn same_target(
    click: &Target,
    sent: &Target,
    confirmed_at_click: &str,
) -> Result<(), Broken> {
    if click != sent {
        return Err((
            "re-targeted",
            format!("clicked for {click:?}, sent to {sent:?}"),
        ));
    }
    if sent.mode == Mode::Live {
        let url = sent.source.as_str();
        let loopback = ["http://localhost", "http://127.0.0.1", "http://[::1]"]
            .iter()
            .any(|p| url.starts_with(p));
        if url.starts_with("http://") && !loopback && url != confirmed_at_click {
            return Err(("key to an unconfirmed origin", url.to_string()));
        }
    }
    Ok(())
}

/// The stored records, as the simulated store holds them.
pub(super) type Records = HashMap<(String, String), (EntryId, Body)>;

/// Once quiet: each entry agrees with what the service did.
pub(super) fn quiet_entry(
    e: &Entry,
    ledger: &Ledger,
    tab_alive: bool,
    records: &Records,
) -> Result<(), Broken> {
    let received = ledger.received.get(&e.id);
    let charged = received.is_some_and(|r| r.charged);
    let ok = match e.state {
        // Only a tab that died leaves an entry sent: it counts as possibly charged.
        EntryState::Sent => !tab_alive,
        EntryState::Charged => charged && e.charge == e.estimate,
        EntryState::NotCharged => !charged,
        EntryState::PossiblyCharged => e.possible == e.estimate,
    };
    if !ok {
        return Err((
            "meter differs from the ledger",
            format!(
                "entry {:?} is {:?} (charge {}, possible {}), the service {}",
                e.id,
                e.state,
                e.charge,
                e.possible,
                match received {
                    None => "never received it",
                    Some(r) if r.charged => "charged it",
                    Some(_) => "did not charge it",
                }
            ),
        ));
    }
    if e.state == EntryState::Charged {
        if let Some(i) = e
            .items
            .iter()
            .find(|i| !records.contains_key(&(e.source.clone(), (*i).clone())))
        {
            return Err((
                "paid body not stored",
                format!("{i} of {} charged by entry {:?}", e.source, e.id),
            ));
        }
    }
    Ok(())
}

/// Once quiet: every charge the service made has its entry.
pub(super) fn every_charge_journaled(
    ledger: &Ledger,
    has_entry: impl Fn(&EntryId) -> bool,
) -> Result<(), Broken> {
    match ledger
        .received
        .iter()
        .find(|(id, r)| r.charged && !has_entry(id))
    {
        Some((id, r)) => Err((
            "charge outside the journal",
            format!(
                "the service charged {} for {id:?} with no entry",
                r.estimate
            ),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::TabId;

    fn call(tab: u64, n: u32) -> CallId {
        CallId { tab: TabId(tab), n }
    }

    fn charge(ledger: &mut Ledger, by: CallId, entry: u32, item: &str) -> Result<(), Broken> {
        let at = Written { at: 0, clock: 0 };
        let items = [item.to_string()];
        let entry = call(by.tab.0, 1_000 + entry);
        let usd = Usd::from_micros(100);
        ledger.receive(entry, by, "s", true, at, &items, usd, true, true, |_| false)
    }

    #[test]
    fn a_yes_lets_its_own_call_buy_once_more_once() {
        let mut ledger = Ledger::default();
        charge(&mut ledger, call(1, 0), 0, "a").expect("a first charge");
        // Another call's yes, or a yes for another item, lets nothing through.
        ledger.grant(call(1, 1), "s", &["a".to_string()]);
        ledger.grant(call(1, 2), "s", &["b".to_string()]);
        assert!(charge(&mut ledger, call(1, 2), 1, "a").is_err());
        let mut ledger = Ledger::default();
        charge(&mut ledger, call(1, 0), 0, "a").expect("a first charge");
        ledger.grant(call(1, 1), "s", &["a".to_string()]);
        assert_eq!(ledger.rebuyable(), (1, 1));
        charge(&mut ledger, call(1, 1), 1, "a").expect("bought again on its yes");
        assert_eq!(ledger.rebuyable(), (1, 0));
        assert!(charge(&mut ledger, call(1, 1), 2, "a").is_err(), "used up");
    }

    #[test]
    fn the_cap_admits_exactly_to_it_and_a_refusal_must_not_fit() {
        let mut ledger = Ledger::default();
        charge(&mut ledger, call(1, 0), 0, "a").expect("a first charge");
        let user = Settings {
            cap: Some(Usd::from_micros(300)),
            period: Period::UntilReset,
            ..Settings::default()
        };
        let at = Written { at: 5, clock: 5 };
        let within = |usd| ledger.within_cap(&user, at, None, 0, Usd::from_micros(usd));
        assert!(within(200).is_ok());
        assert!(within(201).is_err());
        let u = Usd::from_micros;
        assert!(refused_over_cap(u(100), u(200), &user).is_err());
        assert!(refused_over_cap(u(100), u(201), &user).is_ok());
        // A reset stamped after the charge, by the clocks, leaves it out of the period.
        let reset = Written { at: 3, clock: 3 };
        assert!(ledger.within_cap(&user, at, Some(reset), 0, u(300)).is_ok());
    }
}
