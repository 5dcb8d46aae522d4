// The size of the schema-only entry (`serpkit/schema`, pkg/schema.js) as a bundler ships it:
// the modules `schema.js` imports (followed from its `import ... from './x.js'` lines),
// bundled and minified by esbuild (tests/node_modules), gzip -9 by Node's zlib; and the sum
// of those files gzipped alone, unminified. Read by the size check (tests/size/check.mjs) and
// the JS benchmark (bench/js/run.mjs, BENCHMARKS.md).
import fs from 'node:fs';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `{ modules, gz, filesGz }` of the entry in the package directory `pkg` (a URL ending in `/`). */
export function schemaEntrySize(pkg) {
  const modules = [];
  const follow = (name) => {
    if (modules.includes(name)) return;
    modules.push(name);
    const text = fs.readFileSync(new URL(name, pkg), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'\.\/([^']+)'/gm)) follow(m[1]);
  };
  follow('schema.js');
  const gzip = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;
  const filesGz = modules.reduce((sum, name) => sum + gzip(fs.readFileSync(new URL(name, pkg))), 0);
  const { buildSync } = createRequire(new URL('../package.json', import.meta.url))('esbuild');
  const bundle = buildSync({
    entryPoints: [fileURLToPath(new URL('schema.js', pkg))],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'error',
  }).outputFiles[0].contents;
  return { modules, gz: gzip(bundle), filesGz };
}
