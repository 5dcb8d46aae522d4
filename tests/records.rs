//! Pay once per record, against the sandbox's ledger: only missing records are sent and
//! charged, answers come back in request order with reports at the merged positions.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use futures_executor::block_on;
use sandbox::{Date, InProcess};
use serpkit::client::{Client, ClientConfig, LocalBoxFuture, ValidationMode};
use serpkit::ops::{domainstats, search_volume_bulk, search_volume_single};
use serpkit::records::{
    MemoryStore, PlanOptions, RecordKey, RecordKind, RecordStore, StoredRecord,
};
use serpkit::{Request, Usd};

fn setup(base_url: &str, transport: &InProcess) -> Client {
    let mut config = ClientConfig::new(sandbox::DEFAULT_KEY);
    config.base_url = base_url.into();
    Client::new(config, Rc::new(transport.clone()))
}

fn sandbox() -> InProcess {
    InProcess::demo(Date::new(2024, 3, 5).unwrap())
}

const LIVE: &str = "https://api.example.com";

fn bulk(keywords: &[String]) -> Request {
    Request::SearchVolumeBulk(search_volume_bulk::Request {
        key: Default::default(),
        keywords: keywords.to_vec(),
        ccode: "US".into(),
    })
}

fn words(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("running shoes {i}")).collect()
}

fn at(now_ms: f64) -> PlanOptions {
    PlanOptions {
        now_ms,
        ..PlanOptions::default()
    }
}

fn keywords_in(body: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| r["keyword"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_same_list_plus_one_keyword_costs_one_keyword() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = MemoryStore::new();
    let ten = words(10);
    let first =
        block_on(client.call_with_records(&bulk(&ten), Some(&store), &at(1.0), None)).unwrap();
    assert_eq!(first.charge, Usd::from_micros(3_000));
    assert_eq!((first.from_store, first.bought), (0, 10));
    assert_eq!(store.len(), 10);

    let mut eleven = ten.clone();
    eleven.insert(4, "trail shoes".into());
    // The price first: one new keyword.
    let plan = block_on(client.plan(&bulk(&eleven), &store, &at(2.0)))
        .unwrap()
        .unwrap();
    assert_eq!(plan.estimate, Usd::from_micros(300));
    assert_eq!(plan.summary(), "1 new keyword · 10 already bought");

    let second =
        block_on(client.call_with_records(&bulk(&eleven), Some(&store), &at(2.0), None)).unwrap();
    assert_eq!(second.charge, Usd::from_micros(300));
    assert_eq!((second.from_store, second.bought), (10, 1));
    assert_eq!(keywords_in(&second.body), eleven, "request order");
    let report = second.report.unwrap();
    assert!(report.ok() && report.warning_count() == 0, "{report}");

    let ledger = sb.ledger();
    assert_eq!(ledger.total, Usd::from_micros(3_300));
    assert_eq!(
        ledger.charged().map(|e| e.units).collect::<Vec<_>>(),
        vec![10, 1]
    );
    assert_eq!(client.spent(), ledger.total);

    // Everything stored: nothing sent, nothing charged, and it says so.
    let third =
        block_on(client.call_with_records(&bulk(&eleven), Some(&store), &at(3.0), None)).unwrap();
    assert_eq!(third.charge, Usd::ZERO);
    assert_eq!(third.from_store, 11);
    assert_eq!(sb.ledger().entries.len(), 2);
    assert_eq!(third.body, second.body);
}

#[test]
fn single_is_served_from_bulk_records_and_the_other_way_round() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = MemoryStore::new();
    block_on(client.call_with_records(&bulk(&words(3)), Some(&store), &at(1.0), None)).unwrap();
    let single = |k: &str| {
        Request::SearchVolumeSingle(search_volume_single::Request {
            key: Default::default(),
            keyword: k.into(),
            ccode: "us".into(),
        })
    };
    let r = block_on(client.call_with_records(
        &single("  Running SHOES 1 "),
        Some(&store),
        &at(2.0),
        None,
    ))
    .unwrap();
    assert_eq!(r.charge, Usd::ZERO);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["keyword"], "running shoes 1");
    assert_eq!(sb.ledger().entries.len(), 1);

    let r =
        block_on(client.call_with_records(&single("hiking boots"), Some(&store), &at(3.0), None))
            .unwrap();
    assert_eq!(r.charge, Usd::from_micros(300));
    let r = block_on(client.call_with_records(
        &bulk(&["hiking boots".to_string(), "running shoes 0".to_string()]),
        Some(&store),
        &at(4.0),
        None,
    ))
    .unwrap();
    assert_eq!(r.charge, Usd::ZERO);
    assert_eq!(sb.ledger().total, Usd::from_micros(1_200));
}

#[test]
fn domains_bought_together_are_not_sold_again_one_by_one() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = MemoryStore::new();
    let ask = |domains: &[&str]| {
        Request::DomainStats(domainstats::Request {
            key: Default::default(),
            domains: domains.iter().map(|d| d.to_string()).collect(),
        })
    };
    let two = block_on(client.call_with_records(
        &ask(&["example.com", "shop.example.org"]),
        Some(&store),
        &at(1.0),
        None,
    ))
    .unwrap();
    assert_eq!(two.charge, Usd::from_micros(100_000));
    let one =
        block_on(client.call_with_records(&ask(&["Example.COM"]), Some(&store), &at(2.0), None))
            .unwrap();
    assert_eq!(one.charge, Usd::ZERO);
    assert_eq!(sb.ledger().total, Usd::from_micros(100_000));
}

#[test]
fn refresh_max_age_and_sources() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = MemoryStore::new();
    let req = bulk(&words(4));
    block_on(client.call_with_records(&req, Some(&store), &at(1_000.0), None)).unwrap();
    // Refresh re-buys everything asked, at its price.
    let refresh = PlanOptions {
        now_ms: 2_000.0,
        refresh: true,
        max_age_ms: None,
    };
    let r = block_on(client.call_with_records(&req, Some(&store), &refresh, None)).unwrap();
    assert_eq!(r.charge, Usd::from_micros(1_200));
    // Too old for a max age of 500 ms.
    let aged = PlanOptions {
        now_ms: 3_000.0,
        max_age_ms: Some(500.0),
        refresh: false,
    };
    let plan = block_on(client.plan(&req, &store, &aged)).unwrap().unwrap();
    assert_eq!((plan.new_records(), plan.stale), (4, 4));
    // Records of another base URL (or of demo mode) are never reused.
    let other = setup("sandbox://demo", &sb);
    let plan = block_on(other.plan(&req, &store, &at(3_000.0)))
        .unwrap()
        .unwrap();
    assert_eq!(plan.new_records(), 4);
}

/// A store whose writes fail (and reads count).
struct Failing(MemoryStore);

impl RecordStore for Failing {
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>> {
        self.0.get(kind, keys)
    }
    fn put(
        &self,
        _: RecordKind,
        _: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        Box::pin(async { Err("quota exceeded".to_string()) })
    }
}

#[test]
fn a_failed_store_write_keeps_the_paid_answer() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = Failing(MemoryStore::new());
    let r =
        block_on(client.call_with_records(&bulk(&words(3)), Some(&store), &at(1.0), None)).unwrap();
    assert_eq!(keywords_in(&r.body), words(3));
    assert_eq!(r.store_error.as_deref(), Some("quota exceeded"));
    assert_eq!(r.charge, Usd::from_micros(900));
}

#[test]
fn strict_mode_judges_the_merged_report_after_storing() {
    let sb = sandbox();
    let mut config = ClientConfig::new(format!("{}+break=order", sandbox::DEFAULT_KEY));
    config.base_url = LIVE.into();
    config.validation = ValidationMode::Strict;
    let client = Client::new(config, Rc::new(sb.clone()));
    let store = MemoryStore::new();
    let err = block_on(client.call_with_records(&bulk(&words(5)), Some(&store), &at(1.0), None))
        .unwrap_err();
    assert_eq!(err.code(), "contract_violation");
    assert_eq!(err.charge(), Usd::from_micros(1_500));
    assert_eq!(sb.ledger().total, Usd::from_micros(1_500));
    // What was paid for is stored all the same: asking again costs nothing.
    assert_eq!(store.len(), 5);
}

#[test]
fn per_request_operations_go_through_unchanged() {
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = MemoryStore::new();
    let req = Request::Related(serpkit::ops::related::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
        ccode: "US".into(),
    });
    let r = block_on(client.call_with_records(&req, Some(&store), &at(1.0), None)).unwrap();
    assert_eq!(r.charge, Usd::from_micros(150_000));
    assert!(store.is_empty());
}

#[test]
fn a_chunked_job_buys_only_missing_keywords_and_maps_each_chunks_report() {
    use serpkit::client::BulkOptions;
    let sb = sandbox();
    let store = MemoryStore::new();
    let all = words(8);
    // Positions 1 and 4 are bought first.
    let clean = setup(LIVE, &sb);
    let first = vec![all[1].clone(), all[4].clone()];
    block_on(clean.call_with_records(&bulk(&first), Some(&store), &at(1.0), None)).unwrap();

    // Every chunk's first record breaks `type`: the merged report names where each landed.
    let mut config = ClientConfig::new(format!("{}+break=type", sandbox::DEFAULT_KEY));
    config.base_url = LIVE.into();
    let client = Client::new(config, Rc::new(sb.clone()));
    let mut progress = Vec::new();
    let job = block_on(client.search_volume_bulk_with_records(
        &all,
        "US",
        BulkOptions {
            chunk_size: 2,
            concurrency: 2,
        },
        |p| progress.push(p.done_keywords),
        None,
        Some(&store),
        &at(2.0),
    ));
    assert!(job.stopped.is_none(), "{:?}", job.stopped);
    assert_eq!(keywords_in(&job.records), all);
    assert_eq!((job.from_store, job.bought), (2, 6));
    assert_eq!(job.charge, Usd::from_micros(1_800));
    assert_eq!(progress.last(), Some(&6));
    let report = job.report.unwrap();
    let paths: Vec<&str> = report.errors().map(|i| i.path.as_str()).collect();
    // Chunks [0,2] [3,5] [6,7]: their first records are at 0, 3 and 6.
    assert_eq!(
        paths,
        vec!["/0/SEARCH_VOLUME", "/3/SEARCH_VOLUME", "/6/SEARCH_VOLUME"]
    );
    assert_eq!(
        sb.ledger().charged().map(|e| e.units).collect::<Vec<_>>(),
        vec![2, 2, 2, 2]
    );
    assert_eq!(sb.ledger().total, Usd::from_micros(2_400));
    assert_eq!(store.len(), 8);
}

/// A journal that writes down what it is told (and can refuse every request).
#[derive(Default)]
struct Book {
    refuse: bool,
    sent: std::cell::RefCell<Vec<Request>>,
    settled: std::cell::RefCell<Vec<(u64, serpkit::client::Settled)>>,
}

impl serpkit::client::Journal for Book {
    fn sending(
        &self,
        sending: serpkit::client::Sending<'_>,
    ) -> LocalBoxFuture<'_, Result<u64, serpkit::client::Error>> {
        assert!(
            sending.request.key().is_empty(),
            "the journal never sees the key"
        );
        let refused = self
            .refuse
            .then_some(serpkit::client::Error::BudgetExceeded {
                estimate: sending.estimate,
                spent: Usd::ZERO,
                budget: Usd::ZERO,
            });
        let mut sent = self.sent.borrow_mut();
        sent.push(sending.request.clone());
        let ticket = sent.len() as u64;
        Box::pin(std::future::ready(match refused {
            Some(e) => Err(e),
            None => Ok(ticket),
        }))
    }

    fn settled(
        &self,
        ticket: u64,
        settled: serpkit::client::Settled,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        self.settled.borrow_mut().push((ticket, settled));
        Box::pin(std::future::ready(Ok(())))
    }
}

#[test]
fn a_journal_writes_ahead_and_settles_with_the_records_instead_of_the_store() {
    use serpkit::client::EntryState;
    let sb = sandbox();
    let book = Rc::new(Book::default());
    let client = setup(LIVE, &sb).with_journal(book.clone());
    let store = MemoryStore::new();
    let r =
        block_on(client.call_with_records(&bulk(&words(3)), Some(&store), &at(1.0), None)).unwrap();
    assert_eq!((r.bought, r.charge), (3, Usd::from_micros(900)));
    assert!(
        store.is_empty(),
        "the records went to the journal, not the store"
    );
    assert_eq!(book.sent.borrow().len(), 1);
    {
        let settled = book.settled.borrow();
        let (ticket, s) = &settled[0];
        assert_eq!(
            (*ticket, s.state, s.charge),
            (1, EntryState::Charged, r.charge)
        );
        let (kind, records) = s.records.as_ref().unwrap();
        assert_eq!((*kind, records.len()), (RecordKind::SearchVolume, 3));
        assert!(s.body.is_none());
    }

    // A per-request operation: settled with its body and report.
    let related = Request::Related(serpkit::ops::related::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
        ccode: "US".into(),
    });
    let r = block_on(client.call_with_records(&related, Some(&store), &at(1.0), None)).unwrap();
    {
        let settled = book.settled.borrow();
        assert_eq!(settled.len(), 2);
        let (body, report) = settled[1].1.body.as_ref().unwrap();
        assert_eq!(body, &r.body);
        assert!(report.as_ref().unwrap().ok());
    }

    // A refusal by the journal: nothing sent, nothing counted.
    let refusing = Rc::new(Book {
        refuse: true,
        ..Book::default()
    });
    let before = sb.ledger().entries.len();
    let spent = client.spent();
    let c = setup(LIVE, &sb).with_journal(refusing.clone());
    let err = block_on(c.call_raw(&related, None)).unwrap_err();
    assert_eq!(err.code(), "budget_exceeded");
    assert_eq!(sb.ledger().entries.len(), before);
    assert_eq!((c.spent(), c.possibly_charged()), (Usd::ZERO, Usd::ZERO));
    assert!(refusing.settled.borrow().is_empty());
    assert_eq!(client.spent(), spent);
}

#[test]
fn a_strict_refusal_and_a_lost_connection_are_settled_by_their_outcome() {
    use serpkit::client::EntryState;
    let sb = sandbox();
    let related = Request::Related(serpkit::ops::related::Request {
        key: Default::default(),
        keyword: "trail shoes".into(),
        ccode: "US".into(),
    });
    let book = Rc::new(Book::default());
    let mut config = ClientConfig::new(format!("{}+break=type", sandbox::DEFAULT_KEY));
    config.base_url = LIVE.into();
    config.validation = ValidationMode::Strict;
    let client = Client::new(config, Rc::new(sb.clone())).with_journal(book.clone());
    let err = block_on(client.call_raw(&related, None)).unwrap_err();
    let serpkit::client::Error::ContractViolation { body, .. } = &err else {
        panic!("{err:?}");
    };
    {
        let settled = book.settled.borrow();
        let s = &settled[0].1;
        assert_eq!(s.state, EntryState::Charged);
        assert_eq!(&s.body.as_ref().unwrap().0, body, "the paid body is kept");
    }

    let mut config = ClientConfig::new(format!("{}+reset", sandbox::DEFAULT_KEY));
    config.base_url = LIVE.into();
    let client = Client::new(config, Rc::new(sb.clone())).with_journal(book.clone());
    let err = block_on(client.call_raw(&related, None)).unwrap_err();
    assert_eq!(err.code(), "connection_lost");
    let settled = book.settled.borrow();
    let s = &settled[1].1;
    assert_eq!(s.state, EntryState::PossiblyCharged);
    assert_eq!(s.possible_charge, Usd::from_micros(150_000));
    assert!(s.body.is_none() && s.records.is_none());
}

/// Counts its writes (each a batch).
#[derive(Default)]
struct CountingStore {
    inner: MemoryStore,
    puts: std::cell::RefCell<Vec<usize>>,
}

impl RecordStore for CountingStore {
    fn get<'a>(
        &'a self,
        kind: RecordKind,
        keys: &'a [RecordKey],
    ) -> LocalBoxFuture<'a, Result<Vec<Option<StoredRecord>>, String>> {
        self.inner.get(kind, keys)
    }
    fn put(
        &self,
        kind: RecordKind,
        records: Vec<(RecordKey, StoredRecord)>,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        self.puts.borrow_mut().push(records.len());
        self.inner.put(kind, records)
    }
}

#[test]
fn a_bulk_job_keeps_each_chunk_as_it_arrives() {
    use serpkit::client::{BulkOptions, Cancel, EntryState};
    let sb = sandbox();
    let client = setup(LIVE, &sb);
    let store = CountingStore::default();
    let all = words(1_000);
    let options = BulkOptions {
        chunk_size: 200,
        concurrency: 1,
    };
    // Cut short after the second chunk (a tab closed mid-job): both are stored already.
    let cancel = Cancel::new();
    let job = block_on(client.search_volume_bulk_with_records(
        &all,
        "US",
        options,
        |p| {
            if p.done_chunks == 2 {
                cancel.cancel();
            }
        },
        Some(&cancel),
        Some(&store),
        &at(1.0),
    ));
    assert_eq!(job.stopped.as_ref().map(|e| e.code()), Some("aborted"));
    assert_eq!(*store.puts.borrow(), vec![200, 200], "one write per chunk");
    assert_eq!((job.bought, job.missing.len()), (400, 600));
    assert_eq!(keywords_in(&job.records), all[..400]);

    // The rest, with a journal: one entry per chunk, each settled with its records.
    let book = Rc::new(Book::default());
    let journaled = client.with_journal(book.clone());
    let job = block_on(journaled.search_volume_bulk_with_records(
        &all,
        "US",
        options,
        |_| {},
        None,
        Some(&store),
        &at(2.0),
    ));
    assert!(job.stopped.is_none(), "{:?}", job.stopped);
    assert_eq!((job.from_store, job.bought), (400, 600));
    assert_eq!(keywords_in(&job.records), all);
    assert_eq!(
        store.puts.borrow().len(),
        2,
        "the journal keeps them, not the store"
    );
    assert_eq!(book.sent.borrow().len(), 3);
    let settled = book.settled.borrow();
    assert_eq!(settled.len(), 3);
    for (_, s) in settled.iter() {
        assert_eq!(s.state, EntryState::Charged);
        assert_eq!(s.records.as_ref().unwrap().1.len(), 200);
    }
}

/// A journal whose first settle completes only once the next request was written ahead.
#[derive(Default)]
struct Overlapping {
    sent: std::cell::Cell<u64>,
    waiting: std::cell::RefCell<Vec<std::task::Waker>>,
}

impl serpkit::client::Journal for Overlapping {
    fn sending(
        &self,
        _: serpkit::client::Sending<'_>,
    ) -> LocalBoxFuture<'_, Result<u64, serpkit::client::Error>> {
        self.sent.set(self.sent.get() + 1);
        for w in self.waiting.borrow_mut().drain(..) {
            w.wake();
        }
        Box::pin(std::future::ready(Ok(self.sent.get())))
    }

    fn settled(
        &self,
        ticket: u64,
        _: serpkit::client::Settled,
    ) -> LocalBoxFuture<'_, Result<(), String>> {
        Box::pin(std::future::poll_fn(move |cx| {
            if ticket > 1 || self.sent.get() > 1 {
                std::task::Poll::Ready(Ok(()))
            } else {
                self.waiting.borrow_mut().push(cx.waker().clone());
                std::task::Poll::Pending
            }
        }))
    }
}

#[test]
fn the_next_chunk_leaves_while_the_last_one_is_kept() {
    use serpkit::client::BulkOptions;
    // One request in flight at a time, and the first chunk's commit waits for the second
    // chunk's write-ahead: without the overlap the job would never end.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let sb = sandbox();
        let book = Rc::new(Overlapping::default());
        let client = setup(LIVE, &sb).with_journal(book.clone());
        let store = MemoryStore::new();
        let options = BulkOptions {
            chunk_size: 200,
            concurrency: 1,
        };
        let job = block_on(client.search_volume_bulk_with_records(
            &words(600),
            "US",
            options,
            |_| {},
            None,
            Some(&store),
            &at(1.0),
        ));
        let _ = tx.send((job.bought, job.stopped.is_none(), book.sent.get()));
    });
    let outcome = rx.recv_timeout(std::time::Duration::from_secs(20));
    assert_eq!(outcome, Ok((600, true, 3)));
}
