'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { LruCache } = require('../src/cache');
const { createClock } = require('./clock');

test('once the TTL has passed since a response was stored, the client fetches it again', async () => {
  const clock = createClock();
  let version = 1;
  const requests = [];
  const fetcher = async (request) => {
    requests.push(request);
    return { status: 200, body: `v${version}` };
  };
  const client = new Client({ fetcher, cache: new LruCache({ ttlMs: 10_000, now: clock.now }) });

  assert.equal((await client.get('/config')).body, 'v1');
  clock.advance(5_000);
  assert.equal((await client.get('/config')).body, 'v1', 'within the TTL the cached copy is fine');
  version = 2;
  clock.advance(5_000);
  assert.equal((await client.get('/config')).body, 'v2', 'served a copy stored 10 s ago with a 10 s TTL');
  assert.equal(requests.length, 2);
});
