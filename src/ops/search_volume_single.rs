//! `POST /v1/search_volume/single`: the search volume record of one keyword.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

pub use super::search_volume_bulk::{MonthlySearch, SearchVolumeRecord};

/// $0.0003 per request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(300),
    unit: PriceUnit::PerRequest,
};

super::request! {
    /// Request body: `{"key", "keyword", "ccode"}`.
    Request as SearchVolumeSingleRequest {
        /// The keyword.
        keyword: String,
        /// Two-letter country code, upper case in requests (`US`).
        ccode: String,
    }
}

/// Response: one record object.
pub type Response = SearchVolumeRecord;

impl OperationRequest for Request {
    const OPERATION: Operation = Operation::SearchVolumeSingle;
    type Response = Response;
    fn check(&self) -> Result<(), RequestError> {
        check::keyword("/keyword", &self.keyword)?;
        check::ccode("/ccode", &self.ccode)
    }
    fn billable_units(&self) -> u64 {
        1
    }
    super::key_accessors!();
}

/// Response rules: one search volume record object (see
/// [`super::search_volume_bulk::SEARCH_VOLUME_RECORD`], which also checks `keyword` and
/// `ccode` against this operation's request).
pub const RESPONSE: crate::rules::Node =
    crate::rules::dsl::object(&super::search_volume_bulk::SEARCH_VOLUME_RECORD);
