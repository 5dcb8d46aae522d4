// `operations()` and `jsonSchema(op)` of the JS package: static data, generated from the Rust
// core at build time (examples/pkg_data.rs writes static_data.js), so the wasm carries no
// schema writer. Each call parses the JSON text again: every caller gets its own copy.
import { Client } from './serpkit.js';
import { OPERATIONS, SCHEMAS } from './static_data.js';

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
