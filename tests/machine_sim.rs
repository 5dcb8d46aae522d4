//! The money state machine under deterministic simulation: at least a million steps over
//! many seeds break no invariant, and every deliberate mutation is caught (the simulator has
//! teeth). A failure prints its seed and trace; `cargo xtask sim --seed S --steps N` replays.

use serpkit::machine::sim;

#[test]
fn a_million_simulated_steps_break_no_invariant_and_every_mutation_is_caught() {
    let report = sim::suite(1, 1_000_000, 400).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.steps >= 1_000_000);
    for (m, seed, step, invariant) in &report.caught {
        println!("{m:?}: seed {seed}, step {step}: {invariant}");
    }
}
