//! `serpkit-server`: the team server and its administration.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use serpkit::machine::{parse_cap, Period};
use serpkit::ApiKey;
use serpkit_server::{admin, auth, db, now_ms, Config};

const HELP: &str = "\
serpkit-server: the team's server (one journal, one budget, the service key) on PostgreSQL

SERVING:
  serpkit-server serve [OPTIONS]               serves until SIGTERM/SIGINT, then drains
  serpkit-server run-schedules [--upstream URL] [--upstream-ca FILE] [--at MS]
                                               runs the schedules due (at MS, ms since the
                                               epoch: a test's later day) once and exits

ADMINISTRATION (each prints tab-separated rows or one line; exit status 2 on error):
  serpkit-server members                       every member: state, cap, this period's spend
  serpkit-server add-member NAME [--cap USD]   prints the member's token (shown once)
  serpkit-server revoke-member NAME            its token stops working; its entries stay
  serpkit-server rotate-token NAME             prints a new token; the old one stops working
  serpkit-server member-cap NAME USD           the member's own cap (\"\" for none)
  serpkit-server budget [--cap USD] [--period day|month|until_reset] [--reset]
                                               the team's cap and period (prints them)
  serpkit-server schedules                     every schedule with its runs and stored bytes
  serpkit-server delete-schedule ID            deletes it and its stored runs
  serpkit-server retention [--days N] [--apply]
                                               how long scheduled runs are kept (\"\": for
                                               ever); --apply deletes the older ones now
                                               (serving processes do every hour)

ENVIRONMENT:
  DATABASE_URL          PostgreSQL, e.g. postgres://team@db.example/team?sslmode=verify-full
                        (required; sslmode disable, prefer (default), require, verify-ca,
                        verify-full as libpq means them; sslrootcert=FILE adds roots)
  SERPKIT_SERVICE_KEY   the service's API key (serve, run-schedules; never on the command
                        line, where other users of the machine could read it; empty refused)
  SERPKIT_METRICS_TOKEN the bearer token GET /metrics asks for (unset: no /metrics)
  SERPKIT_LOG           log format: text (default) or json

SERVE OPTIONS:
  --port N                  default 8788 (0: a free one); --host ADDR default 127.0.0.1
  --upstream URL            the service's base URL: https://…, or http:// to a loopback
                            address (default http://127.0.0.1:8787, the sandbox)
  --upstream-ca FILE        PEM roots trusted for the service beside the bundled ones
  --database-ca FILE        PEM roots trusted for PostgreSQL beside the bundled ones
  --allow-origin ORIGIN     a browser origin allowed to call (the app's); repeatable
  --rate N                  calls per second per member (default 50)
  --max-body-bytes N        larger request bodies get 413 (default 262144)
  --header-timeout S        seconds to send a request's head (default 10)
  --body-timeout S          seconds to send a request's body (default 30; then 408)
  --upstream-timeout S      seconds the service may take (default 45, under proxies' 60)
  --max-connections N       open client connections (default 4096, kept under the
                            open-files limit; at the limit the longest idle one is closed)
  --grace S                 on SIGTERM, seconds for calls in flight to finish (default 50)
  --pool-size N             database connections (default 16)

  --cap USD                 empty (\"\") for no cap; 0 for nothing; a comma is refused

The first line on stdout of `serve` is `server: http://ADDR:PORT`; logs go to stderr.
";

fn main() {
    let json = std::env::var("SERPKIT_LOG").is_ok_and(|v| v == "json");
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false);
    if json {
        logs.json().init();
    } else {
        logs.init();
    }
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

/// `flag`'s value parsed, if given.
fn number<T: std::str::FromStr>(args: &mut Vec<String>, flag: &str) -> Result<Option<T>, String> {
    take(args, flag)?
        .map(|v| v.parse().map_err(|_| format!("{flag} {v:?}: not a number")))
        .transpose()
}

/// `flag`'s value in seconds, if given.
fn seconds(args: &mut Vec<String>, flag: &str) -> Result<Option<Duration>, String> {
    number::<f64>(args, flag)?
        .map(|s| Duration::try_from_secs_f64(s).map_err(|_| format!("{flag}: seconds, >= 0")))
        .transpose()
}

fn no_more(args: &[String]) -> Result<(), String> {
    match args.first() {
        Some(a) => Err(format!("unexpected argument {a:?} (--help lists them)")),
        None => Ok(()),
    }
}

fn cap_micros(text: &str) -> Result<Option<i64>, String> {
    parse_cap(text)
        .map(|c| c.map(|u| u.micros()))
        .map_err(|e| format!("cap {text:?}: {e}"))
}

fn database_url() -> Result<String, String> {
    std::env::var("DATABASE_URL").map_err(|_| "DATABASE_URL is not set".to_string())
}

fn service_key() -> Result<ApiKey, String> {
    let key = std::env::var("SERPKIT_SERVICE_KEY")
        .map_err(|_| "SERPKIT_SERVICE_KEY is not set (the service's API key)".to_string())?;
    if key.trim().is_empty() {
        return Err("SERPKIT_SERVICE_KEY is empty: refusing to start without a key".into());
    }
    Ok(ApiKey::new(key))
}

/// A migrated pool of one connection, for a command.
async fn admin_pool() -> Result<deadpool_postgres::Pool, String> {
    let pool = db::pool(&database_url()?, 1)?;
    db::migrate(&pool).await?;
    Ok(pool)
}

/// The one NAME argument of a command.
fn one_name(args: &[String], usage: &str) -> Result<String, String> {
    match args {
        [name] => Ok(name.clone()),
        _ => Err(format!("usage: serpkit-server {usage}")),
    }
}

async fn run(mut args: Vec<String>) -> Result<(), String> {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    let command = args.remove(0);
    match command.as_str() {
        "serve" => serve(args).await,
        "run-schedules" => run_schedules(args).await,
        "members" => {
            no_more(&args)?;
            print!("{}", admin::members(&admin_pool().await?, now_ms()).await?);
            Ok(())
        }
        "add-member" => {
            let cap = take(&mut args, "--cap")?
                .map(|c| cap_micros(&c))
                .transpose()?
                .flatten();
            let name = one_name(&args, "add-member NAME [--cap USD]")?;
            let token = auth::add_member(&admin_pool().await?, &name, cap, now_ms()).await?;
            println!("member token: {token}");
            Ok(())
        }
        "revoke-member" => {
            let name = one_name(&args, "revoke-member NAME")?;
            if auth::revoke(&admin_pool().await?, &name, now_ms()).await? {
                println!("revoked {name}");
                Ok(())
            } else {
                Err(format!("no active member {name:?}"))
            }
        }
        "rotate-token" => {
            let name = one_name(&args, "rotate-token NAME")?;
            let token = admin::rotate_token(&admin_pool().await?, &name).await?;
            println!("member token: {token}");
            Ok(())
        }
        "member-cap" => {
            let [name, cap] = args.as_slice() else {
                return Err("usage: serpkit-server member-cap NAME USD (\"\" for none)".into());
            };
            let cap = cap_micros(cap)?;
            println!(
                "{}",
                admin::member_cap(&admin_pool().await?, name, cap).await?
            );
            Ok(())
        }
        "budget" => budget(args).await,
        "schedules" => {
            no_more(&args)?;
            print!("{}", admin::schedules(&admin_pool().await?).await?);
            Ok(())
        }
        "delete-schedule" => {
            let id = one_name(&args, "delete-schedule ID")?;
            let id: i64 = id
                .parse()
                .map_err(|_| format!("{id:?}: not a schedule id"))?;
            if admin::delete_schedule(&admin_pool().await?, id, None).await? {
                println!("deleted schedule {id}");
                Ok(())
            } else {
                Err(format!("no schedule {id}"))
            }
        }
        "retention" => retention(args).await,
        other => Err(format!("unknown command {other:?} (--help lists them)")),
    }
}

async fn retention(mut args: Vec<String>) -> Result<(), String> {
    let days = take(&mut args, "--days")?
        .map(|d| match d.trim() {
            "" => Ok(None),
            d => d
                .parse::<i32>()
                .map(Some)
                .map_err(|_| format!("--days {d:?}: a number of days, or \"\"")),
        })
        .transpose()?;
    let apply = args.iter().any(|a| a == "--apply");
    args.retain(|a| a != "--apply");
    no_more(&args)?;
    let pool = admin_pool().await?;
    if let Some(days) = days {
        admin::set_retention(&pool, days).await?;
    }
    match admin::retention(&pool).await? {
        Some(d) => println!("scheduled runs kept {d} days"),
        None => println!("scheduled runs kept for ever"),
    }
    if apply {
        let deleted = admin::apply_retention(&pool, now_ms()).await?;
        println!("deleted {deleted} runs");
    }
    Ok(())
}

async fn budget(mut args: Vec<String>) -> Result<(), String> {
    let cap = take(&mut args, "--cap")?
        .map(|c| cap_micros(&c))
        .transpose()?;
    let period = take(&mut args, "--period")?
        .map(|p| Period::from_name(&p).ok_or(format!("--period {p:?}: day, month or until_reset")))
        .transpose()?;
    let reset = args.iter().any(|a| a == "--reset");
    args.retain(|a| a != "--reset");
    no_more(&args)?;
    let pool = admin_pool().await?;
    let c = pool
        .get()
        .await
        .map_err(|e| serpkit_server::errors::cause(&e))?;
    let e = |e: tokio_postgres::Error| serpkit_server::errors::cause(&e);
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
    let upstream_ca = take(&mut args, "--upstream-ca")?.map(PathBuf::from);
    let at: Option<i64> = number(&mut args, "--at")?;
    no_more(&args)?;
    let mut config = Config::new(database_url()?, upstream, service_key()?);
    config.upstream_ca = upstream_ca;
    let clock: serpkit_server::Clock = match at {
        Some(t) => std::sync::Arc::new(move || t),
        None => std::sync::Arc::new(now_ms),
    };
    let app = serpkit_server::open_with_clock(config, clock).await?;
    let ran = serpkit_server::schedule::run_due(&app, app.now()).await?;
    println!("ran {ran}");
    Ok(())
}

/// The serve options of `args` on top of the defaults.
fn serve_config(args: &mut Vec<String>) -> Result<(Config, SocketAddr), String> {
    let port: u16 = number(args, "--port")?.unwrap_or(8788);
    let host: IpAddr = take(args, "--host")?.map_or(Ok(IpAddr::V4(Ipv4Addr::LOCALHOST)), |h| {
        h.parse()
            .map_err(|_| format!("--host {h:?}: not an address"))
    })?;
    let upstream = take(args, "--upstream")?.unwrap_or("http://127.0.0.1:8787".into());
    let mut config = Config::new(database_url()?, upstream, service_key()?);
    config.upstream_ca = take(args, "--upstream-ca")?.map(PathBuf::from);
    config.database_ca = take(args, "--database-ca")?.map(PathBuf::from);
    config.metrics_token = std::env::var("SERPKIT_METRICS_TOKEN")
        .ok()
        .filter(|t| !t.is_empty());
    while let Some(o) = take(args, "--allow-origin")? {
        config.allow_origins.push(o);
    }
    if let Some(n) = number(args, "--max-body-bytes")? {
        config.max_body_bytes = n;
    }
    if let Some(n) = number(args, "--rate")? {
        config.rate_per_second = n;
    }
    if let Some(n) = number(args, "--max-connections")? {
        config.max_connections = n;
    }
    if let Some(n) = number(args, "--pool-size")? {
        config.pool_size = n;
    }
    for (flag, field) in [
        ("--header-timeout", &mut config.header_timeout),
        ("--body-timeout", &mut config.body_timeout),
        ("--upstream-timeout", &mut config.upstream_timeout),
        ("--grace", &mut config.grace),
    ] {
        if let Some(s) = seconds(args, flag)? {
            *field = s;
        }
    }
    no_more(args)?;
    Ok((config, SocketAddr::new(host, port)))
}

async fn serve(mut args: Vec<String>) -> Result<(), String> {
    let (config, addr) = serve_config(&mut args)?;
    let app = serpkit_server::open(config).await?;
    serpkit_server::warn_defaults(&app).await;
    let listener = serpkit_server::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("server: http://{local}");
    let _ = std::io::stdout().flush();
    let left = serpkit_server::serve(listener, app).await;
    if left > 0 {
        return Err(format!(
            "stopped with {left} call(s) in flight: settled possibly charged by the next process"
        ));
    }
    Ok(())
}
