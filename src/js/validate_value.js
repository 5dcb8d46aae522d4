// The runtime of the generated JS validators (`validators.js`, written by `cargo xtask pkg`
// from the operations' rule declarations: src/validate/js.rs) and `validateValue`, which runs
// one on a parsed value. Plain ES2020, no imports: it runs in browsers, Node, Deno, Bun and
// Workers, and needs no `eval` (strict CSP).
//
// A parsed value is read as JSON data, the way `JSON.stringify` would write it (the wasm
// engine on that text is the oracle the differential tests compare with): `undefined`,
// functions and symbols in objects are absent, `NaN` and `±Infinity` are `null`, key order is
// `Object.keys` order. An object with a `toJSON` method (a `Date`, ...) is not read here: the
// caller gets `NEEDS_TEXT` thrown and validates `JSON.stringify(value)` instead.

export const isArray = Array.isArray;

/** Thrown when a value must be turned into text first (it has `toJSON`). */
export const NEEDS_TEXT = Symbol('serpkit: validate as text');

/**
 * True when a value the declaration does not describe (anything, an unknown field's value,
 * a value of the wrong type) reads here as its JSON text would: no `toJSON` method anywhere
 * in it. A BigInt reads as the integer it is (the client's `integers: "bigint"` makes them of
 * integer tokens). Deep nesting may throw a `RangeError`: the caller then validates the
 * text, as for `NEEDS_TEXT`.
 *
 * Decision: a string that is not well-formed UTF-16 (a lone surrogate, which only a `\ud800`
 * escape in the text can produce) is read as the JS string it is. Its text is refused by the
 * wasm engine (a `json` error: it has no UTF-8 form); that is a rule of the text, like
 * duplicate keys, and checking every string for it would cost the parsed-value path about as
 * much as all its other checks together (measured: 1.36x Ajv without, 2.32x with
 * `isWellFormed` on the 50,000-record body, Node 20).
 */
export function anyOk(x) {
  if (typeof x !== 'object' || x === null) return true;
  if (isArray(x)) {
    for (let i = 0; i < x.length; i++) if (!anyOk(x[i])) return false;
    return true;
  }
  if (typeof x.toJSON === 'function') return false;
  for (const key of Object.keys(x)) if (!anyOk(x[key])) return false;
  return true;
}

/**
 * The JSON Pointer of the first array or object nested deeper than `limit` levels in `value`
 * (in `JSON.stringify`'s order), or `undefined` (also for a value holding a cycle, which is no
 * JSON data, or one that throws while read): read without recursion, so a value nested too deep for the stack (which the
 * validators, `anyOk` and `JSON.stringify` overflow on) still gets a report: the wasm engine
 * refuses text nested beyond the same limit.
 */
export function tooDeep(value, limit) {
  try {
    return deepPath(value, limit);
  } catch {
    // A getter that throws, a proxy: no JSON data either.
    return undefined;
  }
}

/** `tooDeep`'s walk. */
function deepPath(value, limit) {
  const EXIT = {};
  const ancestors = new Set();
  const stack = [[value, '', 0]];
  while (stack.length > 0) {
    const [x, path, depth] = stack.pop();
    if (path === EXIT) {
      ancestors.delete(x);
      continue;
    }
    if (typeof x !== 'object' || x === null) continue;
    if (ancestors.has(x)) return undefined;
    if (depth >= limit) return path;
    ancestors.add(x);
    stack.push([x, EXIT, depth]);
    const keys = isArray(x) ? Array.from(x.keys()) : Object.keys(x);
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = x[keys[i]];
      if (!absent(child)) stack.push([child, `${path}/${esc(String(keys[i]))}`, depth + 1]);
    }
  }
  return undefined;
}

/** The report of a value nested deeper than `limit` at `path` (`tooDeep`): one `json` error there. */
export function tooDeepReport(path, limit) {
  const sink = new Sink(1);
  sink.push(path, 'error', 'json', `nesting deeper than ${limit} levels (the limit of JSON text the validator reads)`);
  return sink.report();
}

/** True for what `JSON.stringify` leaves out of an object. */
export function absent(x) {
  return x === undefined || typeof x === 'function' || typeof x === 'symbol';
}

/** A string as Rust's `{:?}` writes it (JSON quoting: the docs say messages may differ here). */
export const debug = (text) => JSON.stringify(text);

/** A text for a message: at most 60 characters, then `…`, quoted. */
export function shown(text) {
  if (text.length <= 60) return JSON.stringify(text);
  const chars = Array.from(text);
  return JSON.stringify(chars.length > 60 ? chars.slice(0, 60).join('') + '…' : text);
}

/** A key as a JSON Pointer token (without its `/`). */
export function esc(key) {
  return key.indexOf('~') < 0 && key.indexOf('/') < 0 ? key : key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const I64_LIMIT = 9223372036854775808; // 2^63

// Surely outside 64 bits. Decided: ±2^63 itself is a rounded integer, not a type error:
// `JSON.parse` rounds a valid 2^63 − 1 (and every integer down to 2^63 − 512) up to 2^63,
// and −2^63 is `i64::MIN` itself; the next doubles out (±(2^63 + 2048)) are beyond any i64.
// (`JSON.stringify` writes ±2^63 as `±9223372036854776000`, which the wasm engine reads as
// outside: that text is not what the value came from.)
const beyond64 = (x) => x > I64_LIMIT || x < -I64_LIMIT;

const I64_MAX = 2n ** 63n - 1n;
const I64_MIN = -(2n ** 63n);

/**
 * True for an exact integer the client's `integers` option makes of an integer token beyond
 * ±(2^53 − 1): a BigInt (`"bigint"`), or the string of its digits (`"string"`: `-` and digits,
 * no leading zero, beyond ±(2^53 − 1), as exact_json.js writes them).
 *
 * Decided: a BigInt is an integer whatever its size; a string is one only in that exact form,
 * so a service that sends `"12"` where an integer belongs still gets its type error.
 */
export function exactInt(x) {
  if (typeof x === 'bigint') return true;
  if (typeof x !== 'string' || x.length < 16 || x.length > 400) return false;
  const magnitude = x.charCodeAt(0) === 45 ? x.slice(1) : x;
  if (!/^[1-9][0-9]{15,}$/.test(magnitude)) return false;
  return magnitude.length > 16 || magnitude > '9007199254740991';
}

/** True for a number the value holds: a finite JS number or an exact integer (`exactInt`). */
export const isNum = (x) => (typeof x === 'number' && x - x === 0) || exactInt(x);

/**
 * What a value is, for a type error: `string "x"`, `integer 5`, `float 1.5`, `null`, ...
 * Throws `NEEDS_TEXT` for one that holds a BigInt or a `toJSON` method (`anyOk`).
 */
export function found(x) {
  if (!anyOk(x)) throw NEEDS_TEXT;
  switch (typeof x) {
    case 'bigint':
      return x > I64_MAX || x < I64_MIN ? 'integer ' + x + ' (outside the 64-bit range)' : 'integer ' + x;
    case 'string':
      return 'string ' + shown(x);
    case 'boolean':
      return 'boolean ' + x;
    case 'number': {
      if (x - x !== 0) return 'null';
      const text = String(x);
      if (!Number.isInteger(x) || Math.abs(x) >= 1e21) return 'float ' + text;
      return beyond64(x) ? 'integer ' + text + ' (outside the 64-bit range)' : 'integer ' + text;
    }
    case 'object':
      return x === null ? 'null' : isArray(x) ? 'array' : 'object';
    default:
      return 'null';
  }
}

/**
 * How an integer field's value reads: 0 a safe integer, 1 an integer beyond ±(2^53 − 1) that
 * still fits 64 bits (`JSON.parse` may have rounded it), 2 not an integer (a type error: a
 * float, a number written with an exponent, outside 64 bits, or not a number), 3 an exact
 * integer (`exactInt`: a BigInt or the string of its digits) that fits 64 bits.
 */
export function intClass(x) {
  if (typeof x !== 'number') {
    if (!exactInt(x)) return 2;
    const n = BigInt(x);
    return n > I64_MAX || n < I64_MIN ? 2 : 3;
  }
  if (!Number.isInteger(x) || beyond64(x)) return 2;
  return Number.isSafeInteger(x) ? 0 : 1;
}

// The `unsafe_integer` warning (parsed values only: the text has the exact digits), once per
// field path pattern (array indices as `*`: `/*/profile/user_id`), not once per record: a body
// of 64-bit ids says it once, at the first such value.
export function unsafeInteger(sink, path, x) {
  const pattern = path.replace(/\/(0|[1-9][0-9]*)(?=\/|$)/g, '/*');
  if (sink.unsafe.has(pattern)) return;
  sink.unsafe.add(pattern);
  sink.push(
    path,
    'warning',
    'unsafe_integer',
    `integer ${x} is beyond ±(2^53 - 1): JSON.parse may have rounded it (validate the text or bytes for its exact digits); reported once for ${pattern || '/'}`,
  );
}

// ---- Formats (as src/rules/formats.rs decides them) ------------------------------------

/** The number of an all-ASCII-digit slice, or -1. */
function digits(text, from, to) {
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return to > from ? value : -1;
}

function daysInMonth(y, m) {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** `[y, m, d]` of a `YYYY-MM-DD` calendar date at the start of `text` (10 characters), or null. */
function dateParts(text) {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null;
  const y = digits(text, 0, 4), m = digits(text, 5, 7), d = digits(text, 8, 10);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return [y, m, d];
}

/** True for a `YYYY-MM-DD` calendar date. */
export function isDate(text) {
  return text.length === 10 && dateParts(text) !== null;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, or `undefined`. */
export function parseDate(text) {
  const parts = text.length === 10 ? dateParts(text) : null;
  if (parts === null) return undefined;
  const [y0, m, d] = parts;
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** True for an ISO 8601 UTC timestamp (`millis`: exactly three fraction digits). */
export function isTimestamp(text, millis) {
  if (text.length < 20 || text.charCodeAt(10) !== 84 /* T */) return false;
  if (dateParts(text) === null || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const h = digits(text, 11, 13), mi = digits(text, 14, 16), se = digits(text, 17, 19);
  if (h < 0 || mi < 0 || se < 0 || h > 23 || mi > 59 || se > 60) return false;
  let at = 19;
  let fraction = 0;
  if (text.charCodeAt(at) === 46 /* . */) {
    at++;
    while (at + fraction < text.length && digits(text, at + fraction, at + fraction + 1) >= 0) fraction++;
    if (fraction === 0 || fraction > 9) return false;
    at += fraction;
  }
  if (millis && fraction !== 3) return false;
  const rest = text.slice(at);
  return rest === 'Z' || rest === '+00:00';
}

const UPPER = /\p{Uppercase}/u;

/** True when the text has an upper-case letter (Unicode `Uppercase`, as Rust's `char::is_uppercase`). */
export const hasUpper = (text) => UPPER.test(text);
// `formats::is_number_text`: a plain decimal written as text, or empty.
const NUMBER_TEXT = /^(-?[0-9]+(\.[0-9]+)?)?$/;
export const isNumberText = (text) => NUMBER_TEXT.test(text);

// ---- Keywords (as src/keyword/mod.rs compares them) ------------------------------------

// Unicode White_Space, as Rust's `str::split_whitespace`.
const WHITE_SPACE = /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

function words(keyword) {
  return keyword.split(WHITE_SPACE).filter((word) => word !== '');
}

/** Lower case per character (Rust's `char::to_lowercase`: no final-sigma context). */
function lower(word) {
  let out = '';
  for (const ch of word) out += ch.toLowerCase();
  return out;
}

/** The same keyword: white space at the ends ignored, inner runs as one space, case ignored. */
export function sameKeyword(keyword, other) {
  if (keyword === other) return true;
  const a = words(keyword), b = words(other);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && lower(a[i]) !== lower(b[i])) return false;
  }
  return true;
}

/** ASCII letters lower-cased (Rust's `to_ascii_lowercase`). */
export const asciiLower = (text) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

// ---- Record helpers for the twins and order keys ---------------------------------------

const isRecord = (r) => typeof r === 'object' && r !== null && !isArray(r);

/** A field's value as JSON reads it (`undefined` when absent; non-finite numbers are null). */
export function get(record, name) {
  if (!isRecord(record)) return undefined;
  const x = record[name];
  if (absent(x)) return undefined;
  return typeof x === 'number' && x - x !== 0 ? null : x;
}

/** True when the field is present (any value, null included). */
export const has = (record, name) => get(record, name) !== undefined;

/** A field's integer (fitting 64 bits; an exact one as a BigInt), or `undefined`. */
export function int(record, name) {
  const x = get(record, name);
  const c = intClass(x);
  return c < 2 ? x : c === 3 ? BigInt(x) : undefined;
}

/** A field's string, or `undefined`. */
export function str(record, name) {
  const x = get(record, name);
  return typeof x === 'string' ? x : undefined;
}

/** A `YYYY-MM-DD` field as days since 1970-01-01, or `undefined`. */
export function dateKey(record, name) {
  const text = str(record, name);
  return text === undefined ? undefined : parseDate(text);
}

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const clamp = (n) => (n > MAX ? MAX : n < MIN ? MIN : n);
// A number's exact integer as the text has it (`String` writes what `JSON.stringify` does).
const big = (x) => (typeof x === 'bigint' ? x : BigInt(String(x)));

/** `y * m + a` with Rust's saturating `i64` arithmetic, exact (a BigInt beyond 2^53). */
export function satMulAdd(y, m, a) {
  if (typeof y === 'number' && Math.abs(y) <= 2 ** 40) return y * m + a;
  return clamp(clamp(big(y) * BigInt(m)) + BigInt(a));
}

/** `Order::Step(step)`: a key moves from the previous by exactly `step` when it moves its way. */
export function stepOk(step, key, previous) {
  if (typeof key === 'number' && typeof previous === 'number' && Math.abs(key) <= 2 ** 51 && Math.abs(previous) <= 2 ** 51) {
    const moved = key - previous;
    return Math.sign(moved) !== Math.sign(step) || moved === step;
  }
  const moved = clamp(big(key) - big(previous));
  const sign = moved > 0n ? 1 : moved < 0n ? -1 : 0;
  return sign !== Math.sign(step) || moved === BigInt(step);
}

// ---- Reports ---------------------------------------------------------------------------

/**
 * Collects issues (at most `max` listed; the rest counted). Errors first, as the wasm
 * engine's sink (src/validate/engine.rs): the list holds the first errors, then as many of the
 * first warnings as fit, in text order; when it is full an error takes the last listed
 * warning's place, so warnings never hide an error.
 */
export class Sink {
  constructor(max) {
    this.max = max;
    this.issues = [];
    this.errors = 0;
    this.warnings = 0;
    /** Warnings in `issues`. */
    this.listedWarnings = 0;
    /** Path patterns already given an `unsafe_integer` warning. */
    this.unsafe = new Set();
  }
  push(path, severity, code, message) {
    const warning = severity !== 'error';
    if (warning) this.warnings++;
    else this.errors++;
    if (this.issues.length >= this.max) {
      if (warning || this.listedWarnings === 0) return;
      let last = this.issues.length - 1;
      while (this.issues[last].severity === 'error') last--;
      this.issues.splice(last, 1);
      this.listedWarnings--;
    }
    if (warning) this.listedWarnings++;
    this.issues.push({ path, code, severity, message });
  }
  /** The report, shaped as the wasm engine's. */
  report() {
    const errors = [];
    const warnings = [];
    for (const issue of this.issues) (issue.severity === 'error' ? errors : warnings).push(issue);
    return {
      ok: this.errors === 0,
      errors,
      warnings,
      error_count: this.errors,
      warning_count: this.warnings,
      omitted: this.errors + this.warnings - this.issues.length,
    };
  }
}

/**
 * What a twin sees: `operation`, `request` (parsed, or `undefined`) and `error` / `warning`
 * (`at`: `null` for here, or a key). With no sink (the fast pass) a report only sets `failed`.
 */
export class Context {
  constructor(operation, request, sink, probe) {
    this.operation = operation;
    this.request = request;
    this.sink = sink;
    this.probe = probe ?? this;
    this.path = '';
    this.failed = false;
  }
  error(at, code, message) {
    this.report('error', at, code, message);
  }
  warning(at, code, message) {
    this.report('warning', at, code, message);
  }
  report(severity, at, code, message) {
    if (this.sink === null) this.failed = true;
    else this.sink.push(at === null ? this.path : this.path + '/' + esc(at), severity, code, message);
  }
}

/**
 * Runs a generated validator (`{ operation, fast, report }` of `validators.js`) on a parsed
 * value; `request` is the parsed request or `undefined`. Returns the report; throws
 * `NEEDS_TEXT` for a value only its JSON text can tell (see above).
 */
export function validateValue(validator, value, request, maxIssues) {
  const probe = new Context(validator.operation, request, null);
  if (validator.fast(value, probe)) {
    return { ok: true, errors: [], warnings: [], error_count: 0, warning_count: 0, omitted: 0 };
  }
  const sink = new Sink(maxIssues);
  validator.report(value, '', new Context(validator.operation, request, sink, probe));
  return sink.report();
}
