// The JS package's functions written in JS around generated data (examples/pkg_data.rs writes
// static_data.js and validators.js at build time from the Rust core's declarations):
// `operations()` and `jsonSchema(op)` (static data, so the wasm carries no schema writer; each
// call parses the JSON text again, so every caller gets its own copy), and
// `validateResponse` / `parseResponse`, which pick the validator for what the caller holds:
// the wasm engine for text and bytes (every rule), the generated JS validator for a parsed
// value (every rule a value can show: see `validateResponse` in serpkit.d.ts).
import { Client } from './serpkit.js';
import { SerpkitError, serpkitError, settled } from './client_options.js';
import { OPERATIONS, SCHEMAS } from './static_data.js';
import { VALIDATORS, MAX_ISSUES } from './validators.js';
import { validateValue } from './validate_value.js';

/** All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel }]`. */
export function operations() {
  return JSON.parse(OPERATIONS);
}

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
 * validator. Returns `{ data, report }`; `data` is `undefined` when the text is not JSON (the
 * report then has the `json` error with its position, from the wasm engine). Faster than
 * `validateResponse(text)` followed by `JSON.parse` when the data is needed anyway, but blind
 * to what only text shows (see `validateResponse`).
 */
export function parseResponse(operation, body, request) {
  let text = body;
  if (typeof body !== 'string') {
    // Neither text nor bytes: read by the wasm engine as it reads any value (its JSON text, or
    // its typed error).
    if (!isText(body)) return { data: undefined, report: validateText(operation, body, request) };
    decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    try {
      text = decoder.decode(body);
    } catch {
      return { data: undefined, report: validateText(operation, body, request) };
    }
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { data: undefined, report: validateText(operation, text, request) };
  }
  // The parsed value, whatever it is (a JSON string too: not text to read again).
  return { data, report: validateParsed(operation, data, request) };
}

// ---- Standard Schema ---------------------------------------------------------------------

/** JSON Pointer `/0/kd` as Standard Schema path segments `[0, "kd"]` (indices of arrays as numbers). */
function segments(pointer, value) {
  if (pointer === '') return [];
  const out = [];
  let at = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : undefined;
    out.push(index ?? key);
    at = at !== null && typeof at === 'object' ? at[index ?? key] : undefined;
  }
  return out;
}

const DRAFTS = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  // Our schemas use only keywords draft-07 reads the same way (type, properties, required,
  // items as one schema, enum, pattern, minimum, maximum, minItems, maxItems,
  // additionalProperties): only `$schema` differs.
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/**
 * The operation's response as a Standard Schema v1 (`~standard.validate`, for any library that
 * takes one: Hono, tRPC, TanStack Form, ...), with the Standard JSON Schema extension
 * (`~standard.jsonSchema.input/output({ target })`, `draft-2020-12` or `draft-07`).
 * `validate(value)` runs the operation's generated JS validator on the parsed value: errors
 * are the issues (`{ message, path }`, path segments from the JSON Pointer); warnings are not
 * issues, they are on the result's `serpkit` field (`{ report }`: the whole report), on success
 * and failure alike. `options.request` adds the rules tied to the request.
 */
export function responseSchema(operation, options) {
  const index = operationIndex(operation);
  const path = JSON.parse(OPERATIONS)[index].path;
  const validator = validatorOf(path);
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new SerpkitError('invalid_argument', 'responseSchema options must be an object such as { request }');
  }
  // The request is read (and refused: `invalid_request`) here, once, not by every `validate`.
  const request = options?.request;
  const parsed = requestView(path, request);
  const schemaFor = ({ target } = {}) => {
    const draft = DRAFTS[target];
    if (draft === undefined) {
      throw new SerpkitError('invalid_argument', `responseSchema(${JSON.stringify(path)}): JSON Schema target ${JSON.stringify(target)} is not supported (draft-2020-12, draft-07)`);
    }
    return { ...JSON.parse(SCHEMAS[index]), $schema: draft };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'serpkit',
      // Never throws: a value no validator can read (a cycle as its JSON text) is one issue.
      validate(value) {
        let report;
        try {
          report = validateValueOf(path, validator, value, parsed, request);
        } catch (error) {
          const failure = serpkitError(error);
          return { issues: [{ message: String(failure?.message ?? failure), path: [], code: failure?.code ?? 'invalid_argument' }], serpkit: { error: failure } };
        }
        const serpkit = { report };
        if (report.ok) return { value, serpkit };
        const issues = report.errors.map((issue) => ({ message: issue.message, path: segments(issue.path, value), code: issue.code }));
        // A report that is not ok lists its first errors (src/validate/engine.rs's cap); this
        // keeps `issues` non-empty whatever a report says.
        if (issues.length === 0) issues.push({ message: `${report.error_count} error(s), none listed`, path: [], code: 'type' });
        return { issues, serpkit };
      },
      jsonSchema: { input: schemaFor, output: schemaFor },
    },
  };
}
