//! The team server's test harness: a fresh database per test in the PostgreSQL named by
//! `SERPKIT_TEST_PG` (`host=… port=… user=…`; `cargo xtask test` starts a throwaway cluster
//! and sets it), the sandbox server in-process as the service (its ledger is the truth about
//! what was charged), and server processes of the real binary.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use sandbox::{Config, Date, Ledger, Sandbox, DEFAULT_KEY};
use serpkit_server::{auth, db};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The metrics token of the servers tests start.
pub const METRICS_TOKEN: &str = "test-metrics-token";

/// One test's world: a database, the sandbox and the server processes started on them.
pub struct Team {
    /// `host=… dbname=…` of this test's database.
    pub database: String,
    /// The sandbox (its ledger).
    pub sandbox: Arc<Sandbox>,
    /// Its base URL.
    pub upstream: String,
    /// A pool on the database, for the test's own reads.
    pub pool: deadpool_postgres::Pool,
    servers: Vec<Child>,
}

/// An answer from a server.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `x-serpkit-cost` header in micro-dollars.
    pub fn cost(&self) -> i64 {
        micros(self.header("x-serpkit-cost").unwrap_or("0"))
    }

    /// The error code of an error body.
    pub fn code(&self) -> String {
        let v: serde_json::Value = serde_json::from_str(&self.body).unwrap_or_default();
        v["error"]["code"].as_str().unwrap_or("").to_string()
    }
}

/// "0.0015" as micro-dollars.
pub fn micros(decimal: &str) -> i64 {
    decimal.parse::<serpkit::Usd>().map_or(-1, |u| u.micros())
}

impl Team {
    /// A fresh database and sandbox.
    pub async fn new() -> Team {
        Team::with_sandbox(Config::new(Date::new(2026, 11, 1).unwrap())).await
    }

    /// A fresh database and a sandbox configured so.
    pub async fn with_sandbox(config: Config) -> Team {
        let admin = std::env::var("SERPKIT_TEST_PG").expect(
            "SERPKIT_TEST_PG is not set: run these tests with `cargo xtask test` (it starts \
             a PostgreSQL cluster) or point it at one (host=… port=… user=…)",
        );
        let mut id = [0u8; 6];
        getrandom::fill(&mut id).unwrap();
        let name: String = id.iter().map(|b| format!("{b:02x}")).collect();
        let name = format!("team_{name}");
        let (client, connection) =
            tokio_postgres::connect(&format!("{admin} dbname=postgres"), tokio_postgres::NoTls)
                .await
                .expect("connect to the test cluster");
        tokio::spawn(connection);
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
        let database = format!("{admin} dbname={name}");
        let pool = db::pool(&database, 4).unwrap();
        db::migrate(&pool).await.unwrap();
        let sandbox = Arc::new(Sandbox::new(config));
        let addr = sandbox::server::spawn(SocketAddr::from(([127, 0, 0, 1], 0)), sandbox.clone())
            .await
            .unwrap();
        Team {
            database,
            sandbox,
            upstream: format!("http://{addr}"),
            pool,
            servers: Vec::new(),
        }
    }

    /// Starts a server process with the service key `key`; returns its index and base URL.
    pub fn start(&mut self, key: &str) -> (usize, String) {
        let upstream = self.upstream.clone();
        self.start_with(key, &upstream, &[], None)
    }

    /// Starts a server process with the service key `key` in front of `upstream`, with more
    /// `args`, and at most `open_files` file descriptors (its hard limit) when given.
    pub fn start_with(
        &mut self,
        key: &str,
        upstream: &str,
        args: &[&str],
        open_files: Option<u64>,
    ) -> (usize, String) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_serpkit-server"));
        command
            .args([
                "serve",
                "--port",
                "0",
                "--rate",
                "1000",
                "--upstream",
                upstream,
            ])
            .args(["--allow-origin", "https://app.example"])
            .args(args)
            .env("DATABASE_URL", &self.database)
            .env("SERPKIT_SERVICE_KEY", key)
            .env("SERPKIT_METRICS_TOKEN", METRICS_TOKEN)
            .stdout(Stdio::piped());
        if let Some(n) = open_files {
            use std::os::unix::process::CommandExt;
            // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: n,
                        rlim_max: n,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().expect("start serpkit-server");
        let mut line = String::new();
        let stdout = child.stdout.take().unwrap();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("server: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        self.servers.push(child);
        (self.servers.len() - 1, url)
    }

    /// Starts a server process with the sandbox's key.
    pub fn start_default(&mut self) -> String {
        self.start(DEFAULT_KEY).1
    }

    /// Kills server `i` with SIGKILL.
    pub fn kill(&mut self, i: usize) {
        self.servers[i].kill().unwrap();
        self.servers[i].wait().unwrap();
    }

    /// Sends SIGTERM to server `i`.
    pub fn terminate(&mut self, i: usize) {
        let pid = self.servers[i].id() as libc::pid_t;
        // SAFETY: a signal to our own child.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    }

    /// Waits up to `within` for server `i` to end; its exit status, if it did.
    pub fn wait_exit(
        &mut self,
        i: usize,
        within: std::time::Duration,
    ) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.servers[i].try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// A server process in this test (not a child), on the team's database and sandbox, with
    /// `key` as its service key and `clock` as its clock (tests move time themselves).
    #[allow(dead_code)] // each test file compiles this module on its own
    pub async fn app(&self, key: &str, clock: serpkit_server::Clock) -> Arc<serpkit_server::App> {
        let mut config = serpkit_server::Config::new(
            self.database.clone(),
            self.upstream.clone(),
            serpkit::ApiKey::new(key),
        );
        config.pool_size = 4;
        serpkit_server::open_with_clock(config, clock)
            .await
            .unwrap()
    }

    /// A new member with an optional cap in micro-dollars; returns its token.
    pub async fn member(&self, name: &str, cap: Option<i64>) -> String {
        auth::add_member(&self.pool, name, cap, serpkit_server::now_ms())
            .await
            .unwrap()
    }

    /// The sandbox's ledger.
    pub fn ledger(&self) -> Ledger {
        self.sandbox.ledger()
    }

    /// One number from the database.
    pub async fn number(&self, sql: &str) -> i64 {
        let c = self.pool.get().await.unwrap();
        c.query_one(sql, &[]).await.unwrap().get(0)
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        for c in &mut self.servers {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A raw HTTP/1.1 request (the connection closed after it), so a test can send any header.
pub async fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let authority = base.strip_prefix("http://").unwrap();
    let mut s = tokio::net::TcpStream::connect(authority).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await.unwrap();
    // A server may answer (413) before reading a large body, and close.
    let _ = s.write_all(body.as_bytes()).await;
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    parse(&raw)
}

fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

/// POSTs a JSON body to an operation.
pub async fn post(base: &str, path: &str, body: &serde_json::Value) -> Reply {
    request(
        base,
        "POST",
        path,
        &[("content-type", "application/json")],
        &body.to_string(),
    )
    .await
}
