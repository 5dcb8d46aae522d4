//! What happens to the world from outside: users' intents, the clock, storage faults.

use super::{Click, Pending, SimTab, World, ITEMS, URLS};
use crate::machine::sim::Storage;
use crate::machine::sim::Violation;
use crate::machine::{CallId, Event, Mode, Ms, Period, Run, Setting, StoreError, Tab, TabId};
use crate::money::Usd;

impl World {
    pub(super) fn tick(&mut self) -> Result<(), Box<Violation>> {
        // Storage fills up for a while, then space is freed.
        if self.db.quota_full && self.rng.chance(40) {
            self.db.quota_full = false;
        }
        let before = self.now;
        // True time only moves on; a tab's clock is set anywhere within the seed's skew of
        // it (hours or days; back as often as forward).
        match self.rng.below(100) {
            0..=89 => self.now += 1 + self.rng.below(3_000) as Ms,
            90..=95 => self.now += 3_600_000 * (1 + self.rng.below(30) as Ms),
            _ => {
                let alive = self.alive_ids();
                if !alive.is_empty() {
                    let t = alive[self.rng.below(alive.len() as u64) as usize];
                    let skew = self.any_skew();
                    let was = std::mem::replace(&mut self.tabs[t.0 as usize].skew, skew);
                    self.note(|| format!("t{} clock set {:+} ms", t.0, skew - was));
                }
            }
        }
        let now = self.now;
        self.note(|| format!("clock {:+} ms -> {now}", now - before));
        if self.config.storage == Storage::Server {
            // The server's processes look for dead ones every second, and a process that lost
            // its connection is soon restarted with a new session.
            if self.rng.chance(50) {
                self.recover();
            }
            for t in self.alive_ids() {
                if self.tabs[t.0 as usize].conn.is_err() && self.rng.chance(50) {
                    self.close(t)?;
                    self.open();
                }
            }
        }
        Ok(())
    }

    pub(super) fn fault(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        if self.config.storage == Storage::Server && self.rng.chance(50) {
            return self.cut(t);
        }
        if self.rng.chance(80) {
            self.db.quota_full = true;
            self.note(|| "quota full".to_string());
        } else {
            // Another tab opened a newer schema: this connection closes.
            self.note(|| format!("t{} versionchange", t.0));
            self.tabs[t.0 as usize].conn = Err(StoreError::VersionChange);
            let _ = self.event(t, Event::StorageLost(StoreError::VersionChange));
        }
        Ok(())
    }

    pub(super) fn user(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        let roll = self.rng.below(100);
        let event = match roll {
            0..=54 => {
                // A tab whose last click has not reached its machine yet clicks nothing
                // more (calls are numbered in the order their clicks arrive).
                if self
                    .pending
                    .iter()
                    .any(|p| matches!(p, Pending::Run(o, _) if *o == t))
                {
                    return Ok(());
                }
                // The user answers a question a tab asked by running the same request
                // again (the app's yes); the yes covers only what was asked about.
                let tab = &mut self.tabs[t.0 as usize];
                let answer = (!tab.asked.is_empty() && self.rng.chance(50)).then(|| {
                    let i = self.rng.below(tab.asked.len() as u64) as usize;
                    tab.asked.swap_remove(i)
                });
                let items = match &answer {
                    Some(a) => a.request.clone(),
                    None => {
                        let n = 1 + self.rng.below(8) as usize;
                        let mut items: Vec<String> = (0..n)
                            .map(|_| format!("k{}", self.rng.below(ITEMS)))
                            .collect();
                        items.sort();
                        items.dedup();
                        items
                    }
                };
                let run = Run {
                    items: items.clone(),
                    each: Usd::from_micros(300 + 100 * self.rng.below(8) as i64),
                    chunk: 1 + self.rng.below(3) as usize,
                    refresh: self.rng.chance(5),
                    confirm_possibly: answer.is_some(),
                    host_sends: self.rng.chance(50),
                    clicked: None,
                };
                let shown = self.tabs[t.0 as usize].tab.settings();
                let target = shown.target().ok();
                let confirmed = shown.insecure_ok.clone();
                let call = CallId {
                    tab: t,
                    n: self.tabs[t.0 as usize].clicks.len() as u32,
                };
                if let (Some(target), true) = (&target, run.refresh) {
                    self.ledger.grant(call, &target.source, &items);
                }
                if let Some(a) = &answer {
                    self.ledger.grant(call, &a.source, &a.items);
                }
                self.tabs[t.0 as usize].clicks.push(Click {
                    items,
                    chunk: run.chunk,
                    each: run.each,
                    target,
                    confirmed,
                });
                self.stats.runs += 1;
                // As the app's: captured at the click (a host refuses a click with nowhere
                // to go), it reaches the machine once the call's code arrived, and the
                // settings may change meanwhile.
                let clicked = self.tabs[t.0 as usize].clicks.last();
                let clicked = clicked.and_then(|c| c.target.clone());
                if run.host_sends && clicked.is_some() && self.rng.chance(30) {
                    let run = Run { clicked, ..run };
                    self.pending.push(Pending::Run(t, run));
                    return Ok(());
                }
                Event::Run(run)
            }
            55..=62 => {
                let calls = self.tabs[t.0 as usize].clicks.len() as u64;
                if calls == 0 {
                    return Ok(());
                }
                Event::Cancel(self.rng.below(calls) as u32)
            }
            63..=92 => {
                let s = self.setting(t);
                self.asked.push((t, s.clone()));
                Event::Change(s)
            }
            93..=96 => {
                self.watch_reset_clicked(t);
                Event::ResetMeter
            }
            _ => Event::ClearHistory,
        };
        self.note(|| format!("t{} user {}", t.0, describe(&event)));
        self.event(t, event)
    }

    /// A clock's offset from true time, within the seed's skew.
    fn any_skew(&mut self) -> Ms {
        let skew = self.skew as u64;
        self.rng.below(2 * skew + 1) as Ms - self.skew
    }

    /// A setting user of tab `t` changes.
    pub(super) fn setting(&mut self, t: TabId) -> Setting {
        match self.rng.below(7) {
            0 => Setting::Mode(if self.rng.chance(50) {
                Mode::Live
            } else {
                Mode::Demo
            }),
            1 => Setting::BaseUrl(URLS[self.rng.below(3) as usize].to_string()),
            2 => Setting::InsecureOk(if self.rng.chance(60) {
                URLS[1].to_string()
            } else {
                String::new()
            }),
            // Prices are whole hundreds of micro-dollars, and so are most caps: totals meet
            // a cap exactly, so `>` against `>=` is tested; a user also raises the cap to
            // let exactly what is committed and a few requests more through.
            3 => Setting::Cap(match self.rng.below(6) {
                0 => None,
                1 => Some(Usd::ZERO),
                2 => Some(Usd::from_micros(self.rng.below(30_000) as i64)),
                3 => {
                    let room = Usd::from_micros(100 * self.rng.below(30) as i64);
                    Some(self.cap_to_fit(t, room))
                }
                _ => Some(Usd::from_micros(100 * self.rng.below(300) as i64)),
            }),
            4 => Setting::Period(Period::ALL[self.rng.below(3) as usize]),
            _ => Setting::Other(self.rng.below(1_000) as u32),
        }
    }
}

fn describe(e: &Event<'_>) -> String {
    match e {
        Event::Run(r) => format!(
            "runs {:?} each {} chunk {}{}{}{}",
            r.items,
            r.each,
            r.chunk,
            if r.host_sends { " (host sends)" } else { "" },
            if r.refresh { " refresh" } else { "" },
            if r.confirm_possibly { " yes" } else { "" }
        ),
        Event::Cancel(n) => format!("cancels call {n}"),
        Event::Change(s) => format!("sets {s:?}"),
        Event::ResetMeter => "resets the meter".into(),
        Event::ClearHistory => "clears History".into(),
        _ => String::new(),
    }
}

impl World {
    pub(super) fn open(&mut self) {
        let id = TabId(self.tabs.len() as u64);
        let mut tab = Tab::new(id, self.db.settings.clone(), self.config.locks);
        tab.mutation = self.config.mutation;
        let skew = self.any_skew();
        self.tabs.push(SimTab {
            tab,
            skew,
            conn: Ok(()),
            clicks: Vec::new(),
            asked: Vec::new(),
        });
        self.alive.push(true);
        self.sessions.push(true);
        self.note(|| format!("t{} opens", id.0));
        let now = self.clock(id);
        self.tabs[id.0 as usize]
            .tab
            .step(now, Event::Opened, &mut self.out);
        // Opening performs no send: its effects cannot break an invariant.
        let _ = self.effects(id);
    }

    /// The tab goes (closed, crashed or reloaded): what it had not committed may or may not
    /// have reached the store; its lock is released; its messages and answers are lost.
    pub(super) fn close(&mut self, t: TabId) -> Result<(), Box<Violation>> {
        self.note(|| format!("t{} closes", t.0));
        self.stats.closes += 1;
        self.alive[t.0 as usize] = false;
        self.sessions[t.0 as usize] = false;
        if self.lock == Some(t) {
            self.lock = None;
        }
        self.queue.retain(|q| *q != t);
        self.host_closed(t);
        let mut keep = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            match p {
                Pending::Commit(o, _, ops) if o == t => {
                    if self.tabs[t.0 as usize].conn.is_ok() && self.rng.chance(50) {
                        self.store(t, ops)?;
                    }
                }
                Pending::Heard(o, _)
                | Pending::Timer(o)
                | Pending::Cut(o, _)
                | Pending::Run(o, _)
                | Pending::Read(o)
                | Pending::LockFailed(o)
                    if o == t => {}
                p => keep.push(p),
            }
        }
        self.pending = keep;
        // Its calls are over: their unused yeses go with them.
        self.ledger.yeses.retain(|c, _| c.tab != t);
        // What it asked and did not store is lost with it.
        self.asked.retain(|(o, _)| *o != t);
        Ok(())
    }
}
