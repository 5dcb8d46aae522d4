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
//! its body turns out broken: the service answered); any other outcome is counted as free.

mod bulk;
mod error;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
mod records;
mod retry;
pub mod time;
pub mod transport;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

pub use bulk::{BulkOptions, BulkOutcome, BulkProgress};
pub use error::{redact, Error, BODY_EXCERPT_CHARS};
pub use records::RecordReply;
pub use retry::{parse_retry_after, RetryPolicy};
pub use time::{race, sleep, Cancel, Race};
pub use transport::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};

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

impl std::str::FromStr for ValidationMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(ValidationMode::Off),
            "warn" => Ok(ValidationMode::Warn),
            "strict" => Ok(ValidationMode::Strict),
            _ => Err(format!(
                "validation mode must be \"off\", \"warn\" or \"strict\", not {:?}",
                s.chars().take(20).collect::<String>()
            )),
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
    /// Attempts made (1 + retries).
    pub attempts: u32,
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

#[derive(Default)]
struct Ledger {
    spent: Usd,
    reserved: Usd,
    calls: u64,
}

/// The client. Cheap to clone: clones share the transport and the spend.
#[derive(Clone)]
pub struct Client {
    config: Rc<ClientConfig>,
    transport: Rc<dyn Transport>,
    ledger: Rc<RefCell<Ledger>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .field("spent", &self.spent())
            .finish()
    }
}

impl Client {
    /// A client over a transport.
    pub fn new(config: ClientConfig, transport: Rc<dyn Transport>) -> Client {
        Client {
            config: Rc::new(config),
            transport,
            ledger: Rc::default(),
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

    /// Total charged by successful calls of this client (and its clones).
    pub fn spent(&self) -> Usd {
        self.ledger.borrow().spent
    }

    /// Number of calls the service answered with success.
    pub fn charged_calls(&self) -> u64 {
        self.ledger.borrow().calls
    }

    /// What is left of the budget (`None` without a budget).
    pub fn remaining(&self) -> Option<Usd> {
        let l = self.ledger.borrow();
        self.config
            .budget
            .map(|b| b.saturating_sub(l.spent + l.reserved))
    }

    /// Checks, prices and budget-checks a request without sending it: the estimate.
    pub fn preflight(&self, request: &Request) -> Result<Usd, Error> {
        request.check().map_err(Error::InvalidRequest)?;
        if self.config.key.is_empty() {
            return Err(Error::MissingKey);
        }
        let estimate = crate::estimate_cost(request);
        if let Some(budget) = self.config.budget {
            let l = self.ledger.borrow();
            let committed = l.spent + l.reserved;
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

    /// Sends any request and returns the body text, validated per the mode.
    pub async fn call_raw(
        &self,
        request: &Request,
        cancel: Option<&Cancel>,
    ) -> Result<RawReply, Error> {
        let estimate = self.preflight(request)?;
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

        self.ledger.borrow_mut().reserved += estimate;
        let result = self.send_with_retries(http, estimate, cancel).await;
        {
            let mut l = self.ledger.borrow_mut();
            l.reserved = l.reserved.saturating_sub(estimate);
            // Charged: every success answer, also one whose body was refused as too large.
            let charge = match &result {
                Ok(_) => estimate,
                Err(e) => e.charge(),
            };
            if charge > Usd::ZERO {
                l.spent += charge;
                l.calls += 1;
            }
        }
        let (response, attempts) = result?;
        let charge = estimate;
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
            return Err(Error::NotJson { error, charge });
        }
        if self.config.validation == ValidationMode::Strict {
            if let Some(r) = report.as_ref().filter(|r| !r.ok()) {
                return Err(Error::ContractViolation {
                    report: Box::new(r.clone()),
                    charge,
                });
            }
        }
        Ok(RawReply {
            body,
            report,
            charge,
            attempts,
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

    async fn send_with_retries(
        &self,
        http: HttpRequest,
        estimate: Usd,
        cancel: Option<&Cancel>,
    ) -> Result<(HttpResponse, u32), Error> {
        let policy = &self.config.retry;
        let key = self.config.key.expose();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let outcome = race(self.transport.post(http.clone()), http.timeout, cancel).await;
            let wait = match outcome {
                Race::Cancelled => return Err(Error::Aborted),
                Race::TimedOut => {
                    return Err(Error::Timeout(http.timeout.unwrap_or_default()));
                }
                Race::Done(Err(TransportError::Network(m))) => {
                    let m = redact(&m, key, BODY_EXCERPT_CHARS);
                    if attempt > policy.max_retries {
                        return Err(Error::Network(m));
                    }
                    policy.backoff(attempt, retry::random_unit())
                }
                Race::Done(Err(TransportError::Timeout)) => {
                    return Err(Error::Timeout(http.timeout.unwrap_or_default()))
                }
                Race::Done(Err(TransportError::Aborted)) => return Err(Error::Aborted),
                Race::Done(Err(TransportError::BodyTooLarge { limit, status })) => {
                    let charge = if (200..300).contains(&status) {
                        estimate
                    } else {
                        Usd::ZERO
                    };
                    return Err(Error::BodyTooLarge { limit, charge });
                }
                Race::Done(Ok(resp)) if (200..300).contains(&resp.status) => {
                    return Ok((resp, attempt))
                }
                Race::Done(Ok(resp)) => {
                    let retry_after = resp.header("retry-after").and_then(parse_retry_after);
                    let err = Error::Http {
                        status: resp.status,
                        body: redact(&resp.body, key, BODY_EXCERPT_CHARS),
                        retry_after,
                    };
                    let retryable = RetryPolicy::retryable_status(resp.status)
                        && attempt <= policy.max_retries
                        && retry_after.is_none_or(|d| d <= policy.max_retry_after);
                    if !retryable {
                        return Err(err);
                    }
                    retry_after.unwrap_or_else(|| policy.backoff(attempt, retry::random_unit()))
                }
            };
            if let Race::Cancelled = race(sleep(wait), None, cancel).await {
                return Err(Error::Aborted);
            }
        }
    }
}

macro_rules! methods {
    ($( $method:ident => $module:ident; )*) => {
        impl Client {
            $(
                #[doc = concat!("`", stringify!($module), "`: see [`ops::", stringify!($module), "`].")]
                pub async fn $method(
                    &self,
                    request: ops::$module::Request,
                ) -> Result<Reply<ops::$module::Response>, Error> {
                    self.call(request, None).await
                }
            )*
        }
    };
}

methods! {
    search_volume_bulk => search_volume_bulk;
    search_volume_single => search_volume_single;
    domainstats => domainstats;
    backlink_metrics => backlink_metrics;
    ranked_keywords_metrics => ranked_keywords_metrics;
    ranked_keywords_domain => ranked_keywords_domain;
    backlink_overview => backlink_overview;
    outline_seo => outline_seo;
    microblog_post => microblog_post;
    video_video => video_video;
    related => related;
}
