//! `POST /v1/search_volume/bulk`: volume, average CPC, competition and a 12-month breakdown
//! for many keywords. Also home of the search volume record shared with `search_volume/single`.

use super::{check, Operation, OperationRequest, Price, PriceUnit, RequestError};
use crate::money::Usd;

/// $0.0003 per keyword in the request.
pub const PRICE: Price = Price {
    usd: Usd::from_micros(300),
    unit: PriceUnit::PerKeyword,
};

super::request! {
    /// Request body: `{"key", "keywords", "ccode"}`.
    Request as SearchVolumeBulkRequest {
        /// Keywords to look up; one record comes back per keyword, in this order.
        keywords: Vec<String>,
        /// Two-letter country code, upper case in requests (`US`).
        ccode: String,
    }
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

pub use crate::rules::formats::MONTH_NAMES;

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

// ---------------------------------------------------------------------------------------
// The response records: struct, rules and TS type in one declaration each (read by the
// validator, `validate`, its JSON Schema export and the JS package's types).
// ---------------------------------------------------------------------------------------

use crate::rules::Severity::{Error, Warning};
use crate::rules::{
    dsl::*, named, Array, ArrayRule, At, CheckContext, Compare, Match, Node, Order, Record,
    RuleCode, SeqKey, StringRule,
};

super::record! {
    /// One month of searches (element of `TARGETED_MONTHLY_SEARCHES`).
    pub struct MonthlySearch {
        /// English full month name (`January`).
        /// Spec: "month | string | English full month name".
        req month: String = string(&[StringRule::MonthName]),
        /// Four-digit year.
        /// Spec: "year | integer | four-digit year".
        req year: i64 = int(&[range(1000.0, 9999.0, Error)]),
        /// Searches in that month.
        req value: i64 = INT,
        /// Equal to `value` in every observed entry.
        req count: i64 = INT,
        /// `<year>-<MonthName>`, e.g. `2024-March`.
        req date: String = doc(STR, "<year>-<MonthName>"),
    }
    /// Shape and rules of a monthly search entry:
    /// - `month` an English full month name, `year` four digits (errors: stated);
    /// - `date` is `<year>-<MonthName>` and must equal that entry's own `year` and `month`
    ///   (error `date`);
    /// - `count == value` only *observed* (warning `count_value`).
    pub const MONTHLY_SEARCH: Object {
        // Spec: "count | integer | equal to `value` in every observed entry" and "date | string | `<year>-<MonthName>`".
        checks: &[named!(monthly_entry, "monthlyEntry")],
    };
}

fn monthly_entry(context: &mut CheckContext<'_>, record: &Record<'_, '_>) {
    if let (Some(c), Some(v)) = (record.int("count"), record.int("value")) {
        if c != v {
            context.warning(
                At::Key("count"),
                RuleCode::CountValue,
                format!("count {c} differs from value {v} (equal in every observed entry)"),
            );
        }
    }
    if let Some(date) = record.str("date") {
        // The year part must be four digits equal to `year`; the month part must equal the
        // entry's `month` (a bad `month` is reported once, as `month_name`), or be a month
        // name when `month` is missing.
        let (ys, ms) = date.split_once('-').unwrap_or((&date, ""));
        let year_ok = ys.len() == 4
            && ys.bytes().all(|b| b.is_ascii_digit())
            && record
                .int("year")
                .is_none_or(|y| ys.parse::<i64>().ok() == Some(y));
        let month_ok = match record.str("month") {
            Some(m) => m == ms,
            None => MONTH_NAMES.contains(&ms),
        };
        if !year_ok || !month_ok {
            let want = match (record.int("year"), record.str("month")) {
                (Some(y), Some(m)) => format!("{y}-{m}"),
                _ => "<year>-<MonthName>".to_owned(),
            };
            context.error(
                At::Key("date"),
                RuleCode::Date,
                format!("date {date:?} is not {want:?} (<year>-<MonthName> of this entry)"),
            );
        }
    }
}

/// Chronological key of a monthly entry: year × 12 + month index.
fn month_key(record: &Record<'_, '_>) -> Option<i64> {
    let y = record.int("year")?;
    let m = record.str("month")?;
    let idx = MONTH_NAMES.iter().position(|n| *n == m)?;
    // Saturating: a hostile `year` must not overflow (the order rule still compares).
    Some(y.saturating_mul(12).saturating_add(idx as i64))
}

super::record! {
    /// Search volume record: the bulk array element and the single response object.
    pub struct SearchVolumeRecord {
        /// Country code, lower case in responses.
        /// Spec: "ccode | string | country code, lower case in responses".
        req ccode: String = string(&[StringRule::Lowercase]),
        /// The keyword.
        req keyword: String = STR,
        /// Average cost per click.
        req "AVERAGE_CPC" average_cpc: f64 = NUM,
        /// Competition, observed between 0 and 1.
        /// Spec: "COMPETITION | number | observed between 0 and 1".
        req "COMPETITION" competition: f64 = num(&[range(0.0, 1.0, Warning)]),
        /// Headline volume.
        req "SEARCH_VOLUME" search_volume: i64 = INT,
        /// 12 monthly entries, oldest first.
        req "TARGETED_MONTHLY_SEARCHES" targeted_monthly_searches: Vec<MonthlySearch> = array(&Array {
            items: object(&MONTHLY_SEARCH),
            rules: &[
                // Spec: "The array holds 12 entries in chronological order".
                ArrayRule::Len {
                    min: 12,
                    max: 12,
                    severity: Error,
                    code: RuleCode::MonthlyCount,
                },
                // Spec: "in chronological order, oldest first, latest month last".
                ArrayRule::Seq {
                    field: "date",
                    key: SeqKey::Custom(named!(month_key, "monthKey")),
                    order: Order::StrictAsc,
                    severity: Error,
                    code: RuleCode::Order,
                    what: "monthly entries must be in chronological order, oldest first",
                },
                // Decided: "a 12-month breakdown" whose "history spans 12 monthly entries"
                // is 12 consecutive months; a skipped month (chronological still) is an error
                // of its own. A step back is left to the order rule above.
                // Spec: "12-month breakdown"; "Monthly search history in search volume records spans 12 monthly entries".
                ArrayRule::Seq {
                    field: "date",
                    key: SeqKey::Custom(named!(month_key, "monthKey")),
                    order: Order::Step(1),
                    severity: Error,
                    code: RuleCode::ConsecutiveMonths,
                    what: "the 12 monthly entries are consecutive months",
                },
            ],
        }),
    }
    /// Shape and rules of a search volume record (bulk element and single response):
    /// 12 consecutive monthly entries, strictly oldest first (errors `monthly_count`, `order`,
    /// `consecutive_months`); `ccode`
    /// lower case (error `lowercase`); `COMPETITION` observed 0..1 (warning `range`).
    /// With the request: `ccode` equals the request's, lower-cased (error `request_ccode`), and
    /// for `search_volume/single` `keyword` is the requested one ([`crate::rules::same_keyword`], error
    /// `request_keyword`).
    pub const SEARCH_VOLUME_RECORD: Object {
        echoes: &[
            // Compared as keywords (case aside): upper case is the `lowercase` rule's.
            // Spec: "ccode | string | country code, lower case in responses" (of the requested country).
            same_as_request("ccode", "ccode", Compare::Keyword, RuleCode::RequestCcode),
            // Only `search_volume/single`'s request has a `keyword`; bulk's are `keywords`,
            // checked per record in `RESPONSE`.
            // Spec: "keyword | string | the keyword"; "Single returns one record object".
            same_keyword_as_request("keyword", "keyword"),
        ],
    };
}

/// Response rules: an array of [`SEARCH_VOLUME_RECORD`]s; with the request, one per
/// requested keyword (error `record_count`) in request order (error `request_keyword`,
/// compared with [`crate::rules::same_keyword`]).
pub const RESPONSE: Node = array(&Array {
    items: object(&SEARCH_VOLUME_RECORD),
    rules: &[
        // Spec: "Bulk returns an array of these records, one per requested keyword, in request order".
        echoes_request_items(
            "keyword",
            "keywords",
            Match::At,
            Compare::Keyword,
            RuleCode::RequestKeyword,
            Error,
        ),
        // Spec: "one per requested keyword, in request order".
        count_equals_request("keywords", Error),
    ],
});
