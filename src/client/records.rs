//! Calls that pay once per record: planned against a [`RecordStore`], only the missing
//! records sent and priced, the answer merged in request order ([`crate::records`]).

use std::cell::RefCell;
use std::rc::Rc;

use super::bulk::{array_items, join_items, not_an_array, yield_now, Pass};

use super::{
    BulkOptions, BulkOutcome, BulkProgress, BulkReport, Cancel, Client, EntryState, Error, Reply,
    Sent, Settled, ValidationMode,
};
use crate::money::Usd;
use crate::ops::{search_volume_bulk, Request};
use crate::records::{
    shift_path, source_of, Bought, Plan, PlanOptions, RecordKey, RecordKind, RecordStore,
    StoredRecord,
};
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
        let Some((plan, store)) = plan.zip(store) else {
            // Without a plan: the whole request, its body settled with its journal entry.
            let r = self.call_raw(request, cancel).await?;
            return Ok(RecordReply {
                body: r.body,
                report: r.report,
                charge: r.charge,
                store_error: r.store_error.or(store_error),
                attempts: r.attempts,
                ..RecordReply::default()
            });
        };
        // The missing records only (nothing when every record is stored); their journal
        // entry is settled with the records they bought, after the merge.
        let client = self.judged_later();
        let (sent, ticket) = match &plan.to_buy {
            None => (None, None),
            Some(r) => {
                let sent = client.send_journaled(r, cancel).await?;
                let ticket = sent.ticket;
                match sent.result {
                    Ok(reply) => (Some(reply), ticket),
                    // Nothing to store: settled by its outcome alone.
                    Err(e) => return Err(client.settle_failure(e, ticket).await),
                }
            }
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
        if let Some(e) = self
            .keep(plan.kind, merged.fresh, ticket, charge, store)
            .await
        {
            store_error = Some(e);
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

impl Client {
    /// Keeps records bought by one sent request: with a journal entry (`ticket`), settles it
    /// with them (entry and records commit together); without one, puts them in `store`.
    /// The failure, if any.
    pub(crate) async fn keep(
        &self,
        kind: RecordKind,
        fresh: Vec<(RecordKey, StoredRecord)>,
        ticket: Option<u64>,
        charge: Usd,
        store: &dyn RecordStore,
    ) -> Option<String> {
        if self.journal.is_some() && ticket.is_some() {
            let settled = Settled {
                state: EntryState::of(charge, Usd::ZERO),
                charge,
                possible_charge: Usd::ZERO,
                records: Some((kind, fresh)),
                body: None,
            };
            return self.settle(ticket, settled).await;
        }
        if fresh.is_empty() {
            return None;
        }
        store.put(kind, fresh).await.err()
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
    /// lacks: planned, the missing keywords run in chunks (cancel stops new chunks, chunks
    /// in flight finish), merged in request order. Each chunk's new records are kept as it
    /// arrives (put in the store, or with a journal settled with the chunk's entry), so a job
    /// cut short keeps every chunk it paid for. Without a store (`None`) it is
    /// [`Client::search_volume_bulk_chunked_raw`].
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
        let Some(store) = store else {
            let job = self
                .search_volume_bulk_chunked_raw(keywords, ccode, options, on_progress, cancel)
                .await;
            out.charge = job.charge;
            out.possibly_charged = job.possibly_charged;
            out.stopped = job.stopped;
            out.records = job.records;
            out.missing = job.missing;
            return out;
        };
        let planned = match self.plan(&request, store, plan).await {
            Ok(p) => p,
            Err(e) => {
                out.store_error = Some(e);
                Plan::new(&request, &self.record_source(), Vec::new(), plan)
            }
        };
        let Some(planned) = planned else {
            return out;
        };
        let validated = self.config.validation != ValidationMode::Off;
        // The missing keywords (each once), none when every record is stored.
        let job = match &planned.to_buy {
            Some(Request::SearchVolumeBulk(q)) => Some(
                self.judged_later()
                    .chunks_kept(
                        &q.keywords,
                        ccode,
                        options,
                        on_progress,
                        cancel,
                        store,
                        plan,
                    )
                    .await,
            ),
            _ => None,
        };
        if let Some((job, kept)) = &job {
            out.charge = job.charge;
            out.possibly_charged = job.possibly_charged;
            out.stopped = job.stopped.clone();
            out.bought = kept.bought;
            if out.store_error.is_none() {
                out.store_error = kept.error.clone();
            }
        }
        let report = job
            .as_ref()
            .filter(|_| validated)
            .map(|(job, _)| BulkReport::join(&job.reports));
        let bought = job.as_ref().map(|(job, _)| Bought {
            body: &job.records,
            report: report.as_ref(),
            at_ms: plan.now_ms,
        });
        // Once over the whole job for the answer; its records were kept chunk by chunk.
        let merged = planned.merge(bought, validated);
        out.missing = merged
            .missing
            .iter()
            .filter_map(|&p| keywords.get(p).cloned())
            .collect();
        out.from_store = merged.from_store;
        out.unmatched = merged.unmatched;
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

    /// The chunks of a planned bulk job (`keywords`: the missing ones, distinct), each
    /// chunk's new records kept as it arrives ([`Client::keep`]): the joined records as
    /// [`Client::search_volume_bulk_chunked_raw`] returns them, and what was kept.
    #[allow(clippy::too_many_arguments)]
    async fn chunks_kept(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
        store: &dyn RecordStore,
        plan: &PlanOptions,
    ) -> (BulkOutcome<String>, Kept) {
        let kept = RefCell::new(Kept::default());
        let source = self.record_source();
        let validated = self.config.validation != ValidationMode::Off;
        let call = |request: search_volume_bulk::Request, pass: Pass| {
            let (kept, source) = (&kept, &source);
            async move {
                let request = Request::SearchVolumeBulk(request);
                let sent = self.send_journaled(&request, None).await?;
                let ticket = sent.ticket;
                let r = match sent.result {
                    Ok(r) => r,
                    // The place is held until the job has seen the failure, so no other
                    // chunk leaves after it.
                    Err(e) => return Err(self.settle_failure(e, ticket).await),
                };
                let Some(items) = array_items(&r.body) else {
                    // Charged, but no records to keep: the body goes with the entry.
                    let charge = r.charge;
                    let _ = self
                        .settle_with_body(Sent {
                            result: Ok(r),
                            ticket,
                        })
                        .await;
                    return Err(not_an_array(charge));
                };
                // Answered with records: the next chunk may leave while this one keeps them.
                drop(pass);
                yield_now().await;
                // This chunk alone is planned and merged: linear in the chunk, whatever
                // the job's size.
                let chunk = Plan::new(&request, source, Vec::new(), plan);
                let bought = Bought {
                    body: &r.body,
                    report: r.report.as_ref(),
                    at_ms: plan.now_ms,
                };
                let fresh = chunk.map(|p| p.merge(Some(bought), validated).fresh);
                let fresh = fresh.unwrap_or_default();
                let n = fresh.len();
                let failed = self
                    .keep(RecordKind::SearchVolume, fresh, ticket, r.charge, store)
                    .await;
                {
                    let mut k = kept.borrow_mut();
                    k.bought += n;
                    if k.error.is_none() {
                        k.error = failed;
                    }
                }
                Ok(Reply {
                    data: items.to_owned(),
                    report: r.report,
                    charge: r.charge,
                })
            }
        };
        let job = self
            .run_chunks(keywords, ccode, options, on_progress, cancel, call)
            .await
            .merge(join_items);
        let job = BulkOutcome {
            records: format!("[{}]", job.records),
            ..job
        };
        (job, kept.into_inner())
    }
}

/// What the chunks of a planned bulk job kept.
#[derive(Default)]
struct Kept {
    /// Records kept.
    bought: usize,
    /// The first failure to keep them.
    error: Option<String>,
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
