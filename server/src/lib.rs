//! # serpkit-server
//!
//! The team server: one process (or several behind one PostgreSQL) that speaks the service's
//! own API, holds the team's service key, and buys each record once for the whole team
//! within one budget. It is a host of the money state machine ([`serpkit::machine`]): entries
//! are written ahead `sent` before money moves and settled after ([`buy`]), the caps are the
//! machine's [`serpkit::machine::Totals`] over the period ([`serpkit::machine::Period`]), and
//! PostgreSQL is the shared store, its transactions the lock.
//!
//! - [`db`]: pool, migrations, which processes are alive, recovery of the dead ones' calls.
//! - [`auth`]: member tokens (hashed, constant-time, revocable).
//! - [`buy`]: one call: plan, write-ahead, send, settle.
//! - [`http`]: the routes, CORS, limits and the error shape; [`report`]: spend and journal.
//! - [`schedule`]: scheduled tracking (a member's request bought again every day or week).
//! - [`upstream`]: the client to the service.

#![warn(missing_docs)]

pub mod auth;
pub mod buy;
pub mod db;
pub mod http;
pub mod report;
pub mod schedule;
pub mod upstream;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deadpool_postgres::Pool;
use serpkit::records::source_of;
use serpkit::ApiKey;
use tokio::net::TcpListener;

use upstream::Upstream;

/// How a server process runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// PostgreSQL (`postgres://…` or `host=… user=…`).
    pub database_url: String,
    /// The service's base URL (`http://…`).
    pub upstream: String,
    /// The team's service key: sent upstream only, never answered, logged or stored.
    pub service_key: ApiKey,
    /// Browser origins allowed (CORS and POSTs); none by default.
    pub allow_origins: Vec<String>,
    /// Larger request bodies get 413.
    pub max_body_bytes: usize,
    /// Calls per second each member may make (per process), with a burst of twice that.
    pub rate_per_second: f64,
    /// How long a call waits for records another call is buying.
    pub reservation_wait: Duration,
    /// How long the service may take to answer.
    pub upstream_timeout: Duration,
    /// Database connections in the pool.
    pub pool_size: usize,
}

impl Config {
    /// The defaults for a database, an upstream and a key.
    pub fn new(database_url: String, upstream: String, service_key: ApiKey) -> Config {
        Config {
            database_url,
            upstream,
            service_key,
            allow_origins: Vec::new(),
            max_body_bytes: 256 * 1024,
            rate_per_second: 50.0,
            reservation_wait: Duration::from_secs(30),
            upstream_timeout: Duration::from_secs(120),
            pool_size: 16,
        }
    }
}

/// A running process's shared state.
pub struct App {
    /// Its configuration.
    pub config: Config,
    /// The database.
    pub pool: Pool,
    /// The service.
    pub upstream: Upstream,
    /// The record source (`serpkit::records::source_of` the upstream).
    pub source: String,
    /// This process's liveness id now: its entries' owner and its liveness lock (a new one
    /// after a lost liveness connection).
    pub liveness: Arc<db::Liveness>,
    /// Per-member rate limit.
    pub limiter: Limiter,
    /// The clock every time stored is read from (tests inject one).
    pub clock: Clock,
}

/// A clock: milliseconds since the Unix epoch.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

impl App {
    /// Now, by this process's clock.
    pub fn now(&self) -> i64 {
        (self.clock)()
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A token bucket per member (in one process: several processes each allow the rate).
pub struct Limiter {
    rate: f64,
    buckets: Mutex<HashMap<i64, (f64, Instant)>>,
}

impl Limiter {
    /// `rate` calls per second, bursts of twice that.
    pub fn new(rate: f64) -> Limiter {
        Limiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one call from `member`'s bucket; false when it is empty.
    pub fn admit(&self, member: i64) -> bool {
        let now = Instant::now();
        let burst = self.rate * 2.0;
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let (tokens, at) = b.entry(member).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Connects, migrates, takes this process's liveness lock, settles what dead processes left
/// in flight and starts the schedules; returns the state to serve with.
pub async fn open(config: Config) -> Result<Arc<App>, String> {
    let app = open_with_clock(config, Arc::new(now_ms)).await?;
    let scheduler = app.clone();
    tokio::spawn(async move {
        loop {
            if let Err(e) = schedule::run_due(&scheduler, scheduler.now()).await {
                eprintln!("schedules: {e}");
            }
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
    });
    Ok(app)
}

/// As [`open`] with `clock`, and without the schedules' timer: the caller runs
/// [`schedule::run_due`] (tests, with an injected clock).
pub async fn open_with_clock(config: Config, clock: Clock) -> Result<Arc<App>, String> {
    let upstream = Upstream::parse(&config.upstream)?;
    let pool = db::pool(&config.database_url, config.pool_size)?;
    db::migrate(&pool).await?;
    let url = config.database_url.clone();
    let liveness = Arc::new(db::Liveness::default());
    let (ready, locked) = tokio::sync::oneshot::channel();
    tokio::spawn(db::hold_liveness(url, liveness.clone(), ready));
    locked
        .await
        .map_err(|_| "the liveness lock task ended".to_string())??;
    let app = Arc::new(App {
        source: source_of(&upstream.base_url),
        limiter: Limiter::new(config.rate_per_second),
        config,
        pool,
        upstream,
        liveness,
        clock,
    });
    db::recover(&app.pool, app.now()).await?;
    // Other processes may die while this one runs: their calls are settled from here too.
    let watcher = app.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            if let Err(e) = db::recover(&watcher.pool, watcher.now()).await {
                eprintln!("recovery: {e}");
            }
        }
    });
    Ok(app)
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> std::io::Result<()> {
    axum::serve(listener, http::router(app)).await
}

/// Binds `addr` (port 0: a free one).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}
