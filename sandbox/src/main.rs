//! `cargo run -p sandbox -- --port N`: the sandbox HTTP server.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use sandbox::{key_id, Config, Date, KeyConfig, Sandbox, DEFAULT_KEY};

const HELP: &str = "\
sandbox: offline stand-in for the keyword, backlink and SERP data service

USAGE: sandbox [--port N] [--host ADDR] [--key KEY[:BUDGET]]... [--max-body-bytes N] [--today YYYY-MM-DD]
               [--allow-origin ORIGIN]... [--max-heavy N] [--max-huge-mib N] [--max-ledger-entries N]

  --port N            port to listen on (default 8787; 0 picks a free one)
  --host ADDR         address to bind (default 127.0.0.1, loopback only)
  --key KEY[:BUDGET]  accept KEY; with :BUDGET (dollars, e.g. poor:0.50) it gets 402 once
                      spent. Repeatable. Without any --key: sandbox-test-key, no limit.
  --max-body-bytes N  request bodies larger than N bytes get 413 (default 1048576)
  --today YYYY-MM-DD  date the data ends at (default: today, UTC)
  --allow-origin ORIGIN
                      also allow this browser origin (CORS and POSTs); repeatable; `*` allows
                      any. Loopback origins (localhost, 127.x.x.x, [::1]) are always allowed.
  --max-heavy N       at most N huge/delay answers in flight; more get 503 (default 4)
  --max-huge-mib N    at most N MiB of huge bodies in flight; more get 503 (default 1024)
  --max-ledger-entries N
                      the ledger keeps the last N entries; its total counts all (default 100000)

POSTs need content-type: application/json (else 415).

The first line on stdout is `sandbox listening on http://ADDR:PORT`.
";

fn main() {
    if let Err(e) = run() {
        eprintln!("sandbox: {e}");
        std::process::exit(2);
    }
}

fn number(flag: &str, v: String) -> Result<usize, String> {
    v.parse().map_err(|_| format!("{flag}: not a number"))
}

fn run() -> Result<(), String> {
    let mut port: u16 = 8787;
    let mut host = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut keys = Vec::new();
    let mut config = Config::new(Date::today_utc());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (a.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(());
            }
            "--port" | "-p" => port = value()?.parse().map_err(|_| "--port: not a port")?,
            "--host" => host = value()?.parse().map_err(|_| "--host: not an IP address")?,
            "--key" => keys.push(KeyConfig::parse(&value()?)?),
            "--max-body-bytes" => {
                config.max_body_bytes = value()?
                    .parse()
                    .map_err(|_| "--max-body-bytes: not a number")?
            }
            "--today" => config.today = value()?.parse()?,
            "--allow-origin" => config.allow_origins.push(value()?),
            "--max-heavy" => config.max_heavy = number(&flag, value()?)?,
            "--max-huge-mib" => {
                config.max_huge_bytes = number(&flag, value()?)?.saturating_mul(1 << 20)
            }
            "--max-ledger-entries" => config.max_ledger_entries = number(&flag, value()?)?.max(1),
            other => return Err(format!("unknown argument {other:?}; see --help")),
        }
    }
    if !keys.is_empty() {
        config.keys = keys;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let listener = sandbox::server::bind(SocketAddr::new(host, port))
            .await
            .map_err(|e| format!("cannot bind {host}:{port}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "sandbox listening on http://{addr}");
        let _ = out.flush();
        for k in &config.keys {
            let budget = k
                .budget
                .map(|b| b.to_string())
                .unwrap_or_else(|| "no limit".into());
            let hint = if k.key == DEFAULT_KEY {
                k.key.clone()
            } else {
                key_id(&k.key)
            };
            eprintln!("key {hint}: {budget}");
        }
        eprintln!(
            "data as of {}; GET /health, GET /ledger, POST /ledger/reset",
            config.today
        );
        sandbox::server::serve(listener, Arc::new(Sandbox::new(config)))
            .await
            .map_err(|e| e.to_string())
    })
}
