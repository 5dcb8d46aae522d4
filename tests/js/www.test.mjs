// The examples: www/node-example.mjs runs to completion against the sandbox (and exits
// promptly: no timer of a finished call keeps Node alive), and the plain page www/index.html
// works in headless Chromium, showing scraped markup as text.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sandbox, serveRepo, launchChromium } from './support.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('www/node-example.mjs runs against the sandbox and exits promptly', async () => {
  await sandbox.reset();
  const started = Date.now();
  const { stdout } = await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'www', 'node-example.mjs')],
      { env: { ...process.env, SANDBOX_URL: sandbox.url, SANDBOX_KEY: sandbox.key }, timeout: 20_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve({ stdout })),
    );
  });
  // The client's timeout is 30 s: a leftover timer would hold the process that long.
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  assert.match(stdout, /search_volume\/bulk for 3 keywords costs \$0\.0009/);
  assert.match(stdout, /report: ok, charged \$0\.0009/);
  assert.match(stdout, /validateResponse: 1 error\(s\): \/0\/kd \[type\]/);
  assert.match(stdout, /second outline\/seo: budget_exceeded/);
});

test('www/index.html: pick, price, run, report and data as text (headless Chromium)', async () => {
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/www/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    assert.equal(await page.locator('#operation option').count(), 11);

    await page.fill('#base-url', sandbox.url);
    await page.fill('#key', sandbox.key);
    await page.selectOption('#operation', 'search_volume/bulk');
    assert.match(await page.textContent('#price'), /\$0\.0006 \(2 × per keyword\)/);
    await page.fill('#request', '{"keywords":["a",""],"ccode":"US"}');
    assert.match(await page.textContent('#price'), /invalid_request.*field \/keywords\/1/);
    assert.equal(await page.isDisabled('#run'), true);

    // Scraped headings carry markup: it must be shown as text, never parsed.
    await page.selectOption('#operation', 'outline/seo');
    await page.click('#run');
    await page.waitForFunction(() => /Done|:/.test(document.getElementById('status').textContent), null, { timeout: 10_000 });
    assert.match(await page.textContent('#status'), /Done in 1 attempt\(s\), charged \$0\.5000/);
    assert.match(await page.textContent('#summary'), /^OK: 0 error\(s\)/);
    const shown = await page.textContent('#data');
    assert.match(shown, /"headings"/);
    assert.ok(shown.includes('<'), 'the sandbox headings contain markup, shown as text');
    assert.equal(await page.locator('#data *').count(), 0, 'no element was created from the data');

    // A broken answer: the error and the failing report are shown.
    await page.fill('#key', `${sandbox.key}+break=missing_field`);
    await page.selectOption('#operation', 'related');
    await page.click('#run');
    await page.waitForFunction(() => /Breaks/.test(document.getElementById('summary').textContent), null, { timeout: 10_000 });
    assert.ok((await page.locator('#issues li.error').count()) >= 1);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
