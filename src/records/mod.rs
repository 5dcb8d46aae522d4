//! Pay once per record.
//!
//! Three operations are priced per record: `search_volume/bulk` per keyword and country
//! (`search_volume/single` is the same record for one keyword), `domainstats` per domain and
//! `backlink/metrics` per URL. A call of one of them is first *planned* ([`Plan::new`]):
//! which requested records are already bought (and fresh enough), which are missing. Only
//! the missing ones are sent and priced; [`Plan::merge`] then answers in request order from
//! stored and new records, with one report whose paths point into that answer.
//!
//! - Record keys ([`key`]) hold the source (the base URL), the kind and the normalised item;
//!   the module's doc lists how each item is normalised.
//! - Records live in a [`RecordStore`]: async and batched (one `get` and one `put` per call),
//!   each record's raw JSON with when it was bought and its own validation issues.
//!   [`MemoryStore`] keeps them in memory; the app keeps them in IndexedDB, and the JS
//!   package takes any object with `get`/`put` (it ships an in-memory and an IndexedDB one).
//! - A failed store write never loses a paid answer: the answer is returned, with the
//!   failure beside it.
//! - Duplicates in one request (after normalisation) are bought once and answered at every
//!   position that asks for them.
//! - A bought record that matches no requested item, or whose item two records claim, stays
//!   in the answer (after the requested ones, with a `record_unmatched` warning) and is not
//!   stored for reuse.

pub mod key;
mod plan;
mod request;
mod store;

pub use key::{
    normalize_ccode, normalize_domain, normalize_keyword, request_keys, same_keyword, source_of,
    RecordKey, RecordKind,
};
pub use plan::{shift_path, Bought, Merged, Plan, PlanOptions, StoredRecord};
pub use request::request_key;
pub use store::{MemoryStore, RecordStore};

#[cfg(test)]
mod tests;
