// `weave mcp` driven by the official MCP SDK client over stdio, as Claude Code or Cursor would: the built CLI on a
// real git workspace with a passing and a failing spec.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolInputJsonSchema, WEAVE_TOOLS } from '../../../src/mcp/toolSchemas';
import { CLI } from '../../support/paths';
import { INDEX_JS, makeMathWorkspace } from '../../support/mathWorkspace';

interface Connected {
  client: Client;
  stderr: () => string;
}

async function connect(workspace: string, ...flags: string[]): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--workspace', workspace, ...flags],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'weave-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('weave mcp over stdio', () => {
  let workspace: string;
  let trusted: Connected;

  before(async () => {
    workspace = await makeMathWorkspace();
    trusted = await connect(workspace);
  });
  after(async () => {
    await trusted.client.close();
    await fs.rm(workspace, { recursive: true, force: true });
  });

  test('lists the four tools with their zod-generated input schemas', async () => {
    const { tools } = await trusted.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'weave_affected',
      'weave_blame',
      'weave_check',
      'weave_list_specs',
    ]);
    const check = tools.find((t) => t.name === 'weave_check');
    assert.deepEqual(Object.keys(check?.inputSchema.properties ?? {}).sort(), ['affected', 'only']);
    assert.equal(tools.find((t) => t.name === 'weave_blame')?.inputSchema.required?.[0], 'spec');
    // The schema MCP clients see is the one the VS Code manifest carries: both come from the same zod schema.
    for (const tool of WEAVE_TOOLS) {
      const listed = tools.find((t) => t.name === tool.name);
      const { $schema: _dialect, ...schema } = (listed?.inputSchema ?? {}) as Record<string, unknown>;
      assert.deepEqual(schema, toolInputJsonSchema(tool), tool.name);
    }
  });

  test('weave_list_specs: goal, specs, read-only test files, interactions', async () => {
    const result = await call(trusted.client, 'weave_list_specs', {});
    assert.notEqual(result.isError, true, textOf(result));
    const data = result.structuredContent as {
      goal: string;
      specs: Array<{
        id: string;
        test: { files: Array<{ path: string; readOnly: boolean }> };
        interactsWith: string[];
      }>;
    };
    assert.equal(data.goal, 'Arithmetic helpers.');
    assert.deepEqual(
      data.specs.map((s) => s.id),
      ['add-works', 'sub-works'],
    );
    assert.deepEqual(data.specs[0]?.test.files, [{ path: 'test/add.test.js', readOnly: true }]);
    assert.deepEqual(data.specs[0]?.interactsWith, ['sub-works']);
    assert.match(textOf(result), /read-only, never edit\): test\/add\.test\.js/);
  });

  test('weave_check reports the failing spec as failing, with its failure lines', async () => {
    const result = await call(trusted.client, 'weave_check', {});
    assert.notEqual(result.isError, true, textOf(result));
    const data = result.structuredContent as {
      failing: string[];
      specs: Array<{ id: string; verdict: string; evidence: string; failure?: string[] }>;
    };
    assert.deepEqual(data.failing, ['sub-works']);
    assert.equal(data.specs.find((s) => s.id === 'add-works')?.verdict, 'pass');
    const sub = data.specs.find((s) => s.id === 'sub-works');
    assert.equal(sub?.verdict, 'fail');
    assert.equal(sub?.evidence, 'runner', 'node:test reported its own results');
    assert.ok(
      sub?.failure?.some((l) => /not ok|AssertionError|Expected/i.test(l)),
      JSON.stringify(sub),
    );
    assert.match(textOf(result), /sub-works: fail/);
  });

  test('malformed calls get a tool error and the server stays up', async () => {
    const wrongType = await call(trusted.client, 'weave_check', { only: 'add-works' });
    assert.equal(wrongType.isError, true);
    assert.match(textOf(wrongType), /only/);
    const unknownField = await call(trusted.client, 'weave_check', { everything: true });
    assert.equal(unknownField.isError, true);
    const badId = await call(trusted.client, 'weave_blame', { spec: 'Not An Id' });
    assert.equal(badId.isError, true);
    const unknownSpec = await call(trusted.client, 'weave_check', { only: ['no-such-spec'] });
    assert.equal(unknownSpec.isError, true);
    assert.match(textOf(unknownSpec), /no-such-spec/);
    const alive = await call(trusted.client, 'weave_list_specs', {});
    assert.notEqual(alive.isError, true);
  });

  test('weave_affected and weave_blame on a change that breaks add-works', async () => {
    // The clean run recorded by the check above is the baseline: add-works passed there.
    await fs.writeFile(
      path.join(workspace, 'index.js'),
      INDEX_JS.replace('return a + b;', 'return a + b + 1;'),
    );
    const affected = await call(trusted.client, 'weave_affected', {});
    assert.notEqual(affected.isError, true, textOf(affected));
    const ids = (affected.structuredContent as { affected: Array<{ id: string }> }).affected.map((a) => a.id);
    assert.ok(ids.includes('add-works'), JSON.stringify(affected.structuredContent));

    const check = await call(trusted.client, 'weave_check', { affected: true });
    assert.deepEqual((check.structuredContent as { broken: string[] }).broken, ['add-works']);

    const blame = await call(trusted.client, 'weave_blame', { spec: 'add-works' });
    assert.notEqual(blame.isError, true, textOf(blame));
    const hunks = (blame.structuredContent as { hunks: Array<{ file: string; symbols: string[] }> }).hunks;
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0]?.file, 'index.js');
    assert.deepEqual(hunks[0]?.symbols, ['add']);
  });

  test('the spec file is a resource', async () => {
    const { resources } = await trusted.client.listResources();
    const specs = resources.find((r) => r.name === 'specs');
    assert.ok(specs, JSON.stringify(resources));
    const read = await trusted.client.readResource({ uri: specs.uri });
    const first = read.contents[0];
    assert.ok(first && 'text' in first && first.text.includes('"add-works"'));
  });

  test('stdout carries only protocol: logs go to stderr', () => {
    // Every reply above parsed as JSON-RPC; the log lines are on stderr.
    assert.match(trusted.stderr(), /weave mcp: serving /);
  });

  test('--no-run: checks, blame and affected (git) are refused, reading the specs still works', async () => {
    const untrusted = await connect(workspace, '--no-run');
    try {
      const check = await call(untrusted.client, 'weave_check', {});
      assert.equal(check.isError, true);
      assert.match(textOf(check), /refuses to run spec tests/);
      const blame = await call(untrusted.client, 'weave_blame', { spec: 'add-works' });
      assert.equal(blame.isError, true);
      const affected = await call(untrusted.client, 'weave_affected', {});
      assert.equal(affected.isError, true, 'git is not run either');
      const list = await call(untrusted.client, 'weave_list_specs', {});
      assert.notEqual(list.isError, true);
      assert.match(
        (list.structuredContent as { interactionsUnavailable?: string }).interactionsUnavailable ?? '',
        /not trusted/,
      );
    } finally {
      await untrusted.client.close();
    }
  });
});
