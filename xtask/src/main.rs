//! `cargo xtask <task>`: the project's set-up, build, test and bench tasks.
//!
//! Every task first installs what it needs and is missing (idempotently), from the package
//! registries only: the wasm32 target (rustup), trunk 0.21 and wasm-bindgen-cli (crates.io,
//! the CLI at exactly the `wasm-bindgen` version in Cargo.lock), wasm-opt (npm `binaryen`),
//! the JS test tools (npm, from the root `package-lock.json`) and, for tests, Chromium and
//! ChromeDriver (Debian). Trunk finds the installed tools the way it does for any developer
//! (on PATH, at the versions pinned in Trunk.toml) and runs offline, so it never downloads
//! anything.
//!
//! One module per task: [`test`] (every check and test), [`arch`] (the layer and file-size
//! rules), [`pkg`] (the JS package), [`app`] (serving and building the app with Trunk),
//! [`app_wasm`] (Trunk's pre-build hook), [`bench`] (BENCHMARKS.md and the A/B run of the
//! validator), [`team`] (the team server); [`servers`] holds the servers the tests talk to,
//! [`postgres`] the local PostgreSQL cluster and [`tools`] the installer.

mod app;
mod app_wasm;
mod arch;
mod bench;
mod pkg;
mod postgres;
mod servers;
mod team;
mod test;
mod tools;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use tools::Tools;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  serve [--port N]   install what is missing, build the app, serve it on 127.0.0.1 (demo mode)
  test               install what is missing, run every check and test (native, wasm in
                     headless Chromium, JS package, app end-to-end)
  arch               only the architecture checks: module layers (ARCHITECTURE.md), no
                     cycles, pages import no pages, no two files importing each other, no
                     price literal in the app, no app function over 150 lines, no source
                     file over 700 lines
  pkg                build the JS package into pkg/
  bench              run the benchmarks and write BENCHMARKS.md
  bench --ab <rev>   the validator benchmark of <rev> against the working tree, interleaved
                     in one run, with the ratios (writes nothing)
  setup              only install the tools (and make them findable by plain `trunk`)
  app-wasm           build the app's wasm split per page (Trunk's pre_build hook runs it)
  js                 only the JS package tests (pkg, node:test, tsc) against the sandbox
  e2e                only the app end-to-end tests against demo mode and the sandbox
  readme             only the README's commands and snippets, run as a new user types them
  team [--port P] [--upstream URL]
                     the team server on a local PostgreSQL (installed when missing) in front
                     of the sandbox server (or the service at URL, its key in
                     SERPKIT_SERVICE_KEY); prints `server: http://…` and `member token: …`
  server             only the team server's tests, on a throwaway PostgreSQL cluster
  sim [--seed S] [--steps N] [--tabs T] [--no-locks] [--mutation NAME] [--server]
                     the money state machine's simulator: replay or extend one seed's run
                     (`--server`: on the team server's storage; `--suite`: a million steps
                     over many seeds and every mutation, then the same on the server's)
";

/// `cargo run` of the simulator's command line (`examples/sim.rs`), optimised.
pub const SIM: &[&str] = &[
    "run",
    "--quiet",
    "--release",
    "-p",
    "serpkit",
    "--features",
    "sim",
    "--example",
    "sim",
    "--",
];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => app::serve(&args[1..]),
        Some("test") => test::all(),
        Some("arch") => arch::check(),
        Some("pkg") => Tools::ensure(false).and_then(|tools| pkg::pkg(&tools)),
        Some("bench") => match &args[1..] {
            [] => bench::bench(),
            [flag, rev] if flag == "--ab" => bench::ab(rev),
            other => Err(format!("bench: unexpected arguments {other:?}\n{USAGE}")),
        },
        Some("e2e") => test::e2e(),
        Some("js") => test::js(),
        Some("readme") => test::readme(),
        Some("team") => team::team(&args[1..]),
        Some("server") => test::server(),
        Some("sim") => run(cargo().args(SIM).args(&args[1..])),
        Some("setup") => Tools::ensure(true).map(|_| ()),
        Some("app-wasm") => Tools::ensure(false).and_then(|tools| app_wasm::app_wasm(&tools)),
        Some("--help" | "-h" | "help") => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Result of a task step: an error message on failure.
pub type Res<T = ()> = Result<T, String>;

/// The workspace root.
pub fn root() -> PathBuf {
    // xtask/ is a member of the workspace at the root, so its manifest dir has a parent.
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// Cargo's target directory (`CARGO_TARGET_DIR` or `target/`).
pub fn target_dir() -> PathBuf {
    env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"))
}

/// Removes `file`; one that is not there is no error.
pub fn remove_file_if_present(file: &Path) -> Res {
    match std::fs::remove_file(file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", file.display()))
        }
        _ => Ok(()),
    }
}

/// Runs a command to completion in the workspace root; fails on a non-zero exit.
pub fn run(cmd: &mut Command) -> Res {
    let shown = format!("{cmd:?}").replace('"', "");
    eprintln!("\n$ {shown}");
    let status = cmd
        .current_dir_if_unset()
        .status()
        .map_err(|e| format!("cannot start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

/// Runs commands in the workspace root unless told otherwise.
trait CurrentDir {
    /// Sets the working directory to the workspace root if none is set.
    fn current_dir_if_unset(&mut self) -> &mut Self;
}

impl CurrentDir for Command {
    fn current_dir_if_unset(&mut self) -> &mut Self {
        if self.get_current_dir().is_none() {
            self.current_dir(root());
        }
        self
    }
}

/// The cargo that runs this xtask (`CARGO`), else `cargo` on PATH.
fn cargo() -> Command {
    Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}
