//! The listening side: accepting connections under a limit, reading requests under timeouts,
//! and the graceful shutdown that lets the calls in flight finish and settle.
//!
//! - **Connection limit.** At most [`Limits::max_connections`] connections are open (kept
//!   under the process's open-files limit, [`connection_limit`]). When a new one arrives at
//!   the limit, the connection idle longest (no request being answered: a half-sent request
//!   or a kept-alive connection) is closed for it; only when every connection is answering a
//!   request is the new one refused. So half-sent requests, however many, never keep
//!   `/health` or a member out: they are shed oldest first, and each is closed anyway after
//!   the header timeout.
//! - **Timeouts.** The request head must arrive within [`Limits::header_timeout`] (hyper's
//!   header read timeout); the body within [`Limits::body_timeout`] ([`crate::http`] reads it).
//! - **Shutdown.** When `shutdown` resolves: the listener is closed (new connections are
//!   refused by the kernel), idle connections are closed, connections answering a request
//!   finish it and close, and every call in flight ([`crate::InFlight`]) is waited for, all
//!   within the grace period. What outlives it is left `sent`: the process's end frees its
//!   liveness lock and another process (or the next start) settles it possibly charged.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};

use crate::App;

/// The transport's limits (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most connections open at once.
    pub max_connections: usize,
    /// How long a client may take to send a request's head.
    pub header_timeout: Duration,
    /// How long the calls in flight get to finish once shutdown starts.
    pub grace: Duration,
}

/// The open-files limit this process may use, raised from its soft to its hard limit (a
/// service manager's default soft limit, often 1,024, is what starved the server before).
pub fn open_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur
}

/// The connection limit: `wanted`, kept under the open-files limit with room for the
/// database pool, the liveness and upstream connections and the process's own files.
pub fn connection_limit(wanted: usize, open_files: u64, pool_size: usize) -> usize {
    let reserve = (pool_size as u64) * 2 + 64;
    let room = open_files.saturating_sub(reserve).max(8);
    wanted.min(room as usize).max(1)
}

/// One open connection, as the limit sees it.
struct Conn {
    /// Requests being answered on it now.
    busy: AtomicUsize,
    /// When it last became idle (or was accepted), in ms since `Connections::epoch`.
    idle_since: AtomicU64,
    /// Told to close (shed for a newer connection).
    shed: Notify,
}

/// The open connections.
struct Connections {
    max: usize,
    epoch: Instant,
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    /// Told when the last connection ends.
    empty: Notify,
}

impl Connections {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// A place for a new connection: at the limit, the connection idle longest is shed for
    /// it; `None` when every connection is answering a request.
    fn admit(&self) -> Option<(u64, Arc<Conn>)> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.len() >= self.max {
            let oldest = open
                .iter()
                .filter(|(_, c)| c.busy.load(Ordering::SeqCst) == 0)
                .min_by_key(|(_, c)| c.idle_since.load(Ordering::SeqCst))
                .map(|(id, _)| *id)?;
            if let Some(c) = open.remove(&oldest) {
                c.shed.notify_one();
                crate::metrics::METRICS.shed.fetch_add(1, Ordering::Relaxed);
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            busy: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.now()),
            shed: Notify::new(),
        });
        open.insert(id, conn.clone());
        Some((id, conn))
    }

    fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&id);
        if open.is_empty() {
            self.empty.notify_waiters();
        }
    }

    fn count(&self) -> usize {
        self.open.lock().map_or(0, |o| o.len())
    }

    async fn drained(&self) {
        loop {
            let notified = self.empty.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// Marks a connection busy while a request is answered.
struct Busy(Arc<Conn>, Arc<Connections>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.idle_since.store(self.1.now(), Ordering::SeqCst);
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then drains (module docs). Returns
/// how many calls were still in flight when the grace period ended (0: all settled).
pub async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> usize {
    let router = crate::http::router(app.clone());
    let connections = Arc::new(Connections {
        max: limits.max_connections,
        epoch: Instant::now(),
        next_id: AtomicU64::new(0),
        open: Mutex::new(HashMap::new()),
        empty: Notify::new(),
    });
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors or the like: pause rather than spin.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Some((id, conn)) = connections.admit() else {
            tracing::warn!(
                limit = limits.max_connections,
                "connection refused: every connection is answering a request"
            );
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (router, connections, mut stopping) =
            (router.clone(), connections.clone(), stopping.clone());
        tokio::spawn(async move {
            let tower = TowerToHyperService::new(router);
            let service = service_fn(|request| {
                conn.busy.fetch_add(1, Ordering::SeqCst);
                let busy = Busy(conn.clone(), connections.clone());
                let answer = hyper::service::Service::call(&tower, request);
                async move {
                    let answer = answer.await;
                    drop(busy);
                    answer
                }
            });
            let served = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(served);
            let mut graceful = false;
            loop {
                tokio::select! {
                    _ = served.as_mut() => break,
                    () = conn.shed.notified() => break,
                    changed = stopping.changed(), if !graceful => {
                        graceful = true;
                        if changed.is_ok() {
                            served.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            connections.remove(id);
        });
    }
    drop(listener);
    app.in_flight.stop();
    let open = connections.count();
    let in_flight = app.in_flight.count();
    tracing::info!(
        connections = open,
        in_flight,
        grace_s = limits.grace.as_secs_f64(),
        "shutting down: no new connections; finishing the calls in flight"
    );
    let _ = stop.send(true);
    let drained = async {
        connections.drained().await;
        app.in_flight.drained().await;
    };
    let _ = tokio::time::timeout(limits.grace, drained).await;
    let left = app.in_flight.count();
    if left > 0 {
        tracing::warn!(
            in_flight = left,
            "grace period over: calls still in flight are left to be settled possibly charged"
        );
    } else {
        tracing::info!("every call in flight finished and settled");
    }
    left
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C).
pub async fn signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let term = signal(SignalKind::terminate());
    let int = signal(SignalKind::interrupt());
    match (term, int) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => tracing::info!("SIGTERM received"),
                _ = int.recv() => tracing::info!("SIGINT received"),
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            tracing::error!(error = %e, "cannot listen for signals; stop with SIGKILL");
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_limit_stays_under_the_open_files_limit() {
        assert_eq!(connection_limit(1024, 1_048_576, 16), 1024);
        assert_eq!(connection_limit(1024, 256, 16), 256 - 96);
        assert_eq!(connection_limit(1024, 10, 16), 8);
    }
}
