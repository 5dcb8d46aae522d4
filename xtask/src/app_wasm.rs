//! `cargo xtask app-wasm`: the app's wasm, split into one chunk per page.
//!
//! Trunk runs this as its `pre_build` hook (Trunk.toml) and copies the output directory into
//! `dist/app/` (index.html). Trunk 0.21 cannot split a wasm (trunk-rs/trunk#1022), so the
//! app's build runs here instead of in Trunk's `rel="rust"` pipeline:
//!
//! 1. `cargo build` of the `app` binary for wasm32 (app/build.rs keeps the relocations);
//! 2. wasm-split cuts it at the pages declared with `routes::page!` (the mechanism of Leptos's
//!    `#[lazy_route]`): a main module, one module per page, shared chunks, and the loader
//!    `__wasm_split.js` that fetches a page's modules the first time the page opens;
//! 3. wasm-bindgen on the main module (keeping the exports the page modules link against);
//! 4. wasm-opt on every module (release builds);
//! 5. `boot.js`, the module script index.html loads.
//!
//! The cargo build has its own target directory (`target/app-wasm`). Trunk's own pipeline
//! builds the demo worker (`sandbox`, feature `worker`) in the default one, and the two builds
//! unify shared dependencies (web-sys, futures-util, …) with different features. In one
//! target directory cargo then finds `serpkit` and `sandbox` stale after every build of the
//! other, so each Trunk build compiled them twice and the app again (about 2 minutes of every
//! `trunk serve` and `cargo xtask serve`, even with nothing changed).
//!
//! Steps 2–5 are skipped when the cargo build gave the same wasm as the last run that wrote
//! [`app_out_dir`] (a stamp records it), as after a change to the CSS or with nothing
//! changed: splitting and optimizing every module takes longer than a fresh cargo build. The
//! stamp is `target/web/app.stamp`, beside the directory Trunk copies, so it never ships.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use crate::tools::{app_out_dir, Tools};
use crate::{cargo, run, Res};

/// Builds the split app into [`app_out_dir`]. `release` as Trunk's profile (its hooks get
/// `TRUNK_PROFILE`); without Trunk, release.
pub fn app_wasm(tools: &Tools) -> Res {
    let release = env::var("TRUNK_PROFILE").map_or(true, |p| p == "release");
    run(&mut cargo_build(release))?;
    let input = target_dir()
        .join(WASM)
        .join(if release { "release" } else { "debug" })
        .join("app.wasm");
    let bytes = fs::read(&input).map_err(|e| format!("{}: {e}", input.display()))?;

    let out = app_out_dir();
    let stamp = stamp(&bytes, release);
    let stamp_file = out.with_extension("stamp");
    if fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) && out.join("boot.js").exists() {
        eprintln!("app-wasm: {} is up to date", out.display());
        return Ok(());
    }
    // Gone until this run has written everything: an interrupted run is redone by the next.
    crate::remove_file_if_present(&stamp_file)?;
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    // The main module goes to wasm-bindgen, whose output (app.js, app_bg.wasm) is what ships.
    let split_main = input.with_file_name("app_split.wasm");
    let split = wasm_split_cli_support::transform({
        let mut opts = wasm_split_cli_support::Options::new(&bytes);
        opts.output_dir = &out;
        opts.main_out_path = &split_main;
        opts.main_module = "./app.js";
        opts.target.web();
        opts
    })
    .map_err(|e| format!("wasm-split of {}: {e:#}", input.display()))?;

    run(Command::new(&tools.wasm_bindgen)
        .arg(&split_main)
        .args(["--target", "web", "--keep-lld-exports", "--no-typescript"])
        .args(["--out-name", "app", "--out-dir"])
        .arg(&out))?;

    let mut modules = split.split_modules;
    modules.push(out.join("app_bg.wasm"));
    if release {
        for module in &modules {
            optimize(tools, module)?;
        }
    }
    fs::write(
        out.join("boot.js"),
        "import init from './app.js';\nawait init();\n",
    )
    .map_err(|e| format!("boot.js: {e}"))?;
    fs::write(&stamp_file, &stamp).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    eprintln!(
        "app-wasm: {} wasm modules in {}",
        modules.len(),
        out.display()
    );
    Ok(())
}

/// The target the app is built for.
const WASM: &str = "wasm32-unknown-unknown";

/// The app's own target directory (see the module's doc).
fn target_dir() -> PathBuf {
    crate::target_dir().join("app-wasm")
}

/// Step 1, the cargo build of the app's wasm (`release` or debug). `cargo xtask serve` also
/// starts it early, while a first run compiles the tools: this step then finds it done.
pub fn cargo_build(release: bool) -> Command {
    let mut build = cargo();
    build.args(["build", "-p", "app", "--bin", "app", "--target", WASM]);
    build.arg("--target-dir").arg(target_dir());
    if release {
        build.arg("--release");
    }
    build
}

/// What the output was made from: the cargo build's wasm, the profile, and this xtask
/// binary (a change to the steps here rebuilds it, so its time stamp changes).
fn stamp(wasm: &[u8], release: bool) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    wasm.hash(&mut h);
    let exe = env::current_exe()
        .and_then(fs::metadata)
        .and_then(|m| m.modified())
        .ok();
    format!(
        "wasm {:016x} ({} bytes), {}, xtask {exe:?}\n",
        h.finish(),
        wasm.len(),
        if release { "release" } else { "debug" }
    )
}

/// `wasm-opt -Oz` in place (what Trunk's `data-wasm-opt="z"` ran before the split). The
/// `target_features` section is for linkers only (no runtime reads it); every chunk carries
/// one, and a page's first load fetches a few dozen chunks.
fn optimize(tools: &Tools, module: &Path) -> Res {
    run(Command::new(&tools.wasm_opt)
        .args([
            "-Oz",
            "--converge",
            "--low-memory-unused",
            "--strip-debug",
            "--strip-producers",
            "--strip-target-features",
        ])
        .arg(module)
        .arg("-o")
        .arg(module))
}
