// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run (tests/js/schema_entry.test.mjs
// runs it): `serpkit/schema`, the schema-only entry, has the main entry's types for what it
// offers and nothing that needs the wasm. Each `@ts-expect-error` line must fail to compile.
import * as schema from '../../pkg/schema.js';
import { jsonSchema, operations, responseSchema, SerpkitError, validateResponse } from '../../pkg/schema.js';
import type { RelatedKeyword, ValidationReport } from '../../pkg/schema.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';

export function schemaOnly(value: unknown): void {
  const report: ValidationReport = validateResponse('related', value, { keyword: 'a', ccode: 'US' });
  const std: StandardSchemaV1<RelatedKeyword[]> = responseSchema('/v1/related');
  const out: [Record<string, unknown>, number, boolean] = [jsonSchema('related'), operations().length, new SerpkitError('cache', 'x') instanceof Error];
  // @ts-expect-error not an operation
  validateResponse('nope', value);
  // @ts-expect-error a related request has a keyword, not a domain
  responseSchema('related', { request: { domain: 'example.com' } });
  // @ts-expect-error no wasm here: no init
  void schema.default;
  // @ts-expect-error no client here
  void schema.Client;
  void [report, std, out];
}
