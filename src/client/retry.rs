//! Retry policy for paid calls: only where a retry cannot buy the same data twice.
//!
//! Retried: a request that provably never left (`TransportError::NotSent`: connection
//! refused, host not found), 429 and 503 (honouring `Retry-After`). Never retried: timeouts
//! and connections lost after the request may have left (`TransportError::Network`: the
//! service may have answered and charged), any other 4xx or 5xx.

use std::time::Duration;

/// How often and how long to wait between retries.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 disables retrying).
    pub max_retries: u32,
    /// Delay before the first retry; doubled for each further one.
    pub base_delay: Duration,
    /// Upper bound of a computed backoff delay.
    pub max_delay: Duration,
    /// A `Retry-After` longer than this is not waited for: the error is returned.
    pub max_retry_after: Duration,
    /// Randomize each backoff delay between 50 % and 100 % of its value.
    pub jitter: bool,
}

impl Default for RetryPolicy {
    /// 2 retries, 500 ms doubling up to 8 s, Retry-After up to 60 s, with jitter.
    fn default() -> Self {
        RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            jitter: true,
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        }
    }

    /// The backoff before retry number `attempt` (1-based), with jitter from `random` in [0, 1).
    pub fn backoff(&self, attempt: u32, random: f64) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        let d = self.base_delay.saturating_mul(factor).min(self.max_delay);
        if self.jitter {
            d.mul_f64(0.5 + 0.5 * random.clamp(0.0, 1.0))
        } else {
            d
        }
    }

    /// Whether a response with this status may be retried.
    pub fn retryable_status(status: u16) -> bool {
        status == 429 || status == 503
    }
}

/// Parses `Retry-After` in its seconds form (`"2"`); the HTTP-date form gives `None`
/// (the backoff applies then).
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    if v.is_empty() || v.len() > 10 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse::<u64>().ok().map(Duration::from_secs)
}

/// A random number in [0, 1) for jitter.
pub fn random_unit() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Math::random()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(0);
        (h.finish() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        let p = RetryPolicy {
            jitter: false,
            ..RetryPolicy::default()
        };
        assert_eq!(p.backoff(1, 0.0), Duration::from_millis(500));
        assert_eq!(p.backoff(2, 0.0), Duration::from_secs(1));
        assert_eq!(p.backoff(30, 0.0), Duration::from_secs(8));
        let j = RetryPolicy::default();
        assert_eq!(j.backoff(1, 0.0), Duration::from_millis(250));
        assert!(j.backoff(1, 0.999) <= Duration::from_millis(500));
    }

    #[test]
    fn retry_after() {
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("99999999999999999999"), None);
        assert!(RetryPolicy::retryable_status(429) && RetryPolicy::retryable_status(503));
        assert!(!RetryPolicy::retryable_status(500) && !RetryPolicy::retryable_status(401));
        let r = random_unit();
        assert!((0.0..1.0).contains(&r));
    }
}
