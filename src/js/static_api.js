// `operations()` and `jsonSchema(op)` of the JS package: static data, generated from the Rust
// core at build time (examples/pkg_data.rs writes static_data.js), so the wasm carries no
// schema writer. Each call parses the JSON text again: every caller gets its own copy.
import { estimateCost } from './serpkit.js';
import { OPERATIONS, SCHEMAS } from './static_data.js';

/** All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel }]`. */
export function operations() {
  return JSON.parse(OPERATIONS);
}

// Rust's `str::trim` (the White_Space property), which the core's operation names allow.
const SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** The JSON Schema (2020-12) of the operation's response. */
export function jsonSchema(operation) {
  if (typeof operation === 'string') {
    let p = operation.replace(SPACE, '');
    if (p.startsWith('/')) p = p.slice(1);
    if (p.startsWith('v1/')) p = p.slice(3);
    if (Object.hasOwn(SCHEMAS, p)) return JSON.parse(SCHEMAS[p]);
  }
  // Not an operation: the core's error for it (`invalid_argument` or `unknown_operation`),
  // which `estimateCost` throws before it reads the request.
  estimateCost(operation, '{}');
  throw new Error('jsonSchema: the core knows this operation but has no schema for it');
}
