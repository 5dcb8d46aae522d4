//! No price written into the app: a dollar amount in a string literal (`"$0.05"`, a `$`
//! followed by a digit) outside test code. Prices are the core's (`serpkit::ops::<op>::PRICE`,
//! `Operation::price()`, formatted by `Usd`), so the app cannot tell the user a price the
//! client does not charge.

use super::files::{is_test_file, module_path, SourceFile, Violation};
use super::source;

/// Every string literal of `files` that holds a dollar amount, outside test code.
pub fn price_literals(files: &[SourceFile]) -> Vec<Violation> {
    let mut violations = Vec::new();
    for file in files.iter().filter(|f| !is_test_file(&f.path)) {
        let module = module_path(&file.path).unwrap_or_default();
        for (line, text) in source::scan(&file.text, &module).strings {
            let mut chars = text.chars().peekable();
            let mut found = false;
            while let Some(c) = chars.next() {
                if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
                    found = true;
                    break;
                }
            }
            if found {
                let shown: String = text.chars().take(60).collect();
                violations.push(Violation {
                    at: format!("{}:{line}", file.path),
                    message: format!(
                        "a price written as text (\"{shown}…\"): take it from the core \
                         (`serpkit::ops::<op>::PRICE`, `Operation::price()`, `Usd`)"
                    ),
                });
            }
        }
    }
    violations
}
