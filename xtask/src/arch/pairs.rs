//! No two files import each other: a file-level check beside the module-level cycle check.
//!
//! Each import ([`source::scan`]) is resolved to the file that defines what it names: the
//! longest prefix of its path that is a file's module, then through that file's `use`
//! declarations (`pub use self::reader::Reader` in `json/mod.rs` sends `crate::json::Reader`
//! on to `json/reader.rs`), so a module that only re-exports a child is not paired with the
//! files that use the child through it. A re-export (`pub use`, `pub(crate) use`) is no
//! import of the file re-exporting: it passes a name on, the way a `mod.rs` shows its
//! children's items, and the files that use the name depend on its owner. Crate roots (`lib.rs`, `main.rs`) are left out, as
//! by the layer rules; test code is exempt.

use std::collections::{BTreeMap, BTreeSet};

use super::files::{is_test_file, module_path, SourceFile, Violation};
use super::source::{self, Import};

/// Most re-exports followed from one import (a guard against `use` loops).
const MAX_HOPS: usize = 8;

/// The crate's files by module path, with the names each brings into scope by `use`.
struct Crate<'a> {
    /// Module path (`[]` for the crate root) → index in the files.
    by_module: BTreeMap<Vec<String>, usize>,
    /// Per file: name → the path a `use` declaration gives it.
    uses: Vec<BTreeMap<&'a str, &'a [String]>>,
}

impl Crate<'_> {
    /// The file that defines what `path` names.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let (len, file) = (0..=path.len())
            .rev()
            .find_map(|len| self.by_module.get(&path[..len]).map(|&file| (len, file)))?;
        if hops < MAX_HOPS {
            if let Some(target) = path
                .get(len)
                .and_then(|name| self.uses[file].get(name.as_str()))
            {
                let mut next = target.to_vec();
                next.extend_from_slice(&path[len + 1..]);
                if let Some(found) = self.resolve(&next, hops + 1) {
                    return Some(found);
                }
            }
        }
        Some(file)
    }
}

/// The first place (`path:line`) where one file imports another.
type Edges = BTreeMap<(usize, usize), String>;

/// Every pair of files of one crate that import each other, but those in `allowed` (paths
/// under the crate's source directory, either order).
pub fn file_pairs(files: &[SourceFile], allowed: &[(&str, &str)]) -> Vec<Violation> {
    let modules: Vec<Option<Vec<String>>> = files
        .iter()
        .map(|f| match f.path.as_str() {
            "lib.rs" | "main.rs" => Some(Vec::new()),
            path => module_path(path).filter(|_| !is_test_file(path)),
        })
        .collect();
    let imports: Vec<Vec<Import>> = files
        .iter()
        .zip(&modules)
        .map(|(file, module)| {
            module
                .as_ref()
                .map(|module| source::scan(&file.text, module).imports)
                .unwrap_or_default()
        })
        .collect();
    let krate = Crate {
        by_module: modules
            .iter()
            .enumerate()
            .filter_map(|(index, module)| module.clone().map(|m| (m, index)))
            .collect(),
        uses: imports
            .iter()
            .map(|imports| {
                imports
                    .iter()
                    .filter(|import| import.is_use && !import.glob)
                    .filter_map(|import| {
                        let name = import
                            .alias
                            .as_deref()
                            .or(import.path.last().map(String::as_str))?;
                        Some((name, import.path.as_slice()))
                    })
                    .collect()
            })
            .collect(),
    };

    let mut edges = Edges::new();
    for (from, module) in modules.iter().enumerate() {
        if module.as_ref().is_none_or(Vec::is_empty) {
            continue; // a crate root, `bin/` or test code
        }
        for import in imports[from].iter().filter(|import| !import.reexport) {
            let Some(to) = krate.resolve(&import.path, 0) else {
                continue;
            };
            if to != from && modules[to].as_ref().is_some_and(|m| !m.is_empty()) {
                edges
                    .entry((from, to))
                    .or_insert_with(|| format!("{}:{}", files[from].path, import.line));
            }
        }
    }

    let allowed: BTreeSet<(&str, &str)> = allowed
        .iter()
        .flat_map(|&(a, b)| [(a, b), (b, a)])
        .collect();
    edges
        .iter()
        .filter(|((from, to), _)| from < to)
        .filter_map(|((from, to), at)| Some((at, edges.get(&(*to, *from))?, *from, *to)))
        .filter(|(_, _, from, to)| {
            !allowed.contains(&(files[*from].path.as_str(), files[*to].path.as_str()))
        })
        .map(|(at, back, from, to)| Violation {
            at: at.clone(),
            message: format!(
                "`{}` and `{}` import each other ({at} and {back}): move what they share so \
                 the import goes one way",
                files[from].path, files[to].path
            ),
        })
        .collect()
}
