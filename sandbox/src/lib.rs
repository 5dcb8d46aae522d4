//! # sandbox
//!
//! An offline stand-in for the keyword, backlink and SERP data service: deterministic,
//! spec-conformant synthetic data for all 11 operations, served in-process ([`InProcess`],
//! the app's demo mode) or over HTTP (the `server` feature and the `sandbox` binary).
//!
//! - [`generate`]: the data generator (pure functions; "today" is a parameter).
//! - [`Sandbox`]: the request-handling core both forms share: routing, request checks (400
//!   naming the field), keys (401), budgets (402), body limit (413), faults ([`faults`]),
//!   and the [`Ledger`] of calls and charges.
//! - [`InProcess`]: a [`serpkit::client::Transport`] over a [`Sandbox`].
//! - [`worker`]: the same in a Web Worker (the app's demo mode; binary `sandbox-worker`,
//!   feature `worker`).
//!
//! Without the `server` feature the library compiles to `wasm32-unknown-unknown`: no tokio,
//! no clock (pass the date in as a [`Date`]).
//!
//! Errors are answered as `{"error":{"code":"unauthorized","message":"..."}}` (400s add
//! `"field"`, a JSON Pointer). The real service's error shape is not documented: clients must
//! not depend on this one, only on the status code.
//!
//! ```
//! use sandbox::{generate, Date};
//! use serpkit::{Operation, Request};
//!
//! let today = Date::new(2024, 3, 5).unwrap();
//! let req = Request::from_json(Operation::Related, r#"{"keyword":"trail shoes","ccode":"US"}"#)
//!     .unwrap();
//! let body = generate::body(&req, today);
//! assert_eq!(body, generate::body(&req, today));
//! let records: serpkit::ops::related::Response = serpkit::decode(&body).unwrap();
//! assert!(records.windows(2).all(|w| w[0].search_volume >= w[1].search_volume));
//! ```

#![warn(missing_docs)]

pub mod date;
pub mod faults;
pub mod generate;
pub mod inprocess;
mod json;
pub mod ledger;
pub mod response;
pub mod rng;
pub mod service;
mod words;
pub mod worker;

#[cfg(feature = "server")]
pub mod server;

pub use date::Date;
pub use faults::{BreakRule, Fault, FAULT_HEADER};
pub use inprocess::InProcess;
pub use ledger::{Ledger, LedgerEntry, DEFAULT_MAX_LEDGER_ENTRIES};
pub use response::SandboxResponse;
pub use service::{
    key_id, Config, KeyConfig, Sandbox, DEFAULT_KEY, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HEAVY,
    DEFAULT_MAX_HUGE_BYTES, DEMO_KEY, REDIRECT_TARGET,
};
