//! A call's history row, from written ahead (`running`) to its outcome: the pure rules, so
//! what History says about money is unit-tested natively. The row is written ahead with what
//! the call reserves; these functions settle it.

use serpkit::Usd;

use crate::model::{plural, HistoryEntry, Outcome as Ended};
use crate::workspace::history_message;

/// A call's end, as its history row needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A result is stored (complete, or a bulk job that stopped early).
    Answered {
        /// The stored result's cache key.
        key: String,
        /// What the call was charged.
        charge: Usd,
        /// What it may have been charged on top (requests whose outcome is unknown).
        possible_charge: Usd,
        /// Requested records answered from records bought before.
        reused: usize,
        /// Keywords not bought (their chunk did not complete).
        missing: usize,
        /// Why a bulk job stopped early: its error code and HTTP status.
        stopped: Option<(String, Option<u16>)>,
        /// The result's validation summary.
        validation: String,
    },
    /// No result (or, for a strict refusal, one kept but refused).
    Failed {
        /// The error's code and HTTP status.
        code: String,
        /// The HTTP status, if the service answered.
        status: Option<u16>,
        /// What the call was charged.
        charge: Usd,
        /// What it may have been charged.
        possible_charge: Usd,
        /// The validation summary of a refused body, and the key it is stored under.
        refused: Option<(String, String)>,
    },
}

/// Settles a row written ahead with its outcome: it reserves nothing any more.
pub fn finish(mut row: HistoryEntry, outcome: &Outcome) -> HistoryEntry {
    row.outcome = Ended::Ok;
    match outcome {
        Outcome::Answered {
            key,
            charge,
            possible_charge,
            reused,
            missing,
            stopped,
            validation,
        } => {
            row.key = key.clone();
            row.charge = *charge;
            row.validation = validation.clone();
            if *reused > 0 {
                row.message = format!("{reused} already bought, not charged again");
            }
            if *missing > 0 {
                row.outcome = Ended::Partial;
                row.message = format!("{missing} keyword{} not bought", plural(*missing));
            }
            if let Some((code, status)) = stopped {
                row.possible_charge = *possible_charge;
                row.message = format!("{} ({})", row.message, history_message(code, *status));
                note_possible(&mut row);
            }
        }
        Outcome::Failed {
            code,
            status,
            charge,
            possible_charge,
            refused,
        } => {
            row.outcome = match code.as_str() {
                "aborted" => Ended::Cancelled,
                // Listed in History as refused (issue 43): the cap stopped it, nothing sent.
                "budget_exceeded" => Ended::Refused,
                _ => Ended::Error,
            };
            row.message = history_message(code, *status);
            row.charge = *charge;
            row.possible_charge = *possible_charge;
            note_possible(&mut row);
            if let Some((validation, key)) = refused {
                row.validation = validation.clone();
                row.key = key.clone();
            }
        }
    }
    row
}

/// True when a failed call sent nothing and cost nothing because its input could not be sent
/// (invalid, no key): its row is removed rather than kept. A call the budget cap refused is
/// kept: History logs it as `refused` (issue 43).
pub fn sent_nothing(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Failed {
            code,
            charge,
            possible_charge,
            ..
        } => {
            matches!(code.as_str(), "invalid_request" | "missing_key")
                && *charge == Usd::ZERO
                && *possible_charge == Usd::ZERO
        }
        _ => false,
    }
}

/// A row still `running` when its tab went away: interrupted, with what its requests were
/// charged and may have been. True when it changed.
pub fn interrupt(row: &mut HistoryEntry, charge: Usd, possible_charge: Usd) -> bool {
    if row.outcome != Ended::Running {
        return false;
    }
    row.outcome = Ended::Interrupted;
    row.charge = charge;
    row.possible_charge = possible_charge;
    let kept = "The tab was closed or reloaded during the call: what arrived is kept";
    let again = "Run it again (Resume) to buy only what is missing.";
    row.message = if possible_charge > Usd::ZERO {
        format!("{kept}; may have been charged {possible_charge}. {again}")
    } else {
        format!("{kept}. {again}")
    };
    true
}

/// Adds "may have been charged $x" to a row whose outcome is unknown.
fn note_possible(row: &mut HistoryEntry) {
    if row.possible_charge > Usd::ZERO {
        row.message = format!(
            "{} · may have been charged {}",
            row.message, row.possible_charge
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mode;

    fn running() -> HistoryEntry {
        HistoryEntry {
            id: "t-1".into(),
            operation: "search_volume/bulk".into(),
            input: "2,000 keywords, US".into(),
            route: "/keywords?kw=a".into(),
            key: String::new(),
            at: 1.0,
            estimate: Usd::from_micros(600_000),
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            outcome: Ended::Running,
            message: String::new(),
            validation: String::new(),
            mode: Mode::Live,
            tab: "t".into(),
            source: "https://api.example.com".into(),
        }
    }

    #[test]
    fn an_answer_settles_the_row_and_frees_what_it_reserved() {
        let row = finish(
            running(),
            &Outcome::Answered {
                key: "search_volume/bulk:ab".into(),
                charge: Usd::from_micros(300_000),
                possible_charge: Usd::ZERO,
                reused: 3,
                missing: 0,
                stopped: None,
                validation: "valid".into(),
            },
        );
        assert_eq!(row.outcome, Ended::Ok);
        assert_eq!(row.charge, Usd::from_micros(300_000));
        assert_eq!(row.message, "3 already bought, not charged again");
        assert_eq!(row.key, "search_volume/bulk:ab");
    }

    #[test]
    fn a_stopped_job_is_partial_with_its_possible_charge() {
        let row = finish(
            running(),
            &Outcome::Answered {
                key: "k".into(),
                charge: Usd::from_micros(60_000),
                possible_charge: Usd::from_micros(60_000),
                reused: 0,
                missing: 200,
                stopped: Some(("timeout".into(), None)),
                validation: String::new(),
            },
        );
        assert_eq!(row.outcome, Ended::Partial);
        assert_eq!(row.possible_charge, Usd::from_micros(60_000));
        assert_eq!(
            row.message,
            "200 keywords not bought (timed out (timeout)) · may have been charged $0.0600"
        );
    }

    #[test]
    fn failures_keep_their_money_and_a_refused_body_its_key() {
        let lost = Outcome::Failed {
            code: "connection_lost".into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::from_micros(150_000),
            refused: None,
        };
        let row = finish(running(), &lost);
        assert_eq!(row.outcome, Ended::Error);
        assert!(row.message.ends_with("may have been charged $0.1500"));
        assert!(!sent_nothing(&lost));
        let refused = Outcome::Failed {
            code: "contract_violation".into(),
            status: None,
            charge: Usd::from_micros(500_000),
            possible_charge: Usd::ZERO,
            refused: Some(("1 error".into(), "outline/seo:x".into())),
        };
        let row = finish(running(), &refused);
        assert_eq!(
            (row.key.as_str(), row.charge),
            ("outline/seo:x", Usd::from_micros(500_000))
        );
        let cancelled = Outcome::Failed {
            code: "aborted".into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            refused: None,
        };
        assert_eq!(finish(running(), &cancelled).outcome, Ended::Cancelled);
        let over = Outcome::Failed {
            code: "budget_exceeded".into(),
            status: None,
            charge: Usd::ZERO,
            possible_charge: Usd::ZERO,
            refused: None,
        };
        assert!(!sent_nothing(&over));
        let row = finish(running(), &over);
        assert_eq!((row.outcome, row.charge), (Ended::Refused, Usd::ZERO));
        assert_eq!(row.message, "over the budget cap (budget_exceeded)");
    }

    #[test]
    fn only_a_running_row_is_interrupted() {
        let mut row = running();
        assert!(interrupt(
            &mut row,
            Usd::from_micros(120_000),
            Usd::from_micros(120_000)
        ));
        assert_eq!(row.outcome, Ended::Interrupted);
        assert!(row.message.contains("may have been charged $0.1200"));
        assert!(!interrupt(&mut row, Usd::ZERO, Usd::ZERO));
        assert_eq!(row.charge, Usd::from_micros(120_000));
    }
}
