//! `POST /v1/domainstats`: authority, link and classification statistics for domains.
//!
//! Every value is a string in the spec (numbers are sent as strings, unavailable values are
//! empty strings). The record keeps that raw form; typed accessors parse it and return `None`
//! for an empty or non-numeric value.

use serde::{Deserialize, Serialize};

use super::{check, lenient, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.05 per domain in the request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(50_000),
    unit: PriceUnit::PerDomain,
};

super::request! {
    /// Request body: `{"key", "domains"}`.
    Request {
        /// Domain names (`example.com`, not URLs).
        domains: Vec<String>,
    }
}

/// Response: an array of domain stats records.
pub type Response = Vec<DomainStatsRecord>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::DomainStats;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::domains("/domains", &self.domains)
    }
    fn billable_units(&self) -> u64 {
        self.domains.len() as u64
    }
    super::key_accessors!();
}

macro_rules! domain_stats_record {
    ($( $(#[$doc:meta])* $json:literal => $field:ident $(, $num:ident)?; )*) => {
        /// Domain stats record. All values are the service's strings; each numeric one also
        /// has an accessor of the same name that parses it (`record.alpha_da()`).
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        pub struct DomainStatsRecord {
            /// The domain.
            #[serde(default, deserialize_with = "lenient::string")]
            pub domain: String,
            /// The domain as the caller typed it; present on some records only.
            #[serde(
                rename = "domainAsEntered",
                default,
                deserialize_with = "lenient::opt_string",
                skip_serializing_if = "Option::is_none"
            )]
            pub domain_as_entered: Option<String>,
            $(
                $(#[$doc])*
                #[serde(rename = $json, default, deserialize_with = "lenient::string")]
                pub $field: String,
            )*
        }

        impl DomainStatsRecord {
            /// The JSON names of the string fields after `domain` and `domainAsEntered`,
            /// in the spec's order.
            pub const VALUE_FIELDS: &'static [&'static str] = &[$($json),*];

            /// Whether each of [`Self::VALUE_FIELDS`] holds a number (as text).
            pub const VALUE_IS_NUMBER: &'static [bool] = &[$(false $(|| {
                let _ = stringify!($num);
                true
            })?),*];

            $($(
                #[doc = concat!("`", $json, "` as a number; `None` when empty or not a number.")]
                pub fn $num(&self) -> Option<f64> {
                    parse_stat(&self.$field)
                }
            )?)*
        }
    };
}

domain_stats_record! {
    /// First provider's link count.
    "alphaLinks" => alpha_links, alpha_links;
    /// First provider's page authority.
    "alphaPA" => alpha_pa, alpha_pa;
    /// First provider's domain authority.
    "alphaDA" => alpha_da, alpha_da;
    /// First provider's rank.
    "alphaRank" => alpha_rank, alpha_rank;
    /// First provider's trust (may be empty).
    "alphaTrust" => alpha_trust, alpha_trust;
    /// First provider's spam score (may be empty).
    "alphaSpam" => alpha_spam, alpha_spam;
    /// Scope of the second provider's stats (`root` observed).
    "betaStatReturned" => beta_stat_returned;
    /// Social comments counter.
    "SN_comments" => sn_comments, sn_comments;
    /// Social shares counter.
    "SN_shares" => sn_shares, sn_shares;
    /// Stumbles counter.
    "stumbles" => stumbles, stumbles;
    /// Image board pins counter.
    "image_board_pins" => image_board_pins, image_board_pins;
    /// Second provider's link count.
    "betaLinks" => beta_links, beta_links;
    /// Second provider's referring domains.
    "betaRefDomains" => beta_ref_domains, beta_ref_domains;
    /// Referring .edu domains.
    "betaRefEDU" => beta_ref_edu, beta_ref_edu;
    /// Referring .gov domains.
    "betaRefGov" => beta_ref_gov, beta_ref_gov;
    /// Referring subnets.
    "betaRefSubnets" => beta_ref_subnets, beta_ref_subnets;
    /// Referring IPs.
    "betaIPs" => beta_ips, beta_ips;
    /// Citation flow.
    "betaCF" => beta_cf, beta_cf;
    /// Trust flow.
    "betaTF" => beta_tf, beta_tf;
    /// Top topical trust flow category 1 (a category path; empty when absent).
    "betaTTF0Name" => beta_ttf0_name;
    /// Its score.
    "betaTTF0Value" => beta_ttf0_value, beta_ttf0_value;
    /// Top topical trust flow category 2.
    "betaTTF1Name" => beta_ttf1_name;
    /// Its score.
    "betaTTF1Value" => beta_ttf1_value, beta_ttf1_value;
    /// Top topical trust flow category 3.
    "betaTTF2Name" => beta_ttf2_name;
    /// Its score.
    "betaTTF2Value" => beta_ttf2_value, beta_ttf2_value;
}

/// A topical trust flow category: its path and score.
#[derive(Clone, Debug, PartialEq)]
pub struct TopicalTrustFlow {
    /// Category path, e.g. `Computers/Internet/Web Design`.
    pub name: String,
    /// Score; `None` when empty.
    pub value: Option<f64>,
}

impl DomainStatsRecord {
    /// The up to three topical trust flow categories that are present (name not empty).
    pub fn topical_trust_flow(&self) -> Vec<TopicalTrustFlow> {
        [
            (&self.beta_ttf0_name, self.beta_ttf0_value()),
            (&self.beta_ttf1_name, self.beta_ttf1_value()),
            (&self.beta_ttf2_name, self.beta_ttf2_value()),
        ]
        .into_iter()
        .filter(|(n, _)| !n.trim().is_empty())
        .map(|(n, v)| TopicalTrustFlow {
            name: n.clone(),
            value: v,
        })
        .collect()
    }
}

/// Parses a stats string: `None` for empty or non-numeric text (never a panic).
pub fn parse_stat<T: std::str::FromStr>(text: &str) -> Option<T> {
    let t = text.trim();
    if t.is_empty() {
        None
    } else {
        t.parse().ok()
    }
}

// ---------------------------------------------------------------------------------------
// Response rules (read by the validator, `validate`, and its JSON Schema export).
// ---------------------------------------------------------------------------------------

use crate::rules::{dsl::*, Array, Field, Node, Object, Severity, StringRule};

const FIELD_COUNT: usize = 2 + DomainStatsRecord::VALUE_FIELDS.len();

/// A numeric value: "numbers are sent as strings; unavailable values are empty strings"
/// (error `number_text` otherwise).
const NUMBER_TEXT: Node = string(&[StringRule::NumberText]);

/// `betaStatReturned`: "value root observed" (warning `enum` for another).
const STAT_SCOPE: Node = string(&[StringRule::OneOf(&["root"], Severity::Warning)]);

/// The place of `betaStatReturned` in [`DomainStatsRecord::VALUE_FIELDS`].
const STAT_SCOPE_AT: usize = 6;

/// The record's fields: `domain`, optional `domainAsEntered`, then every
/// [`DomainStatsRecord::VALUE_FIELDS`] name, all strings: the numeric ones numbers as text,
/// `betaStatReturned` observed `root`.
const FIELDS: [Field; FIELD_COUNT] = {
    let mut f = [req("domain", STR); FIELD_COUNT];
    f[1] = opt("domainAsEntered", STR);
    let names = DomainStatsRecord::VALUE_FIELDS;
    let numeric = DomainStatsRecord::VALUE_IS_NUMBER;
    let mut i = 0;
    while i < names.len() {
        f[i + 2] = req(names[i], if numeric[i] { NUMBER_TEXT } else { STR });
        i += 1;
    }
    assert!(names[STAT_SCOPE_AT].len() == "betaStatReturned".len() && !numeric[STAT_SCOPE_AT]);
    f[STAT_SCOPE_AT + 2] = req(names[STAT_SCOPE_AT], STAT_SCOPE);
    f
};

/// Shape of a domain stats record. "All values are strings" is stated: a number or any
/// other non-string value is an error (`type`), for unknown keys too (which are also an
/// `unknown_field` warning). Every listed field but `domainAsEntered` is required; empty
/// strings are fine (unavailable values).
pub const DOMAIN_STATS_RECORD: Object = Object {
    fields: &FIELDS,
    extra: Some(&STR),
    checks: &[],
};

/// Response rules: an array of [`DOMAIN_STATS_RECORD`]s.
pub const RESPONSE: Node = array(&Array {
    items: object(&DOMAIN_STATS_RECORD),
    rules: &[],
});
