//! `cargo xtask <task>`: the project's set-up, build, test and bench tasks.
//!
//! Every task first installs what it needs and is missing (idempotently), from the package
//! registries only: the wasm32 target (rustup), trunk 0.21 and wasm-bindgen-cli (crates.io,
//! the CLI at exactly the `wasm-bindgen` version in Cargo.lock), wasm-opt (npm `binaryen`),
//! the JS test tools (npm, from the root `package-lock.json`) and, for tests, Chromium and
//! ChromeDriver (Debian). Trunk is pointed at the installed tools and run `--offline`, so it
//! never downloads anything.

mod app_wasm;
mod tools;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};

use tools::Tools;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  serve [--port N]   install what is missing, build the app, serve it on 127.0.0.1 (demo mode)
  test               install what is missing, run every check and test (native, wasm in
                     headless Chromium, JS package, app end-to-end)
  pkg                build the JS package into pkg/
  bench              run the benchmarks and write BENCHMARKS.md
  setup              only install the tools
  app-wasm           build the app's wasm split per page (Trunk's pre_build hook runs it)
  js                 only the JS package tests (pkg, node:test, tsc) against the sandbox
  e2e                only the app end-to-end tests against demo mode and the sandbox
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        Some("test") => test(),
        Some("pkg") => Tools::ensure(false).and_then(|t| pkg(&t)),
        Some("bench") => bench(),
        Some("e2e") => e2e(),
        Some("js") => js(),
        Some("setup") => Tools::ensure(true).map(|_| ()),
        Some("app-wasm") => Tools::ensure(false).and_then(|t| app_wasm::app_wasm(&t)),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Result of a task step: an error message on failure.
pub type Res<T = ()> = Result<T, String>;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Cargo's target directory (`CARGO_TARGET_DIR` or `target/`).
pub fn target_dir() -> PathBuf {
    env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"))
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

trait CurrentDir {
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

fn cargo() -> Command {
    Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn serve(args: &[String]) -> Res {
    let port = match args {
        [] => "8080".to_string(),
        [flag, p] if flag == "--port" => p.clone(),
        _ => return Err(format!("serve: unexpected arguments {args:?}\n{USAGE}")),
    };
    let tools = Tools::ensure(false)?;
    eprintln!("\nserpkit app (demo mode): http://127.0.0.1:{port}/");
    run(tools
        .trunk()
        .args([
            "serve",
            "--release",
            "--offline",
            // The live-reload snippet is an inline script, which the app's CSP refuses.
            "--no-autoreload",
            "--address",
            "127.0.0.1",
            "--port",
        ])
        .arg(&port))
}

fn test() -> Res {
    let tools = Tools::ensure(true)?;
    let wasm = "wasm32-unknown-unknown";

    run(cargo().args(["fmt", "--all", "--", "--check"]))?;
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--all-features",
        "--",
        "-D",
        "warnings",
    ]))?;
    run(cargo().args([
        "clippy",
        "--target",
        wasm,
        "-p",
        "serpkit",
        "-p",
        "app",
        "--features",
        "serpkit/js",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The demo sandbox's Web Worker (its tests need tokio, which has no wasm32 build).
    run(cargo().args([
        "clippy",
        "--target",
        wasm,
        "-p",
        "sandbox",
        "--no-default-features",
        "--features",
        "worker",
        "--lib",
        "--bins",
        "--",
        "-D",
        "warnings",
    ]))?;
    run(cargo().args(["test", "--workspace", "--all-features"]))?;

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
            wasm,
            "-p",
            "serpkit",
            "--features",
            "js",
        ]))?;

    js_stage(&tools, &sandbox)?;
    e2e_stage(&tools, &sandbox)?;
    eprintln!("\nxtask test: all checks passed");
    Ok(())
}

/// The JS package: built, then tested with node:test and type-checked with tsc.
fn js_stage(tools: &Tools, sandbox: &SandboxServer) -> Res {
    pkg(tools)?;
    // The size goals (wasm ≤ 100 kB gzip), before anything else uses the package.
    run(Command::new("node").arg("tests/size/check.mjs"))?;
    node_tests(tools, "tests/js", sandbox, None)?;
    let tsc = tools.node_modules.join(".bin").join("tsc");
    run(Command::new(tsc).args(["--noEmit", "--strict", "-p", "tests/ts"]))
}

/// The app: built by Trunk, served, driven in headless Chromium.
fn e2e_stage(tools: &Tools, sandbox: &SandboxServer) -> Res {
    build_app(tools)?;
    let app = StaticServer::start(&root().join("dist"))?;
    app_smoke(tools, app.port)?;
    node_tests(tools, "tests/e2e", sandbox, Some(app.port))
}

fn js() -> Res {
    let tools = Tools::ensure(true)?;
    js_stage(&tools, &SandboxServer::start()?)
}

fn e2e() -> Res {
    let tools = Tools::ensure(true)?;
    e2e_stage(&tools, &SandboxServer::start()?)
}

/// Runs the node:test files in `dir` (one at a time: they share the sandbox ledger).
fn node_tests(tools: &Tools, dir: &str, sandbox: &SandboxServer, app_port: Option<u16>) -> Res {
    let path = root().join(dir);
    let has_tests = std::fs::read_dir(&path)
        .map(|d| {
            d.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "mjs"))
        })
        .unwrap_or(false);
    if !has_tests {
        return Err(format!("no tests in {dir}"));
    }
    let out = root().join("test-output");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut cmd = Command::new("node");
    cmd.args(["--test", "--test-concurrency=1"])
        .arg(format!("{dir}/"))
        .env("SANDBOX_URL", &sandbox.url)
        .env("SANDBOX_KEY", SandboxServer::KEY)
        .env("SANDBOX_POOR_KEY", SandboxServer::POOR_KEY)
        .env("CHROMIUM", &tools.chromium)
        .env("TEST_OUTPUT", &out);
    if let Some(port) = app_port {
        cmd.env("APP_URL", format!("http://127.0.0.1:{port}/"));
    }
    run(&mut cmd)
}

/// Builds the app with Trunk into `dist/`.
fn build_app(tools: &Tools) -> Res {
    run(tools
        .trunk()
        .args(["build", "--release", "--offline", "--dist", "dist"]))
}

/// Checks with Chromium's own `--dump-dom` that the served app mounts.
fn app_smoke(tools: &Tools, port: u16) -> Res {
    let url = format!("http://127.0.0.1:{port}/");
    let out = Command::new(&tools.chromium)
        .args(tools::CHROMIUM_FLAGS)
        .args(["--virtual-time-budget=10000", "--dump-dom"])
        .arg(&url)
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run chromium: {e}"))?;
    let dom = String::from_utf8_lossy(&out.stdout);
    if !dom.contains("data-app-mounted") {
        return Err(format!(
            "app smoke test: the app did not mount at {url}; DOM was:\n{}",
            dom.chars().take(2000).collect::<String>()
        ));
    }
    eprintln!("app smoke test: mounted in headless Chromium ({url})");
    Ok(())
}

/// The sandbox HTTP server on a free loopback port, stopped on drop.
struct SandboxServer {
    child: Child,
    url: String,
}

impl SandboxServer {
    /// The test key (no budget limit).
    const KEY: &'static str = "sandbox-test-key";
    /// A key with a $0.50 budget, for 402 tests.
    const POOR_KEY: &'static str = "poor-test-key";

    fn start() -> Res<SandboxServer> {
        run(cargo().args(["build", "--quiet", "-p", "sandbox", "--bin", "sandbox"]))?;
        let mut child = Command::new(target_dir().join("debug").join("sandbox"))
            .args(["--port", "0", "--key", Self::KEY, "--key"])
            .arg(format!("{}:0.50", Self::POOR_KEY))
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the sandbox server: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout from the sandbox")?;
        let mut reader = std::io::BufReader::new(stdout);
        let mut line = String::new();
        std::io::BufRead::read_line(&mut reader, &mut line).map_err(|e| format!("sandbox: {e}"))?;
        // Keep draining its output so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        let url = line
            .trim()
            .rsplit(' ')
            .next()
            .filter(|u| u.starts_with("http://"))
            .ok_or_else(|| format!("unexpected sandbox output: {line:?}"))?
            .to_string();
        eprintln!("sandbox server: {url}");
        Ok(SandboxServer { child, url })
    }
}

impl Drop for SandboxServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A static file server for `dist/` (python3's http.server) on a free loopback port.
struct StaticServer {
    child: Child,
    port: u16,
}

impl StaticServer {
    fn start(dir: &Path) -> Res<StaticServer> {
        let port = free_port()?;
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start python3 http.server: {e}"))?;
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(StaticServer { child, port });
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Err("static server did not start".into())
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> Res<u16> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// Builds the JS package into `pkg/` (wasm-bindgen `--target web`, then wasm-opt).
fn pkg(tools: &Tools) -> Res {
    let wasm = "wasm32-unknown-unknown";
    // The `pkg` profile (Cargo.toml): release settings, size ("z") for every crate, serpkit
    // too, with LLVM's inline threshold lowered to 25 for this build only. Measured after the
    // validator's hot path was written to need neither unrolling nor inlining of library
    // helpers (Node 20, `validateResponse(bytes)` on the 10.4 MB ranked-keywords body, best
    // of 30 runs, 3 to 4 runs of the script; gzip -9 of the wasm by Node's zlib, rounded):
    //   serpkit 3,   threshold 80:  130.0 KB, 11.5 to 12.6 ms (the settings before)
    //   serpkit "s", threshold 80:  128.6 KB
    //   serpkit "z", threshold 80:  124.7 KB, 12.0 to 12.9 ms
    //   serpkit "z", threshold 25:  122.6 KB, 12.5 to 13.2 ms (chosen)
    //   serpkit "z", threshold 5:   122.4 KB, 19.6 ms
    //   serpkit "z", threshold 250 (LLVM's default at opt-level 3): 131.0 KB
    // Text in, against JSON.parse + Ajv 8 / zod 4 (bench/js, Node), 4 runs of the script:
    // 0.44x to 0.71x Ajv's time and 3.7x to 4.3x faster than zod in 3, and 0.82x / 2.5x in
    // one run caught in the machine's slow mode (about 20 ms a validation, which the old
    // settings hit as well: they gave 0.45x to 0.62x and 3.0x to 4.2x in the same session).
    // Best over 8 processes each, text: 13.3 ms here against 12.6 ms with the old settings.
    // (Sizes above are of that time; the package has since lost serde's deserializer, core's
    // float printing and `serde_json::Value`: BENCHMARKS.md has the current size.)
    //
    // Under the 100 kB goal again (issue 16; `node tests/size/check.mjs`, gzip -9 by Node):
    //   before record reuse (wt-core 98bb4db):                          102.2 kB
    //   record reuse as async Rust over a JS cache (main b1f9338):      116.2 kB
    //   its steps as sync wasm calls, orchestrated by record_client.js: 113.5 kB
    //   talc instead of dlmalloc:                                        111.3 kB
    //     (validateResponse, 10.4 MB ranked-keywords body, Node, best of 5 processes x 60
    //     runs, interleaved: text 10.66 ms vs 10.85 ms, bytes 10.58 ms vs 10.26 ms)
    //   operations() and jsonSchema() as static data (static_data.js):  108.2 kB
    //   keyword lower case from a 2.2 kB table of runs (records/lower.rs)
    //   instead of std's char::to_lowercase tables:                      101.2 kB
    //   (wasm-opt -Oz instead of -O3 here: 100.97 kB, not taken: the validator's speed)
    //   the per-operation methods and quote() in JS (each is call(path)): 100.5 kB
    //   one record step for a found record and its issues, one for sends: 100.3 kB
    //   wasm-opt --low-memory-unused --converge (below):                   99.7 kB
    //     (validateResponse best of 4 processes: text 10.93 vs 11.12 ms, bytes 10.50 vs
    //     10.71 ms: not slower)
    run(cargo().args([
        "build",
        "--config",
        r#"target.wasm32-unknown-unknown.rustflags=["-C", "llvm-args=-inline-threshold=25"]"#,
        "--profile",
        "pkg",
        "--lib",
        "--target",
        wasm,
        "-p",
        "serpkit",
        "--features",
        "js",
    ]))?;
    let target_dir = target_dir();
    let input = target_dir.join(wasm).join("pkg").join("serpkit.wasm");
    let out = root().join("pkg");
    run(Command::new(&tools.wasm_bindgen)
        .arg(&input)
        .args(["--target", "web", "--out-dir"])
        .arg(&out))?;
    let wasm_file = out.join("serpkit_bg.wasm");
    // -O3: -Oz and -Os save under 1 KB gzipped here (0.4 and 0.6 KB) and inline less in
    // the validator, whose speed is the package's point. The `target_features` section is
    // for linkers only (no runtime reads it). `--low-memory-unused` (0.49 kB gzip) lets
    // Binaryen fold small constant offsets into loads and stores, assuming no access below
    // address 1024: Rust lays the wasm out stack first, so that is the far end of the 1 MB
    // stack, reached only by an overflow. `--converge` repeats the passes (0.12 kB gzip).
    run(Command::new(&tools.wasm_opt)
        .args([
            "-O3",
            "--converge",
            "--low-memory-unused",
            "--strip-debug",
            "--strip-producers",
            "--strip-target-features",
        ])
        .arg(&wasm_file)
        .arg("-o")
        .arg(&wasm_file))?;
    // The record caches are plain JS (they cost the wasm nothing), exported from the entry;
    // so is the orchestration of calls with a cache (`record_client.js`: the core's plan
    // and merge are sync wasm steps, the cache and the send are awaited in JS).
    // `operations()` and `jsonSchema(op)` are static data written by the core natively
    // (examples/pkg_data.rs) into static_data.js, with static_api.js around them.
    run(cargo()
        .args([
            "run",
            "--quiet",
            "--example",
            "pkg_data",
            "-p",
            "serpkit",
            "--",
        ])
        .arg(out.join("static_data.js")))?;
    for file in ["record_cache.js", "record_client.js", "static_api.js"] {
        std::fs::copy(root().join("src/js").join(file), out.join(file))
            .map_err(|e| format!("pkg/{file}: {e}"))?;
    }
    let entry = out.join("serpkit.js");
    let mut js = std::fs::read_to_string(&entry).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    js.push_str("\nexport { MemoryRecordCache, IndexedDbRecordCache } from './record_cache.js';\n");
    js.push_str("export { operations, jsonSchema } from './static_api.js';\n");
    js.push_str(
        "import { installRecordCalls } from './record_client.js';\ninstallRecordCalls(Client, estimateCost);\n",
    );
    std::fs::write(&entry, js).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    let manifest = format!(
        r#"{{
  "name": "serpkit",
  "version": "{}",
  "description": "Typed calls, response validation and prices for the keyword, backlink and SERP data service (WebAssembly)",
  "type": "module",
  "main": "serpkit.js",
  "module": "serpkit.js",
  "types": "serpkit.d.ts",
  "exports": {{ ".": {{ "types": "./serpkit.d.ts", "default": "./serpkit.js" }}, "./serpkit_bg.wasm": "./serpkit_bg.wasm" }},
  "files": ["serpkit.js", "record_cache.js", "record_client.js", "static_api.js", "static_data.js", "serpkit.d.ts", "serpkit_bg.wasm", "serpkit_bg.wasm.d.ts"],
  "sideEffects": false,
  "license": "MIT OR Apache-2.0"
}}
"#,
        package_version()?
    );
    std::fs::write(out.join("package.json"), manifest).map_err(|e| format!("pkg/package.json: {e}"))
}

/// The `serpkit` crate's version, from the root Cargo.toml's [package] table.
fn package_version() -> Res<String> {
    let toml = std::fs::read_to_string(root().join("Cargo.toml"))
        .map_err(|e| format!("Cargo.toml: {e}"))?;
    toml.split("[package]")
        .nth(1)
        .and_then(|pkg| {
            pkg.lines()
                .find_map(|l| l.trim().strip_prefix("version = \""))
                .map(|v| v.trim_end_matches('"').to_string())
        })
        .ok_or_else(|| "no [package] version in Cargo.toml".into())
}

/// Runs every benchmark once and writes their tables to BENCHMARKS.md.
fn bench() -> Res {
    let tools = Tools::ensure(true)?;
    let mut doc = String::from(
        "# Benchmarks\n\nWritten by `cargo xtask bench` (one run of every benchmark below; do not \
         edit by hand). Machine: the project's standard 2-core, 24 GiB Linux x86_64 box.\n",
    );
    let mut section = |title: &str, about: &str, cmd: &mut Command| -> Res {
        eprintln!("\n== bench: {title}");
        let shown = format!("{cmd:?}").replace('"', "");
        let out = cmd
            .current_dir_if_unset()
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot start {shown}: {e}"))?;
        if !out.status.success() {
            return Err(format!("`{shown}` failed ({})", out.status));
        }
        let table = String::from_utf8_lossy(&out.stdout);
        eprintln!("{table}");
        doc.push_str(&format!("\n## {title}\n\n{about}\n\n{}\n", table.trim()));
        Ok(())
    };

    section(
        "Validator (native)",
        "`cargo bench --bench validate`: bodies generated by the sandbox; `serpkit::validate` \
         (every rule, one pass over the text, no `serde_json::Value`) against \
         `serde_json::from_str::<Value>` alone and that parse plus the `jsonschema` crate with \
         `serpkit::validate::json_schema(op)` (generated from the same declarations). Goals: \
         ours ≤ 1.0× the parse, ≥ 2× faster than parse + jsonschema.",
        cargo().args(["bench", "--quiet", "--bench", "validate"]),
    )?;

    let sandbox = SandboxServer::start()?;
    pkg(&tools)?;
    build_app(&tools)?;
    let app = StaticServer::start(&root().join("dist"))?;
    for (title, about, script) in [
        (
            "JS package",
            "`node bench/js/run.mjs`: the built package (`pkg/`) in Node and headless Chromium.",
            "bench/js/run.mjs",
        ),
        (
            "App",
            "`node bench/app/run.mjs`: the Trunk release build of the app, in headless Chromium.",
            "bench/app/run.mjs",
        ),
    ] {
        section(
            title,
            about,
            Command::new("node")
                .arg(script)
                .env("SANDBOX_URL", &sandbox.url)
                .env("SANDBOX_KEY", SandboxServer::KEY)
                .env("CHROMIUM", &tools.chromium)
                .env("APP_URL", format!("http://127.0.0.1:{}/", app.port))
                .env("DIST", root().join("dist")),
        )?;
    }
    let path = root().join("BENCHMARKS.md");
    std::fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("\nwrote {}", path.display());
    Ok(())
}
