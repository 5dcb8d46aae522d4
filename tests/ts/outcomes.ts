// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run (tests/js/outcomes.test.mjs
// runs the same outcomes): data is typed only when it passed every rule. A reply and
// `parseResponse`'s result are unions discriminated by `ok`; the failed branch's data is
// `unknown`, its report and the reply's money fields are there on both branches, and
// `report` is never null while validation is on. Each `@ts-expect-error` line must fail.
import { Client, parseResponse } from '../../pkg/serpkit.js';
import type { ClientOptions, Money, RelatedKeyword, ValidationReport } from '../../pkg/serpkit.js';

const REL = { keyword: 'a', ccode: 'US' };

/** The default mode, "warn": a reply may hold data that broke a rule. */
export async function warned(): Promise<void> {
  const reply = await new Client({ key: 'k' }).related(REL);
  // @ts-expect-error `kd` may be the string "7": data is typed only once `ok` says it is valid
  reply.data[0]?.kd.toFixed();
  const report: ValidationReport = reply.report;
  const charge: Money = reply.charge;
  if (reply.ok) {
    const kd: number | undefined = reply.data[0]?.kd;
    void kd;
  } else {
    const paid: unknown = reply.data;
    // @ts-expect-error the failed branch's data is unknown
    const typed: RelatedKeyword[] = reply.data;
    const errors: number = reply.report.error_count;
    void [paid, typed, errors, reply.charge.micros, reply.attempts];
  }
  // The case: a report that is not ok leaves the data untyped.
  if (!reply.report.ok) {
    // @ts-expect-error narrowing `report.ok` does not type `data`: `ok` does
    reply.data?.[0]?.kd.toFixed();
  }
  const { ok, data } = reply;
  if (ok) data[0]?.kd.toFixed();
  void [report, charge];
}

/** "strict": an invalid answer rejects, so every reply is valid and typed. */
export async function strict(): Promise<void> {
  const reply = await new Client({ key: 'k', validation: 'strict' }).call('related', REL);
  const kd: number | undefined = reply.data[0]?.kd;
  const ok: true = reply.ok;
  const errors: number = reply.report.error_count;
  void [kd, ok, errors];
}

/** "off": nothing checked the data, so it is unknown, and the report may be null. */
export async function unchecked(): Promise<void> {
  const reply = await new Client({ key: 'k', validation: 'off' }).related(REL);
  const ok: null = reply.ok;
  // @ts-expect-error unchecked data is not typed
  const typed: RelatedKeyword[] = reply.data;
  // @ts-expect-error the report is null when validation is off
  void reply.report.ok;
  void [ok, typed];
}

/** Options annotated as `ClientOptions` accept every mode; the replies allow for any of them. */
export async function annotated(): Promise<void> {
  const options: ClientOptions = { key: 'k', validation: 'strict', integers: 'bigint' };
  const reply = await new Client(options).related(REL);
  // @ts-expect-error the mode is not known: the reply may be unchecked or invalid
  reply.data[0]?.kd.toFixed();
  if (reply.ok) reply.data[0]?.kd.toFixed();
}

/** `parseResponse`: typed data only with `ok`. */
export function parsed(text: string): void {
  const result = parseResponse('related', text);
  // @ts-expect-error data may be anything (or undefined for text that is not JSON)
  result.data?.[0]?.kd.toFixed();
  if (result.ok) {
    const rows: RelatedKeyword[] = result.data;
    void rows;
  } else {
    const found: unknown = result.data;
    void [found, result.report.errors];
  }
}

/** A chunked job: typed records only with `ok`; "off" leaves them unknown. */
export async function chunked(): Promise<void> {
  const job = await new Client({ key: 'k' }).searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  // @ts-expect-error the records may have broken a rule
  void job.data[0]?.SEARCH_VOLUME;
  if (job.ok) {
    const volume: number | undefined = job.data[0]?.SEARCH_VOLUME;
    void volume;
  }
  const missing: string[] = job.missing;
  const report: ValidationReport = job.report;
  const off = await new Client({ key: 'k', validation: 'off' }).searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  const ok: null = off.ok;
  // @ts-expect-error null when validation is off
  void off.report.ok;
  void [missing, report, ok];
}
