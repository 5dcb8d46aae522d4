// The package as npm would publish it and as Node imports it: what `npm pack` would put in
// the tarball, the `exports` map (types first, default last, runtime conditions between), and
// `import ... from 'serpkit'` in a fresh Node process with no init() (the `node` condition's
// entry loads the wasm from the package).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = path.join(root, 'pkg');
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));

test('npm pack would publish exactly the package files, each present', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkg, encoding: 'utf8' }));
  const published = packed.files.map((f) => f.path).sort();
  assert.deepEqual(published, [...manifest.files, 'package.json'].sort());
  for (const file of manifest.files) assert.ok(fs.statSync(path.join(pkg, file)).size > 0, file);
  assert.equal(packed.name, 'serpkit');
});

test('exports map: types first, default last, workerd/node/deno/bun entries between; sideEffects names the entries that instantiate', () => {
  const entry = manifest.exports['.'];
  const conditions = Object.keys(entry);
  assert.equal(conditions[0], 'types');
  assert.equal(conditions.at(-1), 'default');
  assert.deepEqual(conditions, ['types', 'workerd', 'node', 'deno', 'bun', 'default']);
  for (const target of Object.values(entry)) assert.ok(fs.existsSync(path.join(pkg, target)), target);
  assert.deepEqual(manifest.sideEffects, ['./serpkit.node.js', './serpkit.workerd.js']);
});

// The same program in every runtime: `import ... from 'serpkit'` and use it, no init().
const PROGRAM = `
  import { validateResponse, parseResponse, estimateCost, operations, Client, SerpkitError, isSerpkitError } from 'serpkit';
  const text = '[{"keyword":"x","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]';
  // The wasm's error and the JS layer's, each an instance of the entry's one class.
  const thrown = [() => estimateCost('nope', {}), () => new Client({ key: 'k', nope: 1 })].map((f) => {
    try { f(); } catch (e) { return [e instanceof SerpkitError, isSerpkitError(e), e.code]; }
  });
  const fromText = validateResponse('related', text);
  const fromValue = validateResponse('related', JSON.parse(text));
  const client = new Client({ key: 'k' });
  console.log(JSON.stringify({
    text: fromText.errors.map((i) => i.path + ' ' + i.code),
    value: fromValue.errors.map((i) => i.path + ' ' + i.code),
    parsed: parseResponse('related', text).report.error_count,
    cost: estimateCost('related', { keyword: 'a', ccode: 'US' }).display,
    operations: operations().length,
    remaining: client.remaining,
    thrown,
  }));
`;

const EXPECTED = {
  text: ['/0/kd type'],
  value: ['/0/kd type'],
  parsed: 1,
  cost: '$0.1500',
  operations: 11,
  remaining: null,
  thrown: [[true, true, 'unknown_operation'], [true, true, 'invalid_argument']],
};

/** Runs PROGRAM with `command args` in a fresh project whose node_modules/serpkit is pkg/. */
function runInProject(command, args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serpkit-runtime-'));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(pkg, path.join(dir, 'node_modules', 'serpkit'), 'dir');
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    fs.writeFileSync(path.join(dir, 'main.mjs'), PROGRAM);
    return JSON.parse(execFileSync(command, [...args, 'main.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Deno and Bun come from npm (tests/package.json), installed by the JS test stage.
const bin = (name) => path.join(root, 'tests', 'node_modules', '.bin', name);

test("Node: import { ... } from 'serpkit' works with no init()", () => {
  assert.deepEqual(runInProject(process.execPath, []), EXPECTED);
});

test("Deno (npm deno): the same import, with read permission only", () => {
  assert.deepEqual(runInProject(bin('deno'), ['run', '--allow-read']), EXPECTED);
});

test("Bun (npm bun): the same import", () => {
  assert.deepEqual(runInProject(bin('bun'), []), EXPECTED);
});

test('Cloudflare Workers: a worker bundled the way Workers users do (esbuild, workerd condition) runs in workerd (miniflare)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serpkit-worker-'));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(pkg, path.join(dir, 'node_modules', 'serpkit'), 'dir');
    fs.writeFileSync(path.join(dir, 'worker.js'), `
      import { validateResponse, parseResponse, estimateCost, SerpkitError, isSerpkitError } from 'serpkit';
      export default {
        async fetch(request) {
          const text = await request.text();
          const fromValue = parseResponse('related', text).report;
          const fromText = validateResponse('related', text);
          let thrown;
          try { estimateCost('nope', {}); } catch (e) { thrown = [e instanceof SerpkitError, isSerpkitError(e), e.code]; }
          return Response.json({ text: fromText.errors.map((i) => i.path + ' ' + i.code), value: fromValue.errors.map((i) => i.path + ' ' + i.code), thrown });
        },
      };
    `);
    // As wrangler bundles: the workerd condition, the .wasm left as a module import next to the bundle.
    await build({
      entryPoints: [path.join(dir, 'worker.js')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker'],
      mainFields: ['module', 'main'],
      external: ['*.wasm'],
      outdir: path.join(dir, 'dist'),
      logLevel: 'error',
    });
    fs.copyFileSync(path.join(pkg, 'serpkit_bg.wasm'), path.join(dir, 'dist', 'serpkit_bg.wasm'));
    const mf = new Miniflare({
      scriptPath: path.join(dir, 'dist', 'worker.js'),
      modulesRoot: path.join(dir, 'dist'),
      modules: true,
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
      compatibilityDate: '2025-01-01',
    });
    try {
      const res = await mf.dispatchFetch('http://localhost/', {
        method: 'POST',
        body: '[{"keyword":"x","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]',
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { text: ['/0/kd type'], value: ['/0/kd type'], thrown: [true, true, 'unknown_operation'] });
    } finally {
      await mf.dispose();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
