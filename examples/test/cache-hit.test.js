'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { LruCache } = require('../src/cache');
const { createOrigin } = require('../src/origin');
const { createClock } = require('./clock');

test('a repeated GET within the TTL makes one request to the origin', async () => {
  const clock = createClock();
  const origin = createOrigin({ '/items/1': () => ({ status: 200, body: '{"id":1}' }) });
  const client = new Client({
    fetcher: origin.fetcher,
    cache: new LruCache({ ttlMs: 10_000, now: clock.now }),
  });

  const first = await client.get('/items/1');
  clock.advance(9_999);
  const second = await client.get('/items/1');

  assert.equal(origin.requests.length, 1);
  assert.deepEqual(second, first);
});
