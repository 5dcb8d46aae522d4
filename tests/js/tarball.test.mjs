// The package as a user installs it: the `npm pack` tarball `cargo xtask pkg` writes
// (target/npm/serpkit-<version>.tgz) installed with `npm install <tarball>` into an empty
// folder (with its README and license files); the README's TypeScript quick start, as it is,
// type-checked there with the `tsconfig.json` `tsc --init` writes (DOM and Node's types, and
// Node's types alone) and run in Node against the sandbox with the environment it names; and a
// page importing the installed package (both entries) built by Vite and run in Chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sandbox, launchChromium } from './support.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'pkg', 'package.json'), 'utf8')).version;
const TARBALL = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'npm', `serpkit-${VERSION}.tgz`);
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
// What the quick start's `npm install -D typescript @types/node` installs (the workspace's copies).
const DEV_PACKAGES = ['typescript', '@types/node', 'undici-types'];
const VITE = path.join(ROOT, 'tests', 'node_modules', '.bin', 'vite');

/** The README's quick start: its one ```ts block, as it is, and its ```text command blocks. */
function quickStart() {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Quick start'), readme.indexOf('### What `pkg/` holds'));
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  assert.equal(blocks.length, 1, 'the README has one TypeScript block: the quick start');
  assert.ok(section.includes(blocks[0]));
  const commands = [...section.matchAll(/^```text\n([\s\S]*?)^```/gm)].flatMap((m) => m[1].trim().split('\n'));
  return { code: blocks[0], commands };
}

/** An empty folder with the tarball installed as the README says. */
function installed(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const npm = (...args) => execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  npm('init', '-y');
  npm('pkg', 'set', 'type=module');
  npm('install', '--no-audit', '--no-fund', '--offline', TARBALL);
  return dir;
}

test('the tarball holds the package as published: engines, the ./package.json and ./schema exports', () => {
  assert.ok(fs.existsSync(TARBALL), `${TARBALL}: run cargo xtask pkg`);
  const dir = installed('serpkit-tarball-');
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'serpkit', 'package.json'), 'utf8'));
    assert.deepEqual(manifest.engines, { node: '>=20' });
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const manifest = require('serpkit/package.json');
      const schema = await import('serpkit/schema');
      const main = await import('serpkit');
      console.log(JSON.stringify([manifest.version, schema.validateResponse('related', []).ok, main.validateResponse('related', '[]').ok]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [VERSION, true, true]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the tarball carries the README (its JS package section) and the license files', () => {
  const dir = installed('serpkit-tarball-docs-');
  try {
    const at = path.join(dir, 'node_modules', 'serpkit');
    const readme = fs.readFileSync(path.join(at, 'README.md'), 'utf8');
    assert.match(readme, /^# serpkit\n/);
    assert.ok(readme.includes(quickStart().code), 'the quick start, as in the repository README');
    assert.ok(!readme.includes('## App'), 'the JS package section only');
    assert.match(fs.readFileSync(path.join(at, 'LICENSE-MIT'), 'utf8'), /Permission is hereby granted/);
    assert.match(fs.readFileSync(path.join(at, 'LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the README's quick start as pasted: tsc --init's config (DOM and Node types, Node types alone), then run with its environment against the sandbox", async () => {
  await sandbox.reset();
  const { code, commands } = quickStart();
  // The README's commands, in order: the two that set the folder up and install the tarball
  // are what `installed` runs; the dev packages come from the workspace (no network here).
  assert.deepEqual(commands, [
    'npm init -y && npm pkg set type=module',
    'npm install /path/to/serpkit/target/npm/serpkit-0.1.0.tgz',
    'npm install -D typescript @types/node && npx tsc --init --types node',
    'cargo run -p sandbox -- --port 8787',
    'npx tsc && SERPKIT_KEY=sandbox-test-key SERPKIT_BASE_URL=http://127.0.0.1:8787 node index.js',
  ]);
  const dir = installed('serpkit-quickstart-');
  try {
    for (const name of DEV_PACKAGES) {
      fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
      fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
    }
    fs.writeFileSync(path.join(dir, 'index.ts'), code);
    const tsc = (...args) => {
      try {
        return execFileSync(TSC, args, { cwd: dir, encoding: 'utf8' });
      } catch (e) {
        assert.fail(`tsc ${args.join(' ')}: ${e.stdout}${e.stderr}`);
      }
    };
    // Node's types alone (no DOM): the package's types need no DOM name.
    tsc('--init', '--types', 'node', '--lib', 'esnext');
    assert.match(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'), /"strict": true/);
    tsc();
    // As the README says: `tsc --init --types node` (its default lib: DOM too).
    fs.rmSync(path.join(dir, 'tsconfig.json'));
    tsc('--init', '--types', 'node');
    tsc();
    const env = { ...process.env, SERPKIT_KEY: sandbox.key, SERPKIT_BASE_URL: sandbox.url };
    const out = execFileSync(process.execPath, ['index.js'], { cwd: dir, encoding: 'utf8', env });
    assert.match(out, /spent \$0\.1500, report ok: true/);
    assert.match(out, /not sent: \$0\.1500 more would pass the \$0\.2000 budget/);
    // One call charged: the second was refused before it was sent.
    assert.equal((await sandbox.ledger()).entries.length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Serves `dir` on 127.0.0.1 (the sandbox allows loopback origins); resolves to the server. */
async function serveDir(dir) {
  const { default: http } = await import('node:http');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(dir, p === '/' ? 'index.html' : p);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test("the README's quick start in a plain page in Chromium (after init()); init() failing and errors cloned there", async () => {
  await sandbox.reset();
  const { code } = quickStart();
  const dir = installed('serpkit-quickstart-page-');
  try {
    // The quick start as it is, compiled by tsc (its types stripped), in a page whose import
    // map resolves 'serpkit' to a module that runs `init()` first (what a browser needs and
    // Node does not); `process.env` is the page's stand-in for the environment.
    fs.writeFileSync(path.join(dir, 'index.ts'), code);
    execFileSync(TSC, ['index.ts', '--target', 'es2022', '--module', 'esnext', '--lib', 'es2022,dom', '--noCheck'], { cwd: dir, encoding: 'utf8' });
    fs.writeFileSync(path.join(dir, 'serpkit-ready.js'), "import init from '/node_modules/serpkit/serpkit.js';\nawait init();\nexport * from '/node_modules/serpkit/serpkit.js';\n");
    const env = { SERPKIT_KEY: sandbox.key, SERPKIT_BASE_URL: sandbox.url };
    fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8">
<script type="importmap">{ "imports": { "serpkit": "/serpkit-ready.js" } }</script>
<script>
  globalThis.process = { env: ${JSON.stringify(env)} };
  const lines = [];
  const log = console.log;
  console.log = (...args) => { lines.push(args.join(' ')); log(...args); };
  window.__lines = lines;
</script>
<script type="module">
  import('/index.js').then(() => { window.__done = 'ok'; }, (e) => { window.__done = String(e); });
  // A second copy of the glue (its own wasm state), so the failing init() is not the page's.
  const glue = await import('/node_modules/serpkit/serpkit.js?second');
  const seen = {};
  try {
    await glue.default({ module_or_path: '/missing/serpkit_bg.wasm' });
  } catch (e) {
    seen.init = [e instanceof glue.SerpkitError, e.code, e.cause !== undefined];
  }
  const cloned = structuredClone(new glue.SerpkitError('budget_exceeded', 'over'));
  seen.cloned = [cloned.code, glue.SerpkitError.from(cloned).code];
  window.__seen = seen;
</script>
`);
    const server = await serveDir(dir);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => window.__done && window.__seen, null, { timeout: 30_000 });
      assert.equal(await page.evaluate(() => window.__done), 'ok');
      const lines = await page.evaluate(() => window.__lines);
      assert.ok(lines.includes('spent $0.1500, report ok: true'), lines.join('\n'));
      assert.ok(lines.includes('not sent: $0.1500 more would pass the $0.2000 budget'), lines.join('\n'));
      assert.deepEqual(await page.evaluate(() => window.__seen), { init: [true, 'init_failed', true], cloned: [undefined, 'budget_exceeded'] });
      assert.deepEqual(errors, []);
      assert.equal((await sandbox.ledger()).entries.length, 1);
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a Vite production build of a page importing the installed package runs in Chromium', async () => {
  const dir = installed('serpkit-tarball-vite-');
  try {
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/src/main.js"></script>\n');
    fs.writeFileSync(path.join(dir, 'vite.config.js'), "export default { logLevel: 'warn', build: { target: 'es2022' } };\n");
    fs.writeFileSync(path.join(dir, 'src', 'main.js'), `
      import init, { validateResponse } from 'serpkit';
      import { validateResponse as validateValue } from 'serpkit/schema';
      const bad = '[{"keyword":"x","competition":0.4,"cpc":1.2,"search_volume":90,"kd":"7"}]';
      const out = { value: validateValue('related', JSON.parse(bad)).errors.map((i) => i.code) };
      try {
        await init();
        out.text = validateResponse('related', bad).errors.map((i) => i.code);
      } catch (e) {
        out.failure = String(e);
      }
      window.__result = out;
    `);
    execFileSync(VITE, ['build'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    const dist = path.join(dir, 'dist');
    const { default: http } = await import('node:http');
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
    const server = http.createServer((req, res) => {
      const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const file = path.join(dist, p === '/' ? 'index.html' : p);
      if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => window.__result, null, { timeout: 30_000 });
      assert.deepEqual(await page.evaluate(() => window.__result), { value: ['type'], text: ['type'] });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
