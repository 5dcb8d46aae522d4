//! The hand-written TypeScript types of the JS package (`src/js/serpkit.d.ts`) match the Rust
//! model: every request, response record and the validation report, field by field, both
//! ways, with optionality and JSON types; plus the string unions (operations, price units,
//! severities, error codes).
//!
//! The interfaces are read from the .d.ts text with simple string handling. Rust values are
//! serialized to JSON (Default instances, hand-filled instances with every optional field and
//! one element per array, and sandbox bodies of every operation) and each value is checked
//! against its TS type recursively. A TS field never seen in any value fails the test too.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{json, Value};
use serpkit::client::Error;
use serpkit::ops::{self, Operation, PriceUnit, Request};

const DTS: &str = include_str!("../src/js/serpkit.d.ts");

// ---- A tiny reader of the .d.ts ---------------------------------------------------------

#[derive(Debug, Clone)]
struct Field {
    name: String,
    optional: bool,
    ty: String,
}

#[derive(Debug, Default)]
struct Dts {
    interfaces: BTreeMap<String, (Vec<String>, Vec<Field>)>,
    aliases: BTreeMap<String, String>,
}

fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i..]
            .find("*/")
            .map(|j| &rest[i + j + 2..])
            .unwrap_or("");
    }
    out.push_str(rest);
    out.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits `text` at `sep` characters outside brackets.
fn split_top(text: &str, seps: &[char]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    let mut prev = ' ';
    for c in text.chars() {
        match c {
            '{' | '(' | '[' | '<' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            '>' if prev != '=' => depth -= 1,
            _ => {}
        }
        if depth == 0 && seps.contains(&c) {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
        prev = c;
    }
    parts.push(cur);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn parse_members(body: &str) -> Vec<Field> {
    split_top(body, &[';', '\n'])
        .into_iter()
        .map(|m| {
            let colon = m
                .find(':')
                .unwrap_or_else(|| panic!("member without type: {m}"));
            let name = m[..colon].trim();
            let (name, optional) = match name.strip_suffix('?') {
                Some(n) => (n.trim(), true),
                None => (name, false),
            };
            Field {
                name: name.to_string(),
                optional,
                ty: m[colon + 1..].trim().to_string(),
            }
        })
        .collect()
}

/// The text between the `{` at `open` and its matching `}`.
fn block(text: &str, open: usize) -> &str {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open + 1..open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces")
}

fn parse_dts(src: &str) -> Dts {
    let text = strip_comments(src);
    let mut dts = Dts::default();
    let mut pos = 0;
    while let Some(i) = text[pos..].find("export interface ") {
        let start = pos + i + "export interface ".len();
        let open = start + text[start..].find('{').expect("interface body");
        let head = text[start..open].trim();
        let (name, extends) = match head.split_once(" extends ") {
            Some((n, e)) => (n.trim(), split_top(e, &[','])),
            None => (head, vec![]),
        };
        let name = name.split('<').next().unwrap().trim().to_string();
        let body = block(&text, open);
        dts.interfaces.insert(name, (extends, parse_members(body)));
        pos = open + body.len() + 2;
    }
    let mut pos = 0;
    while let Some(i) = text[pos..].find("export type ") {
        let start = pos + i + "export type ".len();
        let eq = start + text[start..].find('=').unwrap();
        let end = eq + text[eq..].find(';').unwrap();
        let name = text[start..eq].trim().to_string();
        dts.aliases
            .insert(name, text[eq + 1..end].trim().to_string());
        pos = end;
    }
    dts
}

impl Dts {
    /// All fields of an interface, inherited ones first.
    fn fields(&self, name: &str) -> Option<Vec<Field>> {
        let (extends, own) = self.interfaces.get(name)?;
        let mut all = Vec::new();
        for e in extends {
            all.extend(self.fields(e).unwrap_or_default());
        }
        all.extend(own.iter().cloned());
        Some(all)
    }

    /// The string literals of a union alias (`"a" | "b"`).
    fn literals(&self, alias: &str) -> BTreeSet<String> {
        let def = self
            .aliases
            .get(alias)
            .unwrap_or_else(|| panic!("no type alias {alias} in serpkit.d.ts"));
        literal_union(def).unwrap_or_else(|| panic!("{alias} is not a string literal union"))
    }
}

fn literal_union(ty: &str) -> Option<BTreeSet<String>> {
    let parts = split_top(ty, &['|']);
    parts
        .iter()
        .map(|p| {
            p.strip_prefix('"')
                .and_then(|p| p.strip_suffix('"'))
                .map(str::to_string)
        })
        .collect()
}

// ---- Checking JSON values against TS types ------------------------------------------------

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

struct Checker {
    dts: Dts,
    errors: Vec<String>,
    /// (interface, field) pairs seen present in some value.
    seen: BTreeSet<(String, String)>,
    /// Interfaces visited.
    visited: BTreeSet<String>,
}

impl Checker {
    fn check(&mut self, ty: &str, v: &Value, path: &str) {
        let ty = ty.trim();
        let alts = split_top(ty, &['|']);
        if alts.len() > 1 {
            if let Some(lits) = literal_union(ty) {
                match v.as_str() {
                    // Default values are empty strings; other values must be a member.
                    Some(s) if s.is_empty() || lits.contains(s) => {}
                    _ => self.err(path, format!("{v} is not one of {ty}")),
                }
                return;
            }
            if v.is_null() && alts.iter().any(|a| a == "null") {
                return;
            }
            let non_null: Vec<&String> = alts.iter().filter(|a| *a != "null").collect();
            if non_null.len() == 1 {
                return self.check(non_null[0], v, path);
            }
            self.err(path, format!("cannot check union {ty}"));
            return;
        }
        if let Some(inner) = ty.strip_suffix("[]") {
            match v.as_array() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.check(inner, item, &format!("{path}/{i}"));
                    }
                }
                None => self.err(path, format!("expected an array ({ty}), got {}", kind(v))),
            }
            return;
        }
        let ok = match ty {
            "unknown" => true,
            "number" => v.is_number(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            _ if ty.starts_with('{') => {
                let fields = parse_members(&ty[1..ty.len() - 1]);
                self.check_object(&format!("{{inline at {path}}}"), &fields, v, path);
                true
            }
            _ if self.dts.aliases.contains_key(ty) => {
                let def = self.dts.aliases[ty].clone();
                self.check(&def, v, path);
                true
            }
            _ => match self.dts.fields(ty) {
                Some(fields) => {
                    self.visited.insert(ty.to_string());
                    self.check_object(ty, &fields, v, path);
                    true
                }
                None => {
                    self.err(path, format!("unknown TS type {ty}"));
                    true
                }
            },
        };
        if !ok {
            self.err(path, format!("expected {ty}, got {}", kind(v)));
        }
    }

    fn check_object(&mut self, name: &str, fields: &[Field], v: &Value, path: &str) {
        let Some(obj) = v.as_object() else {
            return self.err(
                path,
                format!("expected an object ({name}), got {}", kind(v)),
            );
        };
        for f in fields {
            match obj.get(&f.name) {
                Some(fv) => {
                    self.seen.insert((name.to_string(), f.name.clone()));
                    self.check(&f.ty, fv, &format!("{path}/{}", f.name));
                }
                None if f.optional => {}
                None => self.err(
                    path,
                    format!(
                        "{name}.{} is required in TS but Rust did not send it",
                        f.name
                    ),
                ),
            }
        }
        for k in obj.keys() {
            if !fields.iter().any(|f| &f.name == k) {
                self.err(
                    path,
                    format!("Rust sends {k:?}, which {name} does not declare"),
                );
            }
        }
    }

    /// Records a mismatch once per shape (array indices shown as `*`).
    fn err(&mut self, path: &str, msg: String) {
        let path: Vec<&str> = path
            .split('/')
            .map(|seg| {
                if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
                    "*"
                } else {
                    seg
                }
            })
            .collect();
        let line = format!("{}: {msg}", path.join("/"));
        if !self.errors.contains(&line) {
            self.errors.push(line);
        }
    }

    fn value<T: Serialize>(&mut self, ty: &str, v: &T) {
        let v = serde_json::to_value(v).unwrap();
        self.check(ty, &v, &format!("<{ty}>"));
    }

    /// Fails with every mismatch found, and with TS fields of visited interfaces that no
    /// Rust value ever carried.
    fn finish(self, what: &str) {
        let mut errors = self.errors;
        for name in &self.visited {
            for f in self.dts.fields(name).unwrap() {
                if !self.seen.contains(&(name.clone(), f.name.clone())) {
                    errors.push(format!(
                        "{name}.{} is declared in TS but never sent by Rust",
                        f.name
                    ));
                }
            }
        }
        assert!(
            errors.is_empty(),
            "{what}: serpkit.d.ts does not match the Rust model:\n  {}",
            errors.join("\n  ")
        );
    }
}

fn checker() -> Checker {
    Checker {
        dts: parse_dts(DTS),
        errors: vec![],
        seen: BTreeSet::new(),
        visited: BTreeSet::new(),
    }
}

// ---- The operation table of the JS exports ---------------------------------------------

/// `(JS method, request TS type, response TS type)` from the `interface Client` of
/// `serpkit.d.ts` (record_client.js defines the methods from the core's list,
/// [`Operation::js_method`], written into static_data.js by examples/pkg_data.rs).
fn js_table() -> Vec<(String, String, String)> {
    let start = DTS
        .find("export interface Client<I extends IntegersMode = \"number\"> {")
        .expect("interface Client");
    let body = &DTS[start..];
    let body = &body[..body.find("\n}").unwrap()];
    body.lines()
        .map(str::trim)
        .filter(|l| l.contains("(request: ") && l.contains("Promise<Reply<WithIntegers<"))
        .map(|l| {
            let method = &l[..l.find('(').unwrap()];
            let req = &l[l.find("(request: ").unwrap() + 10..l.find(", options").unwrap()];
            let resp = l
                .split("Promise<Reply<WithIntegers<")
                .nth(1)
                .and_then(|r| r.strip_suffix(", I>>>;"))
                .unwrap_or_else(|| panic!("response type in {l}"));
            (method.into(), req.into(), resp.into())
        })
        .collect()
}

fn sample_request(op: Operation) -> Value {
    use Operation::*;
    match op {
        SearchVolumeBulk => json!({"keywords": ["trail shoes", "running shoes"], "ccode": "US"}),
        SearchVolumeSingle => json!({"keyword": "trail shoes", "ccode": "US"}),
        DomainStats => json!({"domains": ["example.com", "example.org"]}),
        BacklinkMetrics => json!({"urls": ["https://example.com/a"]}),
        RankedKeywordsMetrics | RankedKeywordsDomain | BacklinkOverview => {
            json!({"domain": "example.com"})
        }
        OutlineSeo | MicroblogPost | VideoVideo => json!({"keyword": "trail shoes"}),
        Related => json!({"keyword": "trail shoes", "ccode": "US"}),
    }
}

/// A sandbox body of the operation, decoded into the Rust response type and serialized
/// again (what the Rust model holds), and the raw body.
fn bodies(op: Operation) -> (Value, Value) {
    let mut req_json = sample_request(op);
    req_json["key"] = json!("k");
    let req = Request::from_json(op, &req_json.to_string()).unwrap();
    let today = sandbox::Date::new(2024, 3, 5).unwrap();
    let text = sandbox::generate::body(&req, today);
    macro_rules! typed {
        ($($v:ident => $m:ident),*) => {
            match op {
                $(Operation::$v => serde_json::to_value(
                    serpkit::decode::<ops::$m::Response>(&text).unwrap()
                ).unwrap(),)*
            }
        };
    }
    let typed = typed!(
        SearchVolumeBulk => search_volume_bulk, SearchVolumeSingle => search_volume_single,
        DomainStats => domainstats, BacklinkMetrics => backlink_metrics,
        RankedKeywordsMetrics => ranked_keywords_metrics,
        RankedKeywordsDomain => ranked_keywords_domain, BacklinkOverview => backlink_overview,
        OutlineSeo => outline_seo, MicroblogPost => microblog_post, VideoVideo => video_video,
        Related => related
    );
    (typed, serde_json::from_str(&text).unwrap())
}

// ---- Tests ------------------------------------------------------------------------------

#[test]
fn the_dts_reader_reads_what_it_should() {
    let dts = parse_dts(DTS);
    let f = dts.fields("OverviewMetrics").unwrap();
    assert!(f.iter().any(|f| f.name == "backlinks" && f.ty == "number"));
    assert!(f.iter().any(|f| f.name == "_id"));
    let r = dts.fields("ValidationReport").unwrap();
    let pos = r.iter().find(|f| f.name == "position").unwrap();
    assert!(pos.optional && pos.ty.starts_with('{'));
    let b = dts.fields("BulkOptions").unwrap();
    assert!(b.iter().any(|f| f.name == "signal" && f.optional));
    assert!(b.iter().any(|f| f.name == "onProgress"));
    // The checker catches a wrong type, a missing field and an undeclared one.
    let mut c = checker();
    c.check(
        "RelatedKeyword",
        &json!({"keyword": 1, "competition": 0.1, "cpc": 1, "kd": 3, "extra": true}),
        "",
    );
    assert_eq!(c.errors.len(), 3, "{:?}", c.errors);
}

#[test]
fn every_operation_has_a_typed_method_request_and_response() {
    let table = js_table();
    let methods: Vec<&str> = table.iter().map(|t| t.0.as_str()).collect();
    let all: Vec<&str> = Operation::ALL.iter().map(|o| o.js_method()).collect();
    assert_eq!(
        methods, all,
        "interface Client must have a method per operation, in order"
    );
    let dts = parse_dts(DTS);
    for (method, req, resp) in &table {
        assert!(
            dts.interfaces.contains_key(req),
            "{method}: no interface {req}"
        );
        let elem = resp.trim_end_matches("[]");
        assert!(
            dts.interfaces.contains_key(elem),
            "{method}: no interface {elem}"
        );
    }
}

#[test]
fn requests_match() {
    let mut c = checker();
    for (op, (method, req_ty, _)) in Operation::ALL.into_iter().zip(js_table()) {
        // The body the client sends (with the key) ...
        let mut with_key = sample_request(op);
        with_key["key"] = json!("secret");
        let req = Request::from_json(op, &with_key.to_string()).unwrap();
        let sent: Value = serde_json::from_str(&req.to_json()).unwrap();
        c.check(&req_ty, &sent, &format!("<{method} request>"));
        // ... and what a TS caller may pass: every required TS field, no key.
        let fields = c.dts.fields(&req_ty).unwrap();
        let minimal: serde_json::Map<String, Value> = fields
            .iter()
            .filter(|f| !f.optional)
            .map(|f| (f.name.clone(), sample_request(op)[&f.name].clone()))
            .collect();
        Request::from_json(op, &Value::Object(minimal).to_string())
            .unwrap_or_else(|e| panic!("{method}: the TS-required fields are not enough: {e}"));
        assert!(
            fields.iter().any(|f| f.name == "key" && f.optional),
            "{req_ty}: key is optional"
        );
    }
    c.finish("requests");
}

#[test]
fn responses_match() {
    let mut c = checker();
    for (op, (method, _, resp_ty)) in Operation::ALL.into_iter().zip(js_table()) {
        let (typed, raw) = bodies(op);
        c.check(&resp_ty, &typed, &format!("<{method} typed>"));
        c.check(&resp_ty, &raw, &format!("<{method} sandbox body>"));
    }
    // Default instances (optional fields absent) ...
    use ops::backlink_overview as bo;
    use ops::video_video as vv;
    c.value(
        "SearchVolumeRecord",
        &ops::search_volume_bulk::SearchVolumeRecord::default(),
    );
    c.value(
        "DomainStatsRecord",
        &ops::domainstats::DomainStatsRecord::default(),
    );
    c.value(
        "PageBacklinkMetrics",
        &ops::backlink_metrics::PageBacklinkMetrics::default(),
    );
    c.value(
        "RankedKeywordsMetrics",
        &ops::ranked_keywords_metrics::RankedKeywordsMetrics::default(),
    );
    c.value(
        "RankedKeyword",
        &ops::ranked_keywords_domain::RankedKeyword::default(),
    );
    c.value("DomainOverview", &bo::DomainOverview::default());
    c.value("OutlinePage", &ops::outline_seo::OutlinePage::default());
    c.value(
        "MicroblogPost",
        &ops::microblog_post::MicroblogPost::default(),
    );
    c.value("Video", &vv::Video::default());
    c.value("VideoHashtag", &vv::VideoHashtag::default());
    c.value("RelatedKeyword", &ops::related::RelatedKeyword::default());
    // ... and filled ones: every optional field present, one element per array.
    c.value(
        "SearchVolumeRecord",
        &ops::search_volume_bulk::SearchVolumeRecord {
            targeted_monthly_searches: vec![Default::default()],
            ..Default::default()
        },
    );
    c.value(
        "DomainStatsRecord",
        &ops::domainstats::DomainStatsRecord {
            domain_as_entered: Some("Example.com".into()),
            ..Default::default()
        },
    );
    c.value(
        "DomainOverview",
        &bo::DomainOverview {
            stats: vec![Default::default()],
            ref_newlost: vec![bo::RefNewLost {
                new_lost_type: "new".into(),
                ..Default::default()
            }],
            ..Default::default()
        },
    );
    c.value(
        "OutlinePage",
        &ops::outline_seo::OutlinePage {
            headings: vec![Default::default()],
            ..Default::default()
        },
    );
    c.value(
        "MicroblogPost",
        &ops::microblog_post::MicroblogPost {
            hashtags: vec!["#a".into()],
            tagged: vec!["@b".into()],
            media: vec![json!({"any": 1})],
            ..Default::default()
        },
    );
    c.value(
        "Video",
        &vv::Video {
            hashtags: vec![vv::VideoHashtag {
                text: "#t".into(),
                navigation_endpoint: Some(vv::NavigationEndpoint {
                    browse_endpoint: vv::BrowseEndpoint {
                        browse_id: "id".into(),
                        params: Some("p".into()),
                    },
                    ..Default::default()
                }),
                logging_directives: Some(Default::default()),
            }],
            keywords: vec!["k".into()],
            language: vec!["en".into()],
            ..Default::default()
        },
    );
    c.finish("responses");
}

#[test]
fn the_validation_report_matches() {
    let mut c = checker();
    // Errors and warnings (kd is a string: error; kd 140: out of the observed range).
    let body = r#"[{"keyword":"a","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"},
                   {"keyword":"b","competition":0.4,"cpc":1.2,"search_volume":80,"kd":140}]"#;
    let r = serpkit::validate(Operation::Related, body, None);
    assert!(r.error_count() > 0 && r.warning_count() > 0);
    c.value("ValidationReport", &r);
    // A syntax error carries the position.
    let r = serpkit::validate(Operation::Related, "[{", None);
    assert!(r.position.is_some());
    c.value("ValidationReport", &r);
    c.finish("report");
}

#[test]
fn string_unions_match() {
    let dts = parse_dts(DTS);
    let paths: BTreeSet<String> = Operation::ALL.iter().map(|o| o.path().into()).collect();
    assert_eq!(dts.literals("OperationName"), paths);

    let units: BTreeSet<String> = [
        PriceUnit::PerKeyword,
        PriceUnit::PerDomain,
        PriceUnit::PerUrl,
        PriceUnit::PerRequest,
    ]
    .iter()
    .map(|u| {
        serde_json::to_value(u)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    })
    .collect();
    assert_eq!(dts.literals("PriceUnit"), units);
    for op in Operation::ALL {
        let u = serde_json::to_value(op.price().unit).unwrap();
        assert!(units.contains(u.as_str().unwrap()));
    }

    let sev: BTreeSet<String> = [
        serpkit::validate::Severity::Error,
        serpkit::validate::Severity::Warning,
    ]
    .iter()
    .map(|s| {
        serde_json::to_value(s)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    })
    .collect();
    assert_eq!(dts.literals("Severity"), sev);

    // Every client error code, plus the two the JS layer adds.
    let decode_err = serpkit::decode::<Value>("[").unwrap_err();
    let report = serpkit::validate(Operation::Related, "[{", None);
    let request_err = Request::from_json(Operation::Related, "[").unwrap_err();
    let errors = [
        Error::InvalidRequest(request_err),
        Error::MissingKey,
        Error::BudgetExceeded {
            estimate: serpkit::Usd::ZERO,
            spent: serpkit::Usd::ZERO,
            budget: serpkit::Usd::ZERO,
        },
        Error::Http {
            status: 429,
            body: String::new(),
            retry_after: None,
        },
        Error::Timeout {
            after: std::time::Duration::from_secs(1),
            possible_charge: serpkit::Usd::ZERO,
        },
        Error::Aborted {
            possible_charge: serpkit::Usd::ZERO,
        },
        Error::Network("x".into()),
        Error::ConnectionLost {
            message: "x".into(),
            possible_charge: serpkit::Usd::ZERO,
        },
        Error::BodyLost {
            status: 200,
            message: "x".into(),
            charge: serpkit::Usd::ZERO,
        },
        Error::BodyTooLarge {
            limit: 1,
            charge: serpkit::Usd::ZERO,
        },
        Error::NotJson {
            error: decode_err.clone(),
            charge: serpkit::Usd::ZERO,
        },
        Error::Decode {
            error: decode_err,
            charge: serpkit::Usd::ZERO,
        },
        Error::ContractViolation {
            report: Box::new(report),
            body: String::new(),
            charge: serpkit::Usd::ZERO,
        },
    ];
    let mut codes: BTreeSet<String> = errors.iter().map(|e| e.code().to_string()).collect();
    for js_only in serpkit::js::JS_ERROR_CODES {
        codes.insert(js_only.into());
    }
    assert_eq!(dts.literals("ErrorCode"), codes);
    // The crate's list of every code the JS layer throws (its errors are made from it) is the
    // union, in its order.
    let listed: Vec<String> = split_top(&dts.aliases["ErrorCode"], &['|'])
        .iter()
        .map(|code| code.trim_matches('"').to_string())
        .collect();
    assert_eq!(
        listed,
        serpkit::js::ERROR_CODES,
        "ErrorCode lists the codes in order"
    );
}

#[test]
fn option_names_match() {
    let dts = parse_dts(DTS);
    let names = |interface: &str| -> Vec<String> {
        let (_, own) = &dts.interfaces[interface];
        own.iter().map(|f| f.name.clone()).collect()
    };
    assert_eq!(names("ClientOptions"), serpkit::js::CLIENT_OPTION_NAMES);
    assert_eq!(names("RetryOptions"), serpkit::js::RETRY_OPTION_NAMES);
    assert_eq!(names("CallOptions"), serpkit::js::CALL_OPTION_NAMES);
    assert_eq!(names("BulkOptions"), serpkit::js::BULK_OPTION_NAMES);
}
