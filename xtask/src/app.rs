//! The app with Trunk: `cargo xtask serve`, the release build into `dist/` the tests and
//! benchmarks use, and a smoke test that it mounts in Chromium.
//!
//! Trunk runs here exactly as a developer runs it by hand, plain `trunk serve` / `trunk build
//! --release` from a shell whose PATH is the system's plus `~/.cargo/bin` (see
//! [`Tools::developer_trunk`]): so every `cargo xtask test` proves that habit works after
//! `cargo xtask setup`.

use std::process::{Command, Stdio};

use crate::tools::{self, developer_env, Tools};
use crate::{app_wasm, root, run, Res, USAGE};

/// `cargo xtask serve [--port N]`: builds the app and serves it on 127.0.0.1 (demo mode).
pub fn serve(args: &[String]) -> Res {
    let port = match args {
        [] => "8080".to_string(),
        [flag, port] if flag == "--port" => port.clone(),
        _ => return Err(format!("serve: unexpected arguments {args:?}\n{USAGE}")),
    };
    let tools = Tools::ensure_alongside(false, head_start()?)?;
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

/// The release builds `trunk serve --release` starts with, for a first run to start while
/// the tools compile: the app's wasm (`cargo xtask app-wasm`'s cargo step, which the pre_build
/// hook then finds done) and each `rel="rust"` link of index.html that Trunk builds itself
/// (the demo worker), with the arguments and environment Trunk gives cargo, so Trunk's own
/// build of it finds nothing to do. Quiet: the installs' output is the one to read.
///
/// Run as Trunk runs cargo, through `cargo` on PATH (rustup's proxy), never the toolchain's
/// cargo in a cleared environment: the proxy pins the toolchain for the whole build
/// (`RUSTUP_TOOLCHAIN`). Without it each `rustc` that cargo starts in a dependency's folder
/// lets rustup read that crate's own `rust-toolchain.toml` (quote and proc-macro2 ship one
/// asking for `rust-src`, convert_case one pinning 1.91.1), and rustup then installs or
/// updates toolchains (tried: it did both, and mixed two compilers in one build).
fn head_start() -> Res<Vec<Command>> {
    let html = std::fs::read_to_string(root().join("index.html"))
        .map_err(|e| format!("index.html: {e}"))?;
    let mut builds = vec![app_wasm::cargo_build(true)];
    builds.extend(trunk_rust_builds(&html));
    for build in &mut builds {
        let args: Vec<_> = build.get_args().map(ToOwned::to_owned).collect();
        let mut quiet = Command::new("cargo");
        developer_env(&mut quiet).args(args).arg("--quiet");
        *build = quiet;
    }
    Ok(builds)
}

/// The `cargo build` Trunk 0.21 runs for each `<link data-trunk rel="rust">` of `html` that it
/// does not skip, in release (its `cargo_build`: manifest, `--bin`, feature flags).
fn trunk_rust_builds(html: &str) -> Vec<Command> {
    let mut builds = Vec::new();
    for tag in html.split("<link").skip(1) {
        let tag = tag.split('>').next().unwrap_or_default();
        let words = attributes(tag);
        let value = |name: &str| {
            words
                .iter()
                .find_map(|(n, v)| (n == name).then(|| v.clone()))
                .flatten()
        };
        let rust = value("rel").as_deref() == Some("rust");
        let has = |name: &str| words.iter().any(|(n, _)| n == name);
        if !has("data-trunk") || !rust || has("data-trunk-skip") || has("data-cargo-profile") {
            continue;
        }
        let manifest = root().join(value("href").unwrap_or_else(|| "Cargo.toml".into()));
        let mut build = crate::cargo();
        build.args([
            "build",
            "--target=wasm32-unknown-unknown",
            "--manifest-path",
        ]);
        build.arg(manifest).arg("--release");
        if let Some(bin) = value("data-bin") {
            build.args(["--bin", &bin]);
        }
        if has("data-cargo-all-features") {
            build.arg("--all-features");
        }
        if has("data-cargo-no-default-features") {
            build.arg("--no-default-features");
        }
        if let Some(features) = value("data-cargo-features") {
            build.args(["--features", &features]);
        }
        builds.push(build);
    }
    builds
}

/// The attributes of an HTML tag's text (after its name): name and value, if any.
fn attributes(tag: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = tag.trim_start();
    while let Some(c) = rest.chars().next() {
        if c == '/' {
            rest = rest[1..].trim_start();
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = rest[..end].to_string();
        rest = rest[end..].trim_start();
        let mut value = None;
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (text, tail) = match after.strip_prefix('"') {
                Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
                None => after.split_once(char::is_whitespace).unwrap_or((after, "")),
            };
            value = Some(text.to_string());
            rest = tail.trim_start();
        }
        if name.is_empty() {
            break;
        }
        out.push((name, value));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::trunk_rust_builds;

    #[test]
    fn trunk_builds_the_worker_of_index_html_with_its_features() {
        let html = std::fs::read_to_string(crate::root().join("index.html")).unwrap();
        let builds: Vec<Vec<String>> = trunk_rust_builds(&html)
            .iter()
            .map(|b| {
                b.get_args()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect()
            })
            .collect();
        assert_eq!(builds.len(), 1, "{builds:?}");
        let args = builds[0].join(" ");
        assert!(args.ends_with("sandbox/Cargo.toml --release --bin sandbox-worker --no-default-features --features worker"), "{args}");
    }

    #[test]
    fn skipped_links_and_other_rels_are_not_built() {
        let html = r#"<link data-trunk rel="rust" href="a/Cargo.toml" data-trunk-skip />
            <link data-trunk rel="css" href="x.css">
            <link rel="rust" href="b/Cargo.toml">
            <link data-trunk rel=rust data-bin=w data-cargo-all-features>"#;
        let builds = trunk_rust_builds(html);
        assert_eq!(builds.len(), 1);
        let args: Vec<_> = builds[0]
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(
            args.ends_with(&["--bin".into(), "w".into(), "--all-features".into()]),
            "{args:?}"
        );
    }
}
