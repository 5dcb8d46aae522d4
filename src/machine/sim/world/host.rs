//! A host that sends its own requests ([`crate::machine::Run::host_sends`]), as the app's
//! client does: once the call reserved its items it asks for them chunk by chunk, two in
//! flight, retries a request provably not charged twice, stops at a possible charge or a
//! refusal, and says when it ended. Now and then it misbehaves (asks again for what was
//! possibly charged, or for an item its call did not reserve): the machine must refuse.

use super::job::{Job, Part};
use super::{World, ITEMS};
use crate::machine::sim::Violation;
use crate::machine::{EntryId, Event, Outcome, TabId};

/// Free retries of a request provably not charged.
const RETRIES: u8 = 2;

impl World {
    /// Call `n` of tab `t` reserved `items`: its host starts.
    pub(super) fn host_reserved(&mut self, t: TabId, n: u32, items: Vec<String>) {
        let chunk = self.tabs[t.0 as usize].clicks[n as usize].chunk;
        let queued = items.chunks(chunk).map(|c| (c.to_vec(), 0)).collect();
        self.jobs.push(Job {
            tab: t,
            call: n,
            reserved: items,
            queued,
            flying: Vec::new(),
            stopped: false,
            ended: false,
        });
    }

    /// Jobs with something to do.
    pub(super) fn host_ready(&self) -> usize {
        self.jobs.iter().filter(|j| j.ready()).count()
    }

    /// The `i`th ready job does its next thing.
    pub(super) fn host_act(&mut self, i: usize) -> Result<(), Box<Violation>> {
        let Some(at) = (0..self.jobs.len())
            .filter(|&j| self.jobs[j].ready())
            .nth(i)
        else {
            return Ok(());
        };
        let job = &mut self.jobs[at];
        let (t, n) = (job.tab, job.call);
        if job.stopped || job.queued.is_empty() {
            job.ended = true;
            self.note(|| format!("t{} host ends call {n}", t.0));
            return self.event(t, Event::Ended(n));
        }
        let Some((mut items, attempt)) = job.queued.pop_front() else {
            return Ok(());
        };
        // A host that asks for an item its call did not reserve.
        if self.rng.chance(2) {
            items.push(format!("k{}", ITEMS + self.rng.below(4)));
        }
        let job = &mut self.jobs[at];
        job.flying.push(Part {
            items: items.clone(),
            attempt,
            entry: None,
        });
        self.sending = Some((t, n));
        self.note(|| format!("t{} host sends call {n} {items:?}", t.0));
        let each = self.tabs[t.0 as usize].clicks[n as usize].each;
        let estimate = each.times(items.len() as u64);
        let done = self.event(
            t,
            Event::Sending {
                call: n,
                items,
                estimate,
            },
        );
        self.sending = None;
        done
    }

    /// The machine sent `items` of call `n` as `entry`; they must be what the call reserved.
    pub(super) fn host_sent(
        &mut self,
        t: TabId,
        n: u32,
        entry: EntryId,
        items: &[String],
    ) -> Result<(), Box<Violation>> {
        let Some(job) = self.jobs.iter_mut().find(|j| j.tab == t && j.call == n) else {
            return Ok(());
        };
        self.stats.host_sends += 1;
        if let Some(i) = items.iter().find(|i| !job.reserved.contains(i)) {
            let detail = format!("t{} call {n} sent {i}, not in {:?}", t.0, job.reserved);
            return Err(self.fail(("bought outside its reservation", detail)));
        }
        let mut sorted = items.to_vec();
        sorted.sort();
        let part = job.flying.iter_mut().find(|p| {
            let mut mine = p.items.clone();
            mine.sort();
            p.entry.is_none() && mine == sorted
        });
        match part {
            Some(p) => p.entry = Some(entry),
            None => job.flying.push(Part {
                items: items.to_vec(),
                attempt: 0,
                entry: Some(entry),
            }),
        }
        Ok(())
    }

    /// Call `n` of tab `t` was refused or stopped: the request being asked for (when the
    /// refusal answers it) or every request not written ahead yet is never sent.
    pub(super) fn host_refused(&mut self, t: TabId, n: u32, answers_sending: bool) {
        let Some(job) = self.jobs.iter_mut().find(|j| j.tab == t && j.call == n) else {
            return;
        };
        job.stopped = true;
        if answers_sending {
            if let Some(last) = job.flying.iter().rposition(|p| p.entry.is_none()) {
                job.flying.remove(last);
            }
        } else {
            job.flying.retain(|p| p.entry.is_some());
        }
    }

    /// Entry `entry` ended with `outcome`: the host retries, stops or goes on.
    pub(super) fn host_answered(&mut self, entry: EntryId, outcome: Outcome) {
        let hostile = self.rng.chance(20);
        let Some(job) = self
            .jobs
            .iter_mut()
            .find(|j| j.flying.iter().any(|p| p.entry == Some(entry)))
        else {
            return;
        };
        let Some(at) = job.flying.iter().position(|p| p.entry == Some(entry)) else {
            return;
        };
        let part = job.flying.remove(at);
        match outcome {
            Outcome::Answer(_) => {}
            Outcome::NotCharged if part.attempt < RETRIES => {
                job.queued.push_front((part.items, part.attempt + 1));
            }
            // A possible charge stops the job; a hostile host asks again.
            Outcome::Unknown if hostile => {
                job.queued.push_front((part.items, part.attempt + 1));
            }
            Outcome::NotCharged | Outcome::Unknown => job.stopped = true,
        }
    }

    /// Tab `t` is gone, and its hosts' jobs with it.
    pub(super) fn host_closed(&mut self, t: TabId) {
        self.jobs.retain(|j| j.tab != t);
    }
}
