//! What the oracle watches as the world runs, on its own clock and ledger: when each request
//! was written ahead (true time), when the user reset the meter, the questions the tabs asked
//! their users, and whether each refusal for the cap was one.

use super::{Asked, World};
use crate::machine::sim::check::{self, Written};
use crate::machine::sim::Violation;
use crate::machine::{CallId, EntryState, Ms, Op, TabId};
use crate::money::Usd;

impl World {
    /// Tab `t` issued a transaction: its write-aheads are stamped on the oracle's clock, and
    /// a live one that brings the committed total exactly to the cap is counted.
    pub(super) fn watch_commit(&mut self, t: TabId, ops: &[Op]) {
        for op in ops {
            let Op::PutEntry(e) = op else { continue };
            if e.state != EntryState::Sent || self.ledger.written.contains_key(&e.id) {
                continue;
            }
            let at = Written {
                at: self.now,
                clock: self.clock(t),
            };
            self.ledger.written.insert(e.id, at);
            let Some(cap) = self.intended.cap else {
                continue;
            };
            if e.live && self.lock == Some(t) {
                let committed =
                    check::committed(self.db.entries.values(), &self.intended, self.clock(t));
                if committed + e.estimate == cap {
                    self.stats.exact_cap += 1;
                }
            }
        }
    }

    /// Call `n` of tab `t` was refused for the cap, under the lock, against the store as it
    /// is now: it must not have fit.
    pub(super) fn watch_over_cap(&mut self, t: TabId, n: u32) -> Result<(), Box<Violation>> {
        let click = &self.tabs[t.0 as usize].clicks[n as usize];
        let each = click.each;
        // The refused request: one of those its host asked for, or one of the machine's
        // chunks (the last may be shorter).
        let asked = self
            .jobs
            .iter()
            .filter(|j| j.tab == t && j.call == n)
            .flat_map(|j| j.flying.iter().filter(|p| p.entry.is_none()))
            .map(|p| p.items.len())
            .max();
        let most = each.times(asked.unwrap_or(click.chunk) as u64);
        let committed = check::committed(self.db.entries.values(), &self.intended, self.clock(t));
        if self.intended.cap == Some(committed + most) {
            self.stats.refused_at_cap += 1;
        }
        check::refused_over_cap(committed, most, &self.intended).map_err(|b| self.fail(b))
    }

    /// Tab `t` asked its user about possibly charged `items` for call `n`: the user sees
    /// that request's last question only, and may answer it by running the request again.
    pub(super) fn watch_asked(&mut self, t: TabId, n: u32, items: Vec<String>) {
        self.stats.needs_yes += 1;
        self.ledger.yeses.remove(&CallId { tab: t, n });
        self.note(|| format!("t{} call {n} asks about {items:?}", t.0));
        let tab = &mut self.tabs[t.0 as usize];
        let click = &tab.clicks[n as usize];
        if let Some(target) = &click.target {
            let asked = Asked {
                source: target.source.clone(),
                request: click.items.clone(),
                items,
            };
            tab.asked.retain(|a| a.request != asked.request);
            tab.asked.push(asked);
        }
    }

    /// Tab `t`'s user reset the meter: its stamp is its tab's clock; the oracle keeps when
    /// it happened.
    pub(super) fn watch_reset_clicked(&mut self, t: TabId) {
        let at = Written {
            at: self.now,
            clock: self.clock(t),
        };
        self.resets.push((t, at));
    }

    /// A reset stamped `stamp` by tab `t` was stored: the user's last reset, as the oracle
    /// knows it, is the click that made it.
    pub(super) fn watch_reset_stored(&mut self, t: TabId, stamp: Ms) {
        if let Some(i) = self
            .resets
            .iter()
            .position(|&(o, r)| o == t && r.clock == stamp)
        {
            self.reset = Some(self.resets.swap_remove(i).1);
        }
    }

    /// A cap the user sets to let exactly what is committed now and `room` more through.
    pub(super) fn cap_to_fit(&self, t: TabId, room: Usd) -> Usd {
        check::committed(self.db.entries.values(), &self.intended, self.clock(t)) + room
    }
}
