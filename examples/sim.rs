//! The money state machine's simulator from the command line (`cargo xtask sim`).
//!
//! ```text
//! sim [--seed S] [--steps N] [--tabs T] [--no-locks] [--mutation NAME] [--server]
//!                             one run: replay or extend (`--server`: on the team server's
//!                             storage, processes on one database)
//! sim --suite [--steps N]     the CI budget: N steps over many seeds (default 1,000,000),
//!                             then every mutation until it is caught
//! sim --bench                 simulated steps per second
//! ```

use std::process::ExitCode;
use std::time::Instant;

use serpkit::machine::sim::{self, Config};
use serpkit::machine::Mutation;

fn value<T: std::str::FromStr>(args: &[String], flag: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == flag) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.replace('_', "").parse().ok())
            .map(Some)
            .ok_or_else(|| format!("{flag} needs a number")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let steps: Option<u64> = value(args, "--steps")?;
    if args.iter().any(|a| a == "--suite") {
        let start = Instant::now();
        let report = sim::suite(1, steps.unwrap_or(1_000_000), 400)?;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "sim: {} steps over {} seeds ({} on the team server's storage), no invariant broken",
            report.steps, report.seeds, report.server_steps
        );
        println!(
            "sim: {} of {} charged (source, item) pairs left re-buyable unseen at the seeds' ends ({:.1} %)",
            report.rebuyable_pairs,
            report.charged_pairs,
            100.0 * report.rebuyable_pairs as f64 / report.charged_pairs.max(1) as f64
        );
        println!(
            "sim: {} live requests admitted exactly to the cap, {} refused that would have reached it exactly",
            report.exact_cap, report.refused_at_cap
        );
        println!("sim: every mutation caught (storage, seed, step, invariant):");
        for (m, storage, seed, step, inv) in &report.caught {
            println!(
                "  {m:?}: {}, seed {seed}, step {step}: {inv}",
                storage.as_str()
            );
        }
        println!("sim: {secs:.1} s in all");
        return Ok(());
    }
    if args.iter().any(|a| a == "--bench") {
        let mut total = 0;
        let start = Instant::now();
        let mut seed = 1;
        while start.elapsed().as_secs_f64() < 3.0 {
            total += sim::run(Config::new(seed, sim::SEED_STEPS)).map_err(|v| v.to_string())?;
            seed += 1;
        }
        let rate = total as f64 / start.elapsed().as_secs_f64();
        println!("| measure | value |\n|---|---:|");
        println!("| simulated steps per second | {rate:.0} |");
        println!(
            "| steps run (seeds of {} steps) | {total} ({}) |",
            sim::SEED_STEPS,
            seed - 1
        );
        println!("| a million steps, estimated | {:.1} s |", 1e6 / rate);
        return Ok(());
    }
    let seed: u64 = value(args, "--seed")?.unwrap_or(1);
    let steps = steps.unwrap_or(sim::SEED_STEPS);
    let mut config = if args.iter().any(|a| a == "--server") {
        Config::server(seed, steps)
    } else {
        Config::new(seed, steps)
    };
    if let Some(t) = value(args, "--tabs")? {
        config.max_tabs = t;
    }
    if args.iter().any(|a| a == "--no-locks") {
        config.locks = false;
    }
    if let Some(i) = args.iter().position(|a| a == "--mutation") {
        let name = args.get(i + 1).ok_or("--mutation needs a name")?;
        config.mutation = Some(
            Mutation::ALL
                .into_iter()
                .find(|m| format!("{m:?}").eq_ignore_ascii_case(name))
                .ok_or_else(|| format!("no mutation {name}: {:?}", Mutation::ALL))?,
        );
    }
    match sim::run_with_stats(config) {
        Ok((steps, stats)) => {
            println!("sim: seed {seed}: {steps} steps, no invariant broken");
            println!("sim: {stats:?}");
            Ok(())
        }
        Err(v) => Err(sim::shrink(*v).to_string()),
    }
}
