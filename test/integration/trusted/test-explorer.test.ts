// The Test Explorer: one item per spec grouped by kind, runs through the workbench's own "run all tests".
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import { fixtureFilesForSuite, lineOf, until, weaveApi, workspaceUri } from '../helpers';

suite('Test Explorer', () => {
  fixtureFilesForSuite('src/math.js');
  // The suite's own check: it resolves the anchors the items are placed at (before one, they sit in specs.json).
  suiteSetup(async () => {
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.ok(result.ran, result.ran ? '' : result.message);
  });
  test('items are the specs, grouped by kind, located at their anchors', async () => {
    const api = await weaveApi();
    const controller = api.testController;
    // Expanding the tree is what the Test Explorer does first.
    await controller.resolveHandler?.(undefined);
    const groups = new Map<string, string[]>();
    controller.items.forEach((g) => groups.set(g.id, [...g.children].map(([id]) => id).sort()));
    assert.deepEqual(Object.fromEntries(groups), {
      'kind:functional': ['add-works'],
      'kind:interface': ['counter-increments'],
      'kind:reliability': ['clamp-bounds'],
    });
    const clamp = controller.items.get('kind:reliability')?.children.get('clamp-bounds');
    assert.equal(clamp?.uri?.toString(), workspaceUri('src', 'math.js').toString());
    assert.equal(clamp?.range?.start.line, await lineOf(workspaceUri('src', 'math.js'), 'function clamp('));
  });

  test('"run all tests" runs every spec and reports each verdict', async () => {
    const api = await weaveApi();
    // The fixture's clamp bug (fixtureFilesForSuite) makes one spec fail.
    const tests = api.testResults();
    const before = tests.finishedRuns;
    await vscode.commands.executeCommand('testing.runAll');
    await until(
      'the test run to finish',
      () => (api.testResults().finishedRuns > before ? true : undefined),
      90_000,
    );
    assert.deepEqual(Object.fromEntries(api.testResults().states), {
      'add-works': 'passed',
      'clamp-bounds': 'failed',
      'counter-increments': 'passed',
    });
  });
});
