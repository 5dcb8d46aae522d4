//! The rule-breaking bodies, one set: per rule (and operation), a change to a valid body that
//! breaks that rule and no other. It serves the validator's rule tests
//! (`tests/validate_rules.rs` applies each to its valid body and asserts the code, severity
//! and first path; those bodies also feed the JS validators' differential test) and the
//! sandbox's `break=<rule>` fault (the entries with a [`Breaking::fault`] name, applied to a
//! generated body). A change reads the body it is given, so it breaks the same rule in any
//! valid body of its operation with the records it needs (most need one; a few, two).

use serde_json::Value;

use crate::ops::Operation::{self, *};
use crate::rules::RuleCode::{self, *};
use crate::rules::Severity::{self, Error, Warning};

/// A change to a valid body of [`Self::op`] that breaks one rule.
#[derive(Clone, Copy, Debug)]
pub struct Breaking {
    /// The operation.
    pub op: Operation,
    /// The rule's code, of every issue the broken body gets.
    pub code: RuleCode,
    /// Their severity.
    pub severity: Severity,
    /// The first issue's path in the rule tests' valid body (`tests/validate_common`).
    pub path: &'static str,
    /// Validated with the request (a rule that relates the body to its request).
    pub request: bool,
    /// The sandbox's `break=<name>` that applies this change, if any.
    pub fault: Option<&'static str>,
    /// The change.
    pub apply: fn(&mut Value),
}

const fn b(
    op: Operation,
    code: RuleCode,
    severity: Severity,
    path: &'static str,
    fault: Option<&'static str>,
    apply: fn(&mut Value),
) -> Breaking {
    Breaking {
        op,
        code,
        severity,
        path,
        request: false,
        fault,
        apply,
    }
}

/// The same, validated with the request.
const fn with_request(breaking: Breaking) -> Breaking {
    Breaking {
        request: true,
        ..breaking
    }
}

/// The record `i` of an array body (its last when shorter), or the object body itself.
fn at(v: &mut Value, i: usize) -> &mut Value {
    let last = v.as_array().map_or(0, |a| a.len().saturating_sub(1));
    if v.as_array().is_some_and(|a| !a.is_empty()) {
        &mut v[i.min(last)]
    } else {
        v
    }
}

/// The array at `key` of `v` (empty when there is none).
fn list<'v>(v: &'v mut Value, key: &str) -> &'v mut Vec<Value> {
    if !v[key].is_array() {
        v[key] = Value::Array(Vec::new());
    }
    match &mut v[key] {
        Value::Array(a) => a,
        _ => unreachable!("set to an array above"),
    }
}

/// The monthly searches of the first record.
fn monthly(v: &mut Value) -> &mut Vec<Value> {
    list(at(v, 0), "TARGETED_MONTHLY_SEARCHES")
}

/// A number sent as a string (a string sent as a number).
fn retype(v: &mut Value) {
    *v = match &*v {
        Value::String(s) => Value::from(s.parse::<i64>().unwrap_or(35)),
        other => Value::from(other.to_string()),
    };
}

fn remove(v: &mut Value, key: &str) {
    if let Value::Object(o) = v {
        o.remove(key);
    }
}

/// The changes of the search volume record, for bulk (`/0` first) and single (``).
macro_rules! search_volume {
    ($op:expr, $p:literal) => {
        [
            b(
                $op,
                Order,
                Error,
                concat!($p, "/TARGETED_MONTHLY_SEARCHES/1/date"),
                Some("order"),
                |v| {
                    // Newest first: every step goes back one month (so none is skipped).
                    monthly(v).reverse();
                },
            ),
            b(
                $op,
                ConsecutiveMonths,
                Error,
                concat!($p, "/TARGETED_MONTHLY_SEARCHES/6/date"),
                Some("consecutive_months"),
                |v| {
                    // Entries from the 7th a year later: chronological, with a gap.
                    for e in monthly(v).iter_mut().skip(6) {
                        let year = e["year"].as_i64().unwrap_or(2024) + 1;
                        let month = e["month"].as_str().unwrap_or("May").to_owned();
                        e["year"] = Value::from(year);
                        e["date"] = Value::from(format!("{year}-{month}"));
                    }
                },
            ),
            b(
                $op,
                MonthlyCount,
                Error,
                concat!($p, "/TARGETED_MONTHLY_SEARCHES"),
                Some("monthly_count"),
                |v| {
                    monthly(v).pop();
                },
            ),
            b(
                $op,
                CountValue,
                Warning,
                concat!($p, "/TARGETED_MONTHLY_SEARCHES/5/count"),
                Some("count"),
                |v| {
                    if let Some(e) = monthly(v).get_mut(5) {
                        e["count"] = Value::from(e["value"].as_i64().unwrap_or(0) + 7);
                    }
                },
            ),
            b(
                $op,
                Date,
                Error,
                concat!($p, "/TARGETED_MONTHLY_SEARCHES/11/date"),
                Some("date"),
                |v| {
                    if let Some(e) = monthly(v).last_mut() {
                        e["date"] = Value::from("2024-3");
                    }
                },
            ),
            b(
                $op,
                Type,
                Error,
                concat!($p, "/SEARCH_VOLUME"),
                Some("type"),
                |v| retype(&mut at(v, 0)["SEARCH_VOLUME"]),
            ),
            b(
                $op,
                MissingField,
                Error,
                concat!($p, "/AVERAGE_CPC"),
                Some("missing_field"),
                |v| remove(at(v, 0), "AVERAGE_CPC"),
            ),
            b(
                $op,
                Range,
                Warning,
                concat!($p, "/COMPETITION"),
                Some("range"),
                |v| at(v, 0)["COMPETITION"] = Value::from(1.7),
            ),
            b(
                $op,
                Lowercase,
                Error,
                concat!($p, "/ccode"),
                Some("ccode"),
                |v| {
                    let r = at(v, 0);
                    r["ccode"] =
                        Value::from(r["ccode"].as_str().unwrap_or("us").to_ascii_uppercase());
                },
            ),
            with_request(b(
                $op,
                RequestCcode,
                Error,
                concat!($p, "/ccode"),
                None,
                |v| {
                    let r = at(v, 0);
                    let other = if r["ccode"] == "zz" { "zy" } else { "zz" };
                    r["ccode"] = Value::from(other);
                },
            )),
        ]
    };
}

const SEARCH_VOLUME_BULK: [Breaking; 10] = search_volume!(SearchVolumeBulk, "/0");
const SEARCH_VOLUME_SINGLE: [Breaking; 10] = search_volume!(SearchVolumeSingle, "");

/// A keyword no request of the tests or the sandbox asks for.
const UNASKED: &str = "an unrequested keyword";

const OTHERS: &[Breaking] = &[
    with_request(b(
        SearchVolumeBulk,
        RequestKeyword,
        Error,
        "/1/keyword",
        None,
        |v| at(v, 1)["keyword"] = Value::from(UNASKED),
    )),
    with_request(b(SearchVolumeBulk, RecordCount, Error, "", None, |v| {
        if let Value::Array(a) = v {
            a.pop();
        }
    })),
    with_request(b(
        SearchVolumeSingle,
        RequestKeyword,
        Error,
        "/keyword",
        None,
        |v| v["keyword"] = Value::from(UNASKED),
    )),
    // Domain stats.
    b(DomainStats, Type, Error, "/0/alphaDA", Some("type"), |v| {
        retype(&mut at(v, 0)["alphaDA"])
    }),
    b(
        DomainStats,
        MissingField,
        Error,
        "/0/betaCF",
        Some("missing_field"),
        |v| remove(at(v, 0), "betaCF"),
    ),
    b(DomainStats, NumberText, Error, "/0/alphaLinks", None, |v| {
        at(v, 0)["alphaLinks"] = Value::from("12k")
    }),
    b(
        DomainStats,
        Enum,
        Warning,
        "/0/betaStatReturned",
        None,
        |v| at(v, 0)["betaStatReturned"] = Value::from("subdomain"),
    ),
    with_request(b(
        DomainStats,
        RequestDomain,
        Warning,
        "/0/domain",
        None,
        |v| at(v, 0)["domain"] = Value::from("unrequested.example"),
    )),
    with_request(b(
        DomainStats,
        RequestDomain,
        Warning,
        "/1/domainAsEntered",
        None,
        |v| at(v, 1)["domainAsEntered"] = Value::from("unrequested.example"),
    )),
    with_request(b(DomainStats, RecordCount, Warning, "", None, |v| {
        if let Value::Array(a) = v {
            let copy = a.last().cloned();
            a.extend(copy);
        }
    })),
    // Backlink metrics.
    b(
        BacklinkMetrics,
        Type,
        Error,
        "/0/backlinks",
        Some("type"),
        |v| retype(&mut at(v, 0)["backlinks"]),
    ),
    b(
        BacklinkMetrics,
        MissingField,
        Error,
        "/0/url",
        Some("missing_field"),
        |v| remove(at(v, 0), "url"),
    ),
    with_request(b(BacklinkMetrics, RecordCount, Error, "", None, |v| {
        if let Value::Array(a) = v {
            a.pop();
        }
    })),
    with_request(b(BacklinkMetrics, RequestUrl, Error, "/1/url", None, |v| {
        at(v, 1)["url"] = Value::from("https://unrequested.example/")
    })),
    // Ranked keywords.
    b(
        RankedKeywordsMetrics,
        Type,
        Error,
        "/0/total_ranked_keywords",
        Some("type"),
        |v| retype(&mut at(v, 0)["total_ranked_keywords"]),
    ),
    b(
        RankedKeywordsMetrics,
        MissingField,
        Error,
        "/0/domain",
        Some("missing_field"),
        |v| remove(at(v, 0), "domain"),
    ),
    b(
        RankedKeywordsMetrics,
        UnknownField,
        Warning,
        "/0/position_61_70",
        None,
        |v| at(v, 0)["position_61_70"] = Value::from(3),
    ),
    b(
        RankedKeywordsDomain,
        Type,
        Error,
        "/0/rank",
        Some("type"),
        |v| retype(&mut at(v, 0)["rank"]),
    ),
    b(
        RankedKeywordsDomain,
        MissingField,
        Error,
        "/0/keyword",
        Some("missing_field"),
        |v| remove(at(v, 0), "keyword"),
    ),
    b(
        RankedKeywordsDomain,
        Range,
        Warning,
        "/0/competition",
        Some("range"),
        |v| at(v, 0)["competition"] = Value::from(250.0),
    ),
    b(RankedKeywordsDomain, Range, Warning, "/0/rank", None, |v| {
        at(v, 0)["rank"] = Value::from(0)
    }),
    b(RankedKeywordsDomain, Prefix, Warning, "/0/url", None, |v| {
        at(v, 0)["url"] = Value::from("ftp://example.com/")
    }),
    // Backlink overview.
    b(
        BacklinkOverview,
        Type,
        Error,
        "/metrics/backlinks",
        Some("type"),
        |v| retype(&mut v["metrics"]["backlinks"]),
    ),
    b(
        BacklinkOverview,
        MissingField,
        Error,
        "/stats",
        Some("missing_field"),
        |v| remove(v, "stats"),
    ),
    b(
        BacklinkOverview,
        Order,
        Error,
        "/stats/1/date",
        Some("order"),
        |v| list(v, "stats").reverse(),
    ),
    b(
        BacklinkOverview,
        DateFormat,
        Error,
        "/stats/0/date",
        Some("date"),
        |v| {
            if let Some(e) = list(v, "stats").first_mut() {
                e["date"] = Value::from("03/05/2024");
            }
        },
    ),
    b(BacklinkOverview, StatsCount, Warning, "/stats", None, |v| {
        list(v, "stats").pop();
    }),
    b(
        BacklinkOverview,
        Range,
        Warning,
        "/ref_newlost/0/domain_inlink_rank",
        Some("range"),
        |v| {
            if let Some(e) = list(v, "ref_newlost").first_mut() {
                e["domain_inlink_rank"] = Value::from(150);
            }
        },
    ),
    b(
        BacklinkOverview,
        Enum,
        Error,
        "/ref_newlost/0/new_lost_type",
        None,
        |v| {
            if let Some(e) = list(v, "ref_newlost").first_mut() {
                e["new_lost_type"] = Value::from("gained");
            }
        },
    ),
    b(
        BacklinkOverview,
        Timestamp,
        Error,
        "/metrics/createdAt",
        None,
        |v| v["metrics"]["createdAt"] = Value::from("2024-01-02 03:04:05"),
    ),
    with_request(b(
        BacklinkOverview,
        RequestDomain,
        Error,
        "/metrics/url",
        None,
        |v| v["metrics"]["url"] = Value::from("unrequested.example"),
    )),
    // SEO outline.
    b(OutlineSeo, Type, Error, "/0/rank", Some("type"), |v| {
        retype(&mut at(v, 0)["rank"])
    }),
    b(
        OutlineSeo,
        MissingField,
        Error,
        "/0/url",
        Some("missing_field"),
        |v| remove(at(v, 0), "url"),
    ),
    b(OutlineSeo, Order, Error, "/1/rank", Some("order"), |v| {
        // The first record after one of a larger rank (a copy when there is one record).
        if let Value::Array(a) = v {
            let Some(first) = a.first().cloned() else {
                return;
            };
            let mut before = first.clone();
            before["rank"] = Value::from(first["rank"].as_i64().unwrap_or(1) + 1);
            a.insert(0, before);
            a.truncate(10);
        }
    }),
    b(OutlineSeo, Range, Warning, "/0/rank", None, |v| {
        at(v, 0)["rank"] = Value::from(0)
    }),
    b(OutlineSeo, MaxItems, Error, "", None, |v| {
        if let Value::Array(a) = v {
            while let (true, Some(last)) = (a.len() <= 10, a.last().cloned()) {
                a.push(last);
            }
        }
    }),
    b(OutlineSeo, Enum, Warning, "/0/headings/0/type", None, |v| {
        let r = at(v, 0);
        if let Some(h) = list(r, "headings").first_mut() {
            h["type"] = Value::from("h5");
        } else {
            r["headings"] = serde_json::json!([{"type": "h5", "text": "x"}]);
        }
    }),
    // Microblog.
    b(MicroblogPost, Type, Error, "/0/likes", Some("type"), |v| {
        retype(&mut at(v, 0)["likes"])
    }),
    b(
        MicroblogPost,
        MissingField,
        Error,
        "/0/url",
        Some("missing_field"),
        |v| remove(at(v, 0), "url"),
    ),
    b(
        MicroblogPost,
        Prefix,
        Error,
        "/0/hashtags/0",
        Some("prefix"),
        |v| {
            let r = at(v, 0);
            r["hashtags"] = Value::from(vec!["nohash"]);
            r["tagged"] = Value::from(vec!["noat"]);
        },
    ),
    b(
        MicroblogPost,
        Timestamp,
        Error,
        "/0/posted_on",
        Some("date"),
        |v| at(v, 0)["posted_on"] = Value::from("2 days ago"),
    ),
    // Video.
    b(VideoVideo, Type, Error, "/0/views", Some("type"), |v| {
        retype(&mut at(v, 0)["views"])
    }),
    b(
        VideoVideo,
        MissingField,
        Error,
        "/0/url",
        Some("missing_field"),
        |v| remove(at(v, 0), "url"),
    ),
    b(
        VideoVideo,
        Timestamp,
        Error,
        "/0/posted_on",
        Some("date"),
        |v| at(v, 0)["posted_on"] = Value::from("2 days ago"),
    ),
    b(VideoVideo, Range, Warning, "/0/likes", None, |v| {
        at(v, 0)["likes"] = Value::from(5)
    }),
    b(VideoVideo, RecordError, Warning, "/0/error", None, |v| {
        at(v, 0)["error"] = Value::from(true)
    }),
    b(VideoVideo, MinItems, Error, "/0/keywords", None, |v| {
        at(v, 0)["keywords"] = serde_json::json!([])
    }),
    with_request(b(
        VideoVideo,
        RequestKeyword,
        Error,
        "/0/keywords/0",
        None,
        |v| {
            at(v, 0)["keywords"] = serde_json::json!([UNASKED]);
        },
    )),
    // Related.
    b(
        Related,
        Type,
        Error,
        "/0/search_volume",
        Some("type"),
        |v| retype(&mut at(v, 0)["search_volume"]),
    ),
    b(
        Related,
        MissingField,
        Error,
        "/0/keyword",
        Some("missing_field"),
        |v| remove(at(v, 0), "keyword"),
    ),
    b(
        Related,
        Order,
        Warning,
        "/1/search_volume",
        Some("order"),
        |v| {
            // A record after the first with more volume (a copy when there is one record).
            if let Value::Array(a) = v {
                let Some(first) = a.first().cloned() else {
                    return;
                };
                let mut more = first.clone();
                more["search_volume"] =
                    Value::from(first["search_volume"].as_i64().unwrap_or(0) + 1_000);
                a.insert(1, more);
            }
        },
    ),
    b(Related, Range, Warning, "/0/kd", Some("range"), |v| {
        at(v, 0)["kd"] = Value::from(140)
    }),
];

/// Every rule-breaking change, by operation.
pub fn all() -> impl Iterator<Item = &'static Breaking> {
    SEARCH_VOLUME_BULK
        .iter()
        .chain(&SEARCH_VOLUME_SINGLE)
        .chain(OTHERS)
}

/// The change the sandbox's `break=<fault>` applies to a body of `op`, if any.
pub fn for_fault(op: Operation, fault: &str) -> Option<&'static Breaking> {
    all().find(|b| b.op == op && b.fault == Some(fault))
}
