//! `serpkit`: check recorded responses, estimate prices and print JSON Schemas from scripts
//! and CI.
//!
//! ```text
//! serpkit validate OPERATION BODY.json [--request REQ.json] [--format text|json]
//! serpkit price OPERATION REQ.json [--format text|json]
//! serpkit schema OPERATION
//! ```
//!
//! `-` reads standard input. Exit status: 0 no errors, 1 the body has errors (or the request
//! for `price` fails its checks), 2 usage or I/O error.

use std::io::{Read, Write};
use std::process::ExitCode;

use serpkit::ops::{Operation, Request};
use serpkit::validate::{json_schema, validate};

const USAGE: &str = "\
usage:
  serpkit validate OPERATION BODY.json [--request REQ.json] [--format text|json]
  serpkit price OPERATION REQ.json [--format text|json]
  serpkit schema OPERATION

OPERATION is a path such as search_volume/bulk or /v1/related. `-` reads standard input.
exit status: 0 ok, 1 errors found, 2 usage or I/O error";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

struct Usage(String);

fn read(path: &str) -> Result<String, Usage> {
    let mut s = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Usage(format!("cannot read standard input: {e}")))?;
    } else {
        s = std::fs::read_to_string(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    }
    Ok(s)
}

struct Args {
    positional: Vec<String>,
    request: Option<String>,
    format: Format,
}

fn parse(args: &[String]) -> Result<Args, Usage> {
    let mut out = Args {
        positional: Vec::new(),
        request: None,
        format: Format::Text,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (a.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| Usage(format!("{name} needs a value")))
        };
        match flag {
            "--request" => out.request = Some(value("--request")?),
            "--format" => {
                out.format = match value("--format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => return Err(Usage(format!("unknown format {other:?} (text|json)"))),
                }
            }
            "-h" | "--help" => return Err(Usage(String::new())),
            f if f.starts_with("--") => return Err(Usage(format!("unknown option {f}"))),
            _ => out.positional.push(a.clone()),
        }
    }
    Ok(out)
}

fn operation(s: &str) -> Result<Operation, Usage> {
    s.parse().map_err(|e| Usage(format!("{e}")))
}

fn run(args: &[String], out: &mut impl Write) -> Result<u8, Usage> {
    let Some((cmd, rest)) = args.split_first() else {
        return Err(Usage(String::new()));
    };
    let a = parse(rest)?;
    let io = |e: std::io::Error| Usage(format!("cannot write output: {e}"));
    match (cmd.as_str(), a.positional.as_slice()) {
        ("validate", [op, body]) => {
            let op = operation(op)?;
            if body == "-" && a.request.as_deref() == Some("-") {
                return Err(Usage("only one of BODY and --request can be `-`".into()));
            }
            let request = match &a.request {
                Some(p) => Some(
                    Request::from_json(op, &read(p)?)
                        .map_err(|e| Usage(format!("request {p}: {e}")))?,
                ),
                None => None,
            };
            let body = read(body)?;
            let report = validate(op, &body, request.as_ref());
            match a.format {
                Format::Json => {
                    let text = serde_json::to_string_pretty(&report).unwrap_or_default();
                    writeln!(out, "{text}").map_err(io)?;
                }
                Format::Text => writeln!(out, "{report}").map_err(io)?,
            }
            Ok(if report.ok() { 0 } else { 1 })
        }
        ("price", [op, req]) => {
            let op = operation(op)?;
            let request =
                Request::from_json(op, &read(req)?).map_err(|e| Usage(format!("{req}: {e}")))?;
            let price = op.price();
            let units = request.billable_units();
            let cost = serpkit::estimate_cost(&request);
            let check = request.check();
            match a.format {
                Format::Json => {
                    let v = serde_json::json!({
                        "operation": op.path(),
                        "units": units,
                        "unit": price.unit.label(),
                        "price": price.usd.to_string(),
                        "estimate": cost.to_string(),
                        "request_ok": check.is_ok(),
                        "request_error": check.as_ref().err().map(|e| e.to_string()),
                    });
                    let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                    writeln!(out, "{text}").map_err(io)?;
                }
                Format::Text => {
                    writeln!(
                        out,
                        "{cost} ({units} × {} {})",
                        price.usd,
                        price.unit.label()
                    )
                    .map_err(io)?;
                    if let Err(e) = &check {
                        writeln!(out, "request check failed: {e}").map_err(io)?;
                    }
                }
            }
            Ok(if check.is_ok() { 0 } else { 1 })
        }
        ("schema", [op]) => {
            let schema = json_schema(operation(op)?);
            let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
            writeln!(out, "{text}").map_err(io)?;
            Ok(0)
        }
        ("help" | "-h" | "--help", _) => Err(Usage(String::new())),
        ("validate" | "price" | "schema", _) => {
            Err(Usage(format!("wrong number of arguments for {cmd}")))
        }
        _ => Err(Usage(format!("unknown command {cmd:?}"))),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    if args.iter().any(|a| a == "-h" || a == "--help") || args[0] == "help" {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(&args, &mut out) {
        Ok(code) => ExitCode::from(code),
        Err(Usage(msg)) => {
            let _ = out.flush();
            if msg.is_empty() {
                eprintln!("{USAGE}");
            } else {
                eprintln!("serpkit: {msg}\n\n{USAGE}");
            }
            ExitCode::from(2)
        }
    }
}
