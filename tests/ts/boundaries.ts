// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run (tests/js/headers.test.mjs,
// before_init.test.mjs and boundaries.test.mjs run the same): `headers` takes what `fetch`
// takes; a request is an object (JSON text would type-check whatever it said); the error
// codes are the ones the package raises (`not_initialized` too); an abort is named
// `AbortError`; an error has `toJSON()` and comes back with `SerpkitError.from`. Each
// `@ts-expect-error` line must fail to compile.
import { Client, estimateCost, SerpkitError, validateResponse } from '../../pkg/serpkit.js';
import type { AbortedError, ClientOptions, ErrorCode, SerpkitErrorJson } from '../../pkg/serpkit.js';

// headers: a Headers, [name, value] pairs, or a record.
export const headers: ClientOptions[] = [
  { key: 'k', headers: new Headers({ 'x-trace': 'a' }) },
  { key: 'k', headers: [['x-trace', 'a']] },
  { key: 'k', headers: { 'x-trace': 'a' } },
];
// @ts-expect-error a pair is two strings
export const badPair: ClientOptions = { key: 'k', headers: [['x-trace']] };

export async function textRequests(c: Client): Promise<void> {
  // @ts-expect-error a request given as text is not typed (any string would compile): parse it
  await c.call('related', '{"domain":"example.com"}');
  // @ts-expect-error the same for quote and estimateCost
  estimateCost('related', '{"keyword":"a","ccode":"US"}');
  // @ts-expect-error and for the request of a validation
  validateResponse('related', '[]', '{"keyword":"a"}');
  // What a TypeScript user writes instead: the object (JSON.parse gives one, unchecked).
  await c.call('related', { keyword: 'a', ccode: 'US' });
}

export const notInitialized: ErrorCode = 'not_initialized';

export function errors(e: SerpkitError): SerpkitErrorJson {
  if (e.code === 'aborted') {
    const named: 'AbortError' = e.name;
    const same: AbortedError = e;
    void [named, same];
  } else {
    // @ts-expect-error only an abort is named AbortError
    const named: 'AbortError' = e.name;
    void named;
  }
  const json: SerpkitErrorJson = e.toJSON();
  const back: SerpkitError = SerpkitError.from(structuredClone(json));
  void back;
  return json;
}
