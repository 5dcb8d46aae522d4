//! Bulk search volume: a long keyword list split into chunks, run with bounded concurrency,
//! with progress per chunk, merged in request order, stopping cleanly on cancel or budget.

use std::cell::Cell;

use futures_util::stream::{self, StreamExt};

use super::{Cancel, Client, Error};
use crate::money::Usd;
use crate::ops::search_volume_bulk::{self, SearchVolumeRecord};
use crate::ops::{ApiKey, OperationRequest};
use crate::validate::Report;

/// How to split and run a bulk job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkOptions {
    /// Keywords per request (at most `ops::check::MAX_KEYWORDS`).
    pub chunk_size: usize,
    /// Requests in flight at once.
    pub concurrency: usize,
}

impl Default for BulkOptions {
    /// 1,000 keywords per request, 2 at a time.
    fn default() -> Self {
        BulkOptions {
            chunk_size: 1_000,
            concurrency: 2,
        }
    }
}

/// Progress after each finished chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkProgress {
    /// Chunks finished (successfully or not).
    pub done_chunks: usize,
    /// All chunks.
    pub total_chunks: usize,
    /// Keywords in successful chunks.
    pub done_keywords: usize,
    /// All keywords.
    pub total_keywords: usize,
    /// Charged so far by this job.
    pub charge: Usd,
}

/// The result of a bulk job: everything that was bought, in request order, and why it
/// stopped early, if it did.
#[derive(Clone, Debug, Default)]
pub struct BulkOutcome {
    /// Records of the successful chunks, in request order.
    pub records: Vec<SearchVolumeRecord>,
    /// Keywords whose chunk did not complete (not charged), in request order.
    pub missing: Vec<String>,
    /// Validation report of each successful chunk (chunk index, report; paths are relative to
    /// the chunk's response).
    pub reports: Vec<(usize, Report)>,
    /// Total charged.
    pub charge: Usd,
    /// The first error that stopped the job (cancel, budget, HTTP, ...).
    pub stopped: Option<Error>,
}

impl Client {
    /// Runs `search_volume/bulk` over any number of keywords. Chunks not yet started when an
    /// error, a cancel or the budget stops the job are not sent; chunks in flight finish.
    pub async fn search_volume_bulk_chunked(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        mut on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
    ) -> BulkOutcome {
        let chunk_size = options.chunk_size.clamp(1, crate::ops::check::MAX_KEYWORDS);
        let chunks: Vec<&[String]> = keywords.chunks(chunk_size).collect();
        let total_chunks = chunks.len();

        // Every chunk is checked before the first is sent: a bad keyword near the end must
        // not stop a job half bought. The field names the keyword's index in the whole list.
        for (i, chunk) in chunks.iter().enumerate() {
            let request = search_volume_bulk::Request {
                key: ApiKey::default(),
                keywords: chunk.to_vec(),
                ccode: ccode.to_owned(),
            };
            if let Err(mut e) = request.check() {
                if let Some(n) = e
                    .field
                    .strip_prefix("/keywords/")
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    e.field = format!("/keywords/{}", i * chunk_size + n);
                }
                return BulkOutcome {
                    missing: keywords.to_vec(),
                    stopped: Some(Error::InvalidRequest(e)),
                    ..BulkOutcome::default()
                };
            }
        }
        let stop = Cell::new(false);
        let mut results: Vec<Option<Result<_, Error>>> = vec![None; total_chunks];
        let mut progress = BulkProgress {
            done_chunks: 0,
            total_chunks,
            done_keywords: 0,
            total_keywords: keywords.len(),
            charge: Usd::ZERO,
        };

        let mut running = stream::iter(chunks.iter().copied().enumerate())
            .map(|(i, chunk)| {
                let stop = &stop;
                async move {
                    if stop.get() || cancel.is_some_and(Cancel::is_cancelled) {
                        return (i, None);
                    }
                    let request = search_volume_bulk::Request {
                        key: ApiKey::default(),
                        keywords: chunk.to_vec(),
                        ccode: ccode.to_owned(),
                    };
                    let r = self.call(request, cancel).await;
                    if r.is_err() {
                        stop.set(true);
                    }
                    (i, Some(r))
                }
            })
            .buffered(options.concurrency.max(1));

        while let Some((i, r)) = running.next().await {
            progress.done_chunks += 1;
            if let Some(Ok(reply)) = &r {
                progress.done_keywords += chunks[i].len();
                progress.charge += reply.charge;
            }
            results[i] = r;
            on_progress(progress);
        }
        drop(running);

        let mut out = BulkOutcome {
            charge: progress.charge,
            ..BulkOutcome::default()
        };
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Some(Ok(reply)) => {
                    out.records.extend(reply.data);
                    if let Some(report) = reply.report {
                        out.reports.push((i, report));
                    }
                }
                Some(Err(e)) => {
                    out.charge += e.charge();
                    out.missing.extend(chunks[i].iter().cloned());
                    out.stopped.get_or_insert(e);
                }
                None => out.missing.extend(chunks[i].iter().cloned()),
            }
        }
        if out.stopped.is_none() && !out.missing.is_empty() {
            out.stopped = Some(Error::Aborted);
        }
        out
    }
}
