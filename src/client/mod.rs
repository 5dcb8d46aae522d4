//! The client: transports, retries and budget.

pub mod transport;

pub use transport::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};
