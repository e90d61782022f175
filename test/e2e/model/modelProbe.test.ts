// The endpoint probe before an agent run, against real sockets on 127.0.0.1: a closed port is "cannot reach" at
// once, a server that accepts but never answers is a time-out after the probe's short limit, and any HTTP answer
// (even 401) is reachable.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { ModelError } from '../../../src/core/model/modelErrors';
import { probeModelEndpoint } from '../../../src/core/model/modelProbe';

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

test('a closed port is unreachable, named with its code', async () => {
  const probe = net.createServer();
  const port = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  await assert.rejects(probeModelEndpoint(`http://127.0.0.1:${port}/v1`), (e: unknown) => {
    assert.ok(e instanceof ModelError);
    assert.equal(e.kind, 'unreachable');
    assert.match(
      e.message,
      /^Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
    );
    return true;
  });
});

test('a server that never answers is a time-out', async () => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s));
  const port = await listen(silent);
  try {
    await assert.rejects(
      probeModelEndpoint(`http://127.0.0.1:${port}/v1`, { timeoutMs: 200 }),
      (e: unknown) =>
        e instanceof ModelError && e.kind === 'timeout' && /did not answer within 0\.2 s/.test(e.message),
    );
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

test('any HTTP answer is reachable (401 is for the real request to explain)', async () => {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no key"}');
  });
  const port = await listen(server);
  try {
    await probeModelEndpoint(`http://127.0.0.1:${port}/v1/`);
    assert.deepEqual(paths, ['/v1/models']);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
