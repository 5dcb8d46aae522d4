// The JS package's size goals, checked by `cargo xtask test` after `cargo xtask pkg`:
// the wasm at most 100 kB gzip (level 9, Node's zlib, as BENCHMARKS.md measures), and the
// JS glue, the record caches, their orchestration, the generated JS validators and
// the types reported beside it; the schema-only entry (`serpkit/schema`) at most 25 KiB gzip;
// importing `isSerpkitError` or `estimateCost` alone from `serpkit` at most 5 kB gzip of JS,
// bundled by esbuild and by Vite (imports.mjs; the wasm an import needs is an asset apart).
import fs from 'node:fs';
import zlib from 'node:zlib';
import { schemaEntrySize } from './schema_entry.mjs';
import { importSizes, importTable } from './imports.mjs';

const LIMIT_WASM_GZ = 100_000;
const pkg = new URL('../../pkg/', import.meta.url);
// Every file the package publishes (package.json `files`, written by xtask/src/pkg.rs), the
// wasm first; the wasm-bindgen type stub of the wasm's exports aside.
const manifest = JSON.parse(fs.readFileSync(new URL('package.json', pkg), 'utf8'));
const files = manifest.files.filter((name) => name !== 'serpkit_bg.wasm.d.ts').sort((a, b) => b.endsWith('.wasm') - a.endsWith('.wasm'));
let failed = false;
for (const name of files) {
  const bytes = fs.readFileSync(new URL(name, pkg));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  let note = '';
  if (name.endsWith('.wasm')) {
    const ok = gz <= LIMIT_WASM_GZ;
    failed ||= !ok;
    note = ok ? ` (goal ≤ ${LIMIT_WASM_GZ / 1000} kB: met)` : ` — OVER the ${LIMIT_WASM_GZ / 1000} kB goal`;
  }
  console.log(`pkg/${name}: ${(bytes.length / 1000).toFixed(1)} kB raw, ${(gz / 1000).toFixed(1)} kB gzip${note}`);
}
// The schema-only entry (`serpkit/schema`, no wasm), as a bundler ships it (schema_entry.mjs).
const LIMIT_SCHEMA_GZ = 25 * 1024;
const schema = schemaEntrySize(pkg);
if (schema.modules.some((name) => name.endsWith('.wasm') || name === 'serpkit.js')) {
  console.error(`serpkit/schema imports the wasm or its glue: ${schema.modules.join(', ')}`);
  failed = true;
}
const schemaOk = schema.gz <= LIMIT_SCHEMA_GZ;
failed ||= !schemaOk;
console.log(
  `serpkit/schema (${schema.modules.join(' + ')}): ${(schema.gz / 1024).toFixed(1)} KiB gzip bundled and minified` +
    (schemaOk ? ' (goal ≤ 25 KiB: met)' : ' — OVER the 25 KiB goal') +
    `; the files gzipped alone, unminified: ${(schema.filesGz / 1024).toFixed(1)} KiB`,
);
// One import alone: what it costs an app (JS only; the wasm is the asset measured above).
const LIMIT_ONE_IMPORT_GZ = 5_000;
const sizes = await importSizes(pkg);
console.log(`one import per entry point, bundled and minified, gzip (goal for isSerpkitError and estimateCost: JS ≤ ${LIMIT_ONE_IMPORT_GZ / 1000} kB):\n${importTable(sizes)}`);
for (const size of sizes) {
  if (size.entry !== 'serpkit' || !['{ isSerpkitError }', '{ estimateCost }', 'init, { estimateCost }'].includes(size.name)) continue;
  for (const bundler of ['esbuild', 'vite']) {
    if (size[bundler].js > LIMIT_ONE_IMPORT_GZ) {
      console.error(`import ${size.name} from 'serpkit' with ${bundler}: ${size[bundler].js} bytes gzip of JS — OVER the ${LIMIT_ONE_IMPORT_GZ / 1000} kB goal`);
      failed = true;
    }
  }
}
if (failed) {
  console.error('package size check failed');
  process.exit(1);
}
