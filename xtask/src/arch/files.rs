//! The source files the checks read, and what they report.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::Res;

/// One Rust source file of a crate, by its path under the crate's source directory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path under the source directory, `/`-separated (`validate/engine.rs`).
    pub path: String,
    /// Its text.
    pub text: String,
}

/// One broken rule, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// `file:line` (or the file alone).
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Every `.rs` file under `dir`, sorted by path.
pub fn read_sources(dir: &Path) -> Res<Vec<SourceFile>> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<SourceFile>) -> Res {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, base, out)?;
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let relative = path.strip_prefix(base).unwrap_or(&path);
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(SourceFile {
                    path: parts.join("/"),
                    text,
                });
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    Ok(files)
}

/// Whether a file is test code: `tests.rs` or under a `tests/` directory.
pub fn is_test_file(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or_default();
    file == "tests.rs" || parts.contains(&"tests")
}

/// The module path of a file (`validate/scan.rs` → `[validate, scan]`, `api/mod.rs` →
/// `[api]`); None for crate roots and `bin/` (crates of their own).
pub fn module_path(path: &str) -> Option<Vec<String>> {
    if matches!(path, "lib.rs" | "main.rs") || path.starts_with("bin/") {
        return None;
    }
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    let file = parts.pop()?;
    let stem = file.strip_suffix(".rs")?;
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    Some(parts)
}
