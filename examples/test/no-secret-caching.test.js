'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { createOrigin } = require('../src/origin');

test('a response to a request with an Authorization header is never cached', async () => {
  const origin = createOrigin({
    '/me': (request) => {
      const auth = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'authorization');
      return auth
        ? { status: 200, body: `{"user":"alice","token":"${auth[1]}"}` }
        : { status: 200, body: '{"user":"anonymous"}' };
    },
  });
  const client = new Client({ fetcher: origin.fetcher });

  await client.get('/me', { headers: { Authorization: 'Bearer s3cret' } });
  await client.get('/me', { headers: { authorization: 'Bearer s3cret' } });
  assert.equal(client.cache.size, 0, 'the authorized response was stored in the cache');

  const anonymous = await client.get('/me');
  assert.equal(anonymous.body, '{"user":"anonymous"}');
  assert.equal(origin.requests.length, 3);
});
