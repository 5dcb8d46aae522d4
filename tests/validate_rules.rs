//! For every rule: a valid body that passes and a body that breaks exactly that rule, with
//! the code, severity and path asserted.

mod validate_common;

use serde_json::json;
use serpkit::ops::Operation::{self, *};
use serpkit::validate::Severity::{Error, Warning};
use validate_common::*;

#[test]
fn every_valid_fixture_passes_cleanly() {
    for op in Operation::ALL {
        for with_request in [false, true] {
            let r = check(op, &valid(op), with_request);
            assert!(
                r.issues.is_empty(),
                "{op} (request: {with_request}): {:#?}",
                r.issues
            );
            assert!(r.ok());
        }
    }
}
