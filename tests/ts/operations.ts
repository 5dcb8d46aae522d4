// Type-checked by `tsc --noEmit --strict -p tests/ts` (cargo xtask js / test), never run: every
// static function and client method is typed by the operation, by its name or its `/v1/` path;
// an unknown name, or a request of another operation, does not compile. Each
// `@ts-expect-error` line must fail to compile, or tsc fails.
import {
  Client,
  estimateCost,
  jsonSchema,
  parseResponse,
  responseSchema,
  validateResponse,
} from '../../pkg/serpkit.js';
import type {
  CostEstimate,
  DomainOverview,
  OperationOf,
  Operations,
  Quote,
  RelatedKeyword,
  RequestOf,
  ResponseOf,
  SearchVolumeRecord,
  ValidationReport,
} from '../../pkg/serpkit.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Both spellings name one operation.
export const names: [
  Same<OperationOf<'/v1/related'>, 'related'>,
  Same<OperationOf<'backlink/overview'>, 'backlink/overview'>,
  Same<RequestOf<'/v1/search_volume/bulk'>, Operations['search_volume/bulk']['request']>,
  Same<ResponseOf<'/v1/backlink/overview'>, DomainOverview>,
] = [true, true, true, true];

export function staticFunctions(text: string): void {
  // responseSchema: a Standard Schema whose output is the operation's response.
  const related = responseSchema('related');
  const overview = responseSchema('/v1/backlink/overview', { request: { domain: 'example.com' } });
  const outputs: [
    Same<StandardSchemaV1.InferOutput<typeof related>, RelatedKeyword[]>,
    Same<StandardSchemaV1.InferInput<typeof related>, RelatedKeyword[]>,
    Same<StandardSchemaV1.InferOutput<typeof overview>, DomainOverview>,
  ] = [true, true, true];
  const result = related['~standard'].validate(JSON.parse(text));
  if (!result.issues) {
    const kd: number = result.value[0]?.kd ?? 0;
    void kd;
  }
  // parseResponse: the data is the operation's response once `ok` says it is valid.
  const parsed = parseResponse('/v1/search_volume/single', text);
  const record: SearchVolumeRecord | undefined = parsed.ok ? parsed.data : undefined;
  const volume: number | undefined = parsed.ok ? parsed.data.SEARCH_VOLUME : undefined;
  // validateResponse, jsonSchema, estimateCost: typed names and requests.
  const report: ValidationReport = validateResponse('search_volume/bulk', text, { keywords: ['a'], ccode: 'US' });
  const schema: Record<string, unknown> = jsonSchema('/v1/outline/seo');
  const cost: CostEstimate = estimateCost('/v1/domainstats', { domains: ['example.com'] });
  void [outputs, record, volume, report, schema, cost];

  // @ts-expect-error not an operation
  responseSchema('relatd');
  // @ts-expect-error not an operation (the path needs its /v1/ prefix or none)
  parseResponse('v1/related', text);
  // @ts-expect-error not an operation
  validateResponse('search_volume', text);
  // @ts-expect-error not an operation
  jsonSchema('nope');
  // @ts-expect-error not an operation
  estimateCost('/v2/related', { keyword: 'a', ccode: 'US' });
  // @ts-expect-error a related request has a keyword, not a domain
  estimateCost('related', { domain: 'example.com' });
  // @ts-expect-error search_volume/bulk needs keywords, not one keyword
  validateResponse('search_volume/bulk', text, { keyword: 'a', ccode: 'US' });
  // @ts-expect-error the request of backlink/overview is a domain
  responseSchema('backlink/overview', { request: { keyword: 'a' } });
  const related2 = parseResponse('related', text);
  // @ts-expect-error related records have no rank
  if (related2.ok) void related2.data[0]?.rank;
  // @ts-expect-error a string is not the name of an operation (a widened name is refused too)
  jsonSchema(String('related'));
}

export async function clientMethods(c: Client<'number', 'strict'>): Promise<void> {
  const quote: Quote = await c.quote('/v1/search_volume/bulk', { keywords: ['a'], ccode: 'US' });
  const related: RelatedKeyword[] = (await c.call('/v1/related', { keyword: 'a', ccode: 'US' })).data;
  void [quote, related];
  // @ts-expect-error not an operation
  await c.quote('search-volume/bulk', { keywords: ['a'], ccode: 'US' });
  // @ts-expect-error a bulk request has keywords
  await c.quote('search_volume/bulk', { keyword: 'a', ccode: 'US' });
  // @ts-expect-error not an operation
  await c.call('/v1/nope', {});
}
