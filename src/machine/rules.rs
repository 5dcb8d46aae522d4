//! The decisions made under the journal lock, as pure functions of the shared store's
//! [`Snapshot`]: settle what closed tabs left ([`sweep`]), plan and reserve a call
//! ([`plan`]), check the cap before a write-ahead ([`admit`]). [`super::Tab`] makes its
//! decisions with them, so the simulator proves these very functions, and every host that
//! does not run a whole `Tab` (the app's tabs, the team server) calls them under its own
//! lock: a rule lives here once.

use std::collections::{BTreeMap, BTreeSet};

use super::account::Totals;
use super::{CallId, EntryState, Ms, Mutation, Op, Refusal, Settings, Snapshot};
use crate::money::Usd;

/// What a call asks for when it plans under the lock.
pub struct Ask<'a> {
    /// The call (its tab and number).
    pub call: CallId,
    /// The source its click targeted ([`super::Target::source`]).
    pub source: &'a str,
    /// The items the click wants (record keys, or the request's key), stored ones included.
    pub items: &'a [String],
    /// Buy again what is stored (the user asked for Refresh).
    pub refresh: bool,
    /// The user said yes to buying again what was possibly charged.
    pub confirm_possibly: bool,
    /// The host has Web Locks (without them no reservation can be trusted to be alive).
    pub locks: bool,
    /// Whether call `n` of the asking tab is still running: a reservation of its own tab
    /// that is not is stale.
    pub running: &'a dyn Fn(u32) -> bool,
}

/// What a call does after planning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Reserve and buy these items (sorted; none of them stored, unless Refresh).
    Buy(Vec<String>),
    /// Everything is stored (same source): answer with no call.
    Answered,
    /// Another running call reserves some of the same items: look again later.
    Waiting,
    /// Some items were possibly charged in an interrupted call: not bought again without
    /// the user's yes.
    NeedsYes {
        /// Those items.
        items: Vec<String>,
        /// When the latest of those calls was written ahead.
        since: Ms,
    },
}

/// Entries still `sent` by closed tabs become possibly charged (their estimate); the
/// reservations of closed tabs go. A host that cannot tell whether a tab is open
/// (`tab_open` is `None`, no Web Locks) leaves them alone.
pub fn sweep(snap: &dyn Snapshot) -> Vec<Op> {
    let mut ops = Vec::new();
    snap.each_entry(&mut |e| {
        if e.state == EntryState::Sent && snap.tab_open(e.id.tab) == Some(false) {
            let mut e = e.clone();
            e.possible = e.estimate;
            e.state = EntryState::PossiblyCharged;
            ops.push(Op::PutEntry(e));
        }
    });
    snap.each_reservation(&mut |r| {
        if snap.tab_open(r.call.tab) == Some(false) {
            ops.push(Op::DeleteReservation(r.call));
        }
    });
    ops
}

/// The items of `source` among `items` that a request whose outcome is unknown may have
/// bought (settled possibly charged, or still `sent` by a closed tab), and when the latest
/// such request was written ahead; `None` when there are none.
pub fn possibly_bought(
    snap: &dyn Snapshot,
    source: &str,
    items: &BTreeSet<&str>,
) -> Option<(Vec<String>, Ms)> {
    let mut since = None;
    let mut doubtful = BTreeSet::new();
    snap.each_entry(&mut |e| {
        let interrupted = e.state == EntryState::PossiblyCharged
            || (e.state == EntryState::Sent && snap.tab_open(e.id.tab) == Some(false));
        if interrupted && e.source == source {
            for i in &e.items {
                if items.contains(i.as_str()) {
                    doubtful.insert(i.clone());
                    since = since.max(Some(e.at));
                }
            }
        }
    });
    since.map(|since| (doubtful.into_iter().collect(), since))
}

/// Plans a call under the lock: what it buys (stored records of the same source left out,
/// unless Refresh), or why it cannot now.
pub fn plan(snap: &dyn Snapshot, ask: &Ask<'_>) -> Plan {
    plan_with(snap, ask, None)
}

pub(super) fn plan_with(snap: &dyn Snapshot, ask: &Ask<'_>, m: Option<Mutation>) -> Plan {
    let lookup = (m != Some(Mutation::ForgetSourceInKey)).then_some(ask.source);
    let to_buy: BTreeSet<&str> = ask
        .items
        .iter()
        .map(String::as_str)
        .filter(|i| {
            let rebuy = ask.confirm_possibly && m == Some(Mutation::ConfirmRebuysStored);
            ask.refresh || rebuy || !snap.has_record(lookup, i)
        })
        .collect();
    if !ask.confirm_possibly && m != Some(Mutation::RebuyPossiblyCharged) {
        if let Some((items, since)) = possibly_bought(snap, ask.source, &to_buy) {
            return Plan::NeedsYes { items, since };
        }
    }
    let mut busy = false;
    snap.each_reservation(&mut |r| {
        let alive = if r.call.tab == ask.call.tab {
            (ask.running)(r.call.n)
        } else {
            snap.tab_open(r.call.tab) != Some(false)
        };
        if ask.locks
            && alive
            && r.call != ask.call
            && r.source == ask.source
            && r.items.iter().any(|i| to_buy.contains(i.as_str()))
        {
            busy = true;
        }
    });
    if busy {
        Plan::Waiting
    } else if to_buy.is_empty() {
        Plan::Answered
    } else {
        Plan::Buy(to_buy.into_iter().map(str::to_string).collect())
    }
}

/// What a host asked its user and has not had answered: per request (its items, sorted),
/// the last question, its source and the possibly charged items [`Plan::NeedsYes`] showed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Questions(BTreeMap<Vec<String>, (String, BTreeSet<String>)>);

/// [`plan`] for a host that remembers what it asked (`asked`): the user's yes
/// ([`Ask::confirm_possibly`], a run of the same request again) answers that request's last
/// question: it covers only the possibly charged items it showed, of its source, and is
/// used up once the call buys. An item possibly charged since is asked about first (with
/// the others); so is everything when the request now goes to another source.
pub fn plan_asking(snap: &dyn Snapshot, ask: &Ask<'_>, asked: &mut Questions) -> Plan {
    plan_asking_with(snap, ask, asked, None)
}

pub(super) fn plan_asking_with(
    snap: &dyn Snapshot,
    ask: &Ask<'_>,
    asked: &mut Questions,
    m: Option<Mutation>,
) -> Plan {
    let unconfirmed = Ask {
        confirm_possibly: false,
        ..*ask
    };
    let (items, since) = match plan_with(snap, &unconfirmed, m) {
        Plan::NeedsYes { items, since } => (items, since),
        plan => return plan,
    };
    let mut key = ask.items.to_vec();
    key.sort();
    let covered = asked.0.get(&key).is_some_and(|(source, shown)| {
        source == ask.source && items.iter().all(|i| shown.contains(i))
    });
    if !ask.confirm_possibly || !covered {
        let shown = items.iter().cloned().collect();
        asked.0.insert(key, (ask.source.to_string(), shown));
        return Plan::NeedsYes { items, since };
    }
    let plan = plan_with(snap, ask, m);
    if matches!(plan, Plan::Buy(_)) {
        asked.0.remove(&key);
    }
    plan
}

/// Checks a live request of `estimate` against the cap of `settings` (the store's, read
/// under the lock) over every entry of the period: `Err(Refusal::Budget)` when it would pass
/// it. Demo money is never capped (callers pass only live requests).
pub fn admit(
    settings: &Settings,
    snap: &dyn Snapshot,
    now: Ms,
    estimate: Usd,
) -> Result<(), Refusal> {
    admit_with(settings, snap, now, estimate, None)
}

pub(super) fn admit_with(
    settings: &Settings,
    snap: &dyn Snapshot,
    now: Ms,
    estimate: Usd,
    m: Option<Mutation>,
) -> Result<(), Refusal> {
    let mut cap = settings.cap;
    if m == Some(Mutation::ZeroCapMeansNone) && cap == Some(Usd::ZERO) {
        cap = None;
    }
    let since = match m {
        Some(Mutation::FutureResetStopsCounting) => {
            settings.period.start(now, 0).max(settings.reset_at)
        }
        Some(Mutation::FutureResetCountsFromNow) => settings
            .period
            .start(now, 0)
            .max(settings.reset_at.min(now)),
        _ => settings.period.start(now, settings.reset_at),
    };
    let mut totals = Totals::default();
    snap.each_entry(&mut |e| totals.add(e, since));
    let strictly = m == Some(Mutation::CapStrictlyBelow);
    match (totals.admits_below(estimate, cap, strictly), cap) {
        (Err(committed), Some(cap)) => Err(Refusal::Budget { committed, cap }),
        _ => Ok(()),
    }
}
