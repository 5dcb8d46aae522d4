//! The service chunk: `call_service`, the only code that talks to the [`Client`] (its
//! transports, validation and bulk merging). It is the app's largest piece of code after the
//! pages, and no page needs it before its first call, so wasm-split cuts it into its own wasm
//! chunk (`split_call_service.wasm`), fetched on the first call. It stays a free,
//! non-generic function: anything generic or called from elsewhere would pull the client
//! into the first load.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::{BulkOptions, Cancel, Client, Error, LocalBoxFuture};
use serpkit::ops::search_volume_bulk;
use serpkit::records::PlanOptions;
use serpkit::{Operation, Request, Usd};

use super::book::Book;
use super::reserve::{reserve, Ask};
use super::settle::{settle, Failure, Outcome, Purchase};
use crate::model::{CallResult, Mode, Validation};
use crate::workspace::Workspace;

/// Keywords per `search_volume/bulk` request of a bulk job.
pub const CHUNK_SIZE: usize = 200;
/// Chunks of a bulk job in flight at once.
pub(super) const CONCURRENCY: usize = 2;

/// One call once reserved: what [`buy`] sends.
pub(super) struct ServiceCall {
    /// The workspace the call belongs to (its client, records and running state).
    pub(super) workspace: Workspace,
    /// The request (without key: the client adds it).
    pub(super) request: Request,
    /// How the call is planned against the bought records (now, max age, refresh).
    pub(super) plan: PlanOptions,
    /// Cancels the call (a bulk job stops starting chunks).
    pub(super) cancel: Cancel,
    /// The request's cache key ([`super::cache_key`]).
    pub(super) key: String,
    /// The canonical request as JSON, stored with the result.
    pub(super) canonical_json: String,
    /// When the call started (ms since the epoch).
    pub(super) at: f64,
    /// The mode it runs in.
    pub(super) mode: Mode,
    /// Where it is bought ([`Workspace::record_source`]).
    pub(super) source: String,
    /// Its history row's id: the job its journal entries belong to.
    pub(super) job: String,
}

/// The part of a run after its checks: reserve what it buys ([`reserve`]), talk to the
/// service (the client, its transports, validation, bulk merging, the purchase journal) and
/// settle ([`settle`]). It is the app's largest piece of code after the pages, and no page
/// needs it before its first call, so it is split into its own wasm chunk (like the pages,
/// `routes::page!`), fetched on the first call. `Ok`: whether a result is stored. `Err`:
/// that chunk could not be fetched; nothing was sent.
#[::leptos::wasm_split::wasm_split(
    call_service,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    return_wrapper(let future = _; { future.await } -> Result<bool, SplitLoaderError>)
)]
pub(super) fn call_service(ask: Ask) -> LocalBoxFuture<'static, Result<bool, SplitLoaderError>> {
    Box::pin(async move {
        let workspace = ask.workspace;
        let row = match reserve(workspace, &ask).await {
            Ok(row) => row,
            Err(stored) => return Ok(stored),
        };
        let mode = workspace.mode();
        if workspace.call_target() != ask.target {
            // The settings changed while the reservation was written: it is not re-targeted.
            let error = Error::Journal(super::reserve::SETTINGS_CHANGED.into());
            let failure = Failure {
                error,
                charge: Usd::ZERO,
                possible: Usd::ZERO,
            };
            return Ok(settle(workspace, row, &ask.key, mode, Err(failure)));
        }
        let plan = workspace.plan_options(ask.refresh);
        let canonical_json = canonical_json(&ask.request);
        let call = ServiceCall {
            workspace,
            at: plan.now_ms,
            request: ask.request,
            plan,
            cancel: ask.cancel,
            key: ask.key,
            canonical_json,
            mode,
            source: row.source.clone(),
            job: row.id.clone(),
        };
        let outcome = buy(&call).await;
        Ok(settle(workspace, row, &call.key, mode, outcome))
    })
}

/// The request as its stored result keeps it: JSON without the key.
fn canonical_json(request: &Request) -> String {
    let mut r = request.clone();
    r.set_key(serpkit::ApiKey::default());
    r.to_json()
}

/// Sends a reserved call through the client with the app's purchase journal.
async fn buy(call: &ServiceCall) -> Outcome {
    {
        let book = Rc::new(Book::new(
            call.workspace,
            &call.job,
            (&call.key, &call.canonical_json),
            &call.source,
            call.mode,
            call.at,
        ));
        let client = if call.mode == Mode::Demo && journal_off_for_benchmark() {
            call.workspace.client()
        } else {
            call.workspace.client().with_journal(book.clone())
        };
        let records = call.workspace.records;
        let outcome = match &call.request {
            Request::SearchVolumeBulk(bulk) => run_bulk(&client, call, bulk).await,
            request => match client
                .call_with_records(request, Some(&records), &call.plan, Some(&call.cancel))
                .await
            {
                Ok(reply) => Ok(Purchase {
                    result: CallResult {
                        key: call.key.clone(),
                        operation: request.operation().path().to_string(),
                        request: call.canonical_json.clone(),
                        body: reply.body,
                        validation: reply
                            .report
                            .as_ref()
                            .map(Validation::from_report)
                            .unwrap_or_default(),
                        charge: reply.charge,
                        at: call.at,
                        mode: call.mode,
                        missing: Vec::new(),
                        imported: false,
                        source: call.source.clone(),
                        rejected: false,
                    },
                    charge: reply.charge,
                    possible: Usd::ZERO,
                    stopped: None,
                    reused: reply.from_store,
                    store_error: reply.store_error,
                    result_stored: book.result_stored(),
                }),
                Err(error) => Err(Failure {
                    charge: error.charge(),
                    possible: error.possible_charge(),
                    error,
                }),
            },
        };
        call.workspace.refresh_spend();
        outcome
    }
}

/// The benchmark's A/B switch (`localStorage["serpkit.bench.journal"] = "off"`): honoured
/// in demo mode only, where no money is at stake, so `cargo xtask bench` can time one bulk
/// job with and without the journal in one run.
fn journal_off_for_benchmark() -> bool {
    crate::store::local_get("serpkit.bench.journal").as_deref() == Some("off")
}

/// A `search_volume/bulk` job of `call`: the keywords not bought yet, in chunks with
/// progress, merged with the bought records in request order (each chunk's issues moved to
/// where its records land); a cancelled job keeps what it bought, and running it again buys
/// only what is still missing.
async fn run_bulk(
    client: &Client,
    call: &ServiceCall,
    bulk: &search_volume_bulk::Request,
) -> Outcome {
    let ServiceCall {
        workspace,
        cancel,
        key,
        canonical_json,
        at,
        mode,
        plan,
        ..
    } = call;
    let (workspace, at, mode) = (*workspace, *at, *mode);
    let total = workspace
        .records
        .plan(&call.request, &client.record_source(), plan)
        .map_or(bulk.keywords.len(), |p| p.new_records());
    workspace.running.update(|r| {
        if let Some(s) = r.get_mut(key) {
            s.progress = Some((0, total));
            s.chunks = (0, total.div_ceil(CHUNK_SIZE));
        }
    });
    let records = workspace.records;
    let job = client
        .search_volume_bulk_with_records(
            &bulk.keywords,
            &bulk.ccode,
            BulkOptions {
                chunk_size: CHUNK_SIZE,
                concurrency: CONCURRENCY,
            },
            |p| workspace.progress(key, &p),
            Some(cancel),
            Some(&records),
            plan,
        )
        .await;
    // Nothing to show: no record stored, bought or even unmatched (the job stopped first).
    if job.from_store + job.bought + job.unmatched == 0 && !bulk.keywords.is_empty() {
        let e = job.stopped.unwrap_or(Error::Aborted {
            possible_charge: job.possibly_charged,
        });
        return Err(Failure {
            error: e,
            charge: job.charge,
            possible: job.possibly_charged,
        });
    }
    Ok(Purchase {
        result: CallResult {
            key: key.to_string(),
            operation: Operation::SearchVolumeBulk.path().to_string(),
            request: canonical_json.to_string(),
            body: job.records,
            validation: job
                .report
                .as_ref()
                .map(Validation::from_report)
                .unwrap_or_default(),
            charge: job.charge,
            at,
            mode,
            // Not bought: the keywords of chunks that did not complete. (A keyword the
            // service answered with an unmatched record is not missing: it was bought, and
            // the report says which records match nothing.)
            missing: if job.stopped.is_some() {
                job.missing
            } else {
                Vec::new()
            },
            imported: false,
            source: call.source.clone(),
            rejected: false,
        },
        charge: job.charge,
        possible: job.possibly_charged,
        stopped: job.stopped,
        reused: job.from_store,
        store_error: job.store_error,
        result_stored: false,
    })
}
