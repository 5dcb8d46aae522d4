//! The client of the tab: built from the settings, rebuilt when they change.

use std::rc::Rc;

use serpkit::client::{Client, ClientConfig, ValidationMode};

use leptos::prelude::*;

use super::Ws;
use crate::demo::DemoTransport;
use crate::model::{hash_hex, Mode};

impl Ws {
    /// The client for the current settings (rebuilt when they change; the spend carries
    /// over, and the budget left is what the cap leaves after this session's spend).
    pub(super) fn client(self) -> Client {
        let s = self.settings.get_untracked();
        let key = self.key.get_untracked();
        let sig = format!(
            "{}|{}|{}|{}|{}|{}",
            s.mode.as_str(),
            s.base_url,
            s.validation,
            s.budget,
            s.max_body_mb,
            hash_hex(&key)
        );
        self.inner
            .try_update_value(|inner| {
                if let Some((old, c)) = &inner.client {
                    if *old == sig {
                        return c.clone();
                    }
                    inner.spent_before += c.spent();
                }
                let validation = s.validation.parse().unwrap_or(ValidationMode::Warn);
                let key = match s.mode {
                    Mode::Demo => sandbox::DEMO_KEY.to_string(),
                    Mode::Live => key.trim().to_string(),
                };
                let mut config = ClientConfig::new(key);
                config.validation = validation;
                config.max_body_bytes = s.max_body_bytes();
                config.budget = self
                    .budget_cap()
                    .map(|b| b.saturating_sub(inner.spent_before));
                let client = match s.mode {
                    Mode::Demo => {
                        config.base_url = "sandbox://demo".into();
                        Client::new(config, Rc::new(inner.demo.clone()))
                    }
                    Mode::Live => {
                        config.base_url = s.base_url.trim().trim_end_matches('/').to_string();
                        live_client(config)
                    }
                };
                inner.client = Some((sig, client.clone()));
                client
            })
            .unwrap_or_else(|| {
                Client::new(
                    ClientConfig::new(sandbox::DEMO_KEY),
                    Rc::new(DemoTransport::new()),
                )
            })
    }

    /// Updates the spend meter and the demo ledger from the client.
    pub(super) fn refresh_spend(self, client: &Client) {
        let (before, ledger) = self.inner.with_value(|i| (i.spent_before, i.demo.ledger()));
        self.spent.set(before + client.spent());
        self.ledger.set(ledger);
    }
}

#[cfg(target_arch = "wasm32")]
fn live_client(config: ClientConfig) -> Client {
    Client::with_fetch(config)
}

#[cfg(not(target_arch = "wasm32"))]
fn live_client(config: ClientConfig) -> Client {
    // Native builds (tests, clippy) have no fetch: a transport that always fails.
    use serpkit::client::{HttpRequest, HttpResponse, LocalBoxFuture, Transport, TransportError};
    struct NoNetwork;
    impl Transport for NoNetwork {
        fn post(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, TransportError>> {
            Box::pin(async {
                Err(TransportError::Network(
                    "no network in native builds".into(),
                ))
            })
        }
    }
    Client::new(config, Rc::new(NoNetwork))
}
