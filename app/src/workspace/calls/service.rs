//! The service chunk: `call_service`, the only code that talks to the [`Client`] (its
//! transports, validation and bulk merging). It is the app's largest piece of code after the
//! pages, and no page needs it before its first call, so wasm-split cuts it into its own wasm
//! chunk (`split_call_service.wasm`), fetched on the first call. It stays a free,
//! non-generic function: anything generic or called from elsewhere would pull the client
//! into the first load.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serpkit::client::{BulkOptions, Client, Error, LocalBoxFuture};
use serpkit::ops::search_volume_bulk;
use serpkit::records::PlanOptions;
use serpkit::{Request, Usd};

use super::book::{bench_switch, Book};
use super::order::{Order, Stamp};
use super::reserve::reserve;
use super::settle::{settle, Failure, Outcome, Purchase};
use crate::model::Validation;

/// Keywords per `search_volume/bulk` request of a bulk job.
pub const CHUNK_SIZE: usize = 200;
/// Chunks of a bulk job in flight at once.
pub(super) const CONCURRENCY: usize = 2;

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
pub(super) fn call_service(
    order: Order,
) -> LocalBoxFuture<'static, Result<bool, SplitLoaderError>> {
    Box::pin(async move {
        let (row, n) = match reserve(&order).await {
            Ok(reserved) => reserved,
            Err(stored) => return Ok(stored),
        };
        let stamp = Stamp::of(&order);
        let outcome = buy(&order, &stamp, n).await;
        Ok(settle(&order, &stamp, (row, n), outcome))
    })
}

/// Sends a reserved call through the client with the app's purchase journal.
async fn buy(order: &Order, stamp: &Stamp, n: u32) -> Outcome {
    let workspace = order.workspace;
    let plan = order.plan_options();
    let book = Rc::new(Book::new(order, stamp, n));
    // Built from the click's context, never from the settings of now.
    let client = workspace.client_for(&order.settings, &order.api_key);
    let client = if bench_switch(order.mode).as_deref() == Some("off") {
        client
    } else {
        client.with_journal(book.clone())
    };
    let records = workspace.records;
    let outcome = match &order.request {
        Request::SearchVolumeBulk(bulk) => run_bulk(&client, order, stamp, &plan, bulk).await,
        request => match client
            .call_with_records(request, Some(&records), &plan, Some(&order.cancel))
            .await
        {
            Ok(reply) => Ok(Purchase {
                result: stamp.result(
                    order.key.clone(),
                    reply.body,
                    reply
                        .report
                        .as_ref()
                        .map(Validation::from_report)
                        .unwrap_or_default(),
                    reply.charge,
                    Vec::new(),
                    false,
                ),
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
    workspace.refresh_spend();
    outcome
}

/// A `search_volume/bulk` job of `call`: the keywords not bought yet, in chunks with
/// progress, merged with the bought records in request order (each chunk's issues moved to
/// where its records land); a cancelled job keeps what it bought, and running it again buys
/// only what is still missing.
async fn run_bulk(
    client: &Client,
    order: &Order,
    stamp: &Stamp,
    plan: &PlanOptions,
    bulk: &search_volume_bulk::Request,
) -> Outcome {
    let (workspace, key, cancel) = (order.workspace, &order.key, &order.cancel);
    let total = workspace
        .records
        .plan(&order.request, &client.record_source(), plan)
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
        result: stamp.result(
            key.to_string(),
            job.records,
            job.report
                .as_ref()
                .map(Validation::from_report)
                .unwrap_or_default(),
            job.charge,
            // Not bought: the keywords of chunks that did not complete. (A keyword the
            // service answered with an unmatched record is not missing: it was bought, and
            // the report says which records match nothing.)
            if job.stopped.is_some() {
                job.missing
            } else {
                Vec::new()
            },
            false,
        ),
        charge: job.charge,
        possible: job.possibly_charged,
        stopped: job.stopped,
        reused: job.from_store,
        store_error: job.store_error,
        result_stored: false,
    })
}
