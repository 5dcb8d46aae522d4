//! Every rule of the operations' `RESPONSE` declarations quotes the spec sentence it enforces
//! (issue 40: no rule the spec does not state). The declarations are data, so this reads
//! their source: each line that declares a rule (`src/ops/*.rs`, and the shared `URL` rule of
//! `src/rules/dsl.rs`) has a comment right above it (or above the field or constant it
//! belongs to, within three lines) holding a double-quoted phrase of at least 8 characters
//! that is in `service-interface.md`, compared without case, backticks and table pipes.

use std::path::Path;

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
    let spec = std::fs::read_to_string(root.join("../shared/spec/service-interface.md"))
        .expect("the spec, ../shared/spec/service-interface.md");
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
