//! `cargo xtask test` and its parts (`js`, `e2e`): every check and test.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

use crate::postgres::Cluster;
use crate::servers::{SandboxServer, StaticServer};
use crate::tools::Tools;
use crate::{app, arch, cargo, pkg, root, run, Res};

/// The wasm target of the package, the app and the demo worker.
const WASM: &str = "wasm32-unknown-unknown";

/// `cargo xtask test`: formatting, the architecture rules, clippy (native and wasm32), the
/// native tests, the wasm tests in headless Chromium, the JS package and the app end-to-end.
pub fn all() -> Res {
    let tools = Tools::ensure(true)?;

    run(cargo().args(["fmt", "--all", "--", "--check"]))?;
    arch::check()?;
    // Lint levels are in the root Cargo.toml's [workspace.lints]; `-D warnings` makes every
    // warning fail the run here while editors and local builds only warn.
    clippy(&["--workspace", "--all-targets", "--all-features"])?;
    clippy(&[
        "--target",
        WASM,
        "-p",
        "serpkit",
        "-p",
        "app",
        "--features",
        "serpkit/js",
        "--all-targets",
    ])?;
    // The demo sandbox's Web Worker (its tests need tokio, which has no wasm32 build).
    clippy(&[
        "--target",
        WASM,
        "-p",
        "sandbox",
        "--no-default-features",
        "--features",
        "worker",
        "--lib",
        "--bins",
    ])?;
    // The team server's tests need PostgreSQL: their own stage starts a cluster.
    run(cargo().args([
        "test",
        "--workspace",
        "--all-features",
        "--exclude",
        "serpkit-server",
    ]))?;
    server()?;

    // Everything below talks to a real sandbox server on loopback.
    let sandbox = SandboxServer::start()?;

    // wasm-bindgen-test in headless Chromium (webdriver.json holds the browser flags); the
    // browser tests reach the sandbox server at SANDBOX_URL (baked in at compile time).
    run(tools
        .with_env(&mut cargo())
        .env("SANDBOX_URL", &sandbox.url)
        .args([
            "test",
            "--target",
            WASM,
            "-p",
            "serpkit",
            "--features",
            "js",
        ]))?;

    js_stage(&tools, &sandbox)?;
    e2e_stage(&tools, &sandbox)?;
    readme_stage(&tools, &sandbox)?;
    eprintln!("\nxtask test: all checks passed");
    Ok(())
}

/// The team server's tests (`cargo xtask server`) against a throwaway PostgreSQL cluster in
/// `target/pg-test` (installed from Debian when missing), stopped after them.
pub fn server() -> Res {
    let started = std::time::Instant::now();
    let cluster = Cluster::start(&crate::root().join("target").join("pg-test"), true)?;
    let result = run(cargo().env("SERPKIT_TEST_PG", cluster.conninfo()).args([
        "test",
        "-p",
        "serpkit-server",
    ]));
    drop(cluster);
    eprintln!(
        "team server stage: {:.1} s (cluster, build and tests)",
        started.elapsed().as_secs_f64()
    );
    result
}

/// `cargo clippy <args> -- -D warnings`: every warning fails the run.
fn clippy(args: &[&str]) -> Res {
    run(cargo()
        .arg("clippy")
        .args(args)
        .args(["--", "-D", "warnings"]))
}

/// `cargo xtask js`: only the JS package tests.
pub fn js() -> Res {
    let tools = Tools::ensure(true)?;
    js_stage(&tools, &SandboxServer::start()?)
}

/// `cargo xtask e2e`: only the app end-to-end tests.
pub fn e2e() -> Res {
    let tools = Tools::ensure(true)?;
    e2e_stage(&tools, &SandboxServer::start()?)
}

/// The JS package: built, then tested with node:test and type-checked with tsc.
fn js_stage(tools: &Tools, sandbox: &SandboxServer) -> Res {
    pkg::pkg(tools)?;
    // Test-only npm packages (the package's real consumers: Standard Schema users, Deno, Bun,
    // workerd, Vite, webpack), in their own tests/package.json: installed here, never by
    // `cargo xtask serve`, and reused.
    crate::tools::npm_install(&root().join("tests"))?;
    // The size goals (wasm ≤ 100 kB gzip), before anything else uses the package.
    run(Command::new("node").arg("tests/size/check.mjs"))?;
    let corpus = breaking_corpus()?;
    node_tests(
        tools,
        "tests/js",
        sandbox,
        None,
        &[("BREAKING_CORPUS", corpus.as_os_str())],
    )?;
    // tests/ts also compiles a file generated from the core: the hand-written API types agree
    // with the core's lists (error codes, option names, reports).
    run(pkg::generator("pkg_types").args(["--checks", "tests/ts/generated/checks.ts"]))?;
    let tsc = tools.node_modules.join(".bin").join("tsc");
    run(Command::new(&tsc).args(["--noEmit", "--strict", "-p", "tests/ts"]))?;
    // The JS twins of the rules (src/rules/twins.js, inlined into validators.js), checked
    // strictly as JS (`// @ts-check`, src/rules/tsconfig.json).
    run(Command::new(tsc).args(["-p", "src/rules"]))
}

/// The app: built by plain `trunk build --release` (so this stage also proves a developer's
/// own Trunk run works after setup), served, driven in headless Chromium.
fn e2e_stage(tools: &Tools, sandbox: &SandboxServer) -> Res {
    app::build(tools)?;
    let app = StaticServer::start(&root().join("dist"))?;
    app::smoke(tools, app.port)?;
    // Team mode's test (team.test.mjs) starts its own team server on this cluster's database;
    // the cluster only runs when that file is among those run.
    let team = e2e_files("tests/e2e")?
        .iter()
        .any(|f| f.ends_with('/') || f.contains("team"))
        .then(crate::team::for_e2e)
        .transpose()?;
    let env: Vec<(&str, &OsStr)> = team
        .as_ref()
        .map(|t| {
            vec![
                ("TEAM_DATABASE_URL", t.database_url.as_ref()),
                ("TEAM_SERVER_BIN", t.bin.as_os_str()),
            ]
        })
        .unwrap_or_default();
    node_tests(tools, "tests/e2e", sandbox, Some(&app), &env)
}

/// The e2e files to run: every one, or with `E2E_ONLY=journal,records` those whose file
/// name contains one of the comma-separated words (Err when none does).
fn e2e_files(dir: &str) -> Result<Vec<String>, String> {
    let only = std::env::var("E2E_ONLY").unwrap_or_default();
    let words: Vec<&str> = only
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Ok(vec![format!("{dir}/")]);
    }
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .map_err(|e| format!("{dir}: {e}"))?
        .flatten()
        .filter_map(|entry| entry.file_name().to_str().map(str::to_string))
        .filter(|name| name.ends_with(".test.mjs") && words.iter().any(|w| name.contains(w)))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("E2E_ONLY={only}: no test file in {dir} matches"));
    }
    eprintln!("E2E_ONLY={only}: {}", files.join(" "));
    Ok(files)
}

/// `cargo xtask readme`: only the README's commands and snippets.
pub fn readme() -> Res {
    let tools = Tools::ensure(true)?;
    readme_stage(&tools, &SandboxServer::start()?)
}

/// The README run as a new user types it (tests/readme: every shell and JS block and inline
/// command, servers started and stopped), last: the app's build is warm by then.
fn readme_stage(tools: &Tools, sandbox: &SandboxServer) -> Res {
    node_tests(tools, "tests/readme", sandbox, None, &[])
}

/// The breaking bodies of the validator's rule tests, for the JS differential test
/// (tests/js/differential.test.mjs): `validate_rules` run with `SERPKIT_BREAKING_CORPUS` set
/// appends one JSON line per checked body (tests/validate_common). Returns the file.
fn breaking_corpus() -> Result<PathBuf, String> {
    let out = root().join("test-output");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let file = out.join("breaking-corpus.jsonl");
    crate::remove_file_if_present(&file)?;
    run(cargo()
        .env("SERPKIT_BREAKING_CORPUS", &file)
        .args(["test", "-p", "serpkit", "--test", "validate_rules"])
        .arg("--all-features"))?;
    Ok(file)
}

/// Runs the node:test files in `dir` (one at a time: they share the sandbox ledger), with
/// `env` added to their environment.
fn node_tests(
    tools: &Tools,
    dir: &str,
    sandbox: &SandboxServer,
    app: Option<&StaticServer>,
    env: &[(&str, &OsStr)],
) -> Res {
    let has_tests = std::fs::read_dir(root().join(dir))
        .map(|entries| {
            entries
                .flatten()
                .any(|entry| entry.path().extension().is_some_and(|ext| ext == "mjs"))
        })
        .unwrap_or(false);
    if !has_tests {
        return Err(format!("no tests in {dir}"));
    }
    let out = root().join("test-output");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    // Only the e2e stage is filtered (E2E_ONLY); the other directories always run whole.
    let targets = if dir == "tests/e2e" {
        e2e_files(dir)?
    } else {
        vec![format!("{dir}/")]
    };
    let mut cmd = Command::new("node");
    cmd.args(["--test", "--test-concurrency=1"])
        .args(&targets)
        .env("SANDBOX_URL", &sandbox.url)
        .env("SANDBOX_KEY", SandboxServer::KEY)
        .env("SANDBOX_POOR_KEY", SandboxServer::POOR_KEY)
        .env("CHROMIUM", &tools.chromium)
        .env("TEST_OUTPUT", &out)
        .envs(env.iter().copied());
    if let Some(app) = app {
        cmd.env("APP_URL", app.url());
    }
    run(&mut cmd)
}
