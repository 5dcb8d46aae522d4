// The client's `data` from the body text with exact integers (the `integers` option). Real
// 64-bit ids (microblog `user_id`) exceed what a JS number holds exactly (±(2^53 − 1)), and
// `JSON.parse` rounds them without a word. Where `JSON.parse` gives a reviver each number's
// source text (`context.source`: Node 21+, Chromium 114+), one parse finds the integer tokens
// beyond that range (`integersBySource`); elsewhere (Node 20) the text is scanned once for
// them (`unsafeIntegers`) and `JSON.parse` builds the data. Either way a regular expression
// comes first: most bodies have no run of 16 digits and are parsed plainly. The values found
// are put back as `BigInt` or strings of their digits.
//
// Decided: under "bigint" and "string" only the fields the core declares as ids that may pass
// 2^53 are converted (`LARGE_INTEGERS` in static_data.js, per operation: the same fields the
// generated types give `LargeInteger<I>`). Under "bigint" every value of them, small or not:
// a declared id is always a `bigint`, so one type covers it and code never has to handle
// both. Under "string" only those beyond ±(2^53 − 1) become their digits (a small one stays a
// number: the parsed-value validator reads a digit string as an integer only beyond that
// range, so that `"12"` sent where an integer belongs is still a type error). Every other
// number stays a number, so `data` holds what its type says. An integer beyond that range in any
// other field, and every such integer under "number" (the default), stays a rounded number
// but never silently: the report gets one `unsafe_integer` warning per field path pattern
// (array indices as `*`), never once per record.

import { INTEGER_MODES, LARGE_INTEGERS } from './static_data.js';
import { readClientOptions, SerpkitError, serpkitError } from './client_options.js';

/** The largest integer a JS number holds exactly, as digits (16 of them). */
const MAX_SAFE = '9007199254740991';

/** Clients made with `integers: "bigint"` or `"string"`, and their mode. */
const modes = new WeakMap();

/** The `integers` mode of a client ("number" unless it was made with another). */
export function integersMode(client) {
  return modes.get(client) ?? 'number';
}

/** Clients made with `validation: "off"` or `"strict"`, and their mode. */
const validations = new WeakMap();

/** The `validation` mode of a client ("warn" unless it was made with another). */
export function validationMode(client) {
  return validations.get(client) ?? 'warn';
}

/** The record cache of each client made with one: `{ cache, maxAgeMs }` (client_options.js). */
const recordCaches = new WeakMap();

/** The record cache of a client and its `maxAgeMs` (-1: no expiry), or `undefined` without one. */
export function recordCacheOf(client) {
  return recordCaches.get(client);
}

/** The wasm constructor's argument for `new Client(options)`, and the record cache. */
function clientOptions(options) {
  return readClientOptions(options, budgetError);
}

/**
 * The error of a `budgetUsd` in text (`undefined` for a dollar amount): the wasm constructor
 * reads it, given it alone (a wasm export of its own cost more than this client made and
 * freed).
 */
function budgetError(text) {
  try {
    new WasmClientClass(['', undefined, undefined, text]).free();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The `Account` of each client whose account was given or read (`client.account`). */
const accounts = new WeakMap();
/** The wasm client holding each `Account`'s spend (an `Account` made by `new Account` holds one
 * that never calls). */
const holders = new WeakMap();
/** The budget of each client's account when it was new (`Money`, or null). */
const budgets = new WeakMap();
/** The wasm `Client` class (given to `withIntegersOption`). */
let WasmClientClass;

/**
 * What several clients spend together: `new Account({ budgetUsd })`, or `client.account`.
 * Clients made with `new Client({ key, account })` count every call in it, so together they
 * never pass its budget. Written in JS over a wasm client's account, which costs the wasm
 * nothing: the spend is the core's shared `Account`.
 */
export class Account {
  constructor(options) {
    let value = options;
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalidArgument('account options must be an object', 'account');
    }
    for (const key of Object.keys(value)) {
      if (key !== 'budgetUsd') throw invalidArgument(`unknown option \`${key.slice(0, 40)}\` (known: ["budgetUsd"])`, 'account');
    }
    let holder;
    try {
      holder = new WasmClientClass(clientOptions(value.budgetUsd === undefined ? {} : { budgetUsd: value.budgetUsd }).compact);
    } catch (error) {
      if (error?.code === 'not_initialized') throw error;
      throw invalidArgument(String(error?.message ?? error).replace(/^invalid client options: /, ''), 'account', error);
    }
    holders.set(this, holder);
    budgets.set(holder, holder.remaining);
  }

  /** Confirmed charges of every client on the account. */
  get spent() {
    return holders.get(this).spent;
  }

  /** Estimates of calls sent whose outcome is unknown, by every client on the account. */
  get possiblyCharged() {
    return holders.get(this).possiblyCharged;
  }

  /** What is left of the budget after what was spent, possibly charged and is in flight. */
  get remaining() {
    return holders.get(this).remaining;
  }

  /** The budget, or null without one. */
  get budget() {
    return budgets.get(holders.get(this)) ?? null;
  }
}

/** `client.account`: the `Account` it was given, or one over its own account (one object per client). */
export function accountOf(client) {
  let account = accounts.get(client);
  if (account === undefined) {
    account = Object.create(Account.prototype);
    holders.set(account, client);
    accounts.set(client, account);
  }
  return account;
}

/**
 * The package's `Client`: the wasm class, with its `integers` option read and checked here,
 * where `data` is made (the wasm accepts the option's name and leaves it to this file), and
 * its `account` option (an `Account`: its spend is another wasm client's account, shared).
 */
export function withIntegersOption(WasmClient) {
  WasmClientClass = WasmClient;
  return class Client extends WasmClient {
    constructor(options) {
      let mode, account, read, value;
      try {
        value = optionsValue(options);
        mode = readMode(value);
        account = readAccount(value);
        read = clientOptions(options);
        super(read.compact);
      } catch (error) {
        throw serpkitError(error);
      }
      const { cache, maxAgeMs, fetch } = read;
      if (fetch !== undefined) this.__useFetch(fetch);
      if (cache !== undefined) recordCaches.set(this, { cache, maxAgeMs });
      if (mode !== 'number') modes.set(this, mode);
      // Read by the wasm too, which refused anything but the three modes.
      const validation = value?.validation;
      if (validation === 'off' || validation === 'strict') validations.set(this, validation);
      if (account === undefined) {
        budgets.set(this, this.remaining);
        return;
      }
      const holder = holders.get(account);
      try {
        this.__useAccount(holder);
      } catch {
        // A holder freed with `free()`.
        throw invalidArgument('account must be an Account (new Account() or client.account of another client)');
      }
      budgets.set(this, budgets.get(holder));
      accounts.set(this, account);
    }
  };
}

/** An `invalid_argument` error of the options (as the wasm words them: src/js/errors.rs). */
function invalidArgument(message, what = 'client', cause) {
  return new SerpkitError('invalid_argument', `invalid ${what} options: ${message}`, cause === undefined ? undefined : { cause });
}

/**
 * The options object of `new Client(options)` (options JSON text parsed), or `undefined`.
 * Anything else refused (text that is not JSON, an options value that is not an object) is
 * left to client_options.js.
 */
function optionsValue(options) {
  try {
    const value = typeof options === 'string' ? JSON.parse(options) : options;
    return value !== null && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The `integers` option. */
function readMode(options) {
  let mode;
  try {
    mode = options?.integers;
  } catch {
    return 'number';
  }
  if (mode === undefined || mode === null) return 'number';
  if (INTEGER_MODES.includes(mode)) return mode;
  throw invalidArgument(`integers must be one of ${JSON.stringify(INTEGER_MODES)}`);
}

/**
 * The `account` option (`undefined` when absent). Its budget is the clients' one budget, so
 * `budgetUsd` beside it is refused rather than guessed at.
 */
function readAccount(options) {
  let account;
  let budget;
  try {
    account = options?.account;
    budget = options?.budgetUsd;
  } catch {
    return undefined;
  }
  if (account === undefined || account === null) return undefined;
  if (!holders.has(account)) {
    throw invalidArgument('account must be an Account (new Account() or client.account of another client)');
  }
  if (budget !== undefined && budget !== null) {
    throw invalidArgument('give budgetUsd to the Account (new Account({ budgetUsd })), not to a client on it');
  }
  return account;
}

/**
 * A `contract_violation` error's `data`: the body that was paid for, handed over as text by
 * the wasm, made the client's `data` value under its `integers` mode (`declared`: the
 * operation's `largeIntegers`). Other errors as they are.
 */
export function settleError(error, mode, declared) {
  serpkitError(error);
  if (error !== null && typeof error === 'object' && error.code === 'contract_violation' && typeof error.data === 'string') {
    try {
      error.data = exactData(error.data, mode, declared).data;
    } catch {
      // Not JSON (a strict refusal of a body that parsed cannot be): left as its text.
    }
  }
  return error;
}

/**
 * The fields of an operation's `data` the `integers` mode keeps exact, as JSON Pointers with
 * `*` for array indices (static_data.js); none for a name the core does not know (such a call
 * failed before it had any data). `WasmClient` reads the name.
 */
export function largeIntegers(WasmClient, operation) {
  try {
    return LARGE_INTEGERS[WasmClient.__operationIndex(operation)] ?? [];
  } catch {
    return [];
  }
}

/**
 * The integer tokens of JSON text beyond ±(2^53 − 1), in text order: `[{ path, arrays, digits }]`
 * with `path` the value's segments (array indices as numbers) and `arrays` which segments
 * are array indices. Text that is not JSON yields what was found before the fault.
 */
export function unsafeIntegers(text) {
  const found = [];
  if (typeof text !== 'string' || !/[0-9]{16}/.test(text)) return found;
  // One frame per open container: an array's index, or an object's current key.
  const frames = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: to its closing quote (escapes skipped); a key sets its object's frame.
      const start = i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      if (expectKey) {
        const top = frames[frames.length - 1];
        try {
          top.key = JSON.parse(text.slice(start, i));
        } catch {
          return found;
        }
        expectKey = false;
      }
    } else if (c === 123 || c === 91) {
      frames.push({ array: c === 91, key: '', index: 0 });
      expectKey = c === 123;
      i++;
    } else if (c === 125 || c === 93) {
      frames.pop();
      expectKey = false;
      i++;
    } else if (c === 44) {
      const top = frames[frames.length - 1];
      if (top !== undefined) {
        if (top.array) top.index++;
        else expectKey = true;
      }
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i++;
      while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      const next = i < n ? text.charCodeAt(i) : 0;
      // Integers only: a fraction or an exponent makes it a float token.
      if (next !== 46 && next !== 101 && next !== 69) {
        const digits = text.slice(start, i);
        const magnitude = c === 45 ? digits.slice(1) : digits;
        if (magnitude.length > 16 || (magnitude.length === 16 && magnitude > MAX_SAFE)) {
          found.push({
            path: frames.map((frame) => (frame.array ? frame.index : frame.key)),
            arrays: frames.map((frame) => frame.array),
            digits,
          });
        }
      }
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
        else break;
      }
    } else {
      i++;
    }
  }
  return found;
}

/** Whether `JSON.parse` hands a reviver each primitive's source text (`context.source`). */
const HAS_SOURCE = (() => {
  let source;
  try {
    JSON.parse('1', (key, value, context) => {
      source = context?.source;
      return value;
    });
  } catch {
    return false;
  }
  return source === '1';
})();

/**
 * `JSON.parse(text)` and the integer tokens beyond ±(2^53 − 1) it rounded, as `unsafeIntegers`
 * gives them (`[{ path, arrays, digits }]`, text order), from the reviver's `context.source`
 * (where the runtime has it: `HAS_SOURCE`). A value's path comes from its holders: each
 * object or array is recorded with its holder and key as the reviver passes it (bottom up),
 * so after the parse every recorded leaf walks up to the root.
 */
export function integersBySource(text) {
  const parents = new Map();
  const leaves = [];
  const data = JSON.parse(text, function (key, value, context) {
    if (value !== null && typeof value === 'object') {
      parents.set(value, [this, key]);
    } else if (typeof value === 'number' && !Number.isSafeInteger(value) && /^-?[0-9]+$/.test(context.source)) {
      leaves.push([this, key, context.source]);
    }
    return value;
  });
  const found = [];
  for (const [holder, key, digits] of leaves) {
    const magnitude = digits.charCodeAt(0) === 45 ? digits.slice(1) : digits;
    if (!(magnitude.length > 16 || (magnitude.length === 16 && magnitude > MAX_SAFE))) continue;
    const path = [];
    const arrays = [];
    // The root's holder is the parse's own wrapper, never a recorded value.
    for (let h = holder, k = key; parents.has(h); [h, k] = parents.get(h)) {
      const array = Array.isArray(h);
      path.push(array ? Number(k) : k);
      arrays.push(array);
    }
    found.push({ path: path.reverse(), arrays: arrays.reverse(), digits });
  }
  return { data, found };
}

/** A JSON Pointer of path segments (`*` for array indices with `pattern`). */
function pointer(found, pattern) {
  let out = '';
  for (let k = 0; k < found.path.length; k++) {
    const segment = pattern && found.arrays[k] ? '*' : String(found.path[k]);
    out += '/' + segment.replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return out;
}

/**
 * `data` from the body text under the `integers` mode ("number", "bigint" or "string"), and
 * the `unsafe_integer` warnings for the report. `declared`: the path patterns of the fields
 * the mode keeps exact (`largeIntegers`); an integer beyond ±(2^53 − 1) anywhere else, or
 * under "number", stays a rounded number with one warning per path pattern.
 */
export function exactData(text, mode, declared = []) {
  let data, found;
  if (typeof text === 'string' && /[0-9]{16}/.test(text) && HAS_SOURCE) {
    ({ data, found } = integersBySource(text));
  } else {
    data = JSON.parse(text);
    found = unsafeIntegers(text);
  }
  const warnings = [];
  if (found.length === 0) return { data: declaredExact(data, mode, declared), warnings };
  const exact = (digits) => (mode === 'bigint' ? BigInt(digits) : digits);
  const seen = new Set();
  let root = data;
  for (const integer of found) {
    const pattern = pointer(integer, true);
    const kept = declared.includes(pattern);
    if (kept && mode !== 'number') {
      root = putBack(root, integer.path, exact(integer.digits));
      continue;
    }
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    const remedy = kept
      ? 'the client option integers: "bigint" or "string" keeps it exact'
      : 'not a field declared to hold a 64-bit id, so no integers mode changes it; the text has its digits';
    warnings.push({
      path: pointer(integer, false),
      code: 'unsafe_integer',
      severity: 'warning',
      message: `integer ${integer.digits} is beyond ±(2^53 - 1): data holds it as ${Number(integer.digits)}, rounded (${remedy}); reported once for ${pattern || '/'}`,
    });
  }
  return { data: declaredExact(root, mode, declared), warnings };
}

/**
 * `root` with every integer of the declared fields (`declared`: JSON Pointer patterns, `*`
 * for array indices) a `bigint` under "bigint", small ones too (the ones beyond 2^53 were put
 * back exact already; a value that is no integer is left for the report to name).
 */
function declaredExact(root, mode, declared) {
  if (mode !== 'bigint' || declared.length === 0) return root;
  for (const pattern of declared) {
    root = convertAt(root, pattern === '' ? [] : pattern.slice(1).split('/'), 0, BigInt);
  }
  return root;
}

/** `value` with the integer at `segments[k..]` (`*`: every array item) made `exact(integer)`. */
function convertAt(value, segments, k, exact) {
  if (k === segments.length) return typeof value === 'number' && Number.isInteger(value) ? exact(value) : value;
  if (value === null || typeof value !== 'object') return value;
  const segment = segments[k];
  if (segment === '*') {
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = convertAt(value[i], segments, k + 1, exact);
    return value;
  }
  const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
  if (Object.prototype.hasOwnProperty.call(value, key)) value[key] = convertAt(value[key], segments, k + 1, exact);
  return value;
}

/**
 * JSON text of `value` as `JSON.stringify(value, null, space)` writes it, with every `bigint`
 * written as its digits (a JSON number): the way back from `data` under `integers: "bigint"`,
 * where `JSON.stringify` throws. `JSON.rawJSON` where the runtime has it (Node 21+, Chromium
 * 114+), else a marker replaced in the text.
 */
export function stringify(value, space) {
  if (typeof JSON.rawJSON === 'function') {
    return JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v), space);
  }
  // A marker no string of `value` holds: JSON.stringify writes U+0000 as `\u0000`, so the
  // text `"\u0000<tag>123"` can only come from here while no string holds "\u0000<tag>".
  const tag = `serpkit${Math.random().toString(36).slice(2)}`;
  const text = JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? `\u0000${tag}${v}` : v), space);
  return text === undefined ? text : text.replace(new RegExp(`"\\\\u0000${tag}(-?[0-9]+)"`, 'g'), '$1');
}

/** `root` with the value at `path` (segments) replaced by `value` (the new root for an empty path). */
function putBack(root, path, value) {
  if (path.length === 0) return value;
  let holder = root;
  for (let k = 0; k < path.length - 1 && holder !== null && typeof holder === 'object'; k++) {
    holder = holder[path[k]];
  }
  if (holder !== null && typeof holder === 'object') holder[path[path.length - 1]] = value;
  return root;
}

/**
 * A reply's `data` (the body text the wasm client hands over) made under the client's mode
 * (`declared`: the operation's `largeIntegers`); the warnings of rounded integers join the
 * reply's report (a report of them alone when validation is off: rounding is never silent).
 */
export function settleData(reply, mode, declared) {
  if (reply === null || typeof reply !== 'object' || typeof reply.data !== 'string') return reply;
  const { data, warnings } = exactData(reply.data, mode, declared);
  reply.data = data;
  if (warnings.length > 0) {
    const report = reply.report ?? { ok: true, errors: [], warnings: [], error_count: 0, warning_count: 0, omitted: 0 };
    report.warnings.push(...warnings);
    report.warning_count += warnings.length;
    reply.report = report;
  }
  return reply;
}
