//! No function over [`MAX_FN_LINES`] lines in the app: a page or widget that long does
//! several jobs, and the reader of a Leptos page expects the size of the `hackernews`
//! example's pages. Read from rustfmt's layout (`cargo fmt --check` runs first): an item
//! `fn` starts a line, and its body ends at the first `}` alone at the same indentation.
//! Test code (`#[cfg(test)]` modules, test files) is exempt.

use super::files::{is_test_file, SourceFile, Violation};

/// Longest function allowed in `app/src`, signature and closing brace included.
pub const MAX_FN_LINES: usize = 150;

/// Every function of `files` longer than [`MAX_FN_LINES`], but those of `allowed`
/// (`(file path, function name)`).
pub fn long_functions(files: &[SourceFile], allowed: &[(&str, &str)]) -> Vec<Violation> {
    let mut violations = Vec::new();
    for file in files.iter().filter(|f| !is_test_file(&f.path)) {
        for (line, name, n) in functions(&file.text) {
            if n > MAX_FN_LINES && !allowed.contains(&(file.path.as_str(), name.as_str())) {
                violations.push(Violation {
                    at: format!("{}:{line}", file.path),
                    message: format!(
                        "`{name}` is {n} lines (at most {MAX_FN_LINES}): split it by job \
                         into components or functions that take their data as props"
                    ),
                });
            }
        }
    }
    violations
}

/// Each function with a body outside `#[cfg(test)]` modules: (first line, 1-based; name;
/// lines from its first line to its closing brace).
pub fn functions(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = &line[..line.len() - line.trim_start().len()];
        let body = line.trim_start();
        if body == "#[cfg(test)]" {
            // Skip the test item (module or function) to its closing brace.
            if let Some(end) = closing(&lines, i + 1, indent) {
                i = end + 1;
                continue;
            }
        }
        if let Some(name) = fn_name(body) {
            // A declaration without a body (`fn f(&self);`) ends with `;` before any `{`.
            let opens = lines[i..]
                .iter()
                .position(|l| l.trim_end().ends_with('{') || l.trim_end().ends_with(';'));
            if let Some(k) = opens.filter(|k| lines[i + k].trim_end().ends_with('{')) {
                if let Some(end) = closing(&lines, i + k, indent) {
                    out.push((i + 1, name, end - i + 1));
                }
            }
        }
        i += 1;
    }
    out
}

/// The line index, from `from`, of the first line that is `indent` then `}` alone.
fn closing(lines: &[&str], from: usize, indent: &str) -> Option<usize> {
    (from..lines.len()).find(|&j| {
        let l = lines[j];
        l.strip_prefix(indent)
            .is_some_and(|rest| rest == "}" || rest == "};")
    })
}

/// The name of the function a line starts (`pub(crate) async fn name<…>(`), if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut rest = line;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}
