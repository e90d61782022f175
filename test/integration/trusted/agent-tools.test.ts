// Weave's tools for other agents, inside the real extension host: the Language Model Tools Copilot agent mode
// calls (vscode.lm.tools / vscode.lm.invokeTool) and the MCP server definition VS Code starts for MCP clients.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callTool, connectTo, toolText } from '../mcpClient';
import { EXTENSION_ID, fixtureFilesForSuite, weaveApi } from '../helpers';

const TOOLS = ['weave_affected', 'weave_blame', 'weave_check', 'weave_list_specs'];

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return toolText(result);
}

suite('tools for other agents (trusted)', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  test('vscode.lm.tools lists Weave tools with the manifest input schemas', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown }> };
    };
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('weave_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), TOOLS);
    for (const tool of ours) {
      const declared = manifest.contributes.languageModelTools.find((t) => t.name === tool.name);
      assert.deepEqual(tool.inputSchema, declared?.inputSchema, tool.name);
    }
  });

  test('invokeTool weave_check returns the verdicts, and the editor shows the same run', async () => {
    const api = await weaveApi();
    const text = await invoke('weave_check', {});
    assert.match(text, /clamp-bounds: fail/);
    assert.match(text, /clamp\(15, 0, 10\) must be 10/, 'the failure lines are the assertion message');
    assert.match(text, /counter-increments: pass/);
    const structured = JSON.parse(text.slice(text.indexOf('\n{') + 1)) as {
      runId: string;
      failing: string[];
    };
    assert.deepEqual(structured.failing, ['clamp-bounds']);
    assert.equal(api.lastRun()?.run.id, structured.runId, 'the tool ran through the editor’s check service');
  });

  test('invokeTool with input that breaks the schema is refused with the reason', async () => {
    await assert.rejects(invoke('weave_check', { only: 'add-works' }), /Invalid input for weave_check: only/);
    assert.match(await invoke('weave_list_specs', {}), /counter-increments \[interface\]/);
  });

  test('the MCP server definition starts a working weave mcp with --trust', async () => {
    const api = await weaveApi();
    const [definition] = api.mcpServerDefinitions();
    assert.ok(definition);
    assert.deepEqual(definition.args.slice(1), ['mcp', '--workspace', api.folder.uri.fsPath, '--trust']);
    const client = await connectTo(definition);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
      const check = await callTool(client, 'weave_check', { only: ['clamp-bounds'] });
      assert.notEqual(check.isError, true, toolText(check));
      assert.deepEqual((check.structuredContent as { failing: string[] }).failing, ['clamp-bounds']);
    } finally {
      await client.close();
    }
  });
});
