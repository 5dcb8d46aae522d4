//! Every rule of the operations' `RESPONSE` declarations quotes the spec sentence it enforces
//! (issue 40: no rule the spec does not state). The declarations are data, so this reads
//! their source: each line that declares a rule (`src/ops/*.rs`, and the shared `URL` rule of
//! `src/rules/dsl.rs`) has a comment right above it (or above the field or constant it
//! belongs to, within three lines) holding a double-quoted phrase of at least 8 characters
//! that is in `service-interface.md`, compared without case, backticks and table pipes.
//!
//! The spec is not part of the repository: it is looked for where `SERPKIT_SPEC` points, else
//! as `shared/spec/service-interface.md` beside the repository or beside any folder above it
//! (a git worktree's). A clone with nothing beside it skips the check and says so on stderr
//! (written past libtest's capture, so `cargo test` shows it), rather than failing.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The spec's path inside the folder shared with the repository.
const SPEC: &str = "shared/spec/service-interface.md";

/// Where the spec is: `SERPKIT_SPEC` when set (an error when it names no file), else the first
/// `SPEC` found beside `root` or beside one of the folders above it; `Ok(None)` when none is.
fn find_spec(root: &Path, env: Option<PathBuf>) -> Result<Option<PathBuf>, String> {
    if let Some(path) = env {
        return if path.is_file() {
            Ok(Some(path))
        } else {
            Err(format!("SERPKIT_SPEC={} is not a file", path.display()))
        };
    }
    Ok(root
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(SPEC))
        .find(|path| path.is_file()))
}

/// What starts a rule's declaration on a line (the rule language's forms, `rules::dsl`).
const RULE_FORMS: [&str; 12] = [
    "= string(&[StringRule::",
    "items: string(&[StringRule::",
    "= int(&[range(",
    "= num(&[range(",
    "ArrayRule::Len {",
    "ArrayRule::Seq {",
    "echoes_request_items(",
    "count_equals_request(",
    "first_is_request_keyword(",
    "same_as_request(",
    "same_keyword_as_request(",
    "checks: &[named!(",
];

/// Lower case, backticks and table pipes dropped, white space folded.
fn normal(text: &str) -> String {
    text.replace(['`', '|'], " ")
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The double-quoted phrases of at least 8 characters in `comment`.
fn quotes(comment: &str) -> Vec<String> {
    comment
        .split('"')
        .skip(1)
        .step_by(2)
        .map(normal)
        .filter(|q| q.chars().count() >= 8)
        .collect()
}

/// The comment block (`//`, `///` lines) right above line `at`, looking past at most three
/// lines of code (a field's rule is inside its declaration).
fn comment_above(lines: &[&str], at: usize) -> String {
    let mut i = at;
    let mut code = 0;
    while i > 0 && !lines[i - 1].trim_start().starts_with("//") {
        code += 1;
        if code > 3 {
            return String::new();
        }
        i -= 1;
    }
    let mut block = Vec::new();
    while i > 0 && lines[i - 1].trim_start().starts_with("//") {
        block.push(lines[i - 1].trim_start().trim_start_matches('/'));
        i -= 1;
    }
    block.reverse();
    block.join(" ")
}

#[test]
fn every_rule_quotes_the_spec_sentence_it_enforces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let env = std::env::var_os("SERPKIT_SPEC").map(PathBuf::from);
    let Some(path) = find_spec(root, env).unwrap() else {
        // Straight to stderr: libtest captures `eprintln!` of a passing test.
        let _ = writeln!(
            std::io::stderr(),
            "rule_quotes: SKIPPED every_rule_quotes_the_spec_sentence_it_enforces: the spec \
             ({SPEC}) is not beside {} or any folder above it, and SERPKIT_SPEC is not set \
             (the spec is not part of the repository; set SERPKIT_SPEC=/path/to/service-interface.md \
             to run this check)",
            root.display()
        );
        return;
    };
    let spec = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the spec, {}: {e}", path.display()));
    let spec = normal(&spec);
    let mut files: Vec<_> = std::fs::read_dir(root.join("src/ops"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files.push(root.join("src/rules/dsl.rs"));
    let mut rules = 0;
    let mut missing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let dsl = file.ends_with("dsl.rs");
        for (at, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.trim_start();
            let declares = !code.starts_with("//")
                && RULE_FORMS.iter().any(|form| code.contains(form))
                // The language's own definitions are no rules; in dsl.rs only its constants.
                && !code.contains("fn ")
                && (!dsl || code.starts_with("pub const "));
            if !declares {
                continue;
            }
            rules += 1;
            let comment = comment_above(&lines, at);
            if !quotes(&comment).iter().any(|q| spec.contains(q.as_str())) {
                let name = file.strip_prefix(root).unwrap_or(file).display();
                missing.push(format!("{name}:{}: {}", at + 1, code));
            }
        }
    }
    assert!(
        rules >= 40,
        "found only {rules} rule declarations: the forms changed?"
    );
    assert!(
        missing.is_empty(),
        "{} rule(s) quote no sentence of the spec in the comment above them:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_spec_is_found_beside_any_folder_above_and_a_missing_one_is_no_failure() {
    let dir = std::env::temp_dir().join(format!("rule_quotes_{}", std::process::id()));
    let repo = dir.join("wt/clone");
    std::fs::create_dir_all(&repo).unwrap();
    assert_eq!(
        find_spec(&repo, None).unwrap(),
        None,
        "nothing beside the clone"
    );
    let spec = dir.join(SPEC);
    std::fs::create_dir_all(spec.parent().unwrap()).unwrap();
    std::fs::write(&spec, "spec").unwrap();
    assert_eq!(
        find_spec(&repo, None).unwrap(),
        Some(spec.clone()),
        "two folders up"
    );
    assert_eq!(
        find_spec(Path::new("/nowhere"), Some(spec.clone())).unwrap(),
        Some(spec.clone())
    );
    assert!(find_spec(&repo, Some(dir.join("missing.md"))).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
