// Edge input gets a report, never a throw (issue 56): nesting far deeper than the stack in
// text, bytes and parsed values (a `json` error: at its byte offset in text, at its path in a
// parsed value), and bytes that are not UTF-8 (a `json` error at the first bad byte's offset),
// through every entry that reads a body: `validateResponse`, `parseResponse`,
// `responseSchema(...)['~standard'].validate` and `serpkit/schema`'s `validateResponse`.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as schema from '../../pkg/schema.js';
import { serpkit } from './support.mjs';

const { validateResponse, parseResponse, responseSchema } = serpkit;
const DEEP = 200_000;
const deepText = '['.repeat(DEEP) + ']'.repeat(DEEP);
const deepBytes = new TextEncoder().encode(deepText);
/** `[[[…]]]`, `DEEP` levels, built without recursion. */
function deepValue() {
  let value = [];
  for (let i = 1; i < DEEP; i++) value = [value];
  return value;
}
/** The path where the 128th level starts: the wasm engine's limit is 127 levels. */
const DEEP_PATH = '/0'.repeat(127);

/** `report` is one `json` error, and what `check` says of it. */
function oneJsonError(report, what, check) {
  assert.equal(report.ok, false, what);
  assert.equal(report.error_count, 1, what);
  assert.equal(report.errors[0].code, 'json', what);
  check(report.errors[0], report);
}

test('200,000-deep nesting as text and bytes: a json error at the byte offset, from every entry', () => {
  for (const [what, body] of [['text', deepText], ['bytes', deepBytes], ['ArrayBuffer', deepBytes.buffer]]) {
    oneJsonError(validateResponse('related', body), `validateResponse ${what}`, (issue) => {
      assert.match(issue.message, /at byte 127 .*nesting deeper than 127 levels/);
    });
    const parsed = parseResponse('related', body);
    assert.equal(parsed.ok, false, `parseResponse ${what}`);
    assert.equal(parsed.report.errors[0].code, 'json', `parseResponse ${what}`);
  }
});

test('a 200,000-deep parsed value: a json error at the path where it passes 127 levels', () => {
  const value = deepValue();
  const at = (issue) => assert.equal(issue.path, DEEP_PATH);
  oneJsonError(validateResponse('related', value), 'validateResponse', at);
  oneJsonError(schema.validateResponse('related', value), 'serpkit/schema', at);
  for (const entry of [serpkit, schema]) {
    const result = entry.responseSchema('related')['~standard'].validate(value);
    assert.equal(result.issues.length, 1);
    assert.equal(result.issues[0].path.length, 127);
  }
  // Inside an object, an unknown field's value: its key is in the path.
  const record = { keyword: 'a', nested: value };
  oneJsonError(validateResponse('related', [record]), 'in a record', (issue) => {
    assert.equal(issue.path, `/0/nested${'/0'.repeat(125)}`);
  });
  assert.equal(responseSchema('related')['~standard'].validate([record]).issues[0].path[1], 'nested');
});

test('bytes that are not UTF-8: a json error at the first bad byte, in validateResponse and parseResponse', () => {
  const good = new TextEncoder().encode('[{"keyword": "trail shoes"}]');
  for (const [at, byte] of [[14, 0xff], [14, 0xc3], [0, 0x80], [27, 0xfe]]) {
    const bytes = new Uint8Array([...good.slice(0, at), byte, ...good.slice(at)]);
    for (const body of [bytes, bytes.buffer, bytes.subarray(0)]) {
      oneJsonError(validateResponse('related', body), `byte ${at}`, (issue, report) => {
        assert.equal(issue.message, `not valid JSON at byte ${at} (line 1, column ${at + 1}): not UTF-8`, `byte 0x${byte.toString(16)}`);
        assert.equal(issue.path, '');
        assert.deepEqual(report.position, { offset: at, line: 1, column: at + 1 });
      });
      const parsed = parseResponse('related', body);
      assert.deepEqual([parsed.ok, parsed.data, parsed.report.errors[0].code], [false, undefined, 'json']);
      assert.match(parsed.report.errors[0].message, new RegExp(`at byte ${at} `));
    }
  }
  // On a later line: the line and the column (in characters) of the valid part.
  const lines = new Uint8Array([...new TextEncoder().encode('[\n  "é'), 0xff, 0x22, 0x5d]);
  assert.deepEqual(validateResponse('related', lines).position, { offset: 7, line: 2, column: 5 });
  // A syntax error before the bad byte is the one reported.
  const broken = new Uint8Array([0x5b, 0x31, 0x2c, 0x2c, 0xff, 0x5d]);
  assert.match(validateResponse('related', broken).errors[0].message, /at byte 3 /);
});
