//! The architecture rules on small synthetic crates.

use super::{
    count_lines, crate_violations, layer_table, lengths, page_table, pairs, prices, too_long,
    SourceFile, MAX_LINES,
};

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile {
        path: path.into(),
        text: text.into(),
    }
}

fn layers(picture: &str) -> Vec<Vec<String>> {
    picture
        .split("<-")
        .map(|layer| layer.split(',').map(|m| m.trim().to_string()).collect())
        .collect()
}

fn messages(files: &[SourceFile], picture: &str, pages: Option<&str>) -> Vec<String> {
    crate_violations(files, &layers(picture), pages)
        .into_iter()
        .map(|v| v.to_string())
        .collect()
}

#[test]
fn a_crate_that_follows_its_layers_passes() {
    let files = [
        file(
            "lib.rs",
            "pub mod json;\npub mod rules;\npub use rules::Shape;\n",
        ),
        file(
            "json/mod.rs",
            "mod reader;\npub use self::reader::Reader;\n",
        ),
        file("json/reader.rs", "pub struct Reader;\n"),
        file(
            "rules.rs",
            "use crate::json::Reader;\npub struct Shape(Reader);\n",
        ),
        file("money.rs", "pub struct Cents;\n"),
    ];
    assert_eq!(
        messages(&files, "money <- json <- rules", None),
        Vec::<String>::new()
    );
}

#[test]
fn an_upward_import_is_reported_with_its_place() {
    let files = [
        file("json.rs", "\n\nuse crate::{rules::Shape, money};\n"),
        file("rules.rs", "use crate::json;\n"),
        file("money.rs", ""),
    ];
    let found = messages(&files, "money <- json <- rules", None);
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("json.rs:3: `json` imports `rules`, a higher layer")),
        "{found:#?}"
    );
    assert!(found.iter().all(|m| !m.contains("`money`")), "{found:#?}");
}

#[test]
fn an_inline_path_counts_as_an_import() {
    let files = [
        file("paths.rs", "pub fn enc() {}\n"),
        file(
            "store.rs",
            "pub fn save() {\n    let _ = crate::routes::home::title();\n}\n",
        ),
        file("routes/mod.rs", "pub mod home;\n"),
        file("routes/home.rs", "pub fn title() { crate::paths::enc() }\n"),
    ];
    let found = messages(&files, "paths <- store <- routes", Some("routes"));
    assert_eq!(
        found.len(),
        1,
        "one upward import (store -> routes): {found:#?}"
    );
    assert!(found[0].starts_with("store.rs:2: `store` imports `routes`"));
}

#[test]
fn a_cycle_is_reported_with_its_edges() {
    let files = [
        file("api.rs", "use crate::demo::Worker;\n"),
        file("demo.rs", "fn f() { super::api::call() }\n"),
    ];
    let found = messages(&files, "api, demo", None);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0]
            .contains("cycle between api, demo: api -> demo (api.rs:1); demo -> api (demo.rs:1)"),
        "{found:#?}"
    );
}

#[test]
fn a_page_importing_another_page_is_reported() {
    let files = [
        file(
            "routes/mod.rs",
            "mod domain;\nmod domains;\npub fn shared() {}\n",
        ),
        file(
            "routes/domains.rs",
            "use super::domain::DomainCard;\nuse super::shared;\nuse crate::routes::shared as s;\n",
        ),
        file(
            "routes/domain/mod.rs",
            "pub struct DomainCard;\nmod chart;\n",
        ),
        file("routes/domain/chart.rs", "use super::super::domains;\n"),
    ];
    let found = messages(&files, "routes", Some("routes"));
    assert_eq!(
        found,
        vec![
            "routes/domain/chart.rs:1: page `routes::domain` imports page `routes::domains` \
             (1 name(s))"
                .to_string(),
            "routes/domains.rs:1: page `routes::domains` imports page `routes::domain` (1 name(s))"
                .to_string(),
        ]
    );
}

#[test]
fn reexports_of_the_root_and_unlisted_modules_are_resolved() {
    let files = [
        file(
            "lib.rs",
            "mod ops;\nmod validate;\npub use ops::Operation as Op;\n",
        ),
        file("ops.rs", "pub enum Operation {}\n"),
        file("validate.rs", "use crate::Op;\n"),
        file("extra.rs", ""),
    ];
    let found = messages(&files, "validate <- ops", None);
    assert_eq!(
        found,
        vec![
            "extra.rs: module `extra` is not in ARCHITECTURE.md's layer table".to_string(),
            "validate.rs:1: `validate` imports `ops`, a higher layer (1 place(s); layers: \
             validate <- ops)"
                .to_string(),
        ]
    );
}

#[test]
fn test_code_is_exempt() {
    let files = [
        file(
            "json.rs",
            "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::client::Client;\n}\n",
        ),
        file("json/tests.rs", "use crate::client::Client;\n"),
        file("client.rs", "use crate::json;\n"),
    ];
    assert_eq!(
        messages(&files, "json <- client", None),
        Vec::<String>::new()
    );
}

#[test]
fn the_line_limit_leaves_out_tests_and_generated_data() {
    let body = "fn f() {}\n".repeat(MAX_LINES);
    assert_eq!(count_lines(&file("a.rs", &body)), MAX_LINES);
    assert!(too_long(&file("a.rs", &body)).is_none());
    let long = format!("{body}fn g() {{}}\n");
    assert!(too_long(&file("a.rs", &long)).is_some_and(|m| m.starts_with("701 lines")));
    let with_tests = format!("{body}#[cfg(test)]\nmod tests {{\n    fn t() {{}}\n}}\n");
    assert!(too_long(&file("a.rs", &with_tests))
        .is_some_and(|m| m.starts_with("704 lines (4 of them `#[cfg(test)]` code")));
    let generated = format!("// @generated by examples/tables.rs\n{long}");
    assert_eq!(count_lines(&file("tables.rs", &generated)), 0);
    assert_eq!(count_lines(&file("x/tests.rs", &long)), 0);
}

#[test]
fn the_layer_table_is_read_from_the_layers_section() {
    let doc = "# Architecture\n\n## Layers\n\nLower never imports higher.\n\n```text\n\
               src/      money  <-  json  <-  rules\n           (a leaf)\n\
               app/src/  paths, model  <-  store\n```\n\n```text\nother/ x <- y\n```\n";
    let table = layer_table(doc).unwrap();
    assert_eq!(
        table,
        vec![
            ("src".to_string(), layers("money <- json <- rules")),
            ("app/src".to_string(), layers("paths, model <- store")),
        ]
    );
    assert!(layer_table("# Architecture\n").is_err());
}

#[test]
fn architecture_md_holds_a_table_for_the_core_the_app_and_the_team_server() {
    let doc = std::fs::read_to_string(crate::root().join("ARCHITECTURE.md")).unwrap();
    let table = layer_table(&doc).unwrap();
    let dirs: Vec<&str> = table.iter().map(|(dir, _)| dir.as_str()).collect();
    assert_eq!(dirs, ["src", "app/src", "server/src"]);
}

fn pair_messages(files: &[SourceFile], allowed: &[(&str, &str)]) -> Vec<String> {
    pairs::file_pairs(files, allowed)
        .into_iter()
        .map(|v| v.to_string())
        .collect()
}

#[test]
fn two_files_importing_each_other_are_reported() {
    let files = [
        file(
            "lib.rs",
            "mod json;
",
        ),
        file(
            "json/mod.rs",
            "mod number;
mod token;
",
        ),
        file(
            "json/number.rs",
            "use super::token::Scalar;
",
        ),
        file(
            "json/token.rs",
            "pub enum Scalar {}
\nfn f() { super::number::json_f64(\"1\") }
",
        ),
    ];
    assert_eq!(
        pair_messages(&files, &[]),
        vec![
            "json/number.rs:1: `json/number.rs` and `json/token.rs` import each other \
             (json/number.rs:1 and json/token.rs:3): move what they share so the import goes \
             one way"
                .to_string()
        ]
    );
    let allowed = [("json/token.rs", "json/number.rs")];
    assert_eq!(pair_messages(&files, &allowed), Vec::<String>::new());
}

#[test]
fn a_module_and_its_child_pair_only_when_the_module_uses_the_child() {
    // A re-export passes the name on: `Reader`'s users depend on reader.rs, not on mod.rs.
    let reexport = [
        file(
            "json/mod.rs",
            "mod reader;
pub(crate) use reader::Reader;
pub struct Error;
",
        ),
        file(
            "json/reader.rs",
            "use super::Error;
pub struct Reader;
",
        ),
        file(
            "rules.rs",
            "use crate::json::Reader;
",
        ),
        file(
            "json/tests.rs",
            "use super::reader::Reader;
use crate::rules;
",
        ),
    ];
    assert_eq!(pair_messages(&reexport, &[]), Vec::<String>::new());
    // A plain path through a child the file declares is a use of it.
    let uses = [
        file(
            "json/mod.rs",
            "mod reader;
pub struct Error;
fn f() { reader::read() }
",
        ),
        file(
            "json/reader.rs",
            "use super::Error;
pub fn read() {}
",
        ),
    ];
    assert_eq!(
        pair_messages(&uses, &[]).len(),
        1,
        "{:?}",
        pair_messages(&uses, &[])
    );
}

#[test]
fn crate_roots_are_left_out_of_pairs() {
    let files = [
        file(
            "main.rs",
            "mod tools;
use tools::Tools;
pub fn root() {}
",
        ),
        file(
            "tools.rs",
            "pub struct Tools;
fn f() { crate::root() }
",
        ),
    ];
    assert_eq!(pair_messages(&files, &[]), Vec::<String>::new());
}

#[test]
fn a_price_in_a_string_is_reported_outside_tests_and_comments() {
    let files = [
        file(
            "routes/domain.rs",
            "// $0.05 in a comment\nfn v() -> &'static str {\n    \"stats ($0.05)\"\n}\n\
             const R: &str = r#\"$1\"#;\nconst S: &str = \"US$ or $x\";\n\
             #[cfg(test)]\nmod tests {\n    const T: &str = \"$0.0500\";\n}\n",
        ),
        file("routes/tests.rs", "const T: &str = \"$0.10\";\n"),
    ];
    let found: Vec<String> = prices::price_literals(&files)
        .into_iter()
        .map(|v| v.at)
        .collect();
    assert_eq!(found, ["routes/domain.rs:3", "routes/domain.rs:5"]);
}

#[test]
fn a_function_over_the_limit_is_found_outside_test_code_and_the_allowed_ones() {
    let long = |name: &str, n: usize| {
        format!(
            "pub fn {name}(\n    a: u8,\n) -> u8 {{\n{}    a\n}}\n",
            "    let _ = 1;\n".repeat(n - 5)
        )
    };
    let text = format!(
        "{}\nfn short() {{\n}}\n\ntrait T {{\n    fn declared(&self);\n}}\n\n{}\n#[cfg(test)]\nmod tests {{\n{}}}\n",
        long("Page", 151),
        long("Left", 200),
        long("in_tests", 300),
    );
    let found = lengths::functions(&text);
    assert_eq!(found[0], (1, "Page".to_string(), 151));
    assert_eq!(
        found.iter().map(|f| f.1.as_str()).collect::<Vec<_>>(),
        ["Page", "short", "Left"]
    );
    let files = [
        file("routes/page.rs", &text),
        file("routes/tests.rs", &long("T", 400)),
    ];
    let at: Vec<String> = lengths::long_functions(&files, &[("routes/page.rs", "Left")])
        .into_iter()
        .map(|v| v.at)
        .collect();
    assert_eq!(at, ["routes/page.rs:1"]);
    assert!(lengths::functions(&long("Exact", 150))
        .iter()
        .all(|f| f.2 == 150));
}

#[test]
fn every_page_has_its_line_in_the_page_list_and_no_route_is_written_by_hand() {
    let table = "/// The list.\nmacro_rules! for_each_page {\n    ($then:ident) => {\n        $then! {\n\
                 \x20           // module::Component, route, chunk, path\n\
                 \x20           home::Home, HomePage, pages_home, \"/\" | \"/home\", nav \"Home\";\n\
                 \x20           gone::Gone, GonePage, pages_home, \"/gone\";\n        }\n    };\n}\n\
                 pub(crate) use for_each_page;\nfn other() { let x = a::b(1, 2); }\n";
    assert_eq!(page_table::listed_pages(table), ["home", "gone"]);
    let files = [
        file("paths.rs", table),
        file("routes/mod.rs", "page!(HomePage, pages_home, home::Home);\n"),
        file("routes/home.rs", "// the router's `<Route>`s\n"),
        file("routes/extra/mod.rs", "pub fn Extra() {}\n"),
        file("routes/extra/part.rs", "pub fn piece() {}\n"),
        file(
            "lib.rs",
            "view! { <Route path=path!($path) view=x /> }\nview! { <Route path=path!(\"/x\") view=y /> }\n",
        ),
        file("routes/tests.rs", "<Route path=path!(\"/t\") />\n"),
    ];
    let found: Vec<String> = page_table::page_table(&files)
        .into_iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("routes/extra/mod.rs: page `extra` has no line"));
    assert!(found[1].starts_with("paths.rs: the page list names `gone`"));
    assert!(found[2].starts_with("lib.rs:2: a `<Route>` written by hand"));
}
