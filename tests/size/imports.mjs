// What importing one function of the package costs an app: for each entry point and function,
// a module that imports just it (`import { isSerpkitError } from 'serpkit'; use(it)`) is
// bundled and minified for the browser by esbuild and by Vite (the npm packages in
// tests/node_modules), against the built package (pkg/, installed as `serpkit` in a temp
// folder); the JS it ships is gzip -9'd by Node's zlib. The wasm is not JS: a bundle that
// needs it (anything that calls the wasm) also ships `serpkit_bg.wasm` as an asset, counted
// apart (`wasm`). Read by the size check (tests/size/check.mjs: the goals) and written into
// BENCHMARKS.md ("JS package", one import per entry point).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The imports measured: [entry, what is imported]; `init, { … }` as a browser app needs it for the wasm. */
export const IMPORTS = [
  ['serpkit', '{ isSerpkitError }'],
  ['serpkit', '{ estimateCost }'],
  ['serpkit', 'init, { estimateCost }'],
  ['serpkit', 'init, { validateResponse }'],
  ['serpkit', 'init, { Client }'],
  ['serpkit/schema', '{ isSerpkitError }'],
  ['serpkit/schema', '{ validateResponse }'],
];

const require = createRequire(new URL('../package.json', import.meta.url));
const gzip = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;

/** A temp folder with the package installed as `serpkit` (a link to `pkg`, a URL ending in `/`) and one entry per import. */
function project(pkg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serpkit-imports-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(fileURLToPath(pkg), path.join(dir, 'node_modules', 'serpkit'), 'dir');
  const entries = IMPORTS.map(([from, what], i) => {
    const file = path.join(dir, `entry${i}.js`);
    const names = what.replace(/[{}]/g, '').split(',').map((n) => n.trim());
    fs.writeFileSync(file, `import ${what} from '${from}';\nglobalThis.used = [${names.join(', ')}];\n`);
    return file;
  });
  return { dir, entries };
}

/** `[{ entry, name, esbuild: { js, wasm }, vite: { js, wasm } }]` (`name`: what is imported): gzip bytes of the JS and of the wasm asset (0 when not shipped). */
export async function importSizes(pkg) {
  const { dir, entries } = project(pkg);
  try {
    const esbuild = require('esbuild');
    const { build } = await import('vite');
    const results = [];
    for (const [i, [entry, name]] of IMPORTS.entries()) {
      const bundled = esbuild.buildSync({
        entryPoints: [entries[i]],
        absWorkingDir: dir,
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'error',
      }).outputFiles[0].text;
      // esbuild leaves `new URL('serpkit_bg.wasm', import.meta.url)` as it is: the wasm is
      // needed when that is in the bundle (the README's recipe copies it beside the bundle).
      const esbuildWasm = bundled.includes('serpkit_bg.wasm') ? wasmGz(pkg) : 0;
      const out = await build({
        root: dir,
        configFile: false,
        logLevel: 'silent',
        build: {
          write: false,
          minify: true,
          target: 'es2022',
          modulePreload: false,
          rollupOptions: { input: entries[i], preserveEntrySignatures: 'strict' },
        },
      });
      const files = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
      const js = files.filter((f) => f.type === 'chunk').reduce((s, f) => s + gzip(Buffer.from(f.code)), 0);
      const wasm = files.filter((f) => f.type === 'asset' && f.fileName.endsWith('.wasm')).reduce((s, f) => s + gzip(Buffer.from(f.source)), 0);
      results.push({ entry, name, esbuild: { js: gzip(Buffer.from(bundled)), wasm: esbuildWasm }, vite: { js, wasm } });
    }
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The wasm's gzip bytes. */
function wasmGz(pkg) {
  return gzip(fs.readFileSync(new URL('serpkit_bg.wasm', pkg)));
}

/** The sizes as BENCHMARKS.md's table. */
export function importTable(sizes) {
  const kb = (n) => (n === 0 ? '–' : `${(n / 1000).toFixed(1)} kB`);
  return [
    '| import | esbuild: JS | esbuild: wasm | Vite: JS | Vite: wasm |',
    '|---|---|---|---|---|',
    ...sizes.map((s) => `| \`import ${s.name} from '${s.entry}'\` | ${kb(s.esbuild.js)} | ${kb(s.esbuild.wasm)} | ${kb(s.vite.js)} | ${kb(s.vite.wasm)} |`),
  ].join('\n');
}
