// Every operation's request and response types (`OperationName`, `Operations`, the request and
// record interfaces, the client's method per operation) are generated from the Rust core's
// declarations into serpkit_types.d.ts by `cargo xtask pkg`; this file holds the API.
import type { OperationMethods, OperationName, Operations, SearchVolumeBulkRequest, SearchVolumeRecord } from "./serpkit_types.js";
export * from "./serpkit_types.js";

// `Symbol.dispose` (of wasm-bindgen's `[Symbol.dispose]()`, as `free()`), declared as the
// `esnext.disposable` lib and Node's types do (they merge): no lib option needed.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** An operation by its name or its path: `"related"` or `"/v1/related"`; any other string does not compile. */
export type OperationRef = OperationName | `/v1/${OperationName}`;

/** The operation name an `OperationRef` stands for: `OperationOf<"/v1/related">` is `"related"`. */
export type OperationOf<R extends OperationRef> = R extends `/v1/${infer P extends OperationName}` ? P : Extract<R, OperationName>;

/**
 * The request body of an operation (`key` may be omitted). Every function that takes a
 * request also reads its JSON text at run time (for plain JS), but the types take the object
 * only: a string type would accept any text, and the text's mistakes would surface only at
 * run time. In TypeScript, `JSON.parse` the text first (or build the object).
 */
export type RequestOf<R extends OperationRef> = Operations[OperationOf<R>]["request"];

/** The response (`data`) of an operation, under the client's `integers` mode `I`. */
export type ResponseOf<R extends OperationRef, I extends IntegersMode = "number"> = Operations<I>[OperationOf<R>]["response"];

/** An exact amount of US dollars. `micros` is exact; `usd` is for display and charts. */
export interface Money {
  usd: number;
  micros: number;
  /** `"$0.0300"` */
  display: string;
}

export type PriceUnit = "per_keyword" | "per_domain" | "per_url" | "per_request";

/** All operations: `[{ path, title, price: { usd, micros, display }, unit, unitLabel }]`. */
export function operations(): OperationInfo[];

/** The JSON Schema (2020-12) of the operation's response. */
export function jsonSchema(operation: OperationRef): Record<string, unknown>;

/**
 * The estimated charge of a request now (the operation's price × its units), without a client
 * or a record cache: `estimateCost("related", { keyword, ccode })`. The request is typed by the
 * operation (see `RequestOf` on requests as JSON text).
 */
export function estimateCost<P extends OperationRef>(operation: P, request: RequestOf<P>): CostEstimate;

/**
 * Validates a response body of `operation` against every rule of the spec. Which input to
 * pass:
 * - **bytes** (`Uint8Array` / `ArrayBuffer`, e.g. `await res.arrayBuffer()`): the fastest
 *   way to check a body you have not parsed, in wasm, every rule;
 * - **text**: the same wasm engine and rules (the string is encoded to UTF-8 first);
 * - **a parsed value** (`await res.json()`): the operation's JS validator, generated from
 *   the same declarations, with the same paths, codes, severities and messages (a message
 *   may quote a string or number differently). Rules only text can show are not checked:
 *   duplicate keys (`duplicate_field`), how a number is written (`5.0` or `5e0` where an
 *   integer belongs is a `type` error in text; parsed, it is the integer 5), and integers
 *   beyond 2^53 that `JSON.parse` rounded: those get an `unsafe_integer` warning instead (once
 *   per field path pattern, array indices as `*`);
 *   a lone-surrogate escape (`\ud800`, a `json` error in text) is read as the string it makes.
 *   The value is read as `JSON.stringify` would write it.
 * With `request`, also the rules tied to the request. Never throws for a body: text that is
 * not JSON, bytes that are not UTF-8 (at the first bad byte's offset) and nesting deeper than
 * 127 levels (at its path in a parsed value) are a `json` error in the report.
 *
 * @example
 * const report = validateResponse("related", await res.arrayBuffer());
 * if (!report.ok) console.log(report.errors[0].path, report.errors[0].message);
 */
export function validateResponse<P extends OperationRef>(
  operation: P,
  body: string | Uint8Array | ArrayBuffer,
  request?: RequestOf<P> | null,
): ValidationReport;
/** A parsed value (`await res.json()`): see the text and bytes form above. */
export function validateResponse<P extends OperationRef, B>(
  operation: P,
  body: ParsedBody<B>,
  request?: RequestOf<P> | null,
): ValidationReport;

/**
 * A parsed JSON value as `validateResponse` takes it: any value but what cannot be one (a
 * promise: `await` it; a `Response`: `await res.json()` or `res.arrayBuffer()` first; a
 * function, a symbol, `undefined`).
 */
export type ParsedBody<B> = B extends PromiseLike<unknown> | WasmResponse | ((...args: never[]) => unknown) | symbol | undefined ? never : B;
/** A compiled `WebAssembly.Module` where the platform's types declare it; `object` elsewhere (Node's types alone). */
export type WasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : object;
/** A `Response` where the platform's types declare it (the DOM's, Node's); `never` elsewhere. */
export type WasmResponse = typeof globalThis extends { Response: abstract new (...args: never[]) => infer R } ? R : never;

/** What `responseSchema(op)["~standard"].validate` returns (Standard Schema v1's result). */
export type ResponseSchemaResult<T = unknown> =
  | { readonly value: T; readonly issues?: undefined; readonly serpkit: { readonly report: ValidationReport } }
  | {
      readonly issues: ReadonlyArray<{ readonly message: string; readonly path: ReadonlyArray<string | number>; readonly code: string }>;
      readonly serpkit: { readonly report: ValidationReport };
    };

/**
 * JSON text of `value` as `JSON.stringify(value, null, space)` writes it, with each `bigint`
 * written as its digits (a JSON number): the way back from `data` under
 * `integers: "bigint"`, where `JSON.stringify` throws. Needs no `init()`.
 */
export function stringify(value: unknown, space?: string | number): string;

/** `draft-2020-12` or `draft-07` (others throw). */
export interface ResponseJsonSchemaOptions {
  readonly target: 'draft-2020-12' | 'draft-07' | ({} & string);
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * An operation's response as a Standard Schema v1 with the Standard JSON Schema extension
 * (structurally `StandardSchemaV1` and `StandardJSONSchemaV1` of `@standard-schema/spec`).
 */
export interface ResponseSchema<T = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'serpkit';
    /** The generated JS validator on a parsed value: errors are issues, warnings on `serpkit.report`. */
    readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> | undefined }) => ResponseSchemaResult<T>;
    readonly jsonSchema: {
      readonly input: (options: ResponseJsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: ResponseJsonSchemaOptions) => Record<string, unknown>;
    };
    /** Type-level only (as zod, valibot and ArkType declare it): the operation's response. */
    readonly types?: { readonly input: T; readonly output: T } | undefined;
  };
}

/**
 * The operation's response as a Standard Schema (for Hono, tRPC, TanStack Form and any other
 * library that takes one), validating parsed values with the operation's generated JS
 * validator; `options.request` adds the rules tied to the request.
 */
export function responseSchema<P extends OperationRef>(operation: P, options?: { request?: RequestOf<P> | null }): ResponseSchema<ResponseOf<P>>;

/**
 * Validated data from JSON text or UTF-8 bytes: `JSON.parse`, then the parsed-value
 * validator of `validateResponse`. `data` is `undefined` when the body is not JSON (the
 * report holds the `json` error with its position). Use it when you need the data anyway;
 * `validateResponse(bytes)` when the text-only rules matter too.
 */
export function parseResponse<P extends OperationRef>(
  operation: P,
  body: string | Uint8Array | ArrayBuffer,
  request?: RequestOf<P> | null,
): Parsed<ResponseOf<P>>;

/**
 * What `parseResponse` returns, discriminated by `ok` (the report's `ok`): `data` is typed
 * only when it passed every rule (warnings allowed); otherwise it is `unknown` (`undefined`
 * when the body is not JSON) and the report says what is wrong.
 */
export type Parsed<T> =
  | { ok: true; data: T; report: ValidationReport }
  | { ok: false; data: unknown; report: ValidationReport };

/** An operation and its price (`operations()`). */
export interface OperationInfo {
  path: OperationName;
  title: string;
  /** Dollars per unit. */
  price: Money;
  unit: PriceUnit;
  /** `"per URL"`, … */
  unitLabel: string;
  /** What counts as one unit, with the decision where the spec's words leave a choice
   * (`backlink/metrics`: per URL, two URLs of one domain count twice). */
  unitNote: string;
}

/** What a request costs now (`estimateCost`): the amount, and how it was counted. */
export interface CostEstimate extends Money {
  units: number;
  unit: PriceUnit;
  /** `"3 × $0.0500 per URL = $0.1500: each entry of `urls` is a unit, …"`: the count and
   * the operation's `unitNote`. */
  explanation: string;
}

export type Severity = "error" | "warning";

export interface ValidationIssue {
  /** JSON Pointer to the offending value, e.g. `/0/TARGETED_MONTHLY_SEARCHES/3/date`. */
  path: string;
  /** Stable rule code: `type`, `missing_field`, `unknown_field`, `monthly_count`, `order`, ... */
  code: string;
  severity: Severity;
  message: string;
}

export interface ValidationReport {
  /** No errors (warnings allowed). */
  ok: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  /** All errors, including those not listed (at most 1,000 issues are listed). */
  error_count: number;
  warning_count: number;
  omitted: number;
  /** For a body that is not JSON: where it stops being JSON. */
  position?: { offset: number; line: number; column: number };
}

// ---- Client -----------------------------------------------------------------------------

export interface RetryOptions {
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  jitter?: boolean;
}

/**
 * How a client's `data` holds integers beyond ±(2^53 − 1), which a JS number cannot hold
 * exactly (real 64-bit ids: microblog `user_id`). Only the fields the core declares may hold
 * such an id (`LargeInteger<I>`: microblog `profile.user_id`) are converted: under "bigint"
 * every value of them, so such an id is always a `bigint`; under "string" those beyond that
 * range become their digits (`number | string`); every other number stays a `number`. A rounded integer ("number", the default, or one
 * beyond 2^53 in any other field) is never silent: the reply's report gets an
 * `unsafe_integer` warning, once per field path pattern. `JSON.stringify` throws on a
 * `bigint`: `stringify(data)` writes it back as JSON.
 */
export type IntegersMode = "number" | "bigint" | "string";

/**
 * How a client checks answers: "warn" (default) attaches the report, "strict" rejects on
 * contract errors (`contract_violation`), "off" checks nothing. It types the replies
 * (`Reply<T, V>`): `new Client({ key, validation: "strict" })` is a `Client<"number", "strict">`.
 */
export type ValidationMode = "off" | "warn" | "strict";

/**
 * The options of `new Client(options)`. Annotated without arguments (`const o: ClientOptions`)
 * it accepts every mode, and a client made from it types its replies for any of them.
 */
export interface ClientOptions<I extends IntegersMode = IntegersMode, V extends ValidationMode = ValidationMode> {
  /** The API key: sent in the request body only, never in URLs, logs or errors. */
  key: string;
  /** Base URL, a string or a `URL` (default: the service). A trailing `/v1` or `/v1/` is the
   * service's base too: requests go to `<base>/v1/<operation>`, never `/v1/v1/`. */
  baseUrl?: string | URL | undefined;
  /** Per-attempt timeout; 0 waits forever. Default 60000. */
  timeoutMs?: number | undefined;
  /** Retries for network errors, 429 and 503: a count or a policy. Default 2. */
  retries?: number | RetryOptions | undefined;
  /** Default "warn": attach the report. "strict" rejects on contract errors. "off": no
   * report, and `data` typed `unknown` (nothing checked it). See `ValidationMode`. */
  validation?: V | undefined;
  /** Stop before a call that would take the spend over this (dollars): the budget of the
   * client's own account. Not with `account` (the account's budget is the one budget). */
  budgetUsd?: number | string | undefined;
  /** Largest response body accepted (bytes). Default 256 MiB. */
  maxBodyBytes?: number | undefined;
  /** Extra request headers, as `fetch` takes them (`HeadersInit`): a `Headers`, `[name, value]`
   * pairs or an object of strings. */
  headers?: Headers | ReadonlyArray<readonly [string, string]> | Record<string, string> | undefined;
  /**
   * Where bought records are kept, so each record is paid for once: `search_volume/bulk` and
   * `/single` per keyword and country, `domainstats` per domain, `backlink/metrics` per URL.
   * Only records the cache lacks are sent and priced. `MemoryRecordCache`,
   * `IndexedDbRecordCache`, or any object with the same `get`/`put`.
   */
  cache?: RecordCache | undefined;
  /** With a cache: records bought longer ago than this are bought again. Default: no expiry. */
  maxAgeMs?: number | undefined;
  /**
   * How `data` holds integers beyond ±(2^53 − 1) in the fields declared as ids: "number"
   * (default: rounded, with an `unsafe_integer` warning in the report), "bigint" or "string"
   * (exact; see `IntegersMode`). Types the replies:
   * `new Client({ key, integers: "bigint" })` is a `Client<"bigint">`.
   */
  integers?: I | undefined;
  /**
   * The account to count this client's calls in, shared with every other client on it:
   * `new Account({ budgetUsd })` or `client.account` of another client. Spent, possibly
   * charged and the budget are the account's, so one budget covers every client on it.
   * Default: a new account of this client's own (with `budgetUsd`).
   */
  account?: Account | undefined;
  /**
   * The `fetch` to send requests with, called as `fetch(url, init)` (an undici dispatcher,
   * a proxy, a test double). Default: `globalThis.fetch`, read at each request. A network
   * failure's `SerpkitError` keeps what it rejected with as its `cause`.
   */
  fetch?: ((url: string, init: RequestInit) => Promise<Response>) | undefined;
}

/**
 * What several clients spend together. Every client made with `new Client({ key, account })`
 * counts its calls in it: `spent`, `possiblyCharged` and the budget are shared, so together
 * they never pass it (the estimates of calls in flight count too). `client.account` is a
 * client's account (the same object each time), to share with another client.
 */
export declare class Account {
  constructor(options?: AccountOptions);
  /** Confirmed charges of every client on the account. */
  readonly spent: Money;
  /** Estimates of calls sent whose outcome is unknown (timed out, aborted, connection lost). */
  readonly possiblyCharged: Money;
  /** The budget, or null without one. */
  readonly budget: Money | null;
  /** What is left of the budget after what was spent, possibly charged and is in flight, or null. */
  readonly remaining: Money | null;
}

/** `new Account(options)`. */
export interface AccountOptions {
  /** Every client on the account stops before a call that would take the account's spend
   * (spent, possibly charged, and calls in flight) over this (dollars). */
  budgetUsd?: number | string;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** With a record cache: buy every requested record again (stored or not). */
  refresh?: boolean | undefined;
}

/** The kinds of record a cache holds (the operations priced per record). */
export type RecordKind = "search_volume" | "domainstats" | "backlink/metrics";

/** One bought record as a cache keeps it. */
export interface StoredRecord {
  /** The record's JSON exactly as the service wrote it. */
  json: string;
  /** When it was bought (ms since the epoch). */
  boughtAt: number;
  /** Its validation issues, paths relative to the record. */
  issues: ValidationIssue[];
  /** It came from an import: never reused as bought. */
  imported?: boolean;
}

/**
 * A record cache: one `get` before a call, one `put` after it. Keys hold the base URL, the
 * kind and the normalised item (keyword trimmed, white space folded, lower case; domain lower
 * case; URL as given). A `put` that fails never loses the answer (`Reply.cacheError`).
 */
export interface RecordCache {
  get(kind: RecordKind, keys: string[]): Promise<(StoredRecord | null | undefined)[]> | (StoredRecord | null | undefined)[];
  put(kind: RecordKind, entries: { key: string; record: StoredRecord }[]): Promise<void> | void;
}

/** Records in memory: all of them, or at most `maxEntries` (the least recently used go first). */
export declare class MemoryRecordCache implements RecordCache {
  constructor(options?: { maxEntries?: number });
  /** The most records it holds (`Infinity` without a bound). */
  readonly maxEntries: number;
  get(kind: RecordKind, keys: string[]): Promise<(StoredRecord | null)[]>;
  put(kind: RecordKind, entries: { key: string; record: StoredRecord }[]): Promise<void>;
  readonly size: number;
  clear(): void;
}

/** Records in the browser's IndexedDB (database `name`, default "serpkit-records"). */
export declare class IndexedDbRecordCache implements RecordCache {
  constructor(name?: string);
  get(kind: RecordKind, keys: string[]): Promise<(StoredRecord | null)[]>;
  put(kind: RecordKind, entries: { key: string; record: StoredRecord }[]): Promise<void>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** The price of a call before it is made (`Client.quote`). */
export interface Quote extends Money {
  /** Records (or requests) this call would buy. */
  newRecords: number;
  /** Requested records the cache already holds (not priced). */
  fromCache: number;
  /** "1 new keyword · 10 already bought"; empty without a cache or for per-request operations. */
  summary: string;
}

/** What every reply has, valid or not: what the call cost and how it was answered. */
export interface ReplyBase {
  charge: Money;
  attempts: number;
  /** With a record cache: requested records answered from it (not charged). */
  fromCache?: number;
  /** With a record cache: records this call bought and stored. */
  bought?: number;
  /** With a record cache: it could not be read or written (the answer is complete). */
  cacheError?: string;
}

/** A reply whose data passed every rule of the spec (warnings allowed): `data` is typed. */
export interface ValidReply<T> extends ReplyBase {
  ok: true;
  data: T;
  report: ValidationReport;
}

/**
 * A reply whose data broke a rule (`validation: "warn"`): `data` is what was paid for, typed
 * `unknown` (check it, or read `report`, before using it as the operation's type).
 */
export interface InvalidReply extends ReplyBase {
  ok: false;
  data: unknown;
  report: ValidationReport;
}

/**
 * A reply of a client with `validation: "off"`: nothing checked `data`, so it is `unknown`;
 * `report` is null, or holds only the `unsafe_integer` warnings of rounded integers.
 */
export interface UncheckedReply extends ReplyBase {
  ok: null;
  data: unknown;
  report: ValidationReport | null;
}

/**
 * A call's reply under the client's validation mode `V`, discriminated by `ok`: "strict"
 * replies are always valid (an invalid answer rejects with `contract_violation`); "warn"
 * replies are valid (`ok: true`, `data: T`) or not (`ok: false`, `data: unknown`), both
 * with their report and their money fields; "off" replies are unchecked.
 */
export type Reply<T, V extends ValidationMode = "warn"> = V extends "strict"
  ? ValidReply<T>
  : V extends "warn"
    ? ValidReply<T> | InvalidReply
    : UncheckedReply;

export interface BulkOptions extends CallOptions {
  chunkSize?: number;
  concurrency?: number;
  onProgress?: (p: BulkProgress) => void;
}

export interface BulkProgress {
  doneChunks: number;
  totalChunks: number;
  doneKeywords: number;
  totalKeywords: number;
  charge: Money;
}

/**
 * What a chunked job (`searchVolumeBulkChunked`) resolves to, under the client's validation
 * mode `V`, discriminated by `ok` as `Reply` is: `data` (the records of the completed chunks,
 * in request order, as the service wrote them) is typed only where `ok` is `true`. `report`:
 * with a record cache, the core's merged report over stored and new records; without one,
 * the parsed-value validator's report of `data` (every rule a value shows, not those tied to
 * the request: chunks that did not complete are left out of `data`). Null when validation is
 * off. Unlike a single call, `"strict"` does not make every result valid: a refused chunk
 * stops the job (`error`), and with a record cache `data` is the merged answer it judged.
 */
export type BulkResult<I extends IntegersMode = "number", V extends ValidationMode = "warn"> = V extends "off"
  ? BulkResultBase & { ok: null; data: unknown; report: ValidationReport | null }
  :
      | (BulkResultBase & { ok: true; data: SearchVolumeRecord[]; report: ValidationReport })
      | (BulkResultBase & { ok: false; data: unknown; report: ValidationReport });

/** What every chunked job's result has, valid or not (`BulkResult`). */
export interface BulkResultBase {
  /** Keywords whose chunk did not complete (not charged). */
  missing: string[];
  /** Confirmed charges of the job. */
  charge: Money;
  /** Estimates of chunks sent whose outcome is unknown (timed out): may have been charged. */
  possiblyCharged: Money;
  /** Why the job stopped early, or null. */
  error: SerpkitError | null;
  /** With a record cache: requested keywords answered from it (not charged). */
  fromCache?: number;
  /** With a record cache: records bought and stored. */
  bought?: number;
  /** With a record cache: it could not be read or written (the answer is complete). */
  cacheError?: string;
}

export type ErrorCode =
  | "invalid_argument"
  | "unknown_operation"
  | "cache"
  | "not_initialized"
  | "init_failed"
  | "invalid_request"
  | "missing_key"
  | "budget_exceeded"
  | "http"
  | "redirect"
  | "timeout"
  | "aborted"
  | "network"
  | "connection_lost"
  | "body_too_large"
  | "body_lost"
  | "not_json"
  | "decode"
  | "contract_violation";

/** What every `SerpkitError` has, whatever its `code`. */
export interface SerpkitErrorBase extends Error {
  /** "SerpkitError"; an abort's is "AbortError" (`AbortedError`). */
  name: "SerpkitError" | "AbortError";
  code: ErrorCode;
  /** What caused it (not enumerable, as the standard's): the `fetch` rejection of a
   * `network` or `connection_lost` error, the abort's `signal.reason` of `aborted`,
   * IndexedDB's `DOMException` of `cache`. */
  cause?: unknown;
  /** Every field as JSON data (what `JSON.stringify(error)` writes); see `SerpkitError.from`. */
  toJSON(): SerpkitErrorJson;
  /** What to do about it. */
  hint?: string;
  /** What the failed call was charged (a 200 with a broken, too large or lost body is charged). */
  charge?: Money;
  /** What the failed call may have been charged: its estimate when it was sent and then timed
   * out, was aborted or lost its connection (never retried); zero otherwise. Counted in
   * `client.possiblyCharged`. */
  possiblyCharged?: Money;
}

/** `invalid_request`: a request field fails its check; nothing was sent. */
export interface InvalidRequestError extends SerpkitErrorBase {
  code: "invalid_request";
  /** JSON Pointer of the bad field. */
  field: string;
  /** The reason code. */
  reason: string;
}

/** `http`: a non-2xx answer after any retries. */
export interface HttpError extends SerpkitErrorBase {
  code: "http";
  status: number;
  /** An excerpt, the key removed. */
  body: string;
  /** The service's `Retry-After`, when it sent one. */
  retryAfterMs?: number;
}

/** `redirect`: a 3xx answer. The request reached a server; not followed (the key is in the
 * body), not retried, not charged (only a success is). Usually a wrong `baseUrl`. */
export interface RedirectError extends SerpkitErrorBase {
  code: "redirect";
  /** The 3xx status; 0 in browsers, which hide a redirect's status (and its target). */
  status: number;
  /** An excerpt of the answer's body, the key removed (empty in browsers). */
  body: string;
}

/** `budget_exceeded`: the estimate would exceed `budgetUsd`; nothing was sent. */
export interface BudgetExceededError extends SerpkitErrorBase {
  code: "budget_exceeded";
  estimate: Money;
  spent: Money;
  budget: Money;
}

/**
 * `not_json`: a 200 whose body is not JSON. `decode`: a chunk of `searchVolumeBulkChunked`
 * whose body is JSON but not an array of records (under `validation: "warn"` or `"off"`;
 * "strict" refuses it as `contract_violation` first). Both charged.
 */
export interface BodyTextError extends SerpkitErrorBase {
  code: "not_json" | "decode";
  path: string;
  line: number;
  column: number;
}

/** `contract_violation`: `validation: "strict"` and the report has errors (charged). */
export interface ContractViolationError extends SerpkitErrorBase {
  code: "contract_violation";
  report: ValidationReport;
  /** The data that was paid for, as `data` of a reply would be (the client's `integers`
   * mode; with a record cache, the merged answer). Typed loosely: it broke the contract. */
  data: unknown;
}

/** `timeout`: no complete answer within `timeoutMs` (possibly charged; never retried). */
export interface TimeoutError extends SerpkitErrorBase {
  code: "timeout";
  timeoutMs: number;
}

/** `body_too_large`: the answer exceeds `maxBodyBytes`. */
export interface BodyTooLargeError extends SerpkitErrorBase {
  code: "body_too_large";
  limit: number;
}

/** `body_lost`: a 2xx arrived, then reading its body failed (charged, never retried). */
export interface BodyLostError extends SerpkitErrorBase {
  code: "body_lost";
  status: number;
}

/**
 * The codes with no fields of their own. `not_initialized`: an export that needs the wasm,
 * called before `init()` (browsers and bundlers: `await init()` first). `init_failed`:
 * `init()` or `initSync()` could not load the wasm (`cause`: what the platform threw, e.g. a
 * 404 for `serpkit_bg.wasm`). `network`: the request provably never left (refused,
 * host not found), after the retries: free. `connection_lost`: the connection failed after the
 * request may have left, before any answer: possibly charged (`possiblyCharged`), never retried.
 */
export interface PlainSerpkitError extends SerpkitErrorBase {
  name: "SerpkitError";
  code: "invalid_argument" | "unknown_operation" | "cache" | "not_initialized" | "init_failed" | "missing_key" | "network" | "connection_lost";
}

/**
 * `aborted`: the call's `signal` aborted it (possibly charged when it was sent). Named
 * `AbortError`, as Node's abort errors, so `e.name === "AbortError"` checks written for
 * `fetch` recognise it; `cause` is the signal's `reason` (what `fetch` rejects with).
 */
export interface AbortedError extends SerpkitErrorBase {
  name: "AbortError";
  code: "aborted";
}

/**
 * A `SerpkitError` as JSON data (`error.toJSON()`): it survives `JSON.stringify` and
 * `structuredClone` (`postMessage` to a worker), which keeps only an error's message.
 */
export interface SerpkitErrorJson {
  name: string;
  code: ErrorCode;
  message: string;
  /** The cause's `{ name, message }` when it was an error, else its JSON value. */
  cause?: unknown;
  [field: string]: unknown;
}

/**
 * Every rejection and throw of the package is a `SerpkitError` (`e instanceof SerpkitError`,
 * or `isSerpkitError(e)`): a union discriminated by `code`, so `if (e.code === "http")
 * e.status` type-checks.
 */
export declare const SerpkitError: {
  /** An error made by you (a test double): the `code` and message given (the code appended
   * to it, as on every `SerpkitError`), none of the fields of its kind (no `status`). */
  new <C extends ErrorCode>(code: C, message: string, options?: { cause?: unknown }): SerpkitErrorBase & { code: C };
  readonly prototype: SerpkitError;
  /**
   * The error again after `structuredClone`, `postMessage` or JSON: from `toJSON()`'s value
   * (every field), or from the cloned error itself (its message ends with the code: the code
   * and message come back). Throws `invalid_argument` for anything else.
   * @example worker.onmessage = (event) => { const error = SerpkitError.from(event.data); };
   */
  from(value: SerpkitErrorJson | Error): SerpkitError;
};

/** True for a `SerpkitError`, also one from another copy of the package (by `name` and `code`). */
export declare function isSerpkitError(value: unknown): value is SerpkitError;

export type SerpkitError =
  | InvalidRequestError
  | HttpError
  | RedirectError
  | BudgetExceededError
  | BodyTextError
  | ContractViolationError
  | TimeoutError
  | BodyTooLargeError
  | BodyLostError
  | AbortedError
  | PlainSerpkitError;

/**
 * The calls of a `Client`: one method per operation (`OperationMethods`, generated from the
 * core's list; each is `call(path, request, options)`), `call` and `quote`. Defined in the
 * package's JS (`record_client.js`), so they are declared here and merge with the class's
 * declaration. With a record `cache`, replies also say `fromCache`,
 * `bought` and (when the cache failed) `cacheError`.
 */
export interface Client<I extends IntegersMode = "number", V extends ValidationMode = "warn"> extends OperationMethods<I, V> {
  /**
   * Any operation by its path (`"related"`, or `"/v1/related"`), typed by the path as the
   * methods above are: a request object of another operation does not compile
   * (`client.call('related', { domain })`). See `RequestOf` on requests as JSON text.
   */
  call<P extends OperationRef>(operation: P, request: RequestOf<P>, options?: CallOptions): Promise<Reply<ResponseOf<P, I>, V>>;
  /**
   * The price of a call now, before making it: `{ usd, micros, display, newRecords,
   * fromCache, summary }`. With a record cache, records already bought are not priced
   * (`summary`: "1 new keyword · 10 already bought"); without one, the whole request is.
   */
  quote<P extends OperationRef>(operation: P, request: RequestOf<P>, options?: CallOptions): Promise<Quote>;
  /**
   * The account this client counts its calls in (the same object every time): give it to
   * `new Client({ key, account })` to share its spend and budget with another client.
   */
  readonly account: Account;
}
