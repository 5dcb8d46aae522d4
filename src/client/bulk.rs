//! Bulk search volume: a long keyword list split into chunks, run with bounded concurrency,
//! with progress per chunk, merged in request order, stopping cleanly on cancel or budget.
//!
//! Cancel stops starting new chunks only: a chunk already sent is not cancelled (it finishes
//! and keeps what it bought; cancelling it would turn a purchase into a possible charge with
//! no data).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_util::stream::{self, StreamExt};

use super::{Cancel, Client, Error, Reply};
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

/// The validation report of one successful chunk.
#[derive(Clone, Debug)]
pub struct BulkReport {
    /// The chunk's index in the job (chunk `i` holds keywords `i * chunk_size ..`).
    pub chunk: usize,
    /// Index in [`BulkOutcome::records`] of the chunk's first record: the report's paths are
    /// relative to the chunk's response, so `/3/kd` is record `first_record + 3` of the
    /// merged records (as returned: map before re-ordering them).
    pub first_record: usize,
    /// The chunk's report.
    pub report: Report,
}

/// The result of a bulk job: everything that was bought, in request order, and why it
/// stopped early, if it did. `D` holds the records: typed (`Vec<SearchVolumeRecord>`, from
/// [`Client::search_volume_bulk_chunked`]) or one JSON array text (`String`, from
/// [`Client::search_volume_bulk_chunked_raw`]).
#[derive(Clone, Debug, Default)]
pub struct BulkOutcome<D = Vec<SearchVolumeRecord>> {
    /// Records of the successful chunks, in request order.
    pub records: D,
    /// Keywords whose chunk did not complete (not charged), in request order.
    pub missing: Vec<String>,
    /// Validation report of each successful chunk, in chunk order, with where its records
    /// start in `records`.
    pub reports: Vec<BulkReport>,
    /// Total charged (confirmed).
    pub charge: Usd,
    /// Estimates of chunks sent whose outcome is unknown (timed out): possibly charged.
    pub possibly_charged: Usd,
    /// The first error that stopped the job (cancel, budget, HTTP, ...).
    pub stopped: Option<Error>,
}

impl Client {
    /// Runs `search_volume/bulk` over any number of keywords. Chunks not yet started when an
    /// error, a cancel or the budget stops the job are not sent; chunks in flight finish
    /// (`cancel` is not passed on to them).
    pub async fn search_volume_bulk_chunked(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
    ) -> BulkOutcome {
        let call = |request: search_volume_bulk::Request, pass: Pass| async move {
            let reply = self.call(request, None).await;
            drop(pass);
            reply
        };
        self.run_chunks(keywords, ccode, options, on_progress, cancel, call)
            .await
            .merge(|all: &mut Vec<_>, records| {
                let n = records.len();
                all.extend(records);
                n
            })
    }

    /// [`Self::search_volume_bulk_chunked`] without decoding: the records are one JSON array
    /// text, the chunks' arrays joined as the service wrote them (what the JS package hands
    /// to `JSON.parse`). A chunk whose body is JSON but not an array is a `Decode` error.
    pub async fn search_volume_bulk_chunked_raw(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
    ) -> BulkOutcome<String> {
        self.search_volume_bulk_chunked_raw_each(
            keywords,
            ccode,
            options,
            on_progress,
            |_, _, _| {},
            cancel,
        )
        .await
    }

    /// [`Self::search_volume_bulk_chunked_raw`], handing each successful chunk to `on_chunk`
    /// as it arrives (its keywords, its body, its report), before its progress: the JS
    /// package stores each chunk's records then, so a job cut short keeps what it paid for.
    pub async fn search_volume_bulk_chunked_raw_each(
        &self,
        keywords: &[String],
        ccode: &str,
        options: BulkOptions,
        on_progress: impl FnMut(BulkProgress),
        on_chunk: impl Fn(&[String], &str, Option<&Report>),
        cancel: Option<&Cancel>,
    ) -> BulkOutcome<String> {
        let on_chunk = &on_chunk;
        let call = |request: search_volume_bulk::Request, pass: Pass| async move {
            // The place is held until the chunk is done (`on_chunk` keeps its records).
            let _place = pass;
            let chunk = request.keywords.clone();
            let r = self.call_raw(&request.into(), None).await?;
            let Some(items) = array_items(&r.body) else {
                return Err(Error::Decode {
                    error: crate::decode::DecodeError {
                        path: String::new(),
                        message: "expected an array of search volume records".into(),
                        line: 1,
                        column: 1,
                        syntax: false,
                    },
                    charge: r.charge,
                });
            };
            on_chunk(&chunk, &r.body, r.report.as_ref());
            Ok(Reply {
                data: items.to_owned(),
                report: r.report,
                charge: r.charge,
            })
        };
        let mut out = self
            .run_chunks(keywords, ccode, options, on_progress, cancel, call)
            .await
            .merge(join_items);
        out.records = format!("[{}]", out.records);
        out
    }

    /// The bulk driver: checks every chunk, then runs them through `call`, reporting progress
    /// after each. At most `options.concurrency` chunks hold a [`Pass`] (are between being
    /// written ahead and their answer); a chunk that drops its pass when its answer arrives
    /// lets the next one leave while it still keeps its records, and its progress still
    /// comes once `call` has returned.
    pub(super) async fn run_chunks<'k, T, Fut>(
        &self,
        keywords: &'k [String],
        ccode: &str,
        options: BulkOptions,
        mut on_progress: impl FnMut(BulkProgress),
        cancel: Option<&Cancel>,
        call: impl Fn(search_volume_bulk::Request, Pass) -> Fut,
    ) -> Chunked<'k, T>
    where
        Fut: std::future::Future<Output = Result<Reply<T>, Error>>,
    {
        let chunk_size = options.chunk_size.clamp(1, crate::ops::check::MAX_KEYWORDS);
        let chunks: Vec<&[String]> = keywords.chunks(chunk_size).collect();
        let total_chunks = chunks.len();
        let request = |chunk: &[String]| search_volume_bulk::Request {
            key: ApiKey::default(),
            keywords: chunk.to_vec(),
            ccode: ccode.to_owned(),
        };

        // Every chunk is checked before the first is sent: a bad keyword near the end must
        // not stop a job half bought. The field names the keyword's index in the whole list.
        for (i, chunk) in chunks.iter().enumerate() {
            if let Err(mut e) = request(chunk).check() {
                if let Some(n) = e
                    .field
                    .strip_prefix("/keywords/")
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    e.field = format!("/keywords/{}", i * chunk_size + n);
                }
                return Chunked {
                    keywords,
                    chunks: Vec::new(),
                    results: Vec::new(),
                    refused: Some(Error::InvalidRequest(e)),
                };
            }
        }
        let stop = Cell::new(false);
        let mut results: Vec<Option<Result<Reply<T>, Error>>> =
            std::iter::repeat_with(|| None).take(total_chunks).collect();
        let mut progress = BulkProgress {
            done_chunks: 0,
            total_chunks,
            done_keywords: 0,
            total_keywords: keywords.len(),
            charge: Usd::ZERO,
        };

        let window = options.concurrency.max(1);
        let gate = Gate::new(window);
        let stopped = || stop.get() || cancel.is_some_and(Cancel::is_cancelled);
        let mut running = stream::iter(chunks.iter().copied().enumerate())
            .map(|(i, chunk)| {
                let stop = &stop;
                let call = &call;
                let request = &request;
                let stopped = &stopped;
                let gate = gate.clone();
                async move {
                    if stopped() {
                        return (i, None);
                    }
                    let pass = Gate::enter(gate).await;
                    // Checked again: a chunk may have failed while this one waited.
                    if stopped() {
                        return (i, None);
                    }
                    let r = call(request(chunk), pass).await;
                    if r.is_err() {
                        stop.set(true);
                    }
                    (i, Some(r))
                }
            })
            // Twice the window: behind every place a chunk waits at the gate, ready to leave
            // the moment an answer frees it, even while the chunk before keeps its records
            // (so a journal can write the next one ahead in the same turn as that commit).
            .buffered(window * 2);

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
        Chunked {
            keywords,
            chunks,
            results,
            refused: None,
        }
    }
}

/// The places of a bulk job's window: a chunk enters before it is written ahead and sent.
pub(super) struct Gate {
    free: Cell<usize>,
    waiting: RefCell<Vec<Waker>>,
}

/// A chunk's place in the window: dropping it frees the place.
pub(super) struct Pass(Rc<Gate>);

impl Gate {
    fn new(places: usize) -> Rc<Gate> {
        Rc::new(Gate {
            free: Cell::new(places),
            waiting: RefCell::new(Vec::new()),
        })
    }

    /// A place, once one is free.
    async fn enter(gate: Rc<Gate>) -> Pass {
        std::future::poll_fn(|cx: &mut Context<'_>| {
            let free = gate.free.get();
            if free > 0 {
                gate.free.set(free - 1);
                Poll::Ready(())
            } else {
                gate.waiting.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            }
        })
        .await;
        Pass(gate)
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        let gate = &self.0;
        gate.free.set(gate.free.get() + 1);
        // Every waiter tries again; those that find no place wait anew.
        for waker in gate.waiting.borrow_mut().drain(..) {
            waker.wake();
        }
    }
}

/// Lets every other ready task run once before the caller goes on.
pub(super) async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(|cx: &mut Context<'_>| {
        if yielded {
            Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .await
}

/// What the driver gathered: each chunk's result (`None`: not sent).
pub(super) struct Chunked<'k, T> {
    keywords: &'k [String],
    chunks: Vec<&'k [String]>,
    results: Vec<Option<Result<Reply<T>, Error>>>,
    /// The request check that stopped the job before anything was sent.
    refused: Option<Error>,
}

impl<T> Chunked<'_, T> {
    /// The outcome: successful chunks' data added in request order by `add` (which returns
    /// how many records it added) to the (default) records, the keywords of the others as
    /// missing.
    pub(super) fn merge<D: Default>(
        self,
        mut add: impl FnMut(&mut D, T) -> usize,
    ) -> BulkOutcome<D> {
        if let Some(e) = self.refused {
            return BulkOutcome {
                missing: self.keywords.to_vec(),
                stopped: Some(e),
                ..BulkOutcome::default()
            };
        }
        let mut out = BulkOutcome::<D>::default();
        let mut records = 0;
        for (i, r) in self.results.into_iter().enumerate() {
            match r {
                Some(Ok(chunk)) => {
                    out.charge += chunk.charge;
                    let first_record = records;
                    records += add(&mut out.records, chunk.data);
                    if let Some(report) = chunk.report {
                        out.reports.push(BulkReport {
                            chunk: i,
                            first_record,
                            report,
                        });
                    }
                }
                Some(Err(e)) => {
                    out.charge += e.charge();
                    out.possibly_charged += e.possible_charge();
                    out.missing.extend(self.chunks[i].iter().cloned());
                    out.stopped.get_or_insert(e);
                }
                None => out.missing.extend(self.chunks[i].iter().cloned()),
            }
        }
        if out.stopped.is_none() && !out.missing.is_empty() {
            out.stopped = Some(Error::Aborted {
                possible_charge: Usd::ZERO,
            });
        }
        out
    }
}

/// The text between the brackets of a JSON array body (trimmed), or `None` when the body
/// is not an array. The body is already known to be JSON (`call_raw` checks).
pub(super) fn array_items(body: &str) -> Option<&str> {
    body.trim()
        .strip_prefix('[')?
        .strip_suffix(']')
        .map(str::trim)
}

/// Adds one chunk's array items (the text between its brackets) to the joined items; how
/// many records that was.
pub(super) fn join_items(all: &mut String, items: String) -> usize {
    if items.is_empty() {
        return 0;
    }
    if !all.is_empty() {
        all.push(',');
    }
    all.push_str(&items);
    count_items(&items)
}

/// A chunk's JSON body that is not an array (charged: the service answered).
pub(super) fn not_an_array(charge: Usd) -> Error {
    Error::Decode {
        error: crate::decode::DecodeError {
            path: String::new(),
            message: "expected an array of search volume records".into(),
            line: 1,
            column: 1,
            syntax: false,
        },
        charge,
    }
}

/// How many values the text between an array's brackets holds (it is JSON: commas at depth
/// 0 outside strings separate them).
fn count_items(items: &str) -> usize {
    if items.is_empty() {
        return 0;
    }
    let (mut depth, mut in_string, mut escaped, mut n) = (0usize, false, false, 1);
    for b in items.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => n += 1,
            _ => {}
        }
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn count_items_counts_top_level_values() {
        for (text, n) in [
            ("", 0),
            ("1", 1),
            (r#"{"a":[1,2]},{"b":"x,]\\\",y"}"#, 2),
            (r#""\\",[[],{}],3"#, 3),
        ] {
            assert_eq!(super::count_items(text), n, "{text}");
        }
    }
}
