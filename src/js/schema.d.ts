// `serpkit/schema`: the schema-only entry, no wasm and no `init()` (src/js/schema.js). The
// types are the main entry's.
import type { OperationInfo, OperationRef, ParsedBody, RequestOf, ResponseOf, ResponseSchema, ValidationReport } from "./serpkit.js";
export type * from "./serpkit_types.js";
export type {
  OperationInfo,
  OperationOf,
  OperationRef,
  RequestOf,
  ResponseOf,
  ResponseSchema,
  ResponseSchemaResult,
  ResponseJsonSchemaOptions,
  ValidationIssue,
  ValidationReport,
  Severity,
  ErrorCode,
  SerpkitErrorJson,
  ParsedBody,
} from "./serpkit.js";
export { SerpkitError, isSerpkitError } from "./serpkit.js";

/** All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel }]`. */
export function operations(): OperationInfo[];

/** The JSON Schema (2020-12) of the operation's response. */
export function jsonSchema(operation: OperationRef): Record<string, unknown>;

/**
 * Validates a parsed response body of `operation` (`await res.json()`) with the operation's
 * generated JS validator: the report `validateResponse` of `serpkit` gives for a parsed
 * value. Text and bytes are refused (`invalid_argument`): `JSON.parse` them first, or use the
 * main entry, whose wasm reads them. `request` (taken as given, without the core's checks)
 * adds the rules tied to the request. Nesting deeper than 127 levels is a `json` error at its
 * path, not a throw.
 *
 * @example
 * import { validateResponse } from "serpkit/schema";
 * const report = validateResponse("related", await res.json());
 */
export function validateResponse<P extends OperationRef, B>(operation: P, value: ParsedBody<B>, request?: RequestOf<P> | null): ValidationReport;

/** The operation's response as a Standard Schema v1 (see `responseSchema` of `serpkit`). */
export function responseSchema<P extends OperationRef>(operation: P, options?: { request?: RequestOf<P> | null }): ResponseSchema<ResponseOf<P>>;
