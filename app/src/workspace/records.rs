//! Bought records of the workspace, so a record is paid for once ([`serpkit::records`]):
//! kept in memory (a signal, so prices update as records arrive) and in IndexedDB's
//! `records` store, one row per request that bought them (one JSON record per line; a row
//! of the earlier layout is one record, so it reads the same). One value per request instead of one per
//! record: committing a 200-record chunk is one put, not 200 (BENCHMARKS.md). A record
//! bought again lives in two rows; the newer one wins when they are read.

use std::collections::HashMap;

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serpkit::client::LocalBoxFuture;
use serpkit::records::{Plan, PlanOptions, RecordKey, RecordKind, RecordStore, StoredRecord};
use serpkit::validate::{rule_code, Issue, Severity};
use serpkit::Request;

use crate::model::{CallResult, StoredIssue};
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
            issues: r.issues.iter().map(StoredIssue::from).collect(),
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

/// The id of a record in memory: `kind \0 key`.
pub(crate) fn record_id(kind: &str, key: &str) -> String {
    format!("{kind}\u{0}{key}")
}

/// The records of one row of the `records` store: one JSON record per line (serde_json
/// never writes a raw line break), so a row of the earlier layout (one record) is a row of
/// one line. Each line is read by the one record parser the first load already carries.
pub(crate) fn parse_row(text: Option<String>) -> Result<Vec<RecordEntry>, String> {
    let text = text.ok_or("not text")?;
    let mut records = Vec::new();
    for line in text.split('\n').filter(|line| !line.trim().is_empty()) {
        records.push(serde_json::from_str::<RecordEntry>(line).map_err(|e| e.to_string())?);
    }
    Ok(records)
}

/// A row of the `records` store as read ([`parse_row`]).
pub(crate) struct RecordRow(pub Vec<RecordEntry>);

impl store::Stored for RecordRow {
    fn from_text(text: Option<String>) -> Result<RecordRow, String> {
        parse_row(text).map(RecordRow)
    }
}

/// The text of a row holding `entries`: one JSON record per line.
pub(crate) fn row_text(entries: &[RecordEntry]) -> String {
    // One buffer for the whole row (a chunk's 200 records), not a string per record.
    let mut row: Vec<u8> = Vec::with_capacity(entries.iter().map(|e| e.json.len() + 96).sum());
    for e in entries {
        let start = row.len();
        if start > 0 {
            row.push(b'\n');
        }
        if serde_json::to_writer(&mut row, e).is_err() {
            row.truncate(start);
        }
    }
    // serde_json writes UTF-8 only.
    String::from_utf8(row).unwrap_or_default()
}

/// A new row's key: `~` (after every key of the earlier layout, which starts with a
/// record kind's name), the time in fixed-width hex, a random tail (unique across tabs).
/// Keys sort by time, so reading rows in key order and keeping the last copy of a record
/// keeps the newest.
pub(crate) fn new_row_key() -> String {
    row_key(js_sys::Date::now(), js_sys::Math::random())
}

fn row_key(now_ms: f64, random: f64) -> String {
    format!("{}{:013x}", row_key_at(now_ms), (random * 1e15) as u64)
}

/// The first key a row stored at `ms` (since the epoch) or later can have.
fn row_key_at(ms: f64) -> String {
    format!("~{:013x}", ms.max(0.0) as u64)
}

/// The cache key under which the previous purchase of the result stored under `key` is kept.
pub fn previous_key(key: &str) -> String {
    format!("{key}~previous")
}

/// The result to keep as the previous purchase when `new` is stored over `old`, if any.
///
/// Decided: a domain's ranked keywords (`ranked-keywords/domain`) keep the purchase they
/// replace, so a refresh never destroys it and position changes compare the two. Neither
/// existing store gives it otherwise: these records are per request, not rows of the
/// `records` store (only per-record operations write rows there), and a result is stored
/// under its request's cache key, which a refresh overwrites. So the replaced result is
/// written in the same `results` store under [`previous_key`], in the transaction that
/// stores the new one: one previous purchase per request (the one before the latest), no
/// new store, and it follows exports, imports and other tabs as every result does. Other
/// operations keep only the latest (their pages compare nothing over time).
pub(crate) fn previous_to_keep(old: Option<&CallResult>, new: &CallResult) -> Option<CallResult> {
    let old = old?;
    let keeps = new.operation == serpkit::Operation::RankedKeywordsDomain.path();
    (keeps && old.key == new.key && old.at < new.at && old.missing.is_empty()).then(|| CallResult {
        key: previous_key(&old.key),
        ..old.clone()
    })
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

    /// Adds records read from storage or an import (without writing them back); of two
    /// copies of a record the later one is kept (rows are read in key order: by time).
    pub fn extend(self, entries: impl IntoIterator<Item = RecordEntry>) {
        self.map
            .update(|m| m.extend(entries.into_iter().map(|e| (e.id(), e))));
    }

    /// Adds the records of the rows stored under `keys` (another tab's, as its message
    /// names them).
    pub(crate) async fn read_rows(self, keys: &[String]) {
        if let Ok(texts) = store::texts_of(store::RECORDS, keys).await {
            self.add_rows(texts);
        }
    }

    /// Re-reads the rows stored since this tab last looked (from when it opened, the first
    /// time), with a minute's margin for another tab's clock: what other tabs committed,
    /// whether or not their message arrived yet.
    /// A failed read is an error, and the next one starts where this one did.
    pub(crate) async fn read_new(self) -> Result<(), String> {
        let now = js_sys::Date::now();
        let since = LOOKED
            .with(|l| l.get())
            .unwrap_or_else(|| now - crate::host::tabs::clock());
        self.read_since(since - 60_000.0).await?;
        LOOKED.with(|l| l.set(Some(now)));
        Ok(())
    }

    /// Re-reads the rows stored since `since` (ms since the epoch) by any tab, in key order.
    pub(crate) async fn read_since(self, since: f64) -> Result<(), String> {
        if !store::available() {
            return Ok(());
        }
        let texts = store::texts_from(store::RECORDS, &row_key_at(since)).await?;
        self.add_rows(texts);
        Ok(())
    }

    /// Adds the records of rows read as text, in key order (damaged rows are left out).
    fn add_rows(self, texts: Vec<Option<String>>) {
        self.extend(
            texts
                .into_iter()
                .filter_map(|t| parse_row(t).ok())
                .flatten(),
        );
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
    /// writes them to IndexedDB as one row; a failed write is reported, never loses the
    /// answer.
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
            let key = new_row_key();
            store::put_text(store::RECORDS, &key, &row_text(&entries)).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, at: f64) -> RecordEntry {
        RecordEntry {
            kind: "search_volume".into(),
            key: key.into(),
            json: format!("{{\"at\":{at}}}"),
            at,
            issues: Vec::new(),
            imported: false,
        }
    }

    #[test]
    fn a_row_is_one_record_per_line_and_a_row_of_the_earlier_layout_is_one_line() {
        let row = row_text(&[entry("a", 1.0), entry("b\nc", 2.0)]);
        assert_eq!(row.lines().count(), 2, "a line break in a field is escaped");
        assert_eq!(
            parse_row(Some(row)).unwrap(),
            vec![entry("a", 1.0), entry("b\nc", 2.0)]
        );
        assert_eq!(parse_row(Some(row_text(&[]))).unwrap(), vec![]);
        let one = serde_json::to_string(&entry("c", 3.0)).unwrap();
        assert_eq!(parse_row(Some(one)).unwrap(), vec![entry("c", 3.0)]);
        assert!(parse_row(Some("{\"kind\":1}".into())).is_err());
        assert!(parse_row(Some("[]".into())).is_err());
        assert!(parse_row(None).is_err());
    }

    #[test]
    fn a_ranked_keywords_result_bought_again_keeps_the_one_it_replaces() {
        let result = |op: &str, at: f64| CallResult {
            key: "k".into(),
            operation: op.into(),
            request: String::new(),
            body: format!("[{at}]"),
            validation: Default::default(),
            charge: serpkit::Usd::ZERO,
            at,
            mode: crate::model::Mode::Demo,
            missing: Vec::new(),
            imported: false,
            source: String::new(),
            rejected: false,
        };
        let op = serpkit::Operation::RankedKeywordsDomain.path();
        let (old, new) = (result(op, 1.0), result(op, 2.0));
        let kept = previous_to_keep(Some(&old), &new).unwrap();
        assert_eq!(
            (kept.key.as_str(), kept.body.as_str()),
            ("k~previous", "[1]")
        );
        assert_eq!(previous_to_keep(None, &new), None);
        assert_eq!(previous_to_keep(Some(&new), &new), None, "not itself");
        let other = serpkit::Operation::Related.path();
        assert_eq!(
            previous_to_keep(Some(&result(other, 1.0)), &result(other, 2.0)),
            None
        );
    }

    #[test]
    fn new_rows_sort_after_rows_of_the_earlier_layout_and_by_time() {
        let old_layout = record_id("search_volume", "k");
        let (a, b) = (row_key(1.7e12, 0.999), row_key(1.7e12 + 1.0, 0.0));
        assert!(old_layout < a && a.len() == 27 && b.len() == 27);
        assert!(a < b, "a later time sorts after, whatever the random tail");
    }
}

thread_local! {
    /// When this tab last re-read what other tabs stored ([`Records::read_new`]).
    static LOOKED: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}
