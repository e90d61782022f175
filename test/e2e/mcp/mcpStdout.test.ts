// `weave mcp` byte by byte, without the SDK client: every line on stdout is a JSON-RPC message (logs go to
// stderr), and a line that is not JSON does not take the server down.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { CLI } from '../../support/paths';
import { makeMathWorkspace } from '../../support/mathWorkspace';

test('stdout carries only JSON-RPC, and garbage on stdin is survived', async () => {
  const workspace = await makeMathWorkspace();
  const server = spawn(process.execPath, [CLI, 'mcp', '--workspace', workspace], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines: string[] = [];
  const answered = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  createInterface({ input: server.stdout }).on('line', (line) => {
    lines.push(line);
    const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
    if (typeof message.id === 'number') answered.get(message.id)?.(message);
  });
  const request = (
    id: number,
    method: string,
    params: object,
  ): Promise<{ result?: unknown; error?: unknown }> =>
    new Promise((resolve) => {
      answered.set(id, resolve);
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    await request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    server.stdin.write('this is not json\n');
    const check = await request(2, 'tools/call', { name: 'weave_check', arguments: {} });
    const result = check.result as { structuredContent: { failing: string[] } };
    assert.deepEqual(result.structuredContent.failing, ['sub-works']);
    for (const line of lines) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0', line);
    assert.match(stderr, /weave_check: ok in \d+ ms/);
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    server.stdin.end();
    assert.equal(await exited, 0, 'closing stdin ends the server cleanly');
  } finally {
    server.kill();
    await fs.rm(workspace, { recursive: true, force: true });
  }
});
