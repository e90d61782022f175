// The extension inside a real extension host, on a trusted copy of test/fixtures/vscode-ws.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID, weaveApi, workspaceUri } from '../helpers';

suite('activation and commands', () => {
  test('the workspace is trusted in this session', () => {
    assert.equal(vscode.workspace.isTrusted, true);
  });

  test('the extension activates and returns its API', async () => {
    const api = await weaveApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.ok(api.activationMs >= 0 && api.activationMs < 2000, `activation took ${api.activationMs} ms`);
  });

  test('every command the manifest contributes is registered', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { commands: Array<{ command: string }> };
    };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    for (const id of ['weave.check', 'weave.export', 'weave.agent.runAll', 'weave.agent.matrix']) {
      assert.ok(contributed.includes(id), `${id} is missing from package.json`);
    }
    const missing = contributed.filter((id) => !all.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('activation did not run a check or index the workspace', async () => {
    const api = await weaveApi();
    assert.equal(api.lastRun(), undefined);
    assert.equal(api.checks.isRunning, false);
    // The index writes its cache on its first build: none yet.
    assert.equal(fs.existsSync(workspaceUri('.weave', 'cache').fsPath), false, 'the workspace was indexed');
    assert.equal(fs.existsSync(workspaceUri('.weave', 'runs').fsPath), false, 'a run was recorded');
  });
});
