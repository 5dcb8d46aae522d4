//! Bought records of the workspace, so a record is paid for once ([`serpkit::records`]):
//! kept in memory (a signal, so prices update as records arrive) and in IndexedDB's
//! `records` store, one entry per record, written in one transaction per call.

use std::collections::HashMap;

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serpkit::client::LocalBoxFuture;
use serpkit::records::{Plan, PlanOptions, RecordKey, RecordKind, RecordStore, StoredRecord};
use serpkit::validate::{rule_code, Issue, Severity};
use serpkit::Request;

use crate::model::StoredIssue;
use crate::store;

/// One record as IndexedDB keeps it (JSON text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordEntry {
    /// [`RecordKind::name`].
    pub kind: String,
    /// The record key ([`RecordKey::as_str`]).
    pub key: String,
    /// The record's JSON as the service wrote it.
    pub json: String,
    /// When it was bought (ms since the epoch).
    pub at: f64,
    /// Its validation issues, paths relative to the record.
    #[serde(default)]
    pub issues: Vec<StoredIssue>,
    /// From an imported file: shown, never counted as bought here.
    #[serde(default)]
    pub imported: bool,
}

impl RecordEntry {
    pub(crate) fn id(&self) -> String {
        record_id(&self.kind, &self.key)
    }

    pub(crate) fn from_stored(kind: RecordKind, key: &RecordKey, r: &StoredRecord) -> RecordEntry {
        RecordEntry {
            kind: kind.name().to_string(),
            key: key.as_str().to_string(),
            json: r.json.clone(),
            at: r.bought_at_ms,
            issues: r
                .issues
                .iter()
                .map(|i| StoredIssue {
                    path: i.path.clone(),
                    code: i.code.to_string(),
                    severity: i.severity.as_str().to_string(),
                    message: i.message.clone(),
                })
                .collect(),
            imported: r.imported,
        }
    }

    fn to_stored(&self) -> StoredRecord {
        StoredRecord {
            json: self.json.clone(),
            bought_at_ms: self.at,
            issues: self
                .issues
                .iter()
                .filter_map(|i| {
                    Some(Issue {
                        path: i.path.clone(),
                        code: rule_code(&i.code)?,
                        severity: if i.severity == "error" {
                            Severity::Error
                        } else {
                            Severity::Warning
                        },
                        message: i.message.clone(),
                    })
                })
                .collect(),
            imported: self.imported,
        }
    }
}

/// The id of a record in memory and in IndexedDB: `kind \0 key`.
pub(crate) fn record_id(kind: &str, key: &str) -> String {
    format!("{kind}\u{0}{key}")
}

/// The workspace's records. `Copy`; part of the workspace.
#[derive(Clone, Copy)]
pub struct Records {
    /// Every record by `kind \0 key`.
    pub map: RwSignal<HashMap<String, RecordEntry>>,
}

impl Records {
    /// No records yet (they are loaded with the workspace).
    pub fn new() -> Records {
        Records {
            map: RwSignal::new(HashMap::new()),
        }
    }

    /// Adds records read from storage or an import (without writing them back).
    pub fn extend(self, entries: impl IntoIterator<Item = RecordEntry>) {
        self.map
            .update(|m| m.extend(entries.into_iter().map(|e| (e.id(), e))));
    }

    /// How many records are kept.
    pub fn len(self) -> usize {
        self.map.with(HashMap::len)
    }

    /// True when no record is kept.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Every record, for an export.
    pub fn all(self) -> Vec<RecordEntry> {
        let mut v: Vec<RecordEntry> = self.map.with_untracked(|m| m.values().cloned().collect());
        v.sort_by_key(RecordEntry::id);
        v
    }

    /// Forgets every record (memory and storage).
    pub fn clear(self) {
        self.map.set(HashMap::new());
        if store::available() {
            leptos::task::spawn_local(async {
                let _ = store::clear(store::RECORDS).await;
            });
        }
    }

    /// The JSON of the search volume record kept for each keyword in `ccode` from `source`
    /// (reactive), imported ones included: data already there, shown without a call.
    pub fn search_volume_json(
        self,
        source: &str,
        ccode: &str,
        keywords: &[String],
    ) -> Vec<Option<String>> {
        let kind = RecordKind::SearchVolume.name();
        self.map.with(|m| {
            keywords
                .iter()
                .map(|k| {
                    let key = serpkit::records::key::search_volume_key(source, ccode, k);
                    m.get(&record_id(kind, key.as_str()))
                        .map(|e| e.json.clone())
                })
                .collect()
        })
    }

    /// The price side of the plan of `request` for records from `source` now: what is
    /// bought, what is left and its price (reactive: it follows the records as they arrive).
    /// `None` for operations priced per request. Price buttons recompute it on every edit of
    /// their input, so the records' text and issues are not copied: the plan holds only when
    /// each record was bought and whether it was imported (enough to price; the call itself
    /// reads whole records through [`RecordStore::get`]).
    pub fn plan(self, request: &Request, source: &str, options: &PlanOptions) -> Option<Plan> {
        let (kind, keys) = serpkit::records::request_keys(request, source)?;
        let found = self.map.with(|m| {
            keys.iter()
                .map(|k| {
                    m.get(&record_id(kind.name(), k.as_str()))
                        .map(|e| StoredRecord {
                            json: String::new(),
                            bought_at_ms: e.at,
                            issues: Vec::new(),
                            imported: e.imported,
                        })
                })
                .collect()
        });
        Plan::new(request, source, found, options)
    }
}

impl Default for Records {
    fn default() -> Self {
        Records::new()
    }
}

impl RecordStore for Records {
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>> {
        let found = self.map.with_untracked(|m| {
            keys.iter()
                .map(|k| {
                    m.get(&record_id(kind.name(), k.as_str()))
                        .map(RecordEntry::to_stored)
                })
                .collect()
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    /// Keeps the records in memory at once (so the answer and later prices see them), then
    /// writes them to IndexedDB in one transaction; a failed write is reported, never loses
    /// the answer.
    fn put(
        &self,
        kind: RecordKind,
        records: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        let entries: Vec<RecordEntry> = records
            .iter()
            .map(|(k, r)| RecordEntry::from_stored(kind, k, r))
            .collect();
        self.extend(entries.clone());
        Box::pin(async move {
            if !store::available() {
                return Ok(());
            }
            let texts: Vec<(String, String)> = entries
                .iter()
                .filter_map(|e| Some((e.id(), serde_json::to_string(e).ok()?)))
                .collect();
            store::put_many_text(store::RECORDS, &texts).await
        })
    }
}
