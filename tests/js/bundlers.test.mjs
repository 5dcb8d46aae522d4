// Bundlers, as web developers use the package: a small page importing 'serpkit' built for
// production by Vite, by webpack 5 and by esbuild with the README's recipe (its command, and the
// wasm copied beside the bundle: esbuild leaves `new URL(..., import.meta.url)` as it is), all
// from npm (tests/package.json), served, and run in headless Chromium, where `init()` finds the wasm the bundler emitted as an asset, validation
// works (text and parsed value), a call reaches the sandbox server and its typed error is caught.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sandbox, launchChromium, bundlerProject, assertBundlerPageWorks } from './support.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => path.join(root, 'tests', 'node_modules', '.bin', name);

function serve(dir) {
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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Serves the built `dist`, opens it in Chromium, returns the page's result. */
async function runBuilt(dist) {
  const wasm = fs.readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));
  assert.equal(wasm.length, 1, `the bundler emitted the wasm as one asset: ${wasm}`);
  await sandbox.reset();
  const server = await serve(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const query = new URLSearchParams({ key: sandbox.key, base: sandbox.url });
    await page.goto(`http://127.0.0.1:${server.address().port}/?${query}`);
    await page.waitForFunction(() => window.__result, null, { timeout: 30_000 });
    const result = await page.evaluate(() => window.__result);
    assert.deepEqual(errors, []);
    return result;
  } finally {
    await browser.close();
    server.close();
  }
}

test('Vite production build: runs in headless Chromium (wasm as an asset, validation, a call)', async () => {
  const dir = bundlerProject('serpkit-bundler-');
  try {
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/src/main.js"></script>\n');
    fs.writeFileSync(path.join(dir, 'vite.config.js'), "export default { logLevel: 'warn', build: { target: 'es2022' } };\n");
    execFileSync(bin('vite'), ['build'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    assertBundlerPageWorks(await runBuilt(path.join(dir, 'dist')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('webpack 5 production build: runs in headless Chromium (wasm as an asset, validation, a call)', async () => {
  const dir = bundlerProject('serpkit-bundler-');
  try {
    fs.writeFileSync(
      path.join(dir, 'webpack.config.js'),
      `export default {
  mode: 'production',
  entry: './src/main.js',
  experiments: { topLevelAwait: true, outputModule: true },
  output: { path: new URL('./dist', import.meta.url).pathname, filename: 'main.js', module: true, clean: true },
  performance: { hints: false },
};
`,
    );
    execFileSync(bin('webpack'), ['--config', 'webpack.config.js'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    fs.writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/main.js"></script>\n');
    assertBundlerPageWorks(await runBuilt(path.join(dir, 'dist')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("esbuild, the README's recipe: the bundle, the wasm copied beside it, runs in headless Chromium", async () => {
  const dir = bundlerProject('serpkit-bundler-');
  try {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const recipe = /^ *```sh\n *(esbuild [^\n]*)\n *(cp [^\n]*)\n *```/m.exec(readme);
    assert.ok(recipe, "the README's esbuild recipe: an esbuild command and a cp");
    const [esbuild, copy] = [recipe[1].split(' '), recipe[2].split(' ')];
    assert.deepEqual(esbuild, ['esbuild', 'src/main.js', '--bundle', '--format=esm', '--outdir=dist']);
    execFileSync(bin('esbuild'), esbuild.slice(1), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    assert.match(fs.readFileSync(path.join(dir, 'dist', 'main.js'), 'utf8'), /new URL\("serpkit_bg\.wasm", import\.meta\.url\)/);
    assert.deepEqual(copy, ['cp', 'node_modules/serpkit/serpkit_bg.wasm', 'dist/']);
    fs.copyFileSync(path.join(dir, copy[1]), path.join(dir, 'dist', 'serpkit_bg.wasm'));
    fs.writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/main.js"></script>\n');
    assertBundlerPageWorks(await runBuilt(path.join(dir, 'dist')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
