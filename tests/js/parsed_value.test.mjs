// The parsed-value path of `validateResponse` (the generated JS validators) and
// `parseResponse`: what only a parsed value can say (`unsafe_integer`), what only text can say
// (duplicate keys, number spelling), requests refused exactly as with text, values only
// their JSON text can tell (`toJSON`), and the whole path in headless Chromium under a
// strict Content Security Policy (no `eval`, no `new Function`). The agreement of the two
// validators on every rule is tests/js/differential.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serpkit, launchChromium } from './support.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = Object.fromEntries(
  serpkit.operations().map((op) => [op.path, fs.readFileSync(path.join(root, 'tests', 'fixtures', `${op.path.replace(/[/-]/g, '_')}.json`), 'utf8')]),
);
const { validateResponse, parseResponse } = serpkit;

test('every fixture: the same report from the parsed value, the text and the bytes', () => {
  for (const [op, text] of Object.entries(fixtures)) {
    const fromText = validateResponse(op, text);
    assert.deepEqual(validateResponse(op, JSON.parse(text)), fromText, op);
    assert.deepEqual(validateResponse(op, new TextEncoder().encode(text)), fromText, op);
    const parsed = parseResponse(op, text);
    assert.deepEqual(parsed.data, JSON.parse(text), op);
    assert.deepEqual(parsed.report, fromText, op);
  }
});

test('a broken parsed value: paths, codes, severities and messages as the wasm engine gives them', () => {
  const body = JSON.parse(fixtures.related);
  body[0].kd = '7';
  body[1].extra = 1;
  body[1].competition = 3;
  delete body[0].cpc;
  const fromValue = validateResponse('related', body);
  assert.deepEqual(fromValue, validateResponse('related', JSON.stringify(body)));
  assert.deepEqual(
    [...fromValue.errors, ...fromValue.warnings].map((i) => [i.path, i.code, i.severity]),
    [
      ['/0/kd', 'type', 'error'],
      ['/0/cpc', 'missing_field', 'error'],
      ['/1/competition', 'range', 'warning'],
      ['/1/extra', 'unknown_field', 'warning'],
    ],
  );
});

test('an integer beyond 2^53 in a parsed value is an unsafe_integer warning; text has the digits', () => {
  const text = fixtures['ranked-keywords/domain'].replace('"search_volume":', '"search_volume":9007199254740993,"x":');
  const body = JSON.parse(text.replace(',"x":', ',"search_volume_":'));
  delete body[0].search_volume_;
  assert.equal(body[0].search_volume, 9007199254740992, 'JSON.parse rounded it');
  const report = validateResponse('ranked-keywords/domain', body);
  assert.equal(report.ok, true);
  assert.deepEqual(report.warnings.map((i) => [i.path, i.code]), [['/0/search_volume', 'unsafe_integer']]);
  assert.match(report.warnings[0].message, /9007199254740992 is beyond .*JSON\.parse may have rounded it/);
  // Once per field path pattern, not once per record: 64-bit ids in every record say it once.
  const many = JSON.parse(fixtures['ranked-keywords/domain']);
  for (const record of many) record.total_backlinks = 2 ** 60;
  many[0].rank = 2 ** 62;
  const once = validateResponse('ranked-keywords/domain', many);
  assert.ok(many.length >= 2);
  assert.deepEqual(once.warnings.map((i) => [i.path, i.code]), [['/0/total_backlinks', 'unsafe_integer'], ['/0/rank', 'unsafe_integer']]);
  assert.match(once.warnings[0].message, /reported once for \/\*\/total_backlinks$/);
  // Up to 2^53 - 1 is exact: no warning.
  body[0].search_volume = Number.MAX_SAFE_INTEGER;
  assert.equal(validateResponse('ranked-keywords/domain', body).warning_count, 0);
  // Beyond 64 bits it is a type error in both.
  body[0].search_volume = 2 ** 64;
  assert.deepEqual(validateResponse('ranked-keywords/domain', body).errors.map((i) => i.code), ['type']);
});

test('rules only text can show: duplicate keys and number spelling are caught from text, not from the value', () => {
  const text = '[{"keyword":"a","keyword":"b","competition":0.5,"cpc":1,"search_volume":5.0,"kd":1}]';
  const fromText = validateResponse('related', text);
  assert.deepEqual(fromText.errors.map((i) => [i.path, i.code]), [['/0/keyword', 'duplicate_field'], ['/0/search_volume', 'type']]);
  // JSON.parse keeps the last key and reads 5.0 as the integer 5: nothing left to report.
  assert.equal(validateResponse('related', JSON.parse(text)).ok, true);
  assert.equal(parseResponse('related', text).report.ok, true);
});

test('requests: read and refused as with text; checked against the parsed value', () => {
  const body = JSON.parse(fixtures['search_volume/bulk']);
  const request = { keywords: body.map((r) => r.keyword.toUpperCase()), ccode: 'us' };
  assert.deepEqual(validateResponse('search_volume/bulk', body, request), validateResponse('search_volume/bulk', fixtures['search_volume/bulk'], request));
  const wrong = { keywords: ['other', ...request.keywords], ccode: 'DE' };
  const fromValue = validateResponse('search_volume/bulk', body, JSON.stringify(wrong));
  assert.deepEqual(fromValue, validateResponse('search_volume/bulk', fixtures['search_volume/bulk'], wrong));
  assert.ok(fromValue.errors.some((i) => i.code === 'record_count'));
  assert.ok(fromValue.errors.some((i) => i.code === 'request_ccode'));
  const refused = (fn) => {
    try {
      fn();
    } catch (error) {
      return `${error.code}: ${error.message}`;
    }
    return 'not refused';
  };
  for (const bad of [{ keywords: 'x' }, '{', { keywords: [], ccode: 'US', extra: 1 }]) {
    const fromText = refused(() => validateResponse('search_volume/bulk', fixtures['search_volume/bulk'], bad));
    assert.notEqual(fromText, 'not refused');
    assert.equal(refused(() => validateResponse('search_volume/bulk', body, bad)), fromText);
  }
  assert.equal(refused(() => validateResponse('nope', body)), refused(() => validateResponse('nope', '[]')));
});

test('values JSON.stringify changes: toJSON, undefined, NaN read as their JSON text', () => {
  const body = JSON.parse(fixtures['video/video']);
  body[0].posted_on = new Date('2024-03-01T12:00:00Z');
  body[0].title = undefined;
  body[0].views = NaN;
  const fromValue = validateResponse('video/video', body);
  assert.deepEqual(fromValue, validateResponse('video/video', JSON.stringify(body)));
  assert.deepEqual(fromValue.errors.map((i) => [i.path, i.code]), [['/0/views', 'type'], ['/0/title', 'missing_field']]);
  // A BigInt is the integer it is (the client's `integers: "bigint"` makes them), not a throw.
  assert.deepEqual(validateResponse('related', [{ keyword: 1n }]).errors.map((i) => [i.path, i.code, i.message]).slice(0, 1), [
    ['/0/keyword', 'type', 'expected a string, found integer 1'],
  ]);
});

test('a lone surrogate: a rule of the text (its escape is refused), read as the JS string it is', () => {
  const text = fixtures.related.replace('"best running shoes"', '"best \\ud800 shoes"');
  assert.deepEqual(validateResponse('related', text).errors.map((i) => i.code), ['json']);
  const body = JSON.parse(text);
  assert.equal(body[0].keyword, 'best \ud800 shoes');
  assert.equal(validateResponse('related', body).ok, true);
  assert.equal(parseResponse('related', text).report.ok, true);
});

test('values are read, never converted: an object with valueOf where a number belongs is a type error', () => {
  const body = JSON.parse(fixtures.related);
  let calls = 0;
  body[0].kd = { valueOf: () => (calls += 1, 5) };
  body[1].kd = Object.create(null);
  const report = validateResponse('related', body);
  assert.equal(calls, 0, 'valueOf was not called');
  assert.deepEqual(report.errors.map((i) => [i.path, i.code, i.message]), [
    ['/0/kd', 'type', 'expected an integer, found object'],
    ['/1/kd', 'type', 'expected an integer, found object'],
  ]);
});

test('parseResponse: bytes, a syntax error with its position, invalid UTF-8, a byte order mark', () => {
  const text = fixtures.related;
  const bytes = new TextEncoder().encode(text);
  assert.deepEqual(parseResponse('related', bytes), parseResponse('related', text));
  assert.deepEqual(parseResponse('related', bytes.buffer.slice(0)), parseResponse('related', text));
  const broken = parseResponse('related', '[{"keyword": }]');
  assert.equal(broken.data, undefined);
  assert.deepEqual(broken.report, validateResponse('related', '[{"keyword": }]'));
  assert.equal(broken.report.errors[0].code, 'json');
  assert.equal(broken.report.position.column, 14);
  const invalid = new Uint8Array([0x5b, 0xff, 0x5d]);
  // Bytes that are not UTF-8: the same report as validateResponse(bytes), a json error at the bad byte.
  const notUtf8 = parseResponse('related', invalid);
  assert.deepEqual([notUtf8.ok, notUtf8.data], [false, undefined]);
  assert.deepEqual(notUtf8.report, validateResponse('related', invalid));
  assert.deepEqual(notUtf8.report.position, { offset: 1, line: 1, column: 2 });
  // A JSON string is data, not text to read again: "[]" is a string where an array belongs.
  const quoted = parseResponse('related', '"[]"');
  assert.equal(quoted.data, '[]');
  assert.deepEqual(quoted.report.errors.map((i) => [i.path, i.code]), [['', 'type']]);
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
  assert.deepEqual(parseResponse('related', bom).report, validateResponse('related', bom));
});

test('the generated validators use no eval and no Function constructor', () => {
  const generated = fs.readFileSync(path.join(root, 'pkg', 'validators.js'), 'utf8');
  assert.match(generated, /^\/\/ @generated/);
  for (const file of ['validators.js', 'validate_value.js', 'static_api.js']) {
    const source = fs.readFileSync(path.join(root, 'pkg', file), 'utf8');
    assert.doesNotMatch(source, /\beval\s*\(|\bFunction\s*\(/, file);
  }
});

// The page's script: parsed values against their text, under a CSP without 'unsafe-eval'.
const PAGE_SCRIPT = `
import init, { operations, validateResponse, parseResponse } from '/pkg/serpkit.js';
const out = { ok: true, compared: 0, mismatches: [], evalBlocked: false, violations: [] };
document.addEventListener('securitypolicyviolation', (e) => out.violations.push(e.violatedDirective + ' ' + e.blockedURI));
try {
  try { new Function('return 1')(); } catch { out.evalBlocked = true; }
  await init();
  const fixtures = await (await fetch('/fixtures.json')).json();
  for (const { path } of operations()) {
    const text = fixtures[path];
    const bodies = [JSON.parse(text)];
    // Broken copies: every value of the first record replaced by a string, then removed.
    const first = Array.isArray(bodies[0]) ? bodies[0][0] : bodies[0];
    for (const key of Object.keys(first)) {
      const copy = JSON.parse(text);
      const record = Array.isArray(copy) ? copy[0] : copy;
      record[key] = 'x';
      bodies.push(copy);
      const gone = JSON.parse(text);
      delete (Array.isArray(gone) ? gone[0] : gone)[key];
      bodies.push(gone);
    }
    for (const body of bodies) {
      const a = validateResponse(path, body), b = validateResponse(path, JSON.stringify(body));
      const c = parseResponse(path, JSON.stringify(body)).report;
      out.compared++;
      if (JSON.stringify(a) !== JSON.stringify(b) || JSON.stringify(c) !== JSON.stringify(b)) out.mismatches.push({ path, a, b });
    }
  }
} catch (e) {
  out.ok = false;
  out.error = String(e && e.stack || e);
}
window.__result = out;
`;

test('headless Chromium, strict CSP: parsed values give the text reports, no eval needed', async () => {
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp });
      return res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/check.js"></script>');
    }
    if (url === '/check.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(PAGE_SCRIPT);
    }
    if (url === '/fixtures.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(fixtures));
    }
    const file = path.join(root, 'pkg', path.basename(url));
    if (!url.startsWith('/pkg/') || !fs.existsSync(file)) {
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
    await page.waitForFunction(() => window.__result, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.__result);
    assert.equal(result.ok, true, result.error);
    assert.equal(result.evalBlocked, true, 'the CSP blocks eval on this page');
    assert.deepEqual(result.mismatches, []);
    assert.ok(result.compared > 100, `compared ${result.compared}`);
    assert.deepEqual(result.violations.filter((v) => !v.startsWith('script-src eval') && !v.includes(' eval')), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
