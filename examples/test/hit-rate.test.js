'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('../src/client');
const { LruCache } = require('../src/cache');
const { createOrigin } = require('../src/origin');
const { createClock } = require('./clock');

const REQUESTS = 2_000;
const URLS = 80;
const STEP_MS = 250;
const MIN_HIT_RATE = 0.55;

/** mulberry32: a tiny seeded generator, so the trace is the same on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Zipf-like trace: a few URLs are popular, most are rare; one in ten requests is a signed-in '/me'. */
function trace() {
  const next = random(42);
  const weights = Array.from({ length: URLS }, (_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const requests = [];
  for (let i = 0; i < REQUESTS; i++) {
    if (next() < 0.1) {
      requests.push({ url: '/me', headers: { Authorization: `Bearer user-${Math.floor(next() * 5)}` } });
      continue;
    }
    let pick = next() * total;
    let rank = 0;
    while (rank < URLS - 1 && pick > weights[rank]) pick -= weights[rank++];
    requests.push({ url: `/articles/${rank}`, headers: {} });
  }
  return requests;
}

test(`a replayed trace of ${REQUESTS} requests reaches a hit rate of at least ${Math.round(MIN_HIT_RATE * 100)}%`, async () => {
  const clock = createClock();
  const routes = { '/me': () => ({ status: 200, body: '{"user":"someone"}' }) };
  for (let i = 0; i < URLS; i++) routes[`/articles/${i}`] = () => ({ status: 200, body: 'a'.repeat(512) });
  const origin = createOrigin(routes);
  const client = new Client({ fetcher: origin.fetcher, cache: new LruCache({ now: clock.now }) });

  for (const request of trace()) {
    await client.get(request.url, { headers: request.headers });
    clock.advance(STEP_MS);
  }
  const hitRate = 1 - origin.requests.length / REQUESTS;
  console.log(
    `hit rate ${(hitRate * 100).toFixed(1)}% (${origin.requests.length} of ${REQUESTS} reached the origin)`,
  );
  assert.ok(
    hitRate >= MIN_HIT_RATE,
    `hit rate ${(hitRate * 100).toFixed(1)}% is below ${Math.round(MIN_HIT_RATE * 100)}%`,
  );
});
