//! The workspace: the app's state and the one place that builds the [`Client`](serpkit::client::Client)
//! and runs calls. Split by job:
//!
//! - [`state`]: the [`Workspace`] itself (signals, the tab's non-`Send` parts) and its notices.
//! - [`settings`]: settings, the API key and where it may go (the money machine's rule,
//!   [`serpkit::machine::base_url`]).
//! - [`client`]: the client of the tab. Demo mode: the sandbox in a Web Worker ([`demo`]) as
//!   the transport; live mode: `fetch` to the user's base URL with their key (only http(s);
//!   plain http to another host only once confirmed). Every client is built on the tab's one
//!   [`serpkit::client::Account`]: the spend meter and the budget cap count every call of
//!   the tab once, however often the client is rebuilt and however many calls run at once.
//! - [`persistence`]: loading and saving results and history (IndexedDB through
//!   [`crate::store`]). Every result is stored under a cache key (operation + hash of the
//!   canonical request, without the key) and shown again from there without a call; only an
//!   explicit refresh buys it again. [`records`]: the bought records (pay once per record).
//! - [`lists`]: keyword lists. [`import_export`]: workspace files (never the key).
//! - [`calls`]: the call path, in one folder: keys, reservation across tabs, the purchase
//!   journal (every paid request written ahead and settled with what it bought, in
//!   IndexedDB, shared by every tab: the account and budget cap are read from it), the
//!   service chunk (the only code that talks to the client, its own wasm chunk fetched on
//!   the first call). [`prices`]: what running a request costs now.
//! - [`team`]: team mode: the team server's spend, purchases and records.
//! - [`errors`]: what went wrong, for people, and the history's note about it (built from the
//!   error's code and status only).
//!
//! Spend: confirmed charges and possibly charged amounts of every tab in the budget's period,
//! shown apart; in demo mode the sandbox's ledger total (this tab's sandbox) beside them.

pub mod calls;
pub mod client;
pub mod demo;
pub mod errors;
pub mod import_export;
pub mod lists;
pub mod persistence;
pub mod prices;
pub mod records;
pub mod settings;
pub mod state;
pub mod team;

pub use crate::host::journal::Period;
pub use calls::{cache_key, run, run_then_show, Call, Job, CHUNK_SIZE};
pub use errors::{history_message, ErrorInfo};
pub use persistence::MAX_HISTORY;
pub use prices::{quote_now, Quote};
pub use settings::DEMO_BASE_URL;
pub use state::{use_workspace, Running, Workspace};

pub use crate::host::now;

/// Today's date (UTC) for the demo data.
pub fn today() -> sandbox::Date {
    sandbox::Date::from_days((now() / 86_400_000.0).floor() as i64)
}
