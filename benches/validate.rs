//! Validator benchmark: `cargo bench --bench validate` prints a Markdown table.
//!
//! Bodies come from the sandbox generator: a 50,000-record `ranked-keywords/domain` body and
//! a large `backlink/overview` body. For each, the median of several runs of:
//! - ours: `serpkit::validate::validate` (one pass over the text, all rules);
//! - `serde_json::from_str::<Value>` alone;
//! - `Value` parse + the `jsonschema` crate (`is_valid`) with `serpkit::validate::json_schema`,
//!   the same declarations as ours (a compiled validator, built once, outside the timing).
//!
//! Set `SERPKIT_BENCH_ITERS` to change the number of runs (default 7).

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main()
}

/// The benchmark runs natively only (it compares against native crates).
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {

    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use sandbox::date::Date;
    use sandbox::generate;
    use serde_json::Value;
    use serpkit::ops::Operation;
    use serpkit::validate::{json_schema, validate};

    fn median(iters: usize, mut f: impl FnMut()) -> Duration {
        f(); // warm-up
        let mut times: Vec<Duration> = (0..iters)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        times.sort();
        times[times.len() / 2]
    }

    fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1e3
    }

    fn cpu() -> String {
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown CPU".into())
    }

    pub fn main() {
        let iters: usize = std::env::var("SERPKIT_BENCH_ITERS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(7)
            .max(1);
        let today = Date::new(2024, 3, 5).expect("date");
        let bodies = [
            (
                "ranked-keywords/domain, 50,000 records",
                Operation::RankedKeywordsDomain,
                generate::ranked_keywords_domain("example.com", 50_000, 1),
            ),
            (
                "backlink/overview, 100,000 ref_newlost",
                Operation::BacklinkOverview,
                generate::backlink_overview("example.com", 100_000, today, 2),
            ),
        ];

        println!(
            "| body | size MB | ours ms | ours MB/s | Value parse ms | Value parse MB/s | parse + jsonschema ms | ours / parse | (parse + jsonschema) / ours |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (name, op, body) in &bodies {
            let mb = body.len() as f64 / 1e6;
            let schema = json_schema(*op);
            let compiled = jsonschema::validator_for(&schema).expect("schema compiles");

            // Same verdict from both before timing anything.
            let report = validate(*op, body, None);
            assert!(report.ok(), "{name}: {report}");
            let value: Value = serde_json::from_str(body).expect("parses");
            assert!(compiled.is_valid(&value), "{name}: jsonschema rejects it");
            drop(value);

            let ours = median(iters, || {
                black_box(validate(*op, black_box(body), None));
            });
            let parse = median(iters, || {
                black_box(serde_json::from_str::<Value>(black_box(body)).ok());
            });
            let parse_schema = median(iters, || {
                let v: Value = serde_json::from_str(black_box(body)).expect("parses");
                black_box(compiled.is_valid(&v));
            });
            println!(
                "| {name} | {mb:.1} | {:.1} | {:.0} | {:.1} | {:.0} | {:.1} | {:.2}× | {:.1}× |",
                ms(ours),
                mb / ours.as_secs_f64(),
                ms(parse),
                mb / parse.as_secs_f64(),
                ms(parse_schema),
                ours.as_secs_f64() / parse.as_secs_f64(),
                parse_schema.as_secs_f64() / ours.as_secs_f64(),
            );
        }
        println!();
        println!(
            "Median of {iters} runs; {}; {} logical CPU(s); `cargo bench` profile.",
            cpu(),
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
    }
}
