//! The validator engine: one pass over the text with the [`Scanner`], driven by a [`Node`]
//! declaration. Recursion follows the declaration (a few levels), never the input: values
//! the declaration does not describe are skipped iteratively. Strings are allocated only
//! when an issue is reported.
//!
//! The hot path (a valid record) allocates nothing and does little per value: the current
//! JSON Pointer is a chain of segments on the call stack ([`Path`]), turned into text only
//! for an issue; keys are matched against the declaration's next field byte for byte
//! ([`Scanner::expected_member`], [`Scanner::obj_key_or`]); strings are scanned a word at a
//! time; common integers and decimals are read inline, and a range rule on a decimal is
//! first decided from its integer part ([`crate::json::Decimal`]) before any float parse;
//! field values are kept only for objects whose checks (or whose array's element rules)
//! read them.

use std::fmt::Write as _;

use super::{messages, Issue, MAX_ISSUES};
use crate::json::{push_token, Decimal, Key, RawStr, Scalar, ScanResult, Scanner, Start};
use crate::ops::Request;
use crate::rules::{
    ArrayRule, At, CheckContext, Count, Echo, Kind, Match, Node, NumberRule, Object, Record,
    RequestFields, RequestValue, RuleCode, Severity, StringRule,
};

/// A segment of the current JSON Pointer.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(RawStr<'a>),
    Name(&'static str),
    Index(usize),
}

/// A link of the current JSON Pointer: a segment and the pointer it extends. Each level of
/// the validator keeps its link on its own stack frame, so descending costs no allocation.
#[derive(Clone, Copy)]
struct Path<'p, 'a> {
    seg: Seg<'a>,
    up: Here<'p, 'a>,
}

/// The JSON Pointer of the current value (`None`: the whole body).
type Here<'p, 'a> = Option<&'p Path<'p, 'a>>;

/// Collects issues up to [`MAX_ISSUES`], counting the rest.
///
/// Decided: errors are never hidden behind warnings. The list holds the first errors in text
/// order, then as many of the first warnings as fit (`issues` stays in text order): when the
/// list is full, an error takes the place of the last warning listed. So 1,000
/// `unknown_field` warnings of a 50,000-row body never push out its one error. The JS
/// validators' `Sink` (src/js/validate_value.js) keeps the same list.
#[derive(Default)]
pub(crate) struct Sink {
    pub issues: Vec<Issue>,
    pub errors: usize,
    pub warnings: usize,
    /// Warnings in `issues` (those an error may take the place of).
    listed_warnings: usize,
}

impl Sink {
    fn push(
        &mut self,
        severity: Severity,
        code: RuleCode,
        path: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) {
        if self.count(severity) {
            self.issues.push(Issue {
                path: path(),
                code: code.as_str(),
                severity,
                message: message(),
            });
        }
    }

    /// Counts an issue and says whether to list it (making room for an error). Not generic
    /// and not inlined, so the many `push` instances do not each carry it (0.5 kB gzip of the
    /// JS package's wasm).
    #[inline(never)]
    fn count(&mut self, severity: Severity) -> bool {
        let warning = severity == Severity::Warning;
        if warning {
            self.warnings += 1;
        } else {
            self.errors += 1;
        }
        if self.issues.len() < MAX_ISSUES {
            self.listed_warnings += usize::from(warning);
            return true;
        }
        if warning || self.listed_warnings == 0 {
            return false;
        }
        // Full: the error takes the place of the last warning listed.
        if let Some(last) = self
            .issues
            .iter()
            .rposition(|issue| issue.severity == Severity::Warning)
        {
            self.issues.remove(last);
            self.listed_warnings -= 1;
        }
        true
    }
}

fn pointer(here: Here<'_, '_>, at: At<'_>) -> String {
    let mut path = Vec::new();
    let mut link = here;
    while let Some(l) = link {
        path.push(l.seg);
        link = l.up;
    }
    let mut out = String::new();
    for seg in path.iter().rev() {
        match seg {
            Seg::Key(k) => push_token(&mut out, &k.text()),
            Seg::Name(n) => push_token(&mut out, n),
            Seg::Index(i) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
    match at {
        At::Here => {}
        At::Key(k) => push_token(&mut out, k),
        At::Index(i) => {
            let _ = write!(out, "/{i}");
        }
        At::IndexKey(i, k) => {
            let _ = write!(out, "/{i}");
            push_token(&mut out, k);
        }
    }
    out
}

/// Shortens a text for a message (at most 60 characters).
pub(crate) fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(60).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    format!("{out:?}")
}

pub(crate) struct Engine<'a, 'r> {
    pub scanner: Scanner<'a>,
    pub sink: Sink,
    pool: Vec<Vec<Scalar<'a>>>,
    request: Option<&'r Request>,
}

impl<'a, 'r> Engine<'a, 'r> {
    pub fn new(text: &'a str, request: Option<&'r Request>) -> Self {
        Engine {
            scanner: Scanner::new(text),
            sink: Sink::default(),
            pool: Vec::new(),
            request,
        }
    }

    #[cold]
    #[inline(never)]
    fn report(
        &mut self,
        here: Here<'_, '_>,
        at: At<'_>,
        severity: Severity,
        code: RuleCode,
        message: impl FnOnce() -> String,
    ) {
        self.sink
            .push(severity, code, || pointer(here, at), message);
    }

    fn with_cx(&mut self, here: Here<'_, '_>, f: impl FnOnce(&mut CheckContext<'_>)) {
        let sink = &mut self.sink;
        let mut emit = |at: At<'_>, severity: Severity, code: RuleCode, message: String| {
            sink.push(severity, code, || pointer(here, at), || message);
        };
        let mut cx = CheckContext {
            request: self.request.map(|request| request as &dyn std::any::Any),
            sink: &mut emit,
        };
        f(&mut cx);
    }

    #[cold]
    #[inline(never)]
    fn type_error(&mut self, here: Here<'_, '_>, expected: &'static str, found: Scalar<'_>) {
        let found = match found {
            Scalar::Float(t) => format!("float {t}"),
            Scalar::Int(i) => format!("integer {i}"),
            Scalar::BigInt(t) => format!("integer {t} (outside the 64-bit range)"),
            Scalar::Str(s) => format!("string {}", shown(&s.text())),
            Scalar::Bool(b) => format!("boolean {b}"),
            other => other.type_name().to_owned(),
        };
        self.report(here, At::Here, Severity::Error, RuleCode::Type, || {
            messages::type_error(expected, found)
        });
    }

    /// Validates the whole body against `node`; returns it (containers as markers).
    pub fn value(&mut self, node: &'static Node) -> ScanResult<Scalar<'a>> {
        self.value_at(node, None)
    }

    /// Validates one value against `node`; returns it (containers as markers). A string,
    /// integer or number where one is declared (most values) goes straight to the scanner.
    #[inline(always)]
    fn value_fast(&mut self, node: &'static Node, here: Here<'_, 'a>) -> ScanResult<Scalar<'a>> {
        self.scanner.ws();
        match (node.kind, self.scanner.next_byte()) {
            (Kind::Str(rules), Some(b'"')) => {
                let s = self.scanner.string()?;
                for rule in rules {
                    self.str_rule(rule, s, here);
                }
                Ok(Scalar::Str(s))
            }
            (Kind::Int(rules), Some(b'0'..=b'9')) => {
                if let Some(i) = self.scanner.small_uint() {
                    let f = i as f64;
                    if !all_within(rules, f) {
                        self.num_rules(rules, f, Scalar::Int(i), here);
                    }
                    return Ok(Scalar::Int(i));
                }
                self.value_at(node, here)
            }
            (Kind::Num(rules), Some(b'-' | b'0'..=b'9')) => {
                if let Some(d) = self.scanner.decimal() {
                    if !all_surely_within(rules, &d) {
                        self.scalar(node, d.value, here);
                    }
                    return Ok(d.value);
                }
                self.value_at(node, here)
            }
            _ => self.value_at(node, here),
        }
    }

    /// Validates one value against `node`; returns it (containers as markers).
    fn value_at(&mut self, node: &'static Node, here: Here<'_, 'a>) -> ScanResult<Scalar<'a>> {
        match self.scanner.start()? {
            Start::Scalar => {
                let v = self.scanner.scalar()?;
                self.scalar(node, v, here);
                Ok(v)
            }
            Start::Object => {
                if let Kind::Object(o) = node.kind {
                    if let Some(vals) = self.object(o, here, false)? {
                        self.pool.push(vals);
                    }
                } else {
                    if !matches!(node.kind, Kind::Any) {
                        self.type_error(here, expected(&node.kind), Scalar::Object);
                    }
                    self.scanner.skip()?;
                }
                Ok(Scalar::Object)
            }
            Start::Array => {
                if let Kind::Array(a) = node.kind {
                    self.array(a, here)?;
                } else {
                    if !matches!(node.kind, Kind::Any) {
                        self.type_error(here, expected(&node.kind), Scalar::Array);
                    }
                    self.scanner.skip()?;
                }
                Ok(Scalar::Array)
            }
        }
    }

    #[inline]
    fn scalar(&mut self, node: &'static Node, v: Scalar<'a>, here: Here<'_, '_>) {
        match (node.kind, v) {
            (Kind::Any, _) => {}
            (Kind::Str(rules), Scalar::Str(s)) => {
                for rule in rules {
                    self.str_rule(rule, s, here);
                }
            }
            (Kind::Int(rules), Scalar::Int(i)) => {
                if !rules.is_empty() {
                    self.num_rules(rules, i as f64, v, here);
                }
            }
            (Kind::Num(rules), Scalar::Int(_) | Scalar::Float(_) | Scalar::BigInt(_)) => {
                if !rules.is_empty() {
                    if let Some(f) = v.as_f64() {
                        self.num_rules(rules, f, v, here);
                    }
                }
            }
            (Kind::Bool, Scalar::Bool(_)) => {}
            (kind, v) => self.type_error(here, expected(&kind), v),
        }
    }

    fn num_rules(
        &mut self,
        rules: &'static [NumberRule],
        f: f64,
        v: Scalar<'_>,
        here: Here<'_, '_>,
    ) {
        for r in rules {
            if !(r.min..=r.max).contains(&f) {
                let shown = match v {
                    Scalar::Int(i) => i.to_string(),
                    Scalar::Float(t) | Scalar::BigInt(t) => t.to_owned(),
                    _ => v.type_name().to_owned(),
                };
                self.report(here, At::Here, r.severity, RuleCode::Range, || {
                    messages::range(shown, r)
                });
            }
        }
    }

    fn str_rule(&mut self, rule: &'static StringRule, s: RawStr<'a>, here: Here<'_, '_>) {
        let text = s.text();
        let t: &str = &text;
        if rule.holds(t) {
            return;
        }
        let msg = || messages::string_rule(rule, shown(t));
        self.report(here, At::Here, rule.severity(), rule.code(), msg);
    }

    /// Validates an object. Its field values are kept when `keep` is set or its checks need
    /// them: then they are returned (give the vector back to the pool).
    fn object(
        &mut self,
        o: &'static Object,
        here: Here<'_, 'a>,
        keep: bool,
    ) -> ScanResult<Option<Vec<Scalar<'a>>>> {
        self.scanner.obj_begin()?;
        let check = !o.checks.is_empty() || (!o.echoes.is_empty() && self.request.is_some());
        let (seen, vals) = if keep || check {
            let mut vals = self.pool.pop().unwrap_or_default();
            vals.clear();
            vals.resize(o.fields.len(), Scalar::Absent);
            (self.members::<true>(o, here, &mut vals)?, Some(vals))
        } else {
            (self.members::<false>(o, here, &mut [])?, None)
        };
        // Every field present (the usual case) means none is missing.
        let all = u64::MAX >> 64usize.saturating_sub(o.fields.len()).min(63);
        if seen != all {
            for (i, f) in o.fields.iter().enumerate() {
                if f.required && seen & (1u64 << (i % 64)) == 0 {
                    self.report(
                        here,
                        At::Key(f.name),
                        Severity::Error,
                        RuleCode::MissingField,
                        || messages::missing_field(f.name),
                    );
                }
            }
        }
        if let (true, Some(vals)) = (check, &vals) {
            let rec = Record {
                fields: o.fields,
                vals,
                value: Scalar::Object,
            };
            if !o.checks.is_empty() {
                self.with_cx(here, |cx| {
                    for check in o.checks {
                        (check.run)(cx, &rec);
                    }
                });
            }
            for echo in o.echoes {
                self.echo(echo, 0, &rec, here);
            }
        }
        Ok(vals)
    }

    /// The members of an object (after its `{`, through its `}`); returns the seen-set of its
    /// fields. With `KEEP`, each field's value goes to its slot in `vals`. (Two copies of the
    /// loop: the one that keeps nothing carries no values around.)
    fn members<const KEEP: bool>(
        &mut self,
        o: &'static Object,
        here: Here<'_, 'a>,
        vals: &mut [Scalar<'a>],
    ) -> ScanResult<u64> {
        let mut seen: u64 = 0;
        let mut next = 0usize;
        let mut first = true;
        loop {
            // Keys usually come in declaration order: the next field's name is tried first.
            let expect = o.fields.get(next);
            let i = match expect {
                Some(f) if self.scanner.expected_member(first, f.name) => next,
                _ => match self.scanner.obj_key_or(first, expect.map(|f| f.name))? {
                    Key::End => return Ok(seen),
                    Key::Expected => next,
                    Key::Other(key) => match find_field(o, key, next) {
                        Some(i) => i,
                        None => {
                            first = false;
                            self.unknown(o, key, here)?;
                            continue;
                        }
                    },
                },
            };
            first = false;
            let Some(field) = o.fields.get(i) else {
                continue;
            };
            next = i + 1;
            let path = Path {
                seg: Seg::Name(field.name),
                up: here,
            };
            let bit = 1u64 << (i % 64);
            if seen & bit != 0 {
                self.report(
                    Some(&path),
                    At::Here,
                    Severity::Error,
                    RuleCode::DuplicateField,
                    || format!("field {:?} appears more than once", field.name),
                );
            }
            seen |= bit;
            let v = self.value_fast(&field.node, Some(&path))?;
            if KEEP {
                if let Some(slot) = vals.get_mut(i) {
                    *slot = v;
                }
            }
        }
    }

    /// A key the object does not declare: a warning, then its value (of the object's
    /// `extra` shape, if any).
    fn unknown(
        &mut self,
        o: &'static Object,
        key: RawStr<'a>,
        here: Here<'_, 'a>,
    ) -> ScanResult<()> {
        let path = Path {
            seg: Seg::Key(key),
            up: here,
        };
        self.report(
            Some(&path),
            At::Here,
            Severity::Warning,
            RuleCode::UnknownField,
            || messages::unknown_field(shown(&key.text())),
        );
        match o.extra {
            Some(node) => {
                self.value_at(node, Some(&path))?;
            }
            None => self.scanner.skip()?,
        }
        Ok(())
    }

    fn array(&mut self, a: &'static crate::rules::Array, here: Here<'_, 'a>) -> ScanResult<()> {
        self.scanner.arr_begin()?;
        let per_elem = a.rules.iter().any(|r| match r {
            ArrayRule::Seq { .. } | ArrayRule::Each(_) => true,
            ArrayRule::Echo(_) => self.request.is_some(),
            _ => false,
        });
        let obj = match a.items.kind {
            Kind::Object(o) => Some(o),
            _ => None,
        };
        // Previous key (and its index) of each `Seq` rule, by rule position.
        let mut prev: [Option<(i64, usize)>; 4] = [None; 4];
        let mut n = 0usize;
        while self.scanner.arr_next(n == 0)? {
            let path = Path {
                seg: Seg::Index(n),
                up: here,
            };
            let elem = Some(&path);
            if !per_elem {
                self.value_fast(&a.items, elem)?;
            } else if let (Some(o), Start::Object) = (obj, self.scanner.start()?) {
                let vals = self.object(o, elem, true)?.unwrap_or_default();
                let rec = Record {
                    fields: o.fields,
                    vals: &vals,
                    value: Scalar::Object,
                };
                self.elem_rules(a.rules, n, &rec, &mut prev, elem);
                self.pool.push(vals);
            } else {
                let v = self.value_at(&a.items, elem)?;
                let rec = Record {
                    fields: &[],
                    vals: &[],
                    value: v,
                };
                self.elem_rules(a.rules, n, &rec, &mut prev, elem);
            }
            n += 1;
        }
        for rule in a.rules {
            match *rule {
                ArrayRule::Len {
                    min,
                    max,
                    severity,
                    code,
                } if n < min || n > max => {
                    self.report(here, At::Here, severity, code, || {
                        messages::count(n, min, max)
                    });
                }
                ArrayRule::End(check) => self.with_cx(here, |cx| (check.run)(cx, n)),
                ArrayRule::Count(count) => self.count(&count, n, here),
                _ => {}
            }
        }
        Ok(())
    }

    fn elem_rules(
        &mut self,
        rules: &'static [ArrayRule],
        i: usize,
        rec: &Record<'_, 'a>,
        prev: &mut [Option<(i64, usize)>; 4],
        here: Here<'_, '_>,
    ) {
        let mut seq = 0;
        for rule in rules {
            match *rule {
                ArrayRule::Seq {
                    field,
                    key,
                    order,
                    severity,
                    code,
                    what,
                } => {
                    let slot = seq;
                    seq += 1;
                    let Some(k) = key.of(rec) else { continue };
                    let Some(p) = prev.get_mut(slot) else {
                        continue;
                    };
                    if let Some((pk, pi)) = *p {
                        if !order.holds(k, pk) {
                            self.report(here, At::Key(field), severity, code, || {
                                messages::order(i, pi, what)
                            });
                        }
                    }
                    *p = Some((k, i));
                }
                ArrayRule::Each(check) => self.with_cx(here, |cx| (check.run)(cx, i, rec)),
                ArrayRule::Echo(echo) => self.echo(&echo, i, rec, here),
                _ => {}
            }
        }
    }

    /// An [`Echo`] rule on element `i` (or on an object: `i` is 0).
    fn echo(&mut self, echo: &Echo, i: usize, rec: &Record<'_, 'a>, here: Here<'_, '_>) {
        let Some(request) = self.request else { return };
        let got = match echo.field {
            Some(field) => rec.str(field),
            None => rec.value().as_str().map(|s| s.text()),
        };
        let Some(got) = got else { return };
        // Matches the request's value (`Same`; `First` at index 0; `At` the item at the
        // index), or any item of its list (`AnyOf`); nothing to compare with: no issue.
        let holds = |want: &str| echo.compare.holds(&got, want);
        match (echo.how, request.field(echo.request)) {
            (Match::Same, Some(RequestValue::Text(want))) if !holds(want) => {}
            (Match::First, Some(RequestValue::Text(want))) if i == 0 && !holds(want) => {}
            (Match::At, Some(RequestValue::List(list)))
                if list.get(i).is_some_and(|w| !holds(w)) => {}
            (Match::AnyOf, Some(RequestValue::List(list))) if !list.iter().any(|w| holds(w)) => {}
            _ => return,
        }
        let at = match echo.field {
            Some(field) => At::Key(field),
            None => At::Here,
        };
        self.report(here, at, echo.severity, echo.code, || {
            messages::echo(echo, self::shown(&got))
        });
    }

    /// A [`Count`] rule on an array of `n` elements.
    fn count(&mut self, count: &Count, n: usize, here: Here<'_, '_>) {
        let Some(RequestValue::List(want)) = self.request.and_then(|r| r.field(count.request))
        else {
            return;
        };
        if n != want.len() {
            self.report(here, At::Here, count.severity, count.code, || {
                messages::request_count(n, want.len(), count.request)
            });
        }
    }
}

/// True when `f` is within the range of every rule (a plain loop, inlined at any opt-level).
#[inline(always)]
fn all_within(rules: &[NumberRule], f: f64) -> bool {
    for r in rules {
        if !(r.min <= f && f <= r.max) {
            return false;
        }
    }
    true
}

/// True when `d` surely is within the range of every rule ([`Decimal::surely_within`]).
#[inline(always)]
fn all_surely_within(rules: &[NumberRule], d: &Decimal<'_>) -> bool {
    for r in rules {
        if !d.surely_within(r.min, r.max) {
            return false;
        }
    }
    true
}

fn find_field(o: &Object, key: RawStr<'_>, next: usize) -> Option<usize> {
    if key.has_escapes() {
        let k = key.text();
        return o.fields.iter().position(|f| f.name == k);
    }
    let raw = key.raw();
    if let Some(f) = o.fields.get(next) {
        if f.name == raw {
            return Some(next);
        }
    }
    o.fields.iter().position(|f| f.name == raw)
}

/// The expected type, for messages.
pub(crate) fn expected(kind: &Kind) -> &'static str {
    match kind {
        Kind::Str(_) => "a string",
        Kind::Int(_) => "an integer",
        Kind::Num(_) => "a number",
        Kind::Bool => "a boolean",
        Kind::Array(_) => "an array",
        Kind::Object(_) => "an object",
        Kind::Any => "any value",
    }
}
