//! One page table: the app's pages are the lines of `for_each_page!` in `app/src/paths.rs`,
//! and the pages' modules, lazy routes, navigation, the router's `<Route>`s and `APP_PATHS`
//! are generated from it, so they cannot disagree. Checked here: every page under `routes/`
//! has its line (a page file without one is neither compiled nor routed), every line has its
//! page, and no `<Route>` is written by hand outside the table's expansion.

use super::files::{is_test_file, SourceFile, Violation};

/// The file (under `app/src/`) holding the page list.
pub const TABLE_FILE: &str = "paths.rs";

/// The directory (under `app/src/`) of the pages.
const PAGES_DIR: &str = "routes";

/// Every violation of the page table rule in the app's `files`.
pub fn page_table(files: &[SourceFile]) -> Vec<Violation> {
    let mut violations = Vec::new();
    let Some(table) = files.iter().find(|f| f.path == TABLE_FILE) else {
        return vec![Violation {
            at: TABLE_FILE.into(),
            message: "no page list (`macro_rules! for_each_page`) found".into(),
        }];
    };
    let listed = listed_pages(&table.text);
    if listed.is_empty() {
        violations.push(Violation {
            at: TABLE_FILE.into(),
            message: "the page list (`macro_rules! for_each_page`) names no page".into(),
        });
    }
    let pages = page_modules(files);
    for (module, at) in &pages {
        if !listed.contains(module) {
            violations.push(Violation {
                at: at.clone(),
                message: format!(
                    "page `{module}` has no line in the page list (`for_each_page!` in \
                     {TABLE_FILE}): it is neither compiled nor routed"
                ),
            });
        }
    }
    for module in &listed {
        if !pages.iter().any(|(m, _)| m == module) {
            violations.push(Violation {
                at: TABLE_FILE.into(),
                message: format!(
                    "the page list names `{module}`, which has no file under {PAGES_DIR}/"
                ),
            });
        }
    }
    for file in files.iter().filter(|f| !is_test_file(&f.path)) {
        for (i, line) in file.text.lines().enumerate() {
            let by_hand = line.match_indices("<Route").any(|(at, tag)| {
                line[at + tag.len()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
            });
            if by_hand && !line.contains("path!($") {
                violations.push(Violation {
                    at: format!("{}:{}", file.path, i + 1),
                    message: format!(
                        "a `<Route>` written by hand: routes come from the page list \
                         (`for_each_page!` in {TABLE_FILE})"
                    ),
                });
            }
        }
    }
    violations
}

/// The page modules the list names: the `module` of each `module::Component, …;` line of
/// `macro_rules! for_each_page`.
pub fn listed_pages(text: &str) -> Vec<String> {
    let Some(body) = text.split("macro_rules! for_each_page").nth(1) else {
        return Vec::new();
    };
    body.lines()
        // The macro ends at its first item-level line (`}` in column 0).
        .take_while(|line| !line.starts_with('}'))
        .filter_map(|line| {
            let (module, rest) = line.trim().split_once("::")?;
            let is_ident = |s: &str| {
                s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            (is_ident(module) && rest.contains(',')).then(|| module.to_string())
        })
        .collect()
}

/// The page modules under `routes/`: (module, file) for `routes/<page>.rs` and
/// `routes/<page>/mod.rs`.
fn page_modules(files: &[SourceFile]) -> Vec<(String, String)> {
    files
        .iter()
        .filter(|f| !is_test_file(&f.path))
        .filter_map(|f| {
            let rest = f.path.strip_prefix(PAGES_DIR)?.strip_prefix('/')?;
            let module = match rest.split_once('/') {
                Some((dir, "mod.rs")) => dir,
                Some(_) => return None,
                None => rest.strip_suffix(".rs").filter(|m| *m != "mod")?,
            };
            Some((module.to_string(), f.path.clone()))
        })
        .collect()
}
