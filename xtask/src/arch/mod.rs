//! `cargo xtask arch` (a stage of `cargo xtask test`): the architecture rules.
//!
//! - **Layers.** ARCHITECTURE.md's "Layers" section holds, in its first fenced block, one
//!   line per crate: the source directory, then its top-level modules from the bottom layer
//!   up, `<-` between layers and `,` between modules of one layer:
//!   `app/src/  paths, model <- store <- workspace`. A module may import modules of its own
//!   layer and below, never above; every top-level module must be listed. That block is the
//!   only copy of the table.
//! - **No cycles** between top-level modules of a crate.
//! - **Pages import no pages**: nothing under `app/src/routes/<page>` names another page.
//! - **No two files import each other** ([`pairs`]) in `src/`, `app/src/`, `sandbox/src/`,
//!   `server/src/`, `xtask/src/`, but the pairs of [`ALLOWED_FILE_PAIRS`].
//! - **No price written into the app** ([`prices`]): no dollar amount in a string literal of
//!   `app/src/` outside test code.
//! - **One page table** ([`page_table`]): every page under `app/src/routes/` has its line in
//!   the page list (`for_each_page!` in `app/src/paths.rs`) and each line its page; no
//!   `<Route>` is written by hand.
//! - **No function over [`lengths::MAX_FN_LINES`] lines** in `app/src/` ([`lengths`]), but
//!   those of [`LONG_FUNCTIONS_LEFT`].
//! - **No source file over [`MAX_LINES`] lines** in `src/`, `app/src/`, `sandbox/src/`,
//!   `server/src/`.
//!   Test files (`tests.rs`, `tests/`) and generated data (`@generated` in the first five
//!   lines) are left out; a test module inside a file counts, since the rule is about the
//!   file a reader opens (move long tests to a `tests.rs` beside it).
//!
//! Imports are read from the source text ([`source`]): `use` trees and inline paths
//! (`crate::api::enc(…)`) that start at `crate`, `$crate`, `super` or `self`; a name the
//! crate root re-exports (`crate::Operation`) counts as its module. The crate roots
//! (`lib.rs`, `main.rs`) and `bin/` (crates of their own) import freely. Test code is exempt:
//! `#[cfg(test)]` items, `tests.rs` files and `tests/` directories.

mod files;
mod lengths;
mod page_table;
mod pairs;
mod prices;
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::{root, Res};
use files::{is_test_file, module_path, read_sources, SourceFile, Violation};

/// Longest source file allowed, not counting test code (see [`count_lines`]).
pub const MAX_LINES: usize = 700;

/// The directories the line limit covers.
const LINE_LIMIT_DIRS: &[&str] = &["src", "app/src", "sandbox/src", "server/src"];

/// The directories the no-pairs rule covers: every crate's sources.
const PAIR_DIRS: &[&str] = &["src", "app/src", "sandbox/src", "server/src", "xtask/src"];

/// Files left importing each other for now (paths from the workspace root), each with why.
/// Every other pair fails the check; remove a line once its pair is gone.
const ALLOWED_FILE_PAIRS: &[(&str, &str)] = &[];

/// Functions of `app/src/` left over the length limit for now, each with why. Every other
/// one fails the check; remove a line once its function is split.
const LONG_FUNCTIONS_LEFT: &[(&str, &str)] = &[];

/// The directory the no-price-literal rule covers.
const PRICE_DIR: &str = "app/src";

/// The top-level module whose submodules are the app's pages (one per file or folder).
const PAGES: (&str, &str) = ("app/src", "routes");

/// A file that says it is generated (in its first lines) is data, not code to split.
const GENERATED_MARKER: &str = "@generated";

/// `cargo xtask arch`: every rule over the workspace; prints the violations and fails if
/// there is one.
pub fn check() -> Res {
    let root = root();
    let violations = workspace_violations(&root)?;
    if violations.is_empty() {
        eprintln!(
            "arch: layers, cycles, file pairs, pages, page table, prices, function and file sizes are as documented"
        );
        return Ok(());
    }
    for violation in &violations {
        eprintln!("{violation}");
    }
    Err(format!(
        "{} architecture violation(s) (rules: ARCHITECTURE.md, xtask/src/arch)",
        violations.len()
    ))
}

/// Every violation in the workspace at `root`.
fn workspace_violations(root: &Path) -> Res<Vec<Violation>> {
    let doc_path = root.join("ARCHITECTURE.md");
    let doc =
        std::fs::read_to_string(&doc_path).map_err(|e| format!("{}: {e}", doc_path.display()))?;
    let table = layer_table(&doc)?;
    let mut violations = Vec::new();
    for (dir, layers) in &table {
        let files = read_sources(&root.join(dir))?;
        let pages = (PAGES.0 == dir.trim_end_matches('/')).then_some(PAGES.1);
        violations.extend(
            crate_violations(&files, layers, pages)
                .into_iter()
                .map(|v| Violation {
                    at: format!("{}/{}", dir.trim_end_matches('/'), v.at),
                    message: v.message,
                }),
        );
    }
    for dir in PAIR_DIRS {
        let allowed: Vec<(&str, &str)> = ALLOWED_FILE_PAIRS
            .iter()
            .filter_map(|(a, b)| {
                let under = |path: &'static str| path.strip_prefix(dir)?.strip_prefix('/');
                Some((under(a)?, under(b)?))
            })
            .collect();
        let files = read_sources(&root.join(dir))?;
        violations.extend(
            pairs::file_pairs(&files, &allowed)
                .into_iter()
                .map(|v| Violation {
                    at: format!("{dir}/{}", v.at),
                    message: v.message,
                }),
        );
    }
    let app = read_sources(&root.join(PRICE_DIR))?;
    violations.extend(
        lengths::long_functions(&app, LONG_FUNCTIONS_LEFT)
            .into_iter()
            .map(|v| Violation {
                at: format!("{PRICE_DIR}/{}", v.at),
                message: v.message,
            }),
    );
    violations.extend(prices::price_literals(&app).into_iter().map(|v| Violation {
        at: format!("{PRICE_DIR}/{}", v.at),
        message: v.message,
    }));
    violations.extend(page_table::page_table(&app).into_iter().map(|v| Violation {
        at: format!("{}/{}", PAGES.0, v.at),
        message: v.message,
    }));
    for dir in LINE_LIMIT_DIRS {
        for file in read_sources(&root.join(dir))? {
            if let Some(message) = too_long(&file) {
                violations.push(Violation {
                    at: format!("{dir}/{}", file.path),
                    message,
                });
            }
        }
    }
    Ok(violations)
}

/// The layer table of ARCHITECTURE.md: per source directory, its layers from the bottom up.
fn layer_table(doc: &str) -> Res<Vec<(String, Vec<Vec<String>>)>> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .ok_or("ARCHITECTURE.md has no \"## Layers\" section")?;
    let mut fences = section.split("\n```").skip(1);
    let block = fences
        .next()
        .ok_or("ARCHITECTURE.md's Layers section has no fenced block")?;
    let mut table = Vec::new();
    // The fence's info string (`text`) is on the first line.
    for line in block.lines().skip(1) {
        let mut words = line.split_whitespace();
        let Some(dir) = words.next().filter(|d| d.ends_with('/')) else {
            continue;
        };
        let rest: Vec<&str> = words.collect();
        let layers: Vec<Vec<String>> = rest
            .join(" ")
            .split("<-")
            .map(|layer| {
                layer
                    .split(',')
                    .map(|m| m.trim().to_string())
                    .filter(|m| !m.is_empty())
                    .collect()
            })
            .collect();
        if layers.iter().any(Vec::is_empty) {
            return Err(format!("ARCHITECTURE.md: an empty layer in `{line}`"));
        }
        table.push((dir.trim_end_matches('/').to_string(), layers));
    }
    if table.is_empty() {
        return Err("ARCHITECTURE.md's layer block lists no directory (`src/  a <- b`)".into());
    }
    Ok(table)
}

/// An import between two top-level modules, at its first place.
#[derive(Debug, Clone)]
struct Edge {
    at: String,
    count: usize,
}

/// The layer, cycle and page rules over one crate's files. `layers` from the bottom up;
/// `pages` names the module whose submodules are pages, if the crate has pages.
pub fn crate_violations(
    files: &[SourceFile],
    layers: &[Vec<String>],
    pages: Option<&str>,
) -> Vec<Violation> {
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(&f.path))
        .filter_map(|m| m.first().cloned())
        .collect();
    let page_names: BTreeSet<String> = pages
        .map(|pages_module| {
            files
                .iter()
                .filter_map(|f| module_path(&f.path))
                .filter(|m| m.len() >= 2 && m[0] == pages_module)
                .map(|m| m[1].clone())
                .collect()
        })
        .unwrap_or_default();
    // Names the crate root re-exports from a top-level module (`pub use ops::Operation`).
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    for file in files.iter().filter(|f| matches!(f.path.as_str(), "lib.rs")) {
        for import in source::scan(&file.text, &[]).imports {
            if import.path.len() >= 2 && modules.contains(&import.path[0]) {
                let name = import
                    .alias
                    .clone()
                    .or_else(|| import.path.last().cloned())
                    .unwrap_or_default();
                reexports.insert(name, import.path[0].clone());
            }
        }
    }

    let mut violations = Vec::new();
    let mut edges: BTreeMap<(String, String), Edge> = BTreeMap::new();
    // Per (importing file, imported page): the first place and how many names.
    let mut page_imports: BTreeMap<(String, String), Edge> = BTreeMap::new();
    for file in files {
        let Some(module) = module_path(&file.path) else {
            continue;
        };
        if is_test_file(&file.path) {
            continue;
        }
        let from = module[0].clone();
        for import in source::scan(&file.text, &module).imports {
            let at = format!("{}:{}", file.path, import.line);
            let Some(first) = import.path.first() else {
                continue;
            };
            let to = if modules.contains(first) {
                first.clone()
            } else if let Some(owner) = reexports.get(first) {
                owner.clone()
            } else {
                continue; // an item of the crate root itself (a macro, a constant)
            };
            if pages == Some(from.as_str())
                && to == from
                && module.len() >= 2
                && page_names.contains(&module[1])
                && import.path.len() >= 2
                && page_names.contains(&import.path[1])
                && import.path[1] != module[1]
            {
                page_imports
                    .entry((file.path.clone(), import.path[1].clone()))
                    .and_modify(|edge: &mut Edge| edge.count += 1)
                    .or_insert(Edge {
                        at: at.clone(),
                        count: 1,
                    });
            }
            if to != from {
                edges
                    .entry((from.clone(), to))
                    .and_modify(|edge| edge.count += 1)
                    .or_insert(Edge { at, count: 1 });
            }
        }
    }

    for ((path, page), edge) in &page_imports {
        let (pages_module, importer) = (
            pages.unwrap_or_default(),
            module_path(path)
                .and_then(|m| m.get(1).cloned())
                .unwrap_or_default(),
        );
        violations.push(Violation {
            at: edge.at.clone(),
            message: format!(
                "page `{pages_module}::{importer}` imports page `{pages_module}::{page}` ({} name(s))",
                edge.count
            ),
        });
    }

    // Layers: a module imports its own layer and below.
    let level: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(index, layer)| layer.iter().map(move |m| (m.as_str(), index)))
        .collect();
    for module in &modules {
        if !level.contains_key(module.as_str()) {
            violations.push(Violation {
                at: files
                    .iter()
                    .find(|f| module_path(&f.path).is_some_and(|m| &m[0] == module))
                    .map_or_else(String::new, |f| f.path.clone()),
                message: format!("module `{module}` is not in ARCHITECTURE.md's layer table"),
            });
        }
    }
    for ((from, to), edge) in &edges {
        if let (Some(&low), Some(&high)) = (level.get(to.as_str()), level.get(from.as_str())) {
            if low > high {
                violations.push(Violation {
                    at: edge.at.clone(),
                    message: format!(
                        "`{from}` imports `{to}`, a higher layer ({} place(s); layers: {})",
                        edge.count,
                        picture(layers)
                    ),
                });
            }
        }
    }

    // Cycles: every strongly connected group of more than one module.
    for group in cycles(&modules, &edges) {
        let inside: Vec<String> = edges
            .iter()
            .filter(|((from, to), _)| group.contains(from) && group.contains(to))
            .map(|((from, to), edge)| format!("{from} -> {to} ({})", edge.at))
            .collect();
        violations.push(Violation {
            at: edges
                .iter()
                .find(|((from, to), _)| group.contains(from) && group.contains(to))
                .map_or_else(String::new, |(_, edge)| edge.at.clone()),
            message: format!(
                "cycle between {}: {}",
                group.iter().cloned().collect::<Vec<_>>().join(", "),
                inside.join("; ")
            ),
        });
    }
    violations
}

/// The layers as ARCHITECTURE.md writes them.
fn picture(layers: &[Vec<String>]) -> String {
    layers
        .iter()
        .map(|layer| layer.join(", "))
        .collect::<Vec<_>>()
        .join(" <- ")
}

/// The groups of modules that import each other in a circle (Tarjan's strongly connected
/// components with more than one module), each sorted.
fn cycles(
    modules: &BTreeSet<String>,
    edges: &BTreeMap<(String, String), Edge>,
) -> Vec<BTreeSet<String>> {
    /// Tarjan's algorithm state.
    struct Search<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<BTreeSet<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let number = self.index.len();
            self.index.insert(node, number);
            self.low.insert(node, number);
            self.stack.push(node);
            self.on_stack.insert(node);
            for target in self.next.get(node).cloned().unwrap_or_default() {
                if !self.index.contains_key(target) {
                    self.visit(target);
                    let low = self.low[node].min(self.low[target]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(target) {
                    let low = self.low[node].min(self.index[target]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    group.insert(member.to_string());
                    if member == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from.as_str()).or_default().push(to.as_str());
    }
    let mut search = Search {
        next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    let nodes: BTreeSet<&str> = modules
        .iter()
        .map(String::as_str)
        .chain(edges.keys().flat_map(|(a, b)| [a.as_str(), b.as_str()]))
        .collect();
    for node in nodes {
        if !search.index.contains_key(node) {
            search.visit(node);
        }
    }
    search.groups
}

/// The lines of a file that count against [`MAX_LINES`]: all of them, test modules inside
/// it too (the rule names files). Test files and generated files (marked `@generated` in
/// their first five lines) count 0.
fn count_lines(file: &SourceFile) -> usize {
    let generated = file
        .text
        .lines()
        .take(5)
        .any(|line| line.contains(GENERATED_MARKER));
    if generated || is_test_file(&file.path) {
        return 0;
    }
    file.text.lines().count()
}

/// Why a file is too long, if it is.
fn too_long(file: &SourceFile) -> Option<String> {
    let lines = count_lines(file);
    (lines > MAX_LINES).then(|| {
        let module = module_path(&file.path).unwrap_or_default();
        let test_lines = source::scan(&file.text, &module).test_lines;
        let hint = if test_lines > 0 {
            format!(" ({test_lines} of them `#[cfg(test)]` code, which a `tests.rs` file would leave out)")
        } else {
            String::new()
        };
        format!("{lines} lines{hint}; the limit is {MAX_LINES}: split it by job")
    })
}

#[cfg(test)]
mod tests;
