//! Reading a Rust source file for the architecture checks: a small tokenizer (comments and
//! character literals are skipped, strings are tokens of their own, so a path in them is no
//! import), the crate-relative paths the file names, in `use` trees and inline alike, and its
//! string literals.

/// A token: what the import finder needs of Rust's grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// An identifier or keyword (`r#` stripped from raw identifiers).
    Ident(String),
    /// `::`.
    PathSep,
    /// A string literal (plain, byte, C or raw): its text between the quotes, escapes as
    /// written.
    Str(String),
    /// Any other punctuation character.
    Punct(char),
}

/// A token and the line (1-based) it starts on.
#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    line: usize,
}

/// Splits `text` into tokens, skipping whitespace, comments, character literals, lifetimes
/// and numbers.
fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips to the end of a (raw) string starting at `i` (just after the opening quote), with
    // `hashes` closing hashes for raw strings or escapes otherwise.
    let skip_string = |i: &mut usize, line: &mut usize, raw: Option<usize>| {
        while *i < chars.len() {
            let c = chars[*i];
            *i += 1;
            match c {
                '\n' => *line += 1,
                '\\' if raw.is_none() => {
                    if chars.get(*i) == Some(&'\n') {
                        *line += 1;
                    }
                    *i += 1;
                }
                '"' => {
                    let hashes = raw.unwrap_or(0);
                    if (0..hashes).all(|k| chars.get(*i + k) == Some(&'#')) {
                        *i += hashes;
                        return;
                    }
                }
                _ => {}
            }
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '"' => {
                let first_line = line;
                i += 1;
                let start = i;
                skip_string(&mut i, &mut line, None);
                tokens.push(Token {
                    kind: Kind::Str(
                        chars[start..i.saturating_sub(1).max(start)]
                            .iter()
                            .collect(),
                    ),
                    line: first_line,
                });
            }
            '\'' => {
                // A character literal ('a', '\n', '\u{1F600}') or a lifetime / label ('a).
                if next == Some('\\') {
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                }
            }
            c if c.is_ascii_digit() => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let prefix = matches!(word.as_str(), "r" | "b" | "br" | "c" | "cr");
                if prefix && chars.get(i) == Some(&'"') {
                    // b"...", c"...", r"..."
                    let first_line = line;
                    i += 1;
                    let start = i;
                    let raw = word.contains('r').then_some(0);
                    skip_string(&mut i, &mut line, raw);
                    tokens.push(Token {
                        kind: Kind::Str(
                            chars[start..i.saturating_sub(1).max(start)]
                                .iter()
                                .collect(),
                        ),
                        line: first_line,
                    });
                } else if prefix && word.contains('r') && chars.get(i) == Some(&'#') {
                    let mut hashes = 0;
                    while chars.get(i + hashes) == Some(&'#') {
                        hashes += 1;
                    }
                    if chars.get(i + hashes) == Some(&'"') {
                        // r#"..."#
                        let first_line = line;
                        i += hashes + 1;
                        let start = i;
                        skip_string(&mut i, &mut line, Some(hashes));
                        let end = i.saturating_sub(hashes + 1).max(start);
                        tokens.push(Token {
                            kind: Kind::Str(chars[start..end].iter().collect()),
                            line: first_line,
                        });
                    } else if word == "r" {
                        // r#ident
                        i += 1;
                        let start = i;
                        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                            i += 1;
                        }
                        let ident = chars[start..i].iter().collect();
                        tokens.push(Token {
                            kind: Kind::Ident(ident),
                            line,
                        });
                    } else {
                        tokens.push(Token {
                            kind: Kind::Ident(word),
                            line,
                        });
                    }
                } else if word == "b" && chars.get(i) == Some(&'\'') {
                    // b'x', b'\n'
                    i += 1;
                    while i < chars.len() && chars[i] != '\'' {
                        i += if chars[i] == '\\' { 2 } else { 1 };
                    }
                    i += 1;
                } else {
                    tokens.push(Token {
                        kind: Kind::Ident(word),
                        line,
                    });
                }
            }
            ':' if next == Some(':') => {
                tokens.push(Token {
                    kind: Kind::PathSep,
                    line,
                });
                i += 2;
            }
            c => {
                tokens.push(Token {
                    kind: Kind::Punct(c),
                    line,
                });
                i += 1;
            }
        }
    }
    tokens
}

/// A path a file names, made absolute (from the crate root, without `crate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The line it is on (1-based).
    pub line: usize,
    /// Its segments from the crate root, e.g. `["api", "enc"]` for `crate::api::enc`.
    pub path: Vec<String>,
    /// The name it is brought into scope under when renamed (`use a::B as C`).
    pub alias: Option<String>,
    /// Whether a `use` declaration names it (an inline path does not bring a name into scope).
    pub is_use: bool,
    /// Whether that `use` is public (`pub use`, `pub(crate) use`, …): a re-export, which
    /// passes a name on rather than using it.
    pub reexport: bool,
    /// Whether it is a glob (`use super::*`): `path` is then the module whose names it takes.
    pub glob: bool,
}

/// What the checks need of one source file.
#[derive(Debug, Default)]
pub struct Scanned {
    /// Every crate-relative path outside test code: `use crate::…`, `use super::…`,
    /// `use self::…` trees and the same paths inline (`crate::api::enc(…)`, `$crate::…` in
    /// macros). In the crate root, `use` trees of plain paths too (`pub use ops::X`); in any
    /// other file, paths that start at a child module it declares (`mod reader;` then
    /// `use reader::Reader` or `reader::f()`).
    pub imports: Vec<Import>,
    /// Every string literal outside test code and attributes, with the line it starts on.
    pub strings: Vec<(usize, String)>,
    /// Lines inside `#[cfg(test)]` items (test modules, test-only functions and imports).
    pub test_lines: usize,
}

/// Reads the imports of a file whose module path is `module` (empty for the crate root).
pub fn scan(text: &str, module: &[String]) -> Scanned {
    let tokens = tokenize(text);
    let mut scanned = Scanned::default();
    // Inline modules (`mod name { … }`) the position is in, with the brace depth inside.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    let ident = |i: usize| match tokens.get(i).map(|t| &t.kind) {
        Some(Kind::Ident(name)) => Some(name.as_str()),
        _ => None,
    };
    let is = |i: usize, kind: Kind| tokens.get(i).map(|t| &t.kind) == Some(&kind);
    // Whether the path starting at `i` is the head of a `use` declaration, and of a public one
    // (`pub use`; a `)` before `use` can only close a visibility: `pub(crate) use`).
    let after_use = |i: usize| i > 0 && ident(i - 1) == Some("use");
    let public = |i: usize| {
        after_use(i) && i > 1 && (ident(i - 2) == Some("pub") || is(i - 2, Kind::Punct(')')))
    };
    // The file modules this file declares (`mod reader;`), whose plain paths are its own.
    let children: Vec<&str> = if module.is_empty() {
        Vec::new() // the crate root reads its plain `use` trees below
    } else {
        (0..tokens.len())
            .filter(|&k| ident(k) == Some("mod") && is(k + 2, Kind::Punct(';')))
            .filter_map(|k| ident(k + 1))
            .collect()
    };
    while i < tokens.len() {
        let first_import = scanned.imports.len();
        let here = || -> Vec<String> {
            let mut path = module.to_vec();
            path.extend(inline.iter().map(|(name, _)| name.clone()));
            path
        };
        match &tokens[i].kind {
            Kind::Punct('#') => {
                let inner = is(i + 1, Kind::Punct('!'));
                let open = if inner { i + 2 } else { i + 1 };
                if !is(open, Kind::Punct('[')) {
                    i += 1;
                    continue;
                }
                let close = matching(&tokens, open);
                let cfg_test = close == open + 5
                    && ident(open + 1) == Some("cfg")
                    && is(open + 2, Kind::Punct('('))
                    && ident(open + 3) == Some("test")
                    && is(open + 4, Kind::Punct(')'));
                if cfg_test && !inner {
                    let first_line = tokens[i].line;
                    let end = item_end(&tokens, close + 1);
                    let last_line = tokens
                        .get(end.saturating_sub(1))
                        .map_or(first_line, |t| t.line);
                    scanned.test_lines += last_line + 1 - first_line;
                    i = end;
                } else {
                    i = close + 1;
                }
            }
            Kind::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Kind::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Kind::Ident(word) if word == "mod" => {
                if let (Some(name), true) = (ident(i + 1), is(i + 2, Kind::Punct('{'))) {
                    inline.push((name.to_string(), depth + 1));
                    depth += 1;
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Kind::Str(text) => {
                scanned.strings.push((tokens[i].line, text.clone()));
                i += 1;
            }
            Kind::Ident(word) if word == "crate" && is(i + 1, Kind::PathSep) => {
                let (is_use, reexport) = (after_use(i), public(i));
                i = tree(&tokens, i + 2, Vec::new(), &mut scanned.imports);
                mark_use(&mut scanned.imports[first_import..], is_use, reexport);
            }
            Kind::Ident(word)
                if inline.is_empty()
                    && children.contains(&word.as_str())
                    && is(i + 1, Kind::PathSep)
                    && !(i > 0 && is(i - 1, Kind::PathSep)) =>
            {
                let (is_use, reexport) = (after_use(i), public(i));
                i = tree(&tokens, i, module.to_vec(), &mut scanned.imports);
                mark_use(&mut scanned.imports[first_import..], is_use, reexport);
            }
            Kind::Ident(word)
                if (word == "super" || word == "self")
                    && is(i + 1, Kind::PathSep)
                    && !(i > 0 && is(i - 1, Kind::PathSep)) =>
            {
                let (is_use, reexport) = (after_use(i), public(i));
                let mut base = here();
                let mut j = i;
                if word == "self" {
                    j += 2;
                }
                let mut outside = false;
                while ident(j) == Some("super") && is(j + 1, Kind::PathSep) {
                    outside |= base.pop().is_none();
                    j += 2;
                }
                i = if outside {
                    j
                } else {
                    tree(&tokens, j, base, &mut scanned.imports)
                };
                mark_use(&mut scanned.imports[first_import..], is_use, reexport);
            }
            Kind::Ident(word) if word == "use" && module.is_empty() && inline.is_empty() => {
                let reexport = public(i + 1);
                let start = if is(i + 1, Kind::PathSep) {
                    i + 2
                } else {
                    i + 1
                };
                if matches!(ident(start), Some("crate" | "super" | "self")) {
                    i = start;
                } else {
                    i = tree(&tokens, start, Vec::new(), &mut scanned.imports);
                    mark_use(&mut scanned.imports[first_import..], true, reexport);
                }
            }
            _ => i += 1,
        }
    }
    scanned
}

/// Marks the imports just read as named by a `use` declaration (or not), a public one (or
/// not).
fn mark_use(imports: &mut [Import], is_use: bool, reexport: bool) {
    for import in imports {
        import.is_use = is_use;
        import.reexport = reexport;
    }
}

/// The index of the bracket closing the one at `open` (`(`, `[` or `{`), or the last token.
fn matching(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate().skip(open) {
        match token.kind {
            Kind::Punct('(' | '[' | '{') => depth += 1,
            Kind::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return index;
                }
            }
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// The index just past the item starting at `start` (after its attributes): past its `;` or
/// its closing `}`, whichever comes first outside brackets.
fn item_end(tokens: &[Token], start: usize) -> usize {
    let mut i = start;
    while i < tokens.len() {
        match tokens[i].kind {
            Kind::Punct(';') => return i + 1,
            Kind::Punct('{') => return matching(tokens, i) + 1,
            Kind::Punct('(' | '[') => i = matching(tokens, i) + 1,
            _ => i += 1,
        }
    }
    tokens.len()
}

/// Reads a use tree (or an inline path) at `i` under `prefix`, adding every leaf path to
/// `out`; returns the index after it.
fn tree(tokens: &[Token], mut i: usize, prefix: Vec<String>, out: &mut Vec<Import>) -> usize {
    let line = tokens.get(i).map_or(0, |t| t.line);
    let leaf = |out: &mut Vec<Import>, path: Vec<String>, alias: Option<String>, glob: bool| {
        if !path.is_empty() {
            out.push(Import {
                line,
                path,
                alias,
                is_use: false,
                reexport: false,
                glob,
            });
        }
    };
    match tokens.get(i).map(|t| &t.kind) {
        Some(Kind::Punct('{')) => {
            i += 1;
            while i < tokens.len() && tokens[i].kind != Kind::Punct('}') {
                let before = i;
                i = tree(tokens, i, prefix.clone(), out);
                // Past a separating comma, or past a token the tree could not read.
                let comma = tokens.get(i).map(|t| &t.kind) == Some(&Kind::Punct(','));
                if comma || i == before {
                    i += 1;
                }
            }
            i + 1
        }
        Some(Kind::Ident(name)) if name == "self" => {
            let alias = alias_at(tokens, i + 1);
            let next = if alias.is_some() { i + 3 } else { i + 1 };
            leaf(out, prefix, alias, false);
            next
        }
        Some(Kind::Punct('*')) => {
            leaf(out, prefix, None, true);
            i + 1
        }
        Some(Kind::Ident(name)) => {
            let mut path = prefix;
            path.push(name.clone());
            if tokens.get(i + 1).map(|t| &t.kind) == Some(&Kind::PathSep) {
                tree(tokens, i + 2, path, out)
            } else {
                let alias = alias_at(tokens, i + 1);
                let next = if alias.is_some() { i + 3 } else { i + 1 };
                leaf(out, path, alias, false);
                next
            }
        }
        _ => {
            leaf(out, prefix, None, false);
            i
        }
    }
}

/// The alias of `as name` at `i`, if there is one.
fn alias_at(tokens: &[Token], i: usize) -> Option<String> {
    match (tokens.get(i), tokens.get(i + 1)) {
        (Some(as_token), Some(name)) if as_token.kind == Kind::Ident("as".into()) => {
            match &name.kind {
                Kind::Ident(alias) => Some(alias.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::scan;

    fn paths(text: &str, module: &[&str]) -> Vec<(usize, String)> {
        let module: Vec<String> = module.iter().map(|m| m.to_string()).collect();
        scan(text, &module)
            .imports
            .into_iter()
            .map(|import| (import.line, import.path.join("::")))
            .collect()
    }

    #[test]
    fn use_trees_inline_paths_and_super_are_resolved() {
        let text = "use crate::{json, rules::{Shape, Severity as Level}, self};\n\
                    use super::sibling::Thing;\n\
                    fn f() { let x = crate::api::enc(1); super::super::money::Cents::ZERO; }\n\
                    macro_rules! m { () => { $crate::json::Reader::new() } }\n";
        assert_eq!(
            paths(text, &["validate", "engine"]),
            vec![
                (1, "json".into()),
                (1, "rules::Shape".into()),
                (1, "rules::Severity".into()),
                (2, "validate::sibling::Thing".into()),
                (3, "api::enc".into()),
                (3, "money::Cents::ZERO".into()),
                (4, "json::Reader::new".into()),
            ]
        );
    }

    #[test]
    fn comments_strings_and_tests_are_no_imports() {
        let text = "// use crate::a;\n/* crate::b /* nested */ crate::c */\n\
                    const S: &str = \"crate::d\"; const R: &str = r#\"crate::e \"q\"\"#;\n\
                    const C: char = '\"'; const Q: char = '\\''; fn g<'a>(x: &'a u8) -> u8 { b'x' + *x }\n\
                    pub(crate) fn h() { crate::real::f() }\n\
                    #[cfg(test)]\nmod tests {\n    use crate::client;\n}\n\
                    #[cfg(test)]\nuse crate::records;\n";
        assert_eq!(paths(text, &["validate"]), vec![(5, "real::f".into())]);
        assert_eq!(scan(text, &["validate".into()]).test_lines, 6);
    }

    #[test]
    fn inline_modules_shift_super_and_the_root_reads_plain_uses() {
        let text = "mod inner { use super::super::ops::Op; use super::x; }\n";
        assert_eq!(
            paths(text, &["validate"]),
            vec![(1, "ops::Op".into()), (1, "validate::x".into())]
        );
        let root = "pub use ops::{Operation, Request as Req};\nmod json;\nuse std::fmt;\n";
        let scanned = scan(root, &[]);
        let found: Vec<(String, Option<String>)> = scanned
            .imports
            .into_iter()
            .map(|import| (import.path.join("::"), import.alias))
            .collect();
        assert_eq!(
            found,
            vec![
                ("ops::Operation".into(), None),
                ("ops::Request".into(), Some("Req".into())),
                ("std::fmt".into(), None),
            ]
        );
    }
}
