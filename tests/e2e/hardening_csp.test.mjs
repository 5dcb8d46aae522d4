// Content-Security-Policy: the built index.html has no inline script (the app's
// loader is the file app/boot.js written by `cargo xtask app-wasm`), carries the CSP meta, the
// loader file is served and imports the app; the CSP is in force
// (an injected inline script and inline handler are refused); and the app works under it: the main
// views, in demo and in live mode, raise no `securitypolicyviolation`.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2e, open, research, spaGo, DIST, SANDBOX_KEY } from './helpers.mjs';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' https: http:; connect-src 'self' http: https:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'";

const app = e2e();
let page;
before(async () => {
  page = await app.open('/keywords', {
    init: () => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI} ${e.sample || ''}`.trim());
      });
    },
  });
});

/** Waits (bounded) until a violation of each of `directives` was reported as an event. */
const reported = (directives) => page.waitForFunction(
  (ds) => ds.every((d) => window.__csp.some((x) => x.startsWith(d))), directives, { timeout: 5000 },
).catch(() => {}); // the assertions after it say what is missing

const violations = async () => {
  const fromEvents = await page.evaluate(() => window.__csp.splice(0));
  const fromConsole = page.logs.filter((m) => /Content Security Policy/i.test(m));
  page.logs.length = 0;
  return [...fromEvents, ...fromConsole];
};

test('dist/index.html: no inline script, the CSP meta, and the loader file is served intact', async () => {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  assert.ok(scripts.length >= 1, 'the loader script tag');
  for (const [, attrs, body] of scripts) {
    assert.match(attrs, /\bsrc="\/[^"]+\.js"/, `a script with src: <script${attrs}>`);
    assert.equal(body.trim(), '', 'no inline code');
  }
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler attributes');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  assert.ok(meta, 'the CSP meta is present');
  assert.equal(meta[1], POLICY);
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<script'), 'the CSP comes before any script');

  const srcs = scripts.map(([, attrs]) => /\bsrc="([^"]+)"/.exec(attrs)[1]);
  assert.ok(srcs.includes('/app/boot.js'), `the app's loader: ${srcs}`);
  const res = await fetch(app.url + '/app/boot.js');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /javascript/);
  assert.match(await res.text(), /import init from '\.\/app\.js'/, 'the loader imports the app');
});

test('the CSP is in force: an injected inline script and an inline handler are refused', async () => {
  await open(page, app.url, '/keywords');
  await violations();
  const outcome = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.head.append(s);
    const b = document.createElement('button');
    b.setAttribute('onclick', 'window.__attr = 1');
    document.body.append(b);
    b.click();
    b.remove();
    const img = document.createElement('img');
    img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    document.body.append(img);
    // The refused load ends in `error` (the violation event is reported apart, below).
    await new Promise((r) => {
      img.onerror = r;
      img.onload = r;
    });
    img.remove();
    return { inline: window.__inline ?? null, attr: window.__attr ?? null };
  });
  await reported(['script-src', 'img-src']);
  assert.equal(outcome.inline, null, 'the inline script did not run');
  assert.equal(outcome.attr, null, 'the inline event handler did not run');
  const v = await violations();
  assert.ok(v.some((x) => x.startsWith('script-src')), `violations reported: ${v}`);
  assert.ok(v.some((x) => x.startsWith('img-src')), `data: images refused: ${v}`);
});

test('the app works under the CSP: every main view in demo mode, no violation', async () => {
  await open(page, app.url, '/keywords');
  await violations();
  await research(page, ['trail shoes', 'running shoes', 'marathon training']);
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  await page.getByTestId('theme').selectOption('dark');
  await page.getByTestId('theme').selectOption('auto');

  await open(page, app.url, '/keyword?kw=trail%20shoes&cc=US');
  await page.getByTestId('run-all').click();
  for (const id of ['outline', 'videos', 'posts', 'related-table']) await page.getByTestId(id).waitFor();

  await open(page, app.url, '/domains');
  await page.getByTestId('domains-input').fill('example.com\nexample.org');
  await page.getByTestId('run').click();
  await page.locator('[data-testid="domain-card"]').nth(1).waitFor();
  await open(page, app.url, '/domain?d=size-500.example.com&tab=overview');
  await page.getByTestId('run-all').click();
  await page.getByTestId('tab-keywords').click();
  await page.getByTestId('rk-table').waitFor();
  await page.getByTestId('tab-backlinks').click();
  await page.getByTestId('backlink-overview').waitFor();
  await open(page, app.url, '/domain/compare?d=example.com,example.org');
  await page.getByTestId('run-all').click();
  await page.getByTestId('cmp-stats').waitFor();

  for (const route of ['/lists', '/history', '/settings', '/prices', '/nowhere']) {
    await open(page, app.url, route);
  }
  // The CSV export (a blob: download) works too.
  await open(page, app.url, '/keywords?cc=US&kw=' + encodeURIComponent('trail shoes\nrunning shoes\nmarathon training'));
  await page.locator('[data-testid="kw-table"][data-rows="3"]').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.match(download.suggestedFilename(), /\.csv$/);

  assert.deepEqual(await violations(), [], 'no CSP violation while driving the app');
  assert.deepEqual(page.errors, []);
});

test('the app works under the CSP in live mode (fetch to the service base URL)', async () => {
  await app.goto(page, '/keywords', { live: SANDBOX_KEY });
  await violations();
  await spaGo(page, '/keyword?kw=csp%20live&cc=US');
  await page.getByTestId('section-related').getByTestId('related').click();
  await page.getByTestId('related-table').waitFor();
  assert.deepEqual(await violations(), [], 'no CSP violation in live mode');
  assert.deepEqual(page.errors, []);
});
