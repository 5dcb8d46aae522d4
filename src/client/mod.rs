//! The client: one typed async method per operation, with request checks, a budget, safe
//! retries, timeouts, cancellation and response validation.
//!
//! ```no_run
//! # async fn demo(transport: std::rc::Rc<dyn serpkit::client::Transport>) -> Result<(), serpkit::client::Error> {
//! use serpkit::client::{Client, ClientConfig};
//! use serpkit::ops::related;
//!
//! let client = Client::new(ClientConfig::new("my-api-key"), transport);
//! let reply = client
//!     .related(related::Request { key: Default::default(), keyword: "running shoes".into(), ccode: "US".into() })
//!     .await?;
//! println!("{} rows for {}", reply.data.len(), reply.charge);
//! # Ok(()) }
//! ```
//!
//! Charges: the service does not report what a call cost. A call the service answers with a
//! success status is counted as charged with the estimate from the pricing table (also when
//! its body turns out broken, too large or lost in transit: the service answered). A call
//! whose outcome is unknown (sent, then timed out, aborted, or its connection failed before
//! any response: [`Error::ConnectionLost`]) is counted as *possibly charged* with its
//! estimate, and is never repeated automatically. Any other outcome is free; only a request
//! that provably never left ([`TransportError::NotSent`]) is retried. Both counts live in the client's [`Account`] and count against the budget.

mod account;
mod bulk;
mod error;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
pub mod journal;
mod records;
mod retry;
pub mod time;
pub mod transport;

use std::rc::Rc;
use std::time::Duration;

pub use account::Account;
pub use bulk::{BulkOptions, BulkOutcome, BulkProgress, BulkReport};
pub use error::{redact, Error, BODY_EXCERPT_CHARS};
pub use journal::{EntryState, Journal, Sending, Settled};
pub use records::RecordReply;
pub use retry::{parse_retry_after, RetryPolicy};
pub use time::{race, sleep, Cancel, Race};
pub use transport::{
    HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError, COST, POSSIBLY_CHARGED,
};

use crate::money::Usd;
use crate::ops::{self, ApiKey, OperationRequest, Request};
use crate::validate::{self, Report};

/// The service's base URL (the client appends `/v1/<operation>`).
pub const DEFAULT_BASE_URL: &str = "https://api.example-seo-data.com";

/// Default limit of a response body: 256 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

/// What to do with the validation report of a response.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValidationMode {
    /// Do not validate.
    Off,
    /// Validate and attach the report to the reply.
    #[default]
    Warn,
    /// Validate; contract errors become [`Error::ContractViolation`].
    Strict,
}

impl ValidationMode {
    /// Stable name: `off`, `warn` or `strict` (what [`str::parse`] reads).
    pub fn as_str(self) -> &'static str {
        match self {
            ValidationMode::Off => "off",
            ValidationMode::Warn => "warn",
            ValidationMode::Strict => "strict",
        }
    }
}

impl std::str::FromStr for ValidationMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(ValidationMode::Off),
            "warn" => Ok(ValidationMode::Warn),
            "strict" => Ok(ValidationMode::Strict),
            _ => Err(r#"validation mode must be "off", "warn" or "strict""#.into()),
        }
    }
}

/// Client settings.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The API key (sent in the body only).
    pub key: ApiKey,
    /// Base URL without `/v1`; default [`DEFAULT_BASE_URL`].
    pub base_url: String,
    /// Per-attempt timeout; `None` waits forever.
    pub timeout: Option<Duration>,
    /// Retry policy.
    pub retry: RetryPolicy,
    /// Validation mode.
    pub validation: ValidationMode,
    /// Stop before a call that would take the spend over this amount.
    pub budget: Option<Usd>,
    /// Largest response body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Extra request headers (for example the sandbox's `x-sandbox-fault`).
    pub headers: Vec<(String, String)>,
    /// The base URL is a team server, whose answers state what they cost ([`COST`],
    /// [`POSSIBLY_CHARGED`]): its team's records answer part of a call at nothing, so a
    /// success counts what it states (never more than the estimate) instead of the estimate.
    /// With the `journal` feature only (the app): the JS package, built without it, stays
    /// within its size budget and counts estimates.
    pub stated_costs: bool,
}

impl ClientConfig {
    /// Defaults with this key: 60 s timeout, default retries, `Warn` validation, no budget.
    pub fn new(key: impl Into<String>) -> Self {
        ClientConfig {
            key: ApiKey::new(key),
            base_url: DEFAULT_BASE_URL.into(),
            timeout: Some(Duration::from_secs(60)),
            retry: RetryPolicy::default(),
            validation: ValidationMode::Warn,
            budget: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            headers: Vec::new(),
            stated_costs: false,
        }
    }
}

/// A successful call with its body as text (what the JS package hands to `JSON.parse`).
#[derive(Clone, Debug)]
pub struct RawReply {
    /// The body text.
    pub body: String,
    /// The validation report (`None` when validation is off).
    pub report: Option<Report>,
    /// What this call was charged.
    pub charge: Usd,
    /// What it may have been charged (a team server's answer saying so; else zero).
    pub possible_charge: Usd,
    /// Attempts made (1 + retries).
    pub attempts: u32,
    /// The client's journal could not settle this call (the answer is complete all the
    /// same), as a failed record store write is reported.
    pub store_error: Option<String>,
}

/// A request that was sent (or refused by the transport's outcome), and its journal entry
/// still to settle.
pub(crate) struct Sent {
    /// The outcome.
    pub result: Result<RawReply, Error>,
    /// The journal's ticket (`None` without a journal).
    pub ticket: Option<u64>,
}

/// A successful, decoded call.
#[derive(Clone, Debug)]
pub struct Reply<T> {
    /// The typed response.
    pub data: T,
    /// The validation report (`None` when validation is off).
    pub report: Option<Report>,
    /// What this call was charged.
    pub charge: Usd,
}

/// The client. Cheap to clone: clones share the transport and the [`Account`].
#[derive(Clone)]
pub struct Client {
    config: Rc<ClientConfig>,
    transport: Rc<dyn Transport>,
    account: Account,
    journal: Option<JournalRef>,
}

/// A client's journal.
#[cfg(feature = "journal")]
type JournalRef = Rc<dyn Journal>;
/// Without the `journal` feature (the JS package) a client never has a journal: the type has
/// no value, so every journal path compiles away (0.5 kB of the package's wasm, gzip).
#[cfg(not(feature = "journal"))]
type JournalRef = journal::NoJournal;

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .field("account", &self.account)
            .finish()
    }
}

impl Client {
    /// A client over a transport, with a fresh [`Account`].
    pub fn new(config: ClientConfig, transport: Rc<dyn Transport>) -> Client {
        Client::with_account(config, transport, Account::new())
    }

    /// A client that counts its calls in `account` (shared with every other client on it:
    /// rebuild a client with new settings on the same account to keep one budget).
    pub fn with_account(
        config: ClientConfig,
        transport: Rc<dyn Transport>,
        account: Account,
    ) -> Client {
        Client {
            config: Rc::new(config),
            transport,
            account,
            journal: None,
        }
    }

    /// This client, writing every request it sends ahead in `journal` and settling it there
    /// with what it bought ([`journal`]). Clones share the journal.
    #[cfg(feature = "journal")]
    pub fn with_journal(&self, journal: Rc<dyn Journal>) -> Client {
        Client {
            journal: Some(journal),
            ..self.clone()
        }
    }

    /// This client (settings, account, journal) over another transport: the JS package gives
    /// each call a transport of its own, which keeps that call's `fetch` rejection.
    pub fn with_transport(&self, transport: Rc<dyn Transport>) -> Client {
        Client {
            transport,
            ..self.clone()
        }
    }

    /// The browser / Node `fetch` client (wasm32 only).
    #[cfg(target_arch = "wasm32")]
    pub fn with_fetch(config: ClientConfig) -> Client {
        Client::new(config, Rc::new(fetch::FetchTransport))
    }

    /// The settings.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The account this client counts its calls in.
    pub fn account(&self) -> &Account {
        &self.account
    }

    /// Confirmed charges of the account (see [`Account::spent`]).
    pub fn spent(&self) -> Usd {
        self.account.spent()
    }

    /// Possible charges of the account: calls sent whose outcome is unknown (see
    /// [`Account::possibly_charged`]).
    pub fn possibly_charged(&self) -> Usd {
        self.account.possibly_charged()
    }

    /// Number of calls of the account the service answered with success.
    pub fn charged_calls(&self) -> u64 {
        self.account.charged_calls()
    }

    /// What is left of the budget after what was spent, possibly charged and reserved by
    /// calls in flight (`None` without a budget).
    pub fn remaining(&self) -> Option<Usd> {
        self.config
            .budget
            .map(|b| b.saturating_sub(self.account.committed()))
    }

    /// Checks, prices and budget-checks a request without sending it: the estimate.
    pub fn preflight(&self, request: &Request) -> Result<Usd, Error> {
        request.check().map_err(Error::InvalidRequest)?;
        if self.config.key.is_empty() {
            return Err(Error::MissingKey);
        }
        let estimate = crate::ops::estimate_cost(request);
        if let Some(budget) = self.config.budget {
            let committed = self.account.committed();
            if committed + estimate > budget {
                return Err(Error::BudgetExceeded {
                    estimate,
                    spent: committed,
                    budget,
                });
            }
        }
        Ok(estimate)
    }

    /// Sends any request and returns the body text, validated per the mode. With a journal,
    /// the request is written ahead and settled with its body (when charged).
    pub async fn call_raw(
        &self,
        request: &Request,
        cancel: Option<&Cancel>,
    ) -> Result<RawReply, Error> {
        // Without the `journal` feature (the JS package) there is nothing to write ahead or
        // settle: the send alone, without the journal's layers of futures (1.2 kB gzip).
        #[cfg(not(feature = "journal"))]
        {
            let estimate = self.preflight(request)?;
            self.send_checked(request, estimate, cancel).await
        }
        #[cfg(feature = "journal")]
        {
            let sent = self.send_journaled(request, cancel).await?;
            self.settle_with_body(sent).await
        }
    }

    /// Settles a sent request's journal entry with its body and report when it was charged
    /// (also a strict refusal's); a failed commit is the reply's `store_error`.
    pub(crate) async fn settle_with_body(&self, sent: Sent) -> Result<RawReply, Error> {
        if self.journal.is_none() || sent.ticket.is_none() {
            return sent.result;
        }
        let r = match sent.result {
            Ok(r) => r,
            Err(e) => return Err(self.settle_failure(e, sent.ticket).await),
        };
        let settled = Settled {
            state: EntryState::of(r.charge, r.possible_charge),
            charge: r.charge,
            possible_charge: r.possible_charge,
            records: None,
            body: Some((r.body.clone(), r.report.clone())),
        };
        let store_error = self.settle(sent.ticket, settled).await;
        Ok(RawReply { store_error, ..r })
    }

    /// Settles a failed request's journal entry by its outcome; the error.
    pub(crate) async fn settle_failure(&self, error: Error, ticket: Option<u64>) -> Error {
        let body = match &error {
            Error::ContractViolation { report, body, .. } => {
                Some((body.clone(), Some((**report).clone())))
            }
            // Paid for, unreadable: kept with its text (the journal marks it refused).
            #[cfg(feature = "journal")]
            Error::NotJson { body, .. } => Some((body.clone(), None)),
            _ => None,
        };
        let (charge, possible_charge) = (error.charge(), error.possible_charge());
        let settled = Settled {
            state: EntryState::of(charge, possible_charge),
            charge,
            possible_charge,
            records: None,
            body,
        };
        // The error is what the caller gets; a failed commit cannot be added to it.
        let _ = self.settle(ticket, settled).await;
        error
    }

    /// Settles the journal entry of `ticket` (nothing without a journal or a ticket); the
    /// commit's failure, if any.
    pub(crate) async fn settle(&self, ticket: Option<u64>, settled: Settled) -> Option<String> {
        match (&self.journal, ticket) {
            (Some(journal), Some(ticket)) => journal.settled(ticket, settled).await.err(),
            _ => None,
        }
    }

    /// Checks and prices `request`, writes it ahead in the journal, and sends it; the
    /// journal entry is left for the caller to settle. `Err`: refused before sending
    /// (nothing counted, no entry).
    pub(crate) async fn send_journaled(
        &self,
        request: &Request,
        cancel: Option<&Cancel>,
    ) -> Result<Sent, Error> {
        let estimate = self.preflight(request)?;
        let ticket = match &self.journal {
            None => None,
            Some(journal) => {
                // The journal never sees the key.
                let keyless;
                let shown = if request.key().is_empty() {
                    request
                } else {
                    let mut r = request.clone();
                    r.set_key(ApiKey::default());
                    keyless = r;
                    &keyless
                };
                let source = self.record_source();
                let sending = Sending {
                    request: shown,
                    source: &source,
                    estimate,
                };
                let ticket = journal.sending(sending).await?;
                // Other calls may have committed money while the journal wrote: the budget
                // is checked again, and a refusal settles the entry as not charged.
                if let Err(e) = self.preflight(request) {
                    let free = Settled {
                        state: EntryState::NotCharged,
                        charge: Usd::ZERO,
                        possible_charge: Usd::ZERO,
                        records: None,
                        body: None,
                    };
                    let _ = journal.settled(ticket, free).await;
                    return Err(e);
                }
                Some(ticket)
            }
        };
        let result = self.send_checked(request, estimate, cancel).await;
        Ok(Sent { result, ticket })
    }

    /// Sends a checked, priced request: retries, the account, validation.
    async fn send_checked(
        &self,
        request: &Request,
        estimate: Usd,
        cancel: Option<&Cancel>,
    ) -> Result<RawReply, Error> {
        let mut request = request.clone();
        request.set_key(self.config.key.clone());
        let operation = request.operation();
        let http = HttpRequest {
            url: format!(
                "{}{}",
                self.config.base_url.trim_end_matches('/'),
                operation.url_path()
            ),
            headers: self.config.headers.clone(),
            body: request.to_json(),
            timeout: self.config.timeout,
            max_body_bytes: self.config.max_body_bytes,
        };

        self.account.reserve(estimate);
        let result = self.send_with_retries(http, estimate, cancel).await;
        // Charged: every success answer, also one whose body was too large or lost. Possibly
        // charged: sent, then timed out, aborted or its connection lost.
        let (charge, possible) = match &result {
            Ok((response, _)) if cfg!(feature = "journal") && self.config.stated_costs => {
                stated_cost(response, estimate)
            }
            Ok(_) => (estimate, Usd::ZERO),
            Err(e) => (e.charge(), e.possible_charge()),
        };
        self.account.settle(estimate, charge, possible);
        let (response, attempts) = result?;
        let body = response.body;

        let report = match self.config.validation {
            ValidationMode::Off => None,
            ValidationMode::Warn | ValidationMode::Strict => {
                Some(validate::validate(operation, &body, Some(&request)))
            }
        };
        // A success body that is not JSON is its own error. The validator already found out
        // (its one `json` error and the position); only without validation does a parse
        // decide, so a large body is not read twice.
        let syntax = match &report {
            Some(r) => r.position.map(|p| crate::decode::DecodeError {
                path: String::new(),
                message: r
                    .errors()
                    .next()
                    .map(|i| i.message.clone())
                    .unwrap_or_default(),
                line: p.line,
                column: p.column,
                syntax: true,
            }),
            None => crate::decode::check_syntax(&body).err(),
        };
        if let Some(error) = syntax {
            return Err(Error::NotJson {
                error,
                #[cfg(feature = "journal")]
                body,
                charge,
            });
        }
        if self.config.validation == ValidationMode::Strict {
            if let Some(r) = report.as_ref().filter(|r| !r.ok()) {
                return Err(Error::ContractViolation {
                    report: Box::new(r.clone()),
                    body,
                    charge,
                });
            }
        }
        Ok(RawReply {
            body,
            report,
            charge,
            possible_charge: possible,
            attempts,
            store_error: None,
        })
    }

    /// Sends a typed request and decodes the response.
    pub async fn call<R: OperationRequest + Into<Request>>(
        &self,
        request: R,
        cancel: Option<&Cancel>,
    ) -> Result<Reply<R::Response>, Error> {
        let raw = self.call_raw(&request.into(), cancel).await?;
        let data = crate::decode::decode(&raw.body).map_err(|error| Error::Decode {
            error,
            charge: raw.charge,
        })?;
        Ok(Reply {
            data,
            report: raw.report,
            charge: raw.charge,
        })
    }

    /// The attempts of one call. Nothing whose outcome is unknown is repeated: a timeout, an
    /// abort once the transport has the request, or a connection lost after the request may
    /// have left is possibly charged (`estimate`); a 2xx whose body was lost is charged.
    /// Retried: requests that provably never left, and 429 / 503 (also when their body was
    /// lost).
    async fn send_with_retries(
        &self,
        http: HttpRequest,
        estimate: Usd,
        cancel: Option<&Cancel>,
    ) -> Result<(HttpResponse, u32), Error> {
        let policy = &self.config.retry;
        let key = self.config.key.expose();
        let after = http.timeout.unwrap_or_default();
        // Sent: the service may have charged what it never answered.
        let timeout = Error::Timeout {
            after,
            possible_charge: estimate,
        };
        let aborted = Error::Aborted {
            possible_charge: estimate,
        };
        let success = |status: u16| (200..300).contains(&status);
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            // Cancelled before this attempt was handed to the transport: nothing was sent.
            if cancel.is_some_and(Cancel::is_cancelled) {
                return Err(Error::Aborted {
                    possible_charge: Usd::ZERO,
                });
            }
            let outcome = race(self.transport.post(http.clone()), http.timeout, cancel).await;
            #[cfg(feature = "journal")]
            if let Race::Done(_) = outcome {
                self.transport.after_answer().await;
            }
            let (status, body, retry_after) = match outcome {
                Race::Cancelled | Race::Done(Err(TransportError::Aborted)) => return Err(aborted),
                Race::TimedOut | Race::Done(Err(TransportError::Timeout)) => return Err(timeout),
                // Maybe sent: buying it again could pay twice.
                Race::Done(Err(TransportError::Network(m))) => {
                    return Err(Error::ConnectionLost {
                        message: redact(&m, key, BODY_EXCERPT_CHARS),
                        possible_charge: estimate,
                    });
                }
                Race::Done(Err(TransportError::NotSent(m))) => {
                    let m = redact(&m, key, BODY_EXCERPT_CHARS);
                    if attempt > policy.max_retries {
                        return Err(Error::Network(m));
                    }
                    let wait = policy.backoff(attempt, retry::random_unit());
                    if let Race::Cancelled = race(sleep(wait), None, cancel).await {
                        return Err(Error::Aborted {
                            possible_charge: Usd::ZERO,
                        });
                    }
                    continue;
                }
                Race::Done(Err(TransportError::BodyTooLarge { limit, status })) => {
                    let charge = if success(status) { estimate } else { Usd::ZERO };
                    return Err(Error::BodyTooLarge { limit, charge });
                }
                // The service answered a success and charged: the data is lost, but buying
                // it again automatically would pay twice.
                Race::Done(Err(TransportError::BodyLost { status, message }))
                    if success(status) =>
                {
                    return Err(Error::BodyLost {
                        status,
                        message: redact(&message, key, BODY_EXCERPT_CHARS),
                        charge: estimate,
                    });
                }
                // A failure answer whose body was lost: the status says enough.
                Race::Done(Err(TransportError::BodyLost { status, .. })) => {
                    (status, String::new(), None)
                }
                Race::Done(Ok(resp)) if success(resp.status) => return Ok((resp, attempt)),
                Race::Done(Ok(resp)) => {
                    let retry_after = resp.header("retry-after").and_then(parse_retry_after);
                    (resp.status, resp.body, retry_after)
                }
            };
            let err = Error::Http {
                status,
                body: redact(&body, key, BODY_EXCERPT_CHARS),
                retry_after,
            };
            let retryable = RetryPolicy::retryable_status(status)
                && attempt <= policy.max_retries
                && retry_after.is_none_or(|d| d <= policy.max_retry_after);
            if !retryable {
                return Err(err);
            }
            let wait = retry_after.unwrap_or_else(|| policy.backoff(attempt, retry::random_unit()));
            if let Race::Cancelled = race(sleep(wait), None, cancel).await {
                return Err(Error::Aborted {
                    possible_charge: Usd::ZERO,
                });
            }
        }
    }
}

/// What a success answer of a team server cost: the charge and possible charge it states,
/// each at most the estimate; the estimate when it states none.
fn stated_cost(response: &HttpResponse, estimate: Usd) -> (Usd, Usd) {
    let stated = |name: &str| {
        response
            .header(name)
            .and_then(|v| v.trim().parse::<Usd>().ok())
            .map(|u| u.min(estimate))
    };
    match stated(COST) {
        Some(cost) => (
            cost,
            stated(POSSIBLY_CHARGED)
                .unwrap_or(Usd::ZERO)
                .min(estimate.saturating_sub(cost)),
        ),
        None => (estimate, Usd::ZERO),
    }
}

/// One typed method per operation, generated from the list of operations
/// (`crate::ops::for_each_operation!`); the method is named after the operation's module.
macro_rules! client_methods {
    ($( $variant:ident => $module:ident, $path:literal, $title:literal, $js_method:ident; )*) => {
        impl Client {
            $(
                #[doc = concat!("`", $path, "` (", $title, "): see [`ops::", stringify!($module), "`].")]
                pub async fn $module(
                    &self,
                    request: ops::$module::Request,
                ) -> Result<Reply<ops::$module::Response>, Error> {
                    self.call(request, None).await
                }
            )*
        }
    };
}

ops::for_each_operation!(client_methods);
