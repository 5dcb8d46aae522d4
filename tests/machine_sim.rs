//! The money state machine under deterministic simulation: at least a million steps over
//! many seeds break no invariant, and every deliberate mutation is caught (the simulator has
//! teeth); then the same on the team server's storage (a quarter as many steps). A failure prints its seed and trace; `cargo xtask sim --seed S --steps N` replays.

use serpkit::machine::sim;

#[test]
fn a_million_simulated_steps_break_no_invariant_and_every_mutation_is_caught() {
    let report = sim::suite(1, 1_000_000, 400).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.steps >= 1_000_000);
    // The team server's storage (processes, sessions, the dead-process sweep) too.
    assert!(report.server_steps >= 250_000);
    // The oracle cannot pass by accident: totals meet the cap exactly (so `>` against `>=`
    // is tested: some 40 to 100 times, as the seeds fall), and hardly a charged (source,
    // item) is left with an unused yes.
    assert!(report.exact_cap >= 25, "{} exact hits", report.exact_cap);
    assert!(
        report.rebuyable_pairs * 50 <= report.charged_pairs,
        "{} of {} pairs re-buyable",
        report.rebuyable_pairs,
        report.charged_pairs
    );
    for (m, storage, seed, step, invariant) in &report.caught {
        println!(
            "{m:?} ({}): seed {seed}, step {step}: {invariant}",
            storage.as_str()
        );
    }
}

#[test]
fn a_server_sweep_that_settles_a_live_process_is_caught() {
    // The server's dead-process sweep must go by the database session alone: settling the
    // calls of a process that still runs frees its reservations while its requests are on
    // their way, and another process buys the same records again.
    let caught = (1..200).find_map(|seed| {
        let config = sim::Config {
            sweep_live: true,
            ..sim::Config::server(seed, sim::SEED_STEPS)
        };
        sim::run(config).err()
    });
    let v = caught.expect("a sweep of live processes survived 200 seeds");
    println!("{v}");
}
