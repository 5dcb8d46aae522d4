// The package as a user installs it: the `npm pack` tarball `cargo xtask pkg` writes
// (target/npm/serpkit-<version>.tgz) installed with `npm install <tarball>` into an empty
// folder; the README's TypeScript quick start type-checked there with `tsc --strict` and run
// in Node against the sandbox; and a page importing the installed package (both entries)
// built by Vite and run in Chromium.
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
const VITE = path.join(ROOT, 'tests', 'node_modules', '.bin', 'vite');

/** The README's TypeScript quick start (its one ```ts block), pointed at the sandbox. */
function quickStart() {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  assert.equal(blocks.length, 1, 'the README has one TypeScript block: the quick start');
  assert.match(blocks[0], /from 'serpkit'/);
  return blocks[0].replace(/key: 'YOUR_KEY'/, `key: ${JSON.stringify(sandbox.key)}, baseUrl: ${JSON.stringify(sandbox.url)}`);
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

test("the README's TypeScript quick start type-checks (tsc --strict) and runs from an empty folder", async () => {
  await sandbox.reset();
  const dir = installed('serpkit-quickstart-');
  try {
    fs.writeFileSync(path.join(dir, 'quickstart.ts'), quickStart());
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['ES2022', 'DOM', 'ESNext.Disposable'],
        types: [], strict: true, skipLibCheck: false, outDir: 'dist',
      },
      files: ['quickstart.ts'],
    }));
    execFileSync(TSC, ['-p', '.'], { cwd: dir, encoding: 'utf8' });
    const out = execFileSync(process.execPath, ['dist/quickstart.js'], { cwd: dir, encoding: 'utf8' });
    assert.match(out, /spent \$0\.1500, report ok: true/);
    assert.match(out, /not sent: \$0\.1500 more would pass the \$0\.2000 budget/);
    // One call charged: the second was refused before it was sent.
    assert.equal((await sandbox.ledger()).entries.length, 1);
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
