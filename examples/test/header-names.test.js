'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');

test('request headers reach the origin unchanged; response header names come back lower-cased like fetch', async () => {
  const requests = [];
  const fetcher = async (request) => {
    requests.push(request);
    return { status: 200, body: '', headers: { 'Content-Type': 'application/json', ETag: '"v1"' } };
  };
  const client = new Client({ fetcher });

  const response = await client.get('/doc', { headers: { Accept: 'application/json', 'X-Trace': 't1' } });
  assert.deepEqual(requests[0].headers, { Accept: 'application/json', 'X-Trace': 't1' });
  assert.deepEqual(response.headers, { 'content-type': 'application/json', etag: '"v1"' });
  // The cached copy has the same shape as the fresh one.
  assert.deepEqual(await client.get('/doc'), response);
});
