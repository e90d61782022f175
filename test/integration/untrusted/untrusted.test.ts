// The fixture opened with workspace trust ON and the folder not trusted: specs are shown and validated, but
// nothing executes. Every spec's test command appends to ran-marker.txt, so "nothing ran" is checked on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import { until, weaveApi, workspaceUri } from '../helpers';
import { callTool, connectTo, toolText } from '../mcpClient';

const marker = workspaceUri('ran-marker.txt');
const specs = workspaceUri('.weave', 'specs.json');

suite('untrusted folder', () => {
  test('the folder is not trusted, and Weave still activates (limited support)', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await weaveApi();
    assert.ok(api.folder);
  });

  test('"check constraints" runs nothing and says why', async () => {
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.equal(result.ran, false);
    assert.ok(!result.ran && result.reason === 'untrusted');
    assert.match(result.message, /not trusted/);
    const affected = await vscode.commands.executeCommand<CheckAttempt>('weave.checkAffected');
    assert.equal(affected.ran, false);
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
    assert.equal(fs.existsSync(workspaceUri('.weave', 'runs').fsPath), false, 'a run was recorded');
  });

  test('"audit specs" and "draft specs" run nothing in an untrusted folder', async () => {
    assert.equal(await vscode.commands.executeCommand('weave.audit'), undefined);
    assert.equal(await vscode.commands.executeCommand('weave.draft'), undefined);
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
    assert.equal(fs.existsSync(workspaceUri('.weave', 'cache', 'audit.json').fsPath), false);
  });

  test('"run N agents" runs no candidate in an untrusted folder', async () => {
    assert.equal(await vscode.commands.executeCommand('weave.agent.runCandidates', { count: 2 }), undefined);
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
    assert.equal(fs.existsSync(workspaceUri('.weave', 'runs').fsPath), false, 'a run was recorded');
    assert.equal((await weaveApi()).candidateResults.current(), undefined, 'a comparison was shown');
  });

  test('a Test Explorer run skips every spec and runs nothing', async () => {
    const api = await weaveApi();
    await api.testController.resolveHandler?.(undefined);
    const before = api.testResults().finishedRuns;
    // The workbench's own "run tests" asks for trust first (a dialog, refused in tests), so the profile is
    // called directly here: it must refuse on its own too.
    const cancel = new vscode.CancellationTokenSource();
    await api.runProfile.runHandler(new vscode.TestRunRequest(), cancel.token);
    cancel.dispose();
    await until('the test run to finish', () => (api.testResults().finishedRuns > before ? true : undefined));
    assert.deepEqual(Object.fromEntries(api.testResults().states), {
      'add-works': 'skipped',
      'clamp-bounds': 'skipped',
      'counter-increments': 'skipped',
    });
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
  });

  test('specs.json is still validated', async () => {
    const api = await weaveApi();
    const doc = await vscode.workspace.openTextDocument(specs);
    const offset = doc.getText().indexOf('"version": 1');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      specs,
      new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + 12)),
      '"version": 7',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    const problem = await until('a diagnostic on version', () =>
      api.diagnosticsFor(specs).find((d) => /version/.test(d.message)),
    );
    assert.equal(problem.range.start.line, doc.positionAt(offset).line);
    assert.equal(fs.existsSync(marker.fsPath), false);
    // Leave the file as the next suites expect it (they do not depend on this test's edit).
    const undo = new vscode.WorkspaceEdit();
    undo.replace(
      specs,
      new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + 12)),
      '"version": 1',
    );
    assert.ok(await vscode.workspace.applyEdit(undo));
    await until('the version diagnostic is gone', () =>
      api.diagnosticsFor(specs).some((d) => /version/.test(d.message)) ? undefined : true,
    );
  });
});

suite('tools for other agents (untrusted)', () => {
  test('the check, blame and affected Language Model Tools refuse; listing specs still works', async () => {
    await weaveApi();
    for (const name of ['weave_check', 'weave_blame', 'weave_affected']) {
      const input = name === 'weave_blame' ? { spec: 'add-works' } : {};
      await assert.rejects(
        Promise.resolve(vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined })),
        /not trusted/,
        name,
      );
    }
    const listed = await vscode.lm.invokeTool('weave_list_specs', {
      input: {},
      toolInvocationToken: undefined,
    });
    assert.match(toolText(listed), /add-works/);
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
  });

  test('the MCP server VS Code would start gets --no-run and refuses to check', async () => {
    const api = await weaveApi();
    const [definition] = api.mcpServerDefinitions();
    assert.ok(definition, 'no MCP server definition');
    assert.ok(definition.args.includes('--no-run'), definition.args.join(' '));
    const client = await connectTo(definition);
    try {
      const check = await callTool(client, 'weave_check', {});
      assert.equal(check.isError, true);
      assert.match(toolText(check), /refuses to run spec tests/);
    } finally {
      await client.close();
    }
    assert.equal(fs.existsSync(marker.fsPath), false, 'a spec test ran');
  });
});
