//! `cargo xtask team [--port P] [--upstream URL]`: a team server on a local PostgreSQL
//! cluster (`target/team-pg`, kept between runs), in front of the sandbox server by default
//! or the service at `--upstream` (its key in `SERPKIT_SERVICE_KEY`). Prints
//! `server: http://…` and `member token: …` once it serves, then runs until interrupted.
//!
//! Decided: each run adds a new member (`member-<unix seconds>`) and prints its token: tokens
//! are stored hashed, so an earlier one cannot be shown again.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::postgres::Cluster;
use crate::servers::SandboxServer;
use crate::{cargo, root, run, target_dir, Res};

/// The database the team server uses in the local cluster.
const DATABASE: &str = "team";

/// Runs the team server until interrupted.
pub fn team(args: &[String]) -> Res {
    let mut port = "8788".to_string();
    let mut upstream = None;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        let mut value = || args.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--port" => port = value()?,
            "--upstream" => upstream = Some(value()?),
            other => return Err(format!("team: unexpected argument {other:?}")),
        }
    }
    run(cargo().args(["build", "--quiet", "-p", "serpkit-server"]))?;
    let cluster = Cluster::start(&root().join("target").join("team-pg"), false)?;
    cluster.create_database(DATABASE)?;
    let database_url = format!("{} dbname={DATABASE}", cluster.conninfo());
    let (_sandbox, upstream, key) = match upstream {
        Some(url) => {
            let key = std::env::var("SERPKIT_SERVICE_KEY")
                .map_err(|_| "--upstream needs the service's key in SERPKIT_SERVICE_KEY")?;
            (None, url, key)
        }
        None => {
            let sandbox = SandboxServer::start()?;
            let url = sandbox.url.clone();
            (Some(sandbox), url, SandboxServer::KEY.to_string())
        }
    };
    let server = target_dir().join("debug").join("serpkit-server");
    let name = format!("member-{}", unix_seconds());
    let added = Command::new(&server)
        .args(["add-member", &name])
        .env("DATABASE_URL", &database_url)
        .output()
        .map_err(|e| format!("serpkit-server add-member: {e}"))?;
    let token_line = String::from_utf8_lossy(&added.stdout).trim().to_string();
    if !added.status.success() || !token_line.starts_with("member token: ") {
        return Err(format!(
            "serpkit-server add-member: {}",
            String::from_utf8_lossy(&added.stderr)
        ));
    }
    let mut child = Command::new(&server)
        .args(["serve", "--port", &port, "--upstream", &upstream])
        // The app as `cargo xtask serve` and `trunk serve` serve it.
        .args(["--allow-origin", "http://127.0.0.1:8080"])
        .args(["--allow-origin", "http://localhost:8080"])
        .env("DATABASE_URL", &database_url)
        .env("SERPKIT_SERVICE_KEY", key)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start serpkit-server: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout from serpkit-server")?;
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .map_err(|e| format!("serpkit-server: {e}"))?;
    if !line.starts_with("server: http://") {
        let _ = child.kill();
        return Err(format!("serpkit-server did not start ({:?})", line.trim()));
    }
    println!("{}", line.trim());
    println!("{token_line}");
    eprintln!("(upstream {upstream}; database {database_url}; Ctrl-C stops)");
    let status = child.wait().map_err(|e| e.to_string())?;
    drop(cluster);
    Err(format!("serpkit-server ended ({status})"))
}

/// A throwaway database for the app's team-mode e2e test (`tests/e2e/team.test.mjs`, which
/// starts the server itself: it allows its own app origin): the cluster in `target/pg-e2e`
/// (fresh), stopped on drop, and the server's binary (debug, built here).
pub struct E2eTeam {
    _cluster: Cluster,
    /// The database (`host=… port=… user=… dbname=…`).
    pub database_url: String,
    /// `serpkit-server`.
    pub bin: std::path::PathBuf,
}

/// Builds the server and starts the cluster for the e2e stage.
pub fn for_e2e() -> Res<E2eTeam> {
    run(cargo().args(["build", "--quiet", "-p", "serpkit-server"]))?;
    let cluster = Cluster::start(&root().join("target").join("pg-e2e"), true)?;
    cluster.create_database(DATABASE)?;
    Ok(E2eTeam {
        database_url: format!("{} dbname={DATABASE}", cluster.conninfo()),
        _cluster: cluster,
        bin: target_dir().join("debug").join("serpkit-server"),
    })
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
