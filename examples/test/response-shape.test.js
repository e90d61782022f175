'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { createOrigin } = require('../src/origin');

test('Client.get resolves to {status, body, headers} for 200 and 404 and never throws', async () => {
  const origin = createOrigin({
    '/ok': () => ({ status: 200, body: 'ok', headers: { 'Content-Type': 'text/plain' } }),
  });
  const client = new Client({ fetcher: origin.fetcher });

  for (const url of ['/ok', '/missing']) {
    const response = await client.get(url);
    assert.deepEqual(Object.keys(response).sort(), ['body', 'headers', 'status']);
    assert.equal(typeof response.status, 'number');
    assert.equal(typeof response.body, 'string');
    assert.equal(typeof response.headers, 'object');
  }
  assert.equal((await client.get('/missing')).status, 404);
});

test('a fetcher that throws becomes status 0 instead of a rejected promise', async () => {
  const client = new Client({
    fetcher: async () => {
      throw new Error('connection refused');
    },
  });
  const response = await client.get('/down');
  assert.equal(response.status, 0);
});
