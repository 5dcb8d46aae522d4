// The `headers` option takes what `fetch` takes (`HeadersInit`): a `Headers` object, an array
// of `[name, value]` pairs or a plain object; each is sent. Before, a `Headers` object was
// read as an object with no own keys: no header sent, no error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serpkit } from './support.mjs';

const { Client } = serpkit;

const BODY = '[{"keyword":"a","competition":0.4,"cpc":1.2,"search_volume":90,"kd":7}]';

/** The headers of the one request a client made with `headers` sends (through a `fetch` double). */
async function sent(headers) {
  let seen;
  const fetch = async (url, init) => {
    seen = new Headers(init.headers);
    return new Response(BODY, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const reply = await new Client({ key: 'k', baseUrl: 'http://127.0.0.1:9', retries: 0, fetch, headers }).related({ keyword: 'a', ccode: 'US' });
  assert.equal(reply.ok, true);
  return seen;
}

test('headers: a Headers object, [name, value] pairs and a plain object are all sent', async () => {
  for (const headers of [new Headers({ 'X-Trace': 'abc' }), [['X-Trace', 'abc']], { 'X-Trace': 'abc' }]) {
    const seen = await sent(headers);
    assert.equal(seen.get('x-trace'), 'abc', Object.prototype.toString.call(headers));
    // The client's own headers stay.
    assert.equal(seen.get('content-type'), 'application/json');
  }
});

test('headers: anything else is refused, never dropped', () => {
  for (const headers of [[['a']], [['a', 1]], 'x-a: b', new Map([['a', 'b']])]) {
    assert.throws(() => new Client({ key: 'k', headers }), (e) => e.code === 'invalid_argument' && /headers must be/.test(e.message));
  }
});
