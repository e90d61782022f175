'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { createOrigin } = require('../src/origin');

const MAX_ENTRIES = 32;
const MAX_BYTES = 64 * 1024;

test('the default cache never holds more than 32 entries or 64 KiB', async () => {
  const routes = {};
  for (let i = 0; i < 200; i++)
    routes[`/page/${i}`] = () => ({ status: 200, body: 'x'.repeat(100 + (i % 7) * 700) });
  const origin = createOrigin(routes);
  const client = new Client({ fetcher: origin.fetcher });

  for (let i = 0; i < 200; i++) {
    await client.get(`/page/${i}`);
    assert.ok(client.cache.size <= MAX_ENTRIES, `${client.cache.size} entries after request ${i}`);
    assert.ok(client.cache.bytes <= MAX_BYTES, `${client.cache.bytes} bytes after request ${i}`);
  }
});
