// `responseSchema(op)`: the Standard Schema v1 of every operation's response (with the Standard
// JSON Schema extension), proven with a real consumer from npm, Hono's `@hono/standard-validator`
// (tests/package.json), validating request bodies with it at run time. The types are checked
// against `@standard-schema/spec` by tsc (tests/ts/usage.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { sValidator } from '@hono/standard-validator';
import { serpkit } from './support.mjs';

const { responseSchema, validateResponse, operations, jsonSchema } = serpkit;
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (op) => JSON.parse(fs.readFileSync(path.join(root, 'tests', 'fixtures', `${op.replace(/[/-]/g, '_')}.json`), 'utf8'));

test('every operation: a Standard Schema v1 whose validate gives the value, or the errors as issues', () => {
  for (const { path: op } of operations()) {
    const schema = responseSchema(op);
    const standard = schema['~standard'];
    assert.equal(standard.version, 1);
    assert.equal(standard.vendor, 'serpkit');
    const body = fixture(op);
    const ok = standard.validate(body);
    assert.equal(ok.issues, undefined, op);
    assert.equal(ok.value, body);
    assert.deepEqual(ok.serpkit.report, validateResponse(op, body));
    assert.deepEqual(standard.validate('not a body').issues.map((i) => i.path), [[]], op);
  }
});

test('issues: the errors with path segments (array indices as numbers); warnings stay on serpkit.report', () => {
  const body = fixture('related');
  body[1].kd = '7';
  body[0]['a/b'] = 1;
  body[0].competition = 5;
  const result = responseSchema('related')['~standard'].validate(body);
  assert.deepEqual(result.issues, [{ message: 'expected an integer, found string "7"', path: [1, 'kd'], code: 'type' }]);
  assert.deepEqual(result.serpkit.report.warnings.map((i) => [i.path, i.code]), [['/0/competition', 'range'], ['/0/a~1b', 'unknown_field']]);
  // Warnings alone: success.
  delete body[1].kd;
  body[1].kd = 3;
  const warned = responseSchema('related')['~standard'].validate(body);
  assert.equal(warned.issues, undefined);
  assert.equal(warned.serpkit.report.warning_count, 2);
});

test('request rules through options.request', () => {
  const body = fixture('search_volume/bulk');
  const schema = responseSchema('search_volume/bulk', { request: { keywords: ['other'], ccode: 'US' } });
  const result = schema['~standard'].validate(body);
  assert.ok(result.issues.some((i) => i.code === 'record_count' && i.path.length === 0));
  assert.ok(result.issues.some((i) => i.code === 'request_keyword' && i.path[0] === 0 && i.path[1] === 'keyword'));
});

test('Standard JSON Schema: draft-2020-12 and draft-07, input and output; other targets throw', () => {
  for (const { path: op } of operations()) {
    const converter = responseSchema(op)['~standard'].jsonSchema;
    const latest = converter.output({ target: 'draft-2020-12' });
    assert.deepEqual(latest, jsonSchema(op));
    assert.deepEqual(converter.input({ target: 'draft-2020-12' }), latest);
    const draft7 = converter.input({ target: 'draft-07' });
    assert.equal(draft7.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual({ ...draft7, $schema: latest.$schema }, latest);
    assert.throws(() => converter.input({ target: 'openapi-3.0' }), /not supported/);
  }
});

test('a real consumer: Hono with @hono/standard-validator accepts a valid body and refuses a broken one', async () => {
  const app = new Hono();
  app.post('/related', sValidator('json', responseSchema('related')), (c) => {
    const data = c.req.valid('json');
    return c.json({ records: data.length });
  });
  const post = (body) => app.request('/related', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const good = await post(fixture('related'));
  assert.equal(good.status, 200);
  assert.deepEqual(await good.json(), { records: fixture('related').length });
  const broken = fixture('related');
  delete broken[0].keyword;
  const refused = await post(broken);
  assert.equal(refused.status, 400);
  const answer = await refused.json();
  assert.equal(answer.success, false);
  assert.deepEqual(answer.error.map((i) => [i.path, i.message]), [[[0, 'keyword'], 'required field "keyword" is missing']]);
});

test('an unknown operation throws the package error, as every export does', () => {
  assert.throws(() => responseSchema('nope'), { code: 'unknown_operation' });
});
