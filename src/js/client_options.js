// The options of `new Client(options)` (and `new Account(options)`), read and checked here in
// JS: read as Rust over JS values they cost the package's wasm about 3 kB gzip. The wasm
// constructor gets their compact form (`compactOptions` below) and keeps what needs the core:
// the base URL's check, the validation mode and dollar amounts in text (src/js/options.rs,
// `ClientOptions`). The rules are those of the JSON form: unknown options are errors, `null`
// and `undefined` mean absent; every error is an `invalid_argument` `SerpkitError`, the first
// found in the order below (which is the order of the Rust reader this replaced).
//
// The package's error class lives in serpkit_error.js (the schema-only entry needs it without
// this reader); it is re-exported here, where the package's other modules import it from.

import { SerpkitError } from './serpkit_error.js';

export { SerpkitError, isSerpkitError, serpkitError, settled, notReady } from './serpkit_error.js';

/** The options of `new Client(...)`: the same list as `CLIENT_OPTION_NAMES` in
 * src/js/options.rs (a unit test there compares them). `integers` and `account` are read in
 * exact_json.js. */
export const CLIENT_OPTION_NAMES = ['key', 'baseUrl', 'timeoutMs', 'retries', 'validation', 'budgetUsd', 'maxBodyBytes', 'headers', 'cache', 'maxAgeMs', 'integers', 'account', 'fetch'];

/** The options of a retry policy (`RETRY_OPTION_NAMES` in src/js/options.rs). */
export const RETRY_OPTION_NAMES = ['maxRetries', 'baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs', 'jitter'];

/** A `SerpkitError` with code `invalid_argument`. */
export function invalidArgument(message) {
  return new SerpkitError('invalid_argument', message);
}

/** An options error, before it gets the `invalid client options: ` prefix. */
class Invalid {
  constructor(message) {
    this.message = message;
  }
}

/** What reading a property that throws gives. */
const UNREADABLE = Symbol('unreadable');

/** `value[key]`, inherited properties too (UNREADABLE when reading throws, as on a primitive). */
function read(value, key) {
  try {
    return Reflect.get(value, key);
  } catch {
    return UNREADABLE;
  }
}

/** An object that is neither a function nor an array. */
function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The own string keys (symbols left out), or `undefined` when they cannot be read. */
function ownKeys(value) {
  try {
    return Reflect.ownKeys(value).filter((key) => typeof key === 'string');
  } catch {
    return undefined;
  }
}

/** A text as the wasm would show it: lone surrogates as U+FFFD, at most 40 characters. */
function shown(text) {
  return Array.from(text.slice(0, 80), (c) => (c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c))
    .slice(0, 40)
    .join('');
}

/** `value` if it is a plain object whose own string keys are all in `known`. */
function bag(value, what, known) {
  if (!isPlainObject(value)) throw new Invalid(`${what} must be an object`);
  const keys = ownKeys(value);
  if (keys === undefined) throw new Invalid(`${what}: keys unreadable`);
  for (const key of keys) {
    if (!known.includes(key)) {
      throw new Invalid(`unknown option \`${shown(key)}\` in ${what} (known: [${known.map((name) => `"${name}"`).join(', ')}])`);
    }
  }
  return value;
}

/** The option `key`; `undefined` when absent, `undefined` or `null` (as in JSON). */
function option(options, key) {
  const value = read(options, key);
  if (value === UNREADABLE) throw new Invalid(`${key}: unreadable`);
  return value === null ? undefined : value;
}

function string(options, key) {
  const value = option(options, key);
  if (value !== undefined && typeof value !== 'string') throw new Invalid(`${key} must be a string`);
  return value;
}

/** A number; NaN and the infinities count as absent (JSON has no such numbers). */
function number(options, key) {
  const value = option(options, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number') throw new Invalid(`${key} must be a number`);
  return Number.isFinite(value) ? value : undefined;
}

/** A whole number from 0 to 2^32 − 1. */
function countOf(value, key) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return value;
  throw new Invalid(`${key} must be a whole number from 0`);
}

/**
 * Reads `new Client(options)`: `options` is the object or its JSON text. `budgetError(text)`
 * is the wasm's reading of a dollar amount in text (its error, or `undefined`).
 * Returns `{ compact, cache, maxAgeMs, fetch }`: the wasm constructor's argument, the record
 * cache (or `undefined`), the age past which stored records are bought again (-1: never) and
 * the `fetch` function (or `undefined`: the global one).
 */
export function readClientOptions(options, budgetError) {
  // JSON.stringify turns NaN and Infinity into null, which would read as "no budget".
  const budget = read(options, 'budgetUsd');
  if (typeof budget === 'number' && !Number.isFinite(budget)) {
    throw invalidArgument('budgetUsd must be a finite amount of dollars');
  }
  let value = options;
  try {
    if (typeof options === 'string') {
      try {
        value = JSON.parse(options);
      } catch {
        throw new Invalid('options text is not JSON');
      }
    }
    return readOptions(value, budgetError);
  } catch (error) {
    if (error instanceof Invalid) throw invalidArgument(`invalid client options: ${error.message}`);
    throw error;
  }
}

/** Reads the options object (errors: `Invalid`). */
function readOptions(value, budgetError) {
  const options = bag(value, 'options', CLIENT_OPTION_NAMES);
  let maxRetries;
  let baseDelayMs;
  let maxDelayMs;
  let maxRetryAfterMs;
  let jitter;
  const retries = option(options, 'retries');
  if (typeof retries === 'number') {
    maxRetries = countOf(retries, 'retries');
  } else if (retries !== undefined) {
    let policy;
    try {
      policy = bag(retries, 'retries', RETRY_OPTION_NAMES);
    } catch (error) {
      throw new Invalid(`${error.message} (or a number of retries)`);
    }
    const count = option(policy, 'maxRetries');
    maxRetries = count === undefined ? undefined : countOf(count, 'maxRetries');
    baseDelayMs = number(policy, 'baseDelayMs');
    maxDelayMs = number(policy, 'maxDelayMs');
    maxRetryAfterMs = number(policy, 'maxRetryAfterMs');
    jitter = option(policy, 'jitter');
    if (jitter !== undefined && typeof jitter !== 'boolean') throw new Invalid('jitter must be a boolean');
  }
  let budgetText;
  let budgetNumber;
  const budget = option(options, 'budgetUsd');
  if (typeof budget === 'number' && budget >= 0 && budget < 9e12) {
    budgetNumber = budget;
  } else if (typeof budget === 'string') {
    // The wasm's own reading of dollar amounts (its `invalid_argument` error as it is).
    const error = budgetError(budget);
    if (error !== undefined) throw error;
    budgetText = budget;
  } else if (budget !== undefined) {
    throw new Invalid('budgetUsd must be a dollar amount from 0');
  }
  const headers = headerList(option(options, 'headers'));
  const key = string(options, 'key');
  const baseUrl = baseUrlOf(options);
  const timeoutMs = number(options, 'timeoutMs');
  const validation = string(options, 'validation');
  const maxBodyBytes = number(options, 'maxBodyBytes');
  const cache = option(options, 'cache');
  if (cache !== undefined && !(hasMethod(cache, 'get') && hasMethod(cache, 'put'))) {
    throw new Invalid('cache must be an object with get(kind, keys) and put(kind, entries) methods');
  }
  const maxAgeMs = number(options, 'maxAgeMs');
  const fetch = option(options, 'fetch');
  if (fetch !== undefined && typeof fetch !== 'function') {
    throw new Invalid('fetch must be a function (url, init) => Promise<Response>, as the global fetch');
  }
  // The order `ClientOptions::from_compact` reads (src/js/options.rs).
  const compact = [key ?? '', baseUrl, validation, budgetText, budgetNumber, timeoutMs, maxRetries, baseDelayMs, maxDelayMs, maxRetryAfterMs, jitter, maxBodyBytes, ...headers];
  return { compact, cache, maxAgeMs: maxAgeMs !== undefined && maxAgeMs >= 0 ? maxAgeMs : -1, fetch };
}

const HEADERS_KINDS = 'a Headers, an array of [name, value] pairs or an object of strings (as fetch takes)';

/**
 * The `headers` option as `[name, value, name, value, ...]`: what `fetch` takes as
 * `HeadersInit`, a `Headers` object, an array of `[name, value]` pairs or a plain object of
 * strings (anything else refused: a header silently dropped would be worse). A `Headers`
 * object gives its names in lower case, as it holds them.
 */
function headerList(value) {
  const out = [];
  if (value === undefined) return out;
  if (Object.prototype.toString.call(value) === '[object Headers]') {
    try {
      for (const [name, header] of value) out.push(name, header);
    } catch {
      throw new Invalid('headers: entries unreadable');
    }
    return out;
  }
  if (Array.isArray(value)) {
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
        throw new Invalid(`headers must be ${HEADERS_KINDS}: each pair is [name, value], two strings`);
      }
      out.push(pair[0], pair[1]);
    }
    return out;
  }
  // A `Map` or `URLSearchParams` has no own keys: read as an object it would send nothing.
  if (!isPlainObject(value) || Object.prototype.toString.call(value) !== '[object Object]') {
    throw new Invalid(`headers must be ${HEADERS_KINDS}`);
  }
  const names = ownKeys(value);
  if (names === undefined) throw new Invalid('headers: keys unreadable');
  for (const name of names) {
    const header = read(value, name);
    if (typeof header !== 'string') throw new Invalid(`headers must be ${HEADERS_KINDS}`);
    out.push(name, header);
  }
  return out;
}

/**
 * The `baseUrl` option as text: a string or a `URL` (its `href`).
 *
 * Decided: a base URL ending in the API's version (`https://host/v1`, `…/v1/`) means the
 * service's base: the client adds `/v1/<operation>` itself, and `…/v1/v1/…` is never what was
 * meant. Any other path is kept (a proxy's prefix).
 */
function baseUrlOf(options) {
  let value = option(options, 'baseUrl');
  if (value !== undefined && typeof value !== 'string') {
    const href = Object.prototype.toString.call(value) === '[object URL]' ? read(value, 'href') : undefined;
    if (typeof href !== 'string') throw new Invalid('baseUrl must be a string or a URL');
    value = href;
  }
  return value?.replace(/\/v1\/*$/, '');
}

/** Whether the property `name` is a function (`false` when reading it throws). */
function hasMethod(value, name) {
  return typeof read(value, name) === 'function';
}
