// `weave mcp` as clients really drive it: requests piped in with stdin closed right after (`printf '…' | weave
// mcp`), garbage and over-long lines, `tools/call` with missing or malformed params (raw JSON-RPC), and through
// the official TypeScript SDK client the `summary` a model reads first in structuredContent (Claude Code and
// Codex hand the model only structuredContent) matching the start of the text part.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CLI } from '../../support/paths';
import { makeMathWorkspace } from '../../support/mathWorkspace';

interface Answer {
  jsonrpc: string;
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** Writes `input` to `weave mcp` and closes stdin at once; resolves with every stdout line and the exit code. */
function pipeInto(
  workspace: string,
  input: string | Buffer,
): Promise<{ answers: Answer[]; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const server = spawn(process.execPath, [CLI, 'mcp', '--workspace', workspace], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    server.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    server.on('error', reject);
    server.on('close', (code) => {
      const lines = stdout.split('\n').filter((l) => l !== '');
      resolve({ answers: lines.map((l) => JSON.parse(l) as Answer), code, stderr });
    });
    server.stdin.end(input);
  });
}

const lines = (...messages: object[]): string => messages.map((m) => `${JSON.stringify(m)}\n`).join('');

describe('weave mcp with stdin closed after the requests', () => {
  let workspace: string;
  before(async () => {
    workspace = await makeMathWorkspace();
  });
  after(async () => {
    await fs.rm(workspace, { recursive: true, force: true });
  });

  test('every request read before EOF is answered, then the server exits 0', async () => {
    const { answers, code, stderr } = await pipeInto(
      workspace,
      lines(
        INITIALIZE,
        INITIALIZED,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'weave_list_specs', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'weave_check', arguments: {} } },
      ),
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2, 3, 4], JSON.stringify(answers).slice(0, 2000));
    const check = answers.find((a) => a.id === 4)?.result as { structuredContent: { failing: string[] } };
    assert.deepEqual(check.structuredContent.failing, ['sub-works']);
  });

  test('garbage gets -32700, a tools/call without params or with bad params gets -32602 in one line', async () => {
    const { answers, code, stderr } = await pipeInto(
      workspace,
      lines(INITIALIZE, INITIALIZED) +
        'this is not json\n' +
        lines(
          { jsonrpc: '2.0', id: 2, method: 'tools/call' },
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 7 } },
          { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'weave_list_specs' } },
        ),
    );
    assert.equal(code, 0, stderr);
    const parseError = answers.find((a) => a.error?.code === -32700);
    assert.ok(parseError, JSON.stringify(answers));
    assert.equal(parseError.id, null);
    for (const id of [2, 3]) {
      const answer = answers.find((a) => a.id === id);
      assert.equal(answer?.error?.code, -32602, JSON.stringify(answer));
      assert.match(
        answer.error.message,
        /^Invalid params for tools\/call \(params[.\w]*: .+\); send params \{"name"/,
      );
      assert.doesNotMatch(answer.error.message, /\n/, 'one line, not a zod dump');
    }
    assert.ok(answers.find((a) => a.id === 4)?.result, 'a good call after the bad ones is served');
  });

  test('a 20 MB line is refused with a JSON-RPC error and the next request is still served', async () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, 'a');
    const input = Buffer.concat([
      Buffer.from(lines(INITIALIZE, INITIALIZED)),
      Buffer.from('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"weave_list_specs","x":"'),
      huge,
      Buffer.from('"}}\n'),
      Buffer.from(lines({ jsonrpc: '2.0', id: 2, method: 'tools/list' })),
    ]);
    const { answers, code, stderr } = await pipeInto(workspace, input);
    assert.equal(code, 0, stderr);
    const refused = answers.find((a) => a.error?.code === -32600);
    assert.ok(refused, JSON.stringify(answers).slice(0, 2000));
    assert.match(refused.error!.message, /message longer than 1048576 bytes/);
    assert.ok(answers.find((a) => a.id === 2)?.result, 'tools/list after the long line is answered');
    assert.equal(
      answers.find((a) => a.id === 9),
      undefined,
    );
  });
});

describe('weave mcp through the official SDK client', () => {
  let workspace: string;
  let client: Client;
  before(async () => {
    workspace = await makeMathWorkspace();
    client = new Client({ name: 'weave-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--workspace', workspace],
        stderr: 'ignore',
      }),
    );
  });
  after(async () => {
    await client.close();
    await fs.rm(workspace, { recursive: true, force: true });
  });

  const textOf = (r: CallToolResult): string =>
    r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  test('structuredContent leads with a summary a model can act on, and the text part says the same', async () => {
    const check = (await client.callTool({ name: 'weave_check', arguments: {} })) as CallToolResult;
    const summary = (check.structuredContent as { summary: unknown }).summary;
    assert.equal(typeof summary, 'string');
    assert.equal(Object.keys(check.structuredContent!)[0], 'summary');
    assert.match(
      String(summary),
      /^2 specs: 1 pass, 1 fail in [\d.]+ ?m?s; .*failing: sub-works\. sub-works: .+\. Next: make sub-works pass/,
    );
    assert.ok(textOf(check).startsWith(String(summary)), textOf(check));

    for (const name of ['weave_list_specs', 'weave_affected']) {
      const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
      assert.notEqual(result.isError, true, textOf(result));
      const s = (result.structuredContent as { summary?: unknown }).summary;
      assert.equal(typeof s, 'string', name);
      assert.match(String(s), /Next: /, name);
      assert.ok(textOf(result).startsWith(String(s)), `${name}: ${textOf(result)}`);
    }
  });

  test('tools/call without params is -32602 with one line, and the connection keeps serving', async () => {
    await assert.rejects(
      client.request({ method: 'tools/call' } as never, z.object({}).passthrough()),
      (error: unknown) => {
        assert.ok(error instanceof McpError, String(error));
        assert.equal(error.code, -32602);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      },
    );
    const { tools } = await client.listTools();
    assert.equal(tools.length, 4);
  });
});
