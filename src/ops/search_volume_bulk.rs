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
    dsl::*, named, same_keyword, Array, ArrayRule, At, CheckContext, Node, Order, Record, RuleCode,
    SeqKey, StringRule,
};

super::record! {
    /// One month of searches (element of `TARGETED_MONTHLY_SEARCHES`).
    pub struct MonthlySearch {
        /// English full month name (`January`).
        req month: String = string(&[StringRule::MonthName]),
        /// Four-digit year.
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
        checks: &[named!(monthly_entry, MONTHLY_ENTRY_JS)],
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

/// JS twin of `monthly_entry` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const MONTHLY_ENTRY_JS: &str = r#"(cx, record) => {
  const count = int(record, 'count'), value = int(record, 'value');
  if (count !== undefined && value !== undefined && count !== value) {
    cx.warning('count', C.CountValue, `count ${count} differs from value ${value} (equal in every observed entry)`);
  }
  const date = str(record, 'date');
  if (date === undefined) return;
  const dash = date.indexOf('-');
  const yearText = dash < 0 ? date : date.slice(0, dash);
  const monthText = dash < 0 ? '' : date.slice(dash + 1);
  const year = int(record, 'year'), month = str(record, 'month');
  const yearOk = /^[0-9]{4}$/.test(yearText) && (year === undefined || Number(yearText) === year);
  const monthOk = month !== undefined ? month === monthText : MONTH_NAMES.includes(monthText);
  if (!yearOk || !monthOk) {
    const want = year !== undefined && month !== undefined ? `${year}-${month}` : '<year>-<MonthName>';
    cx.error('date', C.Date, `date ${debug(date)} is not ${debug(want)} (<year>-<MonthName> of this entry)`);
  }
}"#;

/// Chronological key of a monthly entry: year × 12 + month index.
fn month_key(record: &Record<'_, '_>) -> Option<i64> {
    let y = record.int("year")?;
    let m = record.str("month")?;
    let idx = MONTH_NAMES.iter().position(|n| *n == m)?;
    // Saturating: a hostile `year` must not overflow (the order rule still compares).
    Some(y.saturating_mul(12).saturating_add(idx as i64))
}

/// JS twin of `month_key` (`satMulAdd`: the same saturating `i64` arithmetic, exact) (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const MONTH_KEY_JS: &str = r#"(record) => {
  const year = int(record, 'year'), month = str(record, 'month');
  if (year === undefined || month === undefined) return undefined;
  const index = MONTH_NAMES.indexOf(month);
  return index < 0 ? undefined : satMulAdd(year, 12, index);
}"#;

super::record! {
    /// Search volume record: the bulk array element and the single response object.
    pub struct SearchVolumeRecord {
        /// Country code, lower case in responses.
        req ccode: String = string(&[StringRule::Lowercase]),
        /// The keyword.
        req keyword: String = STR,
        /// Average cost per click.
        req "AVERAGE_CPC" average_cpc: f64 = NUM,
        /// Competition, observed between 0 and 1.
        req "COMPETITION" competition: f64 = num(&[range(0.0, 1.0, Warning)]),
        /// Headline volume.
        req "SEARCH_VOLUME" search_volume: i64 = INT,
        /// 12 monthly entries, oldest first.
        req "TARGETED_MONTHLY_SEARCHES" targeted_monthly_searches: Vec<MonthlySearch> = array(&Array {
            items: object(&MONTHLY_SEARCH),
            rules: &[
                ArrayRule::Len {
                    min: 12,
                    max: 12,
                    severity: Error,
                    code: RuleCode::MonthlyCount,
                },
                ArrayRule::Seq {
                    field: "date",
                    key: SeqKey::Custom(named!(month_key, MONTH_KEY_JS)),
                    order: Order::StrictAsc,
                    severity: Error,
                    code: RuleCode::Order,
                    what: "monthly entries must be in chronological order, oldest first",
                },
            ],
        }),
    }
    /// Shape and rules of a search volume record (bulk element and single response):
    /// 12 monthly entries, strictly oldest first (errors `monthly_count`, `order`); `ccode`
    /// lower case (error `lowercase`); `COMPETITION` observed 0..1 (warning `range`).
    /// With the request: `ccode` equals the request's, lower-cased (error `request_ccode`), and
    /// for `search_volume/single` `keyword` is the requested one ([`same_keyword`], error
    /// `request_keyword`).
    pub const SEARCH_VOLUME_RECORD: Object {
        checks: &[named!(record_vs_request, RECORD_VS_REQUEST_JS)],
    };
}

fn record_vs_request(context: &mut CheckContext<'_>, record: &Record<'_, '_>) {
    let (ccode, keyword) = match context.request::<super::Request>() {
        Some(super::Request::SearchVolumeBulk(request)) => (&request.ccode, None),
        Some(super::Request::SearchVolumeSingle(request)) => {
            (&request.ccode, Some(&request.keyword))
        }
        _ => return,
    };
    if let Some(got) = record.str("ccode") {
        let want = ccode.to_ascii_lowercase();
        if *got != want {
            context.error(
                At::Key("ccode"),
                RuleCode::RequestCcode,
                format!("ccode {got:?} is not the requested {ccode:?} lower-cased ({want:?})"),
            );
        }
    }
    if let (Some(want), Some(got)) = (keyword, record.str("keyword")) {
        if !same_keyword(&got, want) {
            context.error(
                At::Key("keyword"),
                RuleCode::RequestKeyword,
                format!("keyword {got:?} is not the requested {want:?}"),
            );
        }
    }
}

/// JS twin of `record_vs_request` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const RECORD_VS_REQUEST_JS: &str = r#"(cx, record) => {
  const request = cx.request;
  if (request === undefined) return;
  let keyword;
  if (cx.operation === OP.SearchVolumeSingle) keyword = request.keyword;
  else if (cx.operation !== OP.SearchVolumeBulk) return;
  const ccode = request.ccode;
  const got = str(record, 'ccode');
  if (got !== undefined) {
    const want = asciiLower(ccode);
    if (got !== want) {
      cx.error('ccode', C.RequestCcode, `ccode ${debug(got)} is not the requested ${debug(ccode)} lower-cased (${debug(want)})`);
    }
  }
  const gotKeyword = str(record, 'keyword');
  if (keyword !== undefined && gotKeyword !== undefined && !sameKeyword(gotKeyword, keyword)) {
    cx.error('keyword', C.RequestKeyword, `keyword ${debug(gotKeyword)} is not the requested ${debug(keyword)}`);
  }
}"#;

/// Response rules: an array of [`SEARCH_VOLUME_RECORD`]s; with the request, one per
/// requested keyword (error `record_count`) in request order (error `request_keyword`,
/// compared with [`same_keyword`]).
pub const RESPONSE: Node = array(&Array {
    items: object(&SEARCH_VOLUME_RECORD),
    rules: &[
        ArrayRule::Each(named!(bulk_keyword, BULK_KEYWORD_JS)),
        ArrayRule::End(named!(bulk_count, BULK_COUNT_JS)),
    ],
});

fn bulk_keyword(context: &mut CheckContext<'_>, index: usize, record: &Record<'_, '_>) {
    let Some(super::Request::SearchVolumeBulk(request)) = context.request::<super::Request>()
    else {
        return;
    };
    let (Some(want), Some(got)) = (request.keywords.get(index), record.str("keyword")) else {
        return;
    };
    if !same_keyword(&got, want) {
        context.error(
            At::Key("keyword"),
            RuleCode::RequestKeyword,
            format!("record {index} is for {got:?}; the request's keyword {index} is {want:?} (one record per keyword, in request order)"),
        );
    }
}

/// JS twin of `bulk_keyword` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const BULK_KEYWORD_JS: &str = r#"(cx, index, record) => {
  if (cx.operation !== OP.SearchVolumeBulk || cx.request === undefined) return;
  const want = cx.request.keywords[index], got = str(record, 'keyword');
  if (want === undefined || got === undefined || sameKeyword(got, want)) return;
  cx.error('keyword', C.RequestKeyword, `record ${index} is for ${debug(got)}; the request's keyword ${index} is ${debug(want)} (one record per keyword, in request order)`);
}"#;

fn bulk_count(context: &mut CheckContext<'_>, count: usize) {
    let Some(super::Request::SearchVolumeBulk(request)) = context.request::<super::Request>()
    else {
        return;
    };
    let want = request.keywords.len();
    if count != want {
        context.error(
            At::Here,
            RuleCode::RecordCount,
            format!("{count} records for {want} requested keywords (one per keyword expected)"),
        );
    }
}

/// JS twin of `bulk_count` (see [`crate::rules::Named`]).
#[cfg(not(target_arch = "wasm32"))]
const BULK_COUNT_JS: &str = r#"(cx, count) => {
  if (cx.operation !== OP.SearchVolumeBulk || cx.request === undefined) return;
  const want = cx.request.keywords.length;
  if (count !== want) {
    cx.error(null, C.RecordCount, `${count} records for ${want} requested keywords (one per keyword expected)`);
  }
}"#;
