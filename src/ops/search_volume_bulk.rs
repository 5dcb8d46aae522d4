//! `POST /v1/search_volume/bulk`: volume, average CPC, competition and a 12-month breakdown
//! for many keywords. Also home of the search volume record shared with `search_volume/single`.

use serde::{Deserialize, Serialize};

use super::{check, lenient, ApiKey, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.0003 per keyword in the request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(300),
    unit: PriceUnit::PerKeyword,
};

/// Request body: `{"key", "keywords", "ccode"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The API key.
    #[serde(default)]
    pub key: ApiKey,
    /// Keywords to look up; one record comes back per keyword, in this order.
    pub keywords: Vec<String>,
    /// Two-letter country code, upper case in requests (`US`).
    pub ccode: String,
}

/// Response: one record per requested keyword, in request order.
pub type Response = Vec<SearchVolumeRecord>;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::SearchVolumeBulk;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::keywords("/keywords", &self.keywords)?;
        check::ccode("/ccode", &self.ccode)
    }
    fn billable_units(&self) -> u64 {
        self.keywords.len() as u64
    }
    super::key_accessors!();
}

/// Search volume record: the bulk array element and the single response object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchVolumeRecord {
    /// Country code, lower case in responses.
    #[serde(default, deserialize_with = "lenient::string")]
    pub ccode: String,
    /// The keyword.
    #[serde(default, deserialize_with = "lenient::string")]
    pub keyword: String,
    /// Average cost per click.
    #[serde(rename = "AVERAGE_CPC", default, deserialize_with = "lenient::float")]
    pub average_cpc: f64,
    /// Competition, observed between 0 and 1.
    #[serde(rename = "COMPETITION", default, deserialize_with = "lenient::float")]
    pub competition: f64,
    /// Headline volume.
    #[serde(rename = "SEARCH_VOLUME", default, deserialize_with = "lenient::int")]
    pub search_volume: i64,
    /// 12 monthly entries, oldest first.
    #[serde(
        rename = "TARGETED_MONTHLY_SEARCHES",
        default,
        deserialize_with = "lenient::list"
    )]
    pub targeted_monthly_searches: Vec<MonthlySearch>,
}

/// One month of searches (element of `TARGETED_MONTHLY_SEARCHES`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MonthlySearch {
    /// English full month name (`January`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub month: String,
    /// Four-digit year.
    #[serde(default, deserialize_with = "lenient::int")]
    pub year: i64,
    /// Searches in that month.
    #[serde(default, deserialize_with = "lenient::int")]
    pub value: i64,
    /// Equal to `value` in every observed entry.
    #[serde(default, deserialize_with = "lenient::int")]
    pub count: i64,
    /// `<year>-<MonthName>`, e.g. `2024-March`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// English full month names, January first (the `month` field's values).
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl SearchVolumeRecord {
    /// Change over the year: last month's searches relative to the first month's
    /// (`0.25` = +25 %); `None` without 2 entries or when the first month is 0.
    pub fn yearly_change(&self) -> Option<f64> {
        let first = self.targeted_monthly_searches.first()?.value;
        let last = self.targeted_monthly_searches.last()?.value;
        if self.targeted_monthly_searches.len() < 2 || first == 0 {
            return None;
        }
        Some((last - first) as f64 / first as f64)
    }
}
