//! This process's metrics, in Prometheus's text format (`GET /metrics`): requests by route and
//! status, what it charged and what it left possibly charged, calls in flight, connections
//! shed, failed settles (retried) and the service's latency. The reservations held are the
//! database's, read when scraped. Counters are this process's since it started (Prometheus sums processes).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the upstream latency histogram, in seconds.
const BUCKETS: [f64; 10] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0, 30.0];

/// The process's counters.
pub struct Metrics {
    /// (route, status) → answers.
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    /// Micro-dollars charged by calls this process answered.
    pub charged_micros: AtomicU64,
    /// Micro-dollars left possibly charged by calls this process answered.
    pub possibly_charged_micros: AtomicU64,
    /// Connections closed to make room for newer ones (the connection limit).
    pub shed: AtomicU64,
    /// Settles of paid calls that failed (each retried until stored).
    pub settle_failures: AtomicU64,
    /// Paid calls whose settle failed and is being retried now (their answers in memory).
    pub settles_pending: AtomicU64,
    /// Upstream latency: per bucket, then the count and the sum in microseconds.
    latency: [AtomicU64; BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_us: AtomicU64,
}

/// The one set of metrics of this process.
pub static METRICS: Metrics = Metrics {
    requests: Mutex::new(BTreeMap::new()),
    charged_micros: AtomicU64::new(0),
    possibly_charged_micros: AtomicU64::new(0),
    shed: AtomicU64::new(0),
    settle_failures: AtomicU64::new(0),
    settles_pending: AtomicU64::new(0),
    latency: [const { AtomicU64::new(0) }; BUCKETS.len()],
    latency_count: AtomicU64::new(0),
    latency_sum_us: AtomicU64::new(0),
};

impl Metrics {
    /// Counts an answer. `route` is an operation's path or a fixed route name, never a
    /// client's free text (the label set stays bounded).
    pub fn request(&self, route: &str, status: u16) {
        let mut r = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *r.entry((route.to_string(), status)).or_default() += 1;
    }

    /// Counts one exchange with the service that took `took`.
    pub fn upstream(&self, took: Duration) {
        let s = took.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.latency) {
            if s <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_us
            .fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    /// The text exposition, with the gauges read now.
    pub fn render(&self, in_flight: usize, reservations: Option<i64>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP serpkit_requests_total Answers by route and status.\n# TYPE serpkit_requests_total counter"
        );
        for ((route, status), n) in self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let _ = writeln!(
                out,
                "serpkit_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        let usd = |m: &AtomicU64| m.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(
            out,
            "# HELP serpkit_charged_usd_total What the service charged for this process's calls.\n# TYPE serpkit_charged_usd_total counter\nserpkit_charged_usd_total {}",
            usd(&self.charged_micros)
        );
        let _ = writeln!(
            out,
            "# HELP serpkit_possibly_charged_usd_total What this process's calls may have been charged (answer lost).\n# TYPE serpkit_possibly_charged_usd_total counter\nserpkit_possibly_charged_usd_total {}",
            usd(&self.possibly_charged_micros)
        );
        let _ = writeln!(
            out,
            "# HELP serpkit_calls_in_flight Paid calls being made now.\n# TYPE serpkit_calls_in_flight gauge\nserpkit_calls_in_flight {in_flight}"
        );
        if let Some(r) = reservations {
            let _ = writeln!(
                out,
                "# HELP serpkit_reservations_held Records reserved by calls in flight (every process).\n# TYPE serpkit_reservations_held gauge\nserpkit_reservations_held {r}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP serpkit_connections_shed_total Idle or half-sent connections closed at the connection limit.\n# TYPE serpkit_connections_shed_total counter\nserpkit_connections_shed_total {}",
            self.shed.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP serpkit_settle_failures_total Settles of paid calls that failed (each retried until stored).\n# TYPE serpkit_settle_failures_total counter\nserpkit_settle_failures_total {}",
            self.settle_failures.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP serpkit_settles_pending Paid calls whose settle is being retried (answers held in memory).\n# TYPE serpkit_settles_pending gauge\nserpkit_settles_pending {}",
            self.settles_pending.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP serpkit_upstream_seconds The service's latency per call.\n# TYPE serpkit_upstream_seconds histogram"
        );
        for (bound, count) in BUCKETS.iter().zip(&self.latency) {
            let _ = writeln!(
                out,
                "serpkit_upstream_seconds_bucket{{le=\"{bound}\"}} {}",
                count.load(Ordering::Relaxed)
            );
        }
        let n = self.latency_count.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "serpkit_upstream_seconds_bucket{{le=\"+Inf\"}} {n}\nserpkit_upstream_seconds_sum {}\nserpkit_upstream_seconds_count {n}",
            self.latency_sum_us.load(Ordering::Relaxed) as f64 / 1e6
        );
        out
    }
}
