// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run (tests/js/declarations.test.mjs
// and edge_inputs.test.mjs run the same): the types tell the truth (issue 56). `validateResponse`
// takes text, bytes or a parsed value, never a `Response` or a promise; requests take readonly
// arrays; a `SerpkitError` made with `new` has no kind's fields; the new codes are typed.
// Each `@ts-expect-error` line must fail to compile.
import { Client, estimateCost, SerpkitError, validateResponse } from '../../pkg/serpkit.js';
import { validateResponse as validateValue } from '../../pkg/schema.js';
import type { CostEstimate, ErrorCode, OperationInfo, RedirectError } from '../../pkg/serpkit.js';

export async function bodies(res: Response, parsed: unknown, data: unknown[]): Promise<void> {
  validateResponse('related', await res.text());
  validateResponse('related', new Uint8Array(await res.arrayBuffer()));
  validateResponse('related', await res.arrayBuffer());
  validateResponse('related', parsed);
  validateResponse('related', data);
  validateResponse('related', await res.json());
  validateValue('related', data);
  // @ts-expect-error a Response is no body: read it first
  validateResponse('related', res);
  // @ts-expect-error nor is a promise: await it
  validateResponse('related', res.json() as Promise<unknown>);
  // @ts-expect-error nor undefined
  validateResponse('related', undefined);
  // @ts-expect-error the schema entry too
  validateValue('related', res);
}

export async function readonlyRequests(c: Client): Promise<CostEstimate> {
  const keywords: readonly string[] = ['a', 'b'];
  const urls = ['https://example.com/a'] as const;
  await c.searchVolumeBulk({ keywords, ccode: 'US' });
  await c.searchVolumeBulkChunked({ keywords, ccode: 'US' });
  await c.backlinkMetrics({ urls });
  return estimateCost('domainstats', { domains: Object.freeze(['example.com']) });
}

export function madeErrors(): number | undefined {
  const made = new SerpkitError('http', 'boom');
  const code: 'http' = made.code;
  void code;
  // What a made error has of an HTTP error's fields: none, typed so (it is `undefined`).
  // @ts-expect-error no `status` on an error made with `new`
  return made.status.toFixed();
}

export function codes(e: SerpkitError): string {
  const added: ErrorCode[] = ['redirect', 'init_failed'];
  if (e.code === 'redirect') {
    const redirect: RedirectError = e;
    return `${redirect.status === 0 ? 'hidden' : redirect.status} ${redirect.body} ${added.length}`;
  }
  return e.message;
}

export function prices(o: OperationInfo, e: CostEstimate): string {
  return `${o.unitNote} ${e.explanation}`;
}
