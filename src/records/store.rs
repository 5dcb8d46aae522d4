//! Where bought records are kept: the [`RecordStore`] interface and an in-memory store.

use std::cell::RefCell;
use std::collections::HashMap;

use super::{RecordKey, RecordKind, StoredRecord};
// The same type as `client::LocalBoxFuture` (the record planner sits below the client).
use futures_util::future::LocalBoxFuture;

/// A store of bought records, by kind and key. Async and batched: one `get` before a call
/// and one `put` after it.
pub trait RecordStore {
    /// The stored record of each key (`None` where there is none), in the keys' order.
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>>;

    /// Stores records (replacing those of the same keys).
    fn put(
        &self,
        kind: RecordKind,
        records: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>>;
}

/// Records in memory (for Rust users and tests; lost with the process).
#[derive(Debug, Default)]
pub struct MemoryStore {
    records: RefCell<HashMap<(RecordKind, RecordKey), StoredRecord>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.records.borrow().len()
    }

    /// True when it holds no record.
    pub fn is_empty(&self) -> bool {
        self.records.borrow().is_empty()
    }

    /// Removes every record.
    pub fn clear(&self) {
        self.records.borrow_mut().clear();
    }
}

impl RecordStore for MemoryStore {
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>> {
        let records = self.records.borrow();
        let found = keys
            .iter()
            .map(|k| records.get(&(kind, k.clone())).cloned())
            .collect();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put(
        &self,
        kind: RecordKind,
        records: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        let mut map = self.records.borrow_mut();
        for (k, r) in records {
            map.insert((kind, k), r);
        }
        Box::pin(std::future::ready(Ok(())))
    }
}
