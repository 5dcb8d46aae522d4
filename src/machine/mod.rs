//! The money state machine: every rule about where, whether and how much money is spent, in
//! one pure, deterministic place that does no I/O.
//!
//! A host (the app in a browser tab, the JS package, later a team server) runs one [`Tab`]
//! per independent actor and performs its [`Effect`]s: it takes the journal lock, commits a
//! transaction of [`Op`]s, sends a request, announces a change, sets a timer. What happens
//! comes back as an [`Event`]: a user's intent, a lock granted (with a [`Snapshot`] of the
//! shared store read under it), a commit's result, a transport outcome, a message, the clock.
//!
//! ```text
//!  Run ──► target captured once (mode, source, confirmation) ── refused: insecure, no locks,
//!   │      (a host's click that arrives late: Run::clicked,         storage lost, clicked
//!   │       where the settings pointed at the click)                elsewhere
//!   ▼ Lock ─► Locked ─► Read ─► Granted(snapshot): target unchanged? stored records
//!   │         skipped (same source only); possibly charged items need the user's yes;
//!   │         reserved elsewhere ─► wait; Commit[reservation] ─► Unlock
//!   │         (a lock that cannot be taken, or a store that cannot be read whole under it,
//!   │          stops every call that waited for it: nothing is decided on a partial read)
//!   ▼ per chunk (cut by the machine, or asked for one by one by a host that makes its own
//!   │ requests: Run::host_sends ─► Reserved ─► Sending … ─► Ended):
//!   │            Lock … Granted: cap against every entry of the period ─► Commit[entry sent]
//!   │            ─► Committed ─► Unlock + Send   (a refused write-ahead sends nothing;
//!   │            demo: no cap, no lock: Commit[entry sent] ─► Committed ─► Send)
//!   ▼ Answer ─► Commit[entry settled + its records or body (+ reservation freed)] ─► Announce
//!                (a failed commit keeps the body in memory and retries: never thrown away)
//! ```
//!
//! The rules hold because every decision that spends money is made under the lock against
//! the shared store (never a tab's memory), and the store is written before money moves.
//! `sim` (feature `sim`) runs many tabs against a simulated store, lock, channel, clock and
//! service under every fault and checks the invariants after every step.

// The tab's rules run in hosts built with the journal (the app, the server, the simulator);
// the JS package (built without it) takes only the vocabulary, so its wasm does not move
// with the machine's code.
pub mod account;
pub mod base_url;
#[cfg(feature = "journal")]
mod mutation;
#[cfg(feature = "journal")]
pub mod rules;
#[cfg(feature = "sim")]
pub mod sim;
#[cfg(feature = "journal")]
mod tab;
#[cfg(all(test, feature = "journal"))]
mod tests;

pub use account::{parse_cap, stored_cap, Cap, CapError, Period, Totals};
pub use base_url::BaseUrl;
#[cfg(feature = "journal")]
pub use mutation::Mutation;
#[cfg(feature = "journal")]
pub use tab::Tab;

use crate::money::Usd;

/// Milliseconds since the Unix epoch, as the host's clock gives them.
pub type Ms = i64;

/// The record source of demo mode: records and results bought in demo carry it, so they can
/// never answer a live call ([`crate::records::source_of`] never gives it for a URL).
pub const DEMO_SOURCE: &str = "sandbox://demo";

/// A tab (or any actor that runs a [`Tab`]): random at start, unique among the open ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TabId(pub u64);

/// A call: its tab and a counter of that tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId {
    /// The tab that runs it.
    pub tab: TabId,
    /// Its number in that tab.
    pub n: u32,
}

/// A journal entry (one paid request): its tab and a counter of that tab.
pub type EntryId = CallId;

/// Where money goes: demo (synthetic data, nothing charged) or live (the service). Stored by
/// its [`Mode::as_str`] name, the one mode of the core, the app's rows and the simulator.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The in-process sandbox: synthetic data, no key, no calls to any service.
    #[default]
    Demo,
    /// The service at the base URL (or any server speaking its interface).
    Live,
}

impl Mode {
    /// Stable name: `demo` or `live`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Demo => "demo",
            Mode::Live => "live",
        }
    }
}

/// Where a journal entry is in its life. Stable names ([`EntryState::as_str`]) are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryState {
    /// Written ahead: the request may be on its way; its outcome is not known yet.
    Sent,
    /// The service answered with success: charged its estimate.
    Charged,
    /// Nothing was charged: refused before or by the service, or provably never sent.
    NotCharged,
    /// Sent, and its outcome is unknown (timeout, abort after sending, lost connection, the
    /// tab closed): counted like spent money.
    PossiblyCharged,
}

impl EntryState {
    /// Every state.
    pub const ALL: [EntryState; 4] = [
        EntryState::Sent,
        EntryState::Charged,
        EntryState::NotCharged,
        EntryState::PossiblyCharged,
    ];

    /// Stable name: `sent`, `charged`, `not_charged`, `possibly_charged`.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryState::Sent => "sent",
            EntryState::Charged => "charged",
            EntryState::NotCharged => "not_charged",
            EntryState::PossiblyCharged => "possibly_charged",
        }
    }

    /// The state named by [`Self::as_str`].
    pub fn from_name(name: &str) -> Option<EntryState> {
        EntryState::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The state a finished request ends in, from what it was charged and may have been.
    pub fn of(charge: Usd, possible_charge: Usd) -> EntryState {
        if charge > Usd::ZERO {
            EntryState::Charged
        } else if possible_charge > Usd::ZERO {
            EntryState::PossiblyCharged
        } else {
            EntryState::NotCharged
        }
    }

    /// True once the outcome is known or given up on (not [`EntryState::Sent`]).
    pub fn is_final(self) -> bool {
        self != EntryState::Sent
    }
}

/// The settings that decide where and whether money is spent, as the shared store holds
/// them: one value per field, each changed on its own ([`Setting`]), never written back as a
/// whole copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Demo or live.
    pub mode: Mode,
    /// The live service's base URL (its record source).
    pub base_url: String,
    /// A plain-http base URL the user confirmed may receive the key (empty: none).
    pub insecure_ok: String,
    /// The budget cap.
    pub cap: Cap,
    /// The period the cap covers.
    pub period: Period,
    /// When the meter was last reset (0: never).
    pub reset_at: Ms,
    /// Stands for every setting that moves no money (theme, columns, …): stored field by
    /// field like the others, so changing it can never touch the cap.
    pub other: u32,
}

/// One field of [`Settings`] changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// [`Settings::mode`].
    Mode(Mode),
    /// [`Settings::base_url`].
    BaseUrl(String),
    /// [`Settings::insecure_ok`].
    InsecureOk(String),
    /// [`Settings::cap`].
    Cap(Cap),
    /// [`Settings::period`].
    Period(Period),
    /// [`Settings::reset_at`].
    ResetAt(Ms),
    /// [`Settings::other`].
    Other(u32),
}

impl Setting {
    /// True when the field decides where or whether money is spent: such a change is made
    /// under the journal lock, so it is ordered with every write-ahead.
    pub fn moves_money(&self) -> bool {
        !matches!(self, Setting::Other(_))
    }
}

/// Where a call's requests go, captured once when the user clicks Run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// Demo or live.
    pub mode: Mode,
    /// The record source ([`DEMO_SOURCE`] or the base URL).
    pub source: String,
}

impl Settings {
    /// Applies one changed field.
    pub fn apply(&mut self, s: &Setting) {
        match s {
            Setting::Mode(m) => self.mode = *m,
            Setting::BaseUrl(u) => self.base_url.clone_from(u),
            Setting::InsecureOk(u) => self.insecure_ok.clone_from(u),
            Setting::Cap(c) => self.cap = *c,
            Setting::Period(p) => self.period = *p,
            Setting::ResetAt(t) => self.reset_at = *t,
            Setting::Other(o) => self.other = *o,
        }
    }

    /// Every field, as changes (what an old tab's whole-copy write amounted to).
    pub fn fields(&self) -> [Setting; 7] {
        [
            Setting::Mode(self.mode),
            Setting::BaseUrl(self.base_url.clone()),
            Setting::InsecureOk(self.insecure_ok.clone()),
            Setting::Cap(self.cap),
            Setting::Period(self.period),
            Setting::ResetAt(self.reset_at),
            Setting::Other(self.other),
        ]
    }

    /// Where a call would go now, or why it may not: the key goes only to an https:// URL,
    /// to loopback, or to a plain-http URL the user confirmed.
    pub fn target(&self) -> Result<Target, Refusal> {
        match self.mode {
            Mode::Demo => Ok(Target {
                mode: Mode::Demo,
                source: DEMO_SOURCE.to_string(),
            }),
            Mode::Live => {
                let url = self.base_url.trim();
                match base_url::check(url) {
                    BaseUrl::Safe => {}
                    BaseUrl::Invalid(why) => return Err(Refusal::InvalidUrl(why)),
                    BaseUrl::Insecure { .. } if self.insecure_ok != url => {
                        return Err(Refusal::InsecureUrl)
                    }
                    BaseUrl::Insecure { .. } => {}
                }
                Ok(Target {
                    mode: Mode::Live,
                    source: url.to_string(),
                })
            }
        }
    }
}

/// One paid request in the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its id (its tab's).
    pub id: EntryId,
    /// The call it belongs to.
    pub call: CallId,
    /// Where it was sent.
    pub source: String,
    /// True for the service (money), false for demo.
    pub live: bool,
    /// The record keys (or the request key) it buys.
    pub items: Vec<String>,
    /// Its price, shown before it left.
    pub estimate: Usd,
    /// What it was charged.
    pub charge: Usd,
    /// What it may have been charged (outcome unknown).
    pub possible: Usd,
    /// Where it is in its life.
    pub state: EntryState,
    /// When it was written ahead, by its tab's clock.
    pub at: Ms,
}

/// What a running call reserves: items of one source no other call may buy meanwhile. It
/// lives in the journal (never in History: clearing History cannot free it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reservation {
    /// The call (and so the tab) holding it.
    pub call: CallId,
    /// The source of its items.
    pub source: String,
    /// Record keys or request keys.
    pub items: Vec<String>,
}

/// What a paid answer's body was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// Valid against every rule.
    Valid,
    /// Readable, with rule errors (kept marked invalid).
    Invalid,
    /// A charged 200 that is not JSON (kept with its text, so it is not bought again).
    Unreadable,
}

/// One write of a transaction; a transaction is all of its ops or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Insert or replace an entry.
    PutEntry(Entry),
    /// Insert a reservation.
    PutReservation(Reservation),
    /// Remove a call's reservation.
    DeleteReservation(CallId),
    /// Store what a request bought, under its entry.
    PutRecords {
        /// Their source.
        source: String,
        /// Their keys.
        items: Vec<String>,
        /// The entry that paid for them.
        entry: EntryId,
        /// What the body was.
        body: Body,
    },
    /// Change one settings field.
    PutSetting(Setting),
    /// Empty History (its rows only; entries and reservations stay).
    ClearHistory,
    /// Remove every reservation (only a mutation writes this: History used to hold them).
    DeleteAllReservations,
}

/// Why storage refused a transaction or is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreError {
    /// The connection closed (`onclose`).
    Closed,
    /// No space left.
    Quota,
    /// Another tab opened a newer schema: this tab must reload.
    VersionChange,
    /// The journal lock could not be taken (the lock request threw or was rejected).
    Lock,
    /// The shared store could not be read under the lock.
    Unreadable,
}

/// Why a call was refused or stopped, nothing (more) sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The cap would be passed: what is committed in the period, and the cap.
    Budget {
        /// Spent + possibly charged + in flight.
        committed: Usd,
        /// The cap.
        cap: Usd,
    },
    /// The journal cannot be written: reload, or free space.
    Storage(StoreError),
    /// No Web Locks (a plain-http origin): money is not spent where tabs cannot agree.
    NoLocks,
    /// Plain http:// to another host, not confirmed in Settings.
    InsecureUrl,
    /// The base URL is not an http(s) URL with a host (why).
    InvalidUrl(&'static str),
    /// Where the call would go changed while it waited: it is not re-targeted.
    SettingsChanged,
    /// A host's request ([`Event::Sending`]) buys what its call did not reserve, or what it
    /// already bought or possibly bought, or its call no longer buys.
    NotReserved,
    /// The user cancelled.
    Cancelled,
}

/// What the host shows about a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Another call (this tab's or another's) is buying some of the same items.
    Waiting,
    /// Everything was already stored (same source): answered with no call.
    Answered,
    /// A call whose host sends its requests ([`Run::host_sends`]) reserved these items:
    /// the host may now ask to send requests for them ([`Event::Sending`]).
    Reserved(Vec<String>),
    /// Some items were possibly charged in an interrupted call: they are not bought again
    /// without the user's yes (run again with `confirm_possibly`).
    NeedsYes {
        /// Those items.
        items: Vec<String>,
        /// When the latest of those calls was written ahead.
        since: Ms,
    },
    /// Refused or stopped; what was bought before is kept.
    Refused(Refusal),
    /// A paid answer could not be stored yet: it is kept in memory and shown, and the write
    /// is retried.
    Unsaved,
    /// The call is over.
    Done,
}

/// A user's click on Run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Record keys, or the request's key for an operation priced per request.
    pub items: Vec<String>,
    /// The price of one item.
    pub each: Usd,
    /// Items per request (a bulk job's chunk).
    pub chunk: usize,
    /// Buy again what is stored (the user asked for Refresh).
    pub refresh: bool,
    /// The user said yes to the question this tab last asked about these items
    /// ([`Notice::NeedsYes`]): it covers what that question showed, once
    /// ([`rules::plan_asking`]).
    pub confirm_possibly: bool,
    /// The host makes the requests (a client with its own chunks, backoff and merging):
    /// after the reservation the machine shows [`Notice::Reserved`] and writes ahead each
    /// request the host asks for ([`Event::Sending`]) instead of cutting `items` into chunks
    /// itself; the call ends once the host says so ([`Event::Ended`]). Its rules are the
    /// same: each request under the lock, against the store's cap and the click's target.
    pub host_sends: bool,
    /// Where the click was, when the host captured it before the click reached the machine
    /// (the app fetches a call's code first): a target that differs from where the settings
    /// point when it arrives refuses the call ([`Refusal::SettingsChanged`]), so the host's
    /// requests, built from what it captured, go where the machine checks. `None`: the click
    /// is now.
    pub clicked: Option<Target>,
}

/// How a sent request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Success: charged; the body as it was.
    Answer(Body),
    /// Provably not charged (a refusal by the service, or never sent).
    NotCharged,
    /// Unknown (timeout, reset after sending, abort): possibly charged.
    Unknown,
}

/// What the host tells a [`Tab`].
pub enum Event<'a> {
    /// The tab started (or came back from the back/forward cache).
    Opened,
    /// The user clicked Run.
    Run(Run),
    /// The user cancelled call `n`.
    Cancel(u32),
    /// The host would send a request of call `n` ([`Run::host_sends`]) buying `items`:
    /// answered by [`Effect::Send`] once it is written ahead, or by a refusal.
    Sending {
        /// The call.
        call: u32,
        /// What the request buys: reserved by the call, and not bought (or possibly bought)
        /// by it already.
        items: Vec<String>,
        /// Its price, as the host's client computes it (checked against the cap).
        estimate: Usd,
    },
    /// The host sends no more requests of call `n` ([`Run::host_sends`]): the call ends
    /// once those in flight are settled.
    Ended(u32),
    /// The user changed one setting.
    Change(Setting),
    /// The user reset the meter.
    ResetMeter,
    /// The user cleared History.
    ClearHistory,
    /// The journal lock asked for ([`Effect::Lock`]) is held, or could not be taken
    /// ([`StoreError::Lock`]: nothing is held).
    Locked(Result<(), StoreError>),
    /// The shared store as read under the lock ([`Effect::Read`]), or why it could not be
    /// read whole (the lock is still held: the tab releases it).
    Granted(Result<&'a dyn Snapshot, StoreError>),
    /// Transaction `txn` ended.
    Committed {
        /// The id from [`Effect::Commit`].
        txn: u32,
        /// Its result.
        result: Result<(), StoreError>,
    },
    /// A sent request ended.
    Answer {
        /// Its entry.
        entry: EntryId,
        /// How.
        outcome: Outcome,
    },
    /// Another tab changed a setting.
    Heard(Setting),
    /// A timer ran out.
    Timer,
    /// The storage connection is gone.
    StorageLost(StoreError),
}

/// What a [`Tab`] asks its host to do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Take the journal lock (exclusive among every tab); reply [`Event::Locked`].
    Lock,
    /// Read the shared store, whole, under the lock; reply [`Event::Granted`]. A read that
    /// fails in any part is an error, never an empty or partial snapshot.
    Read,
    /// Release it.
    Unlock,
    /// Write these ops in one transaction; reply [`Event::Committed`].
    Commit {
        /// Its id.
        txn: u32,
        /// Its writes.
        ops: Vec<Op>,
    },
    /// Tell the other tabs a setting changed (after its commit).
    Announce(Setting),
    /// Send a request; reply [`Event::Answer`].
    Send {
        /// The call it belongs to.
        call: u32,
        /// Its entry (committed as sent).
        entry: EntryId,
        /// Where, as captured at the click.
        target: Target,
        /// What it buys.
        items: Vec<String>,
        /// Its price.
        estimate: Usd,
    },
    /// Wake the tab after this long ([`Event::Timer`]).
    Wake(Ms),
    /// Show this about call `n`.
    Show(u32, Notice),
}

/// The shared store as read under the journal lock.
pub trait Snapshot {
    /// The settings.
    fn settings(&self) -> &Settings;
    /// Calls `f` with every journal entry.
    fn each_entry(&self, f: &mut dyn FnMut(&Entry));
    /// Calls `f` with every reservation.
    fn each_reservation(&self, f: &mut dyn FnMut(&Reservation));
    /// Whether a record (or per-request result) of `item` is stored, from `source` (`None`:
    /// from any source, which only a mutation asks).
    fn has_record(&self, source: Option<&str>, item: &str) -> bool;
    /// Whether `tab` is open; `None` when the host cannot tell (no Web Locks).
    fn tab_open(&self, tab: TabId) -> Option<bool>;
}
