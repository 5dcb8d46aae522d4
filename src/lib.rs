//! # serpkit
//!
//! Typed requests and responses for the 11 operations of the keyword, backlink and SERP data
//! service, request checks, prices and cost estimates ([`ops`]), exact money ([`Usd`]), and
//! lenient typed decoding ([`decode()`]).
//!
//! Layers, lowest first; a module imports only modules below it (an architecture test
//! checks the `use` lines): [`json`] (the scanner) and the other leaves ([`money`],
//! [`keyword`]) <- [`rules`] (the rule language) <- [`ops`] (one file per operation and the
//! one list of operations) <- [`validate`](mod@validate) (the engine and the JSON Schema export) <-
//! [`decode`](mod@decode), [`records`] <- [`client`] <- `js` (the JS package's exports).
//!
//! ```
//! use serpkit::ops::{self, OperationRequest, Operation};
//!
//! let req = ops::search_volume_bulk::Request {
//!     key: Default::default(),
//!     keywords: vec!["running shoes".into(), "trail shoes".into()],
//!     ccode: "US".into(),
//! };
//! req.check().unwrap();
//! assert_eq!(req.estimate_cost().to_string(), "$0.0006");
//! assert_eq!(Operation::SearchVolumeBulk.path(), "search_volume/bulk");
//! ```

#![warn(missing_docs)]

pub mod client;
pub mod decode;
pub mod json;
pub mod keyword;
pub mod machine;
pub mod money;
pub mod ops;
pub mod records;
pub mod rules;
pub mod validate;

#[cfg(any(feature = "js", not(target_arch = "wasm32")))]
pub mod js;

pub use decode::{decode, DecodeError};
pub use money::Usd;
pub use ops::{
    estimate_cost, ApiKey, Operation, OperationRequest, Price, PriceUnit, Request, RequestError,
    RequestErrorKind,
};
pub use validate::{validate, Report};
