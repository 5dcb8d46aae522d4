// The types tell the truth: every value the package's `.d.ts` files declare exists at run time
// as declared (each exported function and class of both entries, each member of `Client`,
// `Account`, the record caches and `SerpkitError`), and is called; the records the
// calls resolve to are plain data, so no record type declares a method, and no doc comment
// promises a call on one (`record.alpha_da()`). The declarations are read with the TypeScript
// compiler's parser (the workspace's `typescript`), not by pattern.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as schema from '../../pkg/schema.js';
import { serpkit, sandbox } from './support.mjs';

const ts = createRequire(new URL('../../package.json', import.meta.url))('typescript');
const pkg = new URL('../../pkg/', import.meta.url);

/** The parsed `.d.ts` file `name` of the package. */
function source(name) {
  return ts.createSourceFile(name, fs.readFileSync(new URL(name, pkg), 'utf8'), ts.ScriptTarget.Latest, true);
}

const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/** `{ functions, classes: { name: members }, members of interfaces named in `withMembers` }` a file declares. */
function declared(file, withMembers = []) {
  const functions = new Set();
  const classes = new Map();
  for (const node of file.statements) {
    if (!exported(node)) continue;
    if (ts.isFunctionDeclaration(node)) functions.add(isDefault(node) ? 'default' : node.name.text);
    if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) functions.add(d.name.text);
    const members = (ts.isClassDeclaration(node) || (ts.isInterfaceDeclaration(node) && withMembers.includes(node.name.text))) ? node.members : undefined;
    if (!members) continue;
    const list = classes.get(node.name.text) ?? [];
    for (const m of members) {
      if (ts.isConstructorDeclaration(m) || !m.name) continue;
      if (m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const name = ts.isComputedPropertyName(m.name) ? m.name.expression.getText(file) : m.name.text;
      list.push({ name, method: ts.isMethodDeclaration(m) || ts.isMethodSignature(m) });
    }
    classes.set(node.name.text, list);
  }
  return { functions, classes };
}

test('every function and class the main entry declares exists and is called', async () => {
  const { functions, classes } = declared(source('serpkit.d.ts'), ['Client']);
  const generated = declared(source('serpkit_types.d.ts'), ['OperationMethods']);
  for (const name of [...functions, ...classes.keys()]) {
    assert.equal(typeof serpkit[name === 'default' ? 'default' : name], 'function', `serpkit's ${name}`);
  }
  assert.ok(functions.has('default') && functions.has('initSync') && functions.has('isSerpkitError'));
  // The functions, called (each returns or throws its documented kind).
  const REQ = { keyword: 'trail shoes', ccode: 'US' };
  const calls = {
    default: () => serpkit.default(),
    initSync: () => serpkit.initSync({ module: fs.readFileSync(new URL('serpkit_bg.wasm', pkg)) }),
    operations: () => serpkit.operations().length === 11,
    jsonSchema: () => serpkit.jsonSchema('related').type === 'array',
    estimateCost: () => serpkit.estimateCost('related', REQ).micros === 150_000,
    validateResponse: () => serpkit.validateResponse('related', '[]').ok,
    stringify: () => serpkit.stringify({ a: 1n }) === '{"a":1}',
    responseSchema: () => typeof serpkit.responseSchema('related')['~standard'].validate === 'function',
    parseResponse: () => serpkit.parseResponse('related', '[]').ok,
    isSerpkitError: () => serpkit.isSerpkitError(new serpkit.SerpkitError('http', 'x')),
    SerpkitError: () => serpkit.SerpkitError.from(new serpkit.SerpkitError('http', 'x')).code === 'http',
  };
  for (const name of functions) {
    assert.ok(name in calls, `a call of ${name}`);
    assert.ok(await calls[name](), name);
  }
  // Each member of the classes and of `Client`'s declared interface, on an instance.
  await sandbox.reset();
  const client = new serpkit.Client({ key: sandbox.key, baseUrl: sandbox.url });
  const instances = {
    Client: client,
    Account: new serpkit.Account(),
    MemoryRecordCache: new serpkit.MemoryRecordCache(),
    IndexedDbRecordCache: serpkit.IndexedDbRecordCache.prototype,
  };
  const methods = [...generated.classes.get('OperationMethods').map((m) => ({ ...m, method: true }))];
  for (const [name, members] of classes) {
    const instance = instances[name];
    assert.ok(instance, `an instance of ${name}`);
    for (const member of name === 'Client' ? [...members, ...methods] : members) {
      const key = member.name === 'Symbol.dispose' ? Symbol.dispose : member.name;
      assert.ok(key in instance, `${name}.${member.name}`);
      if (member.method) assert.equal(typeof instance[key], 'function', `${name}.${member.name}()`);
    }
  }
  // The operation methods, called.
  for (const { name } of methods) {
    if (name === 'searchVolumeBulkChunked') continue;
    const reply = await client[name]({}).catch((e) => e);
    assert.equal(reply.code, 'invalid_request', `client.${name}({}) is checked as its operation's request`);
  }
  const job = await client.searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  assert.deepEqual([job.ok, typeof job.report, job.missing], [true, 'object', []]);
  assert.ok((await client.quote('related', REQ)).micros === 150_000);
  client[Symbol.dispose]();
});

test('every function serpkit/schema declares exists and is called', () => {
  const { functions } = declared(source('schema.d.ts'));
  assert.deepEqual([...functions].sort(), ['jsonSchema', 'operations', 'responseSchema', 'validateResponse']);
  assert.equal(schema.operations().length, 11);
  assert.equal(schema.jsonSchema('related').type, 'array');
  assert.equal(schema.validateResponse('related', []).ok, true);
  assert.equal(typeof schema.responseSchema('related')['~standard'].validate, 'function');
  assert.equal(typeof schema.SerpkitError, 'function');
  assert.equal(schema.isSerpkitError(new schema.SerpkitError('http', 'x')), true);
});

test('records are plain data: no record type declares a method, no doc promises a call on one', () => {
  const file = source('serpkit_types.d.ts');
  for (const node of file.statements) {
    if (!ts.isInterfaceDeclaration(node) || node.name.text === 'OperationMethods') continue;
    for (const member of node.members) {
      assert.ok(!ts.isMethodSignature(member), `${node.name.text}.${member.name?.getText(file)}() is declared, but records are JSON data`);
    }
  }
  for (const name of ['serpkit_types.d.ts', 'serpkit.d.ts', 'schema.d.ts']) {
    const text = fs.readFileSync(new URL(name, pkg), 'utf8');
    const calls = [...text.matchAll(/\b(?:record|row|item)\.[a-z_]+\(\)/gi)].map((m) => m[0]);
    assert.deepEqual(calls, [], `${name}: a doc promises a call on a record`);
  }
});
