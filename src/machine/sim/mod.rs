//! Deterministic simulation of the money state machine (FoundationDB's simulation testing and
//! TigerBeetle's VOPR are the models): N tabs, each a real [`Tab`](super::Tab), share a simulated store
//! (atomic transactions, quota failures, `versionchange`, crashes that lose what was not
//! committed), an exclusive lock (released when its tab dies; or no locks at all), a
//! channel that delays and loses messages, clocks that jump, and a service with the
//! sandbox's faults that keeps a ledger. One seed drives one run; the invariants
//! (`check.rs`) are checked after every step, and a failure names its seed, step and trace.
//!
//! The same tabs also run on the team server's storage ([`Storage::Server`]): processes
//! sharing one database, each taking its lock per transaction, their liveness their
//! database sessions, and the server's dead-process sweep at any moment.
//!
//! `cargo xtask sim --seed S --steps N` replays or extends a run; `cargo xtask test` runs
//! [`suite`]: a million steps over many seeds, then each [`Mutation`] until it is caught, and
//! the same on the server's storage.

mod check;
mod world;

use std::fmt;

use super::Mutation;
pub use world::{Stats, World};

/// The store the tabs share and how they exclude each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A browser profile: IndexedDB (quota, `versionchange`) and Web Locks; a tab's liveness
    /// is its own lock, held for its life, whatever becomes of its storage connection.
    Browser,
    /// The team server (`server/`): server processes on one PostgreSQL database. Each takes
    /// the database's lock per transaction (the `team` row, `FOR UPDATE`); a process's
    /// liveness is its database session (an advisory lock), so a process that dies, or
    /// loses its connection while it lives (a restart of PostgreSQL, a cut), looks dead at
    /// once: its open transaction is aborted (a commit on its way applied or not), and any
    /// live process's dead-process sweep (`db::recover`) settles its `sent` entries as
    /// possibly charged and frees its reservations at any moment, while its requests may
    /// still be on their way. A process that lost its connection is restarted (a new
    /// session), as a tab that lost its storage is reloaded.
    Server,
}

impl Storage {
    /// Stable name (`browser`, `server`).
    pub fn as_str(self) -> &'static str {
        match self {
            Storage::Browser => "browser",
            Storage::Server => "server",
        }
    }
}

/// A run's settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The seed.
    pub seed: u64,
    /// Steps to run.
    pub steps: u64,
    /// Tabs open at most at once.
    pub max_tabs: usize,
    /// The host has Web Locks.
    pub locks: bool,
    /// A deliberate fault in every tab.
    pub mutation: Option<Mutation>,
    /// Whose storage: a browser profile's or the team server's.
    pub storage: Storage,
    /// A deliberate fault of the server as a host: its dead-process sweep also settles the
    /// calls of a process whose session is held (as when a process's liveness connection
    /// drops and comes back while its calls go on). The simulator must catch it.
    pub sweep_live: bool,
}

impl Config {
    /// A run of `steps` steps from `seed` with the usual world (up to 4 tabs; a seed in
    /// sixteen has no Web Locks).
    pub fn new(seed: u64, steps: u64) -> Config {
        Config {
            seed,
            steps,
            max_tabs: 2 + (seed % 3) as usize,
            locks: seed % 16 != 7,
            mutation: None,
            storage: Storage::Browser,
            sweep_live: false,
        }
    }

    /// The same run on the team server's storage: processes instead of tabs, always with
    /// the database's lock.
    pub fn server(seed: u64, steps: u64) -> Config {
        Config {
            locks: true,
            storage: Storage::Server,
            ..Config::new(seed, steps)
        }
    }
}

/// An invariant broken: where, and the steps that led there.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The run's settings.
    pub config: Config,
    /// The step it broke at (1-based).
    pub step: u64,
    /// Which invariant.
    pub invariant: &'static str,
    /// What was seen.
    pub detail: String,
    /// The last steps before it, oldest first.
    pub trace: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "invariant broken: {} at step {} (seed {}, {} tabs max, locks {}, mutation {:?}, storage {})",
            self.invariant,
            self.step,
            c.seed,
            c.max_tabs,
            c.locks,
            c.mutation,
            c.storage.as_str()
        )?;
        writeln!(f, "  {}", self.detail)?;
        // The run's own length: a violation in its final drain (a step past it) replays
        // only so.
        writeln!(
            f,
            "  replay: cargo xtask sim --seed {} --steps {} --tabs {}{}{}{}",
            c.seed,
            c.steps,
            c.max_tabs,
            if c.locks { "" } else { " --no-locks" },
            c.mutation
                .map(|m| format!(" --mutation {m:?}"))
                .unwrap_or_default(),
            if c.storage == Storage::Server {
                " --server"
            } else {
                ""
            }
        )?;
        writeln!(f, "  last steps:")?;
        for t in &self.trace {
            writeln!(f, "    {t}")?;
        }
        Ok(())
    }
}

/// Runs one seed; `Err` at the first broken invariant.
pub fn run(config: Config) -> Result<u64, Box<Violation>> {
    run_with_stats(config).map(|(steps, _)| steps)
}

/// Runs one seed and says what it did.
pub fn run_with_stats(config: Config) -> Result<(u64, Stats), Box<Violation>> {
    let mut world = World::new(config);
    for _ in 0..config.steps {
        world.step()?;
    }
    world.drain()?;
    Ok((world.steps(), world.stats))
}

/// The shortest failing run found for a failing `config`: the same seed with fewer tabs,
/// and the step of its first violation (a run stops there, so its trace is the prefix).
pub fn shrink(failing: Violation) -> Violation {
    let mut best = failing;
    for tabs in 2..best.config.max_tabs {
        let c = Config {
            max_tabs: tabs,
            ..best.config
        };
        if let Err(v) = run(c) {
            if v.step < best.step {
                best = *v;
            }
        }
    }
    best
}

/// A small, fast, seedable generator (SplitMix64): the only source of chance in a run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// From a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// What [`suite`] found.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    /// Steps run without a mutation (both storages).
    pub steps: u64,
    /// Of them, on the team server's storage.
    pub server_steps: u64,
    /// Seeds run without a mutation (both storages).
    pub seeds: u64,
    /// Per mutation and storage: the seed and step of the violation that caught it, and
    /// its invariant.
    pub caught: Vec<(Mutation, Storage, u64, u64, &'static str)>,
    /// At the end of each seed, summed: the (source, item) pairs the service charged.
    pub charged_pairs: u64,
    /// Of them, those the oracle would have let be charged once more unseen.
    pub rebuyable_pairs: u64,
    /// Live requests admitted that brought the committed total exactly to the cap.
    pub exact_cap: u64,
    /// Refusals for the cap of a request that would have reached it exactly, at most.
    pub refused_at_cap: u64,
}

/// Mutations the server's storage cannot show: it always has the database's lock, so a
/// fault in what a tab does without Web Locks never runs there.
pub const BROWSER_ONLY: [Mutation; 1] = [Mutation::LiveWithoutLocks];

/// Steps of one seed in [`suite`].
pub const SEED_STEPS: u64 = 4_000;

/// The CI budget: at least `min_steps` steps over seeds from `first_seed` on a browser's
/// storage and a quarter as many on the team server's must break no invariant, and every
/// mutation must be caught within `mutation_seeds` seeds on each (on the server's, those it
/// can show: not [`BROWSER_ONLY`]).
pub fn suite(first_seed: u64, min_steps: u64, mutation_seeds: u64) -> Result<SuiteReport, String> {
    let mut report = SuiteReport::default();
    for (storage, min) in [
        (Storage::Browser, min_steps),
        (Storage::Server, min_steps / 4),
    ] {
        let config = |seed| match storage {
            Storage::Browser => Config::new(seed, SEED_STEPS),
            Storage::Server => Config::server(seed, SEED_STEPS),
        };
        let mut steps = 0;
        let mut seed = first_seed;
        while steps < min {
            match run_with_stats(config(seed)) {
                Ok((n, stats)) => {
                    steps += n;
                    report.charged_pairs += stats.charged_pairs;
                    report.rebuyable_pairs += stats.rebuyable_pairs;
                    report.exact_cap += stats.exact_cap;
                    report.refused_at_cap += stats.refused_at_cap;
                }
                Err(v) => return Err(shrink(*v).to_string()),
            }
            report.seeds += 1;
            seed += 1;
        }
        report.steps += steps;
        if storage == Storage::Server {
            report.server_steps = steps;
        }
        for m in Mutation::ALL {
            if storage == Storage::Server && BROWSER_ONLY.contains(&m) {
                continue;
            }
            let found = (first_seed..first_seed + mutation_seeds).find_map(|seed| {
                let c = Config {
                    mutation: Some(m),
                    ..config(seed)
                };
                run(c).err()
            });
            match found {
                Some(v) => report
                    .caught
                    .push((m, storage, v.config.seed, v.step, v.invariant)),
                None => {
                    return Err(format!(
                        "mutation {m:?} survived {mutation_seeds} seeds of {SEED_STEPS} steps on the {} storage: the simulator has no teeth for it",
                        storage.as_str()
                    ))
                }
            }
        }
    }
    Ok(report)
}
