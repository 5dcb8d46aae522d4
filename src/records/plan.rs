//! The planner and the merge: which requested records are already bought, what is left to
//! buy and at what price, and the answer that puts stored and new records in request order.

use super::key::{request_keys, RecordKey, RecordKind};
use crate::json::{Scanner, Start};
use crate::money::Usd;
use crate::ops::Request;
use crate::rules::RuleCode;
use crate::validate::{Issue, Report, Severity};

/// One bought record as a record store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRecord {
    /// The record's JSON exactly as the service wrote it (one array element, or the single
    /// response object).
    pub json: String,
    /// When it was bought, in milliseconds since the Unix epoch.
    pub bought_at_ms: f64,
    /// The validation issues found in it when it was bought, paths relative to the record
    /// (`""` is the record, `/keyword` a field). Empty when it was not validated.
    pub issues: Vec<Issue>,
    /// It came from an imported file: shown, but never counted as bought here.
    pub imported: bool,
}

/// How to plan a call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanOptions {
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: f64,
    /// A stored record older than this is stale and bought again; `None`: no expiry.
    pub max_age_ms: Option<f64>,
    /// Buy every requested record again, stored or not.
    pub refresh: bool,
}

impl StoredRecord {
    /// Whether this record answers a call planned with `options`.
    pub fn usable(&self, options: &PlanOptions) -> bool {
        !options.refresh
            && !self.imported
            && options
                .max_age_ms
                .is_none_or(|max| options.now_ms - self.bought_at_ms <= max)
    }
}

/// A planned call: per requested position the stored record that answers it, and the
/// sub-request that buys the rest.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The record kind.
    pub kind: RecordKind,
    /// The key of every requested position, in request order.
    pub keys: Vec<RecordKey>,
    /// The stored record answering each position (`None`: bought by this call).
    pub stored: Vec<Option<StoredRecord>>,
    /// What is sent: the requested items not stored, each once, in request order (`None`
    /// when every record is stored and the call costs nothing).
    pub to_buy: Option<Request>,
    /// The keys of `to_buy`'s items, in its order.
    pub buy_keys: Vec<RecordKey>,
    /// Positions whose stored record was too old (or imported, or refreshed) and is bought again.
    pub stale: usize,
    /// The price of `to_buy`.
    pub estimate: Usd,
    /// Where the records are bought (keys of bought records are made with it).
    source: String,
    /// The request is `search_volume/single`: the answer is one record object.
    single: bool,
}

impl Plan {
    /// Plans `request` for records bought from `source`. `stored` holds, for each key of
    /// [`super::request_keys`] (in request order), the record a store found for it.
    /// `None` for an operation priced per request.
    pub fn new(
        request: &Request,
        source: &str,
        mut stored: Vec<Option<StoredRecord>>,
        options: &PlanOptions,
    ) -> Option<Plan> {
        let (kind, keys) = request_keys(request, source)?;
        let items = items_of(request);
        stored.resize(keys.len(), None);
        let mut stale = 0;
        let mut seen = Interner::with_capacity(keys.len());
        let mut chosen: Vec<String> = Vec::new();
        let mut buy_keys: Vec<RecordKey> = Vec::new();
        for (i, (key, slot)) in keys.iter().zip(stored.iter_mut()).enumerate() {
            if slot.as_ref().is_some_and(|r| !r.usable(options)) {
                stale += 1;
                *slot = None;
            }
            if slot.is_none() && seen.insert(key.as_str()) {
                chosen.push(items[i].to_string());
                buy_keys.push(key.clone());
            }
        }
        let to_buy = (!chosen.is_empty()).then(|| with_items(request, chosen));
        let estimate = to_buy.as_ref().map_or(Usd::ZERO, crate::ops::estimate_cost);
        Some(Plan {
            kind,
            keys,
            stored,
            to_buy,
            buy_keys,
            stale,
            estimate,
            source: source.to_string(),
            single: matches!(request, Request::SearchVolumeSingle(_)),
        })
    }

    /// Positions answered by stored records.
    pub fn reused(&self) -> usize {
        self.stored.iter().filter(|s| s.is_some()).count()
    }

    /// Records this call buys (each distinct item once).
    pub fn new_records(&self) -> usize {
        self.buy_keys.len()
    }

    /// "1 new keyword · 10 already bought" (or "all 10 keywords already bought").
    pub fn summary(&self) -> String {
        let noun = |n: usize| {
            let w = self.kind.noun();
            if n == 1 {
                w.to_string()
            } else {
                format!("{w}s")
            }
        };
        let (new, reused) = (self.new_records(), self.reused());
        match (new, reused) {
            (0, r) => format!("all {r} {} already bought", noun(r)),
            (n, 0) => format!("{n} new {}", noun(n)),
            (n, r) => format!("{n} new {} · {r} already bought", noun(n)),
        }
    }

    /// The answer: stored and `bought` records in request order (a record object for
    /// `search_volume/single`). `validated`: whether a report is wanted when nothing was
    /// bought (stored records keep the report they had).
    pub fn merge(&self, bought: Option<Bought<'_>>, validated: bool) -> Merged {
        let single = self.single;
        let (items, sub_report, at) = match &bought {
            Some(b) => (
                if single {
                    vec![b.body.trim()]
                } else {
                    array_items(b.body).unwrap_or_default()
                },
                b.report,
                b.at_ms,
            ),
            None => (Vec::new(), None, 0.0),
        };
        let ccode = self.to_buy.as_ref().map(ccode_of).unwrap_or_default();

        // Which bought record answers which wanted key: exactly one record per key.
        let mut wanted = Interner::with_capacity(self.buy_keys.len());
        for k in &self.buy_keys {
            wanted.insert(k.as_str());
        }
        let mut item_ids: Vec<Option<usize>> = items
            .iter()
            .map(|item| {
                let k = item_key(self.kind, &self.source, &ccode, item)?;
                wanted.find(k.as_str())
            })
            .collect();
        // Search volume answers one record per keyword sent, in request order (the spec):
        // with as many records as keywords, and no record matched elsewhere by its echo,
        // position decides (an echo the service changed then loses no record; the validator
        // still reports it).
        let by_position = self.kind == RecordKind::SearchVolume
            && !single
            && items.len() == self.buy_keys.len()
            && item_ids
                .iter()
                .enumerate()
                .all(|(j, id)| id.is_none_or(|id| id == j));
        if by_position {
            item_ids = (0..items.len()).map(Some).collect();
        }
        if self.kind == RecordKind::BacklinkMetrics {
            self.match_domain_echoes(&items, &mut item_ids);
        }
        let mut count = vec![0u32; self.buy_keys.len()];
        for id in item_ids.iter().flatten() {
            count[*id] += 1;
        }
        // The bought record answering each wanted key, by the key's id.
        let mut answer: Vec<Option<usize>> = vec![None; self.buy_keys.len()];
        for (j, id) in item_ids.iter().enumerate() {
            if let Some(id) = id.filter(|id| count[*id] == 1) {
                answer[id] = Some(j);
            }
        }

        // The answer in request order; then bought records that answer no position.
        let mut parts: Vec<&str> = Vec::with_capacity(self.keys.len());
        let mut issues: Vec<Issue> = Vec::new();
        let mut placed: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
        let mut from_store = 0;
        let mut missing = Vec::new();
        for (p, key) in self.keys.iter().enumerate() {
            let at_path = |rel: &str| {
                if single {
                    rel.to_string()
                } else {
                    format!("/{}{rel}", parts.len())
                }
            };
            if let Some(s) = &self.stored[p] {
                issues.extend(s.issues.iter().map(|i| Issue {
                    path: at_path(&i.path),
                    ..i.clone()
                }));
                parts.push(&s.json);
                from_store += 1;
            } else if let Some(j) = wanted.find(key.as_str()).and_then(|id| answer[id]) {
                placed[j].push(parts.len());
                parts.push(items[j]);
            } else {
                missing.push(p);
            }
        }
        let mut unmatched = 0;
        for (j, item) in items.iter().enumerate() {
            if placed[j].is_empty() {
                unmatched += 1;
                let at = parts.len();
                placed[j].push(at);
                parts.push(item);
                issues.push(Issue {
                    path: if single { String::new() } else { format!("/{at}") },
                    code: RuleCode::RecordUnmatched.as_str(),
                    severity: Severity::Warning,
                    message: "matches no requested item, or one another record matched: kept in the answer, not stored for reuse".into(),
                });
            }
        }

        // The sub-request's issues at the merged positions; each new record's own issues.
        let mut per_item: Vec<Vec<Issue>> = vec![Vec::new(); items.len()];
        let mut omitted = (0, 0);
        if let Some(r) = sub_report {
            omitted = (
                r.error_count().saturating_sub(r.errors().count()),
                r.warning_count().saturating_sub(r.warnings().count()),
            );
            for issue in &r.issues {
                let (j, rel) = if single {
                    (Some(0), issue.path.as_str())
                } else {
                    split_index(&issue.path)
                };
                match j.filter(|&j| j < items.len()) {
                    Some(j) => {
                        for &at in &placed[j] {
                            issues.push(Issue {
                                path: if single {
                                    rel.to_string()
                                } else {
                                    format!("/{at}{rel}")
                                },
                                ..issue.clone()
                            });
                        }
                        per_item[j].push(Issue {
                            path: rel.to_string(),
                            ..issue.clone()
                        });
                    }
                    None => issues.push(issue.clone()),
                }
            }
        }
        let fresh: Vec<(RecordKey, StoredRecord)> = answer
            .iter()
            .zip(&self.buy_keys)
            .filter_map(|(j, key)| {
                let j = (*j)?;
                Some((
                    key.clone(),
                    StoredRecord {
                        json: items[j].to_string(),
                        bought_at_ms: at,
                        issues: std::mem::take(&mut per_item[j]),
                        imported: false,
                    },
                ))
            })
            .collect();

        let body = if single {
            parts.first().map_or_else(String::new, |p| p.to_string())
        } else {
            let mut s = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum::<usize>() + 2);
            s.push('[');
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(p);
            }
            s.push(']');
            s
        };
        let report = (sub_report.is_some() || (bought.is_none() && validated))
            .then(|| Report::from_parts(issues, omitted.0, omitted.1));
        Merged {
            body,
            report,
            fresh,
            from_store,
            unmatched,
            missing,
        }
    }
}

impl Plan {
    /// `backlink/metrics` answers with `url` "the URL or domain queried": a record matched by
    /// no key whose `url` is the host (normalised, `www.` dropped) of exactly one queried URL
    /// that no record matched belongs to that URL.
    fn match_domain_echoes(&self, items: &[&str], item_ids: &mut [Option<usize>]) {
        let Some(Request::BacklinkMetrics(q)) = &self.to_buy else {
            return;
        };
        // `to_buy` holds the URLs of `buy_keys`, in their order.
        let mut taken = vec![false; q.urls.len()];
        for id in item_ids.iter().flatten() {
            if let Some(t) = taken.get_mut(*id) {
                *t = true;
            }
        }
        let hosts: Vec<String> = q.urls.iter().map(|u| host_of(u)).collect();
        for (j, item) in items.iter().enumerate() {
            if item_ids[j].is_some() {
                continue;
            }
            let Some(echo) = string_member(item, "url") else {
                continue;
            };
            let echo = super::key::normalize_domain(&echo);
            let mut open = (0..hosts.len()).filter(|&i| !taken[i] && hosts[i] == echo);
            if let (Some(i), None) = (open.next(), open.next()) {
                // Two records echoing one host both claim it: the merge's count leaves them
                // unmatched.
                item_ids[j] = Some(i);
            }
        }
    }
}

/// The host of a URL as record keys see a domain: scheme, user, port, path, query and
/// fragment dropped, then [`super::key::normalize_domain`].
fn host_of(url: &str) -> String {
    let rest = url.trim();
    let rest = rest.split_once("://").map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    };
    super::key::normalize_domain(host)
}

/// What the sub-request bought.
#[derive(Clone, Copy, Debug)]
pub struct Bought<'a> {
    /// The response body (already known to be JSON).
    pub body: &'a str,
    /// Its validation report, if validated.
    pub report: Option<&'a Report>,
    /// When it was bought (ms since the epoch).
    pub at_ms: f64,
}

/// The merged answer of a planned call.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The answer's JSON: records in request order (stored ones as they were stored), then
    /// any bought record that answers no requested item.
    pub body: String,
    /// The merged report: stored records' issues and the sub-request's, at their positions
    /// in `body`.
    pub report: Option<Report>,
    /// New records to store, each matched to exactly one requested item.
    pub fresh: Vec<(RecordKey, StoredRecord)>,
    /// Positions answered from stored records.
    pub from_store: usize,
    /// Bought records kept in the answer but not stored (they match no requested item, or
    /// several records match the same item).
    pub unmatched: usize,
    /// Requested positions no record answers (the service left them out).
    pub missing: Vec<usize>,
}

/// The requested items in request order, as written.
fn items_of(request: &Request) -> Vec<&str> {
    match request {
        Request::SearchVolumeBulk(q) => q.keywords.iter().map(String::as_str).collect(),
        Request::SearchVolumeSingle(q) => vec![q.keyword.as_str()],
        Request::DomainStats(q) => q.domains.iter().map(String::as_str).collect(),
        Request::BacklinkMetrics(q) => q.urls.iter().map(String::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `request` asking for `items` only.
fn with_items(request: &Request, items: Vec<String>) -> Request {
    let mut r = request.clone();
    match &mut r {
        Request::SearchVolumeBulk(q) => q.keywords = items,
        Request::DomainStats(q) => q.domains = items,
        Request::BacklinkMetrics(q) => q.urls = items,
        _ => {}
    }
    r
}

fn ccode_of(request: &Request) -> String {
    match request {
        Request::SearchVolumeBulk(q) => q.ccode.clone(),
        Request::SearchVolumeSingle(q) => q.ccode.clone(),
        _ => String::new(),
    }
}

/// The key of a bought record, from the field that names its item.
fn item_key(kind: RecordKind, source: &str, ccode: &str, item: &str) -> Option<RecordKey> {
    use super::key::{domain_key, search_volume_key, url_key};
    Some(match kind {
        RecordKind::SearchVolume => {
            search_volume_key(source, ccode, &string_member(item, "keyword")?)
        }
        RecordKind::DomainStats => {
            let entered = string_member(item, "domainAsEntered").filter(|d| !d.trim().is_empty());
            domain_key(source, &entered.or_else(|| string_member(item, "domain"))?)
        }
        RecordKind::BacklinkMetrics => url_key(source, &string_member(item, "url")?),
    })
}

/// The elements of a JSON array text, each as its trimmed text; `None` when it is not an array.
pub(crate) fn array_items(body: &str) -> Option<Vec<&str>> {
    let mut s = Scanner::new(body);
    if s.start().ok()? != Start::Array {
        return None;
    }
    s.arr_begin().ok()?;
    let mut out = Vec::new();
    let mut first = true;
    while s.arr_next(first).ok()? {
        first = false;
        s.ws();
        let start = s.pos;
        s.skip().ok()?;
        out.push(body.get(start..s.pos)?.trim());
    }
    Some(out)
}

/// The string value of a top-level member of a JSON object text.
fn string_member(object: &str, name: &str) -> Option<String> {
    let mut s = Scanner::new(object);
    if s.start().ok()? != Start::Object {
        return None;
    }
    s.obj_begin().ok()?;
    let mut first = true;
    while let Some(k) = s.obj_key(first).ok()? {
        first = false;
        if k.eq_str(name) {
            s.ws();
            if s.next_byte() != Some(b'"') {
                return None;
            }
            return Some(s.string().ok()?.text().into_owned());
        }
        s.skip().ok()?;
    }
    None
}

/// `/12/keyword` → (Some(12), "/keyword"); a path not under an element → (None, path).
fn split_index(path: &str) -> (Option<usize>, &str) {
    let Some(rest) = path.strip_prefix('/') else {
        return (None, path);
    };
    let end = rest.find('/').unwrap_or(rest.len());
    let index = &rest[..end];
    match index.parse::<usize>() {
        // JSON Pointer array indexes are plain digits (no sign, no leading zero).
        Ok(j)
            if index.bytes().all(|b| b.is_ascii_digit())
                && (index == "0" || !index.starts_with('0')) =>
        {
            (Some(j), &rest[end..])
        }
        _ => (None, path),
    }
}

/// An issue path moved by `by` records: `/3/keyword` → `/203/keyword` for `by` = 200 (a
/// chunk's report in the joined records); a path not under a record stays as it is.
pub fn shift_path(path: &str, by: usize) -> String {
    match split_index(path) {
        (Some(i), rest) => format!("/{}{rest}", i.saturating_add(by)),
        (None, _) => path.to_string(),
    }
}

/// Distinct strings, each with an id (0, 1, ... in insertion order): a small open-addressing
/// hash table, so planning stays linear for tens of thousands of keywords without the code
/// of a general map or a sort in the JS package.
struct Interner<'a> {
    strings: Vec<&'a str>,
    /// Ids + 1 (0: empty), a power of two at least twice the capacity.
    table: Vec<u32>,
}

impl<'a> Interner<'a> {
    fn with_capacity(n: usize) -> Interner<'a> {
        Interner {
            strings: Vec::with_capacity(n),
            table: vec![0; (n.max(4) * 2).next_power_of_two()],
        }
    }

    /// The slot of `s`: where it is, or the empty slot where it would go.
    fn slot(&self, s: &str) -> usize {
        // FNV-1a.
        let mut h: u32 = 0x811c_9dc5;
        for b in s.bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        loop {
            match self.table[i] {
                0 => return i,
                id if self.strings[id as usize - 1] == s => return i,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `s`; false when it was there already.
    fn insert(&mut self, s: &'a str) -> bool {
        if self.strings.len() * 2 >= self.table.len() {
            let mut bigger = Interner::with_capacity(self.table.len());
            for &k in &self.strings {
                bigger.insert(k);
            }
            *self = bigger;
        }
        let i = self.slot(s);
        if self.table[i] != 0 {
            return false;
        }
        self.strings.push(s);
        self.table[i] = self.strings.len() as u32;
        true
    }

    /// The id of `s`, if added.
    fn find(&self, s: &str) -> Option<usize> {
        match self.table[self.slot(s)] {
            0 => None,
            id => Some(id as usize - 1),
        }
    }
}
