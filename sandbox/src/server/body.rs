//! Response bodies of the server: the `drop_body` fault's broken body, and the limit on
//! `huge`/`delay` answers in flight (a permit that lives as long as the body is being sent).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Frame, SizeHint};

use crate::faults::Fault;
use crate::response::{busy, SandboxResponse};
use crate::service::human_bytes;

/// How long a `drop_body` answer waits after its first half before closing, so the half is
/// on the wire (the client then fails while reading the body, not at the headers).
const DROP_PAUSE: Duration = Duration::from_millis(100);

/// Bytes per body frame.
const CHUNK: usize = 256 << 10;

/// The `huge`/`delay` answers in flight: at most `max_count`, holding at most `max_bytes`.
#[derive(Debug)]
pub struct Heavy {
    max_count: usize,
    max_bytes: usize,
    used: Mutex<(usize, usize)>,
}

/// A place among the heavy answers in flight; freed on drop.
#[derive(Debug)]
pub struct Permit {
    pool: Arc<Heavy>,
    bytes: usize,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut u = self.pool.used.lock().unwrap_or_else(|e| e.into_inner());
        u.0 = u.0.saturating_sub(1);
        u.1 = u.1.saturating_sub(self.bytes);
    }
}

impl Heavy {
    /// A pool of `max_count` answers and `max_bytes` of `huge` bodies.
    pub fn new(max_count: usize, max_bytes: usize) -> Arc<Heavy> {
        Arc::new(Heavy {
            max_count,
            max_bytes,
            used: Mutex::new((0, 0)),
        })
    }

    /// A permit for `fault`, or the 503 to answer (not charged) when the pool is full.
    pub fn take(self: &Arc<Self>, fault: Fault) -> Result<Permit, SandboxResponse> {
        // A huge body's memory: its size plus the generator's slack (it aims 5% over).
        let bytes = match fault {
            Fault::Huge(mb) => ((mb as usize) << 20).saturating_mul(5) / 4,
            _ => 0,
        };
        let mut u = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if u.0 >= self.max_count {
            return Err(busy(&format!(
                "too many slow or huge answers in flight (at most {}); retry later",
                self.max_count
            )));
        }
        if u.1.saturating_add(bytes) > self.max_bytes {
            return Err(busy(&format!(
                "huge answers in flight would hold more than {} (--max-huge-mib); retry later",
                human_bytes(self.max_bytes)
            )));
        }
        u.0 += 1;
        u.1 += bytes;
        Ok(Permit {
            pool: self.clone(),
            bytes,
        })
    }

    /// Answers and bytes in flight now.
    pub fn in_flight(&self) -> (usize, usize) {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A response body: its bytes, then (for `drop_body`) a pause and an error that makes the
/// server close the connection mid-body. Holds its [`Permit`] until it is dropped.
pub struct Sent {
    data: Option<Bytes>,
    fail: bool,
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
    _permit: Option<Permit>,
}

impl Sent {
    /// The whole `data`.
    pub fn whole(data: Bytes, permit: Option<Permit>) -> Sent {
        Sent {
            data: Some(data).filter(|d| !d.is_empty()),
            fail: false,
            pause: None,
            _permit: permit,
        }
    }

    /// `data`, then a broken connection.
    pub fn dropped(data: Bytes, permit: Option<Permit>) -> Sent {
        Sent {
            fail: true,
            ..Sent::whole(data, permit)
        }
    }
}

impl http_body::Body for Sent {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        if let Some(d) = self.data.as_mut() {
            // In pieces: the server asks for the next one once the last is written, so the
            // permit (and the memory it counts) is held until the body is nearly sent.
            let piece = if d.len() > CHUNK {
                d.split_to(CHUNK)
            } else {
                std::mem::take(d)
            };
            if d.is_empty() {
                self.data = None;
            }
            return Poll::Ready(Some(Ok(Frame::data(piece))));
        }
        if !self.fail {
            return Poll::Ready(None);
        }
        let pause = self
            .pause
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(DROP_PAUSE)));
        match pause.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                self.fail = false;
                Poll::Ready(Some(Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    "drop_body fault: connection closed mid-body",
                ))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && !self.fail
    }

    fn size_hint(&self) -> SizeHint {
        match (&self.data, self.fail) {
            (Some(d), false) => SizeHint::with_exact(d.len() as u64),
            (None, false) => SizeHint::with_exact(0),
            _ => SizeHint::default(),
        }
    }
}
