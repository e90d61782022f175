'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');

test('error responses are not cached: a retry reaches the origin', async () => {
  const statuses = [503, 404, 200];
  const requests = [];
  const fetcher = async (request) => {
    requests.push(request);
    return { status: statuses[requests.length - 1] ?? 200, body: 'b' };
  };
  const client = new Client({ fetcher });

  assert.equal((await client.get('/flaky')).status, 503);
  assert.equal((await client.get('/flaky')).status, 404);
  assert.equal((await client.get('/flaky')).status, 200);
  assert.equal(requests.length, 3);
});
