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

/** Best (lowest) wall time (ms) of `fn` over `runs` runs after `warmup` runs; checks its
 * result. The best run, not the median: the benchmark machine's 2 cores are shared with
 * builds, and interference only ever adds time. */
function time(fn, check, runs, warmup = 2) {
  for (let i = 0; i < warmup; i++) check(fn());
  const ms = [];
  for (let i = 0; i < runs; i++) {
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

/**
 * Runs every case on `text` (the response body). `ajvValidate` is Ajv's compiled validator
 * (allErrors) of `jsonSchema(OP)`; `zod` the zod module. Returns `{ rows, boundaryNs, ... }`.
 */
export function runCases({ serpkit, ajvValidate, zod, text, runs = 7 }) {
  const schema = zodSchema(zod);
  const data = JSON.parse(text);
  const records = data.length;
  const ok = (r) => must(r.ok && r.error_count === 0, 'validateResponse ok');
  const rows = {};
  rows.ours = time(() => serpkit.validateResponse(OP, text), ok, runs);
  rows.oursObject = time(() => serpkit.validateResponse(OP, data), ok, runs);
  // The same body as the UTF-8 bytes a fetch gives (`response.arrayBuffer()`): copied into
  // wasm as is, no string to encode. Ajv and zod need a string for JSON.parse, decoded here.
  const bytes = new TextEncoder().encode(text);
  rows.oursBytes = time(() => serpkit.validateResponse(OP, bytes), ok, runs);
  const decoder = new TextDecoder();
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
  return { rows, records, bytes: bytes.length, boundaryNs, steps };
}
