//! Finding, and when missing installing, the tools the tasks need. Every step checks first
//! and installs only what is missing or at the wrong version, so running it again is cheap.
//!
//! Plain `trunk` works after [`Tools::ensure`] too: Trunk 0.21 uses a tool from PATH when its
//! `--version` matches the version pinned in Trunk.toml's `[tools]`, and otherwise (offline)
//! stops. So the pins are checked against the installed tools, and wasm-opt (npm `binaryen`,
//! under `node_modules/`) is linked into `~/.cargo/bin`, where cargo already installs
//! trunk and wasm-bindgen and which every Rust developer has on PATH.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

use crate::{cargo, root, run, CurrentDir, Res};

/// Where the split app is written (`cargo xtask app-wasm`); index.html's `copy-dir` reads it
/// from here, and Trunk.toml's watch ignore list names it, so [`Tools::ensure`] creates it.
pub fn app_out_dir() -> PathBuf {
    root().join("target").join("web").join("app")
}

/// The trunk series we use (0.22 needs a newer rustc than this machine's).
const TRUNK_SERIES: &str = "0.21";

/// Flags for headless Chromium on this kind of machine (as root, no GPU, closed network).
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];

/// Paths of the installed tools.
pub struct Tools {
    /// `~/.cargo/bin/trunk` (0.21).
    pub trunk: PathBuf,
    /// `~/.cargo/bin/wasm-bindgen`, at Cargo.lock's wasm-bindgen version.
    pub wasm_bindgen: PathBuf,
    /// npm binaryen's `wasm-opt` in `node_modules/.bin`.
    pub wasm_opt: PathBuf,
    /// The workspace's `node_modules/` (from `package-lock.json`).
    pub node_modules: PathBuf,
    /// Chromium (empty unless the browser was asked for).
    pub chromium: PathBuf,
    /// ChromeDriver (empty unless the browser was asked for).
    pub chromedriver: PathBuf,
}

/// Where cargo installs binaries: `$CARGO_HOME/bin`, else `~/.cargo/bin`.
fn cargo_bin() -> PathBuf {
    env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from("/root/.cargo"))
        .join("bin")
}

/// Output of `program args...` (stdout, trimmed), or None when it cannot run or fails.
fn output(program: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The version of the package `name` in the workspace's dependency graph, from `cargo
/// metadata` (a workspace member's own version, or a dependency's locked one).
pub fn package_version(name: &str) -> Res<String> {
    /// The part of `cargo metadata`'s output read here.
    #[derive(Deserialize)]
    struct Metadata {
        packages: Vec<Package>,
    }
    /// One package of the graph.
    #[derive(Deserialize)]
    struct Package {
        name: String,
        version: String,
    }
    let out = cargo()
        .args(["metadata", "--format-version", "1"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let metadata: Metadata = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata: unexpected output: {e}"))?;
    let mut versions = metadata
        .packages
        .into_iter()
        .filter(|package| package.name == name)
        .map(|package| package.version);
    match (versions.next(), versions.next()) {
        (Some(version), None) => Ok(version),
        (None, _) => Err(format!("{name} is not in the workspace's dependency graph")),
        (Some(a), Some(b)) => Err(format!("{name} is in the graph twice ({a}, {b})")),
    }
}

/// The tool versions Trunk.toml pins (`[tools]`).
#[derive(Deserialize)]
struct TrunkConfig {
    tools: TrunkTools,
}

/// Trunk.toml's `[tools]` table.
#[derive(Deserialize)]
struct TrunkTools {
    wasm_bindgen: String,
    wasm_opt: String,
}

/// Fails unless Trunk.toml pins exactly the installed wasm-bindgen and wasm-opt.
fn check_trunk_pins(wasm_bindgen: &str, wasm_opt: &str) -> Res {
    let path = root().join("Trunk.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let config: TrunkConfig =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let pins = [
        (
            "wasm_bindgen",
            config.tools.wasm_bindgen,
            wasm_bindgen,
            "Cargo.lock's wasm-bindgen",
        ),
        (
            "wasm_opt",
            config.tools.wasm_opt,
            wasm_opt,
            "package.json's binaryen",
        ),
    ];
    for (key, pinned, installed, source) in pins {
        if pinned != installed {
            return Err(format!(
                "Trunk.toml pins [tools] {key} = \"{pinned}\" but {source} is {installed}: \
                 set the pin to \"{installed}\""
            ));
        }
    }
    Ok(())
}

/// Makes `wasm-opt` from `node_modules/` findable on PATH as `~/.cargo/bin/wasm-opt` (a
/// symbolic link). A regular file there at another version is left alone and reported.
fn link_wasm_opt(wasm_opt: &Path, version: &str) -> Res {
    let target = wasm_opt
        .canonicalize()
        .map_err(|e| format!("{}: {e}", wasm_opt.display()))?;
    let link = cargo_bin().join("wasm-opt");
    if let Ok(current) = std::fs::read_link(&link) {
        if current == target {
            return Ok(());
        }
    } else if link.exists() {
        let found = output(&link, &["--version"]).and_then(|v| wasm_opt_version(&v));
        if found.as_deref() == Some(version) {
            return Ok(());
        }
        return Err(format!(
            "{} is not wasm-opt {version} (Trunk.toml's pin): remove it and run `cargo xtask setup`",
            link.display()
        ));
    }
    if link.symlink_metadata().is_ok() {
        std::fs::remove_file(&link).map_err(|e| format!("{}: {e}", link.display()))?;
    }
    symlink(&target, &link).map_err(|e| format!("{}: {e}", link.display()))?;
    eprintln!("linked {} -> {}", link.display(), target.display());
    Ok(())
}

/// A symbolic link at `link` to `target`.
#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// A copy where symbolic links are not at hand.
#[cfg(not(unix))]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::fs::copy(target, link).map(|_| ())
}

/// Trunk's name for a wasm-opt version: `version_<N>` from `wasm-opt version N (...)`.
fn wasm_opt_version(version_output: &str) -> Option<String> {
    version_output
        .split(' ')
        .nth(2)
        .map(|number| format!("version_{number}"))
}

/// The first `name` on PATH.
fn which(name: &str) -> Option<PathBuf> {
    env::var_os("PATH").and_then(|paths| {
        env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

impl Tools {
    /// Installs what is missing; `browser` adds Chromium and ChromeDriver.
    pub fn ensure(browser: bool) -> Res<Tools> {
        Tools::ensure_alongside(browser, Vec::new())
    }

    /// As [`Tools::ensure`]; when a tool has to be compiled, the builds `alongside` (which
    /// need no tool) run at the same time, so a first run's builds fill both cores and its
    /// tools' long single-threaded steps. They are only a head start: a failed one is
    /// reported and left to the step that needs it. With every tool in place they do not run.
    pub fn ensure_alongside(browser: bool, alongside: Vec<Command>) -> Res<Tools> {
        ensure_wasm_target()?;
        // Cargo.lock must exist to read the wasm-bindgen version from it.
        if !root().join("Cargo.lock").exists() {
            run(cargo().args(["generate-lockfile"]))?;
        }
        let bin = cargo_bin();

        let trunk = bin.join("trunk");
        let trunk_ok = output(&trunk, &["--version"])
            .is_some_and(|v| v.starts_with(&format!("trunk {TRUNK_SERIES}.")));
        let mut installs = Vec::new();
        if !trunk_ok {
            installs.push(install("trunk", &format!("^{TRUNK_SERIES}"), "--locked"));
        }

        let wb_version = package_version("wasm-bindgen")?;
        let wasm_bindgen = bin.join("wasm-bindgen");
        let runner = bin.join("wasm-bindgen-test-runner");
        let wb_ok = output(&wasm_bindgen, &["--version"])
            .is_some_and(|v| v == format!("wasm-bindgen {wb_version}"))
            && runner.is_file();
        if !wb_ok {
            // `--locked` does not build here for this crate; the version pin is exact.
            installs.push(install("wasm-bindgen-cli", &wb_version, "--force"));
        }
        if !installs.is_empty() {
            eprintln!("installing the tools (a few minutes, once)");
            run_together(installs, alongside)?;
        }

        let node_modules = npm_ci(&root())?;
        let wasm_opt = node_modules.join(".bin").join("wasm-opt");
        let wasm_opt_version = output(&wasm_opt, &["--version"])
            .and_then(|v| wasm_opt_version(&v))
            .ok_or("wasm-opt (npm binaryen) does not run")?;

        // What plain `trunk serve` / `trunk build` need beyond the tools on PATH.
        check_trunk_pins(&wb_version, &wasm_opt_version)?;
        link_wasm_opt(&wasm_opt, &wasm_opt_version)?;
        // Trunk.toml's watch ignore list names the app's output directory, and Trunk refuses
        // an ignore path that does not exist.
        let app_out = app_out_dir();
        std::fs::create_dir_all(&app_out).map_err(|e| format!("{}: {e}", app_out.display()))?;

        let (chromium, chromedriver) = if browser {
            ensure_browser()?
        } else {
            (PathBuf::new(), PathBuf::new())
        };
        Ok(Tools {
            trunk,
            wasm_bindgen,
            wasm_opt,
            node_modules,
            chromium,
            chromedriver,
        })
    }

    /// Sets PATH (the tools first) and the variables wasm-bindgen-test-runner reads.
    pub fn with_env<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        let mut paths = vec![cargo_bin(), self.node_modules.join(".bin")];
        if let Some(p) = env::var_os("PATH") {
            paths.extend(env::split_paths(&p));
        }
        cmd.env("PATH", env::join_paths(paths).unwrap_or_default());
        if !self.chromedriver.as_os_str().is_empty() {
            cmd.env("CHROMEDRIVER", &self.chromedriver)
                .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
        }
        cmd
    }

    /// `trunk` as a developer runs it: from a clean environment whose PATH is `~/.cargo/bin`
    /// and the system directories only, no `TRUNK_*` variables, no `--offline` flag
    /// (Trunk.toml sets offline). Only the user's home, the Rust installation's locations
    /// and `CARGO_TARGET_DIR` carry over.
    pub fn developer_trunk(&self) -> Command {
        let mut cmd = Command::new(&self.trunk);
        developer_env(&mut cmd);
        cmd
    }
}

/// The environment [`Tools::developer_trunk`] gives Trunk, and so the cargo builds Trunk
/// starts: a clean one whose PATH is `~/.cargo/bin` and the system directories.
pub fn developer_env(cmd: &mut Command) -> &mut Command {
    cmd.env_clear();
    for name in [
        "HOME",
        "USER",
        "LANG",
        "TERM",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "CARGO_TARGET_DIR",
    ] {
        if let Some(value) = env::var_os(name) {
            cmd.env(name, value);
        }
    }
    let mut paths = vec![cargo_bin()];
    paths.extend(SYSTEM_PATH.iter().map(PathBuf::from));
    cmd.env("PATH", env::join_paths(paths).unwrap_or_default())
}

/// The PATH of a login shell on Debian, without anything a user added.
const SYSTEM_PATH: &[&str] = &[
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
];

/// `cargo install <krate> --version <version> <flag>`, built for a quick build rather than a
/// quick tool: the tools run for seconds in each build of the app, while their default
/// release builds (fat LTO, one codegen unit, TLS stacks) took 15 minutes on this kind of
/// 2-core machine before the app could start building. So no optimisation, no LTO, many codegen
/// units, no debug info, and only the features used: no TLS (Trunk.toml keeps Trunk offline,
/// and wasm-bindgen-test-runner talks to a local ChromeDriver over plain HTTP) and no update
/// check. The profile goes in as `--config`, which overrides the crate's own `[profile]`.
fn install(krate: &str, version: &str, flag: &str) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.args(["install", krate, "--version", version, flag]);
    cmd.arg("--no-default-features");
    for setting in QUICK_BUILD {
        cmd.args(["--config", setting]);
    }
    cmd
}

/// The profile the tools are compiled with (see [`install`]).
const QUICK_BUILD: &[&str] = &[
    "profile.release.opt-level=0",
    "profile.release.lto=false",
    "profile.release.codegen-units=256",
    "profile.release.debug=0",
];

/// Runs `needed` and `alongside` at once and waits for all of them; fails when one of
/// `needed` failed. A failed `alongside` command is only reported.
fn run_together(needed: Vec<Command>, alongside: Vec<Command>) -> Res {
    let mut children = Vec::new();
    let mut failed = Vec::new();
    let all = needed.into_iter().map(|c| (c, true));
    for (mut cmd, is_needed) in all.chain(alongside.into_iter().map(|c| (c, false))) {
        let shown = format!("{cmd:?}").replace('"', "");
        eprintln!("\n$ {shown} &");
        match cmd.current_dir_if_unset().spawn() {
            Ok(child) => children.push((shown, is_needed, child)),
            Err(e) => failed.push((is_needed, format!("cannot start {shown}: {e}"))),
        }
    }
    for (shown, is_needed, mut child) in children {
        match child.wait() {
            Ok(status) if status.success() => {}
            Ok(status) => failed.push((is_needed, format!("`{shown}` failed ({status})"))),
            Err(e) => failed.push((is_needed, format!("`{shown}`: {e}"))),
        }
    }
    let mut errors = Vec::new();
    for (is_needed, message) in failed {
        if is_needed {
            errors.push(message);
        } else {
            eprintln!("(a head start failed; its step builds it again: {message})");
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// Adds the wasm32 target with rustup unless it is installed.
fn ensure_wasm_target() -> Res {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if installed {
        Ok(())
    } else {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
    }
}

/// True when this process runs as root.
pub fn is_root() -> bool {
    output(Path::new("id"), &["-u"]).is_some_and(|u| u == "0")
}

/// `apt-get update` and `apt-get install -y <packages>` from Debian (through sudo unless root).
pub fn apt_install(packages: &[&str]) -> Res {
    let as_root = is_root();
    let apt = |args: &[&str]| {
        let mut cmd = if as_root {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("apt-get");
            c
        };
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        run(&mut cmd)
    };
    apt(&["update"])?;
    apt(&[&["install", "-y"][..], packages].concat())
}

/// Chromium and ChromeDriver from PATH, installed from Debian when missing.
fn ensure_browser() -> Res<(PathBuf, PathBuf)> {
    if let (Some(c), Some(d)) = (which("chromium"), which("chromedriver")) {
        return Ok((c, d));
    }
    eprintln!("installing Chromium and ChromeDriver from Debian");
    apt_install(&["chromium", "chromium-driver"])?;
    match (which("chromium"), which("chromedriver")) {
        (Some(c), Some(d)) => Ok((c, d)),
        _ => Err("chromium / chromedriver not found after installing".into()),
    }
}

/// `npm ci` in `dir` (its `package.json` and `package-lock.json`) unless its `node_modules` is
/// as new as the lock file already; returns that `node_modules`.
pub fn npm_ci(dir: &Path) -> Res<PathBuf> {
    npm_setup(dir, "ci")
}

/// As [`npm_ci`], with `npm install` from the lock file. For `tests/`: its lock was once written
/// without the other platforms' optional packages of Deno, which `npm ci` refuses as out of
/// sync; `npm install` installs the locked versions either way. The committed lock lists every
/// platform's packages, so `npm install` leaves it as it is (a test run leaves no change).
pub fn npm_install(dir: &Path) -> Res<PathBuf> {
    npm_setup(dir, "install")
}

/// `npm <command>` in `dir` unless its `node_modules` is as new as its lock file.
fn npm_setup(dir: &Path, command: &str) -> Res<PathBuf> {
    let node_modules = dir.join("node_modules");
    let stamp = node_modules.join(".package-lock.json");
    let lock = dir.join("package-lock.json");
    let fresh = match (stamp.metadata(), lock.metadata()) {
        (Ok(s), Ok(l)) => s.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    if !fresh {
        run(Command::new("npm")
            .args([command, "--no-audit", "--no-fund"])
            .current_dir(dir))?;
    }
    Ok(node_modules)
}

#[cfg(test)]
mod tests {
    use super::{package_version, wasm_opt_version, TrunkConfig};
    use crate::root;

    #[test]
    fn trunk_toml_pins_the_locked_wasm_bindgen_and_the_npm_binaryen() {
        let text = std::fs::read_to_string(root().join("Trunk.toml")).unwrap();
        let config: TrunkConfig = toml::from_str(&text).unwrap();
        assert_eq!(
            config.tools.wasm_bindgen,
            package_version("wasm-bindgen").unwrap()
        );
        let package: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root().join("package.json")).unwrap())
                .unwrap();
        let binaryen = package["devDependencies"]["binaryen"].as_str().unwrap();
        let major = binaryen.split('.').next().unwrap();
        assert_eq!(config.tools.wasm_opt, format!("version_{major}"));
    }

    #[test]
    fn wasm_opt_versions_are_named_as_trunk_names_them() {
        assert_eq!(
            wasm_opt_version("wasm-opt version 132 (version_132)").as_deref(),
            Some("version_132")
        );
        assert_eq!(wasm_opt_version("wasm-opt"), None);
    }
}
