// The README's bundler setup under Vite's dev server (`vite dev`), in headless Chromium: a page
// importing 'serpkit' (installed as a copy of pkg/, as npm installs it) calls `init()`,
// validates, makes a call to the sandbox server and catches a `SerpkitError`. Vite 8 needs
// nothing; Vite 5–7 pre-bundle the package into `node_modules/.vite/deps/`, where the wasm's
// `new URL('serpkit_bg.wasm', import.meta.url)` names no file and the dev server answers it
// with index.html, unless the README's `optimizeDeps: { exclude: ['serpkit'] }` is set (shown
// here with Vite 6, npm alias `vite6` in tests/package.json). Production builds:
// bundlers.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sandbox, launchChromium, bundlerProject, assertBundlerPageWorks } from './support.mjs';

/** A fresh project with pkg/ copied in as node_modules/serpkit, and the page. */
function project() {
  const dir = bundlerProject('serpkit-vite-dev-', { copy: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/src/main.js"></script>\n');
  return dir;
}

/** Runs the page under `vite` (the npm package name: `vite` or `vite6`) with `config`. */
async function runDev(vite, config) {
  const dir = project();
  const { createServer } = await import(vite);
  const server = await createServer({ root: dir, configFile: false, logLevel: 'error', server: { host: '127.0.0.1', port: 0 }, ...config });
  const browser = await launchChromium();
  try {
    await server.listen();
    const page = await browser.newPage();
    const query = new URLSearchParams({ key: sandbox.key, base: sandbox.url });
    await page.goto(`${server.resolvedUrls.local[0]}?${query}`);
    await page.waitForFunction(() => window.__result, null, { timeout: 60_000 });
    return await page.evaluate(() => window.__result);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('Vite 8 dev server: the README setup as it is', async () => {
  await sandbox.reset();
  assertBundlerPageWorks(await runDev('vite', {}));
});

test("Vite 6 dev server: with the README's optimizeDeps.exclude (without it the wasm URL serves index.html)", async () => {
  await sandbox.reset();
  assertBundlerPageWorks(await runDev('vite6', { optimizeDeps: { exclude: ['serpkit'] } }));
  const bare = await runDev('vite6', {});
  assert.equal(bare.ok, false);
  assert.match(bare.failure, /expected magic word 00 61 73 6d, found 3c 21 64 6f/);
});
