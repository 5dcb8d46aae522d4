//! Rule codes: the stable names of the rules, as reports, stored records, the JS package and
//! the app carry them.

use std::fmt;

/// Declares [`RuleCode`] from one table: variant and its stable string.
macro_rules! rule_codes {
    ($( $(#[$doc:meta])* $variant:ident => $text:literal, )*) => {
        /// A rule's stable code. [`RuleCode::as_str`] is what an issue carries (`"type"`,
        /// `"missing_field"`, ...); the strings never change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleCode {
            $( $(#[$doc])* $variant, )*
        }

        impl RuleCode {
            /// Every code, in the order of the validator's module documentation (`validate`).
            pub const ALL: [RuleCode; [$($text),*].len()] = [$(RuleCode::$variant),*];

            /// The stable strings of [`Self::ALL`], in its order.
            pub const NAMES: [&'static str; [$($text),*].len()] = [$($text),*];

            /// The stable string: `"type"`, `"missing_field"`, ...
            pub const fn as_str(self) -> &'static str {
                // One table for both (the variants are numbered from 0 in `NAMES` order).
                RuleCode::NAMES[self as usize]
            }
        }
    };
}

rule_codes! {
    /// The body is not JSON (one error, with its position).
    Json => "json",
    /// A value of the wrong JSON type (also a float or string where an integer belongs).
    Type => "type",
    /// A required field is missing.
    MissingField => "missing_field",
    /// A key appears twice in one object.
    DuplicateField => "duplicate_field",
    /// The monthly searches are not 12 (or not as many as the spec says).
    MonthlyCount => "monthly_count",
    /// Elements out of the stated (error) or observed (warning) order.
    Order => "order",
    /// A date that is not the one its other fields say.
    Date => "date",
    /// Not an English full month name.
    MonthName => "month_name",
    /// A number outside its stated (error) or observed (warning) range.
    Range => "range",
    /// Upper-case letters where only lower case belongs.
    Lowercase => "lowercase",
    /// Not a number written as text (or empty, for unavailable): domain stats' values.
    NumberText => "number_text",
    /// Not a calendar date `YYYY-MM-DD`.
    DateFormat => "date_format",
    /// Not an ISO 8601 UTC timestamp.
    Timestamp => "timestamp",
    /// Not one of the listed values.
    Enum => "enum",
    /// Does not start with the required text.
    Prefix => "prefix",
    /// More elements than allowed.
    MaxItems => "max_items",
    /// Fewer elements than required.
    MinItems => "min_items",
    /// A hashtag entry of an undescribed shape.
    HashtagShape => "hashtag_shape",
    /// Not one record per requested item.
    RecordCount => "record_count",
    /// A record for another keyword than the requested one.
    RequestKeyword => "request_keyword",
    /// A record for another country than the requested one.
    RequestCcode => "request_ccode",
    /// A record for a URL that was not requested.
    RequestUrl => "request_url",
    /// A record for a domain that was not requested.
    RequestDomain => "request_domain",
    /// Monthly entries that skip a month.
    ConsecutiveMonths => "consecutive_months",
    /// A key the spec does not describe (forward compatible: a warning).
    UnknownField => "unknown_field",
    /// A monthly `count` that differs from its `value`.
    CountValue => "count_value",
    /// Daily statistics that skip days.
    ConsecutiveDays => "consecutive_days",
    /// Another number of daily statistics than observed.
    StatsCount => "stats_count",
    /// A record that says it failed.
    RecordError => "record_error",
    /// The request given is for another operation; request checks skipped.
    RequestOperation => "request_operation",
    /// A merged answer's record that answers no requested item.
    RecordUnmatched => "record_unmatched",
    /// An integer beyond ±(2^53 − 1) in a parsed value: `JSON.parse` may have rounded it
    /// (the JS package's parsed-value validator only; the text has the exact digits).
    UnsafeInteger => "unsafe_integer",
}

impl RuleCode {
    /// The code whose string is `text` (reading stored issues back).
    pub fn parse(text: &str) -> Option<RuleCode> {
        let index = RuleCode::NAMES.iter().position(|name| *name == text)?;
        RuleCode::ALL.get(index).copied()
    }
}

impl fmt::Display for RuleCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for RuleCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::RuleCode;

    #[test]
    fn codes_are_distinct_and_parse_back() {
        for (i, code) in RuleCode::ALL.iter().enumerate() {
            assert_eq!(RuleCode::parse(code.as_str()), Some(*code));
            assert!(RuleCode::ALL[..i]
                .iter()
                .all(|c| c.as_str() != code.as_str()));
        }
        assert_eq!(RuleCode::parse("nope"), None);
    }
}
