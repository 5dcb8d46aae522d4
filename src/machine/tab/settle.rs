//! A request from its write-ahead to its settle commit: chunks started within the window,
//! commits' results, and answers turned into one transaction each (never dropped).

use crate::machine::{
    Body, CallId, Effect, Entry, EntryId, EntryState, Mode, Notice, Op, Outcome, Refusal,
    StoreError,
};
use crate::money::Usd;

use super::{Chunk, Mutation, Phase, Tab, Txn, Want, FREE_RETRIES, RETRY_MS, WINDOW};

impl Tab {
    /// Starts the queued chunks of call `n` that fit in its window.
    pub(super) fn start_chunks(&mut self, n: u32, out: &mut Vec<Effect>) {
        let Some(call) = self.call(n) else { return };
        if call.stopped || call.phase != Phase::Buying {
            return;
        }
        let busy = call
            .chunks
            .iter()
            .filter(|c| {
                matches!(
                    c,
                    Chunk::Starting(_) | Chunk::InFlight(..) | Chunk::Settling
                )
            })
            .count();
        let mut free = WINDOW.saturating_sub(busy);
        let mut start = Vec::new();
        for (i, c) in call.chunks.iter_mut().enumerate() {
            if free == 0 {
                break;
            }
            if let Chunk::Queued(a) = *c {
                *c = Chunk::Starting(a);
                start.push(i);
                free -= 1;
            }
        }
        for i in start {
            self.start_write_ahead(n, i, out);
        }
    }

    pub(super) fn committed(
        &mut self,
        txn: u32,
        result: Result<(), StoreError>,
        out: &mut Vec<Effect>,
    ) {
        let Some(at) = self.txns.iter().position(|(id, _)| *id == txn) else {
            return;
        };
        let (_, what) = self.txns.swap_remove(at);
        if let Err(e @ (StoreError::Closed | StoreError::VersionChange)) = result {
            self.storage = Err(e);
        }
        match what {
            Txn::Plain => {}
            Txn::Free(call) => {
                if result.is_err() {
                    self.to_free.push(call);
                    self.wake(out);
                }
            }
            Txn::Setting(s) => {
                if result.is_ok() {
                    self.settings.apply(&s);
                    out.push(Effect::Announce(s));
                }
                self.release(out);
            }
            Txn::Locked(want) => {
                self.release(out);
                if let Want::Reserve(n) = want {
                    match result {
                        Ok(()) => {
                            let me = self.id;
                            let Some(call) = self.call(n) else { return };
                            if call.phase == Phase::Over {
                                // Cancelled while its reservation was being written.
                                let id = CallId { tab: me, n };
                                self.commit(Txn::Free(id), vec![Op::DeleteReservation(id)], out);
                            } else if call.run.host_sends {
                                call.reserved = true;
                                let items = call.buying.clone();
                                out.push(Effect::Show(n, Notice::Reserved(items)));
                            } else {
                                call.reserved = true;
                                self.start_chunks(n, out);
                            }
                        }
                        Err(e) => {
                            if let Some(call) = self.call(n) {
                                call.chunks.clear();
                            }
                            self.stop(n, Refusal::Storage(e), out);
                        }
                    }
                }
            }
            Txn::WriteAhead(entry, target, locked) => {
                if locked {
                    self.release(out);
                }
                match result {
                    Ok(()) => Self::send(&entry, target, out),
                    Err(_) if self.mutated(Mutation::SendDespiteRefusedWriteAhead) => {
                        Self::send(&entry, target, out)
                    }
                    Err(e) => {
                        // Refused write-ahead: nothing is sent.
                        let n = entry.call.n;
                        if let Some(call) = self.call(n) {
                            for c in &mut call.chunks {
                                if matches!(c, Chunk::InFlight(m, ..) if *m == entry.id.n) {
                                    *c = Chunk::Done;
                                }
                            }
                        }
                        self.stop(n, Refusal::Storage(e), out);
                    }
                }
            }
            Txn::Settle(chunk, ops) => match (result, chunk) {
                (Ok(()), Some((n, c))) => {
                    if let Some(call) = self.call(n) {
                        call.chunks[c] = Chunk::Done;
                    }
                    self.start_chunks(n, out);
                    self.finish_if_over(n, out);
                }
                (Ok(()), None) => {}
                (Err(_), _) => {
                    // The outcome (and a paid body) stays in memory and is written again.
                    if let Some((n, _)) = chunk {
                        out.push(Effect::Show(n, Notice::Unsaved));
                    }
                    self.unsaved.push((chunk, ops));
                    self.wake(out);
                }
            },
        }
    }

    pub(super) fn wake(&mut self, out: &mut Vec<Effect>) {
        if !self.waking {
            self.waking = true;
            out.push(Effect::Wake(RETRY_MS));
        }
    }

    /// The lock's transaction ended: release it (unless a mutation already did).
    pub(super) fn release(&mut self, out: &mut Vec<Effect>) {
        if self.lock_held.take().is_some() && !self.mutated(Mutation::DropLock) {
            out.push(Effect::Unlock);
        }
    }

    pub(super) fn answered(&mut self, id: EntryId, outcome: Outcome, out: &mut Vec<Effect>) {
        let me = self.id;
        let retry_unknown = self.mutated(Mutation::RetryAfterPossibleCharge);
        let reset_free = self.mutated(Mutation::ResetNotCharged);
        let drop_commit = self.mutated(Mutation::DropChunkCommit);
        let drop_unreadable = self.mutated(Mutation::DropUnreadableBody);
        let Some(call) = self.calls.iter_mut().find(|c| {
            c.chunks
                .iter()
                .any(|k| matches!(k, Chunk::InFlight(m, ..) if *m == id.n))
        }) else {
            return;
        };
        let n = call.n;
        let c = call
            .chunks
            .iter()
            .position(|k| matches!(k, Chunk::InFlight(m, ..) if *m == id.n))
            .unwrap_or(0);
        let Chunk::InFlight(_, attempt, at) = call.chunks[c] else {
            return;
        };
        let (items, estimate) = call.parts[c].clone();
        // A host that sends its own requests retries them itself ([`Self::sending`]).
        let retries = !call.run.host_sends && attempt < FREE_RETRIES && !call.stopped;
        let mut entry = Entry {
            id,
            call: CallId { tab: me, n },
            source: call.target.source.clone(),
            live: call.target.mode == Mode::Live,
            items,
            estimate,
            charge: Usd::ZERO,
            possible: Usd::ZERO,
            state: EntryState::Sent,
            at,
        };
        let mut ops = Vec::new();
        let mut again = false;
        match outcome {
            Outcome::Answer(Body::Unreadable) if drop_unreadable => {
                entry.state = EntryState::Charged;
                entry.charge = estimate;
            }
            Outcome::Answer(body) => {
                entry.state = EntryState::Charged;
                entry.charge = estimate;
                ops.push(Op::PutRecords {
                    source: entry.source.clone(),
                    items: entry.items.clone(),
                    entry: id,
                    body,
                });
            }
            Outcome::NotCharged => {
                entry.state = EntryState::NotCharged;
                again = retries;
            }
            Outcome::Unknown if reset_free => {
                entry.state = EntryState::NotCharged;
                again = retries;
            }
            Outcome::Unknown => {
                entry.state = EntryState::PossiblyCharged;
                entry.possible = estimate;
                again = retry_unknown && retries;
            }
        }
        if entry.state == EntryState::NotCharged {
            // Provably not bought: the host may ask for these items again.
            for i in &entry.items {
                call.spent.remove(i);
            }
        }
        call.chunks[c] = if again {
            Chunk::Queued(attempt + 1)
        } else {
            Chunk::Settling
        };
        ops.insert(0, Op::PutEntry(entry));
        if drop_commit {
            call.chunks[c] = Chunk::Done;
            self.start_chunks(n, out);
            return self.finish_if_over(n, out);
        }
        let txn = Txn::Settle((!again).then_some((n, c)), ops.clone());
        self.commit(txn, ops, out);
        self.start_chunks(n, out);
    }

    /// The host asks to send a request of call `n` buying `items` ([`Event::Sending`]):
    /// written ahead like a chunk of the machine's own, or refused when the call did not
    /// reserve them, already bought or possibly bought them, or buys no more.
    pub(super) fn sending(
        &mut self,
        n: u32,
        mut items: Vec<String>,
        estimate: Usd,
        out: &mut Vec<Effect>,
    ) {
        // The mutation lets a host send again what was possibly bought.
        let again_ok = self.mutated(Mutation::RetryAfterPossibleCharge);
        let unchecked = self.mutated(Mutation::UnreservedHostRequest);
        let count = items.len();
        items.sort();
        items.dedup();
        let ok = self.call(n).is_some_and(|call| {
            call.run.host_sends
                && call.phase == Phase::Buying
                && call.reserved
                && !call.stopped
                && !call.ended
                && count == items.len()
                && !items.is_empty()
                // `buying` is sorted (the plan's set).
                && (unchecked || items.iter().all(|i| call.buying.binary_search(i).is_ok()))
                && (again_ok || items.iter().all(|i| !call.spent.contains(i)))
        });
        let Some(call) = self.call(n).filter(|_| ok) else {
            return out.push(Effect::Show(n, Notice::Refused(Refusal::NotReserved)));
        };
        call.spent.extend(items.iter().cloned());
        call.parts.push((items, estimate));
        call.chunks.push(Chunk::Starting(0));
        let c = call.chunks.len() - 1;
        self.start_write_ahead(n, c, out);
    }
}
