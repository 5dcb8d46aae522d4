//! `POST /v1/domainstats`: authority, link and classification statistics for domains.
//!
//! Every value is a string in the spec (numbers are sent as strings, unavailable values are
//! empty strings). The record keeps that raw form; typed accessors parse it and return `None`
//! for an empty or non-numeric value.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.05 per domain in the request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(50_000),
    unit: PriceUnit::PerDomain,
};

super::request! {
    /// Request body: `{"key", "domains"}`.
    Request as DomainStatsRequest {
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

// ---------------------------------------------------------------------------------------
// The response record: struct, rules and TS type in one declaration (read by the validator,
// `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::{dsl::*, Array, Compare, Match, Node, RuleCode, Severity, StringRule};

/// A numeric value: "numbers are sent as strings; unavailable values are empty strings"
/// (error `number_text` otherwise).
const NUMBER_TEXT: Node = string(&[StringRule::NumberText]);

/// `betaStatReturned`: "value root observed" (warning `enum` for another).
///
/// Decided: the empty string is accepted too: "unavailable values are empty strings" holds
/// for every value of the record, and a domain the second provider has no stats for has no
/// scope either.
const STAT_SCOPE: Node = string(&[StringRule::OneOf(&["root", ""], Severity::Warning)]);

super::record! {
    /// Domain stats record. All values are the service's strings (in JS,
    /// `Number(record.alphaDA)` reads a numeric one; an empty string is an unavailable value).
    /// In Rust each numeric one also has an accessor of the same name that parses it.
    pub struct DomainStatsRecord {
        /// The domain.
        req domain: String = STR,
        /// The domain as the caller typed it; present on some records only.
        opt "domainAsEntered" domain_as_entered: Option<String> = STR,
        /// First provider's link count.
        req "alphaLinks" alpha_links: String = NUMBER_TEXT,
        /// First provider's page authority.
        req "alphaPA" alpha_pa: String = NUMBER_TEXT,
        /// First provider's domain authority.
        req "alphaDA" alpha_da: String = NUMBER_TEXT,
        /// First provider's rank.
        req "alphaRank" alpha_rank: String = NUMBER_TEXT,
        /// First provider's trust (may be empty).
        req "alphaTrust" alpha_trust: String = NUMBER_TEXT,
        /// First provider's spam score (may be empty).
        req "alphaSpam" alpha_spam: String = NUMBER_TEXT,
        /// Scope of the second provider's stats (`root` observed).
        req "betaStatReturned" beta_stat_returned: String = STAT_SCOPE,
        /// Social comments counter.
        req "SN_comments" sn_comments: String = NUMBER_TEXT,
        /// Social shares counter.
        req "SN_shares" sn_shares: String = NUMBER_TEXT,
        /// Stumbles counter.
        req stumbles: String = NUMBER_TEXT,
        /// Image board pins counter.
        req image_board_pins: String = NUMBER_TEXT,
        /// Second provider's link count.
        req "betaLinks" beta_links: String = NUMBER_TEXT,
        /// Second provider's referring domains.
        req "betaRefDomains" beta_ref_domains: String = NUMBER_TEXT,
        /// Referring .edu domains.
        req "betaRefEDU" beta_ref_edu: String = NUMBER_TEXT,
        /// Referring .gov domains.
        req "betaRefGov" beta_ref_gov: String = NUMBER_TEXT,
        /// Referring subnets.
        req "betaRefSubnets" beta_ref_subnets: String = NUMBER_TEXT,
        /// Referring IPs.
        req "betaIPs" beta_ips: String = NUMBER_TEXT,
        /// Citation flow.
        req "betaCF" beta_cf: String = NUMBER_TEXT,
        /// Trust flow.
        req "betaTF" beta_tf: String = NUMBER_TEXT,
        /// Top topical trust flow category 1 (a category path; empty when absent).
        req "betaTTF0Name" beta_ttf0_name: String = STR,
        /// Its score.
        req "betaTTF0Value" beta_ttf0_value: String = NUMBER_TEXT,
        /// Top topical trust flow category 2.
        req "betaTTF1Name" beta_ttf1_name: String = STR,
        /// Its score.
        req "betaTTF1Value" beta_ttf1_value: String = NUMBER_TEXT,
        /// Top topical trust flow category 3.
        req "betaTTF2Name" beta_ttf2_name: String = STR,
        /// Its score.
        req "betaTTF2Value" beta_ttf2_value: String = NUMBER_TEXT,
    }
    /// Shape of a domain stats record. "All values are strings" is stated: a number or any
    /// other non-string value is an error (`type`), for unknown keys too (which are also an
    /// `unknown_field` warning). Every listed field but `domainAsEntered` is required; empty
    /// strings are fine (unavailable values); the numeric ones are numbers as text,
    /// `betaStatReturned` observed `root`.
    pub const DOMAIN_STATS_RECORD: Object { extra: Some(&STR) };
}

impl DomainStatsRecord {
    /// The JSON names of the string fields after `domain` and `domainAsEntered`, in the
    /// spec's order.
    pub const VALUE_FIELDS: [&'static str; Self::FIELDS.len() - 2] = {
        let mut names = [""; Self::FIELDS.len() - 2];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::FIELDS[i + 2].name;
            i += 1;
        }
        names
    };
}

/// The accessor that parses each numeric field ([`parse_stat`]): one per field declared
/// [`NUMBER_TEXT`] above (a compile-time check counts them).
macro_rules! numeric_accessors {
    ($($field:ident),* $(,)?) => {
        const _: () = assert!(
            [$(stringify!($field)),*].len() == numbers_as_text(&DomainStatsRecord::FIELDS),
            "one accessor per NUMBER_TEXT field"
        );

        impl DomainStatsRecord {
            $(
                #[doc = concat!("`", stringify!($field), "` as a number; `None` when empty or not a number.")]
                pub fn $field(&self) -> Option<f64> {
                    parse_stat(&self.$field)
                }
            )*
        }
    };
}

/// How many of `fields` are [`NUMBER_TEXT`].
const fn numbers_as_text(fields: &[crate::rules::Field]) -> usize {
    let (mut count, mut i) = (0, 0);
    while i < fields.len() {
        if let crate::rules::Kind::Str([StringRule::NumberText]) = fields[i].node.kind {
            count += 1;
        }
        i += 1;
    }
    count
}

numeric_accessors!(
    alpha_links,
    alpha_pa,
    alpha_da,
    alpha_rank,
    alpha_trust,
    alpha_spam,
    sn_comments,
    sn_shares,
    stumbles,
    image_board_pins,
    beta_links,
    beta_ref_domains,
    beta_ref_edu,
    beta_ref_gov,
    beta_ref_subnets,
    beta_ips,
    beta_cf,
    beta_tf,
    beta_ttf0_value,
    beta_ttf1_value,
    beta_ttf2_value,
);

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

/// Response rules: an array of [`DOMAIN_STATS_RECORD`]s. With the request, three relations
/// the spec does not state, so each is a **warning** (strict mode never refuses an answer
/// for them); each quotes what it is read from:
/// - `domain` ("| domain | domain |"; priced "per domain in the request") names a requested
///   domain as [`crate::rules::same_target`] compares (case, `www.`, a trailing dot aside),
///   warning `request_domain`;
/// - `domainAsEntered` ("present only on some records"; "Operation 3 includes
///   `domainAsEntered` on records for some domains only"), when present, names a requested
///   domain the same way, warning `request_domain`. The spec says nothing of its value: the
///   audit's rule (an error unless it was exactly a requested domain) refused valid answers,
///   such as the domain in another case or with `www.` (TESTING.md, "Rules downgraded");
/// - one record per requested domain: warning `record_count`. Decided: a warning, as the
///   spec states "one per" for operations 1 and 4 but not here; it prices "per domain in the
///   request", so another count is worth telling.
pub const RESPONSE: Node = array(&Array {
    items: object(&DOMAIN_STATS_RECORD),
    rules: &[
        // Spec: "| domain | domain |" and priced "per domain in the request": implied, not stated (a warning).
        echoes_request_items(
            "domain",
            "domains",
            Match::AnyOf,
            Compare::Target,
            RuleCode::RequestDomain,
            Severity::Warning,
        ),
        // Spec: "domainAsEntered | present only on some records": its value is not stated (a warning).
        echoes_request_items(
            "domainAsEntered",
            "domains",
            Match::AnyOf,
            Compare::Target,
            RuleCode::RequestDomain,
            Severity::Warning,
        ),
        // Spec: priced "per domain in the request"; "one per" is not stated here (a warning).
        count_equals_request("domains", Severity::Warning),
    ],
});
