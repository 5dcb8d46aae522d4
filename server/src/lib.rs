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
//! - [`buy`]: one call: plan, write-ahead, send, settle; [`host`]: what it read under the
//!   team's lock, as the machine's snapshot its rules decide with.
//! - [`http`]: the routes, CORS and limits; [`errors`]: the error shape; [`report`]: spend
//!   and journal.
//! - [`schedule`]: scheduled tracking (a member's request bought again every day or week).
//! - [`upstream`]: the client to the service (TLS, the origin records are keyed by);
//!   [`redact`]: the service key kept out of whatever a member sees.
//! - [`transport`]: connections, their limit and timeouts, graceful shutdown;
//!   [`metrics`]: Prometheus metrics.

#![warn(missing_docs)]

pub mod admin;
pub mod auth;
pub mod buy;
pub mod db;
pub mod errors;
pub mod host;
pub mod http;
pub mod metrics;
pub mod redact;
pub mod report;
pub mod schedule;
pub mod tls;
pub mod transport;
pub mod upstream;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deadpool_postgres::Pool;
use serpkit::records::source_of;
use serpkit::ApiKey;
use tokio::net::TcpListener;
use tokio::sync::Notify;

use upstream::Upstream;

/// How a server process runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// PostgreSQL (`postgres://…` or `host=… user=…`).
    pub database_url: String,
    /// The service's base URL (`https://…`; `http://` only on loopback).
    pub upstream: String,
    /// A PEM file of extra root certificates trusted for the service (beside the bundled
    /// Mozilla roots): a private CA, or a test's.
    pub upstream_ca: Option<PathBuf>,
    /// A PEM file of root certificates trusted for PostgreSQL's TLS (beside the bundled
    /// roots); `sslmode` in [`Self::database_url`] says whether TLS is used.
    pub database_ca: Option<PathBuf>,
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
    /// How long a client may take to send a request's head.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// Most client connections open at once (kept under the open-files limit).
    pub max_connections: usize,
    /// On SIGTERM, how long the calls in flight get to finish and settle.
    pub grace: Duration,
    /// The bearer token `GET /metrics` asks for (`None`: no metrics served).
    pub metrics_token: Option<String>,
}

impl Config {
    /// The defaults for a database, an upstream and a key.
    pub fn new(database_url: String, upstream: String, service_key: ApiKey) -> Config {
        Config {
            database_url,
            upstream,
            service_key,
            upstream_ca: None,
            database_ca: None,
            allow_origins: Vec::new(),
            max_body_bytes: 256 * 1024,
            rate_per_second: 50.0,
            reservation_wait: Duration::from_secs(30),
            // Decided: under the 60 s that common proxies (nginx, many load balancers) wait,
            // so a slow service is answered by this server (its entry possibly charged)
            // rather than cut by the proxy in front of it.
            upstream_timeout: Duration::from_secs(45),
            pool_size: 16,
            // Decided: a head takes one round trip; 10 s holds a slow mobile link and frees a
            // half-sent request's slot soon. A body (at most 256 KiB) gets 30 s.
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            // Decided: far above a team's needs, and under the open-files limit (raised to
            // its hard limit at start; `transport::connection_limit`).
            max_connections: 4096,
            // Decided: longer than the upstream timeout, so every call in flight can end
            // with its answer; a service manager must wait longer still (the systemd unit's
            // TimeoutStopSec=60, the container's stop timeout).
            grace: Duration::from_secs(50),
            metrics_token: None,
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
    /// The paid calls being made now (shutdown waits for them).
    pub in_flight: InFlight,
}

/// A count of the calls in flight, and a way to wait until there are none.
#[derive(Default)]
pub struct InFlight {
    count: AtomicUsize,
    none: Notify,
    stopping: AtomicBool,
}

/// One call in flight, counted until dropped.
pub struct InFlightGuard<'a>(&'a InFlight);

impl InFlight {
    /// Counts a call until the guard is dropped.
    pub fn enter(&self) -> InFlightGuard<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        InFlightGuard(self)
    }

    /// Shutdown has begun: no new scheduled run starts.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// Whether shutdown has begun.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Calls in flight now.
    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Resolves once no call is in flight.
    pub async fn drained(&self) {
        loop {
            let notified = self.none.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for InFlightGuard<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.none.notify_waiters();
        }
    }
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
        let mut pruned_at = 0;
        loop {
            if let Err(e) = schedule::run_due(&scheduler, scheduler.now()).await {
                tracing::error!(error = %e, "schedules");
            }
            let now = scheduler.now();
            if now - pruned_at >= 3_600_000 {
                pruned_at = now;
                match admin::apply_retention(&scheduler.pool, now).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "scheduled runs past their retention"),
                    Err(e) => tracing::error!(error = %e, "retention"),
                }
            }
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
    });
    Ok(app)
}

/// As [`open`] with `clock`, and without the schedules' timer: the caller runs
/// [`schedule::run_due`] (tests, with an injected clock).
pub async fn open_with_clock(config: Config, clock: Clock) -> Result<Arc<App>, String> {
    if config.service_key.expose().trim().is_empty() {
        return Err("the service key is empty (SERPKIT_SERVICE_KEY): refusing to start".into());
    }
    let upstream = Upstream::new(&config.upstream, config.upstream_ca.as_deref())?;
    let database = db::Database::new(&config.database_url, config.database_ca.as_deref())?;
    let pool = database.pool(config.pool_size)?;
    db::migrate(&pool).await?;
    let liveness = Arc::new(db::Liveness::default());
    let (ready, locked) = tokio::sync::oneshot::channel();
    tokio::spawn(db::hold_liveness(database, liveness.clone(), ready));
    locked
        .await
        .map_err(|_| "the liveness lock task ended".to_string())??;
    let app = Arc::new(App {
        source: source_of(&upstream.origin),
        in_flight: InFlight::default(),
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
                tracing::error!(error = %e, "recovery of dead processes' calls");
            }
        }
    });
    Ok(app)
}

/// Serves `app` on `listener` until SIGTERM or SIGINT, then drains within the grace period
/// ([`transport`]); returns how many calls outlived it.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> usize {
    let open_files = transport::open_files_limit();
    let limits = transport::Limits {
        max_connections: transport::connection_limit(
            app.config.max_connections,
            open_files,
            app.config.pool_size,
        ),
        header_timeout: app.config.header_timeout,
        grace: app.config.grace,
    };
    tracing::info!(
        max_connections = limits.max_connections,
        open_files,
        header_timeout_s = limits.header_timeout.as_secs_f64(),
        body_timeout_s = app.config.body_timeout.as_secs_f64(),
        upstream_timeout_s = app.config.upstream_timeout.as_secs_f64(),
        grace_s = limits.grace.as_secs_f64(),
        "serving"
    );
    transport::serve(listener, app, limits, transport::signal()).await
}

/// Says in the log what an operator may not have meant: no team cap (every member can
/// spend without limit), scheduled runs kept for ever.
pub async fn warn_defaults(app: &App) {
    let c = match app.pool.get().await {
        Ok(c) => c,
        Err(e) => return tracing::error!(error = %errors::cause(&e), "database"),
    };
    match c
        .query_one(
            "SELECT cap_micros, period, run_retention_days FROM team WHERE id = 1",
            &[],
        )
        .await
    {
        Ok(row) => {
            match row.get::<_, Option<i64>>(0) {
                None => tracing::warn!(
                    "NO TEAM CAP IS SET: members can spend without limit \
                     (`serpkit-server budget --cap USD` sets one)"
                ),
                Some(m) => tracing::info!(
                    cap = %serpkit::Usd::from_micros(m),
                    period = row.get::<_, &str>(1),
                    "team cap"
                ),
            }
            if row.get::<_, Option<i32>>(2).is_none() {
                tracing::warn!(
                    "scheduled runs are kept for ever (`serpkit-server retention --days N` bounds them)"
                );
            }
        }
        Err(e) => tracing::error!(error = %errors::cause(&e), "database"),
    }
}

/// Binds `addr` (port 0: a free one).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}
