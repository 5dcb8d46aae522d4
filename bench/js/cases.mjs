// The JS benchmark cases, shared by Node (run.mjs) and headless Chromium (page.html).
// Everything here is plain ES2022 with no imports, so the browser can load it as is.

export const OP = 'ranked-keywords/domain';

/** A zod 4 schema of the same shape as our JSON Schema for ranked-keywords/domain. */
export function zodSchema(z) {
  return z.array(
    z.object({
      keyword: z.string(),
      competition: z.number(),
      search_volume: z.number().int(),
      total_backlinks: z.number().int(),
      total_referring_domains: z.number().int(),
      rank: z.number().int(),
      url: z.string(),
    }),
  );
}

/** A full garbage collection (`gc`, exposed by run.mjs in Node and by `--js-flags=--expose-gc`
 * in Chromium), run before every timed run and sample: each starts from the same heap, so no
 * side pays for collecting the other side's garbage (a `JSON.parse` of the body leaves 11 MB
 * of it). A no-op where the engine does not expose it. */
function collect() {
  if (typeof globalThis.gc === 'function') globalThis.gc();
}

/** Best (lowest) wall time (ms) of `fn` over `runs` runs after `warmup` runs; checks its
 * result. The best run, not the median: the benchmark machine's 2 cores are shared with
 * builds, and interference only ever adds time. */
function time(fn, check, runs, warmup = 2) {
  for (let i = 0; i < warmup; i++) check(fn());
  const ms = [];
  for (let i = 0; i < runs; i++) {
    collect();
    const t0 = performance.now();
    const r = fn();
    ms.push(performance.now() - t0);
    check(r);
  }
  return Math.min(...ms);
}

function must(cond, what) {
  if (!cond) throw new Error(`benchmark case failed its check: ${what}`);
}

/** The least time (ms) one sample of the paired timings below lasts. Sub-millisecond calls
 * are repeated `k` times per sample (the sample's time divided by `k`): the clock's
 * resolution (100 µs in a page without cross-origin isolation) and the timer's own cost
 * then vanish in the sample. */
export const MIN_SAMPLE_MS = 20;

/** Samples per side of the parsed-value case: more than the other cases' 7, as they cost
 * little (about MIN_SAMPLE_MS each) and the sub-millisecond figures move the most. */
export const PARSED_SAMPLES = 15;

/** How many calls of `fn` make one sample of at least MIN_SAMPLE_MS. First a warm-up (at
 * least 3 calls and 3 × MIN_SAMPLE_MS: the first calls run before the JIT has compiled the
 * hot code, and a cold call can alone last a sample's time), then `k` doubles from 1 until
 * `k` calls last that long (a batch is timed, not a call: one call can be below the clock's
 * resolution). */
function repetitions(fn, check) {
  const start = performance.now();
  for (let calls = 0; calls < 3 || performance.now() - start < 3 * MIN_SAMPLE_MS; calls++) check(fn());
  let k = 1;
  while (k < 1_000_000) {
    const t0 = performance.now();
    let r;
    for (let i = 0; i < k; i++) r = fn();
    const ms = performance.now() - t0;
    check(r);
    if (ms >= MIN_SAMPLE_MS) break;
    k *= 2;
  }
  return k;
}

/** One sample: the time (ms) of `k` calls of `fn`, divided by `k`; checks the last result. */
function sample(fn, check, k) {
  collect();
  const t0 = performance.now();
  let r;
  for (let i = 0; i < k; i++) r = fn();
  const ms = (performance.now() - t0) / k;
  check(r);
  return ms;
}

/**
 * Ours against theirs, measured in turns: `samples` samples of each, interleaved (ours then
 * theirs, then theirs then ours, ...) so drift of the machine's speed reaches both sides
 * alike. Each side repeats its call `k` times per sample (its own `k`, see `repetitions`;
 * then 2 warm-up samples); each side's time is its best sample, per call. Returns
 * `{ ours, theirs, oursK, theirsK, samples }` (ms per call, repetitions per sample).
 */
function paired(ours, theirs, samples) {
  const oursK = repetitions(ours.fn, ours.check);
  const theirsK = repetitions(theirs.fn, theirs.check);
  for (let i = 0; i < 2; i++) {
    sample(ours.fn, ours.check, oursK);
    sample(theirs.fn, theirs.check, theirsK);
  }
  const best = { ours: Infinity, theirs: Infinity };
  for (let i = 0; i < samples; i++) {
    const order = i % 2 === 0 ? ['ours', 'theirs'] : ['theirs', 'ours'];
    for (const side of order) {
      const c = side === 'ours' ? ours : theirs;
      const ms = sample(c.fn, c.check, side === 'ours' ? oursK : theirsK);
      best[side] = Math.min(best[side], ms);
    }
  }
  return { ours: best.ours, theirs: best.theirs, oursK, theirsK, samples };
}

/**
 * The parsed-value case alone, `validateResponse(op, data)` against Ajv on `data` (samples in
 * turns, see `paired`), on a body with no issue at all: not an error, not a warning, neither
 * from the value nor from its text (an issue would send ours down its reporting path). The
 * bench runs it on the sandbox's body and on one the sandbox did not write
 * (independent_body.mjs).
 */
export function parsedCase({ serpkit, ajvValidate, data }) {
  const clean = (r) => must(r.ok && r.error_count === 0 && r.warning_count === 0, 'validateResponse: no issue');
  clean(serpkit.validateResponse(OP, JSON.stringify(data)));
  return paired(
    { fn: () => serpkit.validateResponse(OP, data), check: clean },
    { fn: () => ajvValidate(data), check: (v) => must(v === true, 'ajv valid (parsed)') },
    PARSED_SAMPLES,
  );
}

/** What the parsed-value and validated-data cases need from the package. */
export function missingApi(serpkit) {
  return typeof serpkit.parseResponse === 'function'
    ? null
    : 'the package has no `parseResponse(op, textOrBytes, request?)` export (JSON.parse, then the generated JS validator)';
}

/**
 * Runs every case on `text` (the response body). `ajvValidate` is Ajv's compiled validator
 * (allErrors) of `jsonSchema(OP)`; `zod` the zod module; `independentText`, when given, a
 * body the sandbox did not write for the parsed-value case. Returns `{ rows, parsed,
 * independent, validated, boundaryNs, ... }`.
 */
export function runCases({ serpkit, ajvValidate, zod, text, independentText, runs = 7 }) {
  const missing = missingApi(serpkit);
  if (missing) throw new Error(missing);
  const schema = zodSchema(zod);
  const data = JSON.parse(text);
  const records = data.length;
  const ok = (r) => must(r.ok && r.error_count === 0, 'validateResponse ok');
  const rows = {};
  rows.ours = time(() => serpkit.validateResponse(OP, text), ok, runs);

  // Parsed value (the first goal, BENCHMARKS.md: ≤ 2× Ajv): the body already parsed, as
  // `await res.json()` gives it; ours runs the generated JS validator on it.
  const parsed = parsedCase({ serpkit, ajvValidate, data });
  rows.oursObject = parsed.ours;

  // Validated data from text or bytes (the second goal, from text: ≤ 1.1× JSON.parse + Ajv):
  // `parseResponse` returns the parsed data and its report; the other side parses and runs
  // Ajv, handing back the data only if valid. `viaWasm` is how the package got validated
  // data before: the wasm scanner on the text, then JSON.parse.
  const dataOk = (r) =>
    must(r.report.ok && r.report.error_count === 0 && r.data.length === records, 'parseResponse: data and report ok');
  const ajvData = (d) => (ajvValidate(d) ? d : null);
  const ajvDataOk = (d) => must(d !== null && d.length === records, 'JSON.parse + ajv: data valid');
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  const validated = {
    text: paired(
      { fn: () => serpkit.parseResponse(OP, text), check: dataOk },
      { fn: () => ajvData(JSON.parse(text)), check: ajvDataOk },
      runs,
    ),
    bytes: paired(
      { fn: () => serpkit.parseResponse(OP, bytes), check: dataOk },
      { fn: () => ajvData(JSON.parse(decoder.decode(bytes))), check: ajvDataOk },
      runs,
    ),
  };
  validated.text.viaWasm = time(
    () => {
      const report = serpkit.validateResponse(OP, text);
      return { report, data: report.ok ? JSON.parse(text) : null };
    },
    dataOk,
    runs,
  );
  // The same body as the UTF-8 bytes a fetch gives (`response.arrayBuffer()`): copied into
  // wasm as is, no string to encode. Ajv and zod need a string for JSON.parse, decoded here.
  rows.oursBytes = time(() => serpkit.validateResponse(OP, bytes), ok, runs);
  rows.ajvBytes = time(
    () => ajvValidate(JSON.parse(decoder.decode(bytes))),
    (v) => must(v === true, 'ajv valid (bytes)'),
    runs,
  );
  rows.parse = time(() => JSON.parse(text), (d) => must(d.length === records, 'parse'), runs);
  rows.ajv = time(
    () => ajvValidate(JSON.parse(text)),
    (v) => must(v === true, 'ajv valid'),
    runs,
  );
  rows.zod = time(
    () => schema.safeParse(JSON.parse(text)),
    (r) => must(r.success, 'zod valid'),
    runs,
  );

  // Delivering the data to JS. The package hands the body text to JSON.parse. The
  // alternative, building the objects from wasm, needs a call across the boundary per
  // object, per field and per string; its cost is at least (a) the JS-side work of
  // building the same objects field by field, plus (b) one boundary call per step.
  // (a): measured here in plain JS, no wasm involved (a lower bound).
  const keys = Object.keys(data[0]);
  rows.buildJs = time(
    () => {
      const out = new Array(records);
      for (let i = 0; i < records; i++) {
        const src = data[i];
        const o = {};
        for (const k of keys) Reflect.set(o, k, src[k]);
        out[i] = o;
      }
      return out;
    },
    (o) => must(o.length === records, 'build'),
    runs,
  );
  // (b): the cost of one trivial call into the package (a getter returning null).
  const client = new serpkit.Client({ key: 'k' });
  const calls = 200_000;
  const boundary = time(
    () => {
      let n = 0;
      for (let i = 0; i < calls; i++) if (client.remaining === null) n++;
      return n;
    },
    (n) => must(n === calls, 'boundary'),
    3,
    1,
  );
  client.free();
  const boundaryNs = (boundary * 1e6) / calls;
  const strings = keys.filter((k) => typeof data[0][k] === 'string').length;
  const steps = records * (1 + keys.length + strings);
  rows.buildWasmEstimate = rows.buildJs + (steps * boundaryNs) / 1e6;
  // The parsed value again, on the body of another origin (independent_body.mjs).
  const independent = independentText === undefined
    ? undefined
    : (() => {
        const other = JSON.parse(independentText);
        return { ...parsedCase({ serpkit, ajvValidate, data: other }), records: other.length, bytes: independentText.length };
      })();
  // Both validators must find a broken record, or the timings above were not of a check:
  // the last record with a string where an integer belongs. Only after every timing: a
  // string in a field that held numbers generalises that field for every object of its
  // shape (V8), which slowed Ajv's reads of the bodies timed after it far more than ours
  // (the parsed-value ratio read 1.2-1.4x with it, 1.5-1.8x on bodies as `res.json()`
  // gives them).
  const broken = data.slice();
  broken[records - 1] = { ...data[records - 1], search_volume: 'many' };
  must(!serpkit.validateResponse(OP, broken).ok, 'validateResponse(value) finds a broken record');
  must(ajvValidate(broken) === false, 'ajv finds a broken record');
  return { rows, parsed, independent, validated, records, bytes: bytes.length, boundaryNs, steps };
}
