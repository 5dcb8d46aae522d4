//! Calls that pay once per record: planned against a [`RecordStore`], only the missing
//! records sent and priced, the answer merged in request order ([`crate::records`]).

use std::rc::Rc;

use super::{BulkOptions, BulkProgress, BulkReport, Cancel, Client, Error, ValidationMode};
use crate::money::Usd;
use crate::ops::{search_volume_bulk, Request};
use crate::records::{shift_path, source_of, Bought, Plan, PlanOptions, RecordStore};
use crate::validate::{Issue, Report};

/// A call answered from stored records and what this call bought.
#[derive(Clone, Debug, Default)]
pub struct RecordReply {
    /// The answer's JSON: records in request order (an object for `search_volume/single`).
    pub body: String,
    /// The merged report (`None` when validation is off).
    pub report: Option<Report>,
    /// What this call was charged (zero when every record was stored).
    pub charge: Usd,
    /// Requested positions answered from stored records.
    pub from_store: usize,
    /// Records this call bought and stored.
    pub bought: usize,
    /// Bought records kept in the answer but not stored (they match no requested item).
    pub unmatched: usize,
    /// Requested positions no record answers.
    pub missing: usize,
    /// The record store could not be read or written; the answer is complete all the same.
    pub store_error: Option<String>,
    /// Attempts made (0 when nothing was sent).
    pub attempts: u32,
}

impl Client {
    /// This client, but reporting instead of rejecting contract errors: a planned call is
    /// judged after the merge, so a strict mode never throws away records paid for.
    pub(crate) fn judged_later(&self) -> Client {
        if self.config.validation != ValidationMode::Strict {
            return self.clone();
        }
        let mut c = (*self.config).clone();
        c.validation = ValidationMode::Warn;
        Client {
            config: Rc::new(c),
            ..self.clone()
        }
    }

    /// Where this client's records come from (its base URL, normalised): part of every
    /// record key, so records of one service are never reused for another.
    pub fn record_source(&self) -> String {
        source_of(&self.config.base_url)
    }

    /// The plan of `request` now: which records are stored, what would be bought and its
    /// price. `Ok(None)` for operations priced per request; `Err` when the store cannot be
    /// read (the caller then prices the whole request).
    pub async fn plan(
        &self,
        request: &Request,
        store: &dyn RecordStore,
        options: &PlanOptions,
    ) -> Result<Option<Plan>, String> {
        let source = self.record_source();
        let Some((kind, keys)) = crate::records::request_keys(request, &source) else {
            return Ok(None);
        };
        let found = store.get(kind, &keys).await?;
        Ok(Plan::new(request, &source, found, options))
    }

    /// Sends `request` buying only the records `store` does not hold (fresh enough per
    /// `options`), stores what was bought, and answers in request order. Operations priced
    /// per request are sent as they are. A store that cannot be read counts as empty (the
    /// whole request is bought, as its plan priced it); a failed write keeps the answer.
    /// Strict validation judges the merged report, after new records are stored. Without a
    /// store (`None`) it is [`Client::call_raw`].
    pub async fn call_with_records(
        &self,
        request: &Request,
        store: Option<&dyn RecordStore>,
        options: &PlanOptions,
        cancel: Option<&Cancel>,
    ) -> Result<RecordReply, Error> {
        request.check().map_err(Error::InvalidRequest)?;
        let mut store_error = None;
        let plan = match store {
            None => None,
            Some(store) => match self.plan(request, store, options).await {
                Ok(p) => p,
                Err(e) => {
                    store_error = Some(e);
                    Plan::new(request, &self.record_source(), Vec::new(), options)
                }
            },
        };
        let planned = plan.zip(store);
        // One send (one copy of the call's code): the whole request without a plan, the
        // missing records with one, nothing when every record is stored.
        let (client, send) = match &planned {
            None => (self.clone(), Some(request)),
            Some((plan, _)) => (self.judged_later(), plan.to_buy.as_ref()),
        };
        let sent = match send {
            Some(r) => Some(client.call_raw(r, cancel).await?),
            None => None,
        };
        let Some((plan, store)) = planned else {
            // Without a plan the whole request was sent (`send` above), so `sent` is there.
            return Ok(sent
                .map(|r| RecordReply {
                    body: r.body,
                    report: r.report,
                    charge: r.charge,
                    store_error,
                    attempts: r.attempts,
                    ..RecordReply::default()
                })
                .unwrap_or_default());
        };
        let mode = self.config.validation;
        let bought = sent.as_ref().map(|r| Bought {
            body: &r.body,
            report: r.report.as_ref(),
            at_ms: options.now_ms,
        });
        let merged = plan.merge(bought, mode != ValidationMode::Off);
        let (charge, attempts) = sent.map_or((Usd::ZERO, 0), |r| (r.charge, r.attempts));
        let bought = merged.fresh.len();
        if !merged.fresh.is_empty() {
            if let Err(e) = store.put(plan.kind, merged.fresh).await {
                store_error = Some(e);
            }
        }
        if mode == ValidationMode::Strict {
            if let Some(r) = merged.report.as_ref().filter(|r| !r.ok()) {
                return Err(Error::ContractViolation {
                    report: Box::new(r.clone()),
                    body: merged.body,
                    charge,
                });
            }
        }
        Ok(RecordReply {
            body: merged.body,
            report: merged.report,
            charge,
            from_store: merged.from_store,
            bought,
            unmatched: merged.unmatched,
            missing: merged.missing.len(),
            store_error,
            attempts,
        })
    }
}

/// A bulk job that pays once per record ([`Client::search_volume_bulk_with_records`]).
#[derive(Clone, Debug, Default)]
pub struct RecordBulk {
    /// The answer: one JSON array, records in request order (stored and new).
    pub records: String,
    /// The merged report (`None` when validation is off).
    pub report: Option<Report>,
    /// Requested keywords no record answers (their chunk did not complete, or the service
    /// left them out), in request order.
    pub missing: Vec<String>,
    /// What this job was charged.
    pub charge: Usd,
    /// Estimates of chunks whose outcome is unknown.
    pub possibly_charged: Usd,
    /// Why the job stopped early, if it did (or the strict verdict on the merged report).
    pub stopped: Option<Error>,
    /// Requested keywords answered from stored records.
    pub from_store: usize,
    /// Records bought and stored.
    pub bought: usize,
    /// Bought records kept in the answer but not stored.
    pub unmatched: usize,
    /// The store could not be read or written; the answer is complete all the same.
    pub store_error: Option<String>,
}

impl Client {
    /// `search_volume/bulk` over any number of keywords, buying only the records `store`
    /// lacks: planned, the missing keywords run in chunks
    /// ([`Client::search_volume_bulk_chunked_raw`]: cancel stops new chunks, chunks in
    /// flight finish), merged in request order, new records stored. Without a store (`None`)
    /// it is [`Client::search_volume_bulk_chunked_raw`].
    #[allow(clippy::too_many_arguments)]
    pub async fn search_volume_bulk_with_records(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
        store: Option<&dyn RecordStore>,
        plan: &PlanOptions,
    ) -> RecordBulk {
        let request = Request::SearchVolumeBulk(search_volume_bulk::Request {
            key: Default::default(),
            keywords: keywords.to_vec(),
            ccode: ccode.to_owned(),
        });
        let mut out = RecordBulk::default();
        let planned = match store {
            None => None,
            Some(store) => match self.plan(&request, store, plan).await {
                Ok(p) => p,
                Err(e) => {
                    out.store_error = Some(e);
                    Plan::new(&request, &self.record_source(), Vec::new(), plan)
                }
            }
            .zip(Some(store)),
        };
        // One job (one copy of its code): every keyword without a plan, the missing ones
        // with one, none when every record is stored.
        let (client, send) = match &planned {
            None => (self.clone(), Some(keywords)),
            Some((p, _)) => match &p.to_buy {
                Some(Request::SearchVolumeBulk(q)) => (self.judged_later(), Some(&q.keywords[..])),
                _ => (self.clone(), None),
            },
        };
        let job = match send {
            Some(k) => Some(
                client
                    .search_volume_bulk_chunked_raw(k, ccode, options, on_progress, cancel)
                    .await,
            ),
            None => None,
        };
        let validated = self.config.validation != ValidationMode::Off;
        if let Some(job) = &job {
            out.charge = job.charge;
            out.possibly_charged = job.possibly_charged;
            out.stopped = job.stopped.clone();
        }
        let Some((planned, store)) = planned else {
            if let Some(job) = job {
                out.records = job.records;
                out.missing = job.missing;
            }
            return out;
        };
        let report = job
            .as_ref()
            .filter(|_| validated)
            .map(|job| BulkReport::join(&job.reports));
        let bought = job.as_ref().map(|job| Bought {
            body: &job.records,
            report: report.as_ref(),
            at_ms: plan.now_ms,
        });
        let merged = planned.merge(bought, validated);
        out.missing = merged
            .missing
            .iter()
            .filter_map(|&p| keywords.get(p).cloned())
            .collect();
        out.from_store = merged.from_store;
        out.unmatched = merged.unmatched;
        out.bought = merged.fresh.len();
        if !merged.fresh.is_empty() {
            if let Err(e) = store.put(planned.kind, merged.fresh).await {
                out.store_error = Some(e);
            }
        }
        if self.config.validation == ValidationMode::Strict && out.stopped.is_none() {
            if let Some(r) = merged.report.as_ref().filter(|r| !r.ok()) {
                out.stopped = Some(Error::ContractViolation {
                    report: Box::new(r.clone()),
                    body: merged.body.clone(),
                    charge: out.charge,
                });
            }
        }
        out.records = merged.body;
        out.report = merged.report;
        out
    }
}

impl BulkReport {
    /// One report over the joined chunks of a bulk job: each chunk's paths moved to its
    /// records.
    pub fn join(reports: &[BulkReport]) -> Report {
        let mut issues: Vec<Issue> = Vec::new();
        let (mut errors, mut warnings) = (0, 0);
        for c in reports {
            errors += c.report.error_count() - c.report.errors().count();
            warnings += c.report.warning_count() - c.report.warnings().count();
            issues.extend(c.report.issues.iter().map(|i| Issue {
                path: shift_path(&i.path, c.first_record),
                ..i.clone()
            }));
        }
        Report::from_parts(issues, errors, warnings)
    }
}
