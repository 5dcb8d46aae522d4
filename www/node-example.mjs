// Node 20 example of the JS package against the sandbox server.
//
//   cargo xtask pkg                                   # builds pkg/
//   cargo run -p sandbox -- --port 8787               # prints: sandbox listening on http://127.0.0.1:8787
//   SANDBOX_URL=http://127.0.0.1:8787 SANDBOX_KEY=sandbox-test-key node www/node-example.mjs
import fs from 'node:fs';
import { initSync, Client, estimateCost, operations, validateResponse } from '../pkg/serpkit.js';

// Node has no `fetch` of local files: load the wasm bytes synchronously.
initSync({ module: fs.readFileSync(new URL('../pkg/serpkit_bg.wasm', import.meta.url)) });

const baseUrl = process.env.SANDBOX_URL ?? 'http://127.0.0.1:8787';
const key = process.env.SANDBOX_KEY ?? 'sandbox-test-key';

console.log('Operations and prices:');
for (const op of operations()) {
  console.log(`  ${op.path.padEnd(24)} ${op.price.display} ${op.unitLabel}`);
}

const request = { keywords: ['trail shoes', 'running shoes', 'hiking boots'], ccode: 'US' };
console.log(`\nsearch_volume/bulk for 3 keywords costs ${estimateCost('search_volume/bulk', request).display}`);

const client = new Client({ key, baseUrl, budgetUsd: 1, retries: 2, timeoutMs: 30_000 });
try {
  const volumes = await client.searchVolumeBulk(request);
  for (const r of volumes.data) {
    console.log(`  ${r.keyword.padEnd(16)} ${String(r.SEARCH_VOLUME).padStart(8)} searches/month, CPC $${r.AVERAGE_CPC}`);
  }
  console.log(`  report: ${volumes.report.ok ? 'ok' : 'FAILED'}, charged ${volumes.charge.display}`);

  const related = await client.related({ keyword: 'trail shoes', ccode: 'US' });
  const top = related.data.slice(0, 3).map((r) => `${r.keyword} (kd ${r.kd})`);
  console.log(`\nrelated: ${related.data.length} keywords, top: ${top.join(', ')}`);

  // Validation of a body you got elsewhere (text is fastest: no object graph crosses).
  const report = validateResponse('related', '[{"keyword":"x","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]');
  console.log(`\nvalidateResponse: ${report.error_count} error(s): ${report.errors.map((i) => `${i.path} [${i.code}]`).join(', ')}`);

  // Errors are SerpkitError with a stable code.
  try {
    await client.outlineSeo({ keyword: 'trail shoes' });
    await client.outlineSeo({ keyword: 'running shoes' });
  } catch (e) {
    console.log(`\nsecond outline/seo: ${e.code}: ${e.hint}`);
  }
  console.log(`\nspent ${client.spent.display}, ${client.remaining.display} of the budget left`);
} catch (e) {
  console.error(`failed: ${e.code ?? ''} ${e.message}`);
  process.exitCode = 1;
} finally {
  client.free();
}
