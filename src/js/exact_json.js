// The client's `data` from the body text with exact integers (the `integers` option). Real
// 64-bit ids (microblog `user_id`) exceed what a JS number holds exactly (±(2^53 − 1)), and
// `JSON.parse` rounds them without a word. Node 20 has no `JSON.parse` source access, so the
// text is scanned once for integer tokens beyond that range (a regular expression first: most
// bodies have no run of 16 digits and skip the scan), `JSON.parse` builds the data, and the
// values found are put back as `BigInt` or strings of their digits.
//
// Decided (issue #19): only integers beyond ±(2^53 − 1) are converted under "bigint" and
// "string" (every other number stays a number); under "number", the default, they stay rounded
// numbers and the report gets one `unsafe_integer` warning per field path pattern (array
// indices as `*`), never once per record.

import { INTEGER_MODES } from './static_data.js';

/** The largest integer a JS number holds exactly, as digits (16 of them). */
const MAX_SAFE = '9007199254740991';

/** Clients made with `integers: "bigint"` or `"string"`, and their mode. */
const modes = new WeakMap();

/** The `integers` mode of a client ("number" unless it was made with another). */
export function integersMode(client) {
  return modes.get(client) ?? 'number';
}

/**
 * The package's `Client`: the wasm class, with its `integers` option read and checked here,
 * where `data` is made (the wasm accepts the option's name and leaves it to this file).
 */
export function withIntegersOption(WasmClient) {
  return class Client extends WasmClient {
    constructor(options) {
      const mode = readMode(options);
      super(options);
      if (mode !== 'number') modes.set(this, mode);
    }
  };
}

/**
 * The `integers` option of `new Client(options)` (options JSON text too). Anything the wasm
 * refuses (text that is not JSON, an options value that is not an object) is left to it.
 */
function readMode(options) {
  let mode;
  try {
    const value = typeof options === 'string' ? JSON.parse(options) : options;
    mode = value !== null && typeof value === 'object' ? value.integers : undefined;
  } catch {
    return 'number';
  }
  if (mode === undefined || mode === null) return 'number';
  if (INTEGER_MODES.includes(mode)) return mode;
  // The shape of every `invalid_argument` error the wasm throws (src/js/errors.rs).
  const error = new Error(`invalid client options: integers must be one of ${JSON.stringify(INTEGER_MODES)}`);
  error.name = 'SerpkitError';
  error.code = 'invalid_argument';
  throw error;
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
 * the `unsafe_integer` warnings for the report (under "number" only; empty otherwise).
 */
export function exactData(text, mode) {
  const data = JSON.parse(text);
  const found = unsafeIntegers(text);
  const warnings = [];
  if (found.length === 0) return { data, warnings };
  if (mode === 'number') {
    const seen = new Set();
    for (const integer of found) {
      const pattern = pointer(integer, true) || '/';
      if (seen.has(pattern)) continue;
      seen.add(pattern);
      warnings.push({
        path: pointer(integer, false),
        code: 'unsafe_integer',
        severity: 'warning',
        message: `integer ${integer.digits} is beyond ±(2^53 - 1): data holds it as ${Number(integer.digits)}, rounded (the client option integers: "bigint" or "string" keeps it exact); reported once for ${pattern}`,
      });
    }
    return { data, warnings };
  }
  const exact = (digits) => (mode === 'bigint' ? BigInt(digits) : digits);
  let root = data;
  for (const integer of found) {
    if (integer.path.length === 0) {
      root = exact(integer.digits);
      continue;
    }
    let holder = root;
    for (let k = 0; k < integer.path.length - 1 && holder !== null && typeof holder === 'object'; k++) {
      holder = holder[integer.path[k]];
    }
    if (holder !== null && typeof holder === 'object') holder[integer.path[integer.path.length - 1]] = exact(integer.digits);
  }
  return { data: root, warnings };
}

/**
 * A reply's `data` (the body text the wasm client hands over) made under the client's mode;
 * under "number", its warnings join the reply's report (a report of them alone when
 * validation is off: rounding is never silent). `key` names the field holding the text.
 */
export function settleData(reply, mode) {
  if (reply === null || typeof reply !== 'object' || typeof reply.data !== 'string') return reply;
  const { data, warnings } = exactData(reply.data, mode);
  reply.data = data;
  if (warnings.length > 0) {
    const report = reply.report ?? { ok: true, errors: [], warnings: [], error_count: 0, warning_count: 0, omitted: 0 };
    report.warnings.push(...warnings);
    report.warning_count += warnings.length;
    reply.report = report;
  }
  return reply;
}
