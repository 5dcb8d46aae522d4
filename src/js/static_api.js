// The JS package's functions written in JS around generated data (examples/pkg_data.rs writes
// static_data.js and validators.js at build time from the Rust core's declarations):
// `operations()` and `jsonSchema(op)` (static data, so the wasm carries no schema writer; each
// call parses the JSON text again, so every caller gets its own copy), and
// `validateResponse` / `parseResponse`, which pick the validator for what the caller holds:
// the wasm engine for text and bytes (every rule), the generated JS validator for a parsed
// value (every rule a value can show: see `validateResponse` in serpkit.d.ts).
import { Client } from './serpkit.js';
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
  const schema = SCHEMAS[Client.__operationIndex(operation)];
  if (schema === undefined) throw new Error('jsonSchema: the core knows this operation but has no schema for it');
  return JSON.parse(schema);
}

// The wasm engine (every rule, on text) and its reading of requests: static methods of
// `Client`, so the module exports only the documented names.
const validateText = (operation, body, request) => Client.__validateText(operation, body, request);

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
  // Not JSON data (`undefined`, a function, a symbol, a BigInt): the core's error, as before.
  if (typeof body !== 'object' && typeof body !== 'number' && typeof body !== 'boolean') {
    return validateText(operation, body, request);
  }
  return validateParsed(operation, body, request);
}

/** A parsed value (a string too: a JSON string value here) with the generated JS validator. */
function validateParsed(operation, body, request) {
  // The core reads the name (and throws its error for a bad one), as for text.
  const validator = VALIDATORS[Client.__operationIndex(operation)];
  if (validator === undefined) throw new Error('validateResponse: the core knows this operation but has no JS validator for it');
  let parsed;
  if (request !== undefined && request !== null) {
    // Read (and refused) by the core exactly as with text; the JS view is the same JSON.
    Client.__readRequest(operation, request);
    parsed = typeof request === 'string' ? JSON.parse(request) : request;
  }
  try {
    return validateValue(validator, body, parsed, MAX_ISSUES);
  } catch {
    // A value only its JSON text can tell (`NEEDS_TEXT`: a `toJSON` method, a BigInt), or one
    // that threw while read (a getter, a cycle, nesting too deep for the stack): as its JSON
    // text, which gives the report, or the typed error (`invalid_argument`) when it has none.
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
  const index = Client.__operationIndex(operation);
  const path = JSON.parse(OPERATIONS)[index].path;
  const request = options?.request;
  const schemaFor = ({ target } = {}) => {
    const draft = DRAFTS[target];
    if (draft === undefined) {
      throw new Error(`responseSchema(${JSON.stringify(path)}): JSON Schema target ${JSON.stringify(target)} is not supported (draft-2020-12, draft-07)`);
    }
    return { ...JSON.parse(SCHEMAS[index]), $schema: draft };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'serpkit',
      validate(value) {
        const report = validateParsed(path, value, request);
        const serpkit = { report };
        if (report.ok) return { value, serpkit };
        return {
          issues: report.errors.map((issue) => ({ message: issue.message, path: segments(issue.path, value), code: issue.code })),
          serpkit,
        };
      },
      jsonSchema: { input: schemaFor, output: schemaFor },
    },
  };
}
