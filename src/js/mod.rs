//! The JS package (`cargo xtask pkg`): its wasm-bindgen exports and the logic behind them.
//!
//! JSON text crosses the boundary: requests and bodies come in as text (or are
//! `JSON.stringify`-ed once), results go out through `JSON.parse`, which builds JS objects
//! faster than creating them one by one from wasm. The TypeScript types are written by hand in
//! `serpkit.d.ts`, checked against the Rust model and the lists below by
//! `tsc --strict -p tests/ts` (its `generated/checks.ts` is written from the core by the
//! `pkg_types` example).
//!
//! Modules by job. Each keeps its logic over plain Rust types, compiled and unit-tested
//! natively (`cargo test -p serpkit`), and its JS values in a wasm-only part:
//! - `exports` (wasm): every `#[wasm_bindgen]` function and the `Client` class, with the
//!   TypeScript section;
//! - `client` (wasm): the `Client`'s calls: one call, a chunked bulk job, planned sends;
//! - `args` (wasm): a call's JS arguments as the operation and its request;
//! - `records`: the steps of paying once per record (`record_client.js` drives them);
//! - `options`: `new Client(options)` and the options of a call;
//! - `text`: JS text and bytes into wasm;
//! - `errors`: the `SerpkitError`s, their codes and fields;
//! - `replies`: the JSON text of what the package hands back.
//!
//! The JS files beside them are copied into the package by `cargo xtask pkg`:
//! `record_client.js` (the per-operation methods, `quote` and the record cache's
//! orchestration), `record_cache.js` (the caches) and `static_api.js` (`operations()` and
//! `jsonSchema()` over the generated `static_data.js`).

// Natively only the unit tests and the exported lists below use the logic.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod errors;
mod options;
mod records;
mod replies;
mod text;

#[cfg(target_arch = "wasm32")]
mod args;
#[cfg(target_arch = "wasm32")]
mod client;
#[cfg(target_arch = "wasm32")]
mod exports;

pub use errors::{
    ERROR_CODES, INVALID_ARGUMENT, INVALID_REQUEST, JS_ERROR_CODES, UNKNOWN_OPERATION,
};
#[cfg(target_arch = "wasm32")]
pub use exports::JsClient;
pub use options::{
    BULK_OPTION_NAMES, CALL_OPTION_NAMES, CLIENT_OPTION_NAMES, INTEGER_MODES, RETRY_OPTION_NAMES,
};

/// The package's allocator: talc, about 1.9 kB gzip smaller than the standard dlmalloc
/// (measurements in xtask's `pkg`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the package runs on one thread (wasm32 without atomics), which is what
// `TalckWasm` (talc's unsynchronised wasm allocator) requires.
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
