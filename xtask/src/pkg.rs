//! `cargo xtask pkg`: the JS package in `pkg/` (wasm-bindgen `--target web`, wasm-opt, the
//! plain-JS parts and `package.json`) and its `npm pack` tarball in `target/npm/`.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

use crate::tools::{self, Tools};
use crate::{cargo, root, run, target_dir, Res};

/// The absolute source paths a build of the package could embed, and their short stand-ins:
/// the standard library's sources (`rust-src`) and the crates of the Cargo home.
fn remapped_paths() -> Res<Vec<(String, &'static str)>> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot start {rustc}: {e}"))?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let cargo_home = std::env::var("CARGO_HOME")
        .unwrap_or_else(|_| format!("{}/.cargo", std::env::var("HOME").unwrap_or_default()));
    let registry = format!("{cargo_home}/registry/src");
    let mut paths = vec![(registry.clone(), "/crates")];
    // Each registry's own directory (`index.crates.io-<hash>`) goes too: the last matching
    // prefix is the one applied, and the shipped file holds about ten such paths.
    if let Ok(dirs) = std::fs::read_dir(&registry) {
        for dir in dirs.flatten() {
            paths.push((dir.path().to_string_lossy().into_owned(), "/crates"));
        }
    }
    if !sysroot.is_empty() {
        paths.push((format!("{sysroot}/lib/rustlib/src/rust"), "/rust"));
    }
    // A path with a quote or backslash would not survive the TOML string: left as it is.
    paths.retain(|(from, _)| !from.contains(['"', '\\']));
    Ok(paths)
}

/// Builds the JS package into `pkg/` (wasm-bindgen `--target web`, then wasm-opt).
pub fn pkg(tools: &Tools) -> Res {
    let wasm = "wasm32-unknown-unknown";
    // Size first (the `pkg` profile: "z") and LLVM's inline threshold at 25 for this build only:
    // the smallest wasm that keeps the validator's speed (figures: ARCHITECTURE.md, Decisions).
    // The source paths kept for panic locations are remapped to short machine-independent
    // ones: with the `rust-src` component installed, rustc writes the standard library's
    // local path (`/root/.rustup/toolchains/…`) instead of `/rustc/<commit>`, which made the
    // same sources 100 bytes gzip larger on one machine than on another, and put the build
    // machine's home directory into the shipped file.
    let flags = format!(
        r#"target.wasm32-unknown-unknown.rustflags=["-C", "llvm-args=-inline-threshold=25", {}]"#,
        remapped_paths()?
            .iter()
            .map(|(from, to)| format!(r#""--remap-path-prefix={from}={to}""#))
            .collect::<Vec<_>>()
            .join(", ")
    );
    run(cargo().args([
        "build",
        "--config",
        &flags,
        "--profile",
        "pkg",
        "--lib",
        "--target",
        wasm,
        "-p",
        "serpkit",
        "--no-default-features",
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
    minify_names(tools, &wasm_file, &out)?;
    // The record caches are plain JS (they cost the wasm nothing), exported from the entry;
    // so is the orchestration of calls with a cache (`record_client.js`: the core's plan
    // and merge are sync wasm steps, the cache and the send are awaited in JS).
    // `operations()` and `jsonSchema(op)` are static data written by the core natively
    // (examples/pkg_data.rs) into static_data.js, with static_api.js around them. The same
    // program writes validators.js: the JS validator of every operation for parsed values,
    // generated from the rule declarations, run by validate_value.js;
    // static_api.js's `validateResponse` picks it for a parsed value and the wasm engine for
    // text and bytes.
    run(generator("pkg_data").arg(&out))?;
    // The operations' TypeScript types, from the same declarations (examples/pkg_types.rs):
    // `serpkit_types.d.ts`, imported by the hand-written API types.
    run(generator("pkg_types").arg(&out))?;
    for file in HAND_WRITTEN {
        std::fs::copy(root().join("src/js").join(file), out.join(file))
            .map_err(|e| format!("pkg/{file}: {e}"))?;
    }
    let entry = out.join("serpkit.js");
    let js = std::fs::read_to_string(&entry).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    let js = not_ready_glue(&js)?;
    let js = checked_init(&js)?;
    // The exported `Client` is the wasm class with its `integers` option read in JS
    // (exact_json.js: `data` is made there), so the generated class is not exported itself.
    let js = replace_once(
        &js,
        "export class Client {",
        "class Client {",
        "pkg/serpkit.js",
    )?;
    // `estimateCost` leaves through static_api.js, which makes its errors `SerpkitError`s.
    let mut js = replace_once(
        &js,
        "export function estimateCost(",
        "function estimateCost(",
        "pkg/serpkit.js",
    )?;
    js.push_str("\nexport { MemoryRecordCache, IndexedDbRecordCache } from './record_cache.js';\n");
    // Nothing runs at load but declarations (package.json `sideEffects` lists only the
    // runtime entries): the calls that make the exported `estimateCost` and `Client` are
    // marked pure, so a bundle drops what it does not use (BENCHMARKS.md, "JS package",
    // gzip bytes of one import per entry).
    js.push_str(
        "export { operations, jsonSchema, validateResponse, parseResponse, responseSchema } from './static_api.js';\n\
         import { checkedEstimate } from './static_api.js';\n\
         const estimateCostChecked = /* @__PURE__ */ checkedEstimate(estimateCost);\n\
         export { estimateCostChecked as estimateCost };\n\
         export { SerpkitError, isSerpkitError } from './client_options.js';\n",
    );
    js.push_str(
        "import { makeClient } from './record_client.js';\n\
         const ClientWithIntegers = /* @__PURE__ */ makeClient(Client, estimateCost);\n\
         export { ClientWithIntegers as Client };\n\
         export { Account, stringify } from './exact_json.js';\n",
    );
    std::fs::write(&entry, js).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    api_types(&out.join("serpkit.d.ts"))?;
    let manifest = PackageManifest::new(tools::package_version("serpkit")?);
    let mut text =
        serde_json::to_string_pretty(&manifest).map_err(|e| format!("pkg/package.json: {e}"))?;
    text.push('\n');
    std::fs::write(out.join("package.json"), text).map_err(|e| format!("pkg/package.json: {e}"))?;
    package_readme(&out)?;
    for file in LICENSES {
        std::fs::copy(root().join(file), out.join(file)).map_err(|e| format!("pkg/{file}: {e}"))?;
    }
    pack(&out)
}

/// The license files the package carries (package.json `license`: "MIT OR Apache-2.0").
const LICENSES: [&str; 2] = ["LICENSE-MIT", "LICENSE-APACHE"];

/// `pkg/README.md`, the page npm shows: the repository README's "JS package" section (its one
/// place), its headings raised a level, under the package's name and description.
fn package_readme(out: &Path) -> Res {
    let readme =
        std::fs::read_to_string(root().join("README.md")).map_err(|e| format!("README.md: {e}"))?;
    let section = readme_section(&readme, "## JS package")
        .ok_or("README.md: expected a `## JS package` section")?;
    let body: String = section
        .lines()
        .skip(1)
        .map(|line| match line.strip_prefix("###") {
            Some(rest) if rest.starts_with([' ', '#']) => format!("##{rest}\n"),
            _ => format!("{line}\n"),
        })
        .collect();
    let text = format!(
        "# serpkit\n\n{}.\n\nLicensed under MIT or Apache-2.0 (`LICENSE-MIT`, `LICENSE-APACHE`).\n{body}",
        PackageManifest::new(String::new()).description
    );
    std::fs::write(out.join("README.md"), text).map_err(|e| format!("pkg/README.md: {e}"))
}

/// The section of `text` under the `heading` line, to the next heading of its level or a
/// higher one (fenced code aside).
fn readme_section<'a>(text: &'a str, heading: &str) -> Option<&'a str> {
    let start = text.find(&format!("\n{heading}\n"))? + 1;
    let level = heading.split(' ').next()?.len();
    let mut fenced = false;
    let mut lines = text[start..].split_inclusive('\n');
    let mut at = start + lines.next()?.len();
    for line in lines {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !fenced && hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
            return Some(&text[start..at]);
        }
        at += line.len();
    }
    Some(&text[start..])
}

/// `npm pack` of `pkg/` into `target/npm/` (`serpkit-<version>.tgz`): the tarball a user
/// installs with `npm install <tarball>` (the README's quick start; tests/js/tarball.test.mjs
/// installs it into an empty folder). npm writes it without running scripts (there are none).
fn pack(pkg: &Path) -> Res {
    let dir = target_dir().join("npm");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    run(Command::new("npm")
        .args(["pack", "--ignore-scripts", "--silent", "--pack-destination"])
        .arg(&dir)
        .current_dir(pkg))
}

/// The glue with the wasm's exports stood in for until `init()` or `initSync()` by
/// `notReady()` (serpkit_error.js), whose every use throws a `SerpkitError`
/// `not_initialized`: wasm-bindgen's glue declares `let wasm;` (undefined until it is
/// instantiated), so an export called first
/// threw a bare `TypeError` (reading a property of `undefined`). Its checks of whether it is
/// initialised compare with the stand-in instead.
fn not_ready_glue(js: &str) -> Res<String> {
    let file = "pkg/serpkit.js";
    let js = replace_once(
        js,
        "\nlet wasmModule, wasmInstance, wasm;\n",
        "\nconst __wasmNotReady = /* @__PURE__ */ __notReady();\nlet wasmModule, wasmInstance, wasm = __wasmNotReady;\n",
        file,
    )?;
    let check = "if (wasm !== undefined) return wasm;";
    if !js.contains(check) {
        return Err(format!("{file}: expected `{check}` in init and initSync"));
    }
    let js = js.replace(check, "if (wasm !== __wasmNotReady) return wasm;");
    if js.contains("wasm === undefined") || js.contains("wasm !== undefined") {
        return Err(format!("{file}: another check of `wasm` against undefined"));
    }
    Ok(format!(
        "import {{ notReady as __notReady }} from './serpkit_error.js';\n{js}"
    ))
}

/// The glue with `init()` and `initSync()` failing as a `SerpkitError` `init_failed`
/// (`initFailed`, serpkit_error.js; its `cause` what the platform threw): wasm-bindgen's let a
/// missing `serpkit_bg.wasm` reject with a bare `TypeError` or `CompileError`.
fn checked_init(js: &str) -> Res<String> {
    let file = "pkg/serpkit.js";
    let exports = [
        "export { initSync };\nexport default __wbg_init;",
        "export { initSync, __wbg_init as default };",
    ];
    let Some(found) = exports.iter().find(|e| js.matches(*e).count() == 1) else {
        return Err(format!("{file}: expected one of {exports:?}"));
    };
    let checked = "\
import { initFailed as __initFailed } from './serpkit_error.js';
function initSyncChecked(module) {
    try {
        return initSync(module);
    } catch (error) {
        throw __initFailed(error);
    }
}
async function initChecked(module_or_path) {
    try {
        return await __wbg_init(module_or_path);
    } catch (error) {
        throw __initFailed(error);
    }
}
export { initSyncChecked as initSync, initChecked as default };";
    Ok(js.replacen(found, checked, 1))
}

/// `cargo run --quiet --example <name> -p serpkit --`, its arguments to follow: one of the
/// core's native programs that write the package's generated files (`examples/pkg_data.rs`,
/// `examples/pkg_types.rs`).
pub fn generator(name: &str) -> Command {
    let mut command = cargo();
    command.args(["run", "--quiet", "--example", name, "-p", "serpkit", "--"]);
    command
}

/// Shortens the wasm's import, export and import-module names (wasm-bindgen's imports are
/// named `__wbg_<name>_<16 hex digits>`: 2 kB of the gzipped wasm) with Binaryen's
/// `--minify-imports-and-exports-and-modules`, and renames them the same way in the JS glue
/// (`serpkit.js`: the import object's keys and module, the `wasm.<export>` uses) and in the
/// wasm's type stub (`serpkit_bg.wasm.d.ts`). Only the glue uses these names.
fn minify_names(tools: &Tools, wasm_file: &Path, out: &Path) -> Res {
    let mut command = Command::new(&tools.wasm_opt);
    command
        // The features of Rust's wasm32 target (the optimised wasm has no section naming
        // them any more).
        .args([
            "--enable-bulk-memory",
            "--enable-multivalue",
            "--enable-mutable-globals",
            "--enable-nontrapping-float-to-int",
            "--enable-reference-types",
            "--enable-sign-ext",
            "--minify-imports-and-exports-and-modules",
        ])
        .arg(wasm_file)
        .arg("-o")
        .arg(wasm_file);
    eprintln!("\n$ {}", format!("{command:?}").replace('"', ""));
    let output = command
        .output()
        .map_err(|e| format!("cannot start wasm-opt: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "wasm-opt --minify-imports-and-exports-and-modules failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let map: NameMap = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("wasm-opt's map of minified names: {e}"))?;
    let glue = out.join("serpkit.js");
    let mut js = std::fs::read_to_string(&glue).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    let stub = out.join("serpkit_bg.wasm.d.ts");
    let mut types =
        std::fs::read_to_string(&stub).map_err(|e| format!("pkg/serpkit_bg.wasm.d.ts: {e}"))?;
    for (module, name, short) in &map.imports {
        if module != "./serpkit_bg.js" {
            return Err(format!("an import from `{module}`: the glue has none"));
        }
        js = replace_once(
            &js,
            &format!(" {name}: function("),
            &format!(" {short}: function("),
            "pkg/serpkit.js",
        )?;
    }
    // The pass names the one module `a` (it does not print that).
    js = replace_once(
        &js,
        "\"./serpkit_bg.js\": import0",
        "\"a\": import0",
        "pkg/serpkit.js",
    )?;
    for (name, short) in &map.exports {
        js = replace_word(&js, &format!("wasm.{name}"), &format!("wasm.{short}"));
        types = replace_word(
            &types,
            &format!("export const {name}:"),
            &format!("export const {short}:"),
        );
    }
    std::fs::write(&glue, js).map_err(|e| format!("pkg/serpkit.js: {e}"))?;
    std::fs::write(&stub, types).map_err(|e| format!("pkg/serpkit_bg.wasm.d.ts: {e}"))
}

/// What `--minify-imports-and-exports-and-modules` prints: `imports` as (module, name, new
/// name), `exports` as (name, new name).
#[derive(serde::Deserialize)]
struct NameMap {
    imports: Vec<(String, String, String)>,
    exports: Vec<(String, String)>,
}

/// `text` with every `from` that is not followed by an identifier character replaced by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let after = &rest[at + from.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        out.push_str(&rest[..at]);
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What wasm-bindgen declares, made to fit the hand-written API types (wasm-bindgen declares
/// no generic): the `Client` class generic over its `integers` and `validation` modes, as the
/// `interface Client<I, V>` it merges with (its constructor's `ClientOptions<I, V>` and its
/// methods' `I` name those parameters); `estimateCost` declared only by the API types, typed by the operation (its
/// request follows from the name), so wasm-bindgen's `(operation: string, ...)` goes.
fn api_types(types: &Path) -> Res {
    let file = "pkg/serpkit.d.ts";
    let text = std::fs::read_to_string(types).map_err(|e| format!("{file}: {e}"))?;
    let text = replace_once(
        &text,
        "export class Client {",
        r#"export class Client<I extends IntegersMode = "number", V extends ValidationMode = "warn"> {"#,
        file,
    )?;
    let text = drop_declaration(
        &text,
        "export function estimateCost(operation: string, request: object | string): CostEstimate;\n",
        file,
    )?;
    // wasm-bindgen's `init` types (from `export type InitInput` to the end) name DOM types
    // (`RequestInfo`, `BufferSource`, `WebAssembly.*`) that Node's types alone lack, list the
    // wasm's minified exports, and document wasm-bindgen rather than the package.
    let Some(at) = text.find("export type InitInput") else {
        return Err(format!(
            "{file}: expected wasm-bindgen's `export type InitInput`"
        ));
    };
    let text = format!("{}{INIT_TYPES}", &text[..at]);
    std::fs::write(types, text).map_err(|e| format!("{file}: {e}"))
}

/// The package's types of `init` and `initSync` (in place of wasm-bindgen's): every DOM name
/// with a fallback, so they compile with Node's types alone (no `lib: ["DOM"]`).
/// (`WasmModule` and `WasmResponse` are the API types', serpkit.d.ts.)
const INIT_TYPES: &str = r#"/** What `initSync` loads: the wasm's bytes or its compiled module. */
export type SyncInitInput = ArrayBuffer | ArrayBufferView | WasmModule;
/** What `init` loads: a URL (a string or `URL`), a `Response` of it, its bytes or compiled module. */
export type InitInput = string | URL | WasmResponse | SyncInitInput;

/**
 * Loads the package's WebAssembly: needed once in browsers and bundlers (the `serpkit.js`
 * entry), before `new Client`, `estimateCost` or `validateResponse` of text; Node, Deno, Bun
 * and Workers load it on import (there `init()` does nothing). Without an argument it fetches
 * `serpkit_bg.wasm` beside `serpkit.js` (`new URL("serpkit_bg.wasm", import.meta.url)`,
 * which Vite and webpack emit as an asset); elsewhere pass `{ module_or_path }`: its URL, a
 * `Response`, the bytes or a compiled module. Rejects with a `SerpkitError` `init_failed`
 * (its `cause` what the platform threw) when the wasm cannot be loaded.
 *
 * @example
 * import init, { Client } from "serpkit";
 * await init();                                            // or init({ module_or_path: "/assets/serpkit_bg.wasm" })
 * const client = new Client({ key, baseUrl });
 */
export default function init(module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<unknown>;

/**
 * `init` without a fetch: from the wasm's bytes or compiled module, at once. Throws a
 * `SerpkitError` `init_failed` for bytes that are not the package's wasm.
 *
 * @example
 * import { initSync } from "serpkit";
 * initSync({ module: wasmBytes });                         // an ArrayBuffer of serpkit_bg.wasm
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): unknown;
"#;

/// `text` without its one `declaration` line and the doc comment right above it.
fn drop_declaration(text: &str, declaration: &str, file: &str) -> Res<String> {
    let at = replace_once(text, declaration, "\u{0}", file)?;
    let (before, after) = at.split_once('\u{0}').unwrap_or((&at, ""));
    let before = match before.strip_suffix(" */\n") {
        Some(doc) => doc.rfind("/**").map_or(before, |start| &before[..start]),
        None => before,
    };
    Ok(format!("{before}{after}"))
}

/// `text` with its one `from` replaced by `to` (an error naming `file` when `from` is not
/// there exactly once: the generated code changed shape).
fn replace_once(text: &str, from: &str, to: &str, file: &str) -> Res<String> {
    if text.matches(from).count() != 1 {
        return Err(format!("{file}: expected one `{from}` to replace"));
    }
    Ok(text.replacen(from, to, 1))
}

/// `pkg/package.json` (fields in this order, as npm writes them).
#[derive(Serialize)]
struct PackageManifest {
    name: &'static str,
    /// The `serpkit` crate's version (`cargo metadata`).
    version: String,
    description: &'static str,
    #[serde(rename = "type")]
    module_type: &'static str,
    main: &'static str,
    module: &'static str,
    types: &'static str,
    exports: Exports,
    files: [&'static str; 21],
    /// The modules a bundler may not drop unused: the runtime entries instantiate the wasm.
    /// Every other module only declares (the client's methods are installed when its class
    /// is made, `makeClient` in exact_json.js, not at load), so an unused one can go.
    #[serde(rename = "sideEffects")]
    side_effects: [&'static str; 2],
    /// The runtimes the package supports (Node ≥ 20: the Node entry's `initSync`, `fetch`).
    engines: Engines,
    license: &'static str,
}

/// `engines` of `package.json`.
#[derive(Serialize)]
struct Engines {
    node: &'static str,
}

/// The package's hand-written modules (and the schema entry's types), copied from `src/js/` (the
/// rest is generated).
const HAND_WRITTEN: [&str; 11] = [
    "serpkit_error.js",
    "client_options.js",
    "schema.js",
    "schema.d.ts",
    "record_cache.js",
    "record_client.js",
    "exact_json.js",
    "static_api.js",
    "validate_value.js",
    "serpkit.node.js",
    "serpkit.workerd.js",
];

/// What the package publishes (package.json `files`; the size check and the `npm pack` test
/// read it there): the wasm-bindgen output, the hand-written modules and the generated data.
const FILES: [&str; 21] = [
    "README.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
    "serpkit.js",
    "schema.js",
    "schema.d.ts",
    "serpkit_error.js",
    "serpkit.node.js",
    "serpkit.workerd.js",
    "client_options.js",
    "record_cache.js",
    "record_client.js",
    "exact_json.js",
    "static_api.js",
    "static_data.js",
    "validators.js",
    "validate_value.js",
    "serpkit.d.ts",
    "serpkit_types.d.ts",
    "serpkit_bg.wasm",
    "serpkit_bg.wasm.d.ts",
];

/// The package's `exports` map: the entry, the schema-only entry (no wasm), the wasm itself
/// and `package.json` (tools read it: bundlers' version checks, `createRequire`).
#[derive(Serialize)]
struct Exports {
    #[serde(rename = ".")]
    entry: EntryExport,
    #[serde(rename = "./schema")]
    schema: SchemaExport,
    #[serde(rename = "./serpkit_bg.wasm")]
    wasm: &'static str,
    #[serde(rename = "./package.json")]
    manifest: &'static str,
}

/// `serpkit/schema`: plain JS in every runtime (no wasm, no condition needed).
#[derive(Serialize)]
struct SchemaExport {
    types: &'static str,
    default: &'static str,
}

/// The entry point's conditional exports: `types` first, `default` last, the runtimes that
/// load the wasm themselves between (no `init()` needed): Workers (`serpkit.workerd.js`,
/// the wasm imported as a module) and Node, Deno, Bun (`serpkit.node.js`, the wasm read from
/// the package).
#[derive(Serialize)]
struct EntryExport {
    types: &'static str,
    workerd: &'static str,
    node: &'static str,
    deno: &'static str,
    bun: &'static str,
    default: &'static str,
}

impl PackageManifest {
    fn new(version: String) -> PackageManifest {
        PackageManifest {
            name: "serpkit",
            version,
            description: "Typed calls, response validation and prices for the keyword, backlink and SERP data service (WebAssembly)",
            module_type: "module",
            main: "serpkit.js",
            module: "serpkit.js",
            types: "serpkit.d.ts",
            exports: Exports {
                entry: EntryExport {
                    types: "./serpkit.d.ts",
                    workerd: "./serpkit.workerd.js",
                    node: "./serpkit.node.js",
                    deno: "./serpkit.node.js",
                    bun: "./serpkit.node.js",
                    default: "./serpkit.js",
                },
                schema: SchemaExport {
                    types: "./schema.d.ts",
                    default: "./schema.js",
                },
                wasm: "./serpkit_bg.wasm",
                manifest: "./package.json",
            },
            files: FILES,
            side_effects: ["./serpkit.node.js", "./serpkit.workerd.js"],
            engines: Engines { node: ">=20" },
            license: "MIT OR Apache-2.0",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PackageManifest;

    #[test]
    fn package_json_is_the_documented_manifest() {
        let text = serde_json::to_string(&PackageManifest::new("1.2.3".into())).unwrap();
        assert_eq!(
            text,
            r#"{"name":"serpkit","version":"1.2.3","description":"Typed calls, response validation and prices for the keyword, backlink and SERP data service (WebAssembly)","type":"module","main":"serpkit.js","module":"serpkit.js","types":"serpkit.d.ts","exports":{".":{"types":"./serpkit.d.ts","workerd":"./serpkit.workerd.js","node":"./serpkit.node.js","deno":"./serpkit.node.js","bun":"./serpkit.node.js","default":"./serpkit.js"},"./schema":{"types":"./schema.d.ts","default":"./schema.js"},"./serpkit_bg.wasm":"./serpkit_bg.wasm","./package.json":"./package.json"},"files":["README.md","LICENSE-MIT","LICENSE-APACHE","serpkit.js","schema.js","schema.d.ts","serpkit_error.js","serpkit.node.js","serpkit.workerd.js","client_options.js","record_cache.js","record_client.js","exact_json.js","static_api.js","static_data.js","validators.js","validate_value.js","serpkit.d.ts","serpkit_types.d.ts","serpkit_bg.wasm","serpkit_bg.wasm.d.ts"],"sideEffects":["./serpkit.node.js","./serpkit.workerd.js"],"engines":{"node":">=20"},"license":"MIT OR Apache-2.0"}"#
        );
    }

    #[test]
    fn a_readme_section_runs_to_the_next_heading_of_its_level() {
        let text = "# t\n## A\na\n### B\n```sh\n# not a heading\n```\nb\n## C\nc\n";
        assert_eq!(
            super::readme_section(text, "## A"),
            Some("## A\na\n### B\n```sh\n# not a heading\n```\nb\n")
        );
        assert_eq!(super::readme_section(text, "## C"), Some("## C\nc\n"));
        assert_eq!(super::readme_section(text, "## D"), None);
    }

    #[test]
    fn a_declaration_goes_with_its_doc_comment() {
        let text = "a;\n/**\n * Doc.\n */\nexport function f(x: string): T;\nb;\n";
        let dropped = super::drop_declaration(text, "export function f(x: string): T;\n", "t");
        assert_eq!(dropped.unwrap(), "a;\nb;\n");
        assert!(super::drop_declaration(text, "export function g(): T;\n", "t").is_err());
    }
}
