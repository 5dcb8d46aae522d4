//! The `reset` fault over TCP: the connection is reset (RST) before any byte of the answer.
//!
//! hyper owns the socket and would write whatever the handler returns, so every accepted
//! stream carries a flag the handler can set ([`ResetHandle`], reached through axum's
//! connect info). Once it is set, the stream refuses to write: hyper then drops the
//! connection, and `SO_LINGER` 0 (set when the flag is) makes the close a reset instead of a
//! FIN, so the client sees no status line at all.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener whose connections can be reset by the handler.
pub struct Resettable(pub TcpListener);

/// An accepted connection and its reset flag.
pub struct Stream {
    tcp: TcpStream,
    reset: Arc<AtomicBool>,
}

/// Resets its connection instead of answering ([`ResetHandle::reset`]).
#[derive(Clone, Debug)]
pub struct ResetHandle(Arc<AtomicBool>);

impl ResetHandle {
    /// Nothing more is written on this connection; it is reset once hyper drops it.
    pub fn reset(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Listener for Resettable {
    type Io = Stream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Stream, Self::Addr) {
        let (tcp, addr) = Listener::accept(&mut self.0).await;
        let reset = Arc::new(AtomicBool::new(false));
        (Stream { tcp, reset }, addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

impl Connected<IncomingStream<'_, Resettable>> for ResetHandle {
    fn connect_info(stream: IncomingStream<'_, Resettable>) -> Self {
        ResetHandle(stream.io().reset.clone())
    }
}

impl Stream {
    /// `Some(error)` once the handler asked for a reset: linger 0, so the drop that follows
    /// sends RST.
    fn refused(&self) -> Option<io::Error> {
        if !self.reset.load(Ordering::SeqCst) {
            return None;
        }
        let _ = self.tcp.set_zero_linger();
        Some(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "reset fault: the connection is reset instead of answered",
        ))
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if let Some(e) = self.refused() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if let Some(e) = self.refused() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(e) = self.refused() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(e) = self.refused() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}
