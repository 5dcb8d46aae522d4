// `serpkit/schema`: the package's schema-only entry, with no wasm. What validating a parsed
// body needs is the generated JS validators (validators.js, run by validate_value.js) and
// the static data the core wrote at build time (static_data.js): `validateResponse(op,
// value)`, `responseSchema(op)` (Standard Schema v1 with the Standard JSON Schema extension),
// `jsonSchema(op)` and `operations()`, importable in any bundler and runtime, with no `init()`.
// The main entry (`serpkit`) uses the same Standard Schema object (`standardSchema` below)
// over its own lookups.
//
// Decided: this entry reads operation names as the core does (`operationIndex`, held to the
// core's reading by tests/js/schema_entry.test.mjs) and takes a request as given (an object,
// or its JSON text), without the core's request checks: those live in the wasm. It validates
// parsed values only: text and bytes are refused (`invalid_argument`), as reading them is
// the wasm's job (`validateResponse` of `serpkit`), or `JSON.parse` them first.
import { SerpkitError, isSerpkitError, serpkitError } from './serpkit_error.js';
import { MAX_DEPTH, OPERATIONS, SCHEMAS } from './static_data.js';
import { VALIDATORS, MAX_ISSUES } from './validators.js';
import { tooDeep, tooDeepReport, validateValue } from './validate_value.js';

export { SerpkitError, isSerpkitError };

/** All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel, unitNote }]`. */
export function operations() {
  return JSON.parse(OPERATIONS);
}

/** The operations' paths, in the core's order (`Operation::ALL`). */
let paths;

/**
 * The place of the operation `name` in the core's list, read as `Operation::from_str` reads
 * it: trimmed, one leading `/` and then `v1/` dropped. Throws the core's errors:
 * `invalid_argument` for a name that is not a string, `unknown_operation` for another.
 */
export function operationIndex(name) {
  if (typeof name !== 'string') {
    throw new SerpkitError('invalid_argument', 'the operation must be a string ("related")');
  }
  paths ??= operations().map((op) => op.path);
  let path = name.trim();
  if (path.startsWith('/')) path = path.slice(1);
  if (path.startsWith('v1/')) path = path.slice(3);
  const index = paths.indexOf(path);
  if (index < 0) {
    throw new SerpkitError('unknown_operation', `unknown operation ${JSON.stringify(name.slice(0, 80))}; expected one of: ${paths.join(', ')}`);
  }
  return index;
}

/** The JSON Schema (2020-12) of the operation's response. */
export function jsonSchema(operation) {
  return JSON.parse(SCHEMAS[operationIndex(operation)]);
}

/** Text or bytes: what only the wasm reads. */
function isText(body) {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

/** A request as given: an object, its JSON text, or absent (`undefined`). */
function requestOf(request) {
  if (request === undefined || request === null) return undefined;
  let value = request;
  if (typeof request === 'string') {
    try {
      value = JSON.parse(request);
    } catch {
      throw new SerpkitError('invalid_argument', 'the request text is not JSON');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SerpkitError('invalid_argument', 'the request must be an object (or its JSON text)');
  }
  return value;
}

/**
 * `value` with the operation's generated validator: its JSON text's value when it can only be
 * read through `JSON.stringify` (a `toJSON` method), as the main entry reads it as text.
 */
function validateAt(index, value, request) {
  try {
    return validateValue(VALIDATORS[index], value, request, MAX_ISSUES);
  } catch {
    // Nesting too deep for the stack: a `json` error at its path (as the main entry's).
    const deep = tooDeep(value, MAX_DEPTH);
    if (deep !== undefined) return tooDeepReport(deep, MAX_DEPTH);
    let text;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new SerpkitError('invalid_argument', `the value is not JSON data: ${error?.message ?? error}`);
    }
    if (text === undefined) throw new SerpkitError('invalid_argument', 'the value is not JSON data');
    return validateValue(VALIDATORS[index], JSON.parse(text), request, MAX_ISSUES);
  }
}

/**
 * Validates a parsed response body of `operation` (`await res.json()`) against every rule a
 * value can show, with the rules tied to the request when `request` is given: the same
 * report as `validateResponse` of `serpkit` gives for a parsed value.
 */
export function validateResponse(operation, value, request) {
  const index = operationIndex(operation);
  if (isText(value)) {
    throw new SerpkitError('invalid_argument', 'serpkit/schema validates parsed values: JSON.parse the text first, or use validateResponse of "serpkit" for text and bytes');
  }
  return validateAt(index, value, requestOf(request));
}

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
 * The operation's response as a Standard Schema v1 with the Standard JSON Schema extension:
 * `path` the operation's path, `index` its place, `validate(value)` its report (it may throw:
 * the error becomes the one issue). Errors are the issues (`{ message, path, code }`, path
 * segments from the JSON Pointer); warnings are on the result's `serpkit` field (`{ report }`:
 * the whole report), on success and failure alike.
 */
export function standardSchema(path, index, validate) {
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
          report = validate(value);
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

/** `options` of `responseSchema`: an object such as `{ request }`, or absent. */
export function schemaOptions(options) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new SerpkitError('invalid_argument', 'responseSchema options must be an object such as { request }');
  }
  return options?.request;
}

/**
 * The operation's response as a Standard Schema (for Hono, tRPC, TanStack Form and any other
 * library that takes one), validating parsed values with the generated JS validator;
 * `options.request` adds the rules tied to the request.
 */
export function responseSchema(operation, options) {
  const index = operationIndex(operation);
  const path = JSON.parse(OPERATIONS)[index].path;
  const request = requestOf(schemaOptions(options));
  return standardSchema(path, index, (value) => validateAt(index, value, request));
}
