// The package's error class, `SerpkitError`, with what makes the wasm's errors instances of
// it (`serpkitError`) and the stand-in the glue holds before `init()` (`notReady`). A module of
// its own, imported by every other part of the package (through client_options.js) and by the
// schema-only entry (schema.js), which needs nothing else of the client.

// Decided, for errors that cross a boundary:
// - `cause` is never enumerable (as the standard's own), also where it is set after the error
//   was made (the wasm's `fetch` rejection, an abort's `signal.reason`): `settle` below.
// - An abort (`code: "aborted"`) is named `AbortError`, as Node's own abort errors are (an
//   `Error` with `name: "AbortError"` and its `cause`): `e.name === 'AbortError'` checks,
//   written for `fetch`, recognise it; `cause` is the signal's `reason` (what `fetch` rejects
//   with); it stays a `SerpkitError` (`instanceof`, `isSerpkitError`, `code`,
//   `possiblyCharged`).
// - `JSON.stringify(error)` gives every field (`toJSON`: name, code, message, the kind's
//   fields, `cause` as `{ name, message }` or its JSON value).
// - `structuredClone` (`postMessage` to or from a worker) keeps only an `Error`'s message (and
//   in V8 its `cause`): no platform lets a class keep its fields through it. So every message
//   ends with the code in parentheses ("… (budget_exceeded)"), and `SerpkitError.from` revives
//   a posted error from it: `SerpkitError.from(event.data)` gives a `SerpkitError` with its
//   code and message whether the sender posted the error or `error.toJSON()` (a plain object
//   that keeps every field too).

/**
 * Every error the package throws or rejects with: a stable `code` (`ErrorCode` in the types)
 * and the fields of its kind; `cause` keeps what caused it (the `fetch` rejection of a
 * network failure, the abort's `signal.reason`). `instanceof` works for the errors of this
 * copy of the package; `isSerpkitError` also for another copy's (two bundles, another realm).
 */
export class SerpkitError extends Error {
  /** `new SerpkitError(code, message, { cause }?)`. */
  constructor(code, message, options) {
    super(message, options !== null && typeof options === 'object' && 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    settle(this);
  }

  /** Every field as JSON data: `{ name, code, message, ...fields, cause? }`. */
  toJSON() {
    const out = { name: this.name, code: this.code, message: this.message };
    for (const key of Object.keys(this)) {
      if (key !== 'name' && key !== 'cause') out[key] = this[key];
    }
    if (this.cause !== undefined) out.cause = causeJson(this.cause);
    return out;
  }

  /**
   * The error again after it crossed `structuredClone`, `postMessage` or JSON: from its
   * `toJSON()` value (the same code, message and fields, `cause` as its JSON value), or from
   * the clone of the error itself (the code and message, read from the message's
   * "(code)" ending; `cause` where the platform kept it).
   */
  static from(value) {
    if (value instanceof SerpkitError) return value;
    const cloned = value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
    const code = typeof value?.code === 'string' ? value.code : cloned ? codeOfMessage(value.message) : undefined;
    if (code === undefined) {
      throw new SerpkitError('invalid_argument', 'SerpkitError.from takes a SerpkitError after structuredClone or postMessage, or the value of error.toJSON() ({ code, message, ... })');
    }
    if (cloned) return new SerpkitError(code, String(value.message), value.cause === undefined ? undefined : { cause: value.cause });
    const { name, code: _code, message, cause, ...fields } = value;
    const error = new SerpkitError(code, String(message ?? ''), cause === undefined ? undefined : { cause });
    return Object.assign(error, fields);
  }
}
Object.defineProperty(SerpkitError.prototype, 'name', { value: 'SerpkitError', writable: true, configurable: true });

/** A `cause` as JSON data: an error's `{ name, message }` (and `code`), else the value if JSON can hold it. */
function causeJson(cause) {
  if (cause instanceof Error || Object.prototype.toString.call(cause) === '[object DOMException]') {
    const out = { name: String(cause.name), message: String(cause.message) };
    if (typeof cause.code === 'string') out.code = cause.code;
    return out;
  }
  try {
    return JSON.parse(JSON.stringify(cause) ?? 'null');
  } catch {
    return String(cause);
  }
}

/** The code a message ends with ("… (budget_exceeded)"), or undefined. */
function codeOfMessage(message) {
  return /\(([a-z_]+)\)$/.exec(String(message))?.[1];
}

/**
 * The `cause` made non-enumerable, an abort named `AbortError`, the message ending with the
 * code (see the decisions above).
 */
function settle(error) {
  const tag = `(${error.code})`;
  if (typeof error.code === 'string' && !error.message.endsWith(tag)) {
    error.message = error.message === '' ? tag : `${error.message} ${tag}`;
  }
  const cause = Object.getOwnPropertyDescriptor(error, 'cause');
  if (cause?.enumerable) Object.defineProperty(error, 'cause', { value: cause.value, writable: true, enumerable: false, configurable: true });
  if (error.code === 'aborted' && error.name !== 'AbortError') {
    Object.defineProperty(error, 'name', { value: 'AbortError', writable: true, enumerable: false, configurable: true });
  } else if (Object.getOwnPropertyDescriptor(error, 'name')?.enumerable) {
    // The wasm's errors name themselves with an own property; the class's prototype names them.
    delete error.name;
  }
  return error;
}

/**
 * True for a `SerpkitError`: an instance of the class, or (from another copy of the package,
 * another realm) an error named `SerpkitError` (an abort: `AbortError` with code "aborted")
 * with a string `code`, as ky's `isKyError` reads its errors.
 */
export function isSerpkitError(value) {
  if (value instanceof SerpkitError) return true;
  try {
    // An `Error` of any realm (a realm's own `Error` is not this one's).
    if (Object.prototype.toString.call(value) !== '[object Error]' || typeof value.code !== 'string') return false;
    return value.name === 'SerpkitError' || (value.name === 'AbortError' && value.code === 'aborted');
  } catch {
    return false;
  }
}

/**
 * `error` as a `SerpkitError` instance: the wasm makes its errors as `Error`s named
 * `SerpkitError` (making them of the class from Rust would cost the wasm an import), which
 * get the class's prototype here, where they leave the package; then `settle`d (again: a
 * `cause` may have been set since). Anything else as it is.
 */
export function serpkitError(error) {
  if (error instanceof Error && !(error instanceof SerpkitError) && error.name === 'SerpkitError') {
    Object.setPrototypeOf(error, SerpkitError.prototype);
  }
  if (error instanceof SerpkitError) settle(error);
  return error;
}

/**
 * What the wasm glue (serpkit.js) holds in place of the wasm's exports until `init()` or
 * `initSync()` (cargo xtask pkg puts it there, xtask/src/pkg.rs `not_ready_glue`): any use
 * throws a `SerpkitError` `not_initialized`, so an export called too early in a browser or a
 * bundler throws the package's error, not the glue's bare `TypeError`.
 */
export function notReady() {
  const fail = () => {
    throw new SerpkitError('not_initialized', 'serpkit is not initialised: call `await init()` (or `initSync({ module })`) first; the Node, Deno, Bun and Workers entries initialise on import');
  };
  return new Proxy({}, { get: fail, set: fail, has: fail });
}

/**
 * `init()`'s or `initSync()`'s failure as a `SerpkitError` `init_failed` (its `cause`: what the
 * platform threw: a failed `fetch`, a `CompileError`, a 404's `TypeError`); a `SerpkitError`
 * as it is.
 */
export function initFailed(error) {
  if (isSerpkitError(error)) return serpkitError(error);
  const why = error instanceof Error || Object.prototype.toString.call(error) === '[object Error]' ? error.message : String(error);
  return new SerpkitError('init_failed', `serpkit could not load its wasm (serpkit_bg.wasm, or what init() was given): ${why}`, { cause: error });
}

/** `fn(...args)`, its throw made a `SerpkitError` instance (`serpkitError`). */
export function settled(fn, ...args) {
  try {
    return fn(...args);
  } catch (error) {
    throw serpkitError(error);
  }
}

