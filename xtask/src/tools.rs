//! Finding, and when missing installing, the tools the tasks need. Every step checks first
//! and installs only what is missing or at the wrong version, so running it again is cheap.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{root, run, Res};

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
    pub trunk: PathBuf,
    pub wasm_bindgen: PathBuf,
    pub wasm_bindgen_version: String,
    pub wasm_opt: PathBuf,
    pub wasm_opt_version: String,
    pub node_modules: PathBuf,
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

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

/// The version of `name` pinned in Cargo.lock.
fn locked_version(name: &str) -> Res<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{name}\"") {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    Err(format!("{name} not found in Cargo.lock"))
}

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
        ensure_wasm_target()?;
        // Cargo.lock must exist to read the wasm-bindgen version from it.
        if !root().join("Cargo.lock").exists() {
            run(
                Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                    .args(["generate-lockfile"]),
            )?;
        }
        let bin = cargo_bin();

        let trunk = bin.join("trunk");
        let trunk_ok = output(&trunk, &["--version"])
            .is_some_and(|v| v.starts_with(&format!("trunk {TRUNK_SERIES}.")));
        if !trunk_ok {
            eprintln!("installing trunk {TRUNK_SERIES}.x (takes about 10 minutes once)");
            run(Command::new("cargo").args([
                "install",
                "trunk",
                "--version",
                &format!("^{TRUNK_SERIES}"),
                "--locked",
            ]))?;
        }

        let wb_version = locked_version("wasm-bindgen")?;
        let wasm_bindgen = bin.join("wasm-bindgen");
        let runner = bin.join("wasm-bindgen-test-runner");
        let wb_ok = output(&wasm_bindgen, &["--version"])
            .is_some_and(|v| v == format!("wasm-bindgen {wb_version}"))
            && runner.is_file();
        if !wb_ok {
            // `--locked` does not build here for this crate; the version pin is exact.
            run(Command::new("cargo").args([
                "install",
                "wasm-bindgen-cli",
                "--version",
                &wb_version,
                "--force",
            ]))?;
        }

        let js = root();
        let node_modules = js.join("node_modules");
        let stamp = node_modules.join(".package-lock.json");
        let lock = js.join("package-lock.json");
        let fresh = match (stamp.metadata(), lock.metadata()) {
            (Ok(s), Ok(l)) => s.modified().ok() >= l.modified().ok(),
            _ => false,
        };
        if !fresh {
            run(Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&js))?;
        }
        let wasm_opt = node_modules.join(".bin").join("wasm-opt");
        let wasm_opt_version = output(&wasm_opt, &["--version"])
            .and_then(|v| v.split(' ').nth(2).map(|n| format!("version_{n}")))
            .ok_or("wasm-opt (npm binaryen) does not run")?;

        let (chromium, chromedriver) = if browser {
            ensure_browser()?
        } else {
            (PathBuf::new(), PathBuf::new())
        };
        Ok(Tools {
            trunk,
            wasm_bindgen,
            wasm_bindgen_version: wb_version,
            wasm_opt,
            wasm_opt_version,
            node_modules,
            chromium,
            chromedriver,
        })
    }

    /// Sets PATH and the variables Trunk and wasm-bindgen-test-runner read.
    pub fn with_env<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        let mut paths = vec![cargo_bin(), self.node_modules.join(".bin")];
        if let Some(p) = env::var_os("PATH") {
            paths.extend(env::split_paths(&p));
        }
        cmd.env("PATH", env::join_paths(paths).unwrap_or_default())
            .env("TRUNK_TOOLS_WASM_BINDGEN", &self.wasm_bindgen_version)
            .env("TRUNK_TOOLS_WASM_OPT", &self.wasm_opt_version)
            .env("TRUNK_SKIP_VERSION_CHECK", "true");
        if !self.chromedriver.as_os_str().is_empty() {
            cmd.env("CHROMEDRIVER", &self.chromedriver)
                .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
        }
        cmd
    }

    /// `trunk` with the environment that keeps it offline and on our tools.
    pub fn trunk(&self) -> Command {
        // Trunk.toml's watch ignore list names the app's output directory; it must exist.
        let _ = std::fs::create_dir_all(crate::app_wasm::out_dir());
        let mut cmd = Command::new(&self.trunk);
        self.with_env(&mut cmd);
        cmd
    }
}

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

fn ensure_browser() -> Res<(PathBuf, PathBuf)> {
    if let (Some(c), Some(d)) = (which("chromium"), which("chromedriver")) {
        return Ok((c, d));
    }
    eprintln!("installing Chromium and ChromeDriver from Debian");
    let as_root = output(Path::new("id"), &["-u"]).is_some_and(|u| u == "0");
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
    apt(&["install", "-y", "chromium", "chromium-driver"])?;
    match (which("chromium"), which("chromedriver")) {
        (Some(c), Some(d)) => Ok((c, d)),
        _ => Err("chromium / chromedriver not found after installing".into()),
    }
}
