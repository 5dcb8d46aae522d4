//! Settling a call: what it bought is stored and its history row (written ahead) gets its
//! outcome ([`super::history`]); the error, if any, is kept under the call's key. A body
//! that was paid for is kept, also when strict validation refused it.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serpkit::client::Error;
use serpkit::machine::Event;
use serpkit::Usd;

use super::history;
use super::order::{Order, Stamp};
use crate::host::drive;
use crate::model::{CallResult, HistoryEntry, Validation};
use crate::workspace::ErrorInfo;

/// What one call bought: the result, this call's charge, and why a bulk job stopped early.
pub(super) struct Purchase {
    pub(super) result: CallResult,
    pub(super) charge: Usd,
    /// What the job's calls whose outcome is unknown may have been charged.
    pub(super) possible: Usd,
    pub(super) stopped: Option<Error>,
    /// Requested records answered from records bought before.
    pub(super) reused: usize,
    /// The bought records could not be saved (the answer is kept all the same).
    pub(super) store_error: Option<String>,
    /// The journal already stored the result with its entry (operations priced per request).
    pub(super) result_stored: bool,
}

/// A call that ended in an error: what it was charged, and what it may have been.
pub(super) struct Failure {
    pub(super) error: Error,
    pub(super) charge: Usd,
    pub(super) possible: Usd,
}

/// What one call bought, or how it failed.
pub(super) type Outcome = Result<Purchase, Failure>;

/// Stores what a call bought and settles its history row (written ahead, rules in
/// [`history`]), and the error under its key; true when a result is stored. A body that was
/// paid for is kept, also when strict validation refused it. Touches only the workspace (the
/// page may be gone).
/// `row` is the call's History row and `n` its number on this tab's machine, which frees
/// its reservation once told the call ended.
pub(super) fn settle(
    order: &Order,
    stamp: &Stamp,
    (row, n): (HistoryEntry, u32),
    outcome: Outcome,
) -> bool {
    let workspace = order.workspace;
    let stored = store_outcome(order, stamp, row, outcome);
    // After what it bought is written (a delete comes after the turn's writes).
    spawn_local(async move {
        drive::drive(workspace, Event::Ended(n)).await;
        drive::forget(n);
    });
    stored
}

fn store_outcome(order: &Order, stamp: &Stamp, row: HistoryEntry, outcome: Outcome) -> bool {
    let (workspace, key, mode) = (order.workspace, order.key.as_str(), order.mode);
    match outcome {
        Ok(bought) => {
            let result = bought.result;
            if let Some(e) = &bought.store_error {
                workspace.save_failed(format!("Could not save the bought records: {e}"));
            }
            let ended = history::Outcome::Answered {
                key: result.key.clone(),
                charge: bought.charge,
                possible_charge: bought.possible,
                reused: bought.reused,
                missing: result.missing.len(),
                stopped: bought
                    .stopped
                    .as_ref()
                    .map(|e| (e.code().to_string(), status(e))),
                validation: result.validation.summary(),
            };
            if bought.result_stored {
                workspace.results.update(|m| {
                    m.insert(result.key.clone(), result);
                });
            } else {
                workspace.put_result(result);
            }
            workspace.add_history(history::finish(row, &ended));
            if let Some(e) = &bought.stopped {
                workspace.set_error(key, Some(ErrorInfo::from_error(e, mode)));
            }
            true
        }
        Err(Failure {
            error: e,
            charge,
            possible,
        }) => {
            let mut refused = None;
            let paid = match &e {
                Error::ContractViolation { report, body, .. } => {
                    Some((Validation::from_report(report), body, false))
                }
                Error::NotJson { error, body, .. } => {
                    Some((Validation::not_json(error), body, true))
                }
                _ => None,
            };
            if let Some((validation, body, unreadable)) = paid {
                // Paid for: kept, marked refused, never bought again without asking.
                let key = &workspace.kept_key(key, unreadable);
                refused = Some((validation.summary(), key.to_string()));
                let kept = workspace
                    .results
                    .with_untracked(|m| m.get(key).cloned())
                    .filter(|r| r.rejected);
                workspace.put_result(kept.unwrap_or_else(|| {
                    let key = key.to_string();
                    stamp.result(key, body.clone(), validation, charge, Vec::new(), true)
                }));
            }
            let stored = refused.is_some();
            let ended = history::Outcome::Failed {
                code: e.code().to_string(),
                status: status(&e),
                charge,
                possible_charge: possible,
                refused,
            };
            if history::sent_nothing(&ended) {
                workspace.remove_history(&row.id);
            } else {
                workspace.add_history(history::finish(row, &ended));
            }
            workspace.set_error(key, Some(ErrorInfo::from_error(&e, mode)));
            stored
        }
    }
}

/// The HTTP status an error carries, if the service answered.
fn status(e: &Error) -> Option<u16> {
    match e {
        Error::Http { status, .. } => Some(*status),
        _ => None,
    }
}
