//! A JS record cache (`new Client({ cache })`: any object with `get(kind, keys)` and
//! `put(kind, entries)`, sync or async) as the core's [`RecordStore`]. The package's own
//! caches are written in JS (`record_cache.js`), so they cost the wasm nothing.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::client::LocalBoxFuture;
use crate::records::{RecordKey, RecordKind, RecordStore, StoredRecord};
use crate::validate::{rule_code, Issue, Severity};

/// A JS object with `get` and `put` methods.
#[derive(Clone)]
pub(super) struct JsRecordCache {
    this: JsValue,
    get: Function,
    put: Function,
}

fn method(this: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(this, &name.into()).ok()?.dyn_into().ok()
}

fn text(v: &JsValue, k: &str) -> Option<String> {
    Reflect::get(v, &k.into()).ok()?.as_string()
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the record cache failed".into())
}

/// The value, awaited when it is a promise (a thenable).
async fn settle(v: JsValue) -> Result<JsValue, String> {
    if v.has_type::<Promise>() || method(&v, "then").is_some() {
        JsFuture::from(Promise::resolve(&v))
            .await
            .map_err(|e| message(&e))
    } else {
        Ok(v)
    }
}

impl JsRecordCache {
    /// The `cache` option: `None` when absent, an error when it lacks `get` or `put`.
    pub(super) fn new(value: JsValue) -> Result<JsRecordCache, String> {
        match (method(&value, "get"), method(&value, "put")) {
            (Some(get), Some(put)) => Ok(JsRecordCache {
                this: value,
                get,
                put,
            }),
            _ => Err(
                "cache must be an object with get(kind, keys) and put(kind, entries) methods"
                    .into(),
            ),
        }
    }
}

/// A stored record from its JS object (`null`, `undefined` or anything without a `json`
/// string: none).
fn record_of(v: &JsValue) -> Option<StoredRecord> {
    if !v.is_object() {
        return None;
    }
    let json = text(v, "json")?;
    let at = Reflect::get(v, &"boughtAt".into()).ok()?.as_f64()?;
    let imported = Reflect::get(v, &"imported".into())
        .ok()
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    let issues = Reflect::get(v, &"issues".into())
        .ok()
        .filter(Array::is_array)
        .map(|a| {
            Array::from(&a)
                .iter()
                .filter_map(|i| {
                    Some(Issue {
                        path: text(&i, "path")?,
                        code: rule_code(&text(&i, "code")?)?,
                        severity: match text(&i, "severity")?.as_str() {
                            "error" => Severity::Error,
                            _ => Severity::Warning,
                        },
                        message: text(&i, "message").unwrap_or_default(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Some(StoredRecord {
        json,
        bought_at_ms: at,
        issues,
        imported,
    })
}

fn record_value(r: &StoredRecord) -> JsValue {
    let o = Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&o, &k.into(), &v);
    };
    set("json", r.json.as_str().into());
    set("boughtAt", r.bought_at_ms.into());
    set("imported", r.imported.into());
    let issues = Array::new();
    for i in &r.issues {
        let io = Object::new();
        let _ = Reflect::set(&io, &"path".into(), &i.path.as_str().into());
        let _ = Reflect::set(&io, &"code".into(), &i.code.into());
        let _ = Reflect::set(&io, &"severity".into(), &i.severity.as_str().into());
        let _ = Reflect::set(&io, &"message".into(), &i.message.as_str().into());
        issues.push(&io);
    }
    set("issues", issues.into());
    o.into()
}

impl RecordStore for JsRecordCache {
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>> {
        Box::pin(async move {
            let list: Array = keys.iter().map(|k| JsValue::from(k.as_str())).collect();
            let v = self
                .get
                .call2(&self.this, &kind.name().into(), &list)
                .map_err(|e| message(&e))?;
            let v = settle(v).await?;
            if !Array::is_array(&v) {
                return Err("cache.get must return an array (one entry per key)".into());
            }
            let found = Array::from(&v);
            Ok((0..keys.len() as u32)
                .map(|i| record_of(&found.get(i)))
                .collect())
        })
    }

    fn put(
        &self,
        kind: RecordKind,
        records: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        Box::pin(async move {
            let entries = Array::new();
            for (k, r) in &records {
                let e = Object::new();
                let _ = Reflect::set(&e, &"key".into(), &k.as_str().into());
                let _ = Reflect::set(&e, &"record".into(), &record_value(r));
                entries.push(&e);
            }
            let v = self
                .put
                .call2(&self.this, &kind.name().into(), &entries)
                .map_err(|e| message(&e))?;
            settle(v).await.map(|_| ())
        })
    }
}
