// The JS package's functions written in JS around generated data (examples/pkg_data.rs writes
// static_data.js and validators.js at build time from the Rust core's declarations):
// `operations()` and `jsonSchema(op)` (static data, so the wasm carries no schema writer; each
// call parses the JSON text again, so every caller gets its own copy), and
// `validateResponse` / `parseResponse`, which pick the validator for what the caller holds:
// the wasm engine for text and bytes (every rule), the generated JS validator for a parsed
// value (every rule a value can show: see `validateResponse` in serpkit.d.ts).
import { Client } from './serpkit.js';
import { SerpkitError, settled } from './client_options.js';
import { schemaOptions, standardSchema } from './schema.js';
import { OPERATIONS, SCHEMAS } from './static_data.js';
import { VALIDATORS, MAX_ISSUES } from './validators.js';
import { validateValue } from './validate_value.js';

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
/** The wasm engine: every rule, on text. */
const validateText = (operation, body, request) => settled(Client.__validateText, operation, body, request);
/** The core's reading of a request (its `invalid_request` error), as for text. */
const readRequest = (operation, request) => settled(Client.__readRequest, operation, request);

/**
 * The estimated charge of a request (the wasm's `estimateCost`, exported as the package's
 * with its errors made `SerpkitError` instances).
 */
export function checkedEstimate(estimateCost) {
  return function estimateCostChecked(operation, request) {
    return settled(estimateCost, operation, request);
  };
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
    // A value only its JSON text can tell (`NEEDS_TEXT`: a `toJSON` method), or one that threw
    // while read (a getter, a cycle, nesting too deep for the stack): as its JSON text, which
    // gives the report, or the typed error (`invalid_argument`) when it has none.
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
