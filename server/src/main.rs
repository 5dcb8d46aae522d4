//! `serpkit-server`: the team server and its administration.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use serpkit::machine::{parse_cap, Period};
use serpkit::ApiKey;
use serpkit_server::{auth, db, now_ms, Config};

const HELP: &str = "\
serpkit-server: the team's server (one journal, one budget, the service key) on PostgreSQL

USAGE:
  serpkit-server serve [--port N] [--host ADDR] [--upstream URL] [--allow-origin ORIGIN]...
                       [--max-body-bytes N] [--rate N]
  serpkit-server add-member NAME [--cap USD]     prints the member's token (shown once)
  serpkit-server revoke-member NAME
  serpkit-server budget [--cap USD] [--period day|month|until_reset] [--reset]
  serpkit-server run-schedules [--upstream URL] [--at MS]
                                                 runs the schedules due (at MS, ms since the
                                                 epoch: a test's later day) once and exits

ENVIRONMENT:
  DATABASE_URL          PostgreSQL, e.g. postgres://team@localhost/team (required)
  SERPKIT_SERVICE_KEY   the service's API key (serve; never on the command line, where other
                        users of the machine could read it)

  --port N              default 8788 (0: a free one); --host default 127.0.0.1
  --upstream URL        the service's base URL (default http://127.0.0.1:8787, the sandbox)
  --allow-origin ORIGIN a browser origin allowed to call (the app's); repeatable
  --rate N              calls per second per member (default 50)
  --cap USD             empty (\"\") for no cap; 0 for nothing; a comma is refused

The first line on stdout of `serve` is `server: http://ADDR:PORT`.
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => fail(&format!("no runtime: {e}")),
    };
    if let Err(e) = runtime.block_on(run(args)) {
        fail(&e);
    }
}

fn fail(message: &str) -> ! {
    eprintln!("serpkit-server: {message}");
    std::process::exit(2)
}

/// The value after `flag` in `args` (removed with it).
fn take(args: &mut Vec<String>, flag: &str) -> Result<Option<String>, String> {
    let Some(i) = args.iter().position(|a| a == flag) else {
        return Ok(None);
    };
    if i + 1 >= args.len() {
        return Err(format!("{flag} needs a value"));
    }
    let v = args.remove(i + 1);
    args.remove(i);
    Ok(Some(v))
}

fn cap_micros(text: &str) -> Result<Option<i64>, String> {
    parse_cap(text)
        .map(|c| c.map(|u| u.micros()))
        .map_err(|e| format!("--cap {text:?}: {e}"))
}

fn database_url() -> Result<String, String> {
    std::env::var("DATABASE_URL").map_err(|_| "DATABASE_URL is not set".to_string())
}

async fn run(mut args: Vec<String>) -> Result<(), String> {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    let command = args.remove(0);
    match command.as_str() {
        "serve" => serve(args).await,
        "add-member" => {
            let cap = take(&mut args, "--cap")?
                .map(|c| cap_micros(&c))
                .transpose()?
                .flatten();
            let [name] = args.as_slice() else {
                return Err("add-member NAME [--cap USD]".into());
            };
            let pool = db::pool(&database_url()?, 1)?;
            db::migrate(&pool).await?;
            println!(
                "member token: {}",
                auth::add_member(&pool, name, cap, now_ms()).await?
            );
            Ok(())
        }
        "revoke-member" => {
            let [name] = args.as_slice() else {
                return Err("revoke-member NAME".into());
            };
            let pool = db::pool(&database_url()?, 1)?;
            if auth::revoke(&pool, name, now_ms()).await? {
                println!("revoked {name}");
                Ok(())
            } else {
                Err(format!("no active member {name:?}"))
            }
        }
        "budget" => budget(args).await,
        "run-schedules" => run_schedules(args).await,
        other => Err(format!("unknown command {other:?}\n{HELP}")),
    }
}

async fn budget(mut args: Vec<String>) -> Result<(), String> {
    let cap = take(&mut args, "--cap")?
        .map(|c| cap_micros(&c))
        .transpose()?;
    let period = take(&mut args, "--period")?
        .map(|p| Period::from_name(&p).ok_or(format!("--period {p:?}: day, month or until_reset")))
        .transpose()?;
    let reset = args.iter().any(|a| a == "--reset");
    let pool = db::pool(&database_url()?, 1)?;
    db::migrate(&pool).await?;
    let c = pool.get().await.map_err(|e| e.to_string())?;
    let e = |e: tokio_postgres::Error| e.to_string();
    if let Some(cap) = cap {
        c.execute("UPDATE team SET cap_micros = $1", &[&cap])
            .await
            .map_err(e)?;
    }
    if let Some(p) = period {
        c.execute("UPDATE team SET period = $1", &[&p.as_str()])
            .await
            .map_err(e)?;
    }
    if reset {
        c.execute("UPDATE team SET reset_at = $1", &[&now_ms()])
            .await
            .map_err(e)?;
    }
    let row = c
        .query_one("SELECT cap_micros, period FROM team", &[])
        .await
        .map_err(e)?;
    let cap: Option<i64> = row.get(0);
    let cap = cap.map_or("none".into(), |m| serpkit::Usd::from_micros(m).to_string());
    println!("team cap: {cap} per {}", row.get::<_, &str>(1));
    Ok(())
}

/// Runs the schedules due once, by the clock or as of `--at` (the serving processes run them
/// every 30 s; this is for cron and for tests that move a day on).
async fn run_schedules(mut args: Vec<String>) -> Result<(), String> {
    let upstream = take(&mut args, "--upstream")?.unwrap_or("http://127.0.0.1:8787".into());
    let at: Option<i64> = take(&mut args, "--at")?
        .map(|a| a.parse().map_err(|_| "--at: milliseconds since the epoch"))
        .transpose()?;
    if let Some(a) = args.first() {
        return Err(format!("unexpected argument {a:?}"));
    }
    let key = std::env::var("SERPKIT_SERVICE_KEY")
        .map_err(|_| "SERPKIT_SERVICE_KEY is not set (the service's API key)".to_string())?;
    let config = Config::new(database_url()?, upstream, ApiKey::new(key));
    let clock: serpkit_server::Clock = match at {
        Some(t) => std::sync::Arc::new(move || t),
        None => std::sync::Arc::new(now_ms),
    };
    let app = serpkit_server::open_with_clock(config, clock).await?;
    let ran = serpkit_server::schedule::run_due(&app, app.now()).await?;
    println!("ran {ran}");
    Ok(())
}

async fn serve(mut args: Vec<String>) -> Result<(), String> {
    let port: u16 = take(&mut args, "--port")?
        .map_or(Ok(8788), |p| p.parse().map_err(|_| "--port: not a number"))?;
    let host: IpAddr = take(&mut args, "--host")?
        .map_or(Ok(IpAddr::V4(Ipv4Addr::LOCALHOST)), |h| {
            h.parse().map_err(|_| "--host: not an address")
        })?;
    let upstream = take(&mut args, "--upstream")?.unwrap_or("http://127.0.0.1:8787".into());
    let key = std::env::var("SERPKIT_SERVICE_KEY")
        .map_err(|_| "SERPKIT_SERVICE_KEY is not set (the service's API key)".to_string())?;
    let mut config = Config::new(database_url()?, upstream, ApiKey::new(key));
    while let Some(o) = take(&mut args, "--allow-origin")? {
        config.allow_origins.push(o);
    }
    if let Some(n) = take(&mut args, "--max-body-bytes")? {
        config.max_body_bytes = n.parse().map_err(|_| "--max-body-bytes: not a number")?;
    }
    if let Some(n) = take(&mut args, "--rate")? {
        config.rate_per_second = n.parse().map_err(|_| "--rate: not a number")?;
    }
    if let Some(a) = args.first() {
        return Err(format!("unexpected argument {a:?}"));
    }
    let app = serpkit_server::open(config).await?;
    let listener = serpkit_server::bind(SocketAddr::new(host, port))
        .await
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("server: http://{local}");
    let _ = std::io::stdout().flush();
    serpkit_server::serve(listener, app)
        .await
        .map_err(|e| e.to_string())
}
