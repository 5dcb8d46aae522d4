// The JS package's functions written in JS around generated data (examples/pkg_data.rs writes
// static_data.js and validators.js at build time from the Rust core's declarations):
// `operations()` and `jsonSchema(op)` (static data, so the wasm carries no schema writer; each
// call parses the JSON text again, so every caller gets its own copy), and
// `validateResponse` / `parseResponse`, which pick the validator for what the caller holds:
// the wasm engine for text and bytes (every rule), the generated JS validator for a parsed
// value (every rule a value can show: see `validateResponse` in serpkit.d.ts).
import { Client } from './serpkit.js';
import { SerpkitError, settled } from './client_options.js';
import { operationIndex as jsOperationIndex, schemaOptions, standardSchema } from './schema.js';
import { MAX_DEPTH, OPERATIONS, SCHEMAS } from './static_data.js';
import { VALIDATORS, MAX_ISSUES } from './validators.js';
import { tooDeep, tooDeepReport, validateValue } from './validate_value.js';

// `operations()`: no lookup, the same in both entries.
export { operations } from './schema.js';

/** The JSON Schema (2020-12) of the operation's response. */
export function jsonSchema(operation) {
  // The core reads the name (trimmed, with or without `/v1/`) and gives the operation's
  // place in the list, or throws its error (`invalid_argument` or `unknown_operation`), as
  // every export does.
  const schema = SCHEMAS[operationIndex(operation)];
  if (schema === undefined) throw new SerpkitError('unknown_operation', 'jsonSchema: the core knows this operation but has no schema for it');
  return JSON.parse(schema);
}

// The wasm's functions these call, their errors made `SerpkitError` instances: static
// methods of `Client`, so the module exports only the documented names.
const operationIndex = (operation) => settled(Client.__operationIndex, operation);
/**
 * The wasm engine: every rule, on text. Bytes that are not UTF-8, which the wasm refuses
 * (`invalid_argument`), get their report here (`notUtf8Report`).
 */
function validateText(operation, body, request) {
  try {
    return settled(Client.__validateText, operation, body, request);
  } catch (error) {
    const report = error?.code === 'invalid_argument' && isBytes(body) ? notUtf8Report(operation, body, request) : undefined;
    if (report === undefined) throw error;
    return report;
  }
}
/** The core's reading of a request (its `invalid_request` error), as for text. */
const readRequest = (operation, request) => settled(Client.__readRequest, operation, request);

/**
 * The estimated charge of a request (the wasm's `estimateCost`, exported as the package's
 * with its errors made `SerpkitError` instances).
 */
export function checkedEstimate(estimateCost) {
  return function estimateCostChecked(operation, request) {
    const estimate = settled(estimateCost, operation, request);
    // The JS lookup (the wasm already read the name): the wasm `Client` stays out of a
    // bundle that imports `estimateCost` alone.
    const { price, unitLabel, unitNote } = JSON.parse(OPERATIONS)[jsOperationIndex(operation)];
    estimate.explanation = `${estimate.units} × ${price.display} ${unitLabel} = ${estimate.display}: ${unitNote}`;
    return estimate;
  };
}

/** `Uint8Array` or `ArrayBuffer`. */
function isBytes(body) {
  return body instanceof Uint8Array || body instanceof ArrayBuffer;
}

/**
 * The report of bytes that are not UTF-8, as the wasm engine reports text that stops being
 * JSON (JSON text is UTF-8, RFC 8259): the valid part's own report when it breaks first (a
 * syntax error before the bad byte), else a `json` error at the first bad byte's offset, its
 * line and column (in characters) as the engine counts them. Only after the wasm refused the
 * bytes, so valid bytes never pay for the scan; `undefined` when they are UTF-8 after all
 * (refused for another reason).
 */
function notUtf8Report(operation, body, request) {
  const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
  const at = firstBadByte(bytes);
  if (at === undefined) return undefined;
  const valid = bytes.subarray(0, at);
  const prefix = settled(Client.__validateText, operation, valid, request);
  if (prefix.position !== undefined && prefix.position.offset < at) return prefix;
  const text = new TextDecoder().decode(valid);
  const lineStart = text.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  let column = 1;
  for (const _ of text.slice(lineStart)) column++;
  const message = `not valid JSON at byte ${at} (line ${line}, column ${column}): not UTF-8`;
  return {
    ok: false,
    errors: [{ path: '', code: 'json', severity: 'error', message }],
    warnings: [],
    error_count: 1,
    warning_count: 0,
    omitted: 0,
    position: { offset: at, line, column },
  };
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence (Rust's `valid_up_to`), or `undefined`. */
function firstBadByte(bytes) {
  const n = bytes.length;
  for (let i = 0; i < n; ) {
    const c = bytes[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // The sequence's length and its second byte's range (no overlong forms, no surrogates, at most U+10FFFF).
    let length, low = 0x80, high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) length = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      length = 3;
      if (c === 0xe0) low = 0xa0;
      if (c === 0xed) high = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      length = 4;
      if (c === 0xf0) low = 0x90;
      if (c === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > n || bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += length;
  }
  return undefined;
}

/** Text or bytes: what the wasm engine reads as is. */
function isText(body) {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

/**
 * Validates a response body of the operation: JSON text or its UTF-8 bytes in wasm (every
 * rule, text-only ones included), a parsed value with the operation's generated JS validator
 * (same report; the rules only text can show are left to text). With `request`, also the
 * rules tied to the request.
 */
export function validateResponse(operation, body, request) {
  if (isText(body)) return validateText(operation, body, request);
  // Not JSON data (`undefined`, a function, a symbol): the core's error, as before. A BigInt
  // is an integer (the client's `integers: "bigint"`).
  if (typeof body !== 'object' && typeof body !== 'number' && typeof body !== 'boolean' && typeof body !== 'bigint') {
    return validateText(operation, body, request);
  }
  return validateParsed(operation, body, request);
}

/** The operation's JS validator (the core reads the name and throws its error for a bad one). */
function validatorOf(operation) {
  const validator = VALIDATORS[operationIndex(operation)];
  if (validator === undefined) throw new SerpkitError('unknown_operation', 'validateResponse: the core knows this operation but has no JS validator for it');
  return validator;
}

/** A request read by the core as for text (its error thrown), then its JS view (`undefined` when absent). */
function requestView(operation, request) {
  if (request === undefined || request === null) return undefined;
  readRequest(operation, request);
  return typeof request === 'string' ? JSON.parse(request) : request;
}

/** A parsed value (a string too: a JSON string value here) with the generated JS validator. */
function validateParsed(operation, body, request) {
  return validateValueOf(operation, validatorOf(operation), body, requestView(operation, request), request);
}

/** `body` with the validator, `parsed` the request's JS view (`request` as given, for text). */
function validateValueOf(operation, validator, body, parsed, request) {
  try {
    return validateValue(validator, body, parsed, MAX_ISSUES);
  } catch {
    // Nesting too deep for the stack: a `json` error at the path where it passes the limit
    // the wasm engine keeps for text (whose `JSON.stringify` would overflow too).
    const deep = tooDeep(body, MAX_DEPTH);
    if (deep !== undefined) return tooDeepReport(deep, MAX_DEPTH);
    // A value only its JSON text can tell (`NEEDS_TEXT`: a `toJSON` method), or one that threw
    // while read (a getter, a cycle): as its JSON text, which gives the report, or the typed
    // error (`invalid_argument`) when it has none.
    return validateText(operation, body, request);
  }
}

// Decodes bytes as the wasm engine reads them: UTF-8, invalid bytes refused, a BOM kept.
let decoder;

/**
 * Validated data from JSON text or UTF-8 bytes: `JSON.parse`, then the operation's JS
 * validator. Returns `{ ok, data, report }` (`ok`: the report's); `data` is `undefined` when the text is not JSON (the
 * report then has the `json` error with its position, from the wasm engine). Faster than
 * `validateResponse(text)` followed by `JSON.parse` when the data is needed anyway, but blind
 * to what only text shows (see `validateResponse`).
 */
export function parseResponse(operation, body, request) {
  let text = body;
  if (typeof body !== 'string') {
    // Neither text nor bytes: read by the wasm engine as it reads any value (its JSON text, or
    // its typed error).
    if (!isText(body)) return parsed(undefined, validateText(operation, body, request));
    decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    try {
      text = decoder.decode(body);
    } catch {
      return parsed(undefined, validateText(operation, body, request));
    }
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return parsed(undefined, validateText(operation, text, request));
  }
  // The parsed value, whatever it is (a JSON string too: not text to read again).
  return parsed(data, validateParsed(operation, data, request));
}

/** `parseResponse`'s result, discriminated by `ok` (the report's: `Parsed` in serpkit.d.ts). */
function parsed(data, report) {
  return { ok: report.ok, data, report };
}

// ---- Standard Schema ---------------------------------------------------------------------

/**
 * The operation's response as a Standard Schema v1 (`~standard.validate`, for any library that
 * takes one: Hono, tRPC, TanStack Form, ...), with the Standard JSON Schema extension
 * (`~standard.jsonSchema.input/output({ target })`, `draft-2020-12` or `draft-07`): the
 * object of schema.js (`standardSchema`) over this entry's lookups. `validate(value)` runs the
 * operation's generated JS validator on the parsed value (a value only its JSON text can
 * tell, in wasm). `options.request` adds the rules tied to the request, read (and refused:
 * `invalid_request`) by the core here, once, not by every `validate`.
 */
export function responseSchema(operation, options) {
  const index = operationIndex(operation);
  const path = JSON.parse(OPERATIONS)[index].path;
  const validator = validatorOf(path);
  const request = schemaOptions(options);
  const parsed = requestView(path, request);
  return standardSchema(path, index, (value) => validateValueOf(path, validator, value, parsed, request));
}
