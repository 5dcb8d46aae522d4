// @ts-check
// The JS side of the rule language's Rust functions: the twins of the rules that stay Rust
// functions (`named!(monthly_entry, "monthlyEntry")` in src/ops/*.rs names its twin here), the
// request relations the declarations make (`rules::Echo`, `rules::Count`) and the string
// formats the runtime lacks. `serpkit::validate::js` inlines this file into the generated
// `validators.js` (its `import` lines dropped, `export` removed), so the package ships no
// extra module; `cargo xtask js` type-checks it with `tsc --checkJs --strict`. The
// differential test holds each twin to its Rust function (paths, codes, messages).
//
// A twin is called as the Rust function is: an object check `(cx, record)`, an element check
// `(cx, index, element)`, an order key `(element) => key | undefined`.

import { isArray, int, str, has, get, debug, satMulAdd, asciiLower } from '../js/validate_value.js';

/** @typedef {import('../js/validate_value.js').Context} Context */

/**
 * The twins, bound to the generated module's rule codes (`C.CountValue`: the `RuleCode`
 * variants) and month names (`rules::formats::MONTH_NAMES`).
 * @param {Readonly<Record<string, string>>} C
 * @param {readonly string[]} MONTH_NAMES
 */
export function twins(C, MONTH_NAMES) {
  return {
    /**
     * `search_volume_bulk::monthly_entry`: `count` equal to `value` (observed), `date` the
     * entry's own `<year>-<MonthName>`.
     * @param {Context} cx
     * @param {unknown} record
     */
    monthlyEntry(cx, record) {
      const count = int(record, 'count'), value = int(record, 'value');
      if (count !== undefined && value !== undefined && count !== value) {
        cx.warning('count', C.CountValue, `count ${count} differs from value ${value} (equal in every observed entry)`);
      }
      const date = str(record, 'date');
      if (date === undefined) return;
      const dash = date.indexOf('-');
      const yearText = dash < 0 ? date : date.slice(0, dash);
      const monthText = dash < 0 ? '' : date.slice(dash + 1);
      const year = int(record, 'year'), month = str(record, 'month');
      const yearOk = /^[0-9]{4}$/.test(yearText) && (year === undefined || Number(yearText) === Number(year));
      const monthOk = month !== undefined ? month === monthText : MONTH_NAMES.includes(monthText);
      if (!yearOk || !monthOk) {
        const want = year !== undefined && month !== undefined ? `${year}-${month}` : '<year>-<MonthName>';
        cx.error('date', C.Date, `date ${debug(date)} is not ${debug(want)} (<year>-<MonthName> of this entry)`);
      }
    },

    /**
     * `search_volume_bulk::month_key`: year × 12 + month index, saturating as Rust's `i64`.
     * @param {unknown} record
     */
    monthKey(record) {
      const year = int(record, 'year'), month = str(record, 'month');
      if (year === undefined || month === undefined) return undefined;
      const index = MONTH_NAMES.indexOf(month);
      return index < 0 ? undefined : satMulAdd(year, 12, index);
    },

    /**
     * `video_video::hashtag_kind`: separator, playlist link or tag.
     * @param {Context} cx
     * @param {unknown} record
     */
    hashtagKind(cx, record) {
      const nav = has(record, 'navigationEndpoint'), log = has(record, 'loggingDirectives');
      const separator = get(record, 'text') === ' ';
      if (separator && (nav || log)) {
        cx.error(null, C.HashtagShape, 'a separator entry (text " ") must hold nothing but text');
      } else if (log && !nav) {
        cx.error('loggingDirectives', C.HashtagShape, 'loggingDirectives without navigationEndpoint fits no hashtag entry kind');
      } else if (!nav && !log && !separator && has(record, 'text')) {
        cx.warning(null, C.HashtagShape, 'a text-only entry that is not a single-space separator was never observed');
      }
    },

    /**
     * `video_video::record_flags`: a record whose `error` flag is true.
     * @param {Context} cx
     * @param {unknown} record
     */
    recordFlags(cx, record) {
      if (get(record, 'error') === true) {
        cx.warning('error', C.RecordError, "the record's error flag is true (false in successful records)");
      }
    },
  };
}

// ---- Request relations (`rules::Echo`, `rules::Count`) -----------------------------------

/** `rules::Match` as the generator numbers it. */
const SAME = 0, FIRST = 1, AT = 2, ANY_OF = 3;

/**
 * An echo rule on the response value `got`: `undefined` when it matches the request (or
 * there is nothing to compare), else the request's value it fails (`''` for any-of).
 * @param {any} request the parsed request, or `undefined`
 * @param {string} name the request's field
 * @param {number} how `rules::Match`: 0 same, 1 first, 2 at the index, 3 any of
 * @param {(got: string, want: string) => boolean} compare
 * @param {unknown} got
 * @param {number} index the element's
 * @returns {string | undefined}
 */
export function echo(request, name, how, compare, got, index) {
  if (request === undefined || request === null || typeof got !== 'string') return undefined;
  const field = request[name];
  if (how === ANY_OF) {
    if (!isArray(field)) return undefined;
    for (const want of field) if (typeof want === 'string' && compare(got, want)) return undefined;
    return '';
  }
  if (how === FIRST && index !== 0) return undefined;
  const want = how === AT ? (isArray(field) ? field[index] : undefined) : how === SAME || how === FIRST ? field : undefined;
  return typeof want !== 'string' || compare(got, want) ? undefined : want;
}

/**
 * The length of the request's list `name`, or -1 when there is none.
 * @param {any} request
 * @param {string} name
 */
export function requestCount(request, name) {
  const field = request === undefined || request === null ? undefined : request[name];
  return isArray(field) ? field.length : -1;
}

/**
 * `Compare::Exact`.
 * @param {string} got
 * @param {string} want
 */
export const sameText = (got, want) => got === want;

/**
 * `rules::same_target`: whether the text has a scheme, its host as record keys compare
 * domains (trimmed of ASCII white space, one trailing dot dropped, lower case, a leading `www.` dropped) and its path
 * without a trailing `/`.
 * @param {string} text
 * @returns {[boolean, string, string]}
 */
function splitTarget(text) {
  // Rust's `trim_ascii`: tab, line feed, form feed, carriage return, space.
  text = text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  const scheme = text.indexOf('://');
  const url = scheme >= 0;
  const rest = url ? text.slice(scheme + 3) : text;
  let end = rest.search(/[/?#]/);
  if (end < 0) end = rest.length;
  let host = rest.slice(0, end);
  if (host.endsWith('.')) host = host.slice(0, -1);
  host = asciiLower(host);
  if (host.startsWith('www.') && host.length > 4) host = host.slice(4);
  return [url, host, rest.slice(end).replace(/\/+$/, '')];
}

/**
 * `rules::same_target`: `got` (a URL or a bare domain) names what `want` names.
 * @param {string} got
 * @param {string} want
 */
export function sameTarget(got, want) {
  if (got === want) return true;
  const [gotUrl, gotHost, gotPath] = splitTarget(got);
  const [, wantHost, wantPath] = splitTarget(want);
  return gotHost === wantHost && (gotPath === wantPath || (!gotUrl && gotPath === ''));
}

// ---- Formats -----------------------------------------------------------------------------

// `formats::is_number_text`: a number written as text (sign, digits, fraction, exponent), or empty.
const NUMBER_TEXT = /^([+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)?$/;

/**
 * `formats::is_number_text`.
 * @param {string} text
 */
export const numberText = (text) => NUMBER_TEXT.test(text);
