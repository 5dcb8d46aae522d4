//! The app with Trunk: `cargo xtask serve`, the release build into `dist/` the tests and
//! benchmarks use, and a smoke test that it mounts in Chromium.
//!
//! Trunk runs here exactly as a developer runs it by hand, plain `trunk serve` / `trunk build
//! --release` from a shell whose PATH is the system's plus `~/.cargo/bin` (see
//! [`Tools::developer_trunk`]): so every `cargo xtask test` proves that habit works after
//! `cargo xtask setup`.

use std::process::{Command, Stdio};

use crate::tools::{self, Tools};
use crate::{run, Res, USAGE};

/// `cargo xtask serve [--port N]`: builds the app and serves it on 127.0.0.1 (demo mode).
pub fn serve(args: &[String]) -> Res {
    let port = match args {
        [] => "8080".to_string(),
        [flag, port] if flag == "--port" => port.clone(),
        _ => return Err(format!("serve: unexpected arguments {args:?}\n{USAGE}")),
    };
    let tools = Tools::ensure(false)?;
    eprintln!("\nserpkit app (demo mode): http://127.0.0.1:{port}/");
    run(tools
        .developer_trunk()
        .args([
            "serve",
            "--release",
            // The live-reload snippet is an inline script, which the app's CSP refuses.
            "--no-autoreload",
            "--address",
            "127.0.0.1",
            "--port",
        ])
        .arg(&port))
}

/// Builds the app into `dist/` with plain `trunk build --release`.
pub fn build(tools: &Tools) -> Res {
    run(tools
        .developer_trunk()
        .args(["build", "--release", "--dist", "dist"]))
}

/// Checks with Chromium's own `--dump-dom` that the app served on `port` mounts.
pub fn smoke(tools: &Tools, port: u16) -> Res {
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
